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


has_torch_function_unary = _C._has_torch_function_unary
has_torch_function_variadic = _C._has_torch_function_variadic
# handle_torch_function(public_api, relevant_args, *args, **kwargs): the extension's protocol
# (python/src/torch_function.c), the one the torch functions written in C go through
handle_torch_function = _C.handle_torch_function


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.overrides')
