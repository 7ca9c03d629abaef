"""torch.nn.utils: clip_grad_norm_, ctorch's C implementation (include/ctorch/nn.h)."""
from .. import _C
from .._tensor import Tensor

_missing = _C.NotImplementedInCtorch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scales the gradients in place so that their total norm is at most max_norm; returns the total norm."""
    if foreach:
        raise _missing("clip_grad_norm_(foreach=True) is not implemented in ctorch (its CPU path is the C one)")
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return _C._clip_grad_norm_(list(parameters), float(max_norm), float(norm_type), bool(error_if_nonfinite))


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn.utils')
