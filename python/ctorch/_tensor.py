"""torch.Tensor and torch.Size: the Python class over ctorch._C.TensorBase.

Methods that are operators are _C.TensorBase's, made by the extension from the bindings
src/ops/ops.def gives: calling one picks the overload the way PyTorch's argument parser does, and
function modes see it. Anything PyTorch's Tensor has that is not here raises
NotImplementedInCtorch (a NotImplementedError that is also an AttributeError, so hasattr() stays
False)."""
import builtins
import re

from . import _C, _argparse
from ._missing import attribute as _missing_attribute
from ._ops import ops as _ops
from .overrides import handle_torch_function, has_torch_function, has_torch_function_unary

_missing = _C.NotImplementedInCtorch
_dt = _C._dtypes()


class Size(tuple):
    """torch.Size: a tuple of ints that prints as torch.Size([2, 600])."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        items = tuple(sizes)
        for i, v in enumerate(items):
            if isinstance(v, bool) or not isinstance(v, int):
                if isinstance(v, Tensor) and v.dim() == 0 and not v.is_floating_point():
                    continue
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type(v).__name__}')")
        return tuple.__new__(cls, (int(v) for v in items))

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, other))


_argparse.TYPES["Size"] = Size  # for the parser's messages

# the classes that print as "tensor(...)": Tensor itself (below) and nn.Parameter
_PLAIN_REPR = set()


class Tensor(_C.TensorBase):
    """A ctorch tensor with PyTorch's Python API (the part ctorch implements)."""

    # a plain tensor has no __torch_dispatch__ of its own
    __torch_dispatch__ = _C._disabled_torch_dispatch_impl

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """The default for subclasses: func run with subclasses' __torch_function__ off, its tensor
        results converted to cls (the properties' getters that return other tensors excepted), as
        PyTorch's Tensor.__torch_function__."""
        if kwargs is None:
            kwargs = {}
        if not all(issubclass(cls, t) for t in types):
            return NotImplemented
        with _C.DisableTorchFunctionSubclass():
            ret = func(*args, **kwargs)
            if func in _nowrap_functions():
                return ret
            return _convert(ret, cls)

    def as_subclass(self, cls):
        """A view of the same data as an instance of cls (a torch.Tensor subclass)."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.as_subclass, (self,), self, cls)
        return _C._as_subclass(self, cls)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        raise _missing_attribute("Tensor", name, type(self).__name__)

    def __repr__(self, *, tensor_contents=None):
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.__repr__, (self,), self, tensor_contents=tensor_contents)
        # PyTorch's _str_intern: a subclass prints under its own class name (a Parameter, whose
        # module adds it to _PLAIN_REPR, as "tensor")
        cls = type(self)
        return _C._tensor_repr(self, tensor_contents, None if cls in _PLAIN_REPR else cls.__name__)

    # ---- autograd ----
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.backward, (self,), self, gradient=gradient, retain_graph=retain_graph,
                                         create_graph=create_graph, inputs=inputs)
        from . import autograd
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def retain_grad(self):
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.retain_grad, (self,), self)
        raise _missing("Tensor.retain_grad is not implemented in ctorch")

    def register_hook(self, hook):
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.register_hook, (self,), self, hook)
        raise _missing("Tensor.register_hook (autograd hooks) is not implemented in ctorch")

    # ---- the reflected operators PyTorch writes in Python (torch/_tensor.py): other OP self is the
    # function with the operands swapped; a TypeError becomes NotImplemented, so Python goes on to
    # its own "unsupported operand" error ----
    def __rsub__(self, other):
        try:
            if has_torch_function((self, other)):
                return handle_torch_function(Tensor.__rsub__, (self, other), self, other)
            return _C._VariableFunctions.rsub(self, other)
        except TypeError:
            return NotImplemented

    def __rdiv__(self, other):
        try:
            if has_torch_function((self, other)):
                return handle_torch_function(Tensor.__rdiv__, (self, other), self, other)
            return self.reciprocal() * other
        except TypeError:
            return NotImplemented

    __rtruediv__ = __rdiv__

    def __rmatmul__(self, other):
        try:
            if has_torch_function((self, other)):
                return handle_torch_function(Tensor.__rmatmul__, (self, other), self, other)
            return _C._VariableFunctions.matmul(other, self)
        except TypeError:
            return NotImplemented

    def __rpow__(self, other):
        return _reflected(Tensor.__rpow__, _C._VariableFunctions.pow, self, other)

    def __rmod__(self, other):
        return _reflected(Tensor.__rmod__, _C._VariableFunctions.remainder, self, other)

    def __rfloordiv__(self, other):
        return _reflected(Tensor.__rfloordiv__, _C._VariableFunctions.floor_divide, self, other)

    def __rlshift__(self, other):
        return _reflected(Tensor.__rlshift__, _C._VariableFunctions.bitwise_left_shift, self, other)

    def __rrshift__(self, other):
        return _reflected(Tensor.__rrshift__, _C._VariableFunctions.bitwise_right_shift, self, other)

    # ---- conversions ----
    def to(self, *args, **kwargs):
        """Tensor.to as PyTorch's binding parses it (three signatures); the overload it then calls:
        to.dtype for a dtype, to.dtype_layout for a device or a copy alone (self.options() given),
        self itself when nothing is asked."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.to, (self,), self, *args, **kwargs)
        from . import _device_mod
        device, dtype, non_blocking, copy, memory_format = _parse_to(args, kwargs, allow_copy=True)
        if device is not None:
            _device_mod._check_cpu(device)
            if dtype is not None:
                kw = {"non_blocking": non_blocking, "copy": copy}
                if memory_format is not None:
                    kw["memory_format"] = memory_format
                return _to_device(self, device, dtype, **kw)
        if device is None and dtype is None and not copy and memory_format is None:
            return self
        return _convert_to(self, dtype, non_blocking, copy, memory_format)

    def _to_type(self, name, args, kwargs):
        """float(), double(), ...: THPVariable_to_type, the to.dtype overload to the dtype named name."""
        if has_torch_function_unary(self):
            return handle_torch_function(getattr(Tensor, name), (self,), self, *args, **kwargs)
        parser = _TO_TYPE.get(name)
        if parser is None:
            parser = _TO_TYPE[name] = _argparse.Parser([f"{name}(*, MemoryFormat? memory_format=None)"])
        _, v = parser.parse(args, kwargs)
        return _convert_to(self, _dt[_METHOD_DTYPES.get(name, name)], False, False, v["memory_format"])

    def half(self, *args, **kwargs):
        return self._to_type("half", args, kwargs)

    def float(self, *args, **kwargs):
        return self._to_type("float", args, kwargs)

    def double(self, *args, **kwargs):
        return self._to_type("double", args, kwargs)

    def bfloat16(self, *args, **kwargs):
        return self._to_type("bfloat16", args, kwargs)

    def long(self, *args, **kwargs):
        return self._to_type("long", args, kwargs)

    def bool(self, *args, **kwargs):
        return self._to_type("bool", args, kwargs)

    def int(self, *args, **kwargs):
        return self._to_type("int", args, kwargs)

    def short(self, *args, **kwargs):
        return self._to_type("short", args, kwargs)

    def char(self, *args, **kwargs):
        return self._to_type("char", args, kwargs)

    def byte(self, *args, **kwargs):
        return self._to_type("byte", args, kwargs)

    def cuda(self, *args, **kwargs):
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.cuda, (self,), self, *args, **kwargs)
        from . import _device_mod
        _, v = _CUDA.parse(args, kwargs)
        device = v["device"]
        if isinstance(device, int) and not isinstance(device, builtins.bool):
            _device_mod.device(device)  # an index names the accelerator, which a CPU-only build lacks
        _device_mod._check_cpu("cuda" if device is None else device)
        return self

    def cpu(self, *args, **kwargs):
        """Tensor.cpu: to.dtype_layout with the CPU (self when nothing changes)."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.cpu, (self,), self, *args, **kwargs)
        _, v = _CPU.parse(args, kwargs)
        return _convert_to(self, None, False, False, v["memory_format"])

    def type(self, *args, **kwargs):
        """type(): the legacy type name; type(dtype): to.dtype; type(legacy type or its name):
        to.device with the CPU and that type's dtype (a CUDA type's name is the error a CPU-only
        build's lazy CUDA initialisation raises)."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.type, (self,), self, *args, **kwargs)
        _, v = _TYPE.parse(args, kwargs)
        dtype = v["dtype"]
        if dtype is None:
            return _LEGACY_NAMES.get(self.dtype, "torch.Tensor")
        from . import _legacy
        if isinstance(dtype, str) or _legacy.legacy_type(dtype) is not None:
            lt = _legacy.legacy_type(dtype)
            if lt is None:
                if isinstance(dtype, str) and _LEGACY_TYPE_NAME.fullmatch(dtype):
                    raise _missing(f"Tensor.type({dtype!r}) (a type ctorch has no dtype for) is not implemented in ctorch")
                raise ValueError(f"invalid type: '{dtype}'")
            if lt.is_cuda:
                raise RuntimeError(_NO_CUDA_LIBRARY)
            from . import _device_mod
            kw = {"non_blocking": v["non_blocking"], "copy": False}
            if v["memory_format"] is not None:
                kw["memory_format"] = v["memory_format"]
            return _to_device(self, _device_mod.cpu, lt.dtype, **kw)
        if not (isinstance(dtype, _C.dtype) or dtype in (builtins.float, builtins.int, builtins.bool, complex)):
            raise TypeError("dtype must be a type, str, or dtype object")
        return _convert_to(self, dtype, v["non_blocking"], False, v["memory_format"])

    def new(self, *args, **kwargs):
        """The legacy constructor with this tensor's dtype (torch/_legacy.py)."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.new, (self,), self, *args, **kwargs)
        from . import _legacy
        return _legacy.construct(self.dtype, args, kwargs, typed=True)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        """torch.tensor(data) with this tensor's dtype unless another is given."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.new_tensor, (self,), self, data, dtype=dtype, device=device,
                                         requires_grad=requires_grad, layout=layout, pin_memory=pin_memory)
        from . import _functions
        return _functions.tensor(data, dtype=self.dtype if dtype is None else dtype, device=device,
                                 requires_grad=requires_grad, pin_memory=pin_memory)

    def __format__(self, spec):
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.__format__, (self,), self, spec)
        if self.dim() == 0 and type(self) is Tensor:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        raise _missing("iterating over a Tensor (aten::unbind.int) is not implemented in ctorch")

    def __contains__(self, item):
        raise _missing("Tensor.__contains__ (aten::eq + any) is not implemented in ctorch")

    def __reduce_ex__(self, proto):
        raise _missing("pickling a Tensor is not implemented in ctorch")

    def __deepcopy__(self, memo):
        raise _missing("copy.deepcopy of a Tensor is not implemented in ctorch")

    def __array__(self, dtype=None):
        raise _missing("Tensor.__array__ (numpy interop) is not implemented in ctorch")

    # ---- operators as methods: _C.TensorBase's (src/ops/ops.def), and one alias ----
    negative = _C.TensorBase.neg

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """torch.norm(self, p, dim, keepdim, dtype=dtype), as PyTorch's Tensor.norm."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.norm, (self,), self, p=p, dim=dim, keepdim=keepdim, dtype=dtype)
        from .functional import norm
        return norm(self, p, dim, keepdim, dtype=dtype)

    def split(self, split_size, dim=0):
        """torch._VF.split / split_with_sizes, as Tensor.split calls them; a tuple of views."""
        if has_torch_function_unary(self):
            return handle_torch_function(Tensor.split, (self,), self, split_size, dim=dim)
        if isinstance(split_size, int):
            return _C.TensorBase.split(self, split_size, dim)
        return _C.TensorBase.split_with_sizes(self, split_size, dim)


_to_dtype = _ops.aten.to.dtype
_to_dtype_layout = _ops.aten.to.dtype_layout
_to_device = _ops.aten.to.device
# Tensor.type()'s names: the dtype tables' legacy CPU types
_LEGACY_NAMES = {dt: "torch." + name for name, dt in _C._legacy_type_names().items()}
# what a CPU-only build's lazy CUDA initialisation raises (a CUDA type named to Tensor.type)
_NO_CUDA_LIBRARY = ("Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: "
                    "a CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
                    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The "
                    "CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One "
                    "common culprit is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will "
                    "delete dynamic library dependencies if you don't depend on any of their symbols.  You can check if "
                    "this has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so library.")

_TO = _argparse.Parser([
    "to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)",
    "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
    "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
], numbers_as_tensors=True)
_CUDA = _argparse.Parser(["cuda(Device? device=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)"])
_CPU = _argparse.Parser(["cpu(*, MemoryFormat? memory_format=None)"])
# the legacy type names Tensor.type(str) takes ('torch.FloatTensor', 'torch.cuda.LongTensor', ...)
_LEGACY_TYPE_NAME = re.compile(r"torch\.(cuda\.)?(sparse\.)?(Float|Double|Half|BFloat16|Byte|Char|Short|Int|Long|Bool|"
                               r"ComplexFloat|ComplexDouble)Tensor")
_TO_TYPE = {}  # float(), half(), ...: one parser each, made on first use
_METHOD_DTYPES = {"char": "int8", "byte": "uint8"}  # the methods whose name is no name of their dtype
_TYPE = _argparse.Parser(["type(PyObject* dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)"])
# the dtype a Python number stands for as Tensor.to's `tensor` (a wrapped number's)
_NUMBER_DTYPES = ((builtins.bool, "bool"), (builtins.int, "int64"), (builtins.float, "float64"), (complex, "complex128"))


def _parse_to(args, kwargs, allow_copy):
    """parse_to_conversion: (device, dtype, non_blocking, copy, memory_format), None where not
    given. A tensor gives its dtype (PyTorch's to.device with the tensor's device and dtype: on
    the CPU, to.dtype's result)."""
    from . import _device_mod
    if not kwargs and len(args) == 1:  # the common calls, as the parser would read them
        a = args[0]
        if isinstance(a, _C.dtype):
            return None, a, False, False, None
        if isinstance(a, (str, _device_mod.device)):
            return _device_mod.device(a) if isinstance(a, str) else a, None, False, False, None
    index, v = _TO.parse(args, kwargs)
    copy_at = 3 if index == 0 else 2
    if not allow_copy and ("copy" in kwargs or len(args) > copy_at):
        raise RuntimeError(".to() does not accept copy argument")
    device = v.get("device")
    if device is not None and not isinstance(device, _device_mod.device):
        device = _device_mod.device(device)
    dtype = v.get("dtype")
    if index == 2:
        t = v["tensor"]
        dtype = t.dtype if isinstance(t, Tensor) else next(_dt[n] for k, n in _NUMBER_DTYPES if isinstance(t, k))
    elif dtype is not None and not isinstance(dtype, _C.dtype):
        dtype = {builtins.float: _dt["float64"], builtins.int: _dt["int64"], builtins.bool: _dt["bool"],
                 complex: _dt["complex128"]}[dtype]
    return device, dtype, v["non_blocking"], v["copy"], v["memory_format"]


def _convert_to(t, dtype, non_blocking, copy, memory_format):
    """dispatch_to: to.dtype for a dtype, else to.dtype_layout with t's own options; a channels-last
    format only where t already is in it (ctorch lays tensors out contiguously)."""
    from . import _device_mod
    if memory_format is not None and memory_format is not _device_mod.preserve_format and \
            memory_format is not _device_mod.contiguous_format:
        _device_mod._check_memory_format(t, memory_format)
        if dtype is None and not copy:
            return t
    kw = {"non_blocking": non_blocking, "copy": copy}
    if memory_format is not None:
        kw["memory_format"] = memory_format
    if dtype is not None:
        return _to_dtype(t, dtype, **kw)
    return _to_dtype_layout(t, dtype=t.dtype, layout=_device_mod.strided, device=_device_mod.cpu, **kw)


def _nowrap_functions():
    """The functions whose results the default __torch_function__ leaves as they are."""
    return {Tensor.grad.__get__}


def _convert(ret, cls):
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        ret = ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        ret = type(ret)(_convert(r, cls) for r in ret)
    return ret


_PLAIN_REPR.add(Tensor)


def _reflected(method, func, self, other):
    """other OP self as func(other, self), under __torch_function__ as PyTorch's
    _handle_torch_function_and_wrap_type_error_to_not_implemented runs it."""
    try:
        if has_torch_function((self, other)):
            return handle_torch_function(method, (self, other), self, other)
        return func(other, self)
    except TypeError:
        return NotImplemented
