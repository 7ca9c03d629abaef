#!/bin/sh
# Every writable global of the library (a static or extern object in .data or .bss, not a
# thread-local one) must be listed in tools/globals/globals.txt with how it is kept safe under
# threads: "atomic" (a C11 atomic), "once" (written once, under pthread_once, before it is read),
# "lock" (read and written under the named mutex) or "sync" (a pthread_once_t / mutex itself).
# Fails on a global that is not listed and on a listed one that no longer exists.
# usage: check.sh OBJDUMP OBJECTS_FILE LIST
objdump="$1" objects="$2" list="$3"
found=$(mktemp) listed=$(mktemp)
trap 'rm -f "$found" "$listed"' EXIT
while read -r obj; do
  [ -n "$obj" ] || continue
  src=$(printf '%s\n' "$obj" | sed -e 's|.*/CMakeFiles/[^/]*\.dir/||' -e 's|\.o$||')
  "$objdump" -t "$obj" | awk -v src="$src" '
    $3 == "O" && ($4 == ".bss" || $4 == ".data" || $4 ~ /^\.(bss|data)\./) && $4 !~ /rel\.ro/ {
      name = $NF; sub(/\.[0-9]+$/, "", name)
      if (name ~ /^__(odr_asan|asan|tsan|ubsan)/) next  # markers the sanitizers add
      print src, name }'
done < "$objects" | sort -u > "$found"
grep -v '^#' "$list" | awk 'NF >= 3 { print $1, $2 }' | sort -u > "$listed"
rc=0
comm -23 "$found" "$listed" | while read -r line; do
  echo "[NEW] $line: a writable global; make it thread-local, atomic or written once, and list it in $list"
done
comm -13 "$found" "$listed" | while read -r line; do
  echo "[STALE] $line: listed but no longer in the library"
done
if [ -n "$(comm -3 "$found" "$listed")" ]; then rc=1; fi
echo "globals: $(wc -l < "$found") writable globals, each listed with its guard"
exit $rc
