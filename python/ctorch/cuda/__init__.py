"""torch.cuda as a CPU-only PyTorch 2.6 build presents it: no device is available, so code that
asks (`"cuda" if torch.cuda.is_available() else "cpu"`) takes the CPU; what needs a device raises
what that build raises (AssertionError "Torch not compiled with CUDA enabled", from its lazy
initialisation), and what only reads or resets state answers quietly (seeding is a no-op, the
memory counters are 0), each as tests/golden/torch-2.6/cpu_only_api.json records it."""
import builtins as _builtins
import collections as _collections

from .. import _C

_NOT_COMPILED = "Torch not compiled with CUDA enabled"


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def _lazy_init():
    raise AssertionError(_NOT_COMPILED)


init = _lazy_init


def _needs_device(name):
    def f(*args, **kwargs):
        _lazy_init()
    f.__name__ = f.__qualname__ = name
    return f


# what reaches the lazy initialisation first
current_device = _needs_device("current_device")
get_device_name = _needs_device("get_device_name")
get_device_capability = _needs_device("get_device_capability")
get_device_properties = _needs_device("get_device_properties")
synchronize = _needs_device("synchronize")
initial_seed = _needs_device("initial_seed")
mem_get_info = _needs_device("mem_get_info")
get_rng_state = _needs_device("get_rng_state")
set_rng_state = _needs_device("set_rng_state")
current_stream = _needs_device("current_stream")
default_stream = _needs_device("default_stream")
ipc_collect = _needs_device("ipc_collect")
current_blas_handle = _needs_device("current_blas_handle")


def manual_seed(seed):
    """Seeds the CUDA generators: with no CUDA device there is nothing to seed (as in PyTorch), once
    the seed is an int (int(seed), with its errors)."""
    _builtins.int(seed)


def manual_seed_all(seed):
    """As manual_seed."""
    _builtins.int(seed)


def seed():
    """Nothing to seed (PyTorch queues the seeding until a device initialises, which never happens)."""


def seed_all():
    """As seed."""


def empty_cache():
    """No caching allocator to empty."""


def _zero(device=None):
    return 0


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero


def memory_stats(device=None):
    """The allocator's statistics: none without a device (an empty OrderedDict, as PyTorch's)."""
    return _collections.OrderedDict()


def memory_summary(device=None, abbreviated=False):
    """PyTorch formats memory_stats(), whose first key it reads is missing without a device."""
    raise KeyError("allocated_bytes.all.current")


def reset_peak_memory_stats(device=None):
    # the extension function PyTorch calls exists only in a CUDA build
    raise AttributeError("module 'torch._C' has no attribute '_cuda_resetPeakMemoryStats'")


def set_device(device):
    """A cuda device's index given to the extension, which a CPU-only build lacks; another device
    type is a ValueError."""
    from .._device_mod import device as _device
    if isinstance(device, str):
        device = _device(device)
    if isinstance(device, _device):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        if device.index is None:
            return
    raise AttributeError("module 'torch._C' has no attribute '_cuda_setDevice'")


def is_bf16_supported(including_emulation=True):
    return False


def get_rng_state_all():
    return []


def set_rng_state_all(new_states):
    for _ in new_states:
        _lazy_init()


def get_arch_list():
    return []


def is_current_stream_capturing():
    # the stub class a CPU-only build's extension has for the CUDA one
    raise RuntimeError("Tried to instantiate dummy base class _cuda_isCurrentStreamCapturing")


class device:
    """torch.cuda.device(idx): a context manager selecting a CUDA device; entering it with an
    index other than -1 reaches the extension, which a CPU-only build lacks."""

    def __init__(self, device):
        from .._device_mod import device as _device
        if isinstance(device, str):
            device = _device(device)
        if isinstance(device, _device):
            if device.type != "cuda":
                raise ValueError(f"Expected a cuda device, but got: {device}")
            device = -1 if device.index is None else device.index
        self.idx = -1 if device is None else _builtins.int(device)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx != -1:
            raise AttributeError("module 'torch._C' has no attribute '_cuda_exchangeDevice'")

    def __exit__(self, exc_type, exc_value, traceback):
        return False


class device_of(device):
    """torch.cuda.device_of(obj): the device of a CUDA tensor, else none (-1)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


class _DummyBase:
    """torch.cuda.Stream and Event: a CPU-only build's stand-in classes, which raise on construction."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError(f"Tried to instantiate dummy base class {cls.__name__}")


class Stream(_DummyBase):
    pass


class Event(_DummyBase):
    pass


class _LegacyCudaType(type):
    """torch.cuda.FloatTensor, ...: the classes exist; making one is a TypeError in a CPU-only build."""

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type {cls.__module__}.{cls.__name__} not available. {_NOT_COMPILED}.")

    def __instancecheck__(cls, obj):
        return False


# the CPU types' names (the dtype tables' legacy names)
for _name, _dtype in _C._legacy_type_names().items():
    globals()[_name] = _LegacyCudaType(_name, (), {"__module__": "torch.cuda", "dtype": _dtype, "is_cuda": True,
                                                   "is_sparse": False})
del _name, _dtype


from . import amp  # noqa: E402,F401

from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.cuda')
