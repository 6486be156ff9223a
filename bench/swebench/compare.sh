#!/usr/bin/env bash
# ctxpack's context against the naive top-k baseline on one set: builds
# the harness once, runs it, and writes its tables (per budget, recall@k,
# edit per repository) to OUT.
#
#   bench/swebench/compare.sh DATA TREES INDEX OUT [PARALLEL] [EXTRA FLAGS...]
#
# DATA, TREES and INDEX are the harness's -data, -trees and -index-dir
# (see README.md); OUT is the file the tables go to; PARALLEL is
# -parallel (1 when absent or not a number). EXTRA FLAGS go to the
# harness as they are, for example -budgets 4000,13000, -json FILE,
# -config FILE or -only flask. The first run on a set builds its indexes
# in INDEX; later runs only search.
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
data=$1 trees=$2 index=$3 out=$4 parallel=1
shift 4
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
	parallel=$1
	shift
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here/../.." && go build -o "$tmp/swebench" ./bench/swebench)
"$tmp/swebench" -data "$data" -trees "$trees" -index-dir "$index" -parallel "$parallel" "$@" > "$tmp/out.txt"
mv "$tmp/out.txt" "$out"
echo "wrote $out" >&2
