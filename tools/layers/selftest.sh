#!/bin/sh
# Tests ctorch_layers on the two small trees of tools/layers/fixture: the clean one passes, and
# in the other every kind of violation is caught (an include, a call seen only in the object
# file, a data reference, a sibling layer, a cycle across layers, a cycle inside one layer);
# the allowlist lets known violations pass, fails on a new one and on an entry that no longer
# occurs or has become smaller; a map cannot excuse a call (a `startup` line, which once exempted
# the library's start-up, is a usage error); a file without a layer is a usage error.
#   selftest.sh TOOL NM FIXTURE_DIR OBJECT_LISTS_DIR
set -eu
tool=$1 nm=$2 fixture=$3 lists=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() {
    echo "FAIL: $*" >&2
    [ -f "$work/out" ] && cat "$work/out" >&2
    exit 1
}
check() { # TREE EXPECTED_RC [ARGS...]: runs the tool on a tree into $work/out
    tree=$1 want=$2
    shift 2
    rc=0
    "$tool" --root "$fixture/$tree" --map "$fixture/layers.txt" --nm "$nm" \
        --objects-file "$lists/fixture_$tree.objects" "$@" >"$work/out" 2>&1 || rc=$?
    [ "$rc" = "$want" ] || fail "$tree $*: exit $rc, expected $want"
}
has() { grep -qF -- "$1" "$work/out" || fail "output lacks: $1"; }

check clean 0
has "0 edges against the order, 0 cycles"
has "layering check: ok"
echo "ok: the clean tree passes"

{ cat "$fixture/layers.txt"; echo "startup high_value"; } >"$work/map"
rc=0
"$tool" --root "$fixture/bad" --map "$work/map" --nm "$nm" --objects-file "$lists/fixture_bad.objects" >"$work/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a map with a 'startup' line: exit $rc, expected 2"
has "expected 'layer NAME RANK', 'scan DIR', 'include-path DIR' or 'map PREFIX LAYER'"
echo "ok: no call can be excused by the map"

check bad 1
while IFS= read -r line; do has "$line"; done <"$fixture/expected-violations.txt"
has "6 edges against the order, 2 cycles"
echo "ok: every violation of the bad tree is reported and fails the check"

check bad 0 --print-allowlist
diff -u "$fixture/expected-violations.txt" "$work/out" || fail "--print-allowlist differs"
echo "ok: --print-allowlist lists exactly the violations"

cp "$fixture/expected-violations.txt" "$work/allow"
check bad 0 --allowlist "$work/allow"
has "layering check: ok (only known violations)"
echo "ok: known violations pass"

grep -v '^include src/low/low.c' "$fixture/expected-violations.txt" >"$work/allow"
check bad 1 --allowlist "$work/allow"
has "[NEW]   include src/low/low.c -> src/high/high.h"
grep -v '^cycle src/mid' "$fixture/expected-violations.txt" >"$work/allow"
check bad 1 --allowlist "$work/allow"
has "[NEW]   cycle src/mid/a.c src/mid/b.c"
echo "ok: a violation missing from the allowlist fails"

{ cat "$fixture/expected-violations.txt"; echo "call src/low/low.c -> src/mid/a.c a_fn"; } >"$work/allow"
check bad 1 --allowlist "$work/allow"
has "[STALE] call src/low/low.c -> src/mid/a.c a_fn"
{ grep -v '^cycle src/mid' "$fixture/expected-violations.txt"; echo "cycle src/mid/a.c src/mid/b.c src/mid/c.c"; } >"$work/allow"
check bad 1 --allowlist "$work/allow"
has "[known] cycle src/mid/a.c src/mid/b.c"
has "[STALE] cycle src/mid/a.c src/mid/b.c src/mid/c.c"
has "now: cycle src/mid/a.c src/mid/b.c"
echo "ok: an allowlist entry that no longer occurs, or a cycle that shrank, fails"

grep -v '^map src/peer' "$fixture/layers.txt" >"$work/map"
rc=0
"$tool" --root "$fixture/bad" --map "$work/map" --nm "$nm" --objects-file "$lists/fixture_bad.objects" >"$work/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a file without a layer: exit $rc, expected 2"
has "no layer for src/peer/peer.c"
echo "ok: a file without a layer is an error"
