"""torch.backends.mps: Apple's Metal backend, which this build (as PyTorch's on Linux) lacks."""


def is_available():
    return False


def is_built():
    return False


def is_macos13_or_newer(minor=0):
    return False


def is_macos_or_newer(major, minor):
    return False


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.mps')
