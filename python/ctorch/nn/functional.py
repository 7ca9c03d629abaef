"""torch.nn.functional: linear, relu, gelu, softmax, log_softmax, layer_norm, embedding, dropout,
scaled_dot_product_attention, cross_entropy, nll_loss; each calls ctorch's operator or function."""
import warnings

from .. import _C
from ..overrides import handle_torch_function, has_torch_function_unary, has_torch_function_variadic

_missing = _C.NotImplementedInCtorch

_VF = _C._VariableFunctions
# torch._C._nn's functions are torch.nn.functional's (function modes see them as torch.nn.linear, ...)
linear = _C._nn.linear
gelu = _C._nn.gelu
scaled_dot_product_attention = _C._nn.scaled_dot_product_attention


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


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn.functional')
