"""torch.device, torch.layout and torch.memory_format: ctorch has the CPU, strided layout, and the
contiguous / preserve formats."""
from . import _C


class device:
    """torch.device: only the CPU exists in ctorch."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        if isinstance(type, str) and ":" in type:
            type, idx = type.split(":", 1)
            index = int(idx)
        if type != "cpu":
            raise RuntimeError(f"ctorch has only the CPU device; '{type}' is not available")
        self.type = type
        self.index = index

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def _check_cpu(d):
    if isinstance(d, device):
        return
    if isinstance(d, str) and (d == "cpu" or d.startswith("cpu:")):
        return
    raise RuntimeError(f"ctorch has only the CPU device; {d!r} is not available")


class layout:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


class memory_format:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


class _unsupported_memory_format(memory_format):
    __slots__ = ()
    __ctorch_memory_format__ = True


strided = layout("strided")
sparse_coo = layout("sparse_coo")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = _unsupported_memory_format("channels_last")
cpu = device("cpu")
