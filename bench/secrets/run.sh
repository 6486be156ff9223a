#!/usr/bin/env bash
# Secret leaks, end to end: makes the project of bench/secrets/gen (seed 1:
# secrets of many kinds and values that only look like secrets), runs the
# ctxpack binary BIN on it in every mode and front end, saves each output
# under OUTDIR, and scores them with bench/secrets/check. When npm is
# there, Repomix 1.18.1 packs the same project in the same run, for
# reference.
#
#   bench/secrets/run.sh BIN OUTDIR
#
# Exits 1 when a ctxpack output holds a secret or keeps less than 90% of
# the look-alikes whose surroundings it shows (see README.md).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN OUTDIR" >&2; exit 2; }
bin=$(realpath "$1")
mkdir -p "$2"
out=$(realpath "$2")
cd "$(dirname "$0")/../.."
proj="$out/project"
manifest="$proj.manifest.json"
rm -rf "$proj" "$manifest" "$out"/*.out
go build -o "$out/gen" ./bench/secrets/gen
go build -o "$out/check" ./bench/secrets/check
"$out/gen" -seed 1 -out "$proj" -ctxpack "$bin"
echo "ctxpack: $bin ($("$bin" version 2>/dev/null | head -1))"

# field NAME: a string field of the manifest (no escapes in these).
field() { sed -n "s/^  \"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" "$manifest"; }
task=$(field Task)
query=$(field Query)
squery=$(field SourcesQuery)

c() { "$bin" -C "$proj" "$@"; }
c index >/dev/null
c pack --no-record >"$out/pack.out"
c pack --no-record --budget 8000 >"$out/pack-8k.out"
c pack --no-record --overflow allow >"$out/pack-all.out"
c context "$task" --no-record >"$out/links.out"
c context "$query" --no-record --budget 32000 >"$out/retrieval.out"
c context "$squery" --sources code,memories,commits --no-record --budget 16000 >"$out/sources.out"
c evidence assemble --budget 32000 >/dev/null
cp "$proj/build/prompt.mdctx" "$out/evidence.out"

# mcp NAME TOOL ARGS: one session of `ctxpack serve` over stdio: initialize,
# then one tools/call; the server answers every request before it exits.
mcp() {
  printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-secrets","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"$2\",\"arguments\":$3}}" |
    c serve --log-level error >"$out/$1.out"
  grep -q '"id":2,"result"' "$out/$1.out" || { echo "mcp $2: no result:"; head -c 600 "$out/$1.out"; exit 1; }
}
mcp mcp-pack pack '{"overflow":"allow"}'
mcp mcp-links context "{\"target\":\"$task\"}"
mcp mcp-retrieval context "{\"target\":\"$query\",\"budget\":32000}"
mcp mcp-sources context "{\"target\":\"$squery\",\"sources\":[\"code\",\"memories\",\"commits\"],\"budget\":16000}"
mcp mcp-evidence evidence_plan '{"include_prompt":true,"budget":32000}'

refs=""
outs=("$out"/pack.out "$out"/pack-8k.out "$out"/pack-all.out "$out"/links.out "$out"/retrieval.out "$out"/sources.out "$out"/evidence.out "$out"/mcp-*.out)
if command -v npm >/dev/null; then
  # Repomix packs a copy, without what ctxpack wrote into the project.
  rtree="$out/repomix-tree"
  rm -rf "$rtree"
  git clone -q "$proj" "$rtree"
  rm -rf "$rtree/.git"
  npm install --prefix "$out/npm" --no-audit --no-fund --silent repomix@1.18.1 >/dev/null
  "$out/npm/node_modules/.bin/repomix" "$rtree" -o "$out/repomix.out" >"$out/repomix.log" 2>&1 || { echo "repomix failed:"; tail -20 "$out/repomix.log"; exit 1; }
  # What Repomix left out: by its security check (whole files), and by its
  # default ignore patterns (the files of the project in neither list).
  sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$out/repomix.log" >"$out/repomix.txt"
  sed -n '/detected and excluded from the output:/,/^$/p' "$out/repomix.txt" | sed -n 's/^[0-9]*\. *//p' | sort >"$out/repomix-excluded"
  sed -n 's/^<file path="\(.*\)">$/\1/p' "$out/repomix.out" | sort >"$out/repomix-packed"
  git -C "$proj" ls-files | sort | comm -23 - "$out/repomix-packed" | comm -23 - "$out/repomix-excluded" >"$out/repomix-ignored"
  echo "repomix $("$out/npm/node_modules/.bin/repomix" --version): $(wc -l <"$out/repomix-packed") files packed (XML, its default)"
  echo "  excluded by its security check ($(wc -l <"$out/repomix-excluded")): $(tr '\n' ' ' <"$out/repomix-excluded")"
  echo "  left out by its default ignores ($(wc -l <"$out/repomix-ignored")): $(tr '\n' ' ' <"$out/repomix-ignored")"
  outs+=("$out/repomix.out")
  refs=repomix
else
  echo "npm not found: no Repomix row"
fi
echo
"$out/check" -manifest "$manifest" -full pack,pack-all,mcp-pack,repomix -ref "$refs" "${outs[@]}"
