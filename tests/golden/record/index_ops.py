"""Records the advanced-indexing family's test table under PyTorch 2.6, for tests/python/index_ops.py
to replay through ctorch: aten::index.Tensor, index_put / index_put_ / _index_put_impl_, and the
Python indexing forms that reach them (x[idx], x[mask], x[:, idx], x[idx] = v, x[mask] = 0).

Usage (under real PyTorch 2.6; the reference tool runs it):
    the reference tool: tests/golden/record/index_ops.py tests/golden/torch-2.6/index_ops.json

Each case is a few Python statements over `torch` and `T` (torch.tensor) that set `out`, run as
they are written here by the recorder and by the replay:
  value cases   the result's values, dtype and shape (every dtype ctorch has), or a tuple of them
  grad cases    statements that call backward and set `out` to the gradients, with the grad_fn name
  log cases     the same statements under a dispatch mode: the operators it sees, in order
  errors        the exception's type and message
Output: JSON {"torch": version, "cases": [{"id", "code", "log"?, "result" | "error"}]}."""
import json
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

T = torch.tensor
DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]

CASES = []


def case(cid, code, log=False):
    CASES.append({"id": cid, "code": code, "log": log})


X = "x = torch.arange(12).reshape(3, 4).to(torch.{d})\n"
for d in DTYPES:
    case(f"index_rows_{d}", X.format(d=d) + "out = torch.ops.aten.index.Tensor(x, [T([2, 0, -1])])")
    case(f"index_cols_{d}", X.format(d=d) + "out = torch.ops.aten.index.Tensor(x, [None, T([3, 1])])")
    case(f"index_pairs_{d}", X.format(d=d) + "out = torch.ops.aten.index.Tensor(x, [T([[0], [2]]), T([1, 3])])")
    case(f"index_mask_{d}", X.format(d=d) + "out = torch.ops.aten.index.Tensor(x, [torch.arange(12).reshape(3, 4) % 3 == 0])")
    case(f"getitem_tensor_{d}", X.format(d=d) + "out = x[T([1, 1, 0])]")
    case(f"index_put_{d}", X.format(d=d) + "out = torch.index_put(x, (T([0, 2]),), x[1])")
    case(f"index_put_acc_{d}", X.format(d=d) + "out = torch.index_put(x, (T([0, 0, 2]), T([1, 1, 3])), T([1, 2, 3]).to(x.dtype), accumulate=True)")
    case(f"setitem_mask_{d}", X.format(d=d) + "x[x == x[0, 1]] = 0\nout = x")
# adjacency, int32 and uint8 indices, broadcasting
Y = "x = torch.arange(60.).reshape(3, 4, 5)\n"
case("separated", Y + "out = torch.ops.aten.index.Tensor(x, [T([0, 2]), None, T([1, 4])])")
case("adjacent_middle", Y + "out = torch.ops.aten.index.Tensor(x, [None, T([0, 3]), T([1, 4])])")
case("broadcast", Y + "out = torch.ops.aten.index.Tensor(x, [T([[0], [1]]), T([[0, 1, 2]])])")
case("int32_index", Y + "out = torch.ops.aten.index.Tensor(x, [T([2, 1], dtype=torch.int32)])")
case("uint8_mask", Y + "out = torch.ops.aten.index.Tensor(x, [T([1, 0, 1], dtype=torch.uint8)])")
case("mask_2d", Y + "out = torch.ops.aten.index.Tensor(x, [torch.ones(3, 4, dtype=torch.bool)]).shape")
case("empty_index", Y + "out = torch.ops.aten.index.Tensor(x, [T([], dtype=torch.long)])")
case("getitem_forms", Y + "out = (x[T([0, 2])], x[:, T([1])], x[..., T([0, 4])], x[1, T([0, 3])], x[T([0]), :, T([1])], "
     "x[None, T([1])], x[[0, 2]], x[x > 50], x[T([True, False, True])], x[1:, [0, 1]], x[T(1)], x[[[0, 1], [2, 3]]])")
case("setitem_forms", Y + "x[T([0, 2])] = 1.\nx[:, T([1])] = T([7.])\nx[x > 50] = -1.\nx[[1], 0] = T([[9., 9., 9., 9., 9.]])\nout = x")
case("index_put_method", Y + "out = (x.index_put((T([1]),), T(5.)), x.index_put_((T([0, 0]), T([1, 1])), T(1.), True)[0, 1])")
case("index_put_impl", Y + "out = torch._index_put_impl_(x, (T([2]),), T(3.), False, False)[2]")
# errors
case("err_oob", "out = torch.ops.aten.index.Tensor(torch.zeros(3), [T([5])])")
case("err_oob_neg", "out = torch.zeros(3, 2)[:, T([-3])]")
case("err_too_many", "out = torch.ops.aten.index.Tensor(torch.zeros(3), [T([0]), T([0])])")
case("err_mask_shape", "out = torch.ops.aten.index.Tensor(torch.zeros(4), [T([True, False, True])])")
case("err_dtype", "out = torch.ops.aten.index.Tensor(torch.zeros(4), [T([0.])])")
case("err_broadcast", "out = torch.zeros(3, 3)[T([0, 1]), T([0, 1, 2])]")
case("err_getitem_oob", "out = torch.zeros(3)[T([3])]")
case("err_put_dtype", "out = torch.zeros(3).index_put_((T([0]),), T([1.], dtype=torch.float64))")
case("err_put_shape", "out = torch.zeros(3).index_put_((T([0, 1]),), T([1., 2., 3.]))")
case("err_setitem_mask", "x = torch.zeros(4)\nx[T([True, False])] = 1.")
# gradients
case("grad_index", "x = torch.arange(12.).reshape(3, 4).requires_grad_()\ny = x[T([0, 2, 0])]\n"
     "y.backward(torch.arange(12.).reshape(3, 4))\nout = (x.grad, type(y.grad_fn).__name__)")
case("grad_index_cols", "x = torch.arange(12., dtype=torch.float64).reshape(3, 4).requires_grad_()\ny = x[:, T([1, 1])]\n"
     "y.sum().backward()\nout = (x.grad, type(y.grad_fn).__name__)")
case("grad_mask", "x = torch.arange(6.).requires_grad_()\ny = x[x > 2]\ny.backward(T([1., 2., 3.]))\nout = (x.grad, type(y.grad_fn).__name__)")
case("grad_index_put", "x = torch.zeros(4).requires_grad_()\nv = T([1., 2.]).requires_grad_()\n"
     "y = torch.index_put(x, (T([1, 3]),), v)\ny.backward(T([1., 2., 3., 4.]))\nout = (x.grad, v.grad, type(y.grad_fn).__name__)")
case("grad_index_put_acc", "x = torch.zeros(4).requires_grad_()\nv = T(2.).requires_grad_()\n"
     "y = torch.index_put(x, (T([1, 1, 3]),), v, accumulate=True)\ny.backward(T([1., 2., 3., 4.]))\nout = (x.grad, v.grad, type(y.grad_fn).__name__)")
# dispatch-mode logs of the Python forms
L = "x = torch.arange(12.).reshape(3, 4)\n"
for cid, code in [("log_getitem_tensor", "out = x[T([0, 2])]"), ("log_getitem_mask", "out = x[x > 5]"),
                  ("log_getitem_cols", "out = x[:, T([1])]"), ("log_getitem_list", "out = x[[0, 1]]"),
                  ("log_getitem_int_tensor", "out = x[1, T([0, 3])]"), ("log_getitem_none", "out = x[None, T([1])]"),
                  ("log_setitem_tensor", "x[T([0, 2])] = T([1., 2., 3., 4.])\nout = x"),
                  ("log_setitem_mask", "x[x > 5] = 0\nout = x"), ("log_setitem_scalar", "x[T([1])] = 5.\nout = x"),
                  ("log_backward", "x.requires_grad_()\nx[T([0, 0])].sum().backward()\nout = x.grad")]:
    case(cid, L + code, log=True)
# booleans as indices: a new dim (unsqueeze) that an int64 [1] of 0 (True) or an empty [0] (False) indexes;
# an int index's message names its position in the index tuple
B = "x = torch.arange(24.).reshape(2, 3, 4)\n"
for cid, code in [("bool_true", "out = x[True]"), ("bool_false", "out = x[False]"), ("bool_true_int", "out = x[True, 0]"),
                  ("bool_int_true", "out = x[0, True]"), ("bool_ellipsis_false", "out = x[..., False]"),
                  ("bool_none_true_slice", "out = x[None, True, 1:]"), ("bool_then_select", "out = x[True][0, 1]"),
                  ("bool_0dim_true", "out = torch.tensor(5.)[True]"), ("bool_0dim_false", "out = torch.tensor(5.)[False]"),
                  ("bool_setitem_true", "x[True] = 1.\nout = x"), ("bool_setitem_false", "x[False] = 1.\nout = x"),
                  ("bool_setitem_int_true", "x[0, True] = 2.\nout = x")]:
    case(cid, B + code)
    case("log_" + cid, B + code, log=True)
# __setitem__: the value made a tensor first, then copy_to (copy_, fill_ of a 0-dim value, or the value
# without its leading 1s viewed, expanded and copied) or index_put_
for cid, code in [("number_slice", "x[0:2] = 1.5"), ("vector_column", "x[:, 1] = T([7., 8.])"),
                  ("row_leading_ones", "x[1] = T([[1., 2., 3., 4.]])"), ("ellipsis_leading_ones", "x[..., 0] = T([[9.]])"),
                  ("row_wrong_size", "x[0] = T([1., 2.])"), ("mask_number", "x[x > 5] = 0"),
                  ("tensor_index_leading_ones", "x[T([0])] = T([[5., 6., 7., 8.]])"), ("int_int_int", "x[0, 0] = 3"),
                  ("none_number", "x[None] = 2."), ("all_0dim", "x[:] = T(4.)"), ("str_value", "x[1] = 'a'"),
                  ("uint8_overflow", "y = x.to(torch.uint8)\ny[0] = 300\nx = y"), ("broadcast_rows", "x[0:2] = T([1., 2., 3., 4.])")]:
    S = "x = torch.arange(12.).reshape(3, 4)\n"
    case("setitem_" + cid, S + code + "\nout = x")
    case("log_setitem_" + cid, S + code + "\nout = x", log=True)
# an index into an empty dimension has its own message; the pads' length checks word it two ways
for cid, code in [("oob_empty_dim", "out = torch.zeros(2, 0)[:, T([0])]"), ("oob_empty_1d", "out = torch.zeros(0)[T([1])]"),
                  ("oob_empty_after_int", "out = torch.zeros(3, 0, 2)[1, T([0])]"),
                  ("replication_pad1d_len", "out = torch.ops.aten.replication_pad1d(torch.zeros(1, 2, 3), [1])"),
                  ("replication_pad2d_len", "out = torch.ops.aten.replication_pad2d(torch.zeros(1, 2, 3), [1, 1])"),
                  ("replication_pad3d_len", "out = torch.ops.aten.replication_pad3d(torch.zeros(1, 2, 3), [1])"),
                  ("reflection_pad1d_len", "out = torch.ops.aten.reflection_pad1d(torch.zeros(1, 2, 3), [1])")]:
    case("err_" + cid, code)
for cid, code in [("oob_after_none", "out = x[None, 5]"), ("oob_after_ellipsis", "out = x[..., 7]"),
                  ("oob_slice_none", "out = x[:, None, 9]"), ("oob_two_nones", "out = x[0, None, None, 7]"),
                  ("oob_none_ellipsis", "out = x[None, ..., 5]"), ("oob_ellipsis_int", "out = x[..., 1, 9]")]:
    case("err_" + cid, B + code)


def encode(v):
    if isinstance(v, torch.Tensor):
        t = v.detach()
        vals = t.to(torch.float64).tolist() if t.dtype in (torch.float16, torch.bfloat16) else t.tolist()
        return {"tensor": vals, "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)}
    if isinstance(v, torch.Size):
        return {"size": list(v)}
    if isinstance(v, (tuple, list)):
        return {"tuple": [encode(e) for e in v]}
    return {"py": v}


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def run(c):
    env = {"torch": torch, "T": T}
    rec = {"id": c["id"], "code": c["code"]}
    try:
        if c["log"]:
            with Log() as m:
                exec(c["code"], env)
            rec["log"] = m.ops
        else:
            exec(c["code"], env)
        rec["result"] = encode(env.get("out"))
    except Exception as e:  # noqa: BLE001 - the recorded error is the point
        rec["error"] = {"type": type(e).__name__, "message": str(e)}
    return rec


def main():
    out = {"torch": torch.__version__.split("+")[0], "cases": [run(c) for c in CASES]}
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
