"""torch.cuda as a CPU-only PyTorch build presents it: no device is available, so code that asks
(`"cuda" if torch.cuda.is_available() else "cpu"`) takes the CPU; a CUDA tensor raises what that
build raises."""
from . import _C


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def _lazy_init():
    raise AssertionError("Torch not compiled with CUDA enabled")


def current_device():
    _lazy_init()


def synchronize(device=None):
    _lazy_init()


def manual_seed(seed):
    """Seeds the CUDA generators: with no CUDA device there is nothing to seed (as in PyTorch), once
    the seed is an int (int(seed), with its errors)."""
    int(seed)


def manual_seed_all(seed):
    """As manual_seed."""
    int(seed)


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.cuda')
