#!/bin/sh
# Adding an operator to Python is its line in src/ops/ops.def and nothing else: a copy of the
# source tree gets one throwaway line, and the ctorch program built from that copy must offer
# the operator as torch.x and Tensor.x (to function modes too, and to a dispatch mode as
# aten.x.default). The line's kernel is one the library has already (the CPU kernel of
# aten::neg): registering an existing kernel under a new schema needs no other edit, so the
# copy differs from the tree in that one line.
# The copy and its build go to a temporary folder outside the tree (a copy inside the build tree
# would be one more set of sources to the globs that walk the tree, the source hash's among them),
# removed afterwards; a failing step prints its log.
#   ops_def_binding.sh SOURCE_DIR [C_COMPILER]
set -eu
src=$1
cc=${2:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/ops_def_binding.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    for log in "$work/configure.log" "$work/build.log"; do
        [ -f "$log" ] && tail -n 30 "$log" >&2
    done
    exit 1
}
mkdir -p "$work/src"
# the tree as the build sees it, without build trees or outputs
tar -C "$src" --exclude='./build' --exclude='./build-*' --exclude='./.git' --exclude='./experiments' -cf - . |
    tar -C "$work/src" -xf -
def=$work/src/src/ops/ops.def
line='CT_OP(throwaway_negate, "aten::throwaway_negate(Tensor self) -> Tensor", CT_IMPL(CPU, ct_k_neg) CT_PY(function, method))'
# after the last CT_OP line, so it is one more built-in
awk -v line="$line" '{ print } /^CT_OP\(_record_function_exit,/ { print line }' "$def" >"$def.new"
mv "$def.new" "$def"
[ "$(grep -c 'throwaway_negate' "$def")" = 1 ] || fail "the line did not go into the copy of ops.def"
n=$(diff -r -x build -x 'build-*' -x .git -x experiments -x __pycache__ "$src" "$work/src" | grep -c '^[<>]' || true)
[ "$n" = 1 ] || fail "the copy differs from the tree in $n lines, not the one added"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCTORCH_LTO=OFF -DCTORCH_BUILD_TESTS=OFF \
    -DCTORCH_BUILD_SHARED=OFF -DCTORCH_INSTALL=OFF -DCMAKE_C_COMPILER="$cc" >"$work/configure.log" 2>&1 ||
    fail "configure failed"
cmake --build "$work/build" -j2 --target ctorch_cli >"$work/build.log" 2>&1 || fail "build failed"
"$work/build/bin/ctorch" python -c '
import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

class Names(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(func.__qualname__)
        return func(*args, **(kwargs or {}))

class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.log = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func))
        return func(*args, **(kwargs or {}))

x = torch.tensor([1.0, -2.0])
a, b = torch.throwaway_negate(x), x.throwaway_negate()
assert a.tolist() == [-1.0, 2.0] and b.tolist() == [-1.0, 2.0], (a, b)
with Names() as m:
    torch.throwaway_negate(x)
    x.throwaway_negate()
assert m.names == ["_VariableFunctionsClass.throwaway_negate", "TensorBase.throwaway_negate"], m.names
with Log() as d:
    x.throwaway_negate()
assert d.log == ["aten.throwaway_negate.default"], d.log
print("ok: torch.throwaway_negate and Tensor.throwaway_negate from one ops.def line:", a.tolist(), m.names, d.log)
' || fail "the operator of the added line is not callable from Python as torch.x and Tensor.x"
