#!/usr/bin/env bash
# mcp-size.sh [CTXPACK]: what an agent pays over MCP, in bytes and o200k
# tokens (counted by ctxpack tokens itself): the tools/list result of
# `ctxpack serve` and of `ctxpack serve --read-only` on examples/billing,
# and the response to an 8,000-token context against its text, on a copy
# of this repository at HEAD. CTXPACK is the binary to measure (another
# build, for a before and after); absent: this tree's, built.
. "$(dirname "$0")/lib.sh"
bin=${1:-$work/ctxpack}
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}'

# serve DIR FLAGS... < REQUEST: the response to REQUEST (id 2) alone.
serve() {
  local dir=$1; shift
  { echo "$init"; cat; } | "$bin" -C "$dir" serve --log-level error "$@" | grep '"id":2,'
}

echo "binary: $bin"
for ro in "" --read-only; do
  echo '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | serve examples/billing $ro > "$work/list.json"
  printf 'tools/list%s: %d tools, %d bytes, %d o200k tokens\n' "${ro:+ $ro}" \
    "$(jq '.result.tools | length' "$work/list.json")" "$(wc -c < "$work/list.json")" \
    "$("$bin" tokens "$work/list.json" | head -1 | cut -f1)"
done

git archive HEAD | (mkdir "$work/repo" && tar -x -C "$work/repo")
echo '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"context","arguments":{"target":"how is the token budget divided among the parts","budget":8000}}}' |
  serve "$work/repo" > "$work/context.json"
jq -j '.result.content[0].text' "$work/context.json" > "$work/text"
resp=$(wc -c < "$work/context.json")
text=$(wc -c < "$work/text")
printf 'context, budget 8000: %d tokens of text, %d bytes; the response %d bytes, %d o200k tokens: %s times the text\n' \
  "$(jq '.result.structuredContent.total_tokens' "$work/context.json")" "$text" "$resp" \
  "$("$bin" tokens "$work/context.json" | head -1 | cut -f1)" "$(awk -v r="$resp" -v t="$text" 'BEGIN{printf "%.2f", r/t}')"
