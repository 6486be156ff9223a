#!/usr/bin/env bash
# Whole-tool figures: ctxpack and Repomix on the same tree, in the same run,
# on the same machine. Prints the median wall time and peak RSS of RUNS runs
# of each command; the commands take turns, run by run, so that load from
# elsewhere on the machine falls on all of them alike.
#
#   bench/vs-repomix.sh [TREE] [RUNS] [BASE]   default: $(go env GOROOT)/src, 3
#
# BASE, when given, is another ctxpack binary (an older build, say) whose
# two pack commands run in the same turns, for a before/after table.
#
# The tree is copied to the scratch folder and made a git repository of its
# own with one commit: under a budget, recency comes from git history, and a
# tree inside another repository would be ranked by that one's.
#
# Repomix 1.18.1 comes from npm into the scratch folder. Its default run packs
# every file as XML with o200k_base token counts and a Secretlint scan; the
# comparable ctxpack run is `pack --overflow allow --format xml` (every file,
# exact o200k_base counts, XML; --overflow allow is also what no budget
# means). `pack --budget 200000` fits the tree to a budget, ranked by
# structure. Both scan for secrets by default (Repomix with Secretlint,
# ctxpack's redact stage); `--no-security-check` is measured too, beside
# bench/secrets/cost.sh's `--no-redact` for ctxpack.
. "$(dirname "$0")/lib.sh"
src=${1:-$(go env GOROOT)/src}
runs=${2:-3}
base=${3:-}
tree="$work/tree"
snapshot "$src" "$tree"
echo "tree: $src ($(find "$tree" -type f -not -path '*/.git/*' | wc -l) files, $(du -sh --exclude=.git "$tree" | cut -f1)); node $(node --version)"
npm install --prefix "$work" --no-audit --no-fund --silent repomix@1.18.1 >/dev/null
repomix="$work/node_modules/.bin/repomix"
echo "repomix $("$repomix" --version)"
echo "load before: $(uptime | sed 's/.*load average/load average/')"

# The commands, by label; each run runs every one of them once, in turn.
labels=() cmds=()
add() { labels+=("$1"); shift; cmds+=("$(printf '%q ' "$@")"); }
add "repomix (xml, secretlint)" "$repomix" "$tree" -o "$work/repomix.xml"
add "repomix --no-security-check" "$repomix" "$tree" --no-security-check -o "$work/repomix2.xml"
add "ctxpack pack --budget 200000" "$work/ctxpack" -C "$tree" pack --no-record --budget 200000
add "ctxpack pack --overflow allow --format xml" "$work/ctxpack" -C "$tree" pack --no-record --overflow allow --format xml
if [ -n "$base" ]; then
  add "base: ctxpack pack --budget 200000" "$base" -C "$tree" pack --no-record --budget 200000
  add "base: ctxpack pack --overflow allow --format xml" "$base" -C "$tree" pack --no-record --overflow allow --format xml
fi

for r in $(seq "$runs"); do
  for i in "${!cmds[@]}"; do
    eval "/usr/bin/time -f '%e %M' -o '$work/time' ${cmds[$i]}" >/dev/null 2>"$work/err" || { echo "${labels[$i]} failed:"; tail -5 "$work/err"; exit 1; }
    read -r t m < "$work/time"
    echo "$t $m" >> "$work/times.$i"
  done
done
printf '%-52s %10s %12s\n' "command ($runs runs, medians)" "wall" "peak RSS"
for i in "${!cmds[@]}"; do
  t=$(cut -d' ' -f1 "$work/times.$i" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  m=$(cut -d' ' -f2 "$work/times.$i" | sort -n | awk '{a[NR]=$1} END{printf "%.1f", a[int((NR+1)/2)]/1024}')
  printf '%-52s %8.2f s %8s MiB\n' "${labels[$i]}" "$t" "$m"
done
echo "load after: $(uptime | sed 's/.*load average/load average/')"

echo
echo "repomix summary:"
"$repomix" "$tree" -o "$work/repomix3.xml" 2>&1 | grep -E 'Total (Files|Tokens|Chars)' | sed 's/^/  /' || true
echo "ctxpack (pack --format json, no budget):"
"$work/ctxpack" -C "$tree" pack --no-record --format json >"$work/plan.json" 2>/dev/null
grep -m2 -E '"(total_tokens|budget)"' "$work/plan.json" | sed 's/^ */  /'
