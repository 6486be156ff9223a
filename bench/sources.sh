#!/usr/bin/env bash
# Sources mode and premortem at scale: `ctxpack context --sources` with all
# five store and index sources, and `ctxpack premortem`, on a store of
# 10,000 memories, 5,000 experiences and 500 values (bench/gensources) and
# the git history of a real repository, each run a fresh process. Prints
# the median wall time and peak RSS of RUNS runs, the RSS above the idle
# binary's (`ctxpack version`), and whether each holds its limit: context
# under 1 s, premortem under 1.5 s, both under 50 MiB above idle.
#
#   bench/sources.sh [RUNS] [REPO|generate]
#
# REPO is a git repository to clone (default: the pytest mirror, over
# 13,000 commits); "generate", or a REPO that does not exist, makes a
# history of 5,000 commits by script instead. The clone is indexed (code and
# commits) and filled with the generated store first, untimed.
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
repo=${2:-/work/.mirror/pytest-dev+pytest/repo}
ctxpack="$work/ctxpack"
proj="$work/proj"
go build -o "$work/gensources" ./bench/gensources

# genhistory DIR N: a repository of N commits, each changing one of 400
# Python files under 40 packages, with a short message, by git fast-import.
genhistory() {
  git init -q -b main "$1"
  awk -v n="$2" 'BEGIN {
    srand(1)
    split("fix add remove refactor document test speed up handle rename deprecate", verb, " ")
    split("fixture teardown order capture stdout assertion rewriting plugin hook marker collection traceback config warning cache report", noun, " ")
    for (i = 1; i <= n; i++) {
      msg = sprintf("%s %s %s in mod%02d\n\nThe %s of the %s was wrong when a test failed (#%d).\n",
        verb[int(rand() * 11) + 1], noun[int(rand() * 17) + 1], noun[int(rand() * 17) + 1], i % 40,
        noun[int(rand() * 17) + 1], noun[int(rand() * 17) + 1], i)
      body = sprintf("def f%d(x):\n    return x * %d\n", i, i)
      printf "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", 1500000000 + i * 3600, length(msg), msg
      printf "M 644 inline src/mod%02d/file%03d.py\ndata %d\n%s\n", i % 40, i % 400, length(body), body
    }
  }' | git -C "$1" fast-import --quiet
  git -C "$1" reset -q --hard main
}

if [ "$repo" != generate ] && git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  git clone -q --no-hardlinks "$repo" "$proj"
  echo "repository: $repo"
else
  [ "$repo" = generate ] || echo "no repository at $repo: a generated history instead"
  genhistory "$proj" 5000
  echo "repository: generated, 5000 commits"
fi
echo "history: $(git -C "$proj" rev-list --count HEAD) commits ($(git -C "$proj" rev-list --count --no-merges HEAD) not merges); tree: $(git -C "$proj" ls-files | wc -l) files"
cd "$proj"
start=$(date +%s.%N)
"$ctxpack" index >/dev/null
echo "index (code and commits, untimed): $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}') s"
"$work/gensources" -root "$proj"
"$ctxpack" index >/dev/null # settle files written within the racy window of the first run

# line LIMIT_S LABEL CMD...: median of CMD, with the RSS above idle and
# whether the time is under LIMIT_S seconds and the RSS under 50 MiB above
# idle ("-" as LIMIT_S: no limit, and the RSS is kept as idle).
line() {
  local limit=$1 label=$2 out t m; shift 2
  out=$(median "$label" : "$@") || { echo "$out"; exit 1; }
  t=$(awk '{print $(NF-3)}' <<<"$out")
  m=$(awk '{print $(NF-1)}' <<<"$out")
  if [ "$limit" = - ]; then
    idle=$m
    echo "$out"
    return
  fi
  awk -v out="$out" -v t="$t" -v m="$m" -v idle="$idle" -v lim="$limit" 'BEGIN {
    d = m - idle
    printf "%s  +%5.1f MiB  %s\n", out, d, (t < lim && d < 50) ? "ok" : "MISS (limit " lim " s, +50 MiB)"
  }'
}

echo
echo "load average before the timed runs: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-58s %10s %12s  %s\n' "" "median" "peak RSS" "above idle"
line - "ctxpack version (idle binary)" "$ctxpack" version
sources=memories,code,experiences,values,commits
for q in "fixture teardown order when a test fails" "assertion rewriting of comparisons" "capture of stdout in subprocess"; do
  line 1 "context \"${q:0:34}\" --sources (5)" "$ctxpack" context "$q" --sources "$sources" --budget 2000 --no-record --no-cache
  line 1 "  the same, --no-update" "$ctxpack" context "$q" --sources "$sources" --budget 2000 --no-record --no-cache --no-update
done
line 1.5 "premortem debugging --strategy systematic-elimination" "$ctxpack" premortem debugging --strategy systematic-elimination --no-record
line 1.5 "premortem testing" "$ctxpack" premortem testing --no-record

echo
"$work/gensources" -root "$proj" -counts
if command -v jq >/dev/null && "$ctxpack" memory list --help >/dev/null 2>&1; then
  echo "store, as ctxpack lists it: $("$ctxpack" memory list --format json | jq length) memories, $("$ctxpack" experience list --format json | jq length) experiences, $("$ctxpack" value list --format json | jq length) values"
fi
q="fixture teardown order when a test fails"
echo "context \"$q\": $("$ctxpack" context "$q" --sources "$sources" --budget 2000 --no-record --no-cache | grep -E '^## |items? from' | tr '\n' ' ')"
echo "premortem debugging: $("$ctxpack" premortem debugging --strategy systematic-elimination --no-record | grep -E '^## |[Bb]ased on' | tr '\n' ' ')"
