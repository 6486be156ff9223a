#!/usr/bin/env bash
# Behaviour-holding corpus (issue 14): records the exact standard output,
# standard error and exit code of a fixed list of ctxpack commands, so that
# a refactored binary can be compared byte for byte with the one before.
#
#   bench/behaviour/record.sh BIN OUTDIR
#
# BIN is a ctxpack binary; OUTDIR receives NAME.out, NAME.err and NAME.code
# for every command NAME of the list below (what was there before under
# those names is removed). Then compare two recordings with compare.sh, or
# one recording with the committed manifest with check.sh.
#
# The inputs never come from the working tree: they are rebuilt from
# scratch at fixed paths under $ROOT on every run (absolute paths reach
# some messages), each a git repository of one commit with fixed names and
# dates:
#
#   billing   examples/billing of $BASE_COMMIT (git archive)
#   repo      the whole repository at $BASE_COMMIT (git archive)
#   nethttp   $(go env GOROOT)/src/net/http of the Go on PATH
#   evidence  examples/billing of $BASE_COMMIT again, for the ctx/ workspace
#   sources   a generated history of $HISTORY_COMMITS commits (git
#             fast-import, no randomness) and a store (.ctxpack/sources.db)
#             that bench/gensources, built from $BASE_COMMIT, fills with
#             seed $GENSOURCES_SEED
#
# The entry setup-inputs records what the inputs are (the tree of every
# commit, the store's sha256), so a run on other inputs shows up as a
# difference there first. nethttp and the store's vocabulary depend on the
# Go installation: record old and new with the same Go.
#
# Normalized outputs (the only ones; everything else is recorded as is):
#   - `index` prints how long it took: " in 12ms" becomes " in <time>";
#   - `budget --show-allocation --format json` includes the budget record
#     with its clock time: "timestamp": "..." becomes "timestamp": "<time>";
#   - `serve` logs with a time= field on standard error: the field is
#     removed; the initialize response's serverInfo.version (the binary's
#     version, "devel" unless set at link time) becomes "<version>".
set -euo pipefail

BASE_COMMIT=4872ceb2d2c59660083563b8bea52f119bbaafd4 # main when the corpus was made
ROOT=/tmp/ctxpack-behaviour                          # fixed: paths reach some outputs
TREES=$ROOT/trees
HISTORY_COMMITS=300
GENSOURCES_SEED=1
GENSOURCES_COUNTS=(-memories 2000 -experiences 1000 -values 150)
FIXED_DATE="2026-01-01T00:00:00+0000" # every commit's author and committer date
FIXED_MTIME=@1767225600               # every input file's modification time (the same instant)

if [ $# -ne 2 ]; then
  echo "usage: $0 BIN OUTDIR" >&2
  exit 2
fi
BIN=$(realpath "$1")
[ -x "$BIN" ] || { echo "record.sh: $1 is not an executable" >&2; exit 2; }
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
REPO=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

# The environment ctxpack and git see: no user or system git config, no
# colour, one locale and time zone.
export LC_ALL=C TZ=UTC NO_COLOR=1 TERM=dumb GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
unset GIT_DIR GIT_WORK_TREE

mkdir -p "$(dirname "$ROOT")"
exec 9>"$ROOT.lock"
flock -n 9 || { echo "record.sh: another record.sh is using $ROOT" >&2; exit 1; }

start=$(date +%s)
rm -rf "$ROOT"
mkdir -p "$TREES" "$ROOT/bin" "$ROOT/in"
rm -f "$OUT"/*.out "$OUT"/*.err "$OUT"/*.code

# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

# commit_tree DIR: fixes every file's modification time, then makes DIR a
# git repository of one commit with fixed names and dates.
commit_tree() {
  find "$1" -exec touch -h -d "$FIXED_MTIME" {} +
  git -C "$1" init -q -b main
  git -C "$1" add -A
  GIT_AUTHOR_NAME="Behaviour Corpus" GIT_AUTHOR_EMAIL=corpus@example.com GIT_AUTHOR_DATE="$FIXED_DATE" \
    GIT_COMMITTER_NAME="Behaviour Corpus" GIT_COMMITTER_EMAIL=corpus@example.com GIT_COMMITTER_DATE="$FIXED_DATE" \
    git -C "$1" -c commit.gpgsign=false commit -q -m "behaviour corpus input"
}

# billing_tree DIR: examples/billing at BASE_COMMIT.
billing_tree() {
  mkdir -p "$1"
  git -C "$REPO" archive "$BASE_COMMIT" examples/billing | tar -x -C "$1" --strip-components=2
  commit_tree "$1"
}

billing_tree "$TREES/billing"
billing_tree "$TREES/evidence"

mkdir -p "$TREES/repo"
git -C "$REPO" archive "$BASE_COMMIT" | tar -x -C "$TREES/repo"
# gensources as it was at BASE_COMMIT, built before the snapshot becomes a
# repository (no VCS stamp) or gets a .ctxpack/.
(cd "$TREES/repo" && go build -buildvcs=false -o "$ROOT/bin/gensources" ./bench/gensources)
commit_tree "$TREES/repo"

mkdir -p "$TREES/nethttp"
cp -R "$(go env GOROOT)/src/net/http/." "$TREES/nethttp/"
chmod -R u+w "$TREES/nethttp"
commit_tree "$TREES/nethttp"

# The sources tree: a history of HISTORY_COMMITS commits, each changing one
# of 120 Python files under 12 packages, with a short message; words are
# chosen by arithmetic on the commit's number, not at random. Then the
# generated store.
mkdir -p "$TREES/sources"
git -C "$TREES/sources" init -q -b main
awk -v n="$HISTORY_COMMITS" 'BEGIN {
  nv = split("fix add remove refactor document test speed-up handle rename deprecate", verb, " ")
  nn = split("fixture teardown order capture stdout assertion rewriting plugin hook marker collection traceback config warning cache report", noun, " ")
  for (i = 1; i <= n; i++) {
    msg = sprintf("%s %s %s in mod%02d\n\nThe %s of the %s was wrong when a test failed (#%d).\n",
      verb[i % nv + 1], noun[(i * 7) % nn + 1], noun[(i * 11 + 3) % nn + 1], i % 12,
      noun[(i * 5 + 1) % nn + 1], noun[(i * 13 + 2) % nn + 1], i)
    body = sprintf("def f%d(x):\n    \"\"\"%s the %s.\"\"\"\n    return x * %d\n", i, verb[(i * 3) % nv + 1], noun[(i * 3) % nn + 1], i)
    printf "commit refs/heads/main\ncommitter Behaviour Corpus <corpus@example.com> %d +0000\ndata %d\n%s\n", 1735689600 + i * 3600, length(msg), msg
    printf "M 644 inline src/mod%02d/file%03d.py\ndata %d\n%s\n", i % 12, i % 120, length(body), body
  }
}' | git -C "$TREES/sources" fast-import --quiet
git -C "$TREES/sources" reset -q --hard main
find "$TREES/sources" -path "$TREES/sources/.git" -prune -o -exec touch -h -d "$FIXED_MTIME" {} +
"$ROOT/bin/gensources" -root "$TREES/sources" -seed "$GENSOURCES_SEED" "${GENSOURCES_COUNTS[@]}" >"$ROOT/gensources.log"
store_sha=$(sha256sum <"$TREES/sources/.ctxpack/sources.db" | cut -d' ' -f1)
store_counts=$("$ROOT/bin/gensources" -root "$TREES/sources" -counts)
touch -h -d "$FIXED_MTIME" "$TREES/sources/.ctxpack" "$TREES/sources/.ctxpack/sources.db"

# ---------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------

declare -A seen
count=0

# newname NAME: NAME is a new entry of the corpus.
newname() {
  if [[ ! $1 =~ ^[a-z0-9][a-z0-9._-]*$ ]] || [ -n "${seen[$1]:-}" ]; then
    echo "record.sh: bad or repeated name $1" >&2
    exit 1
  fi
  seen[$1]=1
  count=$((count + 1))
}

# run NAME TREE STDIN ARGS...: BIN ARGS in TREE with STDIN (a file).
run() {
  local name=$1 tree=$2 in=$3 code=0
  shift 3
  newname "$name"
  (cd "$TREES/$tree" && exec timeout 900 "$BIN" "$@") <"$in" >"$OUT/$name.out" 2>"$OUT/$name.err" || code=$?
  echo "$code" >"$OUT/$name.code"
}

# r NAME TREE ARGS...: BIN ARGS in TREE, nothing on standard input.
r() {
  local name=$1 tree=$2
  shift 2
  run "$name" "$tree" /dev/null "$@"
}

# ri NAME TREE TEXT ARGS...: BIN ARGS in TREE with the line TEXT on
# standard input.
ri() {
  local name=$1 tree=$2
  printf '%s\n' "$3" >"$ROOT/in/$name"
  shift 3
  run "$name" "$tree" "$ROOT/in/$name" "$@"
}

# rindex NAME TREE ARGS...: r, with the durations index prints normalized.
rindex() {
  r "$@"
  sed -E -i 's/ in [0-9][0-9.]*(ns|us|µs|ms|s|m[0-9.]*s|h[0-9.]*m[0-9.]*s)([;,. ]|$)/ in <time>\2/g' "$OUT/$1.out" "$OUT/$1.err"
}

# rbudget NAME TREE ARGS...: r of `budget --show-allocation`, whose JSON
# carries the budget record's clock time: "timestamp": "<time>".
rbudget() {
  r "$@"
  sed -E -i 's/"timestamp": "[^"]*"/"timestamp": "<time>"/' "$OUT/$1.out"
}

# rfile NAME TREE PATH: the content of a file a command wrote (exit code 1
# and no content when it is missing).
rfile() {
  newname "$1"
  : >"$OUT/$1.err"
  if [ -f "$TREES/$2/$3" ]; then
    cat "$TREES/$2/$3" >"$OUT/$1.out"
    echo 0 >"$OUT/$1.code"
  else
    : >"$OUT/$1.out"
    echo 1 >"$OUT/$1.code"
  fi
}

# setup-inputs: what the inputs are.
newname setup-inputs
{
  echo "base commit: $BASE_COMMIT"
  for t in billing evidence repo nethttp sources; do
    echo "$t: commit $(git -C "$TREES/$t" rev-parse HEAD) tree $(git -C "$TREES/$t" rev-parse 'HEAD^{tree}') commits $(git -C "$TREES/$t" rev-list --count HEAD)"
  done
  echo "sources.db (gensources -seed $GENSOURCES_SEED ${GENSOURCES_COUNTS[*]}): sha256 $store_sha"
  echo "$store_counts"
} >"$OUT/setup-inputs.out"
: >"$OUT/setup-inputs.err"
echo 0 >"$OUT/setup-inputs.code"

# MCP over standard input and output: one server per session, one request
# at a time (each answered before the next is sent), each response line
# recorded as its own entry. A session that hangs waits 900 s a request.
mcp_id=0
mcp_session=""

# mcp_start SESSION TREE FLAGS...: starts `BIN serve` in TREE, talking
# through two FIFOs, and initializes the session (recorded as
# mcp-SESSION-initialize).
mcp_start() {
  mcp_session=$1
  local tree=$2 fifo=$ROOT/mcp-$1
  shift 2
  mcp_id=0
  mkfifo "$fifo.in" "$fifo.out"
  (cd "$TREES/$tree" && exec timeout 1800 "$BIN" serve "$@" <"$fifo.in" >"$fifo.out" 2>"$fifo.err") &
  mcp_pid=$!
  exec {mcp_in}>"$fifo.in" {mcp_out}<"$fifo.out"
  mcp_call initialize '{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"behaviour-corpus","version":"1"}}}'
  sed -E -i 's/"serverInfo":\{([^}]*)"version":"[^"]*"/"serverInfo":{\1"version":"<version>"/' "$OUT/mcp-$mcp_session-initialize.out"
  mcp_send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
}

# mcp_send LINE: writes LINE to the server (a server that has exited makes
# its requests go unanswered, not the script stop).
mcp_send() {
  (printf '%s\n' "$1" >&"$mcp_in") 2>/dev/null || true
}

# mcp_call NAME REQUEST: sends REQUEST (JSON without jsonrpc and id) and
# records the response as mcp-SESSION-NAME; lines that are not the
# response (notifications) go to mcp-SESSION-NAME.err.
mcp_call() {
  local name="mcp-$mcp_session-$1" line
  newname "$name"
  mcp_id=$((mcp_id + 1))
  mcp_send "$(jq -c --argjson id "$mcp_id" '{jsonrpc: "2.0", id: $id} + .' <<<"$2")"
  : >"$OUT/$name.err"
  while :; do
    if ! IFS= read -r -t 900 line <&"$mcp_out"; then
      echo "no response" >>"$OUT/$name.err"
      echo 1 >"$OUT/$name.code"
      : >"$OUT/$name.out"
      return
    fi
    if [ "$(jq -c '.id' <<<"$line" 2>/dev/null)" = "$mcp_id" ]; then
      break
    fi
    printf '%s\n' "$line" >>"$OUT/$name.err"
  done
  printf '%s\n' "$line" >"$OUT/$name.out"
  echo 0 >"$OUT/$name.code"
}

# mcp_stop: closes the server's standard input and records as
# mcp-SESSION-exit what it wrote after the last response, its log (without
# times) and its exit code.
mcp_stop() {
  local name="mcp-$mcp_session-exit" code=0
  newname "$name"
  exec {mcp_in}>&-
  cat <&"$mcp_out" >"$OUT/$name.out"
  exec {mcp_out}<&-
  wait "$mcp_pid" || code=$?
  sed -E 's/^time=[^ ]+ //; s/"time":"[^"]*",?//' "$ROOT/mcp-$mcp_session.err" >"$OUT/$name.err"
  echo "$code" >"$OUT/$name.code"
}

# tool NAME TOOL ARGS_JSON: mcp_call of tools/call.
tool() {
  mcp_call "$1" "$(jq -cn --arg name "$2" --argjson args "$3" '{method: "tools/call", params: {name: $name, arguments: $args}}')"
}

# ===========================================================================
# THE CORPUS. One line per command: name, tree, then the ctxpack arguments
# (for MCP: name, then the tool and its arguments, or the request).
# Names are stable: add new entries, never rename or reuse one.
# ===========================================================================

NR="--no-record"
NC="--no-cache"
Q_BILLING="the invoice total drifts by a cent after conversion"
Q_REPO="how are token counts verified after packing"
Q_HTTP="the http server does not close idle connections after a handler timeout"
Q_SRC="fixture teardown order when a test fails"
ALL5=memories,experiences,values,commits,code

# --- indexes (durations normalized) ---------------------------------------
rindex  billing-index                             billing  index
rindex  billing-index-again                       billing  index
r       billing-index-status                      billing  index --status
rindex  repo-index                                repo     index
r       repo-index-status                         repo     index --status
rindex  nethttp-index                             nethttp  index
rindex  sources-index                             sources  index
rindex  evidence-index                            evidence index --no-commits

# --- pack: formats × budgets (billing) -------------------------------------
r       billing-pack-text-b1                      billing  pack --budget 1 $NR
r       billing-pack-text-b50                     billing  pack --budget 50 $NR
r       billing-pack-json-b50                     billing  pack --budget 50 --format json $NR
r       billing-pack-text-b600                    billing  pack --budget 600 $NR
r       billing-pack-markdown-b600                billing  pack --budget 600 --format markdown $NR
r       billing-pack-doc-b600                     billing  pack --budget 600 --format doc $NR
r       billing-pack-xml-b600                     billing  pack --budget 600 --format xml $NR
r       billing-pack-json-b600                    billing  pack --budget 600 --format json $NR
r       billing-pack-mdctx-b600                   billing  pack --budget 600 --format mdctx $NR
r       billing-pack-text-b1500                   billing  pack --budget 1500 $NR
r       billing-pack-markdown-b8000               billing  pack --budget 8000 --format markdown $NR
r       billing-pack-text-default                 billing  pack $NR
r       billing-pack-xml-unlimited                billing  pack --overflow allow --format xml $NR
r       billing-pack-json-unlimited               billing  pack --overflow allow --format json $NR
r       billing-pack-text-depth-meta-b600         billing  pack --budget 600 --depth meta $NR
r       billing-pack-text-depth-summary-b600      billing  pack --budget 600 --depth summary $NR
r       billing-pack-json-depth-detailed-b1500    billing  pack --budget 1500 --depth detailed --format json $NR
r       billing-pack-text-greedy-b400             billing  pack --budget 400 --strategy greedy $NR
r       billing-pack-text-interleaved-b400        billing  pack --budget 400 --strategy interleaved $NR
r       billing-pack-json-score-b400              billing  pack --budget 400 --strategy score --format json $NR
r       billing-pack-text-degrade-b300            billing  pack --budget 300 --overflow degrade $NR
r       billing-pack-text-drop-b300               billing  pack --budget 300 --overflow drop $NR
r       billing-pack-text-truncate-b300           billing  pack --budget 300 --overflow truncate $NR
r       billing-pack-text-error-b300              billing  pack --budget 300 --overflow error $NR
r       billing-pack-json-allow-b300              billing  pack --budget 300 --overflow allow --format json $NR
r       billing-pack-src-cl100k-b400              billing  pack src --budget 400 --tokenizer cl100k_base $NR
r       billing-pack-src-approx-b400              billing  pack src/billing --budget 400 --tokenizer approx $NR
r       billing-pack-query-json-b800              billing  pack --budget 800 --query "invoice rounding" --format json $NR
r       billing-pack-metadata-maxchunks-b900      billing  pack --budget 900 --include-metadata --max-chunks-per-doc 1 --item-cap 1 $NR
r       billing-pack-window-reserves              billing  pack --window 2400 --reserves 100,100,200 --format markdown $NR
r       billing-pack-prefer-recent-b600           billing  pack --budget 600 --prefer-recent $NR
r       billing-pack-missing-path                 billing  pack no/such/dir --budget 600 $NR
r       billing-pack-bad-format                   billing  pack --budget 600 --format yaml $NR

# --- links mode (billing) --------------------------------------------------
r       billing-links-text-b1                     billing  context TASK-042 --budget 1 $NR
r       billing-links-text-b100                   billing  context TASK-042 --budget 100 $NR
r       billing-links-text-b600                   billing  context TASK-042 --budget 600 $NR
r       billing-links-text-b4000                  billing  context TASK-042 --budget 4000 $NR
r       billing-links-text-unlimited              billing  context TASK-042 --overflow allow $NR
r       billing-links-markdown-b600               billing  context TASK-042 --budget 600 --format markdown $NR
r       billing-links-doc-b2000                   billing  context TASK-042 --budget 2000 --format doc $NR
r       billing-links-xml-b600                    billing  context TASK-042 --budget 600 --format xml $NR
r       billing-links-json-b600                   billing  context TASK-042 --budget 600 --format json $NR
r       billing-links-json-summary                billing  context TASK-042 --depth summary --format json $NR
r       billing-links-mdctx-b2000                 billing  context TASK-042 --budget 2000 --format mdctx $NR
r       billing-links-text-depth-meta             billing  context TASK-042 --depth meta $NR
r       billing-links-text-depth-detailed-b1000   billing  context TASK-042 --depth detailed --budget 1000 $NR
r       billing-links-text-linkdepth1             billing  context TASK-042 --link-depth 1 $NR
r       billing-links-json-linkdepth2-b800        billing  context TASK-042 --link-depth 2 --budget 800 --format json $NR
r       billing-links-text-drop-b300              billing  context TASK-042 --budget 300 --overflow drop $NR
r       billing-links-text-truncate-b300          billing  context TASK-042 --budget 300 --overflow truncate $NR
r       billing-links-text-error-b300             billing  context TASK-042 --budget 300 --overflow error $NR
r       billing-links-text-interleaved-b500       billing  context TASK-042 --budget 500 --strategy interleaved $NR
r       billing-links-json-score-b500             billing  context TASK-042 --budget 500 --strategy score --format json $NR
r       billing-links-cl100k-metadata-b700        billing  context TASK-042 --budget 700 --tokenizer cl100k_base --include-metadata $NR
r       billing-links-task043-markdown            billing  context TASK-043 --format markdown $NR
r       billing-links-unknown-task                billing  context TASK-999 --budget 600 $NR
r       billing-context-path-b800                 billing  context src/billing --budget 800 $NR
r       billing-verify-links-b4000                billing  verify TASK-042 --budget 4000

# --- artifacts: explain, budget, score, summarize, tokens, check, show, list, graph
r       billing-explain-dec003-b600               billing  explain TASK-042 DEC-BILLING-003 --budget 600
r       billing-explain-norm-linkdepth1-json      billing  explain TASK-042 NORM-ASYNC-001 --link-depth 1 --format json
r       billing-explain-superseded                billing  explain TASK-042 DEC-BILLING-002
r       billing-explain-auth-b200                 billing  explain TASK-042 SPEC-AUTH-001 --budget 200
rbudget billing-budget-window                     billing  budget TASK-042 --window 128000 $NR
rbudget billing-budget-alloc-b600                 billing  budget TASK-042 --budget 600 --show-allocation $NR
rbudget billing-budget-alloc-json-b300            billing  budget TASK-042 --budget 300 --show-allocation --format json $NR
rbudget billing-budget-alloc-src-json             billing  budget src/ --budget 4000 --show-allocation --format json $NR
rbudget billing-budget-alloc-retrieval            billing  budget "invoice rounding drifts" --budget 8000 --show-allocation $NR $NC
r       billing-score-text                        billing  score src/billing/invoice/generator.py --task "invoice totals drift by a cent"
r       billing-score-task-json                   billing  score src/billing/currency/convert.py --task TASK-042 --format json
ri      billing-score-stdin                       billing  "single sign-on for the console" score src/auth/login.ts --task -
r       billing-summarize-full                    billing  summarize src/billing/invoice/generator.py --level full
r       billing-summarize-detailed                billing  summarize src/billing/invoice/generator.py --level detailed
r       billing-summarize-summary-spec            billing  summarize .ctxpack/system/specs/SPEC-BILLING-001.md --level summary
r       billing-summarize-meta-json               billing  summarize .ctxpack/work/tasks/TASK-042.md --level meta --format json
r       billing-tokens-all                        billing  tokens .
r       billing-tokens-cl100k-src                 billing  tokens --tokenizer cl100k_base src
r       billing-tokens-approx-json                billing  tokens --tokenizer approx --format json src .ctxpack/system
r       billing-check                             billing  check
r       billing-check-strict-json                 billing  check --strict --no-baseline --format json
r       billing-show-spec-summary                 billing  show SPEC-BILLING-001 --depth summary
r       billing-show-identity-json                billing  show identity --format json
r       billing-show-task-markdown                billing  show TASK-042 --format markdown
r       billing-show-unknown                      billing  show SPEC-NOPE-001
r       billing-list                              billing  list
r       billing-list-type-spec                    billing  list --type spec
r       billing-list-status-json                  billing  list --status current --format json
r       billing-graph-mermaid                     billing  graph TASK-042
r       billing-graph-dot                         billing  graph TASK-042 --format dot
r       billing-graph-dot-linkdepth1              billing  graph TASK-042 --format dot --link-depth 1
r       billing-sources-artifacts-task            billing  context "retry the payment webhook" --sources artifacts,experiences --task TASK-042 $NR $NC

# --- retrieval mode ----------------------------------------------------------
r       billing-retrieval-text-b2000              billing  context "$Q_BILLING" --budget 2000 $NR $NC
ri      billing-retrieval-stdin-json-b1000        billing  "$Q_BILLING" context - --budget 1000 --format json $NR $NC
r       billing-search-explain                    billing  search "invoice total rounding" --explain
r       repo-retrieval-text-b8000                 repo     context "$Q_REPO" --budget 8000 $NR $NC
r       repo-retrieval-json-b3000                 repo     context "$Q_REPO" --budget 3000 --format json $NR $NC
r       repo-retrieval-xml-b500                   repo     context "where is the assembly cache key computed" --budget 500 --format xml $NR $NC
r       repo-retrieval-markdown-score-b4000       repo     context "evidence selector with a line range" --budget 4000 --strategy score --format markdown $NR $NC
r       repo-retrieval-mdctx-interleaved-b6000    repo     context "why does the index rebuild after a format change" --budget 6000 --strategy interleaved --format mdctx $NR $NC
r       repo-search-explain                       repo     search "$Q_REPO" --explain
r       repo-search-files-k5                      repo     search "tokenizer byte pair merge ranks" --files --k 5
r       repo-search-json                          repo     search "mcp server stdio line reader" --format json --k 5
r       repo-pack-text-b8000                      repo     pack --budget 8000 $NR
r       repo-pack-xml-b1500                       repo     pack internal/render --budget 1500 --format xml $NR
r       repo-pack-json-window                     repo     pack --window 128000 --format json $NR
r       repo-pack-query-markdown-b6000            repo     pack --budget 6000 --query "overflow strategies" --format markdown $NR
r       repo-pack-doc-b3000                       repo     pack internal/tokenizer --budget 3000 --format doc $NR
r       repo-pack-mdctx-detailed-b3000            repo     pack internal/evidence --budget 3000 --depth detailed --format mdctx $NR
r       repo-context-path-json-b8000              repo     context internal/pack --budget 8000 --format json $NR
ri      repo-search-stdin                         repo     "why does the cache miss after a rename" search - --k 5
r       repo-check                                repo     check
r       repo-score-json                           repo     score internal/pack/assemble.go --task "overflow strategies drop and truncate" --format json
r       repo-summarize-go-summary                 repo     summarize internal/pack/assemble.go --level summary
r       repo-summarize-go-meta-json               repo     summarize internal/pack/assemble.go --level meta --format json
r       repo-summarize-go-detailed                repo     summarize internal/tokenizer/bpe.go --level detailed
r       repo-verify-pack-b8000                    repo     verify . --budget 8000
r       repo-tokens-readme-cl100k                 repo     tokens --tokenizer cl100k_base README.md docs
r       nethttp-summarize-server-summary          nethttp  summarize server.go --level summary
r       nethttp-score-server                      nethttp  score server.go --task "idle connection timeout"
r       repo-tokens-internal-pack                 repo     tokens internal/pack
rbudget repo-budget-alloc-retrieval-json          repo     budget "$Q_REPO" --budget 3000 --show-allocation --format json $NR $NC
r       nethttp-retrieval-text-b4000              nethttp  context "$Q_HTTP" --budget 4000 $NR $NC
r       nethttp-retrieval-json-b2000              nethttp  context "ServeMux pattern matching with a host and a method" --budget 2000 --format json $NR $NC
r       nethttp-search-explain-k5                 nethttp  search "ServeMux pattern matching" --explain --k 5
r       nethttp-pack-text-b200000                 nethttp  pack --budget 200000 $NR
r       nethttp-pack-json-b200000                 nethttp  pack --budget 200000 --format json $NR
r       nethttp-pack-markdown-b8000               nethttp  pack --budget 8000 --format markdown $NR
r       nethttp-pack-xml-summary-b30000           nethttp  pack --budget 30000 --depth summary --format xml $NR
r       nethttp-pack-text-unlimited               nethttp  pack --overflow allow $NR
r       nethttp-pack-truncate-b5000               nethttp  pack --budget 5000 --overflow truncate --strategy score $NR
r       nethttp-tokens                            nethttp  tokens .

# --- sources mode and the store (generated) --------------------------------
r       sources-ctx-all5-b2000                    sources  context "$Q_SRC" --sources $ALL5 --budget 2000 $NR $NC
r       sources-ctx-all5-b300                     sources  context "$Q_SRC" --sources $ALL5 --budget 300 $NR $NC
r       sources-ctx-all5-b300-json                sources  context "$Q_SRC" --sources $ALL5 --budget 300 --format json $NR $NC
r       sources-ctx-all5-b8000-json               sources  context "$Q_SRC" --sources $ALL5 --budget 8000 --format json $NR $NC
r       sources-ctx-all5-limit5-xml               sources  context "assertion rewriting of comparisons" --sources $ALL5 --limit 5 --budget 2000 --format xml $NR $NC
r       sources-ctx-memories-b1000                sources  context "capture of stdout in subprocess" --sources memories --budget 1000 $NR $NC
r       sources-ctx-exp-values-summary            sources  context "flaky test rerun" --sources experiences,values --depth summary --budget 1500 $NR $NC
r       sources-ctx-commits-code-b1500            sources  context "teardown order" --sources commits,code --budget 1500 $NR $NC
r       sources-ctx-bad-source                    sources  context "teardown order" --sources memories,nosuch --budget 1500 $NR $NC
r       sources-premortem-debugging               sources  premortem debugging $NR
r       sources-premortem-strategy-b2000          sources  premortem debugging --strategy systematic-elimination --budget 2000 $NR
r       sources-premortem-testing-json            sources  premortem testing --format json $NR
r       sources-premortem-feature-b300-truncate   sources  premortem feature --budget 300 --overflow truncate $NR
r       sources-premortem-refactor-meta-limit3    sources  premortem refactor --depth meta --limit 3 $NR
r       sources-premortem-unknown-domain          sources  premortem gardening $NR
r       sources-value-derive                      sources  value derive
r       sources-value-derive-rootcause-json       sources  value derive --axis root_cause --min-size 4 --format json
r       sources-memory-list-decision              sources  memory list --category decision
r       sources-memory-show-42                    sources  memory show 42
r       sources-memory-show-42-json               sources  memory show memory:42 --format json
r       sources-memory-show-missing               sources  memory show 999999
r       sources-experience-list-debug-falsified   sources  experience list --domain debugging --outcome falsified
r       sources-experience-show-12-json           sources  experience show 12 --format json
r       sources-value-list-rootcause              sources  value list --axis root_cause
r       sources-value-show-3                      sources  value show 3
r       sources-pack-prefer-recent-json-b2000     sources  pack src --budget 2000 --prefer-recent --format json $NR
r       sources-pack-text-b2000                   sources  pack src --budget 2000 $NR
r       sources-retrieval-code-b1500              sources  context "mod03 file" --budget 1500 $NR $NC

# --- evidence workspace (evidence tree: billing again) ---------------------
r       evidence-add-system                       evidence evidence add .ctxpack/system/norms/NORM-ERROR-001.md --role system --rank 0
ri      evidence-add-user-stdin                   evidence "Give invoices a currency and convert totals once, at the cycle's fixed rate." evidence add - --role user
r       evidence-add-lines                        evidence evidence add "src/billing/invoice/generator.py::7,11#totals,rounding"
r       evidence-add-whole                        evidence evidence add src/billing/currency/convert.py
r       evidence-add-to-end                       evidence evidence add src/auth/login.ts::2 --rank 300
r       evidence-add-bytes                        evidence evidence add "src/billing/templates/invoice.html::10c,120c" --kind template_head
r       evidence-add-link                         evidence evidence add .ctxpack/system/specs/SPEC-BILLING-001.md --link
r       evidence-add-spec-currency                evidence evidence add .ctxpack/system/specs/SPEC-CURRENCY-001.md --rank 400
r       evidence-add-bad-range                    evidence evidence add "src/billing/invoice/generator.py::20,10"
r       evidence-toggle-off-300s                  evidence evidence toggle off 300-399
r       evidence-toggle-flip-400                  evidence evidence toggle 400_spec_currency_001_md
r       evidence-toggle-flip-400-back             evidence evidence toggle 400
rfile   evidence-file-lines                       evidence ctx/evidence/100_generator_py.evidence.md
rfile   evidence-file-bytes-skip                  evidence ctx/evidence/310_template_head.evidence.md.skip
rfile   evidence-file-link                        evidence ctx/evidence/320_spec_billing_001_md.evidence.link
rfile   evidence-file-user                        evidence ctx/010_request.user.md
r       evidence-status                           evidence evidence status
r       evidence-status-b300                      evidence evidence status --budget 300
r       evidence-plan                             evidence evidence plan
r       evidence-plan-b200-neverdropped           evidence evidence plan --budget 200
r       evidence-plan-b300-truncate               evidence evidence plan --budget 300 --overflow truncate
r       evidence-budget-b250                      evidence evidence budget --budget 250
r       evidence-assemble-dryrun-b8000            evidence evidence assemble --dry-run --budget 8000
r       evidence-assemble-dryrun-b400             evidence evidence assemble --dry-run --budget 400
r       evidence-assemble-dryrun-b400-drop        evidence evidence assemble --dry-run --budget 400 --overflow drop
r       evidence-assemble-dryrun-b400-truncate    evidence evidence assemble --dry-run --budget 400 --overflow truncate
r       evidence-assemble-dryrun-b400-error       evidence evidence assemble --dry-run --budget 400 --overflow error
r       evidence-assemble-dryrun-b400-allow       evidence evidence assemble --dry-run --budget 400 --overflow allow
r       evidence-assemble-dryrun-meta             evidence evidence assemble --dry-run --depth meta --flow-id fix-invoice
r       evidence-assemble-b600                    evidence evidence assemble --budget 600 --flow-id fix-invoice
rfile   evidence-build-prompt                     evidence build/prompt.mdctx
rfile   evidence-build-plan                       evidence build/ctxplan.json
r       evidence-assemble-out-json                evidence evidence assemble --out out/ev --format json
rfile   evidence-out-plan                         evidence out/ev/ctxplan.json
r       evidence-deps                             evidence evidence deps 100_generator_py
r       evidence-stale                            evidence evidence stale
r       evidence-env                              evidence evidence env
r       evidence-toggle-on-300s                   evidence evidence toggle on 300-399
r       evidence-rank                             evidence evidence rank 110_convert_py 150
r       evidence-rank-taken                       evidence evidence rank 150_convert_py 100
r       evidence-rebase                           evidence evidence rebase
r       evidence-focus-currency                   evidence evidence focus "currency conversion at a fixed rate" --top 3
r       evidence-status-focused                   evidence evidence status
r       evidence-focus-off                        evidence evidence focus off
r       evidence-remove                           evidence evidence remove 130_template_head
r       evidence-plan-final-b1000                 evidence evidence plan --budget 1000
r       evidence-to-evidence-ctx2                 evidence context TASK-042 --budget 1500 --to-evidence ctx2/ $NR
r       evidence-ctx2-status                      evidence evidence --ctx ctx2 status

# --- MCP (ctxpack serve over stdio) ----------------------------------------
mcp_start billing billing
mcp_call tools-list                               '{"method":"tools/list"}'
mcp_call resources-list                           '{"method":"resources/list"}'
mcp_call prompts-list                             '{"method":"prompts/list"}'
mcp_call resource-identity                        '{"method":"resources/read","params":{"uri":"ctxpack://identity"}}'
mcp_call prompt-work-on-task                      '{"method":"prompts/get","params":{"name":"work_on_task","arguments":{"task":"TASK-042"}}}'
tool     context-links-b600                       context  '{"target":"TASK-042","budget":600}'
tool     context-links-json-summary               context  '{"target":"TASK-042","budget":2000,"depth":"summary","format":"json","link_depth":1}'
tool     context-retrieval-b1500                  context  '{"target":"the invoice total drifts by a cent after conversion","budget":1500}'
tool     pack-xml-b800                            context  '{"paths":["."],"budget":800,"format":"xml"}'
tool     pack-src-truncate-b200                   context  '{"paths":["src"],"budget":200,"overflow":"truncate","strategy":"score"}'
tool     search-k3                                search   '{"query":"invoice total rounding","k":3,"explain":true}'
tool     show-spec-summary                        artifacts '{"action":"show","id":"SPEC-BILLING-001","depth":"summary"}'
tool     list-decisions                           artifacts '{"action":"list","type":"decision"}'
tool     check                                    artifacts '{"action":"check"}'
tool     explain-dec003-b600                      artifacts '{"action":"explain","task":"TASK-042","id":"DEC-BILLING-003","budget":600}'
tool     tokens-paths                             tokens   '{"paths":["src"]}'
tool     tokens-text-cl100k                       tokens   '{"text":"Invoices must be issued in the customer'"'"'s billing currency.","tokenizer":"cl100k_base"}'
tool     context-path-escape                      context  '{"target":"../evidence/src","budget":600}'
tool     unknown-tool                             nosuch   '{}'
mcp_stop

mcp_start repo repo --read-only
mcp_call tools-list                               '{"method":"tools/list"}'
tool     context-retrieval-b3000                  context  '{"target":"how are token counts verified after packing","budget":3000}'
tool     search-files-explain                     search   '{"query":"evidence selector line range","k":5,"files":true,"explain":true}'
tool     pack-tokenizer-b4000                     context  '{"paths":["internal/tokenizer"],"budget":4000,"format":"markdown"}'
mcp_stop

mcp_start nethttp nethttp --read-only
tool     search-servemux-k5                       search   '{"query":"ServeMux pattern matching","k":5}'
tool     context-retrieval-json-b2000             context  '{"target":"http server idle connection timeout","budget":2000,"format":"json"}'
mcp_stop

mcp_start sources sources --read-only
tool     context-sources-b2000                    context  '{"target":"fixture teardown order when a test fails","sources":["memories","experiences","values","commits","code"],"budget":2000}'
tool     premortem-strategy                       store '{"action":"premortem","domain":"debugging","strategy":"systematic-elimination","budget":1500}'
tool     premortem-testing-json-limit3            store '{"action":"premortem","domain":"testing","format":"json","limit":3}'
tool     memory-show-42                           store '{"action":"show","kind":"memory","id":42}'
tool     experience-show-12                       store '{"action":"show","kind":"experience","id":12}'
tool     memory-list-decision                     store '{"action":"list","kind":"memory","category":"decision"}'
tool     experience-list-debug-falsified          store '{"action":"list","kind":"experience","domain":"debugging","outcome":"falsified"}'
tool     values-derive-rootcause                  store '{"action":"derive","axis":"root_cause","min_size":4}'
mcp_stop

mcp_start evidence evidence --read-only
tool     evidence-plan-prompt-b600                evidence '{"action":"plan","budget":600,"include_prompt":true}'
tool     evidence-plan-b8000                      evidence '{"action":"plan","budget":8000}'
tool     evidence-stale                           evidence '{"action":"stale"}'
tool     evidence-deps                            evidence '{"action":"deps","id":"100_generator_py"}'
mcp_stop

echo "record.sh: $count entries in $OUT ($(($(date +%s) - start)) s)"
