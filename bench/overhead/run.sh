#!/usr/bin/env bash
# The overhead of retrieval contexts (issue 27, acceptance 3): for each
# question of QUESTIONS (one per line), on the tree TREE, `ctxpack context`
# at BUDGET (8000) tokens, and the share of the output that is not the
# parts' text (the plan's metrics.overhead over total_tokens: headers and
# their notes, separators, the tree of what is left out).
#
#   bench/overhead/run.sh CTXPACK TREE QUESTIONS [BUDGET]
#
# bench/overhead/flask.txt and nethttp.txt are the questions the issue
# was measured with; TREE is a checkout of pallets/flask, or a copy of
# $(go env GOROOT)/src/net/http made its own git repository (git init).
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
bin=$1 tree=$2 questions=$3 budget=${4:-8000}
command -v jq >/dev/null || { echo "run.sh: needs jq" >&2; exit 2; }
printf '%-70s %8s %8s %7s %6s\n' question tokens overhead share parts
sum=0 n=0
while IFS= read -r q; do
	[[ -z $q || $q == \#* ]] && continue
	plan=$("$bin" -C "$tree" context "$q" --budget "$budget" --format json 2>/dev/null)
	read -r total over parts < <(jq -r '"\(.total_tokens) \(.metrics.overhead) \(.parts | length)"' <<<"$plan")
	share=$(awk -v o="$over" -v t="$total" 'BEGIN { printf "%.3f", o / t }')
	printf '%-70s %8d %8d %7s %6d\n' "${q:0:70}" "$total" "$over" "$share" "$parts"
	sum=$(awk -v s="$sum" -v x="$share" 'BEGIN { print s + x }')
	n=$((n + 1))
done < "$questions"
awk -v s="$sum" -v n="$n" 'BEGIN { printf "mean share %.3f over %d questions\n", s / n, n }'
