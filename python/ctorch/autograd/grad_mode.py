"""no_grad, enable_grad, inference_mode and set_grad_enabled, with PyTorch's rules: no_grad and
enable_grad save grad mode on entry and set it back on exit (so exits out of order leave what
PyTorch leaves), inference_mode is a guard that restores on exit or when dropped, and as
decorators each applies to every call, a generator's every step included."""
import functools
import inspect
import sys

from .. import _C


def _wrap_generator(ctx_factory, func):
    """The generator runs each of its steps inside a fresh context, and the caller's code between
    the steps outside it (torch.utils._contextlib's rule)."""
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context


def _context_decorator(ctx_factory, func):
    if inspect.isgeneratorfunction(func):
        return _wrap_generator(ctx_factory, func)

    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        with ctx_factory():
            return func(*args, **kwargs)
    return decorate_context


class _DecoratorContextManager:
    def __call__(self, orig_func):
        func = orig_func
        if inspect.isclass(orig_func):
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)  # noqa: E731
        return _context_decorator(self.clone, func)

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Usable as @no_grad as well as @no_grad()."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecoratorContextManager):
    """torch.no_grad(): graph recording off; autograd keys still route every call."""

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        set_grad_enabled(False)

    def __exit__(self, exc_type, exc, tb):
        set_grad_enabled(self.prev)


class enable_grad(_NoParamDecoratorContextManager):
    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(True)

    def __exit__(self, exc_type, exc, tb):
        _C._set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """torch.set_grad_enabled(mode): takes effect at once; as a context manager restores the
    previous mode, as a decorator applies to calls only."""

    def __init__(self, mode):
        self.prev = _C.is_grad_enabled()
        _C._set_grad_enabled(mode)
        self.mode = mode

    def __call__(self, orig_func):
        _C._set_grad_enabled(self.prev)
        return super().__call__(orig_func)

    def __enter__(self):
        _C._set_grad_enabled(self.mode)

    def __exit__(self, exc_type, exc, tb):
        _C._set_grad_enabled(self.prev)

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """torch.inference_mode(mode=True): autograd keys excluded, tensors made inside are
    inference tensors; inference_mode(False) turns it off inside a region."""

    def __init__(self, mode=True):
        self.mode = mode

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __enter__(self):
        self._inference_mode_context = _C._InferenceMode(self.mode)
        self._inference_mode_context.__enter__()

    def __exit__(self, exc_type, exc, tb):
        self._inference_mode_context.__exit__(exc_type, exc, tb)

    def clone(self):
        return self.__class__(self.mode)
