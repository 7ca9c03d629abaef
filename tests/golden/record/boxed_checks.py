"""Records what PyTorch 2.6's boxed path (torch.ops.<ns>.<op>.<overload>) says when its caller
passes an argument of the wrong type, passes None where a Tensor belongs, or passes too few or
too many arguments, for tests/test_boxed_checks.c to replay through ctorch's ct_call and
ct_op_fill_defaults.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/boxed_checks.py torch-2.6/boxed_checks.json

The output is a JSON list, one case per line:
  {"name": str, "op": "aten::add.Tensor", "args": [ARG, ...], "n_given": n,
   "error": {"type": "RuntimeError", "message": str}}   PyTorch refused the call
or "accepted": true                                     PyTorch converted the value and ran
                                                        (ctorch's values are typed: see
                                                        dispatch/check.c)
args are the first n_given arguments in schema order (keyword-only ones are passed by name);
ARG is one of
  {"tensor": {"dtype": "float32", "sizes": [...], "values": [...]}}
  {"int": n} {"float": x} {"bool": b} {"ints": [...]} {"none": true} {"str": s}
  {"generator": true} (a new torch.Generator())  {"device": "cpu"}
Only values a C caller can put in a ct_value are used. Object addresses in messages
("<torch._C.Generator object at 0x7f...>") are written as "0x?"; the test does the same to
ctorch's messages.
"""
import json
import re
import sys

import torch

FLOAT_SAMPLE = {"tensor": {"dtype": "float32", "sizes": [2], "values": [1.0, 1.0]}}
MATRIX = {"tensor": {"dtype": "float32", "sizes": [2, 2], "values": [1.0, 2.0, 3.0, 4.0]}}

# the wrong values tried in each position: every kind of value a ct_value can hold
VALUES = {
    "str": {"str": "x"},
    "int": {"int": 3},
    "float": {"float": 1.5},
    "bool": {"bool": True},
    "list": {"ints": [1, 2]},
    "none": {"none": True},
    "tensor": FLOAT_SAMPLE,
    "generator": {"generator": True},
    "device": {"device": "cpu"},
}


def build(arg):
    (kind, v), = arg.items()
    if kind == "tensor":
        return torch.tensor(v["values"], dtype=getattr(torch, v["dtype"])).reshape(v["sizes"])
    if kind == "int":
        return int(v)
    if kind == "float":
        return float(v)
    if kind == "bool":
        return bool(v)
    if kind == "ints":
        return [int(x) for x in v]
    if kind == "none":
        return None
    if kind == "str":
        return v
    if kind == "generator":
        return torch.Generator()
    if kind == "device":
        return torch.device(v)
    raise ValueError(kind)


def overload(qualified):
    ns, rest = qualified.split("::")
    name, _, ov = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, ns), name), ov or "default")


def run(qualified, args):
    op = overload(qualified)
    schema = op._schema
    pos, kw = [], {}
    for i, spec in enumerate(args):
        v = build(spec)
        if i < len(schema.arguments) and schema.arguments[i].kwarg_only:
            kw[schema.arguments[i].name] = v
        else:  # positional, and any argument beyond the schema's count
            pos.append(v)
    try:
        op(*pos, **kw)
        return None
    except Exception as e:  # noqa: BLE001 - every refusal is recorded
        return {"type": type(e).__name__, "message": re.sub(r"0x[0-9a-f]+", "0x?", str(e))}


# (op, a valid argument list in schema order, the position to replace)
POSITIONS = [
    ("aten::add.Tensor", [FLOAT_SAMPLE, FLOAT_SAMPLE], 0),
    ("aten::add.Tensor", [FLOAT_SAMPLE, FLOAT_SAMPLE, {"int": 1}], 2),
    ("aten::linear", [MATRIX, MATRIX, {"none": True}], 2),
    ("aten::transpose.int", [MATRIX, {"int": 0}, {"int": 1}], 1),
    ("aten::select.int", [MATRIX, {"int": 0}, {"int": 1}], 2),
    ("aten::normal_", [FLOAT_SAMPLE, {"float": 0.0}, {"float": 1.0}], 1),
    ("aten::sum.dim_IntList", [MATRIX, {"ints": [0]}, {"bool": False}], 2),
    ("aten::sum.dim_IntList", [MATRIX, {"ints": [0]}, {"bool": False}], 1),
    ("aten::sum", [MATRIX, {"int": 6}], 1),
    ("aten::to.dtype", [MATRIX, {"int": 7}], 1),
    ("aten::zeros", [{"ints": [2]}, {"none": True}, {"int": 0}], 2),
    ("aten::zeros", [{"ints": [2]}, {"none": True}, {"none": True}, {"device": "cpu"}], 3),
    ("aten::zeros", [{"ints": [2]}, {"none": True}, {"none": True}, {"none": True}, {"bool": False}], 4),
    ("aten::clone", [MATRIX, {"int": 0}], 1),
    ("aten::view", [MATRIX, {"ints": [4]}], 1),
    ("aten::permute", [MATRIX, {"ints": [1, 0]}], 1),
    ("aten::randn.generator", [{"ints": [2]}, {"generator": True}], 1),
    ("aten::random_.from", [FLOAT_SAMPLE, {"int": 0}, {"int": 5}], 2),
    ("aten::as_strided", [MATRIX, {"ints": [2]}, {"ints": [1]}, {"int": 0}], 3),
    ("aten::full", [{"ints": [2]}, {"float": 1.0}], 1),
]

# argument counts: (op, args)
COUNTS = [
    ("aten::add.Tensor", []),
    ("aten::add.Tensor", [FLOAT_SAMPLE]),
    ("aten::add.Tensor", [FLOAT_SAMPLE, FLOAT_SAMPLE, {"int": 1}, {"int": 2}]),
    ("aten::addmm", [MATRIX, MATRIX]),
    ("aten::sum.dim_IntList", [MATRIX]),
    ("aten::relu", [MATRIX, MATRIX]),
]


def main():
    out = []
    for qualified, base, pos in POSITIONS:
        for vname, v in VALUES.items():
            args = list(base)
            args[pos] = v
            name = "%s_arg%d_%s" % (qualified.replace("::", ".").replace(".", "_"), pos, vname)
            case = {"name": name, "op": qualified, "args": args, "n_given": len(args)}
            err = run(qualified, args)
            if err is None:
                case["accepted"] = True
            else:
                case["error"] = err
            out.append(case)
    for qualified, args in COUNTS:
        name = "%s_%d_args" % (qualified.replace("::", ".").replace(".", "_"), len(args))
        err = run(qualified, args)
        assert err is not None, name
        out.append({"name": name, "op": qualified, "args": args, "n_given": len(args), "error": err})
    with open(sys.argv[1], "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c) for c in out) + "\n]\n")


if __name__ == "__main__":
    main()
