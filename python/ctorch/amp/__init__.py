"""torch.amp: automatic mixed precision, which ctorch does not implement; what a CPU-only
PyTorch 2.6 gives a program that asks for it on CUDA is there: autocast and GradScaler for
"cuda" warn that CUDA is not available and turn themselves off, so the program runs in full
precision as it does under that build. Enabled on the CPU they raise NotImplementedInCtorch."""
from .autocast_mode import autocast  # noqa: F401
from .grad_scaler import GradScaler  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.amp')
