"""torch.return_types: the named tuples of operators with named returns (torch.return_types.max is
what torch.max(x, 0) returns), made by ctorch._C as the bindings first return them."""
from . import _C


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    t = _C._return_type(name)
    globals()[name] = t
    return t
