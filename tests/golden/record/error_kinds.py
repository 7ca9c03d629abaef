"""Records what tests/test_error_kinds.c checks ctorch's error-kind table (CT_ERROR_KIND_TABLE in
include/ctorch/error.h) against: which of the exception classes the table names are Python's own
(a builtin exception class of the interpreter PyTorch 2.6 runs in), and the exception PyTorch
raises when the CPU allocator cannot allocate a tensor (the kind CT_ERR_NOMEM is).

Usage (under real PyTorch 2.6, with the reference tool, from tests/golden):
    torchref record/error_kinds.py torch-2.6/error_kinds.json

Output: a JSON object with "torch" (the version), "builtins": {class name: true}, every builtin
exception class of the interpreter, and "oom": {"type": the exception's class name, "mro": the
names of its classes, "message": str(exception)} for torch.empty(2**50, dtype=torch.uint8).
"""
import builtins
import json
import sys

import torch

out = {"torch": torch.__version__,
       "builtins": {n: True for n in dir(builtins)
                    if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), BaseException)}}
try:
    torch.empty(2**50, dtype=torch.uint8)
    out["oom"] = None
except Exception as e:  # noqa: BLE001 - the exception is what is recorded
    out["oom"] = {"type": type(e).__name__, "mro": [c.__name__ for c in type(e).__mro__], "message": str(e)}
with open(sys.argv[1], "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
    fh.write("\n")
