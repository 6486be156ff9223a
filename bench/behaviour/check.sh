#!/usr/bin/env bash
# Compares a recording of record.sh with the committed manifest (the sha256
# of every entry's .out, .err and .code as the base binary recorded them),
# without the base binary:
#
#   bench/behaviour/check.sh OUTDIR
#       prints "same NAME", "DIFF NAME (out err code: those that differ)" or
#       "missing NAME (in the manifest|recording only)", then
#       "N same, M differ, K missing"; exit 1 when anything differs or is
#       missing. Show what changed with compare.sh against a base recording.
#   bench/behaviour/check.sh --update OUTDIR NAME...
#       replaces the manifest's lines of each NAME with OUTDIR's (adds a new
#       entry, drops one OUTDIR lacks): for an output changed on purpose,
#       listed in README.md under "Intended changes".
#   bench/behaviour/check.sh --update OUTDIR
#       rewrites the whole manifest from OUTDIR (only when the base changes).
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/manifest.txt

usage() {
  echo "usage: $0 OUTDIR | $0 --update OUTDIR [NAME...]" >&2
  exit 2
}

# lines DIR NAME...: the manifest's lines for NAME (all of DIR's entries
# when no NAME is given), "SHA256  NAME.EXT" as sha256sum prints them.
lines() {
  local dir=$1 name ext
  shift
  if [ $# -eq 0 ]; then
    set -- $(find "$dir" -maxdepth 1 -type f -name '*.code' -printf '%f\n' | sed 's/\.code$//' | sort)
  fi
  for name in "$@"; do
    [ -f "$dir/$name.code" ] || continue
    for ext in out err code; do
      (cd "$dir" && sha256sum "$name.$ext")
    done
  done
}

header() {
  echo "# bench/behaviour: sha256 of NAME.out, NAME.err and NAME.code as record.sh recorded them"
  echo "# with the ctxpack binary of the base commit (see README.md); check with check.sh OUTDIR."
}

if [ "${1:-}" = --update ]; then
  [ $# -ge 2 ] && [ -d "$2" ] || usage
  dir=$2
  shift 2
  if [ $# -eq 0 ]; then
    { header; lines "$dir" | sort -k2,2; } >"$manifest.tmp"
  else
    pattern="  ($(printf '%s\n' "$@" | sed 's/\./\\./g' | paste -sd'|'))\.(out|err|code)\$"
    body=$({
      grep -v '^#' "$manifest" | grep -Ev "$pattern" || true
      lines "$dir" "$@"
    } | sort -k2,2)
    { grep '^#' "$manifest" || true; printf '%s\n' "$body"; } >"$manifest.tmp"
  fi
  mv "$manifest.tmp" "$manifest"
  echo "check.sh: $(grep -vc '^#' "$manifest") lines in $manifest"
  exit 0
fi

[ $# -eq 1 ] && [ -d "$1" ] || usage
dir=$1
declare -A want got
while read -r sum file; do
  want[$file]=$sum
done < <(grep -v '^#' "$manifest")
while read -r sum file; do
  got[$file]=$sum
done < <(lines "$dir")

same=0 differ=0 missing=0
while IFS= read -r name; do
  if [ -z "${want[$name.code]:-}" ] || [ -z "${got[$name.code]:-}" ]; then
    where="the recording"
    [ -n "${want[$name.code]:-}" ] && where="the manifest"
    echo "missing $name (in $where only)"
    missing=$((missing + 1))
    continue
  fi
  bad=""
  for ext in out err code; do
    [ "${want[$name.$ext]:-}" = "${got[$name.$ext]:-}" ] || bad="$bad $ext"
  done
  if [ -z "$bad" ]; then
    echo "same $name"
    same=$((same + 1))
  else
    echo "DIFF $name (${bad# })"
    differ=$((differ + 1))
  fi
done < <(for f in "${!want[@]}" "${!got[@]}"; do echo "${f%.*}"; done | sort -u)

echo "$same same, $differ differ, $missing missing"
[ $differ -eq 0 ] && [ $missing -eq 0 ]
