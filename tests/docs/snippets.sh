#!/bin/sh
# Compiles and runs every C snippet of the documentation (README.md and docs/*.md: each ```c
# block) against the public headers and the shared library, with the project's warnings as
# errors; each must exit 0.
#
#   snippets.sh SOURCE_DIR WORK_DIR CC "CFLAGS" INCLUDE_DIR GENERATED_INCLUDE_DIR LIBRARY_DIR
#
# Every ```c block is marked by an HTML comment right above it (a reader does not see it):
#
#   <!-- snippet: program -->      a whole program with main, compiled as it is
#   <!-- snippet: fragment         statements, put inside int main(void) { ... return 0; }
#   top:                           (optional) file-scope lines before main: includes, helpers
#   before:                        (optional) lines in main before the fragment: what it names
#   after:                         (optional) lines in main after it: checks, releases
#   -->
#   <!-- snippet: file             file-scope code (functions, types), followed by main
#   top:                           (optional) lines before it
#   main:                          the body of int main(void) that uses it
#   -->
#   <!-- snippet: excluded NAME: WHY -->   not compiled; NAME must be in EXCLUDED below
#
# ctorch/ctorch.h, stdio.h, stdlib.h and string.h are included before every fragment and file,
# and the main made for them starts the library first (ct_init(), as every program does).
# The hidden lines hold no "--" (an HTML comment cannot). A compiler message points at the
# markdown file and line (#line). Exits non-zero if a block is unmarked, fails to compile or
# run, or the excluded ones are not exactly EXCLUDED.
set -eu
src=$1 work=$2 cc=$3 cflags=$4 inc=$5 gen=$6 libdir=$7

# The snippets that cannot run, each with the reason its comment gives.
EXCLUDED="arch-startup arch-autograd-hooks arch-py-interpreter arch-range-observer"

rm -rf "$work"
mkdir -p "$work"
cd "$src"
docs="README.md $(ls docs/*.md)"
# shellcheck disable=SC2086 # the file names are words
awk -v work="$work" '
function flush_file(   f) {
    f = sprintf("%s/%03d.c", work, n)
    if (kind == "program") {
        printf "#line %d \"%s\"\n%s", start, FILENAME, body > f
    } else if (kind == "fragment") {
        printf "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"ctorch/ctorch.h\"\n%s", sec["top"] > f
        printf "int main(void) {\n    if (ct_init() != 0) return 1;\n%s#line %d \"%s\"\n%s    return 0;\n}\n", sec["before"], start, FILENAME, body sec["after"] > f
    } else if (kind == "file") {
        printf "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"ctorch/ctorch.h\"\n%s", sec["top"] > f
        printf "#line %d \"%s\"\n%sint main(void) {\n    if (ct_init() != 0) return 1;\n%s}\n", start, FILENAME, body, sec["main"] > f
    }
    close(f)
    printf "%03d %s %s:%d %s\n", n, kind, FILENAME, start - 1, label
}
FNR == 1 { state = "text"; pending = "" }
state == "text" && /^<!-- snippet: / {
    line = $0
    sub(/^<!-- snippet: /, "", line)
    split("", sec)
    cur = ""
    one_line = sub(/ *-->$/, "", line)
    split(line, w, " ")
    pending = w[1]
    label = ""
    if (pending == "excluded") { label = w[2]; sub(/:$/, "", label) }
    if (!one_line) state = "comment"
    next
}
state == "comment" {
    if ($0 ~ /^-->$/) { state = "text"; next }
    if ($0 ~ /^(top|before|after|main):$/) { cur = $0; sub(/:$/, "", cur); next }
    sec[cur] = sec[cur] $0 "\n"
    next
}
state == "text" && /^```c$/ {
    n++
    kind = pending; pending = ""; body = ""; start = FNR + 1
    if (kind == "") { printf "%03d unmarked %s:%d\n", n, FILENAME, FNR; kind = "unmarked" }
    state = "code"
    next
}
state == "code" && /^```$/ {
    state = "text"
    if (kind != "unmarked" && kind != "excluded") flush_file()
    else if (kind == "excluded") printf "%03d excluded %s:%d %s\n", n, FILENAME, start - 1, label
    next
}
state == "code" { body = body $0 "\n"; next }
state == "text" && /^[^<]/ { pending = "" }
' $docs >"$work/snippets.txt"

fail=0 ran=0 excluded="" unmarked=0
while read -r id kind where label; do
    case $kind in
    unmarked)
        echo "FAIL: $where: a C block without a <!-- snippet: ... --> mark" >&2
        unmarked=$((unmarked + 1)) fail=1
        ;;
    excluded)
        excluded="$excluded $label"
        echo "excluded: $where ($label)"
        ;;
    *)
        # shellcheck disable=SC2086 # the flags are words
        if ! $cc -std=c11 $cflags -I"$inc" -I"$gen" "$work/$id.c" -o "$work/$id" -L"$libdir" -lctorch \
            -Wl,-rpath,"$libdir" >"$work/$id.log" 2>&1; then
            echo "FAIL: $where ($kind) does not compile:" >&2
            cat "$work/$id.log" >&2
            fail=1
            continue
        fi
        if ! (cd "$work" && "./$id" >"$id.out" 2>&1); then
            echo "FAIL: $where ($kind) exited with an error:" >&2
            cat "$work/$id.out" >&2
            fail=1
            continue
        fi
        ran=$((ran + 1))
        echo "ok: $where ($kind)"
        ;;
    esac
done <"$work/snippets.txt"

got=$(printf '%s\n' $excluded | sort | tr '\n' ' ')
want=$(printf '%s\n' $EXCLUDED | sort | tr '\n' ' ')
if [ "$got" != "$want" ]; then
    echo "FAIL: excluded snippets [$got], the list says [$want]" >&2
    fail=1
fi
total=$(wc -l <"$work/snippets.txt")
echo "docs snippets: $total C blocks, $ran compiled and ran, $(printf '%s\n' $excluded | grep -c .) excluded ($want), $unmarked unmarked"
exit $fail
