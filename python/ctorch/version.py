"""torch.version: the PyTorch version ctorch answers for, built without CUDA or ROCm."""
from . import _C

__version__ = f"{_C._pytorch_version}+ctorch{_C._ctorch_version}"
cuda = None
hip = None
debug = False


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.version')
