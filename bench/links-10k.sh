#!/usr/bin/env bash
# Links mode at scale: `ctxpack context` for a task in a generated project of
# 10,000 artifacts and 50,000 code files, each run a fresh process. Prints
# the median wall time and peak RSS of RUNS runs, and the binary's idle RSS.
#
#   bench/links-10k.sh [RUNS]
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
go run ./bench/genproject -out "$work/proj" -artifacts 10000 -code 50000
echo "project: $(find "$work/proj/.ctxpack" -name '*.md' | wc -l) artifacts, $(find "$work/proj/src" -type f | wc -l) code files, $(du -sh "$work/proj" | cut -f1)"

median "ctxpack version (idle binary)" : "$work/ctxpack" version
median "context TASK-00007 --budget 8000" : "$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 8000
median "context TASK-00007 --budget 8000 --format json" : "$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 8000 --format json
median "context TASK-00007 (default budget, full closure)" : "$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 1000000
"$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 8000 --format json 2>/dev/null | grep -m3 -E '"(total_tokens|budget)"|"state_root"' | sed 's/^ */  /'
"$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 1000000 --format json 2>/dev/null | python3 -c 'import json,sys; p=json.load(sys.stdin); print("  closure:", len(p["parts"]), "parts,", p["total_tokens"], "tokens at full")'
