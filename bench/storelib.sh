# What the store benchmarks (store-concurrency.sh, store-faults.sh,
# store-latency.sh) share, sourced after lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/storelib.sh"
#
# It builds bench/storeload into $work/storeload and replaces lib.sh's exit
# trap: on exit it stops the ctxpack servers started with serve_http and
# the PostgreSQL cluster started with pg_start, then removes $work.
go build -o "$work/storeload" ./bench/storeload
storeload="$work/storeload"
chmod o+x "$work" # PostgreSQL runs as the postgres user when we are root
server_pids=()
pg_dir=""

store_cleanup() {
  local pid
  for pid in "${server_pids[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  done
  if [ -n "$pg_dir" ]; then
    scripts/pgcluster stop "$pg_dir" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap store_cleanup EXIT

# pg_start: starts a private cluster in $work/pg (or again, on the same
# folder) and sets $pg_url to its superuser URL.
pg_start() {
  pg_dir="$work/pg"
  pg_url=$(scripts/pgcluster start "$pg_dir" 2>>"$work/pgcluster.log")
}

# newproject DIR: an empty git repository.
newproject() {
  mkdir -p "$1"
  git -C "$1" init -q
}

# serve_http DIR LOG [FLAGS...]: starts `ctxpack serve --http` on a free
# port of 127.0.0.1 on the project DIR, with the token in $work/token,
# logging to LOG, with the environment's CTXPACK_STORE and
# CTXPACK_STORE_NAMESPACE; sets $server_pid and $server_url once it
# listens.
serve_http() {
  local dir=$1 log=$2
  shift 2
  [ -f "$work/token" ] || head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/token"
  "$work/ctxpack" -C "$dir" serve --http 127.0.0.1:0 --token-file "$work/token" "$@" 2>"$log" &
  server_pid=$!
  server_pids+=("$server_pid")
  server_url=""
  for _ in $(seq 100); do
    server_url=$(grep -o 'url=http://[^ ]*' "$log" 2>/dev/null | head -1 | cut -d= -f2) || true
    [ -n "$server_url" ] && return
    kill -0 "$server_pid" 2>/dev/null || { echo "serve exited:"; cat "$log"; exit 1; }
    sleep 0.1
  done
  echo "serve did not start listening in 10 s:"
  cat "$log"
  exit 1
}

# serve_stop: stops the server $server_pid (SIGTERM: a graceful shutdown).
serve_stop() {
  kill "$server_pid"
  wait "$server_pid" || true
}

# load: the load average, for the output.
load() { uptime | sed 's/.*load average: /load average /'; }

# check_rows LABEL N DIR: lists the memories of DIR's store (with the
# environment's store settings) and prints how many there are, how many
# distinct contents and ids, and whether the ids are exactly 1..N; fails
# unless all hold.
check_rows() {
  local label=$1 n=$2 dir=$3
  "$work/ctxpack" -C "$dir" memory list --format json >"$work/rows.json"
  local rows contents ids exact
  rows=$(jq length "$work/rows.json")
  contents=$(jq '[.[].content] | unique | length' "$work/rows.json")
  ids=$(jq '[.[].id] | unique | length' "$work/rows.json")
  exact=$(jq --argjson n "$n" '[.[].id] | sort == [range(1; $n + 1)]' "$work/rows.json")
  echo "$label: $rows rows of $n, $contents distinct contents, $ids distinct ids, ids exactly 1..$n: $exact"
  [ "$rows" = "$n" ] && [ "$contents" = "$n" ] && [ "$ids" = "$n" ] && [ "$exact" = true ] || {
    echo "$label: FAILED"
    return 1
  }
}
