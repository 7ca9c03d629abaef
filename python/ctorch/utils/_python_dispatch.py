"""torch.utils._python_dispatch: TorchDispatchMode on ctorch's dispatch-mode stack.

Entering a mode pushes it on ctorch's stack, so every operator reaches the Python key below
autograd and calls the mode's __torch_dispatch__(func, types, args, kwargs) with func an
OpOverload (str(func) == "aten.addmm.default"; calling it runs the operator below this mode).
ctorch pops the mode while its handler runs and restores its state if the handler raises."""
import contextlib

from .. import _C


class TorchDispatchMode:
    def __init__(self, _dispatch_key=None):
        if _dispatch_key is not None:
            raise _C.NotImplementedInCtorch("TorchDispatchMode(_dispatch_key=...) is not implemented in ctorch")

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _C._push_dispatch_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _C._pop_dispatch_mode()
        return False

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)

    @classmethod
    def is_infra_mode(cls):
        return False


def _get_current_dispatch_mode():
    return _C._get_current_dispatch_mode()


def _len_torch_dispatch_stack():
    return _C._len_torch_dispatch_stack()


def _get_current_dispatch_mode_stack():
    with _disable_current_modes() as modes:
        return modes


@contextlib.contextmanager
def _disable_current_modes():
    """Pops every mode for the duration (innermost first) and pushes them back after."""
    popped = []
    try:
        while _C._len_torch_dispatch_stack() > 0:
            popped.append(_C._pop_dispatch_mode())
        yield list(reversed(popped))
    finally:
        for m in reversed(popped):
            _C._push_dispatch_mode(m)


def is_traceable_wrapper_subclass(t):
    return isinstance(t, _C.TensorBase) and type(t).__torch_dispatch__ is not _C._disabled_torch_dispatch_impl \
        and hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.utils._python_dispatch.{name} is not implemented in ctorch")
