#!/usr/bin/env bash
# Each retrieval component's contribution: runs the harness on one set
# with every component on, with each turned off in turn (retrieval.off in
# a configuration file), and with all of them off, and prints recall@1,
# @3, @5, @10, and ctxpack's goldfull and edit at 13000 tokens, overall,
# for each.
#
#   bench/swebench/ablation.sh DATA TREES INDEX OUT [PARALLEL]
#
# DATA, TREES and INDEX are the harness's -data, -trees and -index-dir
# (see README.md); OUT is a folder for each run's table and per-instance
# JSON. The indexes must exist (a first harness run builds them): the
# components act at query time, so every run only searches.
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,14p' "$0" >&2; exit 2; }
data=$1 trees=$2 index=$3 out=$4 parallel=${5:-1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
bin="$out/swebench"
(cd "$here/../.." && go build -o "$bin" ./bench/swebench)
components=$("$bin" -components)
run() { # NAME OFF-LIST
	local cfg="$out/$1.yaml"
	printf 'retrieval:\n  off: [%s]\n' "$2" > "$cfg"
	"$bin" -data "$data" -trees "$trees" -index-dir "$index" -config "$cfg" -budget 13000 -parallel "$parallel" -json "$out/$1.json" > "$out/$1.txt"
	# the recall table's overall row has 7 fields; the budget table's row starts with the budget.
	printf '%-22s %s\n' "$1" "$(awk '$1 == "overall" && NF == 7 {r = "r@1 " $3 "  r@3 " $4 "  r@5 " $5 "  r@10 " $6} $1 == "13000" {b = "  goldfull " $4 "  edit " $2} END {print r b}' "$out/$1.txt")"
}
run all-on ""
for c in $components; do
	run "without-$c" "$c"
done
run all-off "$(echo $components | tr ' ' ',')"
