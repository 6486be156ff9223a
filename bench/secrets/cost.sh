#!/usr/bin/env bash
# What redaction costs: `pack --overflow allow` on a tree (default Go's
# source tree), scanned (the default) and with --no-redact, run by run in
# turn so that load from elsewhere on the machine falls on both alike.
# Prints the median wall time and peak RSS of RUNS runs of each, and the
# ratio; issue 15 asks for at most 1.15.
#
#   bench/secrets/cost.sh [TREE] [RUNS] [FORMAT]   default: $(go env GOROOT)/src, 7, text
#
# The tree is copied and made a git repository of its own (a tree inside
# another repository would be walked with that one's .gitignore).
. "$(dirname "$0")/../lib.sh"
src=${1:-$(go env GOROOT)/src}
runs=${2:-7}
format=${3:-text}
tree="$work/tree"
snapshot "$src" "$tree"
echo "tree: $src ($(find "$tree" -type f -not -path '*/.git/*' | wc -l) files, $(du -sh --exclude=.git "$tree" | cut -f1)); format $format"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
"$work/ctxpack" -C "$tree" pack --no-record --overflow allow --format "$format" >/dev/null 2>&1 # warm the page cache
labels=("pack --overflow allow (redacted)" "pack --overflow allow --no-redact")
flags=("" "--no-redact")
for _ in $(seq "$runs"); do
  for i in 0 1; do
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %M' -o "$work/time" "$work/ctxpack" -C "$tree" pack --no-record --overflow allow --format "$format" ${flags[$i]} >/dev/null 2>"$work/err" ||
      { echo "${labels[$i]} failed:"; tail -5 "$work/err"; exit 1; }
    cat "$work/time" >> "$work/times.$i"
  done
done
med() { cut -d' ' -f"$2" "$work/times.$1" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
printf '%-40s %8s %10s\n' "command ($runs runs, medians)" "wall" "peak RSS"
for i in 0 1; do
  printf '%-40s %6.2f s %6.1f MiB\n' "${labels[$i]}" "$(med $i 1)" "$(awk -v k="$(med $i 2)" 'BEGIN{print k/1024}')"
done
awk -v a="$(med 0 1)" -v b="$(med 1 1)" 'BEGIN{printf "time ratio redacted / not: %.3f\n", a/b}'
"$work/ctxpack" -C "$tree" pack --no-record --overflow allow --format json 2>/dev/null >"$work/plan.json"
python3 - "$work/plan.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])).get("redactions") or []
print("redactions: %d in %d files" % (len(r), len({x.get("path", x["key"]) for x in r})))
PY
echo "load after: $(uptime | sed 's/.*load average/load average/')"
