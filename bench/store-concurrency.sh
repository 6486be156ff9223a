#!/usr/bin/env bash
# Many writers at once lose nothing (issue 19, acceptance 2): WRITERS
# concurrent writers each add ADDS memories of their own content, and then
# the store must hold WRITERS x ADDS rows, every content once, with the
# ids exactly 1..WRITERS x ADDS. Three runs, each on a namespace or
# project of its own:
#
#   cli postgres  WRITERS shell loops, each running `ctxpack memory add
#                 "writer W note I ..."` ADDS times (a process per add),
#                 on a private PostgreSQL cluster (CTXPACK_STORE)
#   cli sqlite    the same on the project's SQLite store, for comparison
#   mcp postgres  `ctxpack serve --http` on that cluster, with
#                 --max-concurrent WRITERS (every writer's request runs at
#                 once; the default is twice the CPUs); WRITERS MCP
#                 sessions (bench/storeload add), each calling store_edit
#                 add ADDS times
#
#   bench/store-concurrency.sh [WRITERS] [ADDS]   default: 20 500
#
# Prints the wall time and adds/s of each run, the failed adds (with the
# first errors) and the rows check; exits 1 when a check fails. Needs
# PostgreSQL's server (scripts/pgcluster) and jq.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/storelib.sh"
writers=${1:-20}
adds=${2:-500}
n=$((writers * adds))
pg_start
echo "postgres: $("$(scripts/pgcluster bindir)/postgres" --version); a private cluster, fsync off"
echo "load before: $(load)"
status=0

# cli_writers LABEL DIR: the WRITERS shell loops on DIR, with the
# environment's store; prints the wall time and the failures.
cli_writers() {
  local label=$1 dir=$2
  rm -f "$work"/fail.*
  local start end
  start=$(date +%s.%N)
  for w in $(seq "$writers"); do
    (
      for i in $(seq "$adds"); do
        "$work/ctxpack" -C "$dir" memory add "$(printf 'writer %02d note %03d about invoice rounding' "$w" "$i")" >/dev/null 2>>"$work/fail.$w" ||
          echo "writer $w note $i: exit $?" >>"$work/fail.$w"
      done
    ) &
  done
  wait
  end=$(date +%s.%N)
  local failed
  failed=$(cat "$work"/fail.* 2>/dev/null | grep -c '^writer .*: exit' || true)
  awk -v l="$label" -v s="$start" -v e="$end" -v n="$n" -v f="$failed" -v w="$writers" -v a="$adds" \
    'BEGIN { printf "%s writers %d x %d adds: %d failed, wall %.1f s, %.0f adds/s\n", l, w, a, f, e - s, (n - f) / (e - s) }'
  if [ "$failed" != 0 ]; then
    cat "$work"/fail.* | grep -v '^writer .*: exit' | sort | uniq -c | sort -rn | head -5 | sed 's/^/  error: /'
  fi
}

newproject "$work/cli-pg"
export CTXPACK_STORE=$pg_url CTXPACK_STORE_NAMESPACE=cli
cli_writers "cli postgres" "$work/cli-pg"
check_rows "cli postgres" "$n" "$work/cli-pg" || status=1

newproject "$work/cli-sqlite"
unset CTXPACK_STORE CTXPACK_STORE_NAMESPACE
cli_writers "cli sqlite" "$work/cli-sqlite"
check_rows "cli sqlite" "$n" "$work/cli-sqlite" || status=1

newproject "$work/mcp-pg"
export CTXPACK_STORE=$pg_url CTXPACK_STORE_NAMESPACE=mcp
serve_http "$work/mcp-pg" "$work/serve.log" --max-concurrent "$writers"
"$storeload" add -url "$server_url" -token-file "$work/token" -writers "$writers" -adds "$adds"
serve_stop
check_rows "mcp postgres" "$n" "$work/mcp-pg" || status=1
echo "load after: $(load)"
exit $status
