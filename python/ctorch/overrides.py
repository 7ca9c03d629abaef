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


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.overrides.{name} is not implemented in ctorch")
