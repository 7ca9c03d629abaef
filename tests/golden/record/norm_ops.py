"""Records the normalization and dropout family's test table under PyTorch 2.6, for
tests/python/norm_ops.py to replay through ctorch: F.batch_norm (training and eval, with and without
running statistics, the running statistics' in-place update), native_batch_norm, the
_native_batch_norm_legit family, F.instance_norm, F.group_norm, native_group_norm, native_dropout
and F.dropout, the BatchNorm/GroupNorm modules.

Usage (under real PyTorch 2.6; the reference tool runs it):
    the reference tool: tests/golden/record/norm_ops.py tests/golden/torch-2.6/norm_ops.json
It records at the CPU's own capability, then again with ATEN_CPU_CAPABILITY=avx2 and =default in
child runs; a case whose result differs there also keeps result_AVX2 / result_DEFAULT.

Each case is a Python expression over `torch`, `F` and `X(shape, dtype)` (exactly representable
values of that shape and dtype, a fixed pattern), evaluated as written by the recorder and by the
replay:
  value cases   every tensor of the result (a tuple's, and the running statistics the case names
                after it ran): dtype, shape and values, as bit patterns for float32 (the kernels
                follow PyTorch's float order) under the capability that ran: "AVX2" (what an AVX2 or
                AVX512 CPU runs) and "DEFAULT"
  grad cases    float32 and float64: the gradients of the inputs for a fixed cotangent, grad_fn's name
  log cases     the operators a dispatch mode sees, forward and backward
  errors        the exception's type and message
Output: JSON {"torch": version, "cases": [...]}."""
import json
import os
import struct
import subprocess
import sys

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

DT = ["float32", "float64", "float16", "bfloat16"]


def X(shape, dtype=torch.float32, k=0):
    n = 1
    for s in shape:
        n *= s
    t = ((torch.arange(n, dtype=torch.float64) * 7919 + 31 * k) % 97) / 16.0 - 3.0
    return t.reshape(shape).to(dtype)


def P(c, dtype=torch.float32, k=1):
    """a positive parameter vector of c elements (running_var, weight)"""
    return (((torch.arange(c, dtype=torch.float64) * 13 + k) % 7) / 4.0 + 0.5).to(dtype)


VALUE = [  # (id, expression, names of tensors to report after it ran)
    ("bn_train", "F.batch_norm(X([4, 3, 5], D), rm, rv, P(3, D), X([3], D, 2), training=True)", "rm rv"),
    ("bn_train_4d", "F.batch_norm(X([2, 3, 4, 5], D), rm, rv, P(3, D), X([3], D, 2), training=True, momentum=0.3)", "rm rv"),
    ("bn_train_nostats", "F.batch_norm(X([4, 3, 9], D), None, None, P(3, D), None, training=True)", ""),
    ("bn_train_noaffine", "F.batch_norm(X([3, 2, 17], D), rm2, rv2, training=True)", "rm2 rv2"),
    ("bn_train_2d", "F.batch_norm(X([6, 3], D), rm, rv, P(3, D), X([3], D, 2), training=True)", "rm rv"),
    ("bn_train_2d_wide", "F.batch_norm(X([5, 11], D), None, None, P(11, D), X([11], D), training=True)", ""),
    ("bn_train_nc11", "F.batch_norm(X([5, 3, 1, 1], D), rm, rv, None, None, training=True, eps=1e-3)", "rm rv"),
    ("bn_train_t", "F.batch_norm(X([5, 3, 4], D).transpose(0, 2), None, None, P(4, D), None, training=True)", ""),
    ("bn_eval", "F.batch_norm(X([4, 3, 5], D), X([3], D, 1), P(3, D, 3), P(3, D), X([3], D, 2), training=False)", ""),
    ("bn_eval_2d", "F.batch_norm(X([4, 3], D), X([3], D, 1), P(3, D, 3), None, X([3], D, 2))", ""),
    ("bn_eval_4d", "F.batch_norm(X([2, 3, 3, 3], D), X([3], D, 1), P(3, D, 3), P(3, D), None, eps=0.1)", ""),
    ("bn_empty", "F.batch_norm(X([0, 3, 2], D), rm, rv, P(3, D), X([3], D, 2), training=True)", "rm rv"),
    ("native_bn", "torch.native_batch_norm(X([4, 3, 6], D), P(3, D), X([3], D), rm, rv, True, 0.2, 1e-5)", "rm rv"),
    ("native_bn_eval", "torch.native_batch_norm(X([4, 3, 6], D), P(3, D), X([3], D), P(3, D, 2), P(3, D, 3), False, 0.2, 1e-5)", ""),
    ("legit", "torch._native_batch_norm_legit(X([4, 3, 6], D), P(3, D), None, rm, rv, True, 0.1, 1e-5)", "rm rv"),
    ("legit_eval", "torch._native_batch_norm_legit(X([4, 3, 6], D), None, None, rm, rv, False, 0.1, 1e-5)", "rm rv"),
    ("legit_no_stats", "torch._native_batch_norm_legit(X([4, 3, 6], D), P(3, D), X([3], D), True, 0.1, 1e-5)", ""),
    ("legit_no_training", "torch._native_batch_norm_legit_no_training(X([4, 3, 6], D), P(3, D), X([3], D), X([3], D, 1), P(3, D), 0.1, 1e-5)", ""),
    ("legit_functional", "torch.ops.aten._native_batch_norm_legit_functional(X([4, 3, 6], D), P(3, D), X([3], D), rm, rv, True, 0.1, 1e-5)", "rm rv"),
    ("instance", "F.instance_norm(X([2, 3, 5], D))", ""),
    ("instance_stats", "F.instance_norm(X([2, 3, 4, 2], D), rm, rv, P(3, D), X([3], D), use_input_stats=True)", "rm rv"),
    ("instance_eval", "F.instance_norm(X([2, 3, 4], D), X([3], D, 1), P(3, D), use_input_stats=False)", ""),
    ("group", "F.group_norm(X([2, 6, 5], D), 3, P(6, D), X([6], D))", ""),
    ("group_noaffine", "F.group_norm(X([3, 4, 2, 3], D), 2)", ""),
    ("group_one", "F.group_norm(X([2, 4, 7], D), 1, P(4, D), None, eps=1e-3)", ""),
    ("group_2d", "F.group_norm(X([3, 4], D), 4, None, X([4], D))", ""),
    ("group_long_rows", "F.group_norm(X([2, 4, 300], D), 2, P(4, D), X([4], D))", ""),
    ("group_t", "F.group_norm(X([5, 4, 2], D).transpose(0, 2), 2, P(5, D), X([5], D))", ""),
    ("native_group", "torch.native_group_norm(X([2, 6, 5], D), P(6, D), X([6], D), 2, 6, 5, 3, 1e-5)", ""),
    ("native_group_noaffine", "torch.native_group_norm(X([2, 4, 6], D), None, None, 2, 4, 6, 2, 1e-5)", ""),
    ("up_nearest_2x", "F.interpolate(X([2, 3, 3, 4], D), scale_factor=2)", ""),
    ("up_nearest_size", "F.interpolate(X([1, 2, 3, 5], D), size=(4, 7))", ""),
    ("up_nearest_frac", "F.interpolate(X([1, 2, 5, 4], D), scale_factor=(0.6, 1.7))", ""),
    ("up_nearest_down", "F.interpolate(X([1, 1, 6, 6], D), size=4)", ""),
    ("up_nearest_t", "F.interpolate(X([1, 2, 4, 3], D).transpose(2, 3), size=(5, 6))", ""),
    ("up_nearest1d", "F.interpolate(X([2, 3, 5], D), scale_factor=1.7)", ""),
    ("up_nearest1d_size", "F.interpolate(X([2, 3, 5], D), size=3)", ""),
    ("up_nearest3d", "F.interpolate(X([1, 2, 2, 3, 4], D), scale_factor=(2, 1.5, 0.6))", ""),
    ("up_nearest3d_size", "F.interpolate(X([1, 2, 2, 3, 4], D), size=(3, 3, 5))", ""),
    ("op_nearest1d_bw", "torch.ops.aten.upsample_nearest1d_backward(X([1, 2, 7], D), [7], [1, 2, 3])", ""),
    ("op_nearest3d_bw", "torch.ops.aten.upsample_nearest3d_backward(X([1, 1, 3, 4, 5], D), [3, 4, 5], [1, 1, 2, 2, 3])", ""),
    ("pdist", "F.pdist(X([5, 3], D))", ""),
    ("pdist_wide", "torch.pdist(X([4, 19], D))", ""),
    ("pdist_p1", "F.pdist(X([4, 3], D), p=1)", ""),
    ("pdist_p0", "F.pdist(X([4, 3], D), p=0)", ""),
    ("pdist_inf", "F.pdist(X([4, 3], D), p=float('inf'))", ""),
    ("pdist_p3", "F.pdist(X([4, 3], D), p=3)", ""),
    ("pdist_p15", "F.pdist(X([4, 10], D), p=1.5)", ""),
    ("pdist_t", "F.pdist(X([3, 5], D).t())", ""),
    ("pdist_one", "F.pdist(X([1, 3], D))", ""),
    ("pdist_bw", "torch.ops.aten._pdist_backward(X([6], D), X([4, 3], D), 2.0, torch.pdist(X([4, 3], D)))", ""),
    ("up_bilinear", "F.interpolate(X([2, 2, 3, 4], D), scale_factor=2, mode='bilinear')", ""),
    ("up_bilinear_ac", "F.interpolate(X([2, 2, 3, 4], D), scale_factor=2, mode='bilinear', align_corners=True)", ""),
    ("up_bilinear_size", "F.interpolate(X([1, 3, 4, 5], D), size=(7, 3), mode='bilinear')", ""),
    ("up_bilinear_frac", "F.interpolate(X([1, 2, 4, 5], D), scale_factor=(1.5, 0.7), mode='bilinear')", ""),
    ("up_bilinear_ac_size", "F.interpolate(X([1, 2, 3, 4], D), size=(5, 9), mode='bilinear', align_corners=True)", ""),
    ("up_bilinear_same_h", "F.interpolate(X([1, 2, 3, 4], D), size=(3, 9), mode='bilinear')", ""),
    ("up_bilinear_recompute", "F.interpolate(X([1, 2, 4, 5], D), scale_factor=1.3, mode='bilinear', recompute_scale_factor=True)", ""),
    ("up_bilinear_large", "F.interpolate(X([1, 2, 4, 5], D), size=(61, 70), mode='bilinear')", ""),
    ("up_bilinear_large_ac", "F.interpolate(X([1, 1, 5, 3], D), size=(80, 50), mode='bilinear', align_corners=True)", ""),
    ("upsample_nearest", "F.upsample_nearest(X([1, 2, 3, 3], D), scale_factor=3)", ""),
    ("upsample_bilinear", "F.upsample_bilinear(X([1, 2, 3, 3], D), size=(5, 4))", ""),
    ("upsample", "F.upsample(X([1, 2, 3, 3], D), size=(5, 4), mode='bilinear')", ""),
    ("op_nearest", "torch._C._nn.upsample_nearest2d(X([1, 2, 3, 3], D), [6, 5], None, None)", ""),
    ("op_nearest_scales", "torch._C._nn.upsample_nearest2d(X([1, 2, 3, 3], D), [4, 5], 1.5, 1.75)", ""),
    ("op_bilinear_scales", "torch._C._nn.upsample_bilinear2d(X([1, 2, 3, 3], D), [4, 5], False, 1.5, 1.75)", ""),
    ("op_nearest_bw", "torch.ops.aten.upsample_nearest2d_backward(X([1, 2, 6, 5], D), [6, 5], [1, 2, 3, 3])", ""),
    ("op_bilinear_bw", "torch.ops.aten.upsample_bilinear2d_backward(X([1, 1, 5, 7], D), [5, 7], [1, 1, 3, 4], False)", ""),
    ("op_bilinear_bw_ac", "torch.ops.aten.upsample_bilinear2d_backward(X([1, 1, 5, 7], D), [5, 7], [1, 1, 3, 4], True)", ""),
]
ERRORS = [
    ("bn_int", "F.batch_norm(X([4, 3], torch.int64), None, None, training=True)"),
    ("bn_one_value", "F.batch_norm(X([1, 3]), None, None, training=True)"),
    ("bn_one_value_4d", "F.batch_norm(X([1, 3, 1, 1]), None, None, training=True)"),
    ("bn_eval_nostats", "F.batch_norm(X([4, 3]), None, None)"),
    ("bn_eval_novar", "F.batch_norm(X([4, 3]), torch.zeros(3), None)"),
    ("bn_rm_size", "F.batch_norm(X([4, 3]), torch.zeros(4), torch.ones(3), training=True)"),
    ("bn_rv_size", "F.batch_norm(X([4, 3]), torch.zeros(3), torch.ones(2), training=True)"),
    ("bn_weight_size", "F.batch_norm(X([4, 3]), None, None, torch.ones(2), training=True)"),
    ("bn_bias_size", "F.batch_norm(X([4, 3]), None, None, None, torch.ones(5), training=True)"),
    ("bn_mixed", "F.batch_norm(X([4, 3]), None, None, torch.ones(3, dtype=torch.float64), training=True)"),
    ("bn_mixed_half", "F.batch_norm(X([4, 3], torch.float16), None, None, torch.ones(3, dtype=torch.float64), training=True)"),
    ("native_bn_int", "torch.native_batch_norm(X([4, 3], torch.int32), None, None, None, None, True, 0.1, 1e-5)"),
    ("instance_nostats", "F.instance_norm(X([2, 3, 4]), use_input_stats=False)"),
    ("instance_one", "F.instance_norm(X([2, 3, 1]))"),
    ("group_div", "F.group_norm(X([2, 6, 3]), 4)"),
    ("group_zero", "F.group_norm(X([2, 6, 3]), 0)"),
    ("group_weight", "F.group_norm(X([2, 6, 3]), 3, torch.ones(5))"),
    ("group_bias", "F.group_norm(X([2, 6, 3]), 3, None, torch.ones(2, 3))"),
    ("group_bias_w", "F.group_norm(X([2, 6, 3]), 3, torch.ones(6), torch.ones(5))"),
    ("group_1d", "F.group_norm(X([6]), 3)"),
    ("group_one_value", "F.group_norm(X([1, 3]), 3)"),
    ("group_int", "F.group_norm(X([2, 4, 3], torch.int64), 2)"),
    ("native_group_zero", "torch.native_group_norm(X([2, 6, 5]), None, None, 2, 6, 5, 0, 1e-5)"),
    ("native_group_noncontig", "torch.native_group_norm(X([5, 6, 2]).transpose(0, 2), None, None, 2, 6, 5, 3, 1e-5)"),
    ("native_group_bw_size", "torch.ops.aten.native_group_norm_backward(X([2, 6, 5]), X([2, 6, 5]), X([2, 3]), X([2, 2]), None, 2, 6, 5, 3, [True, True, True])"),
    ("native_group_size", "torch.native_group_norm(X([2, 6, 5]), None, None, 2, 6, 4, 3, 1e-5)"),
    ("dropout_p", "F.dropout(X([3]), 1.5)"),
    ("interp_bilinear_3d", "F.interpolate(X([1, 2, 3]), scale_factor=2, mode='bilinear')"),
    ("interp_both", "F.interpolate(X([1, 1, 2, 2]), size=3, scale_factor=2)"),
    ("interp_neither", "F.interpolate(X([1, 1, 2, 2]))"),
    ("interp_align_nearest", "F.interpolate(X([1, 1, 2, 2]), size=3, align_corners=True)"),
    ("interp_size_len", "F.interpolate(X([1, 1, 2, 2]), size=(3,))"),
    ("interp_zero", "F.interpolate(X([1, 1, 2, 2]), size=(0, 3))"),
    ("interp_int_nearest", "F.interpolate(X([1, 1, 2, 2], torch.int64), size=3)"),
    ("interp_int_bilinear", "F.interpolate(X([1, 1, 2, 2], torch.int64), size=3, mode='bilinear')"),
    ("interp_empty", "F.interpolate(X([1, 0, 2, 2]), size=3)"),
    ("pdist_1d", "F.pdist(X([3]))"),
    ("pdist_int", "F.pdist(X([3, 2], torch.int64))"),
    ("pdist_neg", "F.pdist(X([3, 2]), -1.0)"),
    ("pdist_fwd_noncontig", "torch.ops.aten._pdist_forward(X([3, 4]).t())"),
    ("pdist_bw_noncontig", "torch.ops.aten._pdist_backward(X([6]), X([3, 4]).t(), 2.0, X([6]))"),
    ("pdist_bw_noncontig_dist", "torch.ops.aten._pdist_backward(X([6]), X([4, 3]), 2.0, X([12])[::2])"),
    ("pdist_fwd_1d", "torch.ops.aten._pdist_forward(X([3]))"),
    ("pdist_bw_half", "torch.ops.aten._pdist_backward(X([3], torch.float16), X([3, 2], torch.float16), 2.0, X([3], torch.float16))"),
    ("op_nearest1d_int", "F.interpolate(X([1, 2, 3], torch.int64), size=4)"),
    ("op_nearest3d_int", "F.interpolate(X([1, 1, 2, 2, 2], torch.int64), size=4)"),
    ("op_nearest1d_zero", "F.interpolate(X([1, 2, 3]), size=0)"),
    ("op_nearest3d_zero", "F.interpolate(X([1, 1, 2, 2, 2]), size=(1, 0, 2))"),
    ("op_nearest1d_empty", "F.interpolate(X([1, 0, 3]), size=4)"),
    ("op_nearest1d_bw_int", "torch.ops.aten.upsample_nearest1d_backward(X([1, 2, 7], torch.int64), [7], [1, 2, 3])"),
    ("op_nearest3d_bw_int", "torch.ops.aten.upsample_nearest3d_backward(X([1, 1, 3, 4, 5], torch.int64), [3, 4, 5], [1, 1, 2, 2, 3])"),
    ("op_nearest3d_in", "torch._C._nn.upsample_nearest3d(X([1, 2, 3, 3]), [4, 4, 4], None, None, None)"),
    ("op_nearest_3d", "torch._C._nn.upsample_nearest2d(X([1, 2, 3]), [4, 4], None, None)"),
    ("op_nearest_size_len", "torch._C._nn.upsample_nearest2d(X([1, 2, 3, 3]), [4], None, None)"),
    ("op_nearest_bw_shape", "torch.ops.aten.upsample_nearest2d_backward(X([1, 2, 6, 4]), [6, 5], [1, 2, 3, 3])"),
    ("op_bilinear_bw_dim", "torch.ops.aten.upsample_bilinear2d_backward(X([2, 6, 5]), [6, 5], [1, 2, 3, 3], False)"),
    ("op_bilinear_bw_int", "torch.ops.aten.upsample_bilinear2d_backward(X([1, 1, 5, 7], torch.int64), [5, 7], [1, 1, 3, 4], False)"),
    ("op_nearest_bw_int", "torch.ops.aten.upsample_nearest2d_backward(X([1, 1, 5, 7], torch.int64), [5, 7], [1, 1, 3, 4])"),
    ("bn_1d_input", "F.batch_norm(X([3]), None, None, training=True)"),
    ("native_dropout_int", "torch.native_dropout(X([3], torch.int64), 0.5, True)"),
    ("native_dropout_p", "torch.native_dropout(X([3]), -0.5, True)"),
]
GRAD = [  # (id, expression over x, w, b, inputs' shapes: x, then w and b when used)
    ("bn_train", "F.batch_norm(x, torch.zeros(3, dtype=x.dtype), torch.ones(3, dtype=x.dtype), w, b, training=True)", [4, 3, 5], 3),
    ("bn_train_4d", "F.batch_norm(x, None, None, w, b, training=True)", [2, 3, 3, 4], 3),
    ("bn_train_2d", "F.batch_norm(x, None, None, w, b, training=True)", [6, 4], 4),
    ("bn_train_noaffine", "F.batch_norm(x, None, None, training=True)", [3, 2, 9], 0),
    ("bn_eval", "F.batch_norm(x, X([3], x.dtype, 1), P(3, x.dtype), w, b)", [4, 3, 5], 3),
    ("bn_eval_2d", "F.batch_norm(x, X([4], x.dtype, 1), P(4, x.dtype), w, b)", [5, 4], 4),
    ("legit_no_stats", "torch._native_batch_norm_legit(x, w, b, True, 0.1, 1e-5)[0]", [4, 3, 5], 3),
    ("legit_no_training", "torch._native_batch_norm_legit_no_training(x, w, b, X([3], x.dtype, 1), P(3, x.dtype), 0.1, 1e-5)[0]", [4, 3, 5], 3),
    ("instance", "F.instance_norm(x, None, None, w, b)", [2, 3, 5], 3),
    ("group", "F.group_norm(x, 3, w, b)", [2, 6, 5], 6),
    ("group_noaffine", "F.group_norm(x, 2)", [3, 4, 2, 3], 0),
    ("group_2d", "F.group_norm(x, 2, w, b)", [3, 4], 4),
    ("native_dropout_eval", "torch.native_dropout(x, 0.3, False)[0]", [3, 4], 0),
    ("up_nearest", "F.interpolate(x, scale_factor=(1.5, 2))", [1, 2, 3, 3], 0),
    ("up_nearest_size", "F.interpolate(x, size=(2, 7))", [2, 1, 3, 4], 0),
    ("up_nearest1d", "F.interpolate(x, scale_factor=2.5)", [2, 2, 3], 0),
    ("pdist", "F.pdist(x)", [4, 3], 0),
    ("pdist_wide", "F.pdist(x)", [3, 11], 0),
    ("pdist_p1", "F.pdist(x, 1)", [4, 3], 0),
    ("pdist_p3", "F.pdist(x, 3)", [4, 3], 0),
    ("pdist_p15", "F.pdist(x, 1.5)", [3, 4], 0),
    ("pdist_inf", "F.pdist(x, float('inf'))", [3, 4], 0),
    ("up_nearest3d", "F.interpolate(x, size=(3, 2, 5))", [1, 2, 2, 3, 2], 0),
    ("up_bilinear", "F.interpolate(x, size=(5, 7), mode='bilinear')", [2, 1, 3, 4], 0),
    ("up_bilinear_ac", "F.interpolate(x, size=(5, 7), mode='bilinear', align_corners=True)", [2, 1, 3, 4], 0),
    ("up_bilinear_scale", "F.interpolate(x, scale_factor=1.7, mode='bilinear')", [1, 2, 3, 4], 0),
]
LOGS = [  # (id, statement over a (made before the mode starts, requires grad when the id says bw))
    ("bn_train", "F.batch_norm(a, rm, rv, w, b, training=True)"),
    ("bn_train_nostats", "F.batch_norm(a, None, None, w, b, training=True)"),
    ("bn_eval", "F.batch_norm(a, rm, rv, w, b)"),
    ("bn_noaffine", "F.batch_norm(a, rm, rv, training=True)"),
    ("bn_empty", "F.batch_norm(a[:0], rm, rv, w, b, training=True)"),
    ("bn_train_bw", "F.batch_norm(a, rm, rv, w, b, training=True).sum().backward()"),
    ("bn_eval_bw", "F.batch_norm(a, rm, rv, w, b).sum().backward()"),
    ("instance", "F.instance_norm(a)"),
    ("instance_stats", "F.instance_norm(a, rm, rv, w, b)"),
    ("instance_bw", "F.instance_norm(a, rm, rv, w, b).sum().backward()"),
    ("group", "F.group_norm(a, 3, w, b)"),
    ("group_bw", "F.group_norm(a, 3, w, b).sum().backward()"),
    ("group_t", "F.group_norm(a.transpose(1, 2), 5)"),
    ("dropout", "F.dropout(a, 0.3)"),
    ("dropout_eval", "F.dropout(a, 0.3, training=False)"),
    ("native_dropout", "torch.native_dropout(a, 0.3, True)"),
    ("native_dropout_bw", "torch.native_dropout(a, 0.3, True)[0].sum().backward()"),
    ("native_dropout_eval_bw", "torch.native_dropout(a, 0.3, False)[0].sum().backward()"),
    ("interp_nearest", "F.interpolate(a.view(1, 4, 3, 5), scale_factor=2)"),
    ("pdist", "F.pdist(a.view(6, 10))"),
    ("pdist_t", "F.pdist(a.view(10, 6).t())"),
    ("pdist_bw", "F.pdist(a.view(6, 10)).sum().backward()"),
    ("interp_bilinear", "F.interpolate(a.view(1, 4, 3, 5), size=(4, 4), mode='bilinear')"),
    ("interp_nearest_bw", "F.interpolate(a.view(1, 4, 3, 5), scale_factor=(2, 1.5)).sum().backward()"),
    ("interp_bilinear_bw", "F.interpolate(a.view(1, 4, 3, 5), scale_factor=2, mode='bilinear', align_corners=True).sum().backward()"),
    ("bn_module", "bn(a)"),
    ("bn_module_eval", "bn.eval(); bn(a)"),
    ("bn_module_cma", "bn_cma(a); bn_cma(a)"),
    ("gn_module", "gn(a)"),
]
RANDOM = [  # seeded: values and masks as PyTorch's CPU generator draws them
    ("native_dropout", "torch.native_dropout(X([4, 5], D), 0.4, True)"),
    ("native_dropout_none", "torch.native_dropout(X([17], D), 0.5, None)"),
    ("native_dropout_eval", "torch.native_dropout(X([3, 2], D), 0.5, False)"),
    ("native_dropout_p0", "torch.native_dropout(X([6], D), 0.0, True)"),
    ("native_dropout_p1", "torch.native_dropout(X([6], D), 1.0, True)"),
    ("native_dropout_empty", "torch.native_dropout(X([0, 3], D), 0.5, True)"),
    ("dropout", "F.dropout(X([4, 5], D), 0.25)"),
    ("native_dropout_grad_none", "(lambda x: (torch.native_dropout(x, 0.4, None)[0].sum().backward(), x.grad)[1])(X([6], D).requires_grad_())"),
    ("native_dropout_grad_train", "(lambda x: (torch.native_dropout(x, 0.4, True)[0].sum().backward(), x.grad)[1])(X([6], D).requires_grad_())"),
    ("native_dropout_grad_p1", "(lambda x: (torch.native_dropout(x, 1.0, True)[0].sum().backward(), x.grad)[1])(X([6], D).requires_grad_())"),
    ("native_dropout_bw", "torch.ops.aten.native_dropout_backward(X([4], D), torch.tensor([True, False, True, True]), 2.0)"),
    ("native_dropout_bw_float_mask", "torch.ops.aten.native_dropout_backward(X([3], D), torch.tensor([1.0, 0.0, 1.0], dtype=D), 0.5)"),
]
MODULES = [  # (id, statements; the tensors named last are reported)
    ("bn1d_train", "m = torch.nn.BatchNorm1d(3); y = m(X([4, 3, 5])); y2 = m(X([4, 3, 5], k=3))",
     "y y2 m.running_mean m.running_var m.num_batches_tracked"),
    ("bn2d_eval", "m = torch.nn.BatchNorm2d(3); m(X([2, 3, 2, 2])); m.eval(); y = m(X([2, 3, 2, 2], k=5))",
     "y m.running_mean m.running_var m.num_batches_tracked"),
    ("bn1d_cma", "m = torch.nn.BatchNorm1d(3, momentum=None); m(X([4, 3])); y = m(X([4, 3], k=2))",
     "y m.running_mean m.running_var m.num_batches_tracked"),
    ("bn1d_no_stats", "m = torch.nn.BatchNorm1d(3, track_running_stats=False, affine=False); m.eval(); y = m(X([4, 3]))", "y"),
    ("bn2d_params", "m = torch.nn.BatchNorm2d(4, eps=1e-3, momentum=0.2); y = m(X([2, 4, 3, 1]))",
     "y m.weight m.bias m.running_var"),
    ("gn", "m = torch.nn.GroupNorm(2, 4); y = m(X([2, 4, 3]))", "y m.weight m.bias"),
    ("gn_noaffine", "m = torch.nn.GroupNorm(2, 4, affine=False, eps=1e-3); y = m(X([2, 4, 3]))", "y"),
]
MODULE_REPRS = [
    "torch.nn.BatchNorm1d(3)", "torch.nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False)",
    "torch.nn.BatchNorm2d(2, track_running_stats=False)", "torch.nn.GroupNorm(2, 4)", "torch.nn.GroupNorm(1, 3, affine=False)",
    "sorted(torch.nn.BatchNorm1d(3).state_dict().keys())", "sorted(n for n, _ in torch.nn.BatchNorm1d(3).named_buffers())",
]


def bits(t):
    if t.dtype == torch.float32:
        return [struct.unpack("<I", struct.pack("<f", v))[0] for v in t.reshape(-1).tolist()]
    return None


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    if not isinstance(r, torch.Tensor):
        return repr(r)
    r = r.detach()
    return dict(dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape),
                values=r.double().reshape(-1).tolist() if r.is_floating_point() else r.reshape(-1).tolist(),
                bits=bits(r))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def env_for(dt):
    return dict(torch=torch, F=F, X=X, P=P, D=dt, rm=torch.zeros(3, dtype=dt), rv=torch.ones(3, dtype=dt),
                rm2=X([2], dt, 4), rv2=P(2, dt, 5))


def record():
    cases = []
    for cid, expr, after in VALUE:
        for dt in DT:
            env = env_for(getattr(torch, dt))
            c = dict(id=f"{cid}/{dt}", expr=expr, dtype=dt, after=after)
            try:
                r = eval(expr, env)
                c["result"] = [describe(r)] + [describe(env[n]) for n in after.split()]
            except Exception as ex:  # noqa: BLE001 - recorded as it is
                c["error"] = [type(ex).__name__, str(ex)]
            cases.append(c)
    for cid, expr in RANDOM:
        for dt in DT:
            torch.manual_seed(7)
            c = dict(id=f"random/{cid}/{dt}", random=expr, dtype=dt)
            try:
                c["result"] = describe(eval(expr, env_for(getattr(torch, dt))))
            except Exception as ex:  # noqa: BLE001
                c["error"] = [type(ex).__name__, str(ex)]
            cases.append(c)
    for cid, expr in ERRORS:
        c = dict(id=f"error/{cid}", expr=expr, dtype="float32", after="")
        try:
            eval(expr, env_for(torch.float32))
            c["result"] = "no error"
        except Exception as ex:  # noqa: BLE001
            c["error"] = [type(ex).__name__, str(ex)]
        cases.append(c)
    for cid, expr, shape, nc in GRAD:
        for dt in ["float32", "float64"]:
            d = getattr(torch, dt)
            x = X(shape, d).requires_grad_()
            w = P(nc, d).requires_grad_() if nc else None
            b = X([nc], d, 3).requires_grad_() if nc else None
            y = eval(expr, dict(env_for(d), x=x, w=w, b=b))
            g = X(list(y.shape), d, 5)
            y.backward(g)
            grads = [describe(t.grad) for t in (x, w, b) if t is not None]
            cases.append(dict(id=f"grad/{cid}/{dt}", grad=expr, shape=shape, nc=nc, dtype=dt,
                              result=dict(grad_fn=type(y.grad_fn).__name__, grads=grads)))
    for cid, stmt in LOGS:
        torch.manual_seed(0)
        shape = [4, 3, 5]
        a = X(shape).requires_grad_("bw" in cid)
        w, b = P(3).requires_grad_("bw" in cid), X([3], k=1).requires_grad_("bw" in cid)
        env = dict(env_for(torch.float32), a=a, w=w, b=b, bn=torch.nn.BatchNorm1d(3),
                   bn_cma=torch.nn.BatchNorm1d(3, momentum=None), gn=torch.nn.GroupNorm(3, 3))
        with Log() as m:
            exec(stmt, env)
        cases.append(dict(id=f"log/{cid}", log=stmt, shape=shape, result=m.ops))
    for cid, stmts, names in MODULES:
        env = env_for(torch.float32)
        exec(stmts, env)
        cases.append(dict(id=f"module/{cid}", module=stmts, names=names,
                          result=[describe(eval(n, env)) for n in names.split()]))
    for expr in MODULE_REPRS:
        cases.append(dict(id=f"repr/{expr}", repr=expr, result=repr(eval(expr, env_for(torch.float32)))))
    return cases


LEVELS = ["avx2", "default"]  # besides the CPU's own level (AVX512 where it has it)

if sys.argv[1] == "--level":  # one level's cases, as JSON on stdout (run by the main run below)
    if len(sys.argv) > 3:
        torch.set_num_threads(int(sys.argv[3]))
    json.dump(record(), sys.stdout)
    sys.exit(0)
cases = record()
native = torch.backends.cpu.get_cpu_capability()
# each level again, and each level on one thread: batch norm's training backward splits its sums by
# thread, so its float results depend on the count (stored as result[_LEVEL]_t1 where they differ)
for level in [native.lower()] + LEVELS:
    for threads in ([None, 1] if level != native.lower() else [1]):
        if level.upper() == native and threads is None:
            continue
        argv = [sys.executable, __file__, "--level", level] + ([str(threads)] if threads else [])
        run = subprocess.run(argv, env=dict(os.environ, ATEN_CPU_CAPABILITY=level), capture_output=True, text=True, check=True)
        other = {c["id"]: c for c in json.loads(run.stdout)}
        key = "result" + ("" if level.upper() == native else "_" + level.upper()) + ("_t1" if threads else "")
        base = "result" + ("" if level.upper() == native else "_" + level.upper())
        for c in cases:
            o = other.get(c["id"])
            if o is not None and o.get("result") != c.get(base, c.get("result")):
                c[key] = o.get("result")
with open(sys.argv[1], "w") as f:
    json.dump(dict(torch=torch.__version__, capability=native, cases=cases), f, indent=0)
print(len(cases), "cases;", {k: sum(1 for c in cases if k in c) for k in sorted({k for c in cases for k in c if k.startswith("result_")})},
      "differ by level or thread count")
