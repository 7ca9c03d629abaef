"""ctorch's Python front-end: PyTorch's `torch` namespace for what ctorch implements.

Run a script with it as `torch` (and as `ctorch`) with `ctorch python SCRIPT.py [ARGS]`. Every
tensor is a ctorch tensor, every operator goes through ctorch's dispatcher (so
CTORCH_SHOW_DISPATCH_TRACE=1 prints each decision), and dispatch modes, function modes, tensor
subclasses, autograd and the profiler are ctorch's. A part of PyTorch that ctorch does not
implement raises NotImplementedInCtorch, a NotImplementedError naming it."""
from . import _C
from ._C import (Generator, NotImplementedInCtorch, default_generator, get_default_dtype, get_num_threads,
                 initial_seed, is_grad_enabled, is_inference_mode_enabled, manual_seed, set_num_threads)
from ._tensor import Size, Tensor
from ._device_mod import (channels_last, contiguous_format, cpu as _cpu_device, device, layout, memory_format,
                          preserve_format, sparse_coo, strided)

_C._register(tensor=Tensor, size=Size, strided=strided, contiguous_format=contiguous_format,
             preserve_format=preserve_format, cpu=_cpu_device, device=device)

__version__ = f"{_C._pytorch_version}+ctorch{_C._ctorch_version}"

dtype = _C.dtype
_dt = _C._dtypes()
float32 = float = _dt["float32"]
float64 = double = _dt["float64"]
float16 = half = _dt["float16"]
bfloat16 = _dt["bfloat16"]
int64 = long = _dt["int64"]
bool = _dt["bool"]
uint8 = _dt["uint8"]
int8 = _dt["int8"]
int16 = short = _dt["int16"]
int32 = int = _dt["int32"]
complex64 = cfloat = _dt["complex64"]
complex128 = cdouble = _dt["complex128"]
del _dt

from ._functions import *  # noqa: E402,F401,F403  (torch.add, torch.randn, ...)
from ._functions import tensor, allclose  # noqa: E402,F401
from .autograd.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from . import _ops, autograd, backends, nn, optim, overrides, profiler, utils  # noqa: E402,F401
from ._ops import ops  # noqa: E402,F401
from ._alias import install_as_torch  # noqa: E402,F401  (import ctorch; ctorch.install_as_torch(): torch is ctorch)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(t):
    return t.numel()


def typename(obj):
    return obj.type() if isinstance(obj, Tensor) else type(obj).__name__


def __getattr__(name):
    raise NotImplementedInCtorch(f"torch.{name} is not implemented in ctorch")
