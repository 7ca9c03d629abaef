"""torch.accelerator (new in PyTorch 2.6) where no accelerator is present: none available, none
counted, and anything that needs the current one raises PyTorch's RuntimeError."""

_NONE = "Cannot access accelerator device when none is available."


def is_available():
    return False


def device_count():
    return 0


def _needs_accelerator(name):
    def f(*args, **kwargs):
        raise RuntimeError(_NONE)
    f.__name__ = f.__qualname__ = name
    return f


current_accelerator = _needs_accelerator("current_accelerator")
current_device_index = current_device_idx = _needs_accelerator("current_device_index")
set_device_index = set_device_idx = _needs_accelerator("set_device_index")
current_stream = _needs_accelerator("current_stream")
set_stream = _needs_accelerator("set_stream")
synchronize = _needs_accelerator("synchronize")


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.accelerator')
