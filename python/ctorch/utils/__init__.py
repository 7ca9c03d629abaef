"""torch.utils: _python_dispatch (TorchDispatchMode) and _pytree."""
from .. import _C
from . import _python_dispatch, _pytree  # noqa: F401


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.utils.{name} is not implemented in ctorch")
