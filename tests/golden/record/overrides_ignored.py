"""Records the functions PyTorch 2.6's torch.overrides.get_ignored_functions() lists (those a
__torch_function__ cannot override), by the qualified name torch.overrides.resolve_name gives
each, or, for those it names not, the name under torch the function is found at. ctorch's
torch.overrides.get_ignored_functions() resolves these names in its own package, leaving out
those ctorch lacks.

Usage (under real PyTorch 2.6, from the project root):
    the reference tool: tests/golden/record/overrides_ignored.py python/ctorch/_overrides_ignored.py

Output: a Python module with IGNORED = a sorted tuple of qualified names."""
import sys

import torch
from torch.overrides import get_ignored_functions, resolve_name

names = set()
for f in get_ignored_functions():
    name = resolve_name(f)
    if name is None:
        n = getattr(f, "__name__", None)
        if n and getattr(torch, n, None) is f:
            name = f"torch.{n}"
    if name is not None:
        names.add(name)

with open(sys.argv[1], "w") as out:
    out.write('"""The functions PyTorch 2.6.0\'s torch.overrides.get_ignored_functions() lists, by qualified name\n'
              '(tests/golden/record/overrides_ignored.py recorded them)."""\n')
    out.write("IGNORED = (\n")
    for n in sorted(names):
        out.write(f"    {n!r},\n")
    out.write(")\n")
print(len(names), "names")
