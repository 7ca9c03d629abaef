"""torch.backends: the CPU backend's facts (torch.backends.cpu)."""
from . import cpu  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends')
