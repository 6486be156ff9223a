#!/usr/bin/env bash
# mcp-agent.sh BEFORE [AFTER]: what an agent spends over MCP to get a
# correct context, for five tasks on two repositories, with two builds of
# ctxpack. For each task and build it starts `ctxpack serve` (stdio) on a
# fresh copy of the project and makes the calls an agent makes: initialize,
# notifications/initialized, tools/list, then the task's tool calls, one at
# a time, until the task's check passes on what the tool calls returned (or
# the calls run out: "no"). It prints, per task and build, the number of
# tool calls and of requests (initialize, tools/list and the tool calls;
# the notification is counted in tokens, not as a call), the o200k tokens
# of every message sent and received, byte for byte (counted by `ctxpack
# tokens` of this tree's build, on each message as a file), the tools/list
# response's tokens and the tool calls' (requests and responses), and each
# tool call with its request's and response's tokens.
#
#   bench/mcp-agent.sh /tmp/ctxpack-b043879            # AFTER: this tree's build
#   bench/mcp-agent.sh /tmp/ctxpack-b043879 ./ctxpack
#   OUT=/tmp/agent bench/mcp-agent.sh ...              # keep every message
#
# BEFORE is a ctxpack built from b043879, where issue 16 started:
#   git worktree add /tmp/base16 b043879 && (cd /tmp/base16 && go build -o /tmp/ctxpack-b043879 ./cmd/ctxpack)
# The projects: examples/billing of this tree (its .ctxpack/ artifacts, no
# index, no store), and flask at commit $flask_commit, read from the git
# repository FLASK (default: the pallets/flask mirror). Each is made a git
# repository of one commit with fixed dates, so recency is the same on
# every run. The calls and checks are listed in bench/mcp-agent.md.
. "$(dirname "$0")/lib.sh"
before=${1:?usage: bench/mcp-agent.sh BEFORE [AFTER]: BEFORE is a ctxpack built from b043879}
after=${2:-$work/ctxpack}
count=$work/ctxpack
flask_git=${FLASK:-/work/.mirror/pallets+flask/repo}
flask_commit=2ac89889f4cc330eabd50f295dcef02828522c69
out=${OUT:-$work/out}
mkdir -p "$out"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z

mkdir "$work/src"
cp -r examples/billing "$work/src/billing"
mkdir "$work/src/flask"
git --git-dir="$flask_git" archive "$flask_commit" | tar -x -C "$work/src/flask"

# project NAME: a fresh copy of project NAME at $work/p/NAME (the same
# path on every run of one task, so nothing in a response differs by it).
project() {
  rm -rf "$work/p"
  mkdir "$work/p"
  snapshot "$work/src/$1" "$work/p/$1"
  echo "$work/p/$1"
}

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agent","version":"1"}}}'
initialized='{"jsonrpc":"2.0","method":"notifications/initialized"}'
list='{"jsonrpc":"2.0","id":2,"method":"tools/list"}'

# The tasks: project, the check, and for each build the tool calls an agent
# makes in order, one per line: NAME<TAB>ARGUMENTS. A tool whose name ends
# in "!" writes: its own response does not count for the check.
tasks=(task042 rounding memory blueprints packsrc)
declare -A proj want calls_before calls_after clock
proj[task042]=billing
want[task042]='TASK-042|SPEC-BILLING-001|SPEC-CURRENCY-001|DEC-BILLING-001|return round(Fraction(amount) * rate)|rounding=ROUND_HALF_EVEN'
calls_before[task042]=$'context\t{"target":"TASK-042"}
pack\t{"paths":["src/billing/invoice","src/billing/templates","src/billing/currency"],"query":"Add multi-currency support to invoice generation"}'
calls_after[task042]=$'context\t{"target":"TASK-042"}
context\t{"paths":["src/billing/invoice","src/billing/templates","src/billing/currency"],"query":"Add multi-currency support to invoice generation"}'

proj[rounding]=billing
want[rounding]='half-even, applied once|rounding=ROUND_HALF_EVEN'
calls_before[rounding]=$'context\t{"target":"what decides invoice rounding"}
list\t{"type":"decision"}
show\t{"id":"DEC-BILLING-001"}'
calls_after[rounding]=$'context\t{"target":"what decides invoice rounding"}
artifacts\t{"action":"list","type":"decision"}
artifacts\t{"action":"show","id":"DEC-BILLING-001"}'

proj[memory]=billing
clock[memory]=1
want[memory]='WeasyPrint 61'
calls_before[memory]=$'memory_add!\t{"content":"Invoice PDFs are rendered with WeasyPrint 61; newer versions shift the currency column.","category":"fact"}
context\t{"target":"which WeasyPrint version renders the invoice PDFs","sources":["memories"]}'
calls_after[memory]=$'store_edit!\t{"action":"add","memory":{"content":"Invoice PDFs are rendered with WeasyPrint 61; newer versions shift the currency column.","category":"fact"}}
context\t{"target":"which WeasyPrint version renders the invoice PDFs","sources":["memories"]}'

proj[blueprints]=flask
want[blueprints]='blueprint.register(self, options)|app.blueprints[name] = self'
calls_before[blueprints]=$'context\t{"target":"how are blueprints registered"}
search\t{"query":"register_blueprint Blueprint.register","files":true}
pack\t{"paths":["src/flask/sansio/app.py","src/flask/sansio/blueprints.py"],"query":"how are blueprints registered"}
context\t{"target":"src/flask/sansio/app.py","budget":16000}'
calls_after[blueprints]=$'context\t{"target":"how are blueprints registered"}
search\t{"query":"register_blueprint Blueprint.register","files":true}
context\t{"paths":["src/flask/sansio/app.py","src/flask/sansio/blueprints.py"],"query":"how are blueprints registered"}
context\t{"target":"src/flask/sansio/app.py","budget":16000}'

proj[packsrc]=flask
want[packsrc]='@every-file-under:src'
calls_before[packsrc]=$'pack\t{"paths":["src"],"budget":8000}'
calls_after[packsrc]=$'context\t{"paths":["src"],"budget":8000}'

# check TASK TEXTFILE: whether the text the read calls returned holds what
# the task needs. Plain strings must all occur; @every-file-under:DIR needs
# every non-empty file of DIR in the project named in the text (shown at some level,
# or named as left out), and every response's text within 8,000 tokens.
check() {
  local task=$1 text=$2 dir=$3 s
  IFS='|' read -r -a ss <<< "${want[$task]}"
  for s in "${ss[@]}"; do
    case $s in
    @every-file-under:*)
      local d=${s#@every-file-under:} f
      while IFS= read -r f; do
        [ -s "$dir/$f" ] || continue # an empty file (py.typed) has nothing to show
        grep -qF "$f" "$text" || return 1
      done < <(cd "$dir" && git ls-files "$d")
      local t
      for t in "$text".*; do
        [ "$("$count" tokens "$t" | head -1 | cut -f1)" -le 8000 ] || return 1
      done
      ;;
    *) grep -qF -- "$s" "$text" || return 1 ;;
    esac
  done
}

# session BIN TASK VERSION CALLS: the agent's session; leaves the messages
# in $out/VERSION/TASK/ as NN-{request,response}.json and prints
# "requests reached".
session() {
  local bin=$1 task=$2 ver=$3 calls=$4 dir
  dir=$(project "${proj[$task]}")
  local msgs=$out/$ver/$task
  rm -rf "$msgs" && mkdir -p "$msgs"
  : > "$work/text"
  rm -f "$work/text".*
  coproc SRV { exec "$bin" -C "$dir" serve --log-level error 2>>"$work/serve.err"; }
  local n=0 id=2 reached=no
  # send JSON: writes the message and, for a request, reads its response.
  send() {
    n=$((n + 1))
    local f
    f=$(printf '%s/%02d' "$msgs" "$n")
    printf '%s\n' "$1" > "$f-request.json"
    printf '%s\n' "$1" >&"${SRV[1]}"
    local rid
    rid=$(jq -r '.id // empty' <<< "$1")
    [ -n "$rid" ] || return 0
    local line
    while IFS= read -r line <&"${SRV[0]}"; do
      if [ "$(jq -r '.id // empty' <<< "$line")" = "$rid" ]; then
        printf '%s\n' "$line" > "$f-response.json"
        return 0
      fi
    done
    echo "ctxpack serve ($ver, $task) ended before answering request $rid" >&2
    exit 1
  }
  send "$init"
  send "$initialized"
  send "$list"
  local name args
  while IFS=$'\t' read -r name args; do
    id=$((id + 1))
    local tool=${name%!}
    send "$(jq -cn --argjson id "$id" --arg name "$tool" --argjson args "$args" \
      '{jsonrpc:"2.0",id:$id,method:"tools/call",params:{name:$name,arguments:$args}}')"
    if [ "$tool" = "$name" ]; then
      local f
      f=$(printf '%s/%02d-response.json' "$msgs" "$n")
      jq -r '.result.content[]? | select(.type=="text") | .text' "$f" > "$work/text.$n"
      cat "$work/text.$n" >> "$work/text"
      # The files named as left out: the plan's dropped, and those the
      # directory tree lists (in_tree), which the tree's text names only
      # under their folder.
      jq -r '.result.structuredContent | ((.dropped // [])[] | .path // .key), ((.in_tree // [])[])' "$f" >> "$work/text" 2>/dev/null || true
    fi
    if check "$task" "$work/text" "$dir"; then
      reached=yes
      break
    fi
  done <<< "$calls"
  exec {SRV[1]}>&-
  wait "$SRV_PID" 2>/dev/null || true
  if [ -n "${clock[$task]:-}" ]; then
    # A memory's creation time is the clock's, and the state_root hashes
    # it: set both (and every sha256 there) to fixed values of the same form
    # so that the counts do not vary from run to run; each file as received
    # is kept as .raw.
    local f
    for f in "$msgs"/*-response.json; do
      cp "$f" "${f%.json}.raw"
      sed -E -i \
        -e 's/(\\?"created\\?":\\?")[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/\12026-01-01T00:00:00Z/g' \
        -e 's/sha256:[0-9a-f]{64}/sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855/g' "$f"
    done
  fi
  echo "$((id)) $reached"
}

# tokens FILE...: the o200k tokens of each file, one per line.
tokens() { "$count" tokens "$@" | head -n "$#" | cut -f1; }

echo "before: $before ($("$before" version))"
echo "after:  $after ($("$after" version))"
echo "flask:  $flask_commit"
echo
printf '| task | build | tool calls | requests | tokens | tools/list | tool calls\x27 tokens | correct |\n|---|---|---:|---:|---:|---:|---:|---|\n'
for task in "${tasks[@]}"; do
  for ver in before after; do
    if [ $ver = before ]; then bin=$before calls=${calls_before[$task]}; else bin=$after calls=${calls_after[$task]}; fi
    read -r requests reached < <(session "$bin" "$task" "$ver" "$calls")
    msgs=$out/$ver/$task
    total=$(tokens "$msgs"/*.json | awk '{s += $1} END {print s}')
    head=$(tokens "$msgs"/0[123]-*.json | awk '{s += $1} END {print s}')
    listtok=$(tokens "$msgs/03-response.json")
    printf '| %s | %s | %d | %d | %d | %d | %d | %s |\n' "$task" "$ver" $((requests - 2)) "$requests" "$total" "$listtok" $((total - head)) "$reached"
  done
done
echo
echo "The tool calls (request arguments; tokens of the request / of the response):"
for task in "${tasks[@]}"; do
  for ver in before after; do
    msgs=$out/$ver/$task
    for req in "$msgs"/0[4-9]-request.json "$msgs"/[1-9][0-9]-request.json; do
      [ -e "$req" ] || continue
      resp=${req%-request.json}-response.json
      read -r rt st <<< "$(tokens "$req" "$resp" | paste -sd' ')"
      printf '%s %s: %s %s  (%d / %d%s)\n' "$task" "$ver" \
        "$(jq -r '.params.name' "$req")" "$(jq -c '.params.arguments' "$req")" "$rt" "$st" \
        "$(jq -r 'if .result.isError then ", isError" else "" end' "$resp")"
    done
  done
done
