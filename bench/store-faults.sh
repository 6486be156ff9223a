#!/usr/bin/env bash
# The database killed during a write loop and restarted (issue 19,
# acceptance 3): no partial rows, every acknowledged write present, and
# the ctxpack server recovers without a restart.
#
#   bench/store-faults.sh [ACKS] [OUTAGE_S] [WRITERS]   default: 1000 3 8
#
# A private PostgreSQL cluster (scripts/pgcluster) and `ctxpack serve
# --http` on it (CTXPACK_STORE, namespace faults, --max-concurrent
# WRITERS). WRITERS MCP sessions (bench/storeload loop) add memories
# through store_edit, each one after another, writing each acknowledged
# content to a file the moment it is acknowledged; the first also reads
# (context on memories) every 10th call. Once ACKS writes are
# acknowledged, every PostgreSQL process gets SIGKILL (the postmaster is
# stopped first and its children listed by parent: each leads a process
# group of its own), as a crash would end them. While the database is
# down (at least 3 failed writes, then OUTAGE_S seconds), a fresh session
# reads and writes once (bench/storeload probe): both must fail, with the
# error's text printed. Then the cluster starts again on the same folder
# and port (crash recovery), and the loop goes on until ACKS more writes
# are acknowledged; a probe then must succeed.
#
# Checks, each printed: every failure during the outage says that the
# database cannot be reached (or PostgreSQL's own: not yet accepting
# connections); the server's process is the one started at
# first and answered reads and writes after the restart; every acknowledged
# content is in the store (memory list), and each once; no memory lacks
# its search terms (term_docs, tbl 1) and no term_docs or terms row lacks
# its memory (SQL through psql). Prints the counts (acknowledged, failed,
# stored, stored but not acknowledged: written when the connection broke
# before the answer) and the distinct error texts of the outage. Exits 1
# when a check fails. Needs PostgreSQL's server and client (psql) and jq.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/storelib.sh"
acks=${1:-1000}
outage=${2:-3}
writers=${3:-8}
pg_start
echo "postgres: $("$(scripts/pgcluster bindir)/postgres" --version); a private cluster, fsync off"
echo "load before: $(load)"
status=0
fail() {
  echo "FAILED: $*"
  status=1
}

proj="$work/proj"
newproject "$proj"
export CTXPACK_STORE=$pg_url CTXPACK_STORE_NAMESPACE=faults
serve_http "$proj" "$work/serve.log" --max-concurrent "$writers"
first_pid=$server_pid
echo "ctxpack server: pid $first_pid, $server_url"

acked="$work/acked" looplog="$work/loop.log" stop="$work/stop"
"$storeload" loop -url "$server_url" -token-file "$work/token" -acked "$acked" -log "$looplog" -stop "$stop" -writers "$writers" &
loop_pid=$!
count() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
# wait_for N CMD...: polls CMD until it succeeds, for at most N seconds.
wait_for() {
  local n=$1
  shift
  for _ in $(seq $((n * 10))); do
    "$@" && return
    kill -0 "$loop_pid" 2>/dev/null || { echo "the write loop exited"; cat "$looplog"; exit 1; }
    sleep 0.1
  done
  echo "timed out after $n s waiting for: $*"
  exit 1
}
acked_at_least() { [ "$(count "$acked")" -ge "$1" ]; }
failed_since() { [ "$(tail -n +"$(($1 + 1))" "$looplog" | grep -c 'write .* failed')" -ge "$2" ]; }

wait_for 120 acked_at_least "$acks"
# The kill: stop the postmaster so it forks no more, list its children,
# SIGKILL them all, wait until they are gone.
log_at_kill=$(count "$looplog")
pm=$(head -1 "$pg_dir/data/postmaster.pid")
kill -STOP "$pm"
children=$(ps -o pid= --ppid "$pm" | tr '\n' ' ')
kill -KILL "$pm" $children
for p in $pm $children; do
  while kill -0 "$p" 2>/dev/null; do sleep 0.01; done
done
acked_at_kill=$(count "$acked") # the writes in flight at the kill may have been acknowledged
echo "killed postgres: postmaster $pm and $(echo $children | wc -w) children with SIGKILL, after $acked_at_kill acknowledged writes"

wait_for 60 failed_since "$log_at_kill" 3
sleep "$outage"
echo "during the outage, a fresh session (probe):"
"$storeload" probe -url "$server_url" -token-file "$work/token" | tee "$work/probe-down" | sed 's/^/  /'
grep -q '^read: ok' "$work/probe-down" && fail "a read answered while the database was down"
grep -q '^write: ok' "$work/probe-down" && fail "a write was acknowledged while the database was down"
grep -q 'cannot be reached' "$work/probe-down" || fail "the probe's errors do not say that the database cannot be reached"

acked_down=$(($(count "$acked") - acked_at_kill))
scripts/pgcluster start "$pg_dir" >"$work/url2" 2>>"$work/pgcluster.log"
[ "$(cat "$work/url2")" = "$pg_url" ] || fail "the cluster came back on another URL: $(cat "$work/url2")"
acked_at_restart=$(count "$acked")
log_at_restart=$(count "$looplog")
echo "restarted postgres (crash recovery); writes acknowledged after the kill and before the restart: $acked_down (only a write whose answer was on its way at the kill may be)"
wait_for 300 acked_at_least $((acked_at_restart + acks))
echo "after the restart, a fresh session (probe):"
"$storeload" probe -url "$server_url" -token-file "$work/token" | tee "$work/probe-up" | sed 's/^/  /'
grep -q '^read: ok' "$work/probe-up" || fail "no read answered after the restart"
grep -q '^write: ok' "$work/probe-up" || fail "no write acknowledged after the restart"
touch "$stop"
wait "$loop_pid"

reads_after=$(awk -v a="$log_at_restart" 'NR > a' "$looplog" | grep -c 'read ok' || true)
writes_after=$(($(count "$acked") - acked_at_restart))
if kill -0 "$first_pid" 2>/dev/null && [ "$server_pid" = "$first_pid" ]; then
  echo "server: the same process (pid $first_pid) served throughout; after the restart it answered $reads_after reads and acknowledged $writes_after writes of the loop"
else
  fail "the ctxpack server (pid $first_pid) is gone"
fi
[ "$reads_after" -gt 0 ] && [ "$writes_after" -gt 0 ] || fail "no read or no write answered after the restart"

# lines FROM TO: the loop's log lines FROM+1..TO; texts FROM TO: their
# distinct failures, with ids, times and ports removed, most frequent first.
lines() { awk -v a="$1" -v b="$2" 'NR > a && NR <= b' "$looplog"; }
texts() {
  lines "$1" "$2" | grep failed |
    sed -E 's/^[0-9:.]+ //; s/(write) [0-9]+-[0-9]+ failed/\1 failed/; s/127\.0\.0\.1:[0-9]+/127.0.0.1:PORT/g' |
    sort | uniq -c | sort -rn | head -8 | sed 's/^ */  /' || true
}
log_end=$(count "$looplog")
echo "failures before the kill: $(lines 0 "$log_at_kill" | grep -c failed || true)"
echo "failures from the kill to the restart (distinct texts, with their counts):"
texts "$log_at_kill" "$log_at_restart"
echo "failures after the restart: $(lines "$log_at_restart" "$log_end" | grep -c failed || true)"
texts "$log_at_restart" "$log_end"
# PostgreSQL's own "not yet accepting connections" (57P03, while it
# recovers) is clear too.
unclear=$(lines "$log_at_kill" "$log_at_restart" | grep failed | grep -vcE 'cannot be reached|not yet accepting connections' || true)
echo "failures from the kill to the restart that do not say the database cannot be reached (or is starting): $unclear"
[ "$unclear" = 0 ] || fail "$unclear failures during the outage do not say that the database cannot be reached"
failed_total=$(grep -c 'write .* failed' "$looplog" || true)
reads_failed=$(grep -c 'read failed' "$looplog" || true)

"$work/ctxpack" -C "$proj" memory list --format json >"$work/rows.json"
jq -r '.[].content' "$work/rows.json" | sort >"$work/stored"
sort "$acked" >"$work/acked.sorted"
missing=$(comm -23 "$work/acked.sorted" "$work/stored" | wc -l)
dups=$(uniq -d "$work/stored" | wc -l)
unacked=$(comm -13 "$work/acked.sorted" "$work/stored" | grep -c '^loop note' || true)
echo "writes: $(count "$acked") acknowledged, $failed_total failed; reads failed: $reads_failed"
echo "stored: $(wc -l <"$work/stored") memories; acknowledged but missing: $missing; duplicated contents: $dups; loop writes stored but not acknowledged: $unacked; probe writes stored: $(grep -c '^probe note' "$work/stored" || true)"
[ "$missing" = 0 ] || fail "$missing acknowledged writes are missing"
[ "$dups" = 0 ] || fail "$dups contents are stored twice"

partial=$(psql -X -A -t -q "$pg_url" -c "SELECT
  (SELECT count(*) FROM memories m WHERE m.ns = 'faults' AND NOT EXISTS (SELECT 1 FROM term_docs d WHERE d.tbl = 1 AND d.ns = m.ns AND d.id = m.id)) || ' ' ||
  (SELECT count(*) FROM term_docs d WHERE d.tbl = 1 AND d.ns = 'faults' AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.ns = d.ns AND m.id = d.id)) || ' ' ||
  (SELECT count(*) FROM terms p WHERE p.tbl = 1 AND p.ns = 'faults' AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.ns = p.ns AND m.id = p.id))")
read -r no_docs no_mem_docs no_mem_terms <<<"$partial"
echo "partial rows: $no_docs memories without term_docs, $no_mem_docs term_docs without their memory, $no_mem_terms terms without their memory"
[ "$no_docs $no_mem_docs $no_mem_terms" = "0 0 0" ] || fail "partial rows"
echo "load after: $(load)"
[ $status = 0 ] && echo "all checks hold"
exit $status
