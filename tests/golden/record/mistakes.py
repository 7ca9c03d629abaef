"""Records PyTorch 2.6's exception for each mistake whose message ctorch repeats: one case per
message in ctorch's sources that PyTorch raises for the same mistake and that no other recording
holds (tools/messages/check.py counts them). tests/test_mistakes.c replays every case through
ctorch's C API and compares the exception type and the message.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/mistakes.py torch-2.6/mistakes.json

Two kinds of case:
  "op" cases call one operator through torch.ops.<ns>.<op>.<overload> with the arguments listed
       in schema order (keyword-only ones are passed by name), as ctorch's ct_call does; ARG is
         {"tensor": {"dtype": d, "sizes": [...], "values": [...] or absent (zeros),
                     "requires_grad": bool}}
         {"tensors": [ARG, ...]} (a Tensor[]; {"none": true} entries stand for None)
         {"int": n} {"float": x} {"bool": b} {"ints": [...]} {"none": true} {"str": s}
       (a float, in "float" or a tensor's "values", may be the string "nan", "inf" or "-inf")
  "api" cases run a few lines of Python (below, one function each) that ctorch's test writes in C
       with the same calls (the case's name is the function's in both).

Output: a JSON object {name: {"op": str, "args": [...]} or {}, plus "error": {"type": exception
class name, "message": str(exception)}}; object addresses in messages are written "0x?".
"""
import json
import re
import sys

import torch
import torch.nn.functional as F


def _num(x):
    # NaN and the infinities are written as the strings "nan", "inf" and "-inf" (JSON has none)
    return x if x == x and abs(x) != float("inf") else repr(float(x))


def T(dtype="float32", sizes=(2,), values=None, rg=False):
    t = {"dtype": dtype, "sizes": list(sizes)}
    if values is not None:
        t["values"] = [_num(v) for v in values]
    if rg:
        t["requires_grad"] = True
    return {"tensor": t}


def I(n):
    return {"int": n}


def Fl(x):
    return {"float": _num(x)}


def B(b):
    return {"bool": b}


def L(xs):
    return {"ints": list(xs)}


N = {"none": True}


def S(s):
    return {"str": s}


def TL(*xs):
    return {"tensors": list(xs)}


def build(arg):
    (kind, v), = arg.items()
    if kind == "tensor":
        dt = getattr(torch, v["dtype"])
        if "values" in v:
            t = torch.tensor([float(x) for x in v["values"]], dtype=dt).reshape(v["sizes"])
        else:
            t = torch.zeros(v["sizes"], dtype=dt)
        if v.get("requires_grad"):
            t.requires_grad_()
        return t
    if kind == "tensors":
        return [build(x) for x in v]
    if kind == "int":
        return int(v)
    if kind == "float":
        return float(v)  # a number, or "nan", "inf", "-inf"
    if kind == "bool":
        return bool(v)
    if kind == "ints":
        return [int(x) for x in v]
    if kind == "none":
        return None
    if kind == "str":
        return v
    raise ValueError(kind)


def overload(qualified):
    ns, rest = qualified.split("::")
    name, _, ov = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, ns), name), ov or "default")


def call_op(qualified, args):
    op = overload(qualified)
    schema = op._schema
    pos, kw = [], {}
    for i, spec in enumerate(args):
        v = build(spec)
        if schema.arguments[i].kwarg_only:
            kw[schema.arguments[i].name] = v
        else:
            pos.append(v)
    return op(*pos, **kw)


F32 = T("float32", (2, 3))
M23, M34 = T("float32", (2, 3)), T("float32", (3, 4))

# (name, op, args): each a mistake in one call
OPS = [
    ("layer_norm_empty_normalized_shape", "aten::layer_norm", [F32, L([]), N, N, Fl(1e-5), B(True)]),
    ("layer_norm_bias_shape", "aten::layer_norm", [F32, L([3]), T("float32", (3,)), T("float32", (2,)), Fl(1e-5), B(True)]),
    ("layer_norm_mixed_double_weight", "aten::native_layer_norm", [T("float16", (2, 3)), L([3]), T("float64", (3,)), N, Fl(1e-5)]),
    ("layer_norm_mixed_int_input", "aten::native_layer_norm", [T("int64", (2, 3)), L([3]), T("float32", (3,)), N, Fl(1e-5)]),
    ("normal__int64", "aten::normal_", [T("int64", (2,)), Fl(0.0), Fl(1.0), N]),
    ("uniform__int64", "aten::uniform_", [T("int64", (2,)), Fl(0.0), Fl(1.0), N]),
    ("uniform__from_out_of_bounds_float16", "aten::uniform_", [T("float16", (2,)), Fl(-1e6), Fl(1.0), N]),
    ("uniform__to_out_of_bounds_float16", "aten::uniform_", [T("float16", (2,)), Fl(0.0), Fl(1e6), N]),
    ("uniform__from_above_to", "aten::uniform_", [T("float32", (2,)), Fl(2.0), Fl(1.0), N]),
    ("uniform__range_too_wide", "aten::uniform_", [T("float32", (2,)), Fl(-3e38), Fl(3e38), N]),
    ("normal__negative_std", "aten::normal_", [T("float32", (2,)), Fl(0.0), Fl(-1.0), N]),
    ("random__from_not_below_to", "aten::random_.from", [T("float32", (2,)), I(5), I(5), N]),
    ("random__from_out_of_bounds_float16", "aten::random_.from", [T("float16", (2,)), I(-100000), I(0), N]),
    ("random__to_out_of_bounds_float16", "aten::random_.from", [T("float16", (2,)), I(0), I(100000), N]),
    ("random__from_out_of_bounds_bool", "aten::random_.from", [T("bool", (2,)), I(-1), I(1), N]),
    ("random__to_out_of_bounds_bool", "aten::random_.from", [T("bool", (2,)), I(0), I(3), N]),
    ("random__casted_from_not_below_to_float16", "aten::random_.from", [T("float16", (2,)), I(4097), I(4098), N]),
    ("random__casted_from_above_to_inc_float32", "aten::random_.from", [T("float32", (2,)), I(2 ** 24 + 1), N, N]),
    ("random__full_range_bool", "aten::random_.from", [T("bool", (2,)), I(-2 ** 63), N, N]),
    ("random__full_range_float16", "aten::random_.from", [T("float16", (2,)), I(-2 ** 63), N, N]),
    ("empty_channels_last_rank2", "aten::empty.memory_format", [L([2, 3]), N, N, N, N, I(2)]),
    ("empty_channels_last_3d_rank2", "aten::empty.memory_format", [L([2, 3]), N, N, N, N, I(3)]),
    ("softmax_backward_data_shapes", "aten::_softmax_backward_data", [T("float32", (2, 3)), T("float32", (3, 2)), I(1), I(6)]),
    ("bmm_batch1_2d", "aten::bmm", [T("float32", (2, 3)), T("float32", (2, 3, 4))]),
    ("bmm_batch2_2d", "aten::bmm", [T("float32", (2, 2, 3)), T("float32", (3, 4))]),
    ("bmm_bool", "aten::bmm", [T("bool", (1, 2, 3)), T("bool", (1, 3, 2))]),
    ("embedding_backward_float_indices", "aten::embedding_backward",
     [T("float32", (2, 3)), T("float32", (2,)), I(4), I(-1), B(False), B(False)]),
    ("embedding_backward_0d_grad", "aten::embedding_backward",
     [T("float32", ()), T("int64", ()), I(4), I(-1), B(False), B(False)]),
    ("foreach_mul__1d_scalar", "aten::_foreach_mul_.Tensor", [TL(T("float32", (2,))), T("float32", (2,))]),
    ("foreach_mul__empty_list", "aten::_foreach_mul_.Tensor", [TL(), T("float32", ())]),
    ("addmm_mat1_mat2_dtype", "aten::addmm", [T("float32", (2, 4)), T("float64", (2, 3)), T("float32", (3, 4)), I(1), I(1)]),
    ("clamp_bool_int_bounds", "aten::clamp", [T("bool", (2,)), I(0), I(1)]),
    ("clamp_bool", "aten::clamp", [T("bool", (2,)), B(False), B(True)]),
    ("clamp_max_bool", "aten::clamp_max", [T("bool", (2,)), B(True)]),
    ("clamp_min_bool", "aten::clamp_min", [T("bool", (2,)), B(False)]),
    ("gelu_backward_int64", "aten::gelu_backward", [T("int64", (2,)), T("int64", (2,)), S("none")]),
    ("gelu_int64", "aten::gelu", [T("int64", (2,)), S("none")]),
    ("lerp_int64", "aten::lerp.Scalar", [T("int64", (2,)), T("int64", (2,)), Fl(0.5)]),
    ("addcmul_bool", "aten::addcmul", [T("bool", (2,)), T("bool", (2,)), T("bool", (2,)), I(1)]),
    ("maximum_bool", "aten::maximum", [T("bool", (2,)), T("bool", (2,))]),
    ("exponential__int64", "aten::exponential_", [T("int64", (2,)), Fl(1.0), N]),
    ("bernoulli__int64", "aten::bernoulli_.float", [T("int64", (2,)), Fl(0.5), N]),
    ("randn_int64", "aten::randn", [L([2]), I(4), N, N, N]),
    ("rand_int64", "aten::rand", [L([2]), I(4), N, N, N]),
    ("maximum_out_bool", "aten::maximum.out", [T("bool", (2,)), T("bool", (2,)), T("bool", (2,))]),
    ("multinomial_negative", "aten::multinomial", [T("float32", (3,), [0.5, -0.1, 0.6]), I(1), B(False), N]),
    ("multinomial_nan", "aten::multinomial", [T("float32", (3,), [0.5, float("nan"), 0.5]), I(1), B(False), N]),
    ("multinomial_zero_sum", "aten::multinomial", [T("float32", (3,), [0.0, 0.0, 0.0]), I(1), B(False), N]),
    ("multinomial_3d", "aten::multinomial", [T("float32", (1, 1, 2), [0.5, 0.5]), I(1), B(False), N]),
    ("multinomial_int64", "aten::multinomial", [T("int64", (2,), [1, 1]), I(1), B(False), N]),
    ("multinomial_replacement_negative", "aten::multinomial", [T("float32", (3,), [0.5, -0.1, 0.6]), I(2), B(True), N]),
    ("multinomial_replacement_nan", "aten::multinomial", [T("float32", (3,), [0.5, float("inf"), 0.5]), I(2), B(True), N]),
    ("multinomial_replacement_zero_sum", "aten::multinomial", [T("float32", (2,), [0.0, 0.0]), I(2), B(True), N]),
    ("multinomial_too_many_categories", "aten::multinomial", [T("float32", (2 ** 24 + 1,)), I(1), B(False), N]),
    ("multinomial_zero_samples", "aten::multinomial", [T("float32", (2,), [0.5, 0.5]), I(0), B(False), N]),
    ("multinomial_too_many_samples", "aten::multinomial", [T("float32", (2,), [0.5, 0.5]), I(3), B(False), N]),
    ("arange_bool", "aten::arange", [I(3), I(11), N, N, N]),
    ("arange_zero_step", "aten::arange.start_step", [I(0), I(3), I(0), N, N, N, N]),
    ("arange_wrong_sign", "aten::arange.start_step", [I(0), I(3), I(-1), N, N, N, N]),
    ("arange_nan", "aten::arange.start_step", [Fl(float("nan")), I(3), I(1), N, N, N, N]),
    ("arange_inf", "aten::arange.start_step", [I(0), Fl(float("inf")), I(1), N, N, N, N]),
    ("arange_size_overflow", "aten::arange.start_step", [Fl(0.0), Fl(1e30), Fl(1e-30), N, N, N, N]),
    ("arange_float_zero_step", "aten::arange.start_step", [Fl(0.0), Fl(3.0), Fl(0.0), N, N, N, N]),
    ("arange_float_wrong_sign", "aten::arange.start_step", [Fl(0.0), Fl(3.0), Fl(-1.0), N, N, N, N]),
    ("argmax_empty_dim", "aten::argmax", [T("float32", (2, 0)), I(1), B(False)]),
    ("argmax_empty_no_dim", "aten::argmax", [T("float32", (0,)), N, B(False)]),
    ("argmax_bool", "aten::argmax", [T("bool", (2,)), N, B(False)]),
    ("max_empty_no_dim", "aten::max", [T("float32", (0,))]),
    ("vector_norm_inf_empty", "aten::linalg_vector_norm", [T("float32", (0,)), Fl(float("inf")), N, B(False), N]),
    ("vector_norm_int64", "aten::linalg_vector_norm", [T("int64", (2,)), I(2), N, B(False), N]),
    ("vector_norm_dtype_int64", "aten::linalg_vector_norm", [T("float32", (2,)), I(2), N, B(False), I(4)]),
    ("narrow_0d", "aten::narrow", [T("float32", ()), I(0), I(0), I(1)]),
    ("split_with_sizes_negative", "aten::split_with_sizes", [T("float32", (4,)), L([5, -1]), I(0)]),
    ("cat_dim_out_of_range", "aten::cat", [TL(T("float32", (2,)), T("float32", (2,))), I(2)]),
    ("index_select_scalar_index_two_values", "aten::index_select", [T("float32", ()), I(0), T("int64", (2,))]),
    ("log_softmax_int64", "aten::_log_softmax", [T("int64", (2, 3)), I(1), B(False)]),
    ("log_softmax_half_to_float", "aten::_log_softmax", [T("float32", (2, 3)), I(1), B(True)]),
    ("nll_loss_forward_3d", "aten::nll_loss_forward", [T("float32", (2, 3, 4)), T("int64", (2, 4)), N, I(1), I(-100)]),
    ("nll_loss_forward_size_mismatch", "aten::nll_loss_forward", [T("float32", (2, 3)), T("int64", (3,)), N, I(1), I(-100)]),
    ("nll_loss_nd_0d", "aten::nll_loss_nd", [T("float32", ()), T("int64", ()), N, I(1), I(-100)]),
    ("nll_loss_0d", "aten::nll_loss", [T("float32", ()), T("int64", ()), N, I(1), I(-100)]),
    ("cross_entropy_loss_probs_reduction", "aten::cross_entropy_loss",
     [T("float32", (2, 3)), T("float32", (2, 3)), N, I(5), I(-100), Fl(0.0)]),
    ("mv_0d", "aten::mv", [T("float32", ()), T("float32", (2,))]),
    ("mv_1d_matrix", "aten::mv", [T("float32", (2,)), T("float32", (2,))]),
    ("sdpa_1d", "aten::scaled_dot_product_attention", [T("float32", (4,)), T("float32", (4,)), T("float32", (4,)), N, Fl(0.0), B(False), N, B(False)]),
    ("sdpa_mask_dtype", "aten::scaled_dot_product_attention",
     [T("float32", (2, 4)), T("float32", (2, 4)), T("float32", (2, 4)), T("int64", (2, 2)), Fl(0.0), B(False), N, B(False)]),
    ("sdpa_causal_with_mask", "aten::scaled_dot_product_attention",
     [T("float32", (2, 4)), T("float32", (2, 4)), T("float32", (2, 4)), T("bool", (2, 2)), Fl(0.0), B(True), N, B(False)]),
    ("flash_attention_int64", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [T("int64", (1, 1, 2, 4)), T("int64", (1, 1, 2, 4)), T("int64", (1, 1, 2, 4)), Fl(0.0), B(False), N, N]),
    ("flash_attention_3d", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [T("float32", (1, 2, 4)), T("float32", (1, 2, 4)), T("float32", (1, 2, 4)), Fl(0.0), B(False), N, N]),
    ("flash_attention_dropout", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), Fl(0.5), B(False), N, N]),
    ("flash_attention_head_size", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 3)), Fl(0.0), B(False), N, N]),
    ("flash_attention_mask_dtype", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), Fl(0.0), B(False),
      T("int64", (2, 2)), N]),
    ("flash_attention_mask_3d", "aten::_scaled_dot_product_flash_attention_for_cpu",
     [T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), T("float32", (1, 1, 2, 4)), Fl(0.0), B(False),
      T("float32", (1, 2, 2)), N]),
    ("record_function_exit_none", "profiler::_record_function_exit._RecordFunction", [N]),
]


# ---- "api" cases: a few lines each, written again in C by tests/test_mistakes.c ------------

def size_of_0d():
    torch.tensor(1.0).size(0)


def size_of_0d_out_of_range():
    torch.tensor(1.0).size(1)


def sgd_none_param():
    torch.optim.SGD([None], lr=0.1)


def kaiming_uniform_1d():
    torch.nn.init.kaiming_uniform_(torch.zeros(3))


def register_parameter_dot():
    torch.nn.Module().register_parameter("a.b", torch.nn.Parameter(torch.zeros(1)))


def register_parameter_empty():
    torch.nn.Module().register_parameter("", torch.nn.Parameter(torch.zeros(1)))


def register_buffer_dot():
    torch.nn.Module().register_buffer("a.b", torch.zeros(1))


def add_module_dot():
    torch.nn.Module().add_module("a.b", torch.nn.Module())


def add_module_empty():
    torch.nn.Module().add_module("", torch.nn.Module())


def register_parameter_exists():
    m = torch.nn.Module()
    m.register_buffer("w", torch.zeros(1))
    m.register_parameter("w", torch.nn.Parameter(torch.zeros(1)))


def cross_entropy_none_input():
    F.cross_entropy(None, torch.zeros(2, dtype=torch.int64))


def cross_entropy_none_target():
    F.cross_entropy(torch.zeros(2, 3), None)


def embedding_none_indices():
    F.embedding(None, torch.zeros(4, 3))


def layer_norm_none_input():
    F.layer_norm(None, [3])


def profiler_enabled_twice():
    # the profiler started twice on one thread (the legacy entry point: ctorch's ct_profiler_start)
    cfg = torch.autograd.ProfilerConfig(torch.autograd.ProfilerState.CPU, False, False, False, False, False,
                                        torch._C._profiler._ExperimentalConfig())
    torch.autograd._enable_profiler_legacy(cfg)
    try:
        torch.autograd._enable_profiler_legacy(cfg)
    finally:
        torch.autograd._disable_profiler_legacy()


def export_stacks_bad_metric():
    with torch.profiler.profile(with_stack=True) as p:
        torch.ones(2) + 1
    p.export_stacks("/tmp/mistakes_stacks.txt", "bad_metric")


def define_twice():
    lib = torch.library.Library("mistakes_twice", "DEF")
    lib.define("foo(Tensor x) -> Tensor")
    lib.define("foo(Tensor x) -> Tensor")


def find_schema_missing():
    torch._C._dispatch_find_schema_or_throw("aten::no_such_op", "")


def pop_empty_dispatch_mode_stack():
    torch._C._pop_torch_dispatch_stack(None)


def pop_empty_function_mode_stack():
    torch._C._pop_torch_function_stack()


def leaf_in_place():
    torch.zeros(2, requires_grad=True).add_(1)


def view_of_leaf_in_place():
    torch.zeros(2, requires_grad=True)[0:1].add_(1)


def backward_no_tensors():
    torch.autograd.backward([])


def backward_no_grad_fn():
    torch.autograd.backward([torch.ones(1, requires_grad=True).detach()])


def backward_grad_shape():
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward(torch.ones(3))


def inference_tensor_in_place():
    with torch.inference_mode():
        t = torch.zeros(2)
    t.add_(1)


def inference_tensor_requires_grad():
    with torch.inference_mode():
        t = torch.zeros(2)
    t.requires_grad_()


def inference_tensor_saved():
    with torch.inference_mode():
        t = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    w * t


def set_grad_size():
    t = torch.zeros(2, requires_grad=True)
    t.grad = torch.zeros(3)


def set_grad_dtype():
    t = torch.zeros(2, requires_grad=True)
    t.grad = torch.zeros(2, dtype=torch.float64)


def set_data_int_dtype():
    t = torch.zeros(2, requires_grad=True)
    t.data = torch.zeros(2, dtype=torch.int64)


def detach_view_in_place():
    torch.arange(4.0).view(2, 2)[0].detach_()


def saved_tensor_modified():
    x = torch.ones(2, requires_grad=True)
    y = x * 1
    z = y * y
    y.add_(1)
    z.sum().backward()


class _NotImplementedMode(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return NotImplemented


def dispatch_mode_not_implemented():
    a, b = torch.ones(2), torch.ones(2)
    with _NotImplementedMode():
        torch.add(a, b)


class _NotImplementedFunctionMode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return NotImplemented


def function_mode_not_implemented():
    a, b = torch.ones(2, 2), torch.ones(2, 2)
    with _NotImplementedFunctionMode():
        torch.nn.functional.linear(a, b)


class _NotImplementedSubclass(torch.Tensor):
    @staticmethod
    def __new__(cls, elem):
        return torch.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype)

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


def subclass_not_implemented():
    torch.add(_NotImplementedSubclass(torch.ones(2)), torch.ones(2))


def cat_none_element():
    torch.cat([torch.ones(2), None])


_mm_wrong = [False]


def _mm(a, b):
    if _mm_wrong[0]:
        return torch.zeros(3)
    return torch.ops.aten.bmm(a.unsqueeze(0), b.unsqueeze(0)).squeeze(0)


def invalid_gradient_shape():
    # aten::mm's CPU kernel replaced by one that returns a 3-vector while backward runs, so that
    # MmBackward0 returns a gradient of the wrong shape for its input
    lib = torch.library.Library("aten", "IMPL")
    lib.impl("mm", _mm, "CPU")
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(3, 4, requires_grad=True)
    y = torch.mm(x, w)
    _mm_wrong[0] = True
    try:
        y.sum().backward()
    finally:
        _mm_wrong[0] = False
        del lib


def no_kernel_for_backend():
    lib = torch.library.Library("mistakes_nokernel", "DEF")
    lib.define("foo(Tensor x) -> Tensor")
    torch.ops.mistakes_nokernel.foo(torch.ones(2))


API = [size_of_0d, size_of_0d_out_of_range, sgd_none_param, kaiming_uniform_1d, register_parameter_dot, register_parameter_empty, register_parameter_exists,
       cross_entropy_none_input, cross_entropy_none_target, embedding_none_indices,
       layer_norm_none_input, profiler_enabled_twice, export_stacks_bad_metric, define_twice, find_schema_missing,
       pop_empty_dispatch_mode_stack, pop_empty_function_mode_stack, leaf_in_place, view_of_leaf_in_place,
       backward_no_tensors, backward_no_grad_fn, backward_grad_shape, inference_tensor_in_place,
       inference_tensor_requires_grad, inference_tensor_saved, set_grad_size, set_grad_dtype, set_data_int_dtype, detach_view_in_place, saved_tensor_modified,
       dispatch_mode_not_implemented, function_mode_not_implemented, subclass_not_implemented, no_kernel_for_backend,
       register_buffer_dot, add_module_dot, add_module_empty, cat_none_element,
       invalid_gradient_shape]


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the exception PyTorch raises is what is recorded
        # a KeyError's str() is the repr of its message: the message itself is recorded
        msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return {"type": type(e).__name__, "message": re.sub(r"0x[0-9a-f]+", "0x?", msg)}
    return None


# (defined below error_of so that the registration line define_twice's message names stays)
def backward_grad_shape_no_grad():
    # _make_grads checks the shape before the engine asks whether the output requires grad
    torch.ones(2).backward(torch.ones(3))


API.append(backward_grad_shape_no_grad)


def main():
    out = {}
    for name, qualified, args in OPS:
        assert name not in out, name
        out[name] = {"op": qualified, "args": args, "error": error_of(lambda: call_op(qualified, args))}
    for fn in API:
        assert fn.__name__ not in out, fn.__name__
        out[fn.__name__] = {"error": error_of(fn)}
    text = json.dumps(out, indent=1, sort_keys=True, allow_nan=False) + "\n"
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
