"""torch.overrides: TorchFunctionMode on ctorch's function-mode stack.

A torch function called from Python (torch.add, Tensor.add, x + 1, x[0], x.shape, F.relu,
torch.ops.aten.add.Tensor, Tensor.backward, ...) is offered to the innermost function mode with
the arguments as written and `func` the public function called; the mode is off the stack while
its __torch_function__ runs, so calling func there reaches the next mode down and finally the
function itself. Functions written in Python take part through handle_torch_function, as
PyTorch's own do."""
from . import _C

_push_mode = _C._push_on_torch_function_stack
_pop_mode = _C._pop_torch_function_stack
_NOT_HANDLED = _C._NOT_HANDLED


class TorchFunctionMode:
    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        import warnings
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`")
        return cls(*args, **kwargs)


def _get_current_function_mode():
    n = _C._len_torch_function_stack()
    return _C._get_function_stack_at(n - 1) if n > 0 else None


def _get_current_function_mode_stack():
    return [_C._get_function_stack_at(i) for i in range(_C._len_torch_function_stack())]


def _get_current_function_mode_stack_len():
    return _C._len_torch_function_stack()


def _is_torch_function_mode_enabled():
    return _C._is_torch_function_mode_enabled()


def has_torch_function(relevant_args):
    """Whether a call must go through handle_torch_function: a Python function mode is innermost,
    or an argument is a tensor of a subclass with a __torch_function__."""
    return _C._has_torch_function(relevant_args)


def has_torch_function_unary(arg):
    return _C._has_torch_function((arg,))


def has_torch_function_variadic(*args):
    return _C._has_torch_function(args)


def _qualified_name(func):
    module = getattr(func, "__module__", None) or "torch"
    if module.startswith("ctorch"):
        module = "torch" + module[len("ctorch"):]
    return f"{module}.{getattr(func, '__qualname__', getattr(func, '__name__', repr(func)))}"


def _relevant_types(relevant_args):
    """The Tensor types among the relevant arguments, subclasses before their bases (PyTorch's
    _get_overloaded_args for a mode: plain tensors count too)."""
    types = []
    for a in relevant_args:
        t = type(a)
        if isinstance(a, _C.TensorBase) and t not in types:
            at = next((i for i, u in enumerate(types) if issubclass(t, u)), len(types))
            types.insert(at, t)
    return tuple(types)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Offers public_api(*args, **kwargs) to the innermost function mode and returns its result."""
    r = _C._handle_torch_function(public_api, _qualified_name(public_api), args, kwargs,
                                  _relevant_types(relevant_args))
    if r is _NOT_HANDLED:
        return public_api(*args, **kwargs)
    return r


def _call_through_modes(func, args, kwargs, impl):
    """A torch function written in Python: offered to the innermost Python function mode or the
    overloaded arguments as func(*args, **kwargs), else impl(*args, **kwargs)."""
    if _C._has_torch_function(tuple(args) + tuple(kwargs.values())):
        r = _C._handle_torch_function(func, _qualified_name(func), tuple(args), kwargs)
        if r is not _NOT_HANDLED:
            return r
    return impl(*args, **kwargs)


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.overrides')
