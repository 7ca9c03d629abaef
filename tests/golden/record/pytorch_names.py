"""Records the public names of PyTorch 2.6's modules and classes that ctorch's Python package
presents, so that a name ctorch lacks is told apart from a name PyTorch lacks too: the first is
NotImplementedInCtorch ("torch.exp is not implemented in ctorch"), the second the AttributeError
PyTorch raises ("module 'torch' has no attribute 'exq'").

Usage (under real PyTorch 2.6, from the project root):
    the reference tool: tests/golden/record/pytorch_names.py python/ctorch/_pytorch_names.py

Output: a Python module with NAMES = {owner: frozenset of names}."""
import importlib
import sys

import torch

MODULES = ["torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils", "torch.optim",
           "torch.autograd", "torch.autograd.graph", "torch.autograd.profiler", "torch.profiler", "torch.utils",
           "torch.utils._python_dispatch", "torch.utils._pytree", "torch.overrides", "torch.backends",
           "torch.backends.cpu", "torch.testing", "torch.linalg", "torch.special", "torch.fft", "torch.cuda",
           "torch.utils.data", "torch.distributions", "torch.library"]
CLASSES = {"Tensor": torch.Tensor, "Module": torch.nn.Module, "Optimizer": torch.optim.Optimizer,
           "Generator": torch.Generator}

names = {}
for m in MODULES:
    mod = importlib.import_module(m)
    names[m] = sorted(n for n in dir(mod) if not (n.startswith("__") and n.endswith("__")))
for k, cls in CLASSES.items():
    names[k] = sorted(n for n in dir(cls) if not (n.startswith("__") and n.endswith("__")))

with open(sys.argv[1], "w") as f:
    f.write('"""The public names of PyTorch %s\'s modules and classes (tests/golden/record/pytorch_names.py\n'
            'recorded them): a name here that ctorch lacks is NotImplementedInCtorch, any other is the\n'
            'AttributeError PyTorch raises."""\n' % torch.__version__.split("+")[0])
    f.write("NAMES = {\n")
    for k in names:
        f.write(f"    {k!r}: frozenset({names[k]!r}),\n")
    f.write("}\n")
print(sum(len(v) for v in names.values()), "names")
