#!/usr/bin/env bash
# Whole-tool figures: ctxpack and Repomix on the same tree, in the same run,
# on the same machine. Prints the median wall time and peak RSS of RUNS runs
# of each command, and each ctxpack figure as a ratio to Repomix's.
#
#   bench/vs-repomix.sh [TREE] [RUNS]      default: $(go env GOROOT)/src, 3
#
# Repomix 1.14.0 comes from npm into a scratch folder. Its default run packs
# every file as XML with o200k_base token counts and a Secretlint scan; the
# comparable ctxpack run is `pack --format xml` without a budget (every file,
# exact o200k_base counts, XML). `--no-security-check` is measured too,
# since ctxpack has no secret scan yet.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-$(go env GOROOT)/src}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); $(go version | cut -d' ' -f3); node $(node --version)"
echo "tree: $tree ($(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1))"
npm install --prefix "$work" --no-audit --no-fund --silent repomix@1.14.0 >/dev/null
go build -o "$work/ctxpack" ./cmd/ctxpack
repomix="$work/node_modules/.bin/repomix"

# median LABEL CMD...: runs CMD RUNS times, prints "label  median_s  rss_mib"
median() {
  local label=$1; shift
  local times=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { echo "$label failed:"; tail -5 "$work/err"; exit 1; }
    read -r t m < "$work/time"
    times+=("$t"); rss+=("$m")
  done
  local mt mr
  mt=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  mr=$(printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END{printf "%.0f", a[int((NR+1)/2)]/1024}')
  printf '%-48s %8.2f s %7s MiB\n' "$label" "$mt" "$mr"
  echo "$mt" > "$work/last"
}

median "repomix (xml, secretlint)" "$repomix" "$tree" -o "$work/repomix.xml"
base=$(cat "$work/last")
median "repomix --no-security-check" "$repomix" "$tree" --no-security-check -o "$work/repomix2.xml"
base2=$(cat "$work/last")
ratio() { awk -v a="$1" -v b="$2" -v c="$base2" 'BEGIN{printf "   %.1fx faster than repomix (%.1fx than repomix --no-security-check)\n", a/b, c/b}'; }

median "ctxpack pack --format xml (no budget: everything)" "$work/ctxpack" -C "$tree" pack --format xml
ratio "$base" "$(cat "$work/last")"
median "ctxpack tokens (count every file)" "$work/ctxpack" tokens "$tree"
ratio "$base" "$(cat "$work/last")"
median "ctxpack pack --budget 200000 (fit, default)" "$work/ctxpack" -C "$tree" pack --budget 200000
ratio "$base" "$(cat "$work/last")"

echo
echo "repomix summary:"
"$repomix" "$tree" -o "$work/repomix3.xml" 2>&1 | grep -E 'Total (Files|Tokens|Chars)' | sed 's/^/  /' || true
echo "ctxpack (pack --format json, no budget):"
"$work/ctxpack" -C "$tree" pack --format json 2>/dev/null | grep -m2 -E '"(total_tokens|budget)"' | sed 's/^ */  /'
