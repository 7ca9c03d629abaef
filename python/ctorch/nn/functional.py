"""torch.nn.functional: linear, relu, gelu, softmax, log_softmax, layer_norm, batch_norm, instance_norm, group_norm, interpolate (nearest 1-3d, bilinear), embedding, dropout,
scaled_dot_product_attention, cross_entropy, nll_loss, the activations (softplus, silu, mish,
hardtanh, relu6, leaky_relu, elu, selu, celu, hardsigmoid, hardswish, logsigmoid, threshold,
softshrink, hardshrink, tanhshrink), the convolutions (conv1d/2d/3d, conv_transpose1d/2d/3d), the poolings
(max_pool1d/2d/3d, avg_pool1d/2d/3d, adaptive_avg_pool1d/2d/3d, adaptive_max_pool2d), unfold and fold, the losses
mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy, kl_div, pad, and normalize, glu,
binary_cross_entropy_with_logits, the margin and embedding losses (hinge_embedding, margin_ranking, soft_margin,
multilabel_soft_margin, cosine_embedding, triplet_margin), cosine_similarity, pairwise_distance, poisson_nll_loss,
gaussian_nll_loss; each calls ctorch's operator or function as PyTorch 2.6's does."""
import warnings

from .. import _C
from ..overrides import handle_torch_function, has_torch_function_unary, has_torch_function_variadic

_missing = _C.NotImplementedInCtorch

_VF = _C._VariableFunctions
# torch._C._nn's functions are torch.nn.functional's (function modes see them as torch.nn.linear, ...)
linear = _C._nn.linear
gelu = _C._nn.gelu
scaled_dot_product_attention = _C._nn.scaled_dot_product_attention
softplus = _C._nn.softplus
logsigmoid = _C._nn.log_sigmoid
softshrink = _C._nn.softshrink
# the convolutions are torch.conv1d, ... themselves (PyTorch's F.conv2d is torch.conv2d with a docstring)
conv1d = _VF.conv1d
conv2d = _VF.conv2d
conv3d = _VF.conv3d
conv_transpose1d = _VF.conv_transpose1d
conv_transpose2d = _VF.conv_transpose2d
conv_transpose3d = _VF.conv_transpose3d
# the poolings torch.nn.functional binds to the operators themselves
avg_pool1d = _VF.avg_pool1d
avg_pool2d = _C._nn.avg_pool2d
avg_pool3d = _C._nn.avg_pool3d
adaptive_avg_pool1d = _VF.adaptive_avg_pool1d
# torch.nn.functional.pdist is torch.pdist
pdist = _VF.pdist


def _get_enum(reduction):
    """_Reduction.get_enum: 'elementwise_mean' is 'mean' with a warning."""
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_get_string(size_average, reduce):
    """_Reduction.legacy_get_string: the reduction the legacy size_average= / reduce= pair names,
    with PyTorch's deprecation warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.")
    return ret


def _reduction(reduction, size_average, reduce):
    if size_average is not None or reduce is not None:
        reduction = _legacy_get_string(size_average, reduce)
    return _get_enum(reduction)


def _get_softmax_dim(name, ndim, stacklevel):
    """The dimension softmax & co. pick when none is given, with PyTorch's deprecation warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an "
                  "argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def relu(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(relu, (input,), input, inplace=inplace)
    return _VF.relu_(input) if inplace else _VF.relu(input)


def silu(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(silu, (input,), input, inplace=inplace)
    return _C._nn.silu_(input) if inplace else _C._nn.silu(input)


def mish(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(mish, (input,), input, inplace=inplace)
    return _C._nn.mish_(input) if inplace else _C._nn.mish(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(hardtanh, (input,), input, min_val=min_val, max_val=max_val, inplace=inplace)
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _C._nn.hardtanh_(input, min_val, max_val) if inplace else _C._nn.hardtanh(input, min_val, max_val)


def relu6(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(relu6, (input,), input, inplace=inplace)
    return _C._nn.relu6_(input) if inplace else _C._nn.relu6(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(leaky_relu, (input,), input, negative_slope=negative_slope, inplace=inplace)
    return _C._nn.leaky_relu_(input, negative_slope) if inplace else _C._nn.leaky_relu(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(elu, (input,), input, alpha=alpha, inplace=inplace)
    return _C._nn.elu_(input, alpha) if inplace else _C._nn.elu(input, alpha)


def selu(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(selu, (input,), input, inplace=inplace)
    return _VF.selu_(input) if inplace else _VF.selu(input)


def celu(input, alpha=1.0, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(celu, (input,), input, alpha=alpha, inplace=inplace)
    return _VF.celu_(input, alpha) if inplace else _VF.celu(input, alpha)


def hardsigmoid(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(hardsigmoid, (input,), input, inplace=inplace)
    return _C._nn.hardsigmoid_(input) if inplace else _C._nn.hardsigmoid(input)


def hardswish(input, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(hardswish, (input,), input, inplace=inplace)
    return _C._nn.hardswish_(input) if inplace else _C._nn.hardswish(input)


def threshold(input, threshold, value, inplace=False):
    if has_torch_function_unary(input):
        return handle_torch_function(threshold, (input,), input, threshold, value, inplace=inplace)
    return _VF.threshold_(input, threshold, value) if inplace else _VF.threshold(input, threshold, value)


def hardshrink(input, lambd=0.5):
    if has_torch_function_unary(input):
        return handle_torch_function(hardshrink, (input,), input, lambd=lambd)
    return _VF.hardshrink(input, lambd)


def tanhshrink(input):
    if has_torch_function_unary(input):
        return handle_torch_function(tanhshrink, (input,), input)
    return input - input.tanh()


def _expanded(input, target):
    """torch.broadcast_tensors(input, target) as the losses call it (the pair itself when the
    shapes agree)."""
    if input.shape == target.shape:
        return input, target
    shape = _broadcast_shape(input.shape, target.shape)
    return input.expand(shape), target.expand(shape)


def _broadcast_shape(a, b):
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {i}")
        out.append(y if x == 1 else x)
    return out


def _pointwise_loss(name, fn, input, target, size_average, reduce, reduction, *extra):
    if size_average is not None or reduce is not None:
        reduction = _legacy_get_string(size_average, reduce)
    a, b = _expanded(input, target)
    return fn(a, b, _get_enum(reduction), *extra)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(mse_loss, (input, target), input, target, size_average=size_average, reduce=reduce,
                                     reduction=reduction)
    return _pointwise_loss("mse_loss", _C._nn.mse_loss, input, target, size_average, reduce, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(l1_loss, (input, target), input, target, size_average=size_average, reduce=reduce,
                                     reduction=reduction)
    return _pointwise_loss("l1_loss", _C._nn.l1_loss, input, target, size_average, reduce, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(smooth_l1_loss, (input, target), input, target, size_average=size_average,
                                     reduce=reduce, reduction=reduction, beta=beta)
    if beta == 0.0:
        return _pointwise_loss("l1_loss", _C._nn.l1_loss, input, target, size_average, reduce, reduction)
    return _pointwise_loss("smooth_l1_loss", _C._nn.smooth_l1_loss, input, target, size_average, reduce, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(huber_loss, (input, target), input, target, reduction=reduction, delta=delta)
    return _pointwise_loss("huber_loss", _C._nn.huber_loss, input, target, None, None, reduction, delta)


def _legacy_get_enum(size_average, reduce):
    return _get_enum(_legacy_get_string(size_average, reduce))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(kl_div, (input, target), input, target, size_average=size_average, reduce=reduce,
                                     reduction=reduction, log_target=log_target)
    if size_average is not None or reduce is not None:
        reduction_enum = _legacy_get_enum(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
        reduction_enum = _get_enum("sum") if reduction == "batchmean" else _get_enum(reduction)
    reduced = _VF.kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target, weight):
        return handle_torch_function(binary_cross_entropy, (input, target, weight), input, target, weight=weight,
                                     size_average=size_average, reduce=reduce, reduction=reduction)
    reduction_enum = _reduction(reduction, size_average, reduce)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) is "
                         "deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(_broadcast_shape(target.size(), weight.size()))
    return _C._nn.binary_cross_entropy(input, target, weight, reduction_enum)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """Seen by function modes as "cross_entropy", then aten::cross_entropy_loss."""
    if has_torch_function_variadic(input, target, weight):
        return handle_torch_function(cross_entropy, (input, target, weight), input, target, weight=weight,
                                     size_average=size_average, ignore_index=ignore_index, reduce=reduce,
                                     reduction=reduction, label_smoothing=label_smoothing)
    return _C._cross_entropy(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index,
                             label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target, weight):
        return handle_torch_function(nll_loss, (input, target, weight), input, target, weight=weight,
                                     size_average=size_average, ignore_index=ignore_index, reduce=reduce,
                                     reduction=reduction)
    return _C._nn.nll_loss_nd(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if has_torch_function_unary(input):
        return handle_torch_function(log_softmax, (input,), input, dim=dim, _stacklevel=_stacklevel, dtype=dtype)
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _VF.log_softmax(input, dim, dtype=dtype)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if has_torch_function_unary(input):
        return handle_torch_function(softmax, (input,), input, dim=dim, _stacklevel=_stacklevel, dtype=dtype)
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return _VF.softmax(input, dim, dtype=dtype)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    """torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse), as F.embedding calls it."""
    if has_torch_function_variadic(input, weight):
        return handle_torch_function(embedding, (input, weight), input, weight, padding_idx=padding_idx,
                                     max_norm=max_norm, norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq,
                                     sparse=sparse)
    if max_norm is not None:
        raise _missing("F.embedding(max_norm=) (aten::embedding_renorm_) is not implemented in ctorch")
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    return _VF.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if has_torch_function_variadic(input, weight, bias):
        return handle_torch_function(layer_norm, (input, weight, bias), input, normalized_shape, weight=weight, bias=bias,
                                     eps=eps)
    return _VF.layer_norm(input, normalized_shape, weight, bias, eps)


def dropout(input, p=0.5, training=True, inplace=False):
    """F.dropout: aten::dropout (ctorch's bernoulli_ draws in training mode; the input itself otherwise)."""
    if has_torch_function_unary(input):
        return handle_torch_function(dropout, (input,), input, p=p, training=training, inplace=inplace)
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if inplace:
        raise _missing("F.dropout(inplace=True) (aten::dropout_) is not implemented in ctorch")
    return _VF.dropout(input, p, training)


def _pair(x):
    """torch.nn.modules.utils._pair: an iterable as a tuple, a number twice"""
    if isinstance(x, (list, tuple)) or hasattr(x, "__iter__"):
        return tuple(x)
    return (x, x)


def _list_with_default(out_size, defaults):
    """torch.nn.modules.utils._list_with_default: None entries of an output size taken from the input's"""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def _max_pool(name, fn, with_indices, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    if has_torch_function_unary(input):
        return handle_torch_function(globals()[name], (input,), input, kernel_size, stride=stride, padding=padding,
                                     dilation=dilation, ceil_mode=ceil_mode, return_indices=return_indices)
    if stride is None:
        stride = []
    if return_indices:
        return with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return fn(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """F.max_pool1d: torch.max_pool1d, or torch.max_pool1d_with_indices with return_indices=True"""
    return _max_pool("max_pool1d", _VF.max_pool1d, _VF.max_pool1d_with_indices, input, kernel_size, stride, padding,
                     dilation, ceil_mode, return_indices)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """F.max_pool2d: torch.max_pool2d, or torch._C._nn.max_pool2d_with_indices with return_indices=True"""
    return _max_pool("max_pool2d", _VF.max_pool2d, _C._nn.max_pool2d_with_indices, input, kernel_size, stride, padding,
                     dilation, ceil_mode, return_indices)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """F.max_pool3d: torch.max_pool3d, or torch._C._nn.max_pool3d_with_indices with return_indices=True"""
    return _max_pool("max_pool3d", _VF.max_pool3d, _C._nn.max_pool3d_with_indices, input, kernel_size, stride, padding,
                     dilation, ceil_mode, return_indices)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_avg_pool2d(input, output_size):
    """F.adaptive_avg_pool2d: torch._C._nn.adaptive_avg_pool2d, None sizes taken from the input"""
    if has_torch_function_unary(input):
        return handle_torch_function(adaptive_avg_pool2d, (input,), input, output_size)
    return _C._nn.adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_avg_pool3d(input, output_size):
    """F.adaptive_avg_pool3d: torch._C._nn.adaptive_avg_pool3d, None sizes taken from the input"""
    if has_torch_function_unary(input):
        return handle_torch_function(adaptive_avg_pool3d, (input,), input, output_size)
    return _C._nn.adaptive_avg_pool3d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """F.adaptive_max_pool2d: torch._C._nn.adaptive_max_pool2d (values and indices), None sizes from the input"""
    if has_torch_function_unary(input):
        return handle_torch_function(adaptive_max_pool2d, (input,), input, output_size, return_indices=return_indices)
    r = _C._nn.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))
    return r if return_indices else r[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool2d(input, output_size, True)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """F.unfold: torch._C._nn.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))."""
    if has_torch_function_unary(input):
        return handle_torch_function(unfold, (input,), input, kernel_size, dilation=dilation, padding=padding, stride=stride)
    return _C._nn.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """F.fold: torch._C._nn.col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation), ...)."""
    if has_torch_function_unary(input):
        return handle_torch_function(fold, (input,), input, output_size, kernel_size, dilation=dilation, padding=padding,
                                     stride=stride)
    return _C._nn.col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def pad(input, pad, mode="constant", value=None):
    """F.pad: aten::pad (constant_pad_nd, reflection_pad*d, replication_pad*d or _pad_circular)"""
    if has_torch_function_unary(input):
        return handle_torch_function(globals()["pad"], (input,), input, pad, mode=mode, value=value)
    return _C._nn.pad(input, pad, mode, value)


# ---- the composites family: normalize, glu, the margin and embedding losses, distances ----

cosine_similarity = _VF.cosine_similarity
pairwise_distance = _VF.pairwise_distance


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    if has_torch_function_variadic(input, out):
        return handle_torch_function(normalize, (input, out), input, p=p, dim=dim, eps=eps, out=out)
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return _VF.div(input, denom, out=out)


def glu(input, dim=-1):
    if has_torch_function_unary(input):
        return handle_torch_function(glu, (input,), input, dim=dim)
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _C._nn.glu(input, dim)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    if has_torch_function_variadic(input, target, weight, pos_weight):
        return handle_torch_function(binary_cross_entropy_with_logits, (input, target, weight, pos_weight), input, target,
                                     weight=weight, size_average=size_average, reduce=reduce, reduction=reduction,
                                     pos_weight=pos_weight)
    reduction_enum = _reduction(reduction, size_average, reduce)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return _VF.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction_enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(hinge_embedding_loss, (input, target), input, target, margin=margin,
                                     size_average=size_average, reduce=reduce, reduction=reduction)
    return _VF.hinge_embedding_loss(input, target, margin, _reduction(reduction, size_average, reduce))


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input1, input2, target):
        return handle_torch_function(margin_ranking_loss, (input1, input2, target), input1, input2, target,
                                     margin=margin, size_average=size_average, reduce=reduce, reduction=reduction)
    reduction_enum = _reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _VF.margin_ranking_loss(input1, input2, target, margin, reduction_enum)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(soft_margin_loss, (input, target), input, target, size_average=size_average,
                                     reduce=reduce, reduction=reduction)
    return _C._nn.soft_margin_loss(input, target, _reduction(reduction, size_average, reduce))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input, target, weight):
        return handle_torch_function(multilabel_soft_margin_loss, (input, target, weight), input, target, weight=weight,
                                     size_average=size_average, reduce=reduce, reduction=reduction)
    if size_average is not None or reduce is not None:
        reduction = _legacy_get_string(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C  # only return N loss values
    if reduction == "none":
        ret = loss
    elif reduction == "mean":
        ret = loss.mean()
    elif reduction == "sum":
        ret = loss.sum()
    else:
        ret = input
        raise ValueError(reduction + " is not valid")
    return ret


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    if has_torch_function_variadic(input1, input2, target):
        return handle_torch_function(cosine_embedding_loss, (input1, input2, target), input1, input2, target,
                                     margin=margin, size_average=size_average, reduce=reduce, reduction=reduction)
    return _VF.cosine_embedding_loss(input1, input2, target, margin, _reduction(reduction, size_average, reduce))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    if has_torch_function_variadic(anchor, positive, negative):
        return handle_torch_function(triplet_margin_loss, (anchor, positive, negative), anchor, positive, negative,
                                     margin=margin, p=p, eps=eps, swap=swap, size_average=size_average, reduce=reduce,
                                     reduction=reduction)
    reduction_enum = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _VF.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction_enum)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if has_torch_function_variadic(input, target):
        return handle_torch_function(poisson_nll_loss, (input, target), input, target, log_input=log_input, full=full,
                                     size_average=size_average, eps=eps, reduce=reduce, reduction=reduction)
    if size_average is not None or reduce is not None:
        reduction = _legacy_get_string(size_average, reduce)
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not a valid value for reduction")
    return _VF.poisson_nll_loss(input, target, log_input, full, eps, _get_enum(reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    import math
    from .. import _tensor
    if has_torch_function_variadic(input, target, var):
        return handle_torch_function(gaussian_nll_loss, (input, target, var), input, target, var, full=full, eps=eps,
                                     reduction=reduction)
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _VF.ones_like(input)
    elif _VF.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = _VF.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:  # heteroscedastic
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (_VF.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    del _tensor
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _no_grad():
    from ..autograd.grad_mode import no_grad
    return no_grad()


def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def _verify_spatial_size(size):
    size_prods = 1
    for i in range(2, len(size)):
        size_prods *= size[i]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def _cudnn_enabled():
    from .. import backends
    return bool(getattr(getattr(backends, "cudnn", None), "enabled", True))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn)."""
    if has_torch_function_variadic(input, running_mean, running_var, weight, bias):
        return handle_torch_function(batch_norm, (input, running_mean, running_var, weight, bias), input, running_mean,
                                     running_var, weight=weight, bias=bias, training=training, momentum=momentum,
                                     eps=eps)
    if training:
        _verify_batch_size(input.size())
    return _VF.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, _cudnn_enabled())


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn)."""
    if has_torch_function_variadic(input, running_mean, running_var, weight, bias):
        return handle_torch_function(instance_norm, (input, running_mean, running_var, weight, bias), input,
                                     running_mean=running_mean, running_var=running_var, weight=weight, bias=bias,
                                     use_input_stats=use_input_stats, momentum=momentum, eps=eps)
    if use_input_stats:
        _verify_spatial_size(input.size())
    return _VF.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                             _cudnn_enabled())


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """torch.group_norm(input, num_groups, weight, bias, eps, cudnn), after F.group_norm's checks."""
    if has_torch_function_variadic(input, weight, bias):
        return handle_torch_function(group_norm, (input, weight, bias), input, num_groups, weight=weight, bias=bias,
                                     eps=eps)
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    return _VF.group_norm(input, num_groups, weight, bias, eps, _cudnn_enabled())


def _is_integer(x):
    from .._tensor import Tensor
    if isinstance(x, Tensor):
        return not x.is_floating_point() and not x.is_complex() and x.dim() == 0
    return isinstance(x, int)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """F.interpolate as PyTorch 2.6 writes it, for the modes ctorch has: nearest of a 3-, 4- or 5-D input
    and bilinear of a 4-D one (torch._C._nn.upsample_nearest1d/2d/3d / upsample_bilinear2d with the
    scale factors as their scales: what the .vec overloads PyTorch's calls decompose into)."""
    if has_torch_function_unary(input):
        return handle_torch_function(interpolate, (input,), input, size=size, scale_factor=scale_factor, mode=mode,
                                     align_corners=align_corners, recompute_scale_factor=recompute_scale_factor,
                                     antialias=antialias)
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the "
                             "interpolating modes: linear | bilinear | bicubic | trilinear")
    else:
        if align_corners is None:
            align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(x) for x in size]}")
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [int(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor as input")
    if (mode == "nearest" and input.dim() in (3, 4, 5)) or (mode == "bilinear" and input.dim() == 4 and not antialias):
        # upsample_*.vec: compute_output_size, then the op with the scale factors as its scales
        if output_size is not None:
            osize, scales = [int(v) for v in output_size], [None] * dim
        else:
            osize = [int(float(input.size(i + 2)) * float(scale_factors[i])) for i in range(dim)]
            scales = [float(v) for v in scale_factors]
        if mode == "bilinear":
            return _C._nn.upsample_bilinear2d(input, osize, align_corners, *scales)
        return (_C._nn.upsample_nearest1d, _C._nn.upsample_nearest2d, _C._nn.upsample_nearest3d)[dim - 1](input, osize, *scales)
    if input.dim() == 3 and mode == "bilinear":
        raise NotImplementedError("Got 3D input, but bilinear mode needs 4D input")
    if input.dim() == 3 and mode == "trilinear":
        raise NotImplementedError("Got 3D input, but trilinear mode needs 5D input")
    if input.dim() == 4 and mode == "linear":
        raise NotImplementedError("Got 4D input, but linear mode needs 3D input")
    if input.dim() == 4 and mode == "trilinear":
        raise NotImplementedError("Got 4D input, but trilinear mode needs 5D input")
    if input.dim() == 5 and mode == "linear":
        raise NotImplementedError("Got 5D input, but linear mode needs 3D input")
    if input.dim() == 5 and mode == "bilinear":
        raise NotImplementedError("Got 5D input, but bilinear mode needs 4D input")
    if input.dim() in (3, 4, 5) and mode in ("nearest", "nearest-exact", "area", "linear", "bilinear", "bicubic",
                                             "trilinear"):
        raise _missing(f"F.interpolate(mode={mode!r}) of a {input.dim()}-D input is not implemented in ctorch")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported"
        f" (got {input.dim()}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact"
        f" (got {mode})")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn.functional')
