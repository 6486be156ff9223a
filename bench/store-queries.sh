#!/usr/bin/env bash
# store-queries.sh CTXPACK DIR [QUERIES]: runs the store's query set on the
# project DIR and prints one line per query: its kind, the query and the
# digest of the output, "kind<TAB>query<TAB>digest".
#
# The query set (200 queries by default: 150 in sources mode over
# memories, experiences and values, 50 premortems) is made from DIR's
# store by bench/store-queryset.sh; a file of "kind<TAB>query" lines can
# be given instead. Two stores with the same rows, on SQLite and on
# PostgreSQL, must print the same lines (issue 19's equivalence): compare
# the outputs with cmp.
set -euo pipefail
cx=$1 dir=$2 queries=${3:-}
if [ -z "$queries" ]; then
  echo "store-queries.sh: give the query file (bench/store-queryset.sh makes one)" >&2
  exit 2
fi
while IFS=$'\t' read -r kind q; do
  case $kind in
    sources) d=$("$cx" -C "$dir" context "$q" --sources memories,experiences,values --budget 4000 --format json --no-record | jq -r .digest) ;;
    premortem)
      domain=${q%% *} strategy=${q#* }
      args=(premortem "$domain")
      [ "$strategy" != "$q" ] && args+=(--strategy "$strategy")
      d=$("$cx" -C "$dir" "${args[@]}" --budget 4000 --format json --no-record | jq -r .digest) ;;
    *) echo "store-queries.sh: unknown kind $kind" >&2; exit 2 ;;
  esac
  printf '%s\t%s\t%s\n' "$kind" "$q" "$d"
done <"$queries"
