"""torch.amp.autocast (torch.autocast): off for CUDA, which a CPU-only build lacks (with PyTorch's
warning), and off when enabled=False; mixed precision itself is not implemented in ctorch."""
import functools
import warnings

from .. import _C


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype
        if device_type == "cuda" and enabled:
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
            enabled = False
        if enabled:
            raise _C.NotImplementedInCtorch(f"torch.autocast on {device_type!r} (automatic mixed precision) is not "
                                            "implemented in ctorch")
        self._enabled = False

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast
