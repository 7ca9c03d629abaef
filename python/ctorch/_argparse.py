"""PyTorch's Python argument parser (torch/csrc/utils/python_arg_parser.cpp) for the methods and
functions the package writes in Python (Tensor.to, Tensor.float, torch.device, ...): a signature
written as PyTorch's binding writes it accepts the same calls, and a call no signature accepts
raises the TypeError PyTorch's parser raises, in its words.

    _TO = Parser(["to(Device device=None, ScalarType dtype=None, *, MemoryFormat? memory_format=None)", ...])
    index, values = _TO.parse(args, kwargs)   # the signature that matched, {name: value}

A value left out is the parameter's default (None for a `?` type without one)."""
import re

from . import _C

_REQUIRED = object()

# the package's own classes a check or message needs, put here by the modules that define them
# (_device_mod: device, layout, memory_format; _tensor: Size), so this parser, which they use,
# imports neither; () until then, which no value is an instance of
TYPES = {"device": (), "layout": (), "memory_format": (), "Size": ()}

# the type as a signature names it -> the name PyTorch's messages use
_SHOWN = {"Device": "torch.device", "ScalarType": "torch.dtype", "MemoryFormat": "torch.memory_format",
          "Layout": "torch.layout", "Generator": "torch.Generator", "Tensor": "Tensor", "bool": "bool",
          "int64_t": "int", "double": "float", "c10::string_view": "str", "PyObject*": "object"}
_PARAM = re.compile(r"\s*(\S+?)(\?)?\s+(\w+)(?:\s*=\s*(\S+))?\s*$")


def _default(text):
    if text is None:
        return _REQUIRED
    return {"None": None, "False": False, "True": True}.get(text, text if not re.fullmatch(r"-?\d+", text) else int(text))


def py_typename(o):
    """Py_TYPE(o)->tp_name as PyTorch's messages show it: a tensor's class name, torch.* for its own
    types, the class name otherwise."""
    if isinstance(o, TYPES["Size"]):
        return "torch.Size"
    if isinstance(o, TYPES["device"]):
        return "torch.device"
    if isinstance(o, TYPES["layout"]):
        return "torch.layout"
    if isinstance(o, TYPES["memory_format"]):
        return "torch.memory_format"
    if isinstance(o, (_C.dtype, _C.Generator)):
        return "torch." + type(o).__name__
    return type(o).__name__


def _check(kind, o, numbers_as_tensors):
    """FunctionParameter::check: whether o is a value of this type."""
    if kind == "Tensor":
        if isinstance(o, _C.TensorBase):
            return True
        return numbers_as_tensors and isinstance(o, (int, float, complex))
    if kind == "bool":
        return isinstance(o, bool)
    if kind == "int64_t":
        if isinstance(o, _C.TensorBase):
            return o.dim() == 0 and not o.is_floating_point() and not o.requires_grad
        return isinstance(o, int) and not isinstance(o, bool)
    if kind == "double":
        if isinstance(o, _C.TensorBase):
            return o.dim() == 0 and not o.requires_grad
        return isinstance(o, (int, float))
    if kind == "Device":
        return isinstance(o, (str, TYPES["device"])) or (isinstance(o, int) and not isinstance(o, bool))
    if kind == "ScalarType":
        return isinstance(o, _C.dtype) or o in (float, int, bool, complex)
    if kind == "MemoryFormat":
        return isinstance(o, TYPES["memory_format"])
    if kind == "c10::string_view":
        return isinstance(o, str)
    return kind == "PyObject*"


class _Param:
    __slots__ = ("kind", "name", "default", "allow_none", "kwarg_only")

    def __init__(self, text, kwarg_only):
        m = _PARAM.match(text)
        if not m:
            raise ValueError(f"bad parameter {text!r}")
        self.kind, optional_type, self.name, default = m.group(1), m.group(2), m.group(3), m.group(4)
        self.default = _default(default)
        if optional_type and self.default is _REQUIRED:
            self.default = None
        self.allow_none = bool(optional_type) or default == "None"
        self.kwarg_only = kwarg_only

    def shown(self):
        s = f"{_SHOWN.get(self.kind, self.kind)} {self.name}"
        if self.default is not _REQUIRED:
            s += f" = {self.default}"
        return s


class Signature:
    def __init__(self, text):
        m = re.fullmatch(r"(\w+)\((.*)\)", text.strip())
        self.name = m.group(1)
        self.params = []
        kwarg_only = False
        for part in [p for p in m.group(2).split(",") if p.strip()]:
            if part.strip() == "*":
                kwarg_only = True
                continue
            self.params.append(_Param(part, kwarg_only))
        self.min_args = sum(1 for p in self.params if p.default is _REQUIRED)
        self.max_args = len(self.params)
        self.max_pos_args = sum(1 for p in self.params if not p.kwarg_only)

    def shown(self):
        parts, star = [], False
        for p in self.params:
            if p.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(p.shown())
        return f"({', '.join(parts)})"

    def parse(self, args, kwargs, numbers_as_tensors, raise_error):
        """FunctionSignature::parse: {name: value}, or None (raise_error False) / TypeError."""
        nargs = len(args)
        if nargs > self.max_pos_args:
            if not raise_error:
                return None
            if self.min_args != self.max_pos_args:
                raise TypeError(f"{self.name}() takes from {self.min_args} to {self.max_pos_args} positional arguments "
                                f"but {nargs} were given")
            s = "" if self.max_pos_args == 1 else "s"
            raise TypeError(f"{self.name}() takes {self.max_pos_args} positional argument{s} but {nargs} "
                            f"{'was' if nargs == 1 else 'were'} given")
        values, pos, used = {}, 0, 0
        for i, p in enumerate(self.params):
            if not p.kwarg_only and pos < nargs:
                o, where = args[pos], pos + 1
                pos += 1
            elif p.name in kwargs:
                o, where = kwargs[p.name], None
                used += 1
            else:
                if p.default is _REQUIRED:
                    if not raise_error:
                        return None
                    missing = [q.name for q in self.params[i:] if q.default is _REQUIRED]
                    s = "" if len(missing) == 1 else "s"
                    raise TypeError(f"{self.name}() missing {len(missing)} required positional argument{s}: "
                                    + ", ".join(f'"{n}"' for n in missing))
                values[p.name] = p.default
                continue
            if o is None and p.allow_none:
                values[p.name] = None
            elif _check(p.kind, o, numbers_as_tensors):
                values[p.name] = o
            elif not raise_error:
                return None
            elif where is not None:
                raise TypeError(f"{self.name}(): argument '{p.name}' (position {where}) must be "
                                f"{_SHOWN.get(p.kind, p.kind)}, not {py_typename(o)}")
            else:
                raise TypeError(f"{self.name}(): argument '{p.name}' must be {_SHOWN.get(p.kind, p.kind)}, "
                                f"not {py_typename(o)}")
        if used < len(kwargs):
            if not raise_error:
                return None
            names = [p.name for p in self.params]
            for k in kwargs:
                if k not in names:
                    raise TypeError(f"{self.name}() got an unexpected keyword argument '{k}'")
                if names.index(k) < nargs:
                    raise TypeError(f"{self.name}() got multiple values for argument '{k}'")
        return values


def _got(args, kwargs):
    """format_invalid_args's description of a call: the positional types, then name=type for the
    keywords, last given first."""
    s = ", ".join(py_typename(a) for a in args)
    if kwargs:
        kw = ", ".join(f"{k}={py_typename(v)}" for k, v in reversed(list(kwargs.items())))
        s = f"{s}, {kw}" if args else f"{kw}, "
    return f"({s})"


class Parser:
    """PythonArgParser over one or more signatures of the same function, tried in order."""

    def __init__(self, signatures, numbers_as_tensors=False):
        self.signatures = [Signature(s) for s in signatures]
        self.name = self.signatures[0].name
        self.numbers_as_tensors = numbers_as_tensors

    def parse(self, args, kwargs):
        if len(self.signatures) == 1:
            return 0, self.signatures[0].parse(args, kwargs, self.numbers_as_tensors, True)
        for i, sig in enumerate(self.signatures):
            values = sig.parse(args, kwargs, self.numbers_as_tensors, False)
            if values is not None:
                return i, values
        # print_error: a call only one signature could take by its count gets that signature's error
        n = len(args) + len(kwargs)
        plausible = [s for s in self.signatures if s.min_args <= n <= s.max_args]
        if len(plausible) == 1:
            plausible[0].parse(args, kwargs, self.numbers_as_tensors, True)
        raise TypeError(f"{self.name}() received an invalid combination of arguments - got {_got(args, kwargs)}, but "
                        "expected one of:\n" + "".join(f" * {s.shown()}\n" for s in self.signatures))
