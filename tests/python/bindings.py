"""Checks the Python bindings src/ops/ops.def gives (torch._C._bindings(): each line's CT_PY and
CT_PY_ONLY) against PyTorch 2.6's recording (tests/golden/record/python_bindings.py): every
overload is one PyTorch has, and every name is bound where PyTorch has it, so no line invents a
torch.x, Tensor.x, torch.nn.x or dunder. Then that each binding is where the package finds it
(torch.x, Tensor.x, torch.nn.functional.x or torch._C._nn.x) and that the package itself names no
operator (no "aten::" string in python/ctorch). Prints, without failing, how many of PyTorch's
places for these operators ctorch does not bind yet.

Usage: ctorch python tests/python/bindings.py RECORDING.json PACKAGE_DIR"""
import json
import os
import sys

import torch

rec = json.load(open(sys.argv[1]))
package = sys.argv[2]
have = {"function": set(rec["function"]), "method": set(rec["method"]), "nn": set(rec["nn"]),
        "dunder": set(rec["dunder"]), "overloads": set(rec["overloads"])}
bindings = torch._C._bindings()
failures = []
for name, op, places in bindings:
    if op.startswith("aten::") and op not in have["overloads"]:
        failures.append(f"{op}: PyTorch 2.6 has no such overload")
    for place in places:
        if place in ("function", "method", "nn", "dunder") and name not in have[place]:
            failures.append(f"{op}: bound as {place} {name!r}, which PyTorch 2.6 does not have")
    # where the package must show it (torch.functional's Python functions, torch.einsum, torch.norm, ...,
    # stand in front of the bindings of their names, as in PyTorch's torch/__init__.py)
    if "function" in places and getattr(torch, name, None) is not getattr(torch._C._VariableFunctions, name) and \
            (name not in torch.functional.__all__ or getattr(torch, name) is not getattr(torch.functional, name)):
        failures.append(f"{op}: torch.{name} is not the bound function")
    if "method" in places and "dunder" not in places and name not in torch._C.TensorBase.__dict__:
        failures.append(f"{op}: TensorBase.{name} is not bound")
    if "nn" in places and not hasattr(torch._C._nn, name):
        failures.append(f"{op}: torch._C._nn.{name} is not bound")
    if "dunder" in places and not hasattr(torch.Tensor, name):
        failures.append(f"{op}: Tensor.{name} is missing")

# the package names no operator by hand
for root, _, files in os.walk(package):
    for f in files:
        if f.endswith(".py"):
            path = os.path.join(root, f)
            n = open(path).read().count('"aten::')
            if n:
                failures.append(f"{os.path.relpath(path, package)}: {n} operator name(s) typed by hand (\"aten::...\")")

# what PyTorch binds and ctorch does not yet, over every operator ctorch has: counted, not failed
bound = {}
for name, op, places in bindings:
    bound.setdefault(name, set()).update(places)
names = {n.split("::")[1].split(".")[0] for n in torch._C._op_names() if n.startswith("aten::")}
later = sorted(f"{p} {n}" for n in names for p in ("function", "method", "nn")
               if n in have[p] and p not in bound.get(n, ()))
print(f"python bindings: {len(bindings)} rows from ops.def, {len(failures)} failures; "
      f"{len(later)} places PyTorch has for these names that ctorch does not bind yet")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
