"""torch.iinfo: an integral dtype's limits, computed from its size and signedness."""
import builtins

from . import _C


class iinfo:
    def __init__(self, type):
        if not isinstance(type, _C.dtype):
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be torch.dtype, not {builtins.type(type).__name__}")
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        name = repr(type)[len("torch."):]
        if name == "bool":
            raise TypeError(f"{type} is not supported by torch.iinfo")
        self.bits = type.itemsize * 8
        self.max = (1 << (self.bits - 1)) - 1 if type.is_signed else (1 << self.bits) - 1
        self.min = -(1 << (self.bits - 1)) if type.is_signed else 0
        self.dtype = name

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"

    __str__ = __repr__
