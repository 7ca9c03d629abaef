"""torch.nn.functional: linear, relu, gelu, softmax, log_softmax, layer_norm, embedding, dropout,
scaled_dot_product_attention, cross_entropy, nll_loss; each calls ctorch's operator or function."""
from .. import _C

_missing = _C.NotImplementedInCtorch
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}

# torch._C._nn.linear: function modes see "linear"
linear = _C._function("linear", ["aten::linear"])
_relu = _C._function("relu", ["aten::relu"])
_log_softmax = _C._function("log_softmax", ["aten::log_softmax.int"])
_nll_loss_nd = _C._function("nll_loss_nd", ["aten::nll_loss_nd"])
_softmax = _C._function("softmax", ["aten::softmax.int"])
gelu = _C._function("gelu", ["aten::gelu"])
layer_norm = _C._function("layer_norm", ["aten::layer_norm"])
_embedding = _C._function("embedding", ["aten::embedding"])
_dropout = _C._function("dropout", ["aten::dropout"])
scaled_dot_product_attention = _C._function("scaled_dot_product_attention", ["aten::scaled_dot_product_attention"])


def _reduction(reduction, size_average, reduce):
    if size_average is not None or reduce is not None:
        raise _missing("the legacy size_average= / reduce= arguments are not implemented in ctorch (use reduction=)")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def relu(input, inplace=False):
    if inplace:
        raise _missing("F.relu(inplace=True) (aten::relu_) is not implemented in ctorch")
    return _relu(input)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """Seen by function modes as "cross_entropy", then aten::cross_entropy_loss."""
    return _C._cross_entropy(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index,
                             label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    return _nll_loss_nd(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise _missing("F.log_softmax without dim (the deprecated implicit dimension) is not implemented in ctorch")
    return _log_softmax(input, dim, dtype=dtype)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise _missing("F.softmax without dim (the deprecated implicit dimension) is not implemented in ctorch")
    return _softmax(input, dim, dtype=dtype)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    """torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse), as F.embedding calls it."""
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
    return _embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def dropout(input, p=0.5, training=True, inplace=False):
    """aten::dropout (ctorch's bernoulli_ draws in training mode; the input itself otherwise)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if inplace:
        raise _missing("F.dropout(inplace=True) (aten::dropout_) is not implemented in ctorch")
    return _dropout(input, p, training)


def __getattr__(name):
    raise _missing(f"torch.nn.functional.{name} is not implemented in ctorch")
