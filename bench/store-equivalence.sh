#!/usr/bin/env bash
# Issue 19's equivalence and round trip: the same rows answer the same on
# SQLite and PostgreSQL, and export → import → export gives the same file
# both ways.
#
#   bench/store-equivalence.sh [MEMORIES EXPERIENCES VALUES]
#
# 1. bench/gensources fills a project's SQLite store (default 10,000
#    memories, 5,000 experiences, 500 values; seed 1).
# 2. A throwaway PostgreSQL cluster (scripts/pgcluster) gets a database;
#    `store export` of the SQLite store is imported into it (namespace
#    bench), exported again and compared with the first export; that
#    export is imported into a new, empty SQLite store and exported again
#    and compared; a second import of it changes nothing.
# 3. `value derive` proposes values from both stores' experiences: the
#    JSON must be the same.
# 4. bench/store-queryset.sh makes 200 queries from the rows (150 in
#    sources mode over memories, experiences and values, 50 premortems);
#    bench/store-queries.sh runs each on both stores (a fresh process
#    each, --format json) and the digests are compared query by query.
#
# Needs PostgreSQL's server (apt-get install postgresql), psql and jq.
. "$(dirname "$0")/lib.sh"
nmem=${1:-10000} nexp=${2:-5000} nval=${3:-500}
cx="$work/ctxpack"
pg="$work/pg"
mkdir -p "$pg"
chmod o+x "$work" # the postgres user reaches $pg
trap 'scripts/pgcluster stop "$pg" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
go build -o "$work/gensources" ./bench/gensources

sq="$work/sqlite" back="$work/back"
mkdir -p "$sq" "$back"
git -C "$sq" init -q && git -C "$back" init -q
"$work/gensources" -root "$sq" -memories "$nmem" -experiences "$nexp" -values "$nval" >/dev/null

admin=$(scripts/pgcluster start "$pg")
psql -q "$admin" -c "CREATE DATABASE ctxpack TEMPLATE template0 ENCODING 'UTF8'"
export CTXPACK_STORE="${admin%/postgres*}/ctxpack?sslmode=disable" CTXPACK_STORE_NAMESPACE=bench
echo "postgres: $(postgres_version=$(psql -tA "$admin" -c 'SHOW server_version'); echo "$postgres_version"), $CTXPACK_STORE namespace bench"

t() { local s=$SECONDS; "$@"; echo "  ($((SECONDS - s)) s)"; }
echo "== export → import → export"
env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE "$cx" -C "$sq" store export -o "$work/sqlite.jsonl"
echo "sqlite → postgres:"; t "$cx" -C "$sq" store import "$work/sqlite.jsonl"
"$cx" -C "$sq" store export -o "$work/postgres.jsonl"
cmp "$work/sqlite.jsonl" "$work/postgres.jsonl" && echo "  SQLite's export and PostgreSQL's after the import: identical ($(wc -l <"$work/sqlite.jsonl") lines, $(wc -c <"$work/sqlite.jsonl") bytes, sha256 $(sha256sum <"$work/sqlite.jsonl" | cut -c1-16)…)"
echo "postgres → sqlite:"; t env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE "$cx" -C "$back" store import "$work/postgres.jsonl"
env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE "$cx" -C "$back" store export -o "$work/back.jsonl"
cmp "$work/postgres.jsonl" "$work/back.jsonl" && echo "  PostgreSQL's export and the new SQLite store's after the import: identical"
echo "import again (idempotent):"
"$cx" -C "$sq" store import "$work/sqlite.jsonl"
env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE "$cx" -C "$back" store import "$work/postgres.jsonl"

echo "== 200 queries on both backends"
env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE bench/store-queryset.sh "$cx" "$sq" >"$work/queries.tsv"
echo "queries: $(cut -f1 "$work/queries.tsv" | sort | uniq -c | awk '{printf "%s%d %s", sep, $1, $2; sep=", "}')"
s=$SECONDS
env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE bench/store-queries.sh "$cx" "$sq" "$work/queries.tsv" >"$work/sqlite.tsv"
echo "sqlite:   $((SECONDS - s)) s"
s=$SECONDS
bench/store-queries.sh "$cx" "$sq" "$work/queries.tsv" >"$work/postgres.tsv"
echo "postgres: $((SECONDS - s)) s"
echo "== value derive on both backends"
env -u CTXPACK_STORE -u CTXPACK_STORE_NAMESPACE "$cx" -C "$sq" value derive --format json >"$work/derive-sqlite.json"
"$cx" -C "$sq" value derive --format json >"$work/derive-postgres.json"
derive_same=true
if cmp -s "$work/derive-sqlite.json" "$work/derive-postgres.json"; then
  echo "value derive: identical ($(jq length "$work/derive-sqlite.json") proposals, sha256 $(sha256sum <"$work/derive-sqlite.json" | cut -c1-16)…)"
else
  echo "value derive: DIFFERS"; derive_same=false
fi
same=$(paste "$work/sqlite.tsv" "$work/postgres.tsv" | awk -F'\t' '$3 == $6 && $3 ~ /^sha256:/' | wc -l)
total=$(wc -l <"$work/queries.tsv")
echo "identical digests: $same of $total"
diff "$work/sqlite.tsv" "$work/postgres.tsv" | head -5
[ "$same" -eq "$total" ] && $derive_same
