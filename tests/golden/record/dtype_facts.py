"""Records PyTorch 2.6's facts about each dtype ctorch's Python package presents, for
tests/test_dtype.c, which checks ctorch's dtype table (CT_DTYPE_TABLE and CT_DTYPE_ABSENT_TABLE in
include/ctorch/dtype.h) against them.

Usage (under real PyTorch 2.6, with the reference tool, from tests/golden):
    torchref record/dtype_facts.py torch-2.6/dtype_facts.json

Output: a JSON object with "torch" (the version), "dtypes": {name: facts} and, for the dtypes
ctorch has, "promote_types" and "can_cast": {a: {b: ...}} over every pair. A dtype's facts:
  scalar_type    c10::ScalarType's number (what TorchScript's prim::dtype returns)
  str            str(dtype)
  names          every attribute of torch that is this dtype (its name and aliases), sorted
  itemsize, element_size, is_floating_point, is_signed, is_complex
  legacy_type    Tensor.type() of a tensor of the dtype
  message_type   how a message names the tensor's type (expand's "the number of sizes" error)
  c10_name       c10::toString(ScalarType), from "result type X can't be cast to ... Y"
  type_meta      caffe2::TypeMeta's name, from mm's "expected m1 and m2 to have the same dtype"
  overflow_type  the C++ type fill_(1e300) says the value overflows, or null when it fits
  max, eps       torch.finfo's (floating dtypes) / max, bits: torch.iinfo's (integral dtypes)
"""
import json
import re
import sys

import torch

DTYPES = [torch.int64, torch.float16, torch.float32, torch.float64, torch.bool, torch.bfloat16,
          torch.uint8, torch.int8, torch.int16, torch.int32, torch.complex64, torch.complex128]
CTORCH_HAS = DTYPES[:10]


def message(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the message is what is recorded
        return str(e).split("\n")[0]
    return None


def facts(d):
    t = torch.ones(2, 2, dtype=d)
    f = {
        "scalar_type": torch.ops.prim.dtype(t),
        "str": str(d),
        "names": sorted(n for n in dir(torch) if getattr(torch, n, None) is d),
        "itemsize": d.itemsize,
        "element_size": t.element_size(),
        "is_floating_point": d.is_floating_point,
        "is_signed": d.is_signed,
        "is_complex": d.is_complex,
        "legacy_type": t.type(),
    }
    m = message(lambda: t.expand(2))
    f["message_type"] = re.match(r"expand\((.*)\{\[", m).group(1)
    if d == torch.bool:  # bool is never a result that cannot be cast: be the output instead
        m = message(lambda: t.add_(torch.ones(2, 2)))
        f["c10_name"] = re.fullmatch(r"result type \w+ can't be cast to the desired output type (\w+)", m).group(1)
    else:
        m = message(lambda: torch.add(t, t, out=torch.empty(2, 2, dtype=torch.bool)))
        f["c10_name"] = re.fullmatch(r"result type (\w+) can't be cast to the desired output type Bool", m).group(1)
    other = torch.float32 if d == torch.float64 else torch.float64
    m = message(lambda: torch.mm(t, torch.ones(2, 2, dtype=other)))
    f["type_meta"] = re.fullmatch(r"expected m1 and m2 to have the same dtype, but got: (.*) != .*", m).group(1)
    m = message(lambda: torch.ones(1, dtype=d).fill_(1e300))
    f["overflow_type"] = m and re.fullmatch(r"value cannot be converted to type (.*) without overflow", m).group(1)
    if d.is_floating_point:
        f["max"], f["eps"] = torch.finfo(d).max, torch.finfo(d).eps
    elif not d.is_complex and d != torch.bool:
        f["max"], f["bits"] = torch.iinfo(d).max, torch.iinfo(d).bits
    return f


def name(d):
    return str(d)[len("torch."):]


out = {
    "torch": torch.__version__,
    "dtypes": {name(d): facts(d) for d in DTYPES},
    "promote_types": {name(a): {name(b): name(torch.promote_types(a, b)) for b in CTORCH_HAS} for a in CTORCH_HAS},
    "can_cast": {name(a): {name(b): torch.can_cast(a, b) for b in CTORCH_HAS} for a in CTORCH_HAS},
}
with open(sys.argv[1], "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
    fh.write("\n")
