"""torch.device, torch.layout and torch.memory_format: ctorch has the CPU, strided layout, and the
contiguous / preserve formats."""
import builtins as _builtins
import re
import threading

from . import _C, _argparse

# torch.device's two signatures (an index given as None is no index, as an omitted one)
_DEVICE = _argparse.Parser(["device(Device device)", "device(c10::string_view type, int64_t? index=None)"])

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9]\d*|0))?")


def _parse_device_string(s):
    """c10::Device's string parser, with its errors."""
    m = _DEVICE_STRING.fullmatch(s)
    if not m:
        raise RuntimeError(f"Invalid device string: '{s}'")
    if m.group(1) not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
                           f"{m.group(1)}")
    return m.group(1), (int(m.group(2)) if m.group(2) is not None else None)


class device:
    """torch.device: any of PyTorch's device types may be named; ctorch runs tensors on the CPU only
    (_check_cpu says what using another one raises)."""

    __slots__ = ("type", "index")

    def __init__(self, *args, **kwargs):
        if not kwargs and len(args) == 1 and isinstance(args[0], str):  # the common call, as the parser reads it
            self.type, self.index = _parse_device_string(args[0])
            return
        which, v = _DEVICE.parse(args, kwargs)
        if which == 0:
            d = v["device"]
            if isinstance(d, device):
                type, index = d.type, d.index
            elif not isinstance(d, str):
                raise RuntimeError("Cannot access accelerator device when none is available.")
            else:
                type, index = _parse_device_string(d)
        else:
            type, idx = _parse_device_string(v["type"])
            index = v["index"]
            if index is not None:
                index = _builtins.int(index)
                if idx is not None:
                    raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: "
                                       f"{type}:{idx}")
            else:
                index = idx
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
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

    def __enter__(self):
        """`with torch.device(d):` makes d the factories' default device for the block (the default
        device's function mode, torch/_defaults.py)."""
        from ._defaults import DeviceContext
        ctx = DeviceContext(self)
        ctx.__enter__()
        _device_blocks().append(ctx)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _device_blocks().pop().__exit__(exc_type, exc_val, exc_tb)


_DEVICE_BLOCKS = threading.local()  # .blocks: this thread's with-blocks' device modes, innermost last


def _device_blocks():
    if not hasattr(_DEVICE_BLOCKS, "blocks"):
        _DEVICE_BLOCKS.blocks = []
    return _DEVICE_BLOCKS.blocks


def _check_cpu(d):
    """A device argument for a tensor: the CPU, or what PyTorch's CPU-only build raises (cuda, mps), or
    NotImplementedInCtorch for the other devices PyTorch has."""
    if d is None or d is cpu:
        return
    if not isinstance(d, device):
        if not isinstance(d, (str, int)) or isinstance(d, bool):
            raise TypeError(f"expected a torch.device or a device string, not {_builtins.type(d).__name__}")
        d = device(d)
    if d.type == "cpu":
        return
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if d.type == "mps":  # Apple's backend, which a Linux build of PyTorch has no part of
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    raise _C.NotImplementedInCtorch(f"the {d.type} device is not implemented in ctorch (it has the CPU only)")


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


_argparse.TYPES.update(device=device, layout=layout, memory_format=memory_format)

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
