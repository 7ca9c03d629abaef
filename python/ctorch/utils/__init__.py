"""torch.utils: _python_dispatch (TorchDispatchMode), _pytree, _mode_utils and weak."""
from .. import _C
from . import _mode_utils, _python_dispatch, _pytree, weak  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.utils')
