"""ctorch's Python front-end: PyTorch's `torch` namespace for what ctorch implements.

Run a script with it as `torch` (and as `ctorch`) with `ctorch python SCRIPT.py [ARGS]`. Every
tensor is a ctorch tensor, every operator goes through ctorch's dispatcher (so
CTORCH_SHOW_DISPATCH_TRACE=1 prints each decision), and dispatch modes, function modes, tensor
subclasses, autograd and the profiler are ctorch's. A part of PyTorch that ctorch does not
implement raises NotImplementedInCtorch, a NotImplementedError naming it."""
from . import _C
from ._C import (ClassType, Generator, NotImplementedInCtorch, ScriptObject, default_generator, get_default_dtype, get_num_threads,
                 initial_seed, is_grad_enabled, is_inference_mode_enabled, set_num_threads)
from ._tensor import Size, Tensor
from ._device_mod import (channels_last, channels_last_3d, contiguous_format, cpu as _cpu_device, device, layout, memory_format,
                          preserve_format, sparse_coo, strided)

from ._device_mod import _check_cpu  # noqa: E402
import enum as _enum  # noqa: E402

# torch._C.DispatchKey: an enum of the keys' names, as PyTorch's (duplicate names, the per-backend
# blocks' starts, keep their first value)
_C.DispatchKey = _enum.Enum("DispatchKey", {n: v for n, v in reversed(_C._dispatch_key_names())},
                            module="torch._C")

_C._register(tensor=Tensor, size=Size, strided=strided, contiguous_format=contiguous_format,
             preserve_format=preserve_format, cpu=_cpu_device, device=device, check_device=_check_cpu)

__version__ = f"{_C._pytorch_version}+ctorch{_C._ctorch_version}"

dtype = _C.dtype
# torch.float32, torch.float, ..., torch.complex128: every name and alias of the dtype tables
# (ctorch/dtype.h), each the extension's one object
globals().update(_C._dtypes())
from ._C import can_cast, promote_types, result_type  # noqa: E402,F401
from ._iinfo import iinfo  # noqa: E402,F401

from ._functions import *  # noqa: E402,F401,F403  (torch.add, torch.randn, ...)
from ._functions import tensor, allclose  # noqa: E402,F401
from .functional import einsum, meshgrid, tensordot, norm, cartesian_prod, split  # noqa: E402,F401
from .autograd.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from . import _ops, accelerator, functional, linalg, signal, amp, autograd, backends, cuda, nn, optim, overrides, profiler, return_types, utils, version  # noqa: E402,F401
from .amp import autocast  # noqa: E402,F401
from ._ops import ops  # noqa: E402,F401
from ._defaults import get_default_device, set_default_device, set_default_dtype  # noqa: E402,F401
from . import _legacy  # noqa: E402

# torch.FloatTensor, torch.LongTensor, ...; torch.Tensor(...) is the legacy constructor
globals().update(_legacy.make_types())
_C._register_legacy_constructor(_legacy.tensor_new)
set_default_tensor_type = _legacy.set_default_tensor_type

from ._alias import install_as_torch  # noqa: E402,F401  (import ctorch; ctorch.install_as_torch(): torch is ctorch)


def manual_seed(seed):
    """torch.manual_seed: int(seed) (so '42' and 1.5 are seeds), then the default generator's."""
    import builtins
    return _C.manual_seed(builtins.int(seed))  # torch.int is a dtype


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(t):
    return t.numel()


def typename(obj):
    """torch.typename: a tensor's type() ('torch.FloatTensor'), else the qualified name of the
    object (a class or function) or of its class, builtins unqualified."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch')
