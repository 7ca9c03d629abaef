"""torch.ops and torch._ops: operators as Python objects (OpOverload, OpOverloadPacket) and their
schemas (torch.FunctionSchema's fields)."""
from . import _C

OpOverload = _C.OpOverload
OpOverloadPacket = _C.OpOverloadPacket


class Argument:
    """One argument or return of a schema (torch._C.Argument's fields)."""

    __slots__ = ("name", "type", "kind", "optional", "kwarg_only", "is_write", "has_default_value", "default_value")

    def __init__(self, name, type, kind, optional, kwarg_only, is_write, has_default, default):
        self.name = name
        self.type = type
        self.kind = kind
        self.optional = optional
        self.kwarg_only = kwarg_only
        self.is_write = is_write
        self.has_default_value = has_default
        self.default_value = default

    def __repr__(self):
        s = f"{self.type} {self.name}".strip()
        return s


class FunctionSchema:
    """func._schema: str() is the schema as PyTorch writes it."""

    __slots__ = ("name", "overload_name", "_text", "arguments", "returns")

    def __init__(self, overload):
        name, overload_name, text, args, rets = overload._schema_info()
        self.name = name
        self.overload_name = overload_name
        self._text = text
        self.arguments = [Argument(*a) for a in args]
        self.returns = [Argument(*r) for r in rets]

    @property
    def is_mutable(self):
        return any(a.is_write for a in self.arguments)

    def __str__(self):
        return self._text

    def __repr__(self):
        return self._text


_C._set_schema_factory(FunctionSchema)


class _OpNamespace:
    """torch.ops.aten: attribute access gives an OpOverloadPacket."""

    def __init__(self, name):
        self.name = name

    def __getattr__(self, op):
        if op.startswith("__"):
            # an operator may be named as a dunder (aten::__lshift__); any other such name is
            # Python asking for a protocol attribute the namespace does not have
            try:
                packet = _C._op_packet(f"{self.name}::{op}")
            except Exception:
                raise AttributeError(op) from None
            setattr(self, op, packet)
            return packet
        packet = _C._op_packet(f"{self.name}::{op}")
        setattr(self, op, packet)
        return packet

    def __repr__(self):
        return f"_OpNamespace('{self.name}')"


class _Ops:
    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        n = _OpNamespace(ns)
        setattr(self, ns, n)
        return n


ops = _Ops()
