"""torch.backends.mha: the fast-path flag of nn.MultiheadAttention (PyTorch's default, settable)."""
_fastpath = [True]


def get_fastpath_enabled():
    return _fastpath[0]


def set_fastpath_enabled(value):
    _fastpath[0] = bool(value)


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.mha')
