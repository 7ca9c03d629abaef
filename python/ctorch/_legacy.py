"""The legacy constructors and tensor types: torch.Tensor(...), Tensor.new(...), torch.FloatTensor,
torch.LongTensor, ... (torch/csrc/utils/tensor_new.cpp's legacy_tensor_ctor and
legacy_tensor_new, and the PyTensorType objects of torch/csrc/tensor/python_tensor.cpp).

A call is read as PyTorch's parser reads it, against its five signatures: nothing (an empty
tensor), a storage (ctorch has none), a tensor (an alias of it; a typed constructor checks its
type), sizes (ints or one torch.Size: an uninitialised tensor), or data (a sequence, converted to
the constructor's dtype). torch.Tensor's dtype is the default dtype at the call. The types whose
dtype ctorch lacks (IntTensor, ShortTensor, CharTensor, ByteTensor) exist and make their tensors
through the factories, which raise ctorch's missing-dtype error until the dtype is there."""
import warnings

from . import _C, _argparse


_SIGNATURES = ("(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
               "(tuple of ints size, *, torch.device device = None)", "(object data, *, torch.device device = None)")


def _invalid(name, args, kwargs):
    """The parser's error for a call none of the five signatures takes."""
    bad = [k for k in kwargs if k != "device"]
    lines = []
    for i, s in enumerate(_SIGNATURES):
        lines.append(f" * {s}\n")
        if i == 0 and bad:
            lines.append(f"      didn't match because some of the keywords were incorrect: {', '.join(bad)}\n")
    return TypeError(f"{name}() received an invalid combination of arguments - got {_argparse._got(args, kwargs)}, but "
                     "expected one of:\n" + "".join(lines))


def _options(dtype):
    return (f"TensorOptions(dtype={_C._dtype_type_meta(dtype)}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


def _check_device(device):
    if device is None:
        return
    from . import _device_mod
    d = device if isinstance(device, _device_mod.device) else _device_mod.device(device)
    if d.type != "cpu":
        raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {d.type} was passed")


def construct(dtype, args, kwargs, typed, name="new"):
    """A tensor of dtype from a legacy constructor's arguments; typed: the constructor names its
    type (torch.FloatTensor, Tensor.new), so a tensor argument must be of it. As PyTorch's, it
    offers nothing to function modes (nor takes the default device's): the factories it calls
    run with the function-mode stack set aside, and dispatch modes see their operators."""
    modes = [_C._pop_torch_function_stack() for _ in range(_C._len_torch_function_stack())]
    try:
        return _construct(dtype, args, kwargs, typed, name)
    finally:
        for m in reversed(modes):
            _C._push_on_torch_function_stack(m)


def _construct(dtype, args, kwargs, typed, name):
    import torch
    if any(k != "device" for k in kwargs):
        raise _invalid(name, args, kwargs)
    device = kwargs.get("device")
    if not args:
        _check_device(device)
        return torch.empty((0,), dtype=dtype)
    first = args[0]
    if len(args) == 1 and not kwargs and isinstance(first, _C.TensorBase):
        if typed and first.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        return torch.ops.aten.alias(first)
    if len(args) == 1 and isinstance(first, torch.Size) or all(isinstance(a, int) and not isinstance(a, bool)
                                                               for a in args):
        _check_device(device)
        return torch.empty(tuple(first) if isinstance(first, torch.Size) else args, dtype=dtype)
    if isinstance(first, int) and not isinstance(first, bool):
        bad = next(i for i, a in enumerate(args) if not isinstance(a, int) or isinstance(a, bool))
        raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {bad + 1} with error "
                        f"\"type must be tuple of ints,but got {type(args[bad]).__name__}\"")
    if len(args) != 1:
        raise _invalid(name, args, kwargs)
    _check_device(device)
    if isinstance(first, str):
        raise TypeError(f"{name}(): invalid data type 'str'")
    if not isinstance(first, (list, tuple)) and not hasattr(first, "__len__"):
        raise TypeError(f"{name}(): data must be a sequence (got {type(first).__name__})")
    return torch.tensor(first, dtype=dtype)


def tensor_new(cls, args, kwargs):
    """TensorBase's tp_new (registered with the extension): torch.Tensor(...) and a subclass's
    super().__new__(cls, ...), the subclass's instance made over the tensor."""
    import torch
    t = construct(torch.get_default_dtype(), args, kwargs, typed=False)
    return t if cls is torch.Tensor else t.as_subclass(cls)


class _LegacyTensorType(type):
    """The metaclass of torch.FloatTensor, ...: calling one is its legacy constructor, and a tensor
    is an instance of one when it has that type's dtype (on the CPU)."""

    def __call__(cls, *args, **kwargs):
        return construct(cls.dtype, args, kwargs, typed=True)

    def __instancecheck__(cls, obj):
        return isinstance(obj, _C.TensorBase) and obj.dtype is cls.dtype


def make_types():
    """{name: type} of the legacy CPU types (the dtype tables' legacy names, ctorch/dtype.h)."""
    from . import _device_mod
    return {name: _LegacyTensorType(name, (), {"__module__": "torch", "dtype": dt, "is_cuda": False,
                                                "is_sparse": False, "layout": _device_mod.strided})
            for name, dt in _C._legacy_type_names().items()}


def legacy_type(t):
    """torch.set_default_tensor_type's and Tensor.type's argument as a legacy type: a type, or its
    dotted name ('torch.DoubleTensor'); None for anything else."""
    import torch
    if isinstance(t, str):
        obj = torch
        for part in t.split(".")[1:] if t.startswith("torch.") else [None]:
            obj = getattr(obj, part, None) if part else None
            if obj is None:
                return None
        t = obj
    if isinstance(t, type) and (isinstance(t, _LegacyTensorType) or type(t).__name__ == "_LegacyCudaType"):
        return t
    return None


def set_default_tensor_type(t):
    """torch.set_default_tensor_type (deprecated since PyTorch 2.1, with its warning): a floating
    CPU type's dtype becomes the default dtype."""
    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() "
                  "and torch.set_default_device() as alternatives. (Triggered internally at "
                  "./torch/csrc/tensor/python_tensor.cpp:434.)", UserWarning, stacklevel=2)
    lt = legacy_type(t)
    if isinstance(t, str) and lt is None:
        raise ValueError(f"invalid type: '{t}'")
    if lt is None:
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if lt.is_cuda:
        raise TypeError(f"type torch.cuda.{lt.__name__} not available. Torch not compiled with CUDA enabled.")
    if not lt.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _C._set_default_dtype(lt.dtype)


