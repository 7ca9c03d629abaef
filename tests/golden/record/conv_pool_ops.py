"""Records the convolution and pooling family's test table under PyTorch 2.6, for
tests/python/conv_pool_ops.py to replay through ctorch: conv1d/2d/3d (numeric and "same"/"valid"
padding, stride, dilation, groups, bias, unbatched input), conv_transpose1d/2d/3d, torch.convolution,
max_pool1d/2d/3d (with and without indices, ceil_mode, dilation, padding), avg_pool1d/2d/3d
(ceil_mode, count_include_pad, divisor_override), adaptive_avg_pool1d/2d/3d, adaptive_max_pool2d,
F.unfold and F.fold; the modules Conv1d/2d/3d, MaxPool2d, AvgPool2d and AdaptiveAvgPool2d.

Usage (under real PyTorch 2.6; the reference tool runs it):
    the reference tool: tests/golden/record/conv_pool_ops.py tests/golden/torch-2.6/conv_pool_ops.json

Each case is a Python expression over `torch`, `F` (torch.nn.functional) and `X(shape, dtype)` (small
values, -1.5 .. 1.5 in steps of 0.5 for the floating types, -3 .. 3 for the signed integers, 0 .. 6
for uint8), evaluated as written by the recorder and by the replay:
  value cases   the result's values, dtype and shape, for every dtype ctorch has (or PyTorch's error)
  grad cases    float32 and float64: the grad_fn's name and the gradient of every input for a fixed
                cotangent
  log cases     the operators a dispatch mode sees (the composite ones show their decomposition),
                with the input requiring grad or not
  errors        the exception's type and message
Output: JSON {"torch": version, "cases": [{"id", "expr" | "grad" | "log", "result" | "error"}]}."""
import json
import sys

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

DT = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    t = (torch.arange(n, dtype=torch.float64) * 5 % 7 - 3).reshape(shape)
    if dtype == torch.bool:
        return t > 0
    if dtype == torch.uint8:
        return (t + 3).to(dtype)
    if dtype.is_floating_point:
        return (t * 0.5).to(dtype)
    return t.to(dtype)


VALUE = [
    ("conv2d", "F.conv2d(X([2, 2, 5, 5], D), X([3, 2, 3, 3], D))"),
    ("conv2d_bias", "F.conv2d(X([1, 2, 5, 4], D), X([3, 2, 2, 3], D), X([3], D), padding=1)"),
    ("conv2d_stride", "F.conv2d(X([2, 2, 7, 6], D), X([2, 2, 3, 3], D), stride=(2, 3))"),
    ("conv2d_dilation", "F.conv2d(X([1, 2, 7, 7], D), X([2, 2, 3, 2], D), dilation=2, padding=(2, 1))"),
    ("conv2d_groups", "F.conv2d(X([2, 4, 4, 4], D), X([6, 2, 2, 2], D), groups=2)"),
    ("conv2d_depthwise", "F.conv2d(X([1, 3, 4, 5], D), X([3, 1, 3, 3], D), groups=3, padding=1)"),
    ("conv2d_1x1", "F.conv2d(X([2, 3, 3, 4], D), X([4, 3, 1, 1], D), X([4], D))"),
    ("conv2d_unbatched", "F.conv2d(X([2, 4, 4], D), X([3, 2, 3, 3], D))"),
    ("conv2d_t", "F.conv2d(X([2, 5, 5, 2], D).permute(0, 3, 1, 2), X([3, 2, 3, 3], D))"),
    ("conv2d_same", "F.conv2d(X([1, 2, 5, 5], D), X([2, 2, 3, 3], D), padding='same')"),
    ("conv2d_same_dil", "F.conv2d(X([1, 2, 6, 5], D), X([2, 2, 3, 3], D), padding='same', dilation=2)"),
    ("conv2d_valid", "F.conv2d(X([1, 2, 5, 5], D), X([2, 2, 3, 3], D), padding='valid')"),
    ("conv1d", "F.conv1d(X([2, 3, 9], D), X([4, 3, 3], D), X([4], D), stride=2, padding=1)"),
    ("conv1d_dilation", "F.conv1d(X([1, 2, 9], D), X([2, 2, 3], D), dilation=3)"),
    ("conv1d_unbatched", "F.conv1d(X([2, 6], D), X([3, 2, 2], D))"),
    ("conv1d_same", "F.conv1d(X([1, 2, 6], D), X([2, 2, 5], D), padding='same')"),
    ("conv3d", "F.conv3d(X([1, 2, 4, 4, 3], D), X([2, 2, 2, 3, 2], D), X([2], D), padding=(1, 0, 1))"),
    ("conv3d_stride", "F.conv3d(X([2, 1, 5, 5, 5], D), X([2, 1, 3, 3, 3], D), stride=2)"),
    ("conv3d_dilation", "F.conv3d(X([1, 1, 5, 5, 5], D), X([1, 1, 2, 2, 2], D), dilation=2)"),
    ("conv_transpose1d", "F.conv_transpose1d(X([2, 2, 5], D), X([2, 3, 3], D))"),
    ("conv_transpose1d_stride", "F.conv_transpose1d(X([1, 2, 4], D), X([2, 2, 3], D), X([2], D), stride=2, padding=1, output_padding=1)"),
    ("conv_transpose2d", "F.conv_transpose2d(X([1, 2, 3, 3], D), X([2, 3, 2, 2], D))"),
    ("conv_transpose2d_stride", "F.conv_transpose2d(X([2, 2, 3, 4], D), X([2, 2, 3, 3], D), X([2], D), stride=2, padding=1)"),
    ("conv_transpose2d_groups", "F.conv_transpose2d(X([1, 4, 3, 3], D), X([4, 1, 2, 2], D), groups=2)"),
    ("conv_transpose2d_dilation", "F.conv_transpose2d(X([1, 1, 3, 3], D), X([1, 2, 2, 2], D), dilation=2)"),
    ("conv_transpose2d_unbatched", "F.conv_transpose2d(X([2, 3, 3], D), X([2, 1, 2, 2], D))"),
    ("conv_transpose3d", "F.conv_transpose3d(X([1, 2, 2, 3, 2], D), X([2, 1, 2, 2, 2], D), stride=(1, 2, 1))"),
    ("convolution", "torch.convolution(X([1, 2, 4, 4], D), X([2, 2, 2, 2], D), None, [1], [1], [1], False, [0], 1)"),
    ("convolution_t", "torch.convolution(X([1, 2, 3], D), X([2, 2, 2], D), None, [2], [0], [1], True, [1], 1)"),
    ("max_pool2d", "F.max_pool2d(X([2, 2, 5, 5], D), 2)"),
    ("max_pool2d_stride", "F.max_pool2d(X([1, 2, 6, 7], D), (3, 2), stride=(2, 1), padding=1)"),
    ("max_pool2d_ceil", "F.max_pool2d(X([1, 1, 5, 5], D), 2, ceil_mode=True)"),
    ("max_pool2d_dilation", "F.max_pool2d(X([1, 2, 7, 7], D), 3, stride=2, dilation=2, padding=1)"),
    ("max_pool2d_unbatched", "F.max_pool2d(X([2, 4, 4], D), 2, stride=1)"),
    ("max_pool2d_indices", "F.max_pool2d(X([1, 2, 5, 4], D), 3, stride=1, padding=1, return_indices=True)"),
    ("max_pool2d_t", "F.max_pool2d(X([4, 5, 2], D).permute(2, 0, 1), 2, return_indices=True)"),
    ("max_pool1d", "F.max_pool1d(X([2, 3, 7], D), 3, stride=2, padding=1)"),
    ("max_pool1d_indices", "F.max_pool1d(X([1, 2, 7], D), 2, ceil_mode=True, return_indices=True)"),
    ("max_pool1d_unbatched", "F.max_pool1d(X([2, 6], D), 2)"),
    ("max_pool3d", "F.max_pool3d(X([1, 2, 4, 4, 4], D), 2)"),
    ("max_pool3d_indices", "F.max_pool3d(X([2, 3, 4, 5], D), (2, 3, 2), stride=1, padding=1, return_indices=True)"),
    ("max_pool3d_ceil", "F.max_pool3d(X([1, 1, 5, 5, 3], D), 2, ceil_mode=True, dilation=(1, 2, 1))"),
    ("avg_pool2d", "F.avg_pool2d(X([2, 2, 5, 5], D), 2)"),
    ("avg_pool2d_pad", "F.avg_pool2d(X([1, 2, 5, 4], D), 3, stride=2, padding=1)"),
    ("avg_pool2d_nopad", "F.avg_pool2d(X([1, 2, 5, 4], D), 3, stride=2, padding=1, count_include_pad=False)"),
    ("avg_pool2d_ceil", "F.avg_pool2d(X([1, 1, 5, 5], D), 2, ceil_mode=True)"),
    ("avg_pool2d_divisor", "F.avg_pool2d(X([1, 2, 4, 4], D), 2, divisor_override=3)"),
    ("avg_pool2d_unbatched", "F.avg_pool2d(X([2, 4, 6], D), (2, 3))"),
    ("avg_pool1d", "F.avg_pool1d(X([2, 3, 7], D), 3, stride=2, padding=1)"),
    ("avg_pool1d_ceil", "F.avg_pool1d(X([1, 2, 7], D), 2, ceil_mode=True, count_include_pad=False)"),
    ("avg_pool3d", "F.avg_pool3d(X([1, 2, 4, 4, 4], D), 2)"),
    ("avg_pool3d_pad", "F.avg_pool3d(X([2, 3, 4, 5], D), 3, stride=2, padding=1, count_include_pad=False)"),
    ("avg_pool3d_divisor", "F.avg_pool3d(X([1, 1, 4, 4, 2], D), 2, divisor_override=5)"),
    ("adaptive_avg_pool2d", "F.adaptive_avg_pool2d(X([2, 2, 5, 7], D), (3, 4))"),
    ("adaptive_avg_pool2d_int", "F.adaptive_avg_pool2d(X([1, 2, 6, 6], D), 4)"),
    ("adaptive_avg_pool2d_none", "F.adaptive_avg_pool2d(X([1, 2, 5, 6], D), (None, 2))"),
    ("adaptive_avg_pool2d_1", "F.adaptive_avg_pool2d(X([2, 3, 4, 5], D), 1)"),
    ("adaptive_avg_pool2d_unbatched", "F.adaptive_avg_pool2d(X([2, 5, 5], D), (2, 3))"),
    ("adaptive_avg_pool1d", "F.adaptive_avg_pool1d(X([2, 3, 7], D), 3)"),
    ("adaptive_avg_pool3d", "F.adaptive_avg_pool3d(X([1, 2, 4, 5, 3], D), (2, 3, 2))"),
    ("adaptive_avg_pool3d_1", "F.adaptive_avg_pool3d(X([2, 3, 2, 2], D), 1)"),
    ("adaptive_max_pool2d", "F.adaptive_max_pool2d(X([2, 2, 5, 7], D), (3, 4), return_indices=True)"),
    ("adaptive_max_pool2d_values", "F.adaptive_max_pool2d(X([2, 5, 5], D), 2)"),
    ("unfold", "F.unfold(X([2, 2, 4, 5], D), (2, 3))"),
    ("unfold_params", "F.unfold(X([1, 2, 5, 5], D), 3, dilation=(1, 2), padding=1, stride=2)"),
    ("unfold_unbatched", "F.unfold(X([2, 3, 3], D), 2)"),
    ("fold", "F.fold(X([1, 8, 9], D), (4, 4), 2)"),
    ("fold_params", "F.fold(X([2, 4, 6], D), (3, 5), (2, 1), dilation=(1, 2), padding=(0, 1), stride=(1, 2))"),
    ("fold_unbatched", "F.fold(X([4, 4], D), (3, 3), 2)"),
]
ERRORS = [
    ("conv_weight_dim", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3]))"),
    ("conv_input_dim", "F.conv2d(X([2, 5]), X([3, 2, 3, 3]))"),
    ("conv_input_dim5", "F.conv2d(X([1, 1, 2, 5, 5]), X([3, 2, 3, 3]))"),
    ("conv1d_input_dim", "F.conv1d(X([5]), X([1, 1, 2]))"),
    ("conv3d_input_dim", "F.conv3d(X([5, 5]), X([1, 1, 2, 2, 2]))"),
    ("conv_transpose1d_input_dim", "F.conv_transpose1d(X([5]), X([1, 1, 2]))"),
    ("conv_transpose2d_input_dim", "F.conv_transpose2d(X([5]), X([1, 1, 2, 2]))"),
    ("conv_channels", "F.conv2d(X([1, 3, 5, 5]), X([3, 2, 3, 3]))"),
    ("conv_groups_big", "F.conv2d(X([1, 4, 5, 5]), X([2, 1, 3, 3]), groups=4)"),
    ("conv_groups_div", "F.conv2d(X([1, 4, 5, 5]), X([3, 2, 3, 3]), groups=2)"),
    ("conv_groups_zero", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), groups=0)"),
    ("conv_kernel_big", "F.conv2d(X([1, 2, 2, 2]), X([3, 2, 3, 3]))"),
    ("conv_kernel_big_pad", "F.conv2d(X([1, 2, 2, 2]), X([3, 2, 3, 3]), padding=(0, 1))"),
    ("conv_kernel_big_dil", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), dilation=3)"),
    ("conv1d_kernel_big", "F.conv1d(X([1, 2, 2]), X([3, 2, 3]))"),
    ("conv_bias_shape", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), X([4]))"),
    ("conv_bias_dtype", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), X([3], torch.float64))"),
    ("conv_weight_dtype", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3], torch.float64))"),
    ("conv_input_dtype", "F.conv2d(X([1, 2, 5, 5], torch.float64), X([3, 2, 3, 3]))"),
    ("conv_neg_padding", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), padding=-1)"),
    ("conv_neg_stride", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), stride=-1)"),
    ("conv_zero_stride", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), stride=0)"),
    ("conv_neg_dilation", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), dilation=-1)"),
    ("adaptive_max_pool2d_len", "torch._C._nn.adaptive_max_pool2d(X([1, 1, 5, 5]), [2, 2, 2])"),
    ("conv_zero_dilation", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), dilation=0)"),
    ("conv_stride_len", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), stride=(1, 1, 1))"),
    ("convolution_padding_len", "torch.convolution(X([1, 2, 5, 5]), X([3, 2, 3, 3]), None, [1], [0, 0, 0], [1], False, [0], 1)"),
    ("convolution_weight_2d", "torch.convolution(X([5, 5]), X([3, 3]), None, [1], [0], [1], False, [0], 1)"),
    ("convolution_input_dim", "torch.convolution(X([2, 5, 5]), X([3, 2, 3, 3]), None, [1], [0], [1], False, [0], 1)"),
    ("conv_same_strided", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), padding='same', stride=2)"),
    ("conv_bad_padding_string", "F.conv2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]), padding='full')"),
    ("conv_transpose_channels", "F.conv_transpose2d(X([1, 2, 5, 5]), X([3, 2, 3, 3]))"),
    ("conv_transpose_bias", "F.conv_transpose2d(X([1, 3, 5, 5]), X([3, 2, 3, 3]), X([3]))"),
    ("conv_transpose_neg_output_padding", "F.conv_transpose2d(X([1, 3, 5, 5]), X([3, 2, 3, 3]), output_padding=-1)"),
    ("conv_transpose_too_small", "F.conv_transpose2d(X([1, 3, 2, 2]), X([3, 2, 3, 3]), padding=3)"),
    ("conv2d_bool", "F.conv2d(X([1, 2, 4, 4], torch.bool), X([3, 2, 2, 2], torch.bool))"),
    ("conv3d_bool", "F.conv3d(X([1, 2, 3, 3, 3], torch.bool), X([3, 2, 2, 2, 2], torch.bool))"),
    ("conv2d_int32_dilated", "F.conv2d(X([1, 2, 5, 5], torch.int32), X([3, 2, 2, 2], torch.int32), dilation=2)"),
    ("conv_transpose2d_int32", "F.conv_transpose2d(X([1, 2, 4, 4], torch.int32), X([2, 3, 2, 2], torch.int32))"),
    ("conv_transpose1d_uint8", "F.conv_transpose1d(X([1, 2, 4], torch.uint8), X([2, 3, 2], torch.uint8))"),
    ("max_pool2d_dim", "F.max_pool2d(X([5, 5]), 2)"),
    ("max_pool2d_kernel_len", "torch.max_pool2d(X([1, 1, 5, 5]), (2, 2, 2))"),
    ("max_pool2d_stride_len", "torch.max_pool2d(X([1, 1, 5, 5]), 2, (1, 1, 1))"),
    ("max_pool2d_pad_big", "F.max_pool2d(X([1, 1, 5, 5]), 2, padding=2)"),
    ("max_pool2d_pad_neg", "F.max_pool2d(X([1, 1, 5, 5]), 2, padding=-1)"),
    ("max_pool2d_stride_zero", "F.max_pool2d(X([1, 1, 5, 5]), 2, stride=0)"),
    ("max_pool2d_kernel_zero", "F.max_pool2d(X([1, 1, 5, 5]), 0)"),
    ("max_pool2d_dilation_zero", "F.max_pool2d(X([1, 1, 5, 5]), 2, dilation=0)"),
    ("max_pool2d_too_small", "F.max_pool2d(X([1, 1, 2, 2]), 3)"),
    ("max_pool2d_bool", "F.max_pool2d(X([1, 1, 4, 4], torch.bool), 2)"),
    ("max_pool2d_empty", "F.max_pool2d(X([1, 0, 4, 4]), 2)"),
    ("max_pool1d_dim", "F.max_pool1d(X([5]), 2)"),
    ("max_pool1d_pad_big", "F.max_pool1d(X([1, 1, 5]), 2, padding=2)"),
    ("max_pool1d_int", "F.max_pool1d(X([1, 2, 4], torch.int64), 2)"),
    ("max_pool1d_indices_int", "F.max_pool1d(X([1, 2, 4], torch.int64), 2, return_indices=True)"),
    ("max_pool3d_dim", "F.max_pool3d(X([4, 4, 4]), 2)"),
    ("max_pool3d_too_small", "F.max_pool3d(X([1, 1, 2, 2, 2]), 3)"),
    ("max_pool3d_pad_big", "F.max_pool3d(X([1, 1, 4, 4, 4]), 2, padding=2)"),
    ("max_pool3d_bool", "F.max_pool3d(X([1, 1, 4, 4, 4], torch.bool), 2)"),
    ("avg_pool2d_dim", "F.avg_pool2d(X([5, 5]), 2)"),
    ("avg_pool2d_kernel_len", "F.avg_pool2d(X([1, 1, 5, 5]), (2, 2, 2))"),
    ("avg_pool2d_pad_big", "F.avg_pool2d(X([1, 1, 5, 5]), 2, padding=2)"),
    ("avg_pool2d_divisor_zero", "F.avg_pool2d(X([1, 1, 5, 5]), 2, divisor_override=0)"),
    ("avg_pool2d_too_small", "F.avg_pool2d(X([1, 1, 2, 2]), 3)"),
    ("avg_pool2d_int32", "F.avg_pool2d(X([1, 1, 4, 4], torch.int32), 2)"),
    ("avg_pool1d_dim", "F.avg_pool1d(X([5]), 2)"),
    ("avg_pool3d_dim", "F.avg_pool3d(X([4, 4]), 2)"),
    ("avg_pool3d_too_small", "F.avg_pool3d(X([1, 1, 2, 2, 2]), 3)"),
    ("avg_pool3d_half", "F.avg_pool3d(X([1, 1, 4, 4, 4], torch.float16), 2)"),
    ("adaptive_avg_pool2d_dim", "F.adaptive_avg_pool2d(X([5, 5]), 2)"),
    ("adaptive_avg_pool2d_len", "torch._C._nn.adaptive_avg_pool2d(X([1, 1, 5, 5]), [2, 2, 2])"),
    ("adaptive_avg_pool2d_neg", "F.adaptive_avg_pool2d(X([1, 1, 5, 5]), (-1, 2))"),
    ("adaptive_avg_pool2d_empty", "F.adaptive_avg_pool2d(X([1, 1, 0, 5]), 2)"),
    ("adaptive_avg_pool2d_int", "F.adaptive_avg_pool2d(X([1, 1, 4, 4], torch.int64), 2)"),
    ("adaptive_avg_pool1d_dim", "F.adaptive_avg_pool1d(X([5]), 2)"),
    ("adaptive_avg_pool1d_len", "torch.adaptive_avg_pool1d(X([1, 2, 5]), [2, 2])"),
    ("adaptive_avg_pool3d_dim", "F.adaptive_avg_pool3d(X([5, 5, 5]), 2)"),
    ("adaptive_max_pool2d_dim", "F.adaptive_max_pool2d(X([5, 5]), 2)"),
    ("unfold_dim", "F.unfold(X([5, 5]), 2)"),
    ("unfold_too_big", "F.unfold(X([1, 1, 3, 3]), 4)"),
    ("unfold_kernel_zero", "F.unfold(X([1, 1, 3, 3]), 0)"),
    ("unfold_neg_padding", "F.unfold(X([1, 1, 3, 3]), 2, padding=-1)"),
    ("unfold_int", "F.unfold(X([1, 1, 3, 3], torch.int64), 2)"),
    ("fold_dim", "F.fold(X([2, 2, 4, 4]), (3, 3), 2)"),
    ("fold_divisible", "F.fold(X([1, 7, 4]), (3, 3), 2)"),
    ("fold_blocks", "F.fold(X([1, 8, 5]), (3, 3), 2)"),
    ("fold_int", "F.fold(X([1, 8, 4], torch.int64), (3, 3), 2)"),
    ("convolution_mode_stride_len", "torch._convolution_mode(X([1, 2, 5, 5]), X([3, 2, 3, 3]), None, [1, 1, 1], 'same', [1], 1)"),
    ("convolution_mode_dilation_len", "torch._convolution_mode(X([1, 2, 5, 5]), X([3, 2, 3, 3]), None, [1], 'same', [1, 1, 1], 1)"),
    ("max_pool1d_kernel_len", "torch.max_pool1d(X([1, 2, 5]), [2, 2])"),
    ("max_pool1d_stride_len", "torch.max_pool1d(X([1, 2, 5]), [2], [1, 1])"),
    ("max_pool1d_padding_len", "torch.max_pool1d(X([1, 2, 5]), [2], [1], [0, 0])"),
    ("max_pool1d_dilation_len", "torch.max_pool1d(X([1, 2, 5]), [2], [1], [0], [1, 1])"),
    ("max_pool1d_kernel_zero", "F.max_pool1d(X([1, 2, 5]), 0)"),
    ("max_pool1d_stride_zero", "F.max_pool1d(X([1, 2, 5]), 2, stride=0)"),
    ("max_pool1d_padding_neg", "F.max_pool1d(X([1, 2, 5]), 2, padding=-1)"),
    ("max_pool1d_dilation_zero", "F.max_pool1d(X([1, 2, 5]), 2, dilation=0)"),
    ("max_pool1d_output_size", "F.max_pool1d(X([1, 1, 2]), 2, dilation=2)"),
    ("adaptive_avg_pool3d_neg", "F.adaptive_avg_pool3d(X([1, 1, 4, 4, 4]), (-1, 2, 2))"),
    ("im2col_kernel_len", "torch._C._nn.im2col(X([1, 1, 3, 3]), [2], [1, 1], [0, 0], [1, 1])"),
    ("unfold_dilation_zero", "F.unfold(X([1, 1, 3, 3]), 2, dilation=0)"),
    ("unfold_stride_zero", "F.unfold(X([1, 1, 3, 3]), 2, stride=0)"),
    ("unfold_empty_channels", "F.unfold(X([1, 0, 3, 3]), 2)"),
    ("col2im_output_len", "torch._C._nn.col2im(X([1, 8, 4]), [3], [2, 2], [1, 1], [0, 0], [1, 1])"),
    ("fold_too_small", "F.fold(X([1, 9, 1]), (1, 1), 3)"),
    ("fold_output_negative", "F.fold(X([1, 1, 1]), (-1, -1), 1, padding=1)"),
    ("fold_stride_zero", "F.fold(X([1, 8, 4]), (3, 3), 2, stride=0)"),
    ("fold_dilation_zero", "F.fold(X([1, 8, 4]), (3, 3), 2, dilation=0)"),
    ("max_pool2d_padding_len", "torch.max_pool2d(X([1, 1, 5, 5]), 2, [], [0, 0, 0])"),
    ("max_pool2d_dilation_len", "torch.max_pool2d(X([1, 1, 5, 5]), 2, [], 0, [1, 1, 1])"),
    ("max_pool2d_kernel_zero_strided", "F.max_pool2d(X([1, 1, 5, 5]), 0, stride=1)"),
    ("max_pool2d_stride_neg", "F.max_pool2d(X([1, 1, 5, 5]), 2, stride=-1)"),
    ("max_pool2d_pad_dilated", "F.max_pool2d(X([1, 1, 9, 9]), 3, dilation=2, padding=2)"),
    ("max_pool3d_kernel_zero_strided", "F.max_pool3d(X([1, 1, 4, 4, 4]), 0, stride=1)"),
    ("max_pool3d_stride_neg", "F.max_pool3d(X([1, 1, 4, 4, 4]), 2, stride=-1)"),
    ("max_pool3d_dilation_zero", "F.max_pool3d(X([1, 1, 4, 4, 4]), 2, dilation=0)"),
    ("max_pool3d_empty", "F.max_pool3d(X([1, 0, 4, 4, 4]), 2)"),
    ("max_pool3d_pad_dilated", "F.max_pool3d(X([1, 1, 9, 9, 9]), 3, dilation=2, padding=2)"),
    ("avg_pool2d_stride_len", "F.avg_pool2d(X([1, 1, 5, 5]), 2, (1, 1, 1))"),
    ("avg_pool2d_padding_len", "F.avg_pool2d(X([1, 1, 5, 5]), 2, 1, (0, 0, 0))"),
    ("avg_pool3d_kernel_len", "F.avg_pool3d(X([1, 1, 4, 4, 4]), (2, 2))"),
    ("avg_pool3d_stride_len", "F.avg_pool3d(X([1, 1, 4, 4, 4]), 2, (1, 1))"),
    ("avg_pool3d_padding_len", "F.avg_pool3d(X([1, 1, 4, 4, 4]), 2, 1, (0, 0))"),
]
MODULES = [  # torch.nn's modules: parameters drawn from a seeded generator, as PyTorch's reset_parameters draws them
    ("conv2d", "(torch.manual_seed(0), torch.nn.Conv2d(2, 3, 3, padding=1))[1].weight"),
    ("conv2d_bias", "(torch.manual_seed(1), torch.nn.Conv2d(4, 2, (2, 3), groups=2))[1].bias"),
    ("conv2d_forward", "(torch.manual_seed(2), torch.nn.Conv2d(2, 3, 2, stride=2))[1](X([1, 2, 4, 4]))"),
    ("conv1d_forward", "(torch.manual_seed(3), torch.nn.Conv1d(2, 2, 3, padding='same', bias=False))[1](X([2, 2, 5]))"),
    ("conv3d_forward", "(torch.manual_seed(4), torch.nn.Conv3d(1, 2, 2))[1](X([1, 1, 3, 3, 3]))"),
    ("max_pool2d", "torch.nn.MaxPool2d(2, stride=1, padding=1)(X([1, 2, 3, 3]))"),
    ("avg_pool2d", "torch.nn.AvgPool2d(2, ceil_mode=True, count_include_pad=False)(X([1, 2, 3, 5]))"),
    ("adaptive_avg_pool2d", "torch.nn.AdaptiveAvgPool2d((2, None))(X([1, 2, 5, 3]))"),
    ("repr", "[repr(m) for m in (torch.nn.Conv2d(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, bias=False), torch.nn.Conv1d(1, 1, 2), torch.nn.MaxPool2d(3), torch.nn.AvgPool2d(2, 1), torch.nn.AdaptiveAvgPool2d(1))]"),
]
GRAD = [  # (id, expression over x, w, b, shapes of x, w, b (None: no such input))
    ("conv2d", "F.conv2d(x, w, b, stride=2, padding=1)", [2, 2, 5, 5], [3, 2, 3, 3], [3]),
    ("conv2d_groups", "F.conv2d(x, w, None, groups=2, dilation=(1, 2))", [1, 4, 4, 6], [4, 2, 2, 2], None),
    ("conv2d_unbatched", "F.conv2d(x, w, b)", [2, 4, 4], [3, 2, 2, 2], [3]),
    ("conv1d", "F.conv1d(x, w, b, padding=2, dilation=2)", [2, 2, 7], [3, 2, 3], [3]),
    ("conv3d", "F.conv3d(x, w, None, stride=(1, 2, 1))", [1, 2, 3, 4, 3], [2, 2, 2, 2, 2], None),
    ("conv_transpose2d", "F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)", [1, 2, 3, 3], [2, 3, 3, 3], [3]),
    ("conv_transpose1d_groups", "F.conv_transpose1d(x, w, None, groups=2)", [2, 4, 5], [4, 1, 3], None),
    ("max_pool2d", "F.max_pool2d(x, 3, stride=2, padding=1)", [2, 2, 5, 5], None, None),
    ("max_pool2d_dilation", "F.max_pool2d(x, 2, stride=1, dilation=2, ceil_mode=True)", [1, 2, 5, 4], None, None),
    ("max_pool2d_indices", "F.max_pool2d(x, 2, return_indices=True)[0]", [1, 2, 4, 4], None, None),
    ("max_pool1d", "F.max_pool1d(x, 3, stride=2)", [2, 2, 7], None, None),
    ("max_pool3d", "F.max_pool3d(x, 2, stride=1)", [1, 2, 3, 3, 3], None, None),
    ("avg_pool2d", "F.avg_pool2d(x, 3, stride=2, padding=1)", [2, 2, 5, 5], None, None),
    ("avg_pool2d_nopad", "F.avg_pool2d(x, 2, padding=1, count_include_pad=False, ceil_mode=True)", [1, 2, 5, 4], None, None),
    ("avg_pool2d_divisor", "F.avg_pool2d(x, 2, divisor_override=3)", [1, 1, 4, 4], None, None),
    ("avg_pool1d", "F.avg_pool1d(x, 3, stride=2, padding=1)", [2, 2, 7], None, None),
    ("avg_pool3d", "F.avg_pool3d(x, 2, stride=1, padding=1)", [1, 2, 3, 3, 3], None, None),
    ("adaptive_avg_pool2d", "F.adaptive_avg_pool2d(x, (3, 2))", [2, 2, 5, 5], None, None),
    ("adaptive_avg_pool2d_1", "F.adaptive_avg_pool2d(x, 1)", [2, 2, 3, 3], None, None),
    ("adaptive_avg_pool1d", "F.adaptive_avg_pool1d(x, 4)", [2, 2, 7], None, None),
    ("adaptive_avg_pool3d", "F.adaptive_avg_pool3d(x, (2, 1, 3))", [1, 2, 3, 3, 4], None, None),
    ("adaptive_max_pool2d", "F.adaptive_max_pool2d(x, (2, 3))", [2, 2, 5, 5], None, None),
    ("unfold", "F.unfold(x, 2, padding=1, stride=(1, 2))", [1, 2, 4, 5], None, None),
    ("fold", "F.fold(x, (4, 4), 2)", [1, 8, 9], None, None),
]
LOGS = [  # (id, expression over a and b, shape of a, shape of b, whether a requires grad)
    ("conv2d", "F.conv2d(a, b)", [1, 2, 5, 5], [3, 2, 3, 3], False),
    ("conv2d_grad", "F.conv2d(a, b)", [1, 2, 5, 5], [3, 2, 3, 3], True),
    ("conv2d_unbatched", "F.conv2d(a, b, padding=1)", [2, 5, 5], [3, 2, 3, 3], False),
    ("conv2d_same", "F.conv2d(a, b, padding='same')", [1, 2, 5, 5], [3, 2, 3, 3], False),
    ("conv2d_valid", "F.conv2d(a, b, padding='valid')", [2, 5, 5], [3, 2, 3, 3], False),
    ("conv1d", "F.conv1d(a, b)", [1, 2, 5], [3, 2, 3], False),
    ("conv1d_unbatched", "F.conv1d(a, b)", [2, 5], [3, 2, 3], False),
    ("conv3d", "F.conv3d(a, b)", [1, 2, 3, 3, 3], [3, 2, 2, 2, 2], False),
    ("conv_transpose1d", "F.conv_transpose1d(a, b)", [1, 3, 5], [3, 2, 3], False),
    ("conv_transpose2d", "F.conv_transpose2d(a, b)", [1, 3, 5, 5], [3, 2, 3, 3], False),
    ("conv_transpose2d_unbatched", "F.conv_transpose2d(a, b)", [3, 5, 5], [3, 2, 3, 3], False),
    ("conv2d_backward", "F.conv2d(a, b).sum().backward()", [1, 2, 5, 5], [3, 2, 3, 3], True),
    ("max_pool2d", "F.max_pool2d(a, 2)", [1, 2, 5, 5], [1], False),
    ("max_pool2d_grad", "F.max_pool2d(a, 2)", [1, 2, 5, 5], [1], True),
    ("max_pool2d_unbatched", "F.max_pool2d(a, 2)", [2, 5, 5], [1], False),
    ("max_pool2d_indices", "F.max_pool2d(a, 2, return_indices=True)", [1, 2, 5, 5], [1], False),
    ("max_pool2d_backward", "F.max_pool2d(a, 2).sum().backward()", [1, 2, 4, 4], [1], True),
    ("max_pool1d", "F.max_pool1d(a, 2)", [1, 2, 5], [1], False),
    ("max_pool1d_grad", "F.max_pool1d(a, 2)", [1, 2, 5], [1], True),
    ("max_pool1d_indices", "F.max_pool1d(a, 2, return_indices=True)", [2, 5], [1], False),
    ("max_pool3d", "F.max_pool3d(a, 2)", [1, 2, 4, 4, 4], [1], False),
    ("max_pool3d_unbatched", "F.max_pool3d(a, 2)", [2, 4, 4, 4], [1], False),
    ("avg_pool1d", "F.avg_pool1d(a, 2)", [1, 2, 5], [1], False),
    ("avg_pool2d", "F.avg_pool2d(a, 2)", [1, 2, 5, 5], [1], False),
    ("avg_pool2d_backward", "F.avg_pool2d(a, 2).sum().backward()", [1, 2, 4, 4], [1], True),
    ("avg_pool3d", "F.avg_pool3d(a, 2)", [2, 4, 4, 4], [1], False),
    ("adaptive_avg_pool1d", "F.adaptive_avg_pool1d(a, 3)", [1, 2, 7], [1], False),
    ("adaptive_avg_pool2d", "F.adaptive_avg_pool2d(a, 3)", [1, 2, 5, 5], [1], False),
    ("adaptive_avg_pool2d_1", "F.adaptive_avg_pool2d(a, 1)", [1, 2, 5, 5], [1], False),
    ("adaptive_avg_pool2d_1_grad", "F.adaptive_avg_pool2d(a, (1, 1))", [2, 5, 5], [1], True),
    ("adaptive_avg_pool2d_backward", "F.adaptive_avg_pool2d(a, 2).sum().backward()", [1, 2, 5, 5], [1], True),
    ("adaptive_avg_pool3d", "F.adaptive_avg_pool3d(a, 2)", [1, 2, 4, 4, 4], [1], False),
    ("adaptive_avg_pool3d_1", "F.adaptive_avg_pool3d(a, 1)", [2, 4, 4, 4], [1], False),
    ("adaptive_max_pool2d", "F.adaptive_max_pool2d(a, 2)", [1, 2, 5, 5], [1], False),
    ("unfold", "F.unfold(a, 2)", [1, 2, 5, 5], [1], False),
    ("unfold_backward", "F.unfold(a, 2).sum().backward()", [1, 2, 4, 4], [1], True),
    ("fold", "F.fold(a, (3, 3), 2)", [1, 8, 4], [1], False),
]


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    if isinstance(r, str):
        return r
    return dict(values=r.detach().tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def run_grad(expr, shapes, dt):
    env = dict(torch=torch, F=F)
    ins = []
    for name, shape in zip("xwb", shapes):
        t = None
        if shape is not None:
            t = (X(shape, torch.float64) * 0.3 + torch.arange(X(shape).numel(), dtype=torch.float64).reshape(shape) * 0.01).to(dt)
            t.requires_grad_()
            ins.append(t)
        env[name] = t
    y = eval(expr, env)
    g = (torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) % 5) * 0.5 - 1.0
    y.backward(g)
    return dict(grad_fn=type(y.grad_fn).__name__, grads=[t.grad.tolist() for t in ins])


def main():
    cases = []
    env = dict(torch=torch, F=F, X=X)
    for cid, expr in VALUE:
        for dt in DT:
            e = expr.replace("D)", f"torch.{dt})")
            c = dict(id=f"{cid}/{dt}", expr=e)
            try:
                c["result"] = describe(eval(e, env))
            except Exception as ex:  # noqa: BLE001 - recorded as it is
                c["error"] = [type(ex).__name__, str(ex)]
            cases.append(c)
    for cid, expr in MODULES:
        cases.append(dict(id=f"module/{cid}", expr=expr, result=describe(eval(expr, env))))
    for cid, expr in ERRORS:
        c = dict(id=f"error/{cid}", expr=expr)
        try:
            eval(expr, env)
            c["result"] = "no error"
        except Exception as ex:  # noqa: BLE001
            c["error"] = [type(ex).__name__, str(ex)]
        cases.append(c)
    for cid, expr, *shapes in GRAD:
        for dt in ["float32", "float64"]:
            cases.append(dict(id=f"grad/{cid}/{dt}", grad=expr, shapes=shapes, dtype=dt,
                              result=run_grad(expr, shapes, getattr(torch, dt))))
    for cid, expr, sa, sb, rg in LOGS:
        a, b = X(sa), X(sb)
        a.requires_grad_(rg)
        with Log() as m:
            eval(expr, dict(env, a=a, b=b))
        cases.append(dict(id=f"log/{cid}", log=expr, a=sa, b=sb, requires_grad=rg, result=m.ops))
    with open(sys.argv[1], "w") as f:
        json.dump(dict(torch=torch.__version__, cases=cases), f, indent=0)
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
