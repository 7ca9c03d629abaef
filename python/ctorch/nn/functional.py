"""torch.nn.functional: linear, relu, cross_entropy, nll_loss, log_softmax, dropout (eval only)."""
from .. import _C

_missing = _C.NotImplementedInCtorch
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}

# torch._C._nn.linear: function modes see "linear"
linear = _C._function("linear", ["aten::linear"])
_relu = _C._function("relu", ["aten::relu"])
_log_softmax = _C._function("log_softmax", ["aten::log_softmax.int"])
_nll_loss_nd = _C._function("nll_loss_nd", ["aten::nll_loss_nd"])


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


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if training and p > 0.0:
        raise _missing("F.dropout in training mode (aten::dropout / aten::bernoulli_) is not implemented in ctorch")
    return input


def __getattr__(name):
    raise _missing(f"torch.nn.functional.{name} is not implemented in ctorch")
