"""Functions of the torch namespace backed by operators: torch._C._VariableFunctions, made by the
extension from the bindings src/ops/ops.def gives (each picks an overload the way PyTorch's
argument parser does; function modes see them), plus torch.tensor and torch.allclose."""
from . import _C

__all__ = [_n for _n in vars(_C._VariableFunctions) if not _n.startswith("__")]
globals().update({_n: getattr(_C._VariableFunctions, _n) for _n in __all__})

allclose = _C.allclose


def tensor(data, **kwargs):
    """torch.tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False): a new
    leaf holding a copy of data (nested lists of numbers); function modes see the call as written."""
    if _C._has_torch_function((data,)):
        r = _C._handle_torch_function(tensor, "torch.tensor", (data,), kwargs)
        if r is not _C._NOT_HANDLED:
            return r
    return _C.tensor(data, **kwargs)
