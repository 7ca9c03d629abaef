"""torch.overrides: TorchFunctionMode on ctorch's function-mode stack. Its __torch_function__ sees
the public functions ctorch routes through function modes (torch functions, Tensor methods and
operators, F.linear, F.cross_entropy, ...), with the mode popped while it runs."""
from . import _C


class TorchFunctionMode:
    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _C._push_function_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _C._pop_function_mode()
        return False

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)


def _get_current_function_mode_stack_len():
    return _C._len_torch_function_stack()


def has_torch_function(args):
    return False


def _call_through_modes(func, args, kwargs, impl):
    """A Python-level torch function: offered to the innermost function mode first (popped while
    its __torch_function__ runs, as ctorch does for its own functions), else impl(*args, **kwargs)."""
    if _C._len_torch_function_stack() == 0:
        return impl(*args, **kwargs)
    mode = _C._pop_function_mode()
    try:
        return mode.__torch_function__(func, (), args, kwargs)
    finally:
        _C._push_function_mode(mode)


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.overrides.{name} is not implemented in ctorch")
