#!/usr/bin/env bash
# The latency of sources mode on PostgreSQL against SQLite (issue 19,
# acceptance 4), on the same machine and the same rows: 10,000 memories,
# 5,000 experiences and 500 values (bench/gensources) in the project's
# SQLite store, exported (`ctxpack store export`) and imported (`store
# import`) into a private PostgreSQL cluster (namespace bench).
#
#   bench/store-latency.sh [QUERIES] [CLIENTS...]   default: 1000 1 50
#
# The query set is bench/store-queryset.sh's QUERIES sources-mode queries
# (its premortems are left out). For each backend:
#
#   cli   each query a fresh `ctxpack context QUERY --sources
#         memories,experiences,values --budget 4000 --format json
#         --no-record --no-cache` process, one after another
#   http  `ctxpack serve --http --read-only` (no cache or record written,
#         as the CLI's flags; --max-concurrent left at its default, twice
#         the CPUs, so requests past that wait), and for each number of
#         CLIENTS that many MCP sessions (bench/storeload query) sharing
#         the queries, each calling the context tool with target, sources
#         [memories, experiences, values], budget 4000 and format json: 1
#         client gives a request's own time in a running server, 50 what
#         a client sees under load (mostly waiting for its turn)
#
# Prints, per backend and mode, the p50, p99 and largest latency of a
# query (http: a request as the client sees it, waiting included) and the
# queries/s, and the load average before and after each run: the machine
# should be otherwise quiet. Then checks that every query gave the same
# digest in all four runs; exits 1 when one differs. Needs PostgreSQL's
# server (scripts/pgcluster) and jq; the store's words come from
# $(go env GOROOT)/src.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/storelib.sh"
queries=${1:-1000}
shift || true
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(1 50)
cx="$work/ctxpack"
go build -o "$work/gensources" ./bench/gensources
pg_start
echo "postgres: $("$(scripts/pgcluster bindir)/postgres" --version); a private cluster, fsync off"

proj="$work/proj"
newproject "$proj"
unset CTXPACK_STORE CTXPACK_STORE_NAMESPACE
"$work/gensources" -root "$proj" | sed 's/^/sqlite store: /'
"$cx" -C "$proj" store export -o "$work/store.jsonl"
start=$(date +%s.%N)
CTXPACK_STORE=$pg_url CTXPACK_STORE_NAMESPACE=bench "$cx" -C "$proj" store import "$work/store.jsonl" >/dev/null
echo "import into postgres (untimed for the latency): $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}') s, $(wc -l <"$work/store.jsonl") lines"
CTXPACK_STORE=$pg_url CTXPACK_STORE_NAMESPACE=bench "$cx" -C "$proj" store info | grep rows | sed 's/^/postgres store: /'
bench/store-queryset.sh "$cx" "$proj" "$queries" | grep '^sources' >"$work/queries"
echo "queries: $(wc -l <"$work/queries") sources-mode queries ($(cut -f2 "$work/queries" | sort -u | wc -l) distinct)"

# backend NAME: sets the environment for the backend NAME.
backend() {
  if [ "$1" = postgres ]; then
    export CTXPACK_STORE=$pg_url CTXPACK_STORE_NAMESPACE=bench
  else
    unset CTXPACK_STORE CTXPACK_STORE_NAMESPACE
  fi
}

for b in sqlite postgres; do
  backend $b
  echo "-- $b, cli (load before: $(load))"
  "$storeload" exec -cx "$cx" -dir "$proj" -queries "$work/queries" -digests "$work/digests.cli.$b" | sed "s/^/$b /"
done
for b in sqlite postgres; do
  backend $b
  serve_http "$proj" "$work/serve.$b.log" --read-only
  for c in "${clients[@]}"; do
    echo "-- $b, http, $c clients (load before: $(load))"
    "$storeload" query -url "$server_url" -token-file "$work/token" -queries "$work/queries" -clients "$c" -digests "$work/digests.http$c.$b" | sed "s/^/$b /"
  done
  serve_stop
done
echo "load after: $(load)"

status=0
for f in cli.postgres $(for c in "${clients[@]}"; do echo "http$c.sqlite http$c.postgres"; done); do
  if cmp -s "$work/digests.cli.sqlite" "$work/digests.$f"; then
    echo "digests: $f the same as cli.sqlite for all $(wc -l <"$work/digests.$f") queries"
  else
    echo "digests: $f DIFFERS from cli.sqlite on $(paste "$work/digests.cli.sqlite" "$work/digests.$f" | awk -F'\t' '$2 != $4' | wc -l) queries"
    status=1
  fi
done
exit $status
