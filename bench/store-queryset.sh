#!/usr/bin/env bash
# store-queryset.sh CTXPACK DIR [N]: prints a query set for
# bench/store-queries.sh, made from the rows of DIR's store through
# ctxpack itself (so it reads a store on either backend): N sources-mode
# queries (default 150), each words 3 to 7 of every (rows/N)th memory's
# content or experience's goal, taking turns, and 50 premortems, one per
# domain and then one per domain and strategy pair, in sorted order.
# Lines are "kind<TAB>query"; the set depends on the rows alone.
set -euo pipefail
cx=$1 dir=$2 n=${3:-150}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$cx" -C "$dir" memory list --format json | jq -r '.[].content' >"$tmp/mem"
"$cx" -C "$dir" experience list --format json | jq -r '.[] | [.goal, .domain, (.strategy // "")] | @tsv' >"$tmp/exp"
pick() { # every (lines/want)th line's words 3..7
  awk -v want="$2" 'NR==FNR {n++; next} {i++} n > 0 && i % int(n/want > 1 ? n/want : 1) == 0 && c < want {
    out = ""; for (w = 3; w <= 7 && w <= NF; w++) out = out (out == "" ? "" : " ") $w
    gsub(/[^A-Za-z0-9 _-]/, "", out); if (out != "") { print out; c++ } }' "$1" "$1"
}
pick "$tmp/mem" $((n - n/3)) >"$tmp/q1"
cut -f1 "$tmp/exp" >"$tmp/goals"; pick "$tmp/goals" $((n/3)) >"$tmp/q2"
paste -d'\n' "$tmp/q1" "$tmp/q2" | grep -v '^$' | head -n "$n" | sed 's/^/sources\t/'
{ cut -f2 "$tmp/exp" | sort -u; cut -f2,3 "$tmp/exp" | awk -F'\t' '$2 != "" {print $1 " " $2}' | sort -u; } |
  head -n 50 | sed 's/^/premortem\t/'
