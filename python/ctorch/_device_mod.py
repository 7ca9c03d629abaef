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
channels_last_3d = _unsupported_memory_format("channels_last_3d")


def _check_memory_format(t, fmt):
    """Tensor.to(memory_format=...): PyTorch's rank check, then ctorch's own limit (it lays out
    tensors in the contiguous format only)."""
    if not isinstance(fmt, memory_format):
        raise TypeError(f"to(): argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    if fmt is contiguous_format or fmt is preserve_format:
        return
    rank = 4 if fmt is channels_last else 5
    if t.dim() != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")
    if not t.is_contiguous(memory_format=fmt):
        raise _C.NotImplementedInCtorch(f"Tensor.to(memory_format=torch.{fmt.name}) (a {fmt.name} copy) is not implemented in ctorch")
cpu = device("cpu")
