"""Records where PyTorch 2.6's Python API has each operator, so that tests/python/bindings.py can
refuse an ops.def line whose CT_PY (or CT_PY_ONLY) binds a name where PyTorch has none: the
functions of torch._C._VariableFunctions (torch.<name>), the methods of torch._C.TensorBase
(Tensor.<name>), the functions of torch._C._nn (torch.nn.functional's), the dunders of
torch.Tensor, and every aten overload's qualified name.

Usage (under real PyTorch 2.6, from the project root):
    the reference tool: tests/golden/record/python_bindings.py tests/golden/torch-2.6/python_bindings.json

Output: JSON {"function": [...], "method": [...], "nn": [...], "dunder": [...], "overloads": [...]},
each sorted."""
import json
import sys

import torch


def public(names):
    return sorted(n for n in names if not (n.startswith("__") and n.endswith("__")))


record = {
    "torch": torch.__version__,
    "function": public(dir(torch._C._VariableFunctions)),
    "method": public(dir(torch._C.TensorBase)),
    "nn": public(dir(torch._C._nn)),
    "dunder": sorted(n for n in dir(torch.Tensor) if n.startswith("__") and n.endswith("__")),
    "overloads": sorted(n for n in torch._C._dispatch_get_all_op_names() if n.startswith("aten::")),
}
with open(sys.argv[1], "w") as f:
    json.dump(record, f, indent=0, sort_keys=True)
    f.write("\n")
