#!/usr/bin/env bash
# Split output on a real tree: `ctxpack pack --split-output` for each budget,
# every output counted again by the reference tokenizer (tiktoken, from
# testdata/tokref, as TestTokensMatchReference runs it) and checked to be
# within the budget, and the union of the outputs' files checked to be the
# unbudgeted pack's files, a file cut into pieces covered line by line.
#
#   bench/split-output.sh [TREE] [BUDGETS]   default: $(go env GOROOT)/src, "8000 32000 128000"
#
# The tree is copied to the scratch folder and made a git repository of
# its own (nothing is written in TREE). Exits 1 when a check fails.
. "$(dirname "$0")/lib.sh"
src=${1:-$(go env GOROOT)/src}
budgets=${2:-8000 32000 128000}
tree="$work/tree"
snapshot "$src" "$tree"
echo "tree: $src ($(git -C "$tree" ls-files | wc -l) files); node $(node --version)"
[ -d testdata/tokref/node_modules ] || npm ci --prefix testdata/tokref --no-audit --no-fund --silent
"$work/ctxpack" -C "$tree" pack --no-record --overflow allow --format json >"$work/all.json" 2>/dev/null
echo "unbudgeted pack: $(grep -m1 '"total_tokens"' "$work/all.json" | tr -dc 0-9) tokens"
status=0
for b in $budgets; do
  mkdir "$work/s$b"
  /usr/bin/time -f "%e %M" -o "$work/time" "$work/ctxpack" -C "$tree" pack --no-record --split-output --budget "$b" --format json -o "$work/s$b/out.json" 2>"$work/err" || { echo "budget $b failed:"; tail -5 "$work/err"; exit 1; }
  read -r t m <"$work/time"
  echo "budget $b: ctxpack pack --split-output --budget $b --format json: ${t} s, $((m / 1024)) MiB"
  node bench/split/check.mjs "$work/all.json" "$work/s$b" | sed 's/^/  /' || status=1
  # The reference counts every output's content; the largest must be
  # within the budget, and every count equal to ctxpack's.
  (cd "$work/s$b" && ls out.*.txt | sort -t. -k2 -n | xargs node "$OLDPWD/testdata/tokref/count.mjs" o200k_base) >"$work/ref$b"
  for f in "$work/s$b"/out.*.json; do
    printf '%s\t%s\n' "$(grep -m1 '"total_tokens"' "$f" | tr -dc 0-9)" "$(basename "${f%.json}.txt")"
  done | sort -k2 >"$work/own$b"
  sort -k2 "$work/ref$b" >"$work/refs$b"
  differ=$(join -1 2 -2 2 "$work/own$b" "$work/refs$b" | awk '$2 != $3' | wc -l)
  read -r n max sum < <(awk -v b="$b" '{n++; s+=$1; if ($1>m) m=$1} END{print n, m, s}' "$work/ref$b")
  over=$(awk -v b="$b" '$1 > b' "$work/ref$b" | wc -l)
  echo "  tiktoken o200k_base: $n outputs, largest $max tokens, $over over $b, $sum in all; $differ counts differ from ctxpack's"
  [ "$over" -eq 0 ] && [ "$differ" -eq 0 ] || status=1
done
exit $status
