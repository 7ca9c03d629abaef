"""Functions of the torch namespace backed by operators: torch._C._VariableFunctions, made by the
extension from the bindings src/ops/ops.def gives (each picks an overload the way PyTorch's
argument parser does; function modes see them), plus torch.tensor and torch.allclose."""
from . import _C

__all__ = [_n for _n in vars(_C._VariableFunctions) if not _n.startswith("__")]
globals().update({_n: getattr(_C._VariableFunctions, _n) for _n in __all__})

allclose = _C.allclose


# torch.tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False): the
# extension's, which offers the call to function modes itself
tensor = _C.tensor
