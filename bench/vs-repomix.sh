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
. "$(dirname "$0")/lib.sh"
tree=${1:-$(go env GOROOT)/src}
runs=${2:-3}
echo "tree: $tree ($(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1)); node $(node --version)"
npm install --prefix "$work" --no-audit --no-fund --silent repomix@1.14.0 >/dev/null
repomix="$work/node_modules/.bin/repomix"

median "repomix (xml, secretlint)" : "$repomix" "$tree" -o "$work/repomix.xml"
base=$(cat "$work/last")
median "repomix --no-security-check" : "$repomix" "$tree" --no-security-check -o "$work/repomix2.xml"
base2=$(cat "$work/last")
ratio() { awk -v a="$1" -v b="$2" -v c="$base2" 'BEGIN{printf "   %.1fx faster than repomix (%.1fx than repomix --no-security-check)\n", a/b, c/b}'; }

median "ctxpack pack --format xml (no budget: everything)" : "$work/ctxpack" -C "$tree" pack --format xml
ratio "$base" "$(cat "$work/last")"
median "ctxpack tokens (count every file)" : "$work/ctxpack" tokens "$tree"
ratio "$base" "$(cat "$work/last")"
median "ctxpack pack --budget 200000 (fit, default)" : "$work/ctxpack" -C "$tree" pack --budget 200000
ratio "$base" "$(cat "$work/last")"

echo
echo "repomix summary:"
"$repomix" "$tree" -o "$work/repomix3.xml" 2>&1 | grep -E 'Total (Files|Tokens|Chars)' | sed 's/^/  /' || true
echo "ctxpack (pack --format json, no budget):"
"$work/ctxpack" -C "$tree" pack --format json 2>/dev/null | grep -m2 -E '"(total_tokens|budget)"' | sed 's/^ */  /'
