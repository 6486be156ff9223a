#!/usr/bin/env bash
# Index speed on a real tree: `ctxpack index` cold, with nothing changed,
# after touching one file, after editing one file, `ctxpack search` latency
# and `ctxpack context` for a sentence (retrieval mode), each in a fresh
# process. Prints the median wall time and peak RSS
# of RUNS runs, and the index's size.
#
#   bench/index-goroot.sh [TREE] [RUNS]      default: $(go env GOROOT)/src, 3
#
# With LONG_QUERY=FILE, also a context for that file's text on standard
# input: a pasted bug report, logs and all (the longest problem statement
# of the SWE-bench dev split is 25 KB, 548 search terms).
#
# The tree is copied to a scratch folder first (Go's own tree is read-only
# here and must not get a .ctxpack/); `ctxpack index --index FILE` indexes a
# read-only tree in place instead.
. "$(dirname "$0")/lib.sh"
tree=${1:-$(go env GOROOT)/src}
runs=${2:-3}
median_out=$work/out # the cold run's summary line is printed
echo "tree: $tree ($(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1))"
cp -r "$tree" "$work/tree"
cd "$work/tree"
# A file to touch and edit: the largest Go file under the 1 MiB walk limit
# (larger ones are skipped, so changing them costs nothing), else any file.
victim=$(find . -name '*.go' -type f -size -1000k -printf '%s %p\n' | sort -rn | awk 'NR==1{print $2}')
victim=${victim:-$(find . -type f -size -1000k -printf '%s %p\n' | sort -rn | awk 'NR==1{print $2}')}

ctxpack="$work/ctxpack"
n=0
median "index, cold" 'rm -rf .ctxpack; sleep 2' "$ctxpack" index
cat "$work/out"
# Settle files written within the racy window of the last cold run.
"$ctxpack" index >/dev/null
median "index, nothing changed" ':' "$ctxpack" index
median "index, one file touched ($victim)" 'touch "$victim"' "$ctxpack" index
median "index, one file edited" 'n=$((n+1)); echo "// edit $n" >> "$victim"' "$ctxpack" index
for q in "ReadFile" "http handler timeout" "context deadline exceeded" "why does the TLS handshake fail with a certificate error"; do
  median "search --no-update \"$q\"" ':' "$ctxpack" search --no-update "$q"
done
median "search \"http handler timeout\" (with its update)" ':' "$ctxpack" search "http handler timeout"
# Retrieval mode in a fresh process, index update included.
for q in "the http server does not close idle connections after a handler timeout" "why does the TLS handshake fail with a certificate error"; do
  median "context \"${q:0:40}…\" --budget 8000" ':' "$ctxpack" context "$q" --budget 8000
done
if [[ -n "${LONG_QUERY:-}" ]]; then
  median "context - < $(basename "$LONG_QUERY") ($(wc -c < "$LONG_QUERY") bytes) --budget 8000" ':' sh -c '"$0" context - --budget 8000 < "$1"' "$ctxpack" "$LONG_QUERY"
fi
echo "index size: $(du -sh .ctxpack/index.db | cut -f1) ($("$ctxpack" index --status | grep -E '^(files|chunks):' | tr -s ' ' | paste -sd';'))"
