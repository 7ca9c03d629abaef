"""torch.backends: the CPU backend's facts (torch.backends.cpu), and the other backends as a
CPU-only PyTorch 2.6 build reports them (cuda, cudnn and mps absent, their flags readable and
settable; openmp present, as ctorch's intra-op threads run on OpenMP; mkldnn and mkl absent, as
ctorch has neither)."""
from contextlib import contextmanager as _contextmanager

from . import cpu  # noqa: F401


def _flag_property(owner, name, doc=""):
    """A module-level flag of owner (a dict), read and set as an attribute of the module's class."""
    def get(self):
        return owner[name]

    def set(self, value):
        owner[name] = value
    return property(get, set, doc=doc)


@_contextmanager
def _set_flags(flags, **values):
    """Sets some of flags (a dict) for a with block, then puts the old values back."""
    old = {k: flags[k] for k, v in values.items() if v is not None}
    flags.update({k: v for k, v in values.items() if v is not None})
    try:
        yield
    finally:
        flags.update(old)


from . import cuda, cudnn, mha, mkl, mkldnn, mps, openmp  # noqa: E402,F401

from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends')
