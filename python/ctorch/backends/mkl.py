"""torch.backends.mkl: ctorch does not use Intel's MKL (its products run on OpenBLAS or its own
kernels)."""


def is_available():
    return False


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.mkl')
