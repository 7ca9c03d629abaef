"""torch.backends.cudnn in a CPU-only build: not available, version() None; the flags (enabled,
benchmark, deterministic, allow_tf32) keep PyTorch's defaults, may be set and are put back by
flags(...)."""
import sys as _sys
import types as _types

from . import _flag_property, _set_flags

_flags = {"enabled": True, "benchmark": False, "benchmark_limit": 10, "deterministic": False, "allow_tf32": True}


def is_available():
    return False


def version():
    return None


def is_acceptable(tensor):
    return False


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """A with block under these flags (each given one; PyTorch's defaults otherwise)."""
    return _set_flags(_flags, enabled=enabled, benchmark=benchmark, benchmark_limit=benchmark_limit,
                      deterministic=deterministic, allow_tf32=allow_tf32)


class _CudnnModule(_types.ModuleType):
    enabled = _flag_property(_flags, "enabled")
    benchmark = _flag_property(_flags, "benchmark")
    benchmark_limit = _flag_property(_flags, "benchmark_limit")
    deterministic = _flag_property(_flags, "deterministic")
    allow_tf32 = _flag_property(_flags, "allow_tf32")


_sys.modules[__name__].__class__ = _CudnnModule

from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.cudnn')
