"""torch.utils._mode_utils: all_same_mode, and no_dispatch (a block in which the Python dispatch
keys are excluded, so no dispatch mode or tensor subclass's __torch_dispatch__ sees a call)."""
import contextlib

from .. import _C


def all_same_mode(modes):
    """Whether every mode of modes is the first one (True for none)."""
    return all(m is modes[0] for m in modes)


@contextlib.contextmanager
def no_dispatch():
    keys = (_C.DispatchKey.Python, _C.DispatchKey.PythonTLSSnapshot)
    excluded = _C._dispatch_tls_local_exclude_set()
    before = [excluded.has(k) for k in keys]
    for k in keys:
        _C._dispatch_tls_set_dispatch_key_excluded(k, True)
    try:
        yield
    finally:
        for k, was in zip(keys, before):
            _C._dispatch_tls_set_dispatch_key_excluded(k, was)
