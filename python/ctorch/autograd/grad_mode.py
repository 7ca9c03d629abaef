"""no_grad, enable_grad, inference_mode and set_grad_enabled: context managers (and decorators)
over ctorch's grad-mode guards."""
import functools

from .. import _C

_NO_GRAD, _ENABLE_GRAD, _INFERENCE = 0, 1, 2


class _GuardMode:
    _kind = None

    def __init__(self):
        self._guards = []

    def __enter__(self):
        g = _C._grad_mode_guard(self._kind)
        g.__enter__()
        self._guards.append(g)
        return None

    def __exit__(self, exc_type, exc, tb):
        self._guards.pop().__exit__(exc_type, exc, tb)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_GuardMode):
    """torch.no_grad(): graph recording off; autograd keys still route every call."""
    _kind = _NO_GRAD


class enable_grad(_GuardMode):
    _kind = _ENABLE_GRAD


class inference_mode(_GuardMode):
    """torch.inference_mode(): autograd keys excluded, tensors made inside are inference tensors."""

    def __init__(self, mode=True):
        super().__init__()
        self.mode = mode
        self._kind = _INFERENCE if mode else None

    def __enter__(self):
        if not self.mode:
            if _C.is_inference_mode_enabled():
                raise _C.NotImplementedInCtorch("inference_mode(False) inside inference mode is not implemented in ctorch")
            self._guards.append(None)
            return None
        return super().__enter__()

    def __exit__(self, exc_type, exc, tb):
        if not self.mode:
            self._guards.pop()
            return False
        return super().__exit__(exc_type, exc, tb)

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return inference_mode(self.mode)


class set_grad_enabled:
    """torch.set_grad_enabled(mode): takes effect at once; as a context manager restores the previous mode."""

    def __init__(self, mode):
        self.prev = _C.is_grad_enabled()
        self.mode = mode
        _C._set_grad_enabled(mode)

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc, tb):
        _C._set_grad_enabled(self.prev)
        return False

    def __call__(self, fn):
        # as a decorator the mode applies to calls only: undo the constructor's change
        _C._set_grad_enabled(self.prev)
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper
