#!/usr/bin/env bash
# Determinism of retrieval on real trees: for every query of the SWE-bench
# dev split (its problem_statement), the context ctxpack assembles must have
# one digest whatever GOMAXPROCS, whether the index was built clean or
# brought up to date incrementally, and wherever the tree lies.
#
#   bench/swebench/determinism.sh CTXPACK_BINARY [WORKDIR]
#
# Trees (TREES, default "pytest xarray goroot"; "requests" is also known):
#   pytest   pytest-dev/pytest at the base of pytest-dev__pytest-7373
#   xarray   pydata/xarray at the base of pydata__xarray-4493
#   requests psf/requests at the base of psf__requests-2317
#   goroot   a copy of $(go env GOROOT)/src made a git repository of its own
#            (one commit), so nothing enclosing it interferes
# The Python trees are clones of the bare mirrors under $MIRRORS (default
# /work/.mirror, OWNER+NAME/repo) checked out at the base commit, history
# and all: ranking reads git history, and must be deterministic with it.
#
# Conditions, each on every query (ctxpack context - --budget 13000
# --tokenizer cl100k_base --format json --no-cache, the query on standard
# input; --no-cache so that every run assembles rather than replays):
#   c1      GOMAXPROCS=1, clean index (.ctxpack removed, then ctxpack index)
#   c2      GOMAXPROCS=8, clean index
#   c3-8    GOMAXPROCS=8, incremental index: the Python trees are indexed
#           at the commit $BACK (default 200) first-parent commits before
#           the base, then checked out at the base and indexed again; Go's
#           tree is indexed, a few files are edited (one keeping its
#           size), added and deleted and it is indexed, then they are
#           restored and it is indexed again
#   c3-1    GOMAXPROCS=1 on c3's index
#   c4      as c1, in a fresh copy of the tree at another absolute path
#           (another parent and another base name)
#
# Prints the trees' sizes, each condition's index and query times
# (informational), and a table: per tree, the queries, the most distinct
# digests any query had (must be 1) and the queries with more than one.
# Exits 1 at the first tree with a query of more than one digest, naming
# the query and the two conditions and showing the first difference of
# their JSON outputs. Whole outputs that differ where the digests agree
# (the plan's scores, say) are reported as a warning.
#
# WORKDIR keeps the trees, outputs (WORKDIR/TREE/out/COND/NN.json) and
# digests (WORKDIR/TREE/digests.tsv); it must be empty or absent. Without
# it a scratch folder is used and removed on exit. Unlike bench/lib.sh,
# this script tests a given binary rather than building one.
set -euo pipefail

die() { echo "determinism: $*" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 CTXPACK_BINARY [WORKDIR]"
[ -x "$1" ] || die "$1 is not an executable file (build one: go build -o /tmp/det/ctxpack ./cmd/ctxpack)"
bin=$(realpath "$1")
for tool in git jq sha256sum diff; do
  command -v "$tool" >/dev/null || die "$tool is needed and is not on PATH"
done
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
data=${DATA:-$root/../shared/bench/swebench/dev.jsonl}
[ -r "$data" ] || die "the dev split $data is not readable (set DATA=FILE)"
data=$(realpath "$data")
mirrors=${MIRRORS:-/work/.mirror}
trees=${TREES:-pytest xarray goroot}
back=${BACK:-200}

if [ $# -eq 2 ]; then
  mkdir -p "$2"
  [ -z "$(ls -A "$2")" ] || die "WORKDIR $2 is not empty (give an empty or new folder)"
  work=$(realpath "$2")
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

echo "machine: $(nproc) cores, $(uname -sr); $(go version 2>/dev/null | cut -d' ' -f3); binary $bin"
echo "dev split: $data; work: $work"

# The queries, one file each: $work/q/NN.txt, and NN's instance id.
mkdir -p "$work/q"
n=$(jq -s length "$data")
[ "$n" -gt 0 ] || die "$data holds no instances"
declare -a ids
for ((i = 0; i < n; i++)); do
  nn=$(printf '%02d' "$i")
  jq -rs ".[$i].problem_statement" "$data" > "$work/q/$nn.txt"
  ids[i]=$(jq -rs ".[$i].instance_id" "$data")
  [ -s "$work/q/$nn.txt" ] || die "instance $i of $data has no problem_statement"
done
echo "queries: $n"

# base_of ID: the base commit of dev instance ID.
base_of() {
  local b
  b=$(jq -r --arg id "$1" 'select(.instance_id == $id) | .base_commit' "$data")
  [ -n "$b" ] || die "no instance $1 in $data"
  echo "$b"
}

# make_tree NAME DIR [COMMIT]: a fresh tree NAME in DIR, the Python ones
# checked out at COMMIT (default the base).
make_tree() {
  local name=$1 dir=$2 commit=${3:-}
  mkdir -p "$(dirname "$dir")"
  case $name in
  goroot)
    local src
    src=$(go env GOROOT)/src
    [ -d "$src" ] || die "Go's source tree $src is missing"
    cp -r "$src" "$dir"
    rm -rf "$dir/.git"
    git -C "$dir" init -q
    git -C "$dir" add -A
    GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost \
      GIT_AUTHOR_DATE=2024-01-01T00:00:00Z GIT_COMMITTER_DATE=2024-01-01T00:00:00Z \
      git -C "$dir" -c commit.gpgsign=false commit -qm snapshot
    ;;
  *)
    local mirror=$mirrors/${mirror_of[$name]}/repo
    [ -d "$mirror" ] || die "the mirror $mirror is missing (MIRRORS=DIR)"
    git clone -q --shared "$mirror" "$dir"
    git -C "$dir" checkout -q --detach "${commit:-${base[$name]}}"
    ;;
  esac
}

declare -A mirror_of=([pytest]=pytest-dev+pytest [xarray]=pydata+xarray [requests]=psf+requests)
declare -A instance_of=([pytest]=pytest-dev__pytest-7373 [xarray]=pydata__xarray-4493 [requests]=psf__requests-2317)
declare -A base
for name in $trees; do
  case $name in
  goroot) ;;
  pytest | xarray | requests) base[$name]=$(base_of "${instance_of[$name]}") ;;
  *) die "unknown tree $name in TREES (pytest, xarray, requests, goroot)" ;;
  esac
done

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# index PROCS DIR LOG: ctxpack index with GOMAXPROCS=PROCS, its summary
# appended to LOG.
index() {
  GOMAXPROCS=$1 "$bin" -C "$2" index >>"$3" 2>&1 || { echo "ctxpack index in $2 failed:"; tail -5 "$3"; exit 2; }
}

# queries PROCS DIR OUT: every query in DIR with GOMAXPROCS=PROCS, each
# output in OUT/NN.json and its digest and whole-output hash in
# OUT/digests.tsv (NN digest hash).
queries() {
  local procs=$1 dir=$2 out=$3 q nn d
  mkdir -p "$out"
  : >"$out/digests.tsv"
  for q in "$work"/q/*.txt; do
    nn=$(basename "$q" .txt)
    GOMAXPROCS=$procs "$bin" -C "$dir" context - --budget 13000 --tokenizer cl100k_base --format json --no-cache --no-record \
      <"$q" >"$out/$nn.json" 2>"$out/$nn.err" || { echo "ctxpack context on query $nn (${ids[10#$nn]}) in $dir failed:"; tail -5 "$out/$nn.err"; exit 2; }
    d=$(jq -r '.digest // empty' "$out/$nn.json")
    [ -n "$d" ] || d="sha256:$(sha256sum <"$out/$nn.json" | cut -d' ' -f1) (whole output: no digest field)"
    printf '%s\t%s\t%s\n' "$nn" "$d" "$(sha256sum <"$out/$nn.json" | cut -d' ' -f1)" >>"$out/digests.tsv"
  done
}

# Go's tree's incremental edits: appended to, edited in place keeping the
# size, deleted, and added; $1 is the tree, $2 a folder for the originals.
go_edited=(net/http/server.go fmt/print.go)
go_same_size=strings/strings.go
go_deleted=(os/file.go go/ast/ast.go encoding/json/decode.go)
go_added=(net/http/zz_determinism.go docs_determinism.md)
mutate_go() {
  local dir=$1 keep=$2 f
  for f in "${go_edited[@]}" "$go_same_size" "${go_deleted[@]}"; do
    [ -f "$dir/$f" ] || die "Go's tree has no $f: change the list in $0"
    mkdir -p "$keep/$(dirname "$f")"
    cp -p "$dir/$f" "$keep/$f"
  done
  for f in "${go_edited[@]}"; do
    printf '\n// determinism: an edit to be undone\nfunc determinismExtra() int { return 42 }\n' >>"$dir/$f"
  done
  # Same size: swap the first "func " for "fnuc ".
  sed -i '0,/func /s//fnuc /' "$dir/$go_same_size"
  cmp -s "$dir/$go_same_size" "$keep/$go_same_size" && die "the in-place edit of $go_same_size changed nothing"
  for f in "${go_deleted[@]}"; do rm "$dir/$f"; done
  printf 'package http\n\n// Session redirect auth header fixture pytest\nfunc determinismAdded() string { return "added" }\n' >"$dir/${go_added[0]}"
  printf '# Added\n\nA file the incremental update must forget: assertion rewrite, xarray dataset merge.\n' >"$dir/${go_added[1]}"
}
restore_go() {
  local dir=$1 keep=$2 f
  for f in "${go_edited[@]}" "$go_same_size" "${go_deleted[@]}"; do cp "$keep/$f" "$dir/$f"; done
  for f in "${go_added[@]}"; do rm "$dir/$f"; done
  [ -z "$(git -C "$dir" status --porcelain --untracked-files=all -- . ':!.ctxpack')" ] || die "Go's tree was not restored: $(git -C "$dir" status --short | head -3)"
}

# first_diff A LABEL_A B LABEL_B: the first difference of two JSON outputs,
# content split into lines.
first_diff() {
  diff -U2 --label "$2" --label "$4" <(jq -S '.content |= (. // "" | split("\n"))' "$1") <(jq -S '.content |= (. // "" | split("\n"))' "$3") |
    sed -n '1,40p' | cut -c1-220 || true
}

conds=(c1 c2 c3-8 c3-1 c4)

# timing COND INDEX_S QUERIES_S: one line of the times.
timing() { printf '  %-5s index %7s s   %2d queries %7s s\n' "$1" "$2" "$n" "$3"; }

# which_differ FILE NN OFFSET: the numbers (1-based) of the first two
# conditions whose columns (OFFSET+1 on) differ on query NN in FILE.
which_differ() {
  awk -F'\t' -v q="$2" -v off="$3" -v k="${#conds[@]}" '$1 == q { for (i = 2; i <= k; i++) if ($(off + i) != $(off + 1)) { print 1, i; exit } }' "$1"
}
summary=()
status=0
for name in $trees; do
  t=$work/$name
  tree=$t/tree
  log=$t/index.log
  mkdir -p "$t"
  echo
  echo "== $name"
  start=$(now)
  make_tree "$name" "$tree"
  files=$(git -C "$tree" ls-files | wc -l)
  size=$(du -sh --exclude=.git "$tree" | cut -f1)
  commits=$(git -C "$tree" rev-list --count HEAD)
  echo "$name: $files files, $size, $commits commits at ${base[$name]:-snapshot} (made in $(since "$start") s)"

  for procs in 1 8; do
    c=c$([ "$procs" = 1 ] && echo 1 || echo 2)
    rm -rf "$tree/.ctxpack"
    s=$(now); index "$procs" "$tree" "$log"; ti=$(since "$s")
    s=$(now); queries "$procs" "$tree" "$t/out/$c"; timing "$c" "$ti" "$(since "$s")"
  done

  rm -rf "$tree/.ctxpack"
  s=$(now)
  if [ "$name" = goroot ]; then
    index 8 "$tree" "$log"
    mutate_go "$tree" "$t/originals"
    index 8 "$tree" "$log"
    restore_go "$tree" "$t/originals"
    index 8 "$tree" "$log"
  else
    old=$(git -C "$tree" rev-parse "${base[$name]}~$back")
    git -C "$tree" checkout -q --detach "$old"
    index 8 "$tree" "$log"
    git -C "$tree" checkout -q --detach "${base[$name]}"
    index 8 "$tree" "$log"
  fi
  ti=$(since "$s")
  s=$(now); queries 8 "$tree" "$t/out/c3-8"; timing c3-8 "$ti" "$(since "$s")"
  s=$(now); queries 1 "$tree" "$t/out/c3-1"; timing c3-1 - "$(since "$s")"

  moved=$t/moved-elsewhere/copy-of-$name
  s=$(now)
  make_tree "$name" "$moved"
  index 1 "$moved" "$log"
  ti=$(since "$s")
  s=$(now); queries 1 "$moved" "$t/out/c4"; timing c4 "$ti" "$(since "$s")"

  # One line per query: NN, then each condition's digest, then each
  # condition's whole-output hash.
  paste "$t"/out/c1/digests.tsv "$t"/out/c2/digests.tsv "$t"/out/c3-8/digests.tsv "$t"/out/c3-1/digests.tsv "$t"/out/c4/digests.tsv |
    awk -F'\t' '{printf "%s", $1; for (i = 2; i <= NF; i += 3) printf "\t%s", $i; for (i = 3; i <= NF; i += 3) printf "\t%s", $i; print ""}' >"$t/digests.tsv"
  # Per query: distinct digests and distinct whole outputs.
  read -r maxd badd maxo bado firstd firsto < <(awk -F'\t' -v k="${#conds[@]}" '
    { delete d; delete o; nd = 0; no = 0
      for (i = 2; i <= 1 + k; i++) if (!($i in d)) { d[$i]; nd++ }
      for (i = 2 + k; i <= 1 + 2 * k; i++) if (!($i in o)) { o[$i]; no++ }
      if (nd > maxd) maxd = nd; if (no > maxo) maxo = no
      if (nd > 1) { badd++; if (fd == "") fd = $1 }
      if (no > 1) { bado++; if (fo == "") fo = $1 } }
    END { print maxd + 0, badd + 0, maxo + 0, bado + 0, (fd == "" ? "-" : fd), (fo == "" ? "-" : fo) }' "$t/digests.tsv")
  summary+=("$(printf '%-8s %6s %8s %7d %20d %19d %22d' "$name" "$files" "$size" "$n" "$maxd" "$badd" "$maxo")")

  if [ "$firstd" != - ]; then
    read -r a b < <(which_differ "$t/digests.tsv" "$firstd" 1)
    ca=${conds[a - 1]} cb=${conds[b - 1]}
    echo "NOT DETERMINISTIC: $name, query $firstd (${ids[10#$firstd]}): $ca and $cb give different digests ($badd queries differ)"
    first_diff "$t/out/$ca/$firstd.json" "$ca/$firstd.json" "$t/out/$cb/$firstd.json" "$cb/$firstd.json"
    status=1
  elif [ "$firsto" != - ]; then
    read -r a b < <(which_differ "$t/digests.tsv" "$firsto" $((1 + ${#conds[@]})))
    ca=${conds[a - 1]} cb=${conds[b - 1]}
    echo "warning: $name, query $firsto (${ids[10#$firsto]}): the digests agree but the whole JSON outputs of $ca and $cb differ ($bado queries):"
    first_diff "$t/out/$ca/$firsto.json" "$ca/$firsto.json" "$t/out/$cb/$firsto.json" "$cb/$firsto.json"
  fi
  echo "  $name done in $(since "$start") s (c3's index time is both updates; c4's includes making the copy)"
  [ "$status" = 0 ] || break
done

echo
echo "conditions: ${conds[*]}"
printf '%-8s %6s %8s %7s %20s %19s %22s\n' tree files size queries "max digests/query" "queries >1 digest" "max outputs/query"
printf '%s\n' "${summary[@]}"
exit "$status"
