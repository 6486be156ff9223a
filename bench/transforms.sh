#!/usr/bin/env bash
# The cost of the text transforms, beside Repomix's: `ctxpack pack` plain,
# with --line-numbers and with --remove-comments, and Repomix 1.18.1 plain,
# with --output-show-line-numbers and with --remove-comments, on the same
# tree, in one run. Prints the median wall time and peak RSS of RUNS runs of
# each; the commands take turns, run by run, so that load from elsewhere on
# the machine falls on all of them alike. Then the ratios.
#
#   bench/transforms.sh [TREE] [RUNS]   default: $(go env GOROOT)/src, 3
#
# Every command packs every file with no budget as XML (Repomix's default;
# ctxpack's --overflow allow --format xml), both with their secret scans
# (Secretlint, the redact stage), and ctxpack with --include-generated:
# Repomix packs lock and generated files, which ctxpack leaves out by
# default, and both must pack the same files. The tree is copied to the scratch folder
# and made a git repository of its own; Repomix comes from npm into it.
. "$(dirname "$0")/lib.sh"
src=${1:-$(go env GOROOT)/src}
runs=${2:-3}
tree="$work/tree"
snapshot "$src" "$tree"
echo "tree: $src ($(git -C "$tree" ls-files | wc -l) files); node $(node --version)"
npm install --prefix "$work" --no-audit --no-fund --silent repomix@1.18.1 >/dev/null
repomix="$work/node_modules/.bin/repomix"
echo "repomix $("$repomix" --version)"
echo "load before: $(uptime | sed 's/.*load average/load average/')"

labels=() cmds=()
add() { labels+=("$1"); shift; cmds+=("$(printf '%q ' "$@")"); }
cp="$work/ctxpack -C $tree pack --no-record --overflow allow --format xml --include-generated"
add "ctxpack pack (xml, no budget)" $cp
add "ctxpack pack --line-numbers" $cp --line-numbers
add "ctxpack pack --remove-comments" $cp --remove-comments
add "ctxpack pack --remove-comments --remove-empty-lines" $cp --remove-comments --remove-empty-lines
add "repomix" "$repomix" "$tree" -o "$work/r1.xml"
add "repomix --output-show-line-numbers" "$repomix" "$tree" --output-show-line-numbers -o "$work/r2.xml"
add "repomix --remove-comments" "$repomix" "$tree" --remove-comments -o "$work/r3.xml"

for r in $(seq "$runs"); do
  for i in "${!cmds[@]}"; do
    eval "/usr/bin/time -f '%e %M' -o '$work/time' ${cmds[$i]}" >/dev/null 2>"$work/err" || { echo "${labels[$i]} failed:"; tail -5 "$work/err"; exit 1; }
    read -r t m < "$work/time"
    echo "$t $m" >> "$work/times.$i"
  done
done
printf '%-56s %10s %12s\n' "command ($runs runs, medians)" "wall" "peak RSS"
declare -a med
for i in "${!cmds[@]}"; do
  t=$(cut -d' ' -f1 "$work/times.$i" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  m=$(cut -d' ' -f2 "$work/times.$i" | sort -n | awk '{a[NR]=$1} END{printf "%.1f", a[int((NR+1)/2)]/1024}')
  med[$i]=$t
  printf '%-56s %8.2f s %8s MiB\n' "${labels[$i]}" "$t" "$m"
done
echo "load after: $(uptime | sed 's/.*load average/load average/')"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }
echo
echo "ratios (wall time):"
echo "  ctxpack --line-numbers / ctxpack plain:     $(ratio "${med[1]}" "${med[0]}")"
echo "  ctxpack --remove-comments / ctxpack plain:  $(ratio "${med[2]}" "${med[0]}")"
echo "  repomix --remove-comments / repomix plain:  $(ratio "${med[6]}" "${med[4]}")"
echo "  repomix --remove-comments / ctxpack --remove-comments: $(ratio "${med[6]}" "${med[2]}")"
echo "  repomix --output-show-line-numbers / ctxpack --line-numbers: $(ratio "${med[5]}" "${med[1]}")"
echo
echo "output tokens (o200k_base; ctxpack's plans, Repomix's summary):"
for f in "" --line-numbers --remove-comments "--remove-comments --remove-empty-lines"; do
  # shellcheck disable=SC2086
  "$work/ctxpack" -C "$tree" pack --no-record --overflow allow --format json --include-generated $f >"$work/plan.json" 2>/dev/null
  echo "  ctxpack pack ${f:-(plain)}: $(grep -m1 '"total_tokens"' "$work/plan.json" | tr -dc 0-9)"
done
for f in "" --output-show-line-numbers --remove-comments; do
  # shellcheck disable=SC2086
  "$repomix" "$tree" $f -o "$work/rs.xml" >"$work/rs.log" 2>&1
  echo "  repomix ${f:-(plain)}: $(grep -m1 'Total Tokens' "$work/rs.log" | tr -dc 0-9,)"
done
