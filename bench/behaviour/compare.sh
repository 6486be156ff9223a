#!/usr/bin/env bash
# Compares two recordings of record.sh, entry by entry:
#
#   bench/behaviour/compare.sh OLD_DIR NEW_DIR
#
# prints "same NAME" or "DIFF NAME" (with the head of a unified diff of each
# file that differs, standard output, standard error or exit code) for every
# entry of either, "missing NAME (in OLD_DIR|NEW_DIR only)" for an entry
# that one lacks, then "N same, M differ, K missing". Exit 1 when anything
# differs or is missing, 0 otherwise, 2 on bad usage. DIFF_LINES (default
# 20) sets how many lines of each diff are shown.
set -euo pipefail
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
  echo "usage: $0 OLD_DIR NEW_DIR" >&2
  exit 2
fi
old=$1 new=$2
lines=${DIFF_LINES:-20}
export LC_ALL=C

names() { find "$1" -maxdepth 1 -type f -name '*.code' -printf '%f\n' | sed 's/\.code$//'; }

same=0 differ=0 missing=0
while IFS= read -r name; do
  if [ ! -f "$old/$name.code" ] || [ ! -f "$new/$name.code" ]; then
    where=$old
    [ -f "$old/$name.code" ] || where=$new
    echo "missing $name (in $where only)"
    missing=$((missing + 1))
    continue
  fi
  d=0
  for ext in code out err; do
    if ! cmp -s "$old/$name.$ext" "$new/$name.$ext" 2>/dev/null; then
      if [ $d -eq 0 ]; then
        echo "DIFF $name"
        d=1
      fi
      if grep -qI . "$old/$name.$ext" "$new/$name.$ext" 2>/dev/null || [ ! -s "$old/$name.$ext" ] || [ ! -s "$new/$name.$ext" ]; then
        diff -u --label "old/$name.$ext" --label "new/$name.$ext" "$old/$name.$ext" "$new/$name.$ext" 2>&1 | head -n "$lines" | sed 's/^/    /' || true
      else
        echo "    $name.$ext: binary files differ"
      fi
    fi
  done
  if [ $d -eq 0 ]; then
    echo "same $name"
    same=$((same + 1))
  else
    differ=$((differ + 1))
  fi
done < <({ names "$old"; names "$new"; } | sort -u)

echo "$same same, $differ differ, $missing missing"
[ $differ -eq 0 ] && [ $missing -eq 0 ]
