"""The process's defaults for new tensors: torch.set_default_dtype / get_default_dtype (the
extension's, one dtype for the process as PyTorch's: ctorch/dtype.h), and torch.set_default_device
/ get_default_device, which as in PyTorch put a function mode (DeviceContext) at the bottom of the
function-mode stack that gives the factory functions the device where a call names none."""
import threading

from . import _C
from .overrides import TorchFunctionMode

# the factory functions a default device reaches (PyTorch's _device_constructors), those ctorch has
_CONSTRUCTOR_NAMES = ("empty", "empty_permuted", "empty_strided", "empty_quantized", "ones", "arange",
                      "bartlett_window", "blackman_window", "eye", "full", "hamming_window", "hann_window",
                      "kaiser_window", "linspace", "logspace", "rand", "randn", "randint", "randperm", "range",
                      "sparse_coo_tensor", "tril_indices", "triu_indices", "zeros", "asarray", "tensor", "as_tensor",
                      "scalar_tensor")
_constructors = None


def _device_constructors():
    global _constructors
    if _constructors is None:
        import torch
        _constructors = {f for f in (getattr(torch, n, None) for n in _CONSTRUCTOR_NAMES) if f is not None}
    return _constructors


class DeviceContext(TorchFunctionMode):
    """A factory function called without a device gets this one."""

    def __init__(self, device):
        import torch
        super().__init__()
        self.device = torch.device(device)

    def __enter__(self):
        # at the bottom of the stack, under any mode already entered, so leaving those leaves it
        n = _C._len_torch_function_stack()
        above = [_C._pop_torch_function_stack() for _ in range(n)]
        _C._push_on_torch_function_stack(self)
        for m in reversed(above):
            _C._push_on_torch_function_stack(m)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        n = _C._len_torch_function_stack()
        above = [_C._pop_torch_function_stack() for _ in range(n - 1)]
        _C._pop_torch_function_stack()
        for m in reversed(above):
            _C._push_on_torch_function_stack(m)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in _device_constructors() and kwargs.get("device") is None:
            kwargs["device"] = self.device
        return func(*args, **kwargs)


_GLOBAL_DEVICE_CONTEXT = threading.local()


def set_default_device(device):
    """torch.set_default_device: None takes the default device's mode away (and, as in PyTorch 2.6,
    leaves get_default_device() unable to answer until one is set again)."""
    if hasattr(_GLOBAL_DEVICE_CONTEXT, "device_context"):
        old = _GLOBAL_DEVICE_CONTEXT.device_context
        if old is not None:
            old.__exit__(None, None, None)
    if device is None:
        ctx = None
    else:
        ctx = DeviceContext(device)
        ctx.__enter__()
    _GLOBAL_DEVICE_CONTEXT.device_context = ctx


def get_default_device():
    """torch.get_default_device: the CPU until set_default_device; then the device set if it has an
    index, else where an empty new tensor is made."""
    import torch
    if hasattr(_GLOBAL_DEVICE_CONTEXT, "device_context"):
        device = _GLOBAL_DEVICE_CONTEXT.device_context.device
        if device.index is not None:
            return device
        return torch.tensor([]).device
    return torch.device("cpu")


def set_default_dtype(d):
    """torch.set_default_dtype: a floating dtype becomes the dtype of new floating tensors (factories
    without a dtype, torch.tensor of floats, a Python float in arithmetic with an integer tensor)."""
    _C._set_default_dtype(d)
