#!/usr/bin/env bash
# Index speed on a real tree: `ctxpack index` cold, with nothing changed,
# after touching one file, after editing one file, `ctxpack search` latency
# and `ctxpack context` for a sentence (retrieval mode), each in a fresh
# process. Prints the median wall time and peak RSS
# of RUNS runs, and the index's size.
#
#   bench/index-goroot.sh [TREE] [RUNS]      default: $(go env GOROOT)/src, 3
#
# The tree is copied to a scratch folder first (Go's own tree is read-only
# here and must not get a .ctxpack/); `ctxpack index --index FILE` indexes a
# read-only tree in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-$(go env GOROOT)/src}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); $(go version | cut -d' ' -f3)"
echo "tree: $tree ($(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1))"
go build -o "$work/ctxpack" ./cmd/ctxpack
cp -r "$tree" "$work/tree"
cd "$work/tree"
# A file to touch and edit: the largest Go file under the 1 MiB walk limit
# (larger ones are skipped, so changing them costs nothing), else any file.
victim=$(find . -name '*.go' -type f -size -1000k -printf '%s %p\n' | sort -rn | awk 'NR==1{print $2}')
victim=${victim:-$(find . -type f -size -1000k -printf '%s %p\n' | sort -rn | awk 'NR==1{print $2}')}

# median LABEL SETUP CMD...: runs SETUP then CMD, RUNS times; prints
# "label  median_s  rss_mib" with CMD's time and peak memory.
median() {
  local label=$1 setup=$2; shift 2
  local times=() rss=()
  for _ in $(seq "$runs"); do
    eval "$setup"
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { echo "$label failed:"; tail -5 "$work/err"; exit 1; }
    read -r t m < "$work/time"
    times+=("$t"); rss+=("$m")
  done
  local mt mr
  mt=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  mr=$(printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END{printf "%.0f", a[int((NR+1)/2)]/1024}')
  printf '%-52s %8.2f s %7s MiB\n' "$label" "$mt" "$mr"
}

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
echo "index size: $(du -sh .ctxpack/index.db | cut -f1) ($("$ctxpack" index --status | grep -E '^(files|chunks):' | tr -s ' ' | paste -sd';'))"
