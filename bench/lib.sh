# What the benchmark scripts share; a script in bench/ sources it first:
#
#   . "$(dirname "$0")/lib.sh"
#
# It stops at the first error, moves to the repository root (from any
# folder of bench/), makes the
# scratch folder $work (removed on exit), prints the machine and builds
# ctxpack into $work/ctxpack. The script then sets $runs, for median.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); $(go version | cut -d' ' -f3)"
go build -o "$work/ctxpack" ./cmd/ctxpack

# median LABEL SETUP CMD...: runs SETUP (evaluated; ':' for none), then
# CMD, $runs times, and prints "LABEL  median_s  rss_mib", the median wall
# time and peak RSS of CMD; the median time is left in $work/last. CMD's
# standard output goes to $median_out (default /dev/null).
median() {
  local label=$1 setup=$2; shift 2
  local times=() rss=()
  for _ in $(seq "$runs"); do
    eval "$setup"
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"${median_out:-/dev/null}" 2>"$work/err" || { echo "$label failed:"; tail -5 "$work/err"; exit 1; }
    read -r t m < "$work/time"
    times+=("$t"); rss+=("$m")
  done
  local mt mr
  mt=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  mr=$(printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END{printf "%.1f", a[int((NR+1)/2)]/1024}')
  printf '%-58s %8.3f s %8s MiB\n' "$label" "$mt" "$mr"
  echo "$mt" > "$work/last"
}

# snapshot SRC DEST: copies the tree SRC to DEST and makes it a git
# repository of its own with one commit (a fixed author): a tree inside
# another repository would be walked with that one's .gitignore, and under
# a budget recency comes from git history.
snapshot() {
  cp -r "$1" "$2"
  rm -rf "$2/.git"
  git -C "$2" init -q
  git -C "$2" add -A
  GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost \
    git -C "$2" -c commit.gpgsign=false commit -qm snapshot
}
