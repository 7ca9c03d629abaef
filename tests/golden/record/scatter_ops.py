"""Records the scatter / nonzero / padding family's test table under PyTorch 2.6, for
tests/python/scatter_ops.py to replay through ctorch: scatter (src, value, reduce=, in place),
scatter_add, scatter_reduce (sum, prod, mean, amax, amin, with and without self), gather,
masked_scatter, nonzero (and as_tuple=True), nonzero_static, argwhere, select_scatter,
slice_scatter, diagonal_scatter, as_strided_scatter, constant_pad_nd, F.pad in its four modes
(reflection_pad*d, replication_pad*d, _pad_circular), clamp / clamp_ / clamp_min / clamp_max / clip
with tensor bounds, the functional copy, fill (Scalar and Tensor), fill_.Tensor, masked_fill with a
tensor value.

Usage (under real PyTorch 2.6; the reference tool runs it):
    the reference tool: tests/golden/record/scatter_ops.py tests/golden/torch-2.6/scatter_ops.json

Each case is a Python expression over `torch`, `F` (torch.nn.functional), `X(shape, dtype)` (an
arange of that shape in that dtype; bool: the elements that are 1 modulo 3) and `I(list)` (an int64
tensor), evaluated as written by the recorder and by the replay:
  value cases   the result's values, dtype, shape, strides, contiguity and whether it shares the
                first X(...)'s storage, for every dtype ctorch has (an error where PyTorch raises one)
  grad cases    float32 and float64: x's gradient for a fixed cotangent and the grad_fn's name
  log cases     the operators a dispatch mode sees in the forward call (a and b made before)
  blog cases    the operators a dispatch mode sees in the forward call and its backward
  errors        the exception's type and message
Output: JSON {"torch": version, "cases": [{"id", "expr" | "grad" | "log" | "blog", "result" | "error"}]}."""
import json
import sys
import warnings

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

warnings.simplefilter("ignore")

DT = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = torch.arange(n, dtype=torch.float64).reshape(shape)
    if dtype == torch.bool:
        return (t.long() % 3 == 1).reshape(shape)
    return t.to(dtype)


def I(data):
    return torch.tensor(data, dtype=torch.int64)


IDX2 = "I([[0, 1, 2, 0], [2, 0, 0, 1]])"
DUP = "I([[0, 1, 0, 0], [0, 2, 2, 0], [1, 1, 0, 0]])"
VALUE = [
    ("scatter_src", f"X([3, 4], D).scatter(0, {IDX2}, X([2, 4], D).flip(0))"),
    ("scatter_src_dim1", "X([2, 5], D).scatter(1, I([[4, 0], [1, 3]]), X([2, 3], D))"),
    ("scatter_src_neg", "X([2, 3], D).scatter(-1, I([[2], [0]]), X([2, 2], D).flip(1))"),
    ("scatter_src_t", f"X([4, 3], D).t().scatter(0, {IDX2}[:, :3], X([2, 3], D).flip(0))"),
    ("scatter_src_3d", "X([2, 3, 4], D).scatter(1, I([[[2, 1, 0, 2]], [[0, 0, 1, 1]]]), X([2, 2, 4], D).flip(2))"),
    ("scatter_value", "X([3, 4], D).scatter(1, I([[0], [2], [3]]), 1)"),
    ("scatter_value_float", "X([3, 4], D).scatter(0, I([[2, 1]]), 0.5)"),
    ("scatter_empty_index", "X([2, 3], D).scatter(0, I([]).reshape(0, 3), X([2, 3], D))"),
    ("scatter_0d", "X([], D).scatter(0, I(0), X([], D).flip([]))"),
    ("scatter_", f"X([3, 4], D).scatter_(0, {IDX2}, X([2, 4], D).flip(1))"),
    ("scatter__value", "X([2, 3], D).scatter_(1, I([[2, 0]]), 0)"),
    ("scatter_add_reduce", f"X([3, 4], D).scatter(0, {DUP}, X([3, 4], D).flip(0), reduce='add')"),
    ("scatter_mul_reduce", f"X([3, 4], D).scatter(0, {DUP}, X([3, 4], D).flip(0), reduce='multiply')"),
    ("scatter_value_add", f"X([3, 4], D).scatter(0, {DUP}, 2, reduce='add')"),
    ("scatter_value_mul", f"X([3, 4], D).scatter(0, {DUP}, 2, reduce='multiply')"),
    ("scatter__reduce", f"X([3, 4], D).scatter_(0, {DUP}, X([3, 4], D), reduce='add')"),
    ("scatter_add", f"torch.scatter_add(X([3, 4], D), 0, {DUP}, X([3, 4], D).flip(1))"),
    ("scatter_add_dim1", "X([2, 3], D).scatter_add(1, I([[0, 0, 2], [1, 1, 1]]), X([2, 3], D))"),
    ("scatter_add_small", "X([3, 4], D).scatter_add(1, I([[3, 3], [0, 0]]), X([2, 5], D))"),
    ("scatter_add_", f"X([3, 4], D).scatter_add_(0, {DUP}, X([3, 4], D))"),
    ("scatter_add_t", "X([4, 3], D).t().scatter_add(1, I([[0, 0], [3, 3]]), X([2, 2], D))"),
]
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        VALUE.append((f"scatter_reduce_{red}_{inc}",
                      f"X([3, 4], D).scatter_reduce(0, {DUP}, X([3, 4], D).flip(0), '{red}', include_self={inc})"))
VALUE += [
    ("scatter_reduce_max", f"X([3, 4], D).scatter_reduce(0, {DUP}, X([3, 4], D).flip(0), 'max')"),
    ("scatter_reduce_min", f"X([3, 4], D).scatter_reduce(0, {DUP}, X([3, 4], D).flip(0), 'min', include_self=False)"),
    ("scatter_reduce_dim1", "torch.scatter_reduce(X([2, 4], D), 1, I([[0, 0, 3], [1, 1, 1]]), X([2, 3], D), 'mean')"),
    ("scatter_reduce_", f"X([3, 4], D).scatter_reduce_(0, {DUP}, X([3, 4], D), 'amax', include_self=False)"),
    ("gather", "torch.gather(X([3, 4], D), 1, I([[0, 0], [3, 1], [2, 2]]))"),
    ("gather_dim0", "X([3, 4], D).gather(0, I([[2, 1, 0, 2], [0, 0, 0, 1]]))"),
    ("gather_neg", "X([2, 3], D).t().gather(-1, I([[1], [0], [1]]))"),
    ("gather_3d", "X([2, 3, 4], D).gather(2, I([[[3, 0]], [[1, 2]]]))"),
    ("masked_scatter", "X([2, 3], D).masked_scatter(X([2, 3], torch.bool), X([5], D).flip(0))"),
    ("masked_scatter_bcast", "torch.masked_scatter(X([2, 3], D), X([3], torch.bool), X([2, 3], D).flip(1))"),
    ("masked_scatter_", "X([3, 2], D).masked_scatter_(X([3, 2], torch.bool), X([2, 2], D).flip(0))"),
    ("nonzero", "torch.nonzero(X([3, 4], D))"),
    ("nonzero_t", "X([3, 2], D).t().nonzero()"),
    ("nonzero_0d", "torch.nonzero(X([], D))"),
    ("nonzero_1d", "X([5], D).nonzero()"),
    ("nonzero_empty", "torch.nonzero(X([0, 3], D))"),
    ("nonzero_tuple", "torch.nonzero(X([2, 3], D), as_tuple=True)"),
    ("nonzero_tuple_m", "X([2, 3], D).nonzero(as_tuple=True)"),
    ("nonzero_static", "torch.nonzero_static(X([3, 4], D), size=4)"),
    ("nonzero_static_fill", "X([2, 3], D).nonzero_static(size=7, fill_value=9)"),
    ("argwhere", "torch.argwhere(X([2, 3], D))"),
    ("argwhere_m", "X([4], D).argwhere()"),
    ("select_scatter", "torch.select_scatter(X([3, 4], D), X([4], D).flip(0), 0, 1)"),
    ("select_scatter_neg", "X([2, 3], D).select_scatter(X([2], D), -1, -1)"),
    ("slice_scatter", "torch.slice_scatter(X([4, 4], D), X([2, 4], D).flip(0), 0, 1, 3)"),
    ("slice_scatter_step", "X([3, 5], D).slice_scatter(X([3, 3], D), 1, None, None, 2)"),
    ("slice_scatter_t", "torch.slice_scatter(X([5, 3], D).t(), X([3, 2], D), dim=1, start=3)"),
    ("diagonal_scatter", "torch.diagonal_scatter(X([3, 4], D), X([3], D).flip(0), 1)"),
    ("diagonal_scatter_neg", "X([3, 3], D).diagonal_scatter(X([2], D), -1)"),
    ("diagonal_scatter_3d", "torch.diagonal_scatter(X([2, 3, 3], D), X([2, 3], D), 0, 1, 2)"),
    ("as_strided_scatter", "torch.as_strided_scatter(X([3, 4], D), X([2, 2], D).flip(0), (2, 2), (1, 2), 1)"),
    ("constant_pad_nd", "torch.constant_pad_nd(X([2, 3], D), (1, 2))"),
    ("constant_pad_nd_2d", "torch.constant_pad_nd(X([2, 3], D), (1, 0, 0, 2), 1)"),
    ("constant_pad_nd_neg", "torch.constant_pad_nd(X([3, 4], D), (-1, 2, 1, -2))"),
    ("constant_pad_nd_crop", "torch.constant_pad_nd(X([3, 4], D), (-1, -1))"),
    ("constant_pad_nd_t", "torch.constant_pad_nd(X([3, 2], D).t(), (0, 1, 1, 0), 5)"),
    ("pad_constant", "F.pad(X([2, 3], D), (1, 1), value=2)"),
    ("pad_constant_default", "F.pad(X([1, 2, 3], D), (0, 1, 2, 0, 1, 1))"),
    ("pad_reflect_2d_in", "F.pad(X([2, 4], D), (2, 3), mode='reflect')"),
    ("pad_reflect_1d", "F.pad(X([2, 2, 4], D), (1, 2), mode='reflect')"),
    ("pad_reflect_1d_neg", "F.pad(X([1, 5], D), (-1, 2), mode='reflect')"),
    ("pad_reflect_2d", "F.pad(X([1, 3, 4], D), (1, 2, 2, 1), mode='reflect')"),
    ("pad_reflect_2d_batch", "F.pad(X([2, 1, 3, 3], D), (1, 1, 0, 2), mode='reflect')"),
    ("pad_reflect_3d", "F.pad(X([1, 2, 3, 3], D), (1, 1, 2, 0, 1, 1), mode='reflect')"),
    ("pad_reflect_3d_batch", "F.pad(X([1, 1, 2, 2, 3], D), (2, 0, 1, 1, 0, 1), mode='reflect')"),
    ("pad_replicate_1d", "F.pad(X([2, 3], D), (2, 3), mode='replicate')"),
    ("pad_replicate_1d_batch", "F.pad(X([2, 1, 3], D), (0, 2), mode='replicate')"),
    ("pad_replicate_2d", "F.pad(X([1, 2, 3], D), (1, 2, 3, 0), mode='replicate')"),
    ("pad_replicate_2d_neg", "F.pad(X([1, 4, 4], D), (-1, 1, 1, -2), mode='replicate')"),
    ("pad_replicate_3d", "F.pad(X([1, 2, 2, 2], D), (1, 1, 1, 0, 0, 2), mode='replicate')"),
    ("pad_replicate_3d_batch", "F.pad(X([2, 1, 1, 2, 2], D), (0, 1, 1, 0, 1, 0), mode='replicate')"),
    ("pad_circular_1d", "F.pad(X([1, 2, 4], D), (1, 2), mode='circular')"),
    ("pad_circular_1d_nobatch", "F.pad(X([2, 4], D), (3, 1), mode='circular')"),
    ("pad_circular_2d", "F.pad(X([1, 1, 3, 3], D), (1, 2, 2, 1), mode='circular')"),
    ("pad_circular_neg", "F.pad(X([1, 2, 5], D), (-1, 2), mode='circular')"),
    ("pad_circular_3d", "F.pad(X([1, 1, 2, 2, 3], D), (1, 1, 1, 0, 0, 1), mode='circular')"),
    ("reflection_pad1d", "torch._C._nn.reflection_pad1d(X([1, 4], D), [1, 3])"),
    ("replication_pad2d", "torch._C._nn.replication_pad2d(X([1, 2, 2], D), (1, 0, 0, 1))"),
    ("clamp_tensor", "torch.clamp(X([2, 3], D), X([3], D).flip(0), X([2, 1], D) + 3)"),
    ("clamp_tensor_min", "torch.clamp(X([2, 3], D), min=X([2, 3], D).flip(1))"),
    ("clamp_tensor_max", "X([2, 3], D).clamp(max=X([3], D).flip(0))"),
    ("clamp_tensor_0d", "torch.clamp(X([2, 3], D), torch.tensor(1.5), torch.tensor(4))"),
    ("clamp_tensor_nan", "torch.clamp(X([4], D), (X([4], D) - 1) / (X([4], D) - 1), X([4], D).flip(0) + 0.5)"),
    ("clamp_tensor_min_nan", "torch.clamp(X([4], D), min=(X([4], D) - 1) / (X([4], D) - 1))"),
    ("clamp_max_tensor_nan", "torch.clamp_max(X([4], D) / X([4], D), X([4], D).flip(0))"),
    ("clamp_tensor_crossed", "torch.clamp(X([3], D), X([3], D) + 2, X([3], D) + 1)"),
    ("clamp_tensor_", "X([2, 3], D).clamp_(X([3], D).flip(0), X([3], D) + 2)"),
    ("clamp_min_tensor", "torch.clamp_min(X([2, 3], D), X([3], D).flip(0))"),
    ("clamp_max_tensor", "X([2, 3], D).clamp_max(X([2, 1], D))"),
    ("clip_tensor", "torch.clip(X([2, 3], D), X([3], D).flip(0), X([3], D) + 1)"),
    ("clip_tensor_", "X([2, 3], D).clip_(max=X([3], D))"),
    ("copy", "torch.ops.aten.copy(X([2, 3], D), X([3], torch.float64).flip(0))"),
    ("copy_t", "torch.ops.aten.copy(X([3, 2], D).t(), X([2, 3], D).flip(0))"),
    ("sym_size", "torch.ops.aten.sym_size.int(X([2, 3, 4], D), -1)"),
    ("sym_stride", "torch.ops.aten.sym_stride.int(X([4, 3], D).t(), 1)"),
    ("sym_numel", "torch.ops.aten.sym_numel(X([2, 0, 3], D))"),
    ("sym_storage_offset", "torch.ops.aten.sym_storage_offset(X([3, 4], D)[1:, 2:])"),
    ("fill", "torch.fill(X([2, 3], D), 2)"),
    ("fill_float", "torch.fill(X([2, 3], D).t(), 1.5)"),
    ("fill_tensor", "torch.fill(X([2, 3], D), torch.tensor(3))"),
    ("fill__tensor", "X([2, 3], D).fill_(torch.tensor(1.5))"),
    ("fill__tensor_bool", "X([3], D).fill_(torch.tensor(True))"),
    ("masked_fill_tensor", "X([2, 3], D).masked_fill(X([3], torch.bool), torch.tensor(7))"),
    ("masked_fill_tensor_f", "torch.masked_fill(X([2, 3], D), X([2, 3], torch.bool), torch.tensor(0.5))"),
    ("masked_fill__tensor", "X([2, 3], D).masked_fill_(X([2, 1], torch.bool), torch.tensor(1))"),
]
ERRORS = [
    ("scatter_index_dtype", "X([2, 3]).scatter(0, I([[0, 1]]).int(), X([1, 2]))"),
    ("scatter_src_dtype", "X([2, 3]).scatter(0, I([[0, 1]]), X([1, 2], torch.float64))"),
    ("scatter_ndim", "X([2, 3]).scatter(0, I([0, 1]), X([2]))"),
    ("scatter_ndim_src", "X([2, 3]).scatter(0, I([[0, 1]]), X([2]))"),
    ("scatter_ndim_src3", "X([2, 3]).scatter(0, I([[0]]), X([1, 1, 1]))"),
    ("scatter_big_self", "X([2, 3]).scatter(0, I([[0, 1, 0, 1]]), X([1, 4]))"),
    ("scatter_big_src", "X([2, 3]).scatter(0, I([[0, 1], [1, 0]]), X([1, 3]))"),
    ("scatter_big_value", "X([2, 3]).scatter(1, I([[0], [1], [0]]), 1.0)"),
    ("scatter_oob", "X([2, 3]).scatter(0, I([[0, 2]]), X([1, 2]))"),
    ("scatter_neg_index", "X([2, 3]).scatter(1, I([[0, -1]]), X([1, 2]))"),
    ("scatter_dim", "X([2, 3]).scatter(2, I([[0]]), X([1, 1]))"),
    ("scatter_reduce_bad", "X([2, 3]).scatter(0, I([[0]]), X([1, 1]), reduce='max')"),
    ("scatter_value_overflow", "X([2], torch.int8).scatter(0, I([0]), 300)"),
    ("scatter_add_dtype", "X([2, 3]).scatter_add(0, I([[0]]), X([1, 1], torch.int64))"),
    ("scatter_add_oob", "X([2, 3]).scatter_add(1, I([[3]]), X([1, 1]))"),
    ("scatter_reduce_name", "X([2, 3]).scatter_reduce(0, I([[0]]), X([1, 1]), 'max')"),
    ("scatter_reduce_foo", "X([2, 3]).scatter_reduce(0, I([[0]]), X([1, 1]), 'foo')"),
    ("scatter_reduce_index_dtype", "X([2, 3]).scatter_reduce(0, I([[0]]).short(), X([1, 1]), 'sum')"),
    ("scatter_reduce_mean_bool", "X([2, 3], torch.bool).scatter_reduce(0, I([[0]]), X([1, 1], torch.bool), 'mean')"),
    ("scatter__overlap", "(lambda t: t.scatter_(0, I([[0, 1, 0]]), t[:1]))(X([2, 3]))"),
    ("gather_dtype", "X([2, 3]).gather(0, I([[0]]).int())"),
    ("gather_oob", "X([2, 3]).gather(1, I([[0, 3]]))"),
    ("gather_neg", "X([2, 3]).gather(1, I([[-1]]))"),
    ("gather_shape", "X([2, 3]).gather(0, I([[0, 0, 0, 0]]))"),
    ("gather_ndim", "X([2, 3]).gather(0, I([0]))"),
    ("masked_scatter_mask", "X([2, 3]).masked_scatter(X([2, 3], torch.int64), X([6]))"),
    ("masked_scatter_dtype", "X([2, 3]).masked_scatter(X([2, 3], torch.bool), X([6], torch.float64))"),
    ("masked_scatter_few", "X([2, 3]).masked_scatter(X([2, 3], torch.bool), X([1]))"),
    ("masked_scatter__shape", "X([3]).masked_scatter_(X([2, 3], torch.bool), X([6]))"),
    ("nonzero_static_neg", "torch.nonzero_static(X([3]), size=-1)"),
    ("select_scatter_shape", "torch.select_scatter(X([3, 4]), X([3]), 0, 1)"),
    ("select_scatter_index", "torch.select_scatter(X([3, 4]), X([4]), 0, 3)"),
    ("slice_scatter_shape", "torch.slice_scatter(X([4, 4]), X([3, 4]), 0, 1, 3)"),
    ("diagonal_scatter_shape", "torch.diagonal_scatter(X([3, 4]), X([4]))"),
    ("constant_pad_nd_odd", "torch.constant_pad_nd(X([2, 3]), (1,))"),
    ("constant_pad_nd_long", "torch.constant_pad_nd(X([3]), (1, 1, 1, 1))"),
    ("constant_pad_nd_negative", "torch.constant_pad_nd(X([2, 3]), (-2, -1))"),
    ("constant_pad_nd_below_zero", "torch.constant_pad_nd(X([2, 3]), (2, -6))"),
    ("constant_pad_nd_to_zero", "torch.constant_pad_nd(X([2, 3]), (0, -3, 1, 0))"),
    ("constant_pad_nd_overflow", "torch.constant_pad_nd(X([2, 3], torch.uint8), (1, 1), 300)"),
    ("pad_mode", "F.pad(X([2, 3]), (1, 1), mode='wrap')"),
    ("pad_odd", "F.pad(X([2, 3]), (1, 1, 1))"),
    ("pad_long", "F.pad(X([2, 3]), (1, 1, 1, 1, 1, 1))"),
    ("pad_reflect_big", "F.pad(X([1, 3]), (3, 0), mode='reflect')"),
    ("pad_reflect_big_2d", "F.pad(X([1, 3, 3]), (1, 1, 0, 3), mode='reflect')"),
    ("pad_reflect_big_3d", "F.pad(X([1, 2, 3, 3]), (1, 1, 1, 1, 2, 0), mode='reflect')"),
    ("pad_reflect_value", "F.pad(X([1, 3]), (1, 0), mode='reflect', value=1.0)"),
    ("pad_reflect_1d_input", "F.pad(X([3]), (1, 1), mode='reflect')"),
    ("pad_reflect_4d_pad2", "F.pad(X([1, 1, 2, 3]), (1, 1), mode='reflect')"),
    ("pad_reflect_zero_dim", "F.pad(X([0, 3]), (1, 1), mode='reflect')"),
    ("pad_reflect_small", "F.pad(X([1, 3]), (-2, -2), mode='reflect')"),
    ("pad_reflect_small_2d", "F.pad(X([1, 2, 3]), (-2, -2, -2, -2), mode='reflect')"),
    ("pad_reflect_small_3d", "F.pad(X([1, 1, 2, 3]), (-2, -2, -2, -2, -1, -1), mode='reflect')"),
    ("pad_replicate_small", "F.pad(X([1, 3]), (-2, -2), mode='replicate')"),
    ("pad_replicate_small_2d", "F.pad(X([1, 3, 3]), (-2, -2, -2, -2), mode='replicate')"),
    ("pad_replicate_small_3d", "F.pad(X([1, 2, 2, 2]), (-1, -1, -1, -1, -1, -1), mode='replicate')"),
    ("pad_replicate_bool", "F.pad(X([1, 3], torch.bool), (1, 1), mode='replicate')"),
    ("pad_reflect_bool", "F.pad(X([1, 3], torch.bool), (1, 1), mode='reflect')"),
    ("pad_circular_wrap", "F.pad(X([1, 1, 3]), (4, 0), mode='circular')"),
    ("pad_circular_empty", "F.pad(X([1, 1, 3]), (-2, -2), mode='circular')"),
    ("pad_circular_nonpadded", "torch._C._nn._pad_circular(X([1, 2, 3]), [1, 1, 1, 1, 1, 1])"),
    ("reflection_pad1d_backward_dims", "torch.ops.aten.reflection_pad1d_backward(X([4]), X([1, 3]), [1, 1])"),
    ("replication_pad2d_backward_shape", "torch.ops.aten.replication_pad2d_backward(X([1, 3, 4]), X([1, 2, 3]), [1, 0, 0, 1])"),
    ("reflection_pad1d_len", "torch._C._nn.reflection_pad1d(X([1, 3]), [1, 1, 1, 1])"),
    ("reflection_pad1d_backward_shape", "torch.ops.aten.reflection_pad1d_backward(X([1, 4]), X([1, 3]), [1, 1])"),
    ("sym_size_dim", "torch.ops.aten.sym_size.int(X([2, 3]), 2)"),
    ("sym_stride_dim", "torch.ops.aten.sym_stride.int(X([]), 0)"),
    ("clamp_tensor_none", "torch.clamp(X([2, 3]), None, None)"),
    ("clamp_tensor_bool", "torch.clamp(X([2], torch.bool), X([2], torch.bool))"),
    ("clamp__tensor_cast", "X([2, 3], torch.int64).clamp_(X([3]))"),
    ("clamp__tensor_shape", "X([3]).clamp_(X([2, 3]))"),
    ("clamp_tensor_shape", "torch.clamp(X([2, 3]), X([2]))"),
    ("fill__tensor_dim", "X([2, 3]).fill_(X([1]))"),
    ("fill_tensor_dim", "torch.fill(X([2, 3]), X([2]))"),
    ("masked_fill_tensor_dim", "X([2, 3]).masked_fill(X([2, 3], torch.bool), X([1]))"),
    ("masked_fill_tensor_mask", "X([2, 3]).masked_fill(X([2, 3], torch.uint8), torch.tensor(1.0))"),
    ("masked_fill__tensor_overflow", "X([2, 3], torch.int8).masked_fill_(X([2, 3], torch.bool), torch.tensor(1000))"),
]
GRAD = [
    ("scatter_src", "x.scatter(1, I([[0, 2], [1, 0]]), x[:, 1:] * 2)", [2, 3]),
    ("scatter_value", "x.scatter(0, I([[1, 0, 1]]), 5.0)", [2, 3]),
    ("scatter_", "(x * 1).scatter_(1, I([[2], [0]]), x[:, :1] * 3)", [2, 3]),
    ("scatter_add", "x.scatter_add(0, I([[1, 1, 0], [1, 0, 0]]), x.flip(0) * 2)", [2, 3]),
    ("scatter_add_", "(x * 1).scatter_add_(1, I([[0, 0], [2, 2]]), x[:, :2])", [2, 3]),
    ("gather", "x.gather(1, I([[0, 0, 2], [1, 1, 1]]))", [2, 3]),
    ("gather_dim0", "torch.gather(x, 0, I([[1, 1, 1], [0, 1, 0], [1, 0, 0]]))", [2, 3]),
    ("masked_scatter", "x.masked_scatter(X([2, 3], torch.bool), x.flip(1) * 2)", [2, 3]),
    ("masked_scatter_src", "X([2, 3], x.dtype).masked_scatter(X([3], torch.bool), x)", [4, 2]),
    ("select_scatter", "torch.select_scatter(x, x[0] * 2, 0, 1)", [2, 3]),
    ("slice_scatter", "torch.slice_scatter(x, x[:, ::2] * 2, 1, 0, 3, 2)", [2, 3]),
    ("diagonal_scatter", "torch.diagonal_scatter(x, x[0, :2] * 3, 1)", [2, 3]),
    ("as_strided_scatter", "torch.as_strided_scatter(x, X([2, 2], x.dtype), (2, 2), (1, 3), 1)", [3, 3]),
    ("as_strided_scatter_src", "torch.as_strided_scatter(X([3, 3], x.dtype), x * 2, (2, 2), (1, 3), 1)", [2, 2]),
    ("constant_pad_nd", "torch.constant_pad_nd(x, (1, -1, 2, 0))", [2, 3]),
    ("pad_constant", "F.pad(x, (1, 1), value=2.0)", [2, 3]),
    ("pad_reflect_1d", "F.pad(x, (2, 1), mode='reflect')", [2, 4]),
    ("pad_reflect_2d", "F.pad(x, (1, 2, 2, 1), mode='reflect')", [1, 3, 4]),
    ("pad_reflect_3d", "F.pad(x, (1, 1, 1, 0, 0, 1), mode='reflect')", [1, 2, 2, 3]),
    ("pad_replicate_1d", "F.pad(x, (2, 3), mode='replicate')", [1, 2, 3]),
    ("pad_replicate_2d", "F.pad(x, (1, 0, 2, 2), mode='replicate')", [1, 2, 3]),
    ("pad_replicate_3d", "F.pad(x, (0, 1, 1, 1, 1, 0), mode='replicate')", [1, 1, 2, 2, 2]),
    ("pad_circular", "F.pad(x, (1, 2), mode='circular')", [1, 2, 3]),
    ("pad_circular_2d", "F.pad(x, (1, 1, 1, 0), mode='circular')", [1, 1, 2, 3]),
    ("clamp_tensor", "torch.clamp(x, X([3], x.dtype), X([3], x.dtype) + 2)", [2, 3]),
    ("clamp_tensor_minmax", "torch.clamp(X([2, 3], x.dtype).flip(1), x, x + 1.5)", [2, 3]),
    ("clamp_tensor_min", "torch.clamp(X([2, 3], x.dtype).flip(1), min=x)", [2, 3]),
    ("clamp_min_tensor", "torch.clamp_min(x, X([3], x.dtype).flip(0))", [2, 3]),
    ("clamp_max_tensor", "torch.clamp_max(X([2, 3], x.dtype).flip(1), x)", [2, 3]),
    ("clip_tensor", "x.clip(max=X([3], x.dtype).flip(0))", [2, 3]),
    ("masked_fill_tensor", "x.masked_fill(X([2, 3], torch.bool), torch.tensor(2.0, dtype=x.dtype))", [2, 3]),
    ("masked_fill_tensor_value", "X([2, 3], x.dtype).masked_fill(X([2, 3], torch.bool), x[1, 2])", [2, 3]),
    ("fill_tensor_value", "torch.fill(X([2, 3], x.dtype), x[0, 1])", [2, 3]),
    ("fill__tensor", "(x * 1).fill_(x[1, 1])", [2, 3]),
    ("fill_scalar", "torch.fill(x, 3)", [2, 3]),
]
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        GRAD.append((f"scatter_reduce_{red}_{inc}",
                     f"x.scatter_reduce(0, I([[1, 1, 0], [1, 0, 0]]), x.flip(1) * 2, '{red}', include_self={inc})", [2, 3]))
GRAD.append(("scatter_reduce_amax_ties", "(x * 0).scatter_reduce(0, I([[0, 0, 1]]), x[:1] * 0, 'amax')", [2, 3]))
GRAD.append(("scatter_reduce_prod_zero", "(x - 1).scatter_reduce(0, I([[0, 0, 1], [1, 0, 1]]), x - 2, 'prod')", [2, 3]))
LOGS = [  # a and b are made before the mode starts
    ("scatter_src", "a.scatter(0, I([[0, 1, 0]]), b)", [2, 3], [1, 3]),
    ("scatter_value", "torch.scatter(a, 1, I([[0], [2]]), 1.5)", [2, 3], [1]),
    ("scatter_", "a.scatter_(0, I([[1, 1, 0]]), b)", [2, 3], [1, 3]),
    ("scatter_reduce_old", "a.scatter(0, I([[1, 1, 0]]), b, reduce='multiply')", [2, 3], [1, 3]),
    ("scatter_add", "a.scatter_add(0, I([[1, 1, 0]]), b)", [2, 3], [1, 3]),
    ("scatter_reduce", "a.scatter_reduce(0, I([[1, 1, 0]]), b, 'amin', include_self=False)", [2, 3], [1, 3]),
    ("gather", "a.gather(0, I([[1, 1, 0]]))", [2, 3], [1]),
    ("masked_scatter", "a.masked_scatter(a > 2, b)", [2, 3], [6]),
    ("nonzero", "a.nonzero()", [2, 3], [1]),
    ("nonzero_tuple", "torch.nonzero(a, as_tuple=True)", [2, 3], [1]),
    ("nonzero_tuple_0d", "torch.nonzero(a, as_tuple=True)", [], [1]),
    ("nonzero_static", "torch.nonzero_static(a, size=3)", [2, 3], [1]),
    ("argwhere", "torch.argwhere(a)", [2, 3], [1]),
    ("select_scatter", "torch.select_scatter(a, b, 0, 0)", [2, 3], [3]),
    ("slice_scatter", "a.slice_scatter(b, 1, 0, 1)", [2, 3], [2, 1]),
    ("diagonal_scatter", "torch.diagonal_scatter(a, b)", [2, 3], [2]),
    ("pad_constant", "F.pad(a, (1, 2))", [2, 3], [1]),
    ("pad_constant_value", "F.pad(a, (1, 2, 0, 1), value=3.0)", [2, 3], [1]),
    ("pad_reflect", "F.pad(a, (1, 2), mode='reflect')", [2, 3, 4], [1]),
    ("pad_reflect_2d", "F.pad(a, (1, 1, 1, 1), mode='reflect')", [1, 3, 4], [1]),
    ("pad_replicate", "F.pad(a, (1, 2), mode='replicate')", [2, 3], [1]),
    ("pad_replicate_3d", "F.pad(a, (1, 1, 1, 1, 1, 1), mode='replicate')", [1, 2, 2, 2], [1]),
    ("pad_circular", "F.pad(a, (1, 2), mode='circular')", [2, 3, 4], [1]),
    ("pad_circular_2d", "F.pad(a, (1, 2, 1, 0), mode='circular')", [2, 3, 4], [1]),
    ("pad_circular_neg", "F.pad(a, (-1, 1), mode='circular')", [1, 2, 4], [1]),
    ("pad_enum", "torch._C._nn._pad_enum(a, [1, 1], 1)", [2, 3], [1]),
    ("pad_aten", "torch._C._nn.pad(a, [1, 1], 'replicate')", [2, 3], [1]),
    ("constant_pad_nd", "torch.constant_pad_nd(a, (1, 1))", [2, 3], [1]),
    ("clamp_tensor", "torch.clamp(a, b, b + 2)", [2, 3], [3]),
    ("clip_tensor", "torch.clip(a, b)", [2, 3], [3]),
    ("clip__tensor", "a.clip_(max=b)", [2, 3], [3]),
    ("clamp_min_tensor", "a.clamp_min(b)", [2, 3], [3]),
    ("fill_tensor", "torch.fill(a, b[0])", [2, 3], [3]),
    ("fill__tensor", "a.fill_(b[0])", [2, 3], [3]),
    ("masked_fill_tensor", "a.masked_fill(a > 2, b[1])", [2, 3], [3]),
    ("copy", "torch.ops.aten.copy(a, b)", [2, 3], [3]),
]
BLOGS = [  # x requires grad; the forward and the backward
    ("scatter_src", "x.scatter(1, I([[0, 2], [1, 0]]), x[:, 1:] * 2)", [2, 3]),
    ("scatter_add", "x.scatter_add(0, I([[1, 1, 0]]), x[:1] * 2)", [2, 3]),
    ("gather", "x.gather(1, I([[0, 0], [2, 1]]))", [2, 3]),
    ("scatter_reduce_sum", "x.scatter_reduce(0, I([[1, 1, 0]]), x[:1] * 2, 'sum', include_self=False)", [2, 3]),
    ("scatter_reduce_prod", "x.scatter_reduce(0, I([[1, 1, 0]]), x[:1] * 2, 'prod')", [2, 3]),
    ("scatter_reduce_mean", "x.scatter_reduce(0, I([[1, 1, 0]]), x[:1] * 2, 'mean', include_self=False)", [2, 3]),
    ("scatter_reduce_amax", "x.scatter_reduce(0, I([[1, 1, 0]]), x[:1] * 2, 'amax')", [2, 3]),
    ("masked_scatter", "x.masked_scatter(X([2, 3], torch.bool), x * 2)", [2, 3]),
    ("select_scatter", "torch.select_scatter(x, x[1] * 2, 0, 0)", [2, 3]),
    ("slice_scatter", "torch.slice_scatter(x, x[:, :1] * 2, 1, 1, 2)", [2, 3]),
    ("diagonal_scatter", "torch.diagonal_scatter(x, x[0, :2] * 2)", [2, 3]),
    ("pad_constant", "F.pad(x, (1, 2))", [2, 3]),
    ("pad_reflect", "F.pad(x, (1, 2), mode='reflect')", [1, 2, 4]),
    ("pad_replicate_2d", "F.pad(x, (1, 1, 0, 1), mode='replicate')", [1, 2, 3]),
    ("clamp_tensor", "torch.clamp(x, X([3], x.dtype), X([3], x.dtype) + 3)", [2, 3]),
    ("clamp_tensor_bounds", "torch.clamp(X([2, 3], x.dtype).flip(1), x, x + 1)", [2, 3]),
    ("clamp_min_tensor", "torch.clamp_min(X([2, 3], x.dtype).flip(1), x)", [2, 3]),
    ("clamp_max_tensor", "torch.clamp_max(x, X([3], x.dtype).flip(0))", [2, 3]),
    ("pad_circular", "F.pad(x, (1, 2), mode='circular')", [1, 2, 3]),
    ("masked_fill_tensor", "X([2, 3], x.dtype).masked_fill(X([2, 3], torch.bool), x[0, 0])", [2, 3]),
    ("fill_tensor", "torch.fill(x, x[0, 1])", [2, 3]),
]


def describe(r, base):
    if isinstance(r, (tuple, list)):
        return [describe(x, base) for x in r]
    if isinstance(r, int):  # the sym_* size queries
        return r
    return dict(values=r.tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape),
                strides=list(r.stride()), contiguous=r.is_contiguous(),
                view=bool(base is not None and r.numel() > 0 and storage_ptr(r) == storage_ptr(base)))


def storage_ptr(t):
    """where t's storage starts: the same for tensors that share one"""
    return t.data_ptr() - t.storage_offset() * t.element_size()


def run_value(expr, env):
    base = {}

    def Xr(shape, dtype=torch.float32):
        t = X(shape, dtype)
        if "t" not in base:
            base["t"] = t
        return t

    r = eval(expr, dict(env, X=Xr))
    return describe(r, base.get("t"))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def cotangent(y):
    return torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) * 0.5 - 1.0


cases = []
env = dict(torch=torch, F=F, I=I)
for cid, expr in VALUE:
    for dt in DT:
        e = expr.replace("D)", f"torch.{dt})")
        c = dict(id=f"{cid}/{dt}", expr=e)
        try:
            c["result"] = run_value(e, env)
        except Exception as ex:  # noqa: BLE001 - recorded as it is
            c["error"] = [type(ex).__name__, str(ex)]
        cases.append(c)
for cid, expr in ERRORS:
    c = dict(id=f"error/{cid}", expr=expr)
    try:
        eval(expr, dict(env, X=X))
        c["result"] = "no error"
    except Exception as ex:  # noqa: BLE001
        c["error"] = [type(ex).__name__, str(ex)]
    cases.append(c)
for cid, expr, shape in GRAD:
    for dt in ["float32", "float64"]:
        x = X(shape, getattr(torch, dt)).requires_grad_()
        c = dict(id=f"grad/{cid}/{dt}", grad=expr, shape=shape, dtype=dt)
        try:
            y = eval(expr, dict(env, x=x, X=X))
            y.backward(cotangent(y))
            c["result"] = dict(grad_fn=type(y.grad_fn).__name__, grad=x.grad.tolist())
        except Exception as ex:  # noqa: BLE001
            c["error"] = [type(ex).__name__, str(ex)]
        cases.append(c)
for cid, expr, sa, sb in LOGS:
    a, b = X(sa), X(sb)
    with Log() as m:
        eval(expr, dict(env, a=a, b=b, X=X))
    cases.append(dict(id=f"log/{cid}", log=expr, a=sa, b=sb, result=m.ops))
for cid, expr, shape in BLOGS:
    x = X(shape).requires_grad_()
    with Log() as m:
        y = eval(expr, dict(env, x=x, X=X))
    g = cotangent(y)
    with Log() as m2:
        y.backward(g)
    cases.append(dict(id=f"blog/{cid}", blog=expr, shape=shape, result=m.ops + ["--"] + m2.ops))

with open(sys.argv[1], "w") as f:
    json.dump(dict(torch=torch.__version__, cases=cases), f, indent=0)
print(len(cases), "cases")
