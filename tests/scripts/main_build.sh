#!/bin/sh
# scripts/main.sh builds only what it runs: every `cmake --build` in it names its targets, they
# are the ctorch program's (ctorch_cli), and every program the job runs from build/ is that one.
# (Building everything re-linked each test with link-time optimisation: minutes for nothing the
# job uses.)
#   main_build.sh SOURCE_DIR
set -eu
main=$1/scripts/main.sh
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
builds=$(grep -E '^[^#]*cmake --build' "$main") || fail "scripts/main.sh builds nothing"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    case $line in
    *"--target ctorch_cli"*) ;;
    *) fail "scripts/main.sh builds more than the ctorch program: $line" ;;
    esac
    targets=$(printf '%s\n' "$line" | sed 's/.*--target //')
    [ "$targets" = ctorch_cli ] || fail "scripts/main.sh builds other targets too: $targets"
done <<END
$builds
END
progs=$(grep -oE '\./build/[A-Za-z0-9_/]+' "$main" | sort -u)
[ "$progs" = ./build/bin/ctorch ] || fail "scripts/main.sh runs programs other than build/bin/ctorch: $progs"
echo "ok: scripts/main.sh builds ctorch_cli only ($n build line(s)) and runs build/bin/ctorch only"
