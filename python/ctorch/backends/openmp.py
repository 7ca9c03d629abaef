"""torch.backends.openmp: ctorch's intra-op threads run on OpenMP (ctorch/parallel.h)."""


def is_available():
    return True


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.openmp')
