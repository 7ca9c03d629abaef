"""torch.utils._python_dispatch: TorchDispatchMode on ctorch's dispatch-mode stack.

Entering a mode pushes it on ctorch's stack, so every operator reaches the Python key below
autograd and calls the mode's __torch_dispatch__(func, types, args, kwargs) with func an
OpOverload (str(func) == "aten.addmm.default"; calling it runs the operator below this mode).
ctorch pops the mode while its handler runs and restores its state if the handler raises."""
import contextlib
from collections import deque

from .. import _C


_is_in_torch_dispatch_mode = False
_is_in_non_infra_torch_dispatch_mode = False


def is_in_torch_dispatch_mode(include_infra_modes=True):
    return _is_in_torch_dispatch_mode if include_infra_modes else _is_in_non_infra_torch_dispatch_mode


class TorchDispatchMode:
    """Entering pushes the mode on ctorch's stack (any object may be pushed, as in PyTorch, and
    exiting pops the innermost mode, whichever it is); the flags a mode keeps are PyTorch's, so
    the same mistakes fail the same way (__enter__ on an object that is no mode, __exit__
    without __enter__)."""

    def __init__(self, _dispatch_key=None):
        if _dispatch_key is not None:
            assert isinstance(_dispatch_key, _C.DispatchKey)
            raise _C.NotImplementedInCtorch("TorchDispatchMode(_dispatch_key=...) is not implemented in ctorch")
        self.old_dispatch_mode_flags = deque()
        self.old_non_infra_dispatch_mode_flags = deque()

    def _lazy_init_old_dispatch_mode_flags(self):
        if not hasattr(self, "old_dispatch_mode_flags"):
            self.old_dispatch_mode_flags = deque()
        if not hasattr(self, "old_non_infra_dispatch_mode_flags"):
            self.old_non_infra_dispatch_mode_flags = deque()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        global _is_in_torch_dispatch_mode, _is_in_non_infra_torch_dispatch_mode
        self._lazy_init_old_dispatch_mode_flags()
        self.old_dispatch_mode_flags.append(_is_in_torch_dispatch_mode)
        _is_in_torch_dispatch_mode = True
        self.old_non_infra_dispatch_mode_flags.append(_is_in_non_infra_torch_dispatch_mode)
        _is_in_non_infra_torch_dispatch_mode = _is_in_non_infra_torch_dispatch_mode or not self.is_infra_mode()
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        global _is_in_torch_dispatch_mode, _is_in_non_infra_torch_dispatch_mode
        _is_in_torch_dispatch_mode = self.old_dispatch_mode_flags.pop()
        _is_in_non_infra_torch_dispatch_mode = self.old_non_infra_dispatch_mode_flags.pop()
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        import warnings
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`")
        return cls(*args, **kwargs)

    @classmethod
    def is_infra_mode(cls):
        return False


def _push_mode(mode):
    _C._push_on_torch_dispatch_stack(mode)


def _pop_mode(k=None):
    return _C._pop_torch_dispatch_stack(k)


@contextlib.contextmanager
def _pop_mode_temporarily(k=None):
    old = _pop_mode(k)
    try:
        yield old
    finally:
        _push_mode(old)


def _get_current_dispatch_mode():
    n = _C._len_torch_dispatch_stack()
    return _C._get_dispatch_stack_at(n - 1) if n > 0 else None


def _len_torch_dispatch_stack():
    return _C._len_torch_dispatch_stack()


def _get_current_dispatch_mode_stack():
    return [_C._get_dispatch_stack_at(i) for i in range(_C._len_torch_dispatch_stack())]


@contextlib.contextmanager
def _disable_current_modes():
    """Pops every mode for the duration (innermost first) and pushes them back after."""
    popped = []
    try:
        while _C._len_torch_dispatch_stack() > 0:
            popped.append(_pop_mode())
        yield list(reversed(popped))
    finally:
        for m in reversed(popped):
            _push_mode(m)


def is_traceable_wrapper_subclass(t):
    return isinstance(t, _C.TensorBase) and type(t).__torch_dispatch__ is not _C._disabled_torch_dispatch_impl \
        and hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.utils._python_dispatch')
