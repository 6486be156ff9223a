#!/usr/bin/env bash
# Links mode at scale: `ctxpack context` for a task in a generated project of
# 10,000 artifacts and 50,000 code files, each run a fresh process. Prints
# the median wall time and peak RSS of RUNS runs, and the binary's idle RSS.
#
#   bench/links-10k.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); $(go version | cut -d' ' -f3)"
go build -o "$work/ctxpack" ./cmd/ctxpack
go run ./bench/genproject -out "$work/proj" -artifacts 10000 -code 50000
echo "project: $(find "$work/proj/.ctxpack" -name '*.md' | wc -l) artifacts, $(find "$work/proj/src" -type f | wc -l) code files, $(du -sh "$work/proj" | cut -f1)"

measure() {
  local label=$1; shift
  local ts=() ms=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
    read -r t m < "$work/t"; ts+=("$t"); ms+=("$m")
  done
  printf '%-58s %6.3f s  %6.1f MiB\n' "$label" \
    "$(printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')" \
    "$(printf '%s\n' "${ms[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]/1024}')"
}
measure "ctxpack version (idle binary)" "$work/ctxpack" version
measure "context TASK-00007 --budget 8000" "$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 8000
measure "context TASK-00007 --budget 8000 --format json" "$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 8000 --format json
measure "context TASK-00007 (default budget, full closure)" "$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 1000000
"$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 8000 --format json 2>/dev/null | grep -m3 -E '"(total_tokens|budget)"|"state_root"' | sed 's/^ */  /'
"$work/ctxpack" -C "$work/proj" context TASK-00007 --budget 1000000 --format json 2>/dev/null | python3 -c 'import json,sys; p=json.load(sys.stdin); print("  closure:", len(p["parts"]), "parts,", p["total_tokens"], "tokens at full")'
