"""torch.utils: _python_dispatch (TorchDispatchMode) and _pytree."""
from .. import _C
from . import _python_dispatch, _pytree  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.utils')
