"""torch.backends.mkldnn: ctorch has no oneDNN, so is_available() is False; the enabled flag keeps
PyTorch's default and may be set (it changes nothing)."""
import sys as _sys
import types as _types

from . import _flag_property, _set_flags

_flags = {"enabled": True, "deterministic": False}


def is_available():
    return False


def flags(enabled=False, deterministic=False):
    return _set_flags(_flags, enabled=enabled, deterministic=deterministic)


class _MkldnnModule(_types.ModuleType):
    enabled = _flag_property(_flags, "enabled")
    deterministic = _flag_property(_flags, "deterministic")


_sys.modules[__name__].__class__ = _MkldnnModule

from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.mkldnn')
