"""torch.overrides: TorchFunctionMode on ctorch's function-mode stack.

A torch function called from Python (torch.add, Tensor.add, x + 1, x[0], x.shape, F.relu,
torch.ops.aten.add.Tensor, Tensor.backward, ...) is offered to the innermost function mode with
the arguments as written and `func` the public function called; the mode is off the stack while
its __torch_function__ runs, so calling func there reaches the next mode down and finally the
function itself. Functions written in Python take part through handle_torch_function, as
PyTorch's own do."""
from . import _C

_push_mode = _C._push_on_torch_function_stack
_pop_mode = _C._pop_torch_function_stack


class TorchFunctionMode:
    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        import warnings
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`")
        return cls(*args, **kwargs)


def _get_current_function_mode():
    n = _C._len_torch_function_stack()
    return _C._get_function_stack_at(n - 1) if n > 0 else None


def _get_current_function_mode_stack():
    return [_C._get_function_stack_at(i) for i in range(_C._len_torch_function_stack())]


def _get_current_function_mode_stack_len():
    return _C._len_torch_function_stack()


def _is_torch_function_mode_enabled():
    return _C._is_torch_function_mode_enabled()


def has_torch_function(relevant_args):
    """Whether a call must go through handle_torch_function: a Python function mode is innermost,
    or an argument is a tensor of a subclass with a __torch_function__."""
    return _C._has_torch_function(relevant_args)


has_torch_function_unary = _C._has_torch_function_unary
has_torch_function_variadic = _C._has_torch_function_variadic
# handle_torch_function(public_api, relevant_args, *args, **kwargs): the extension's protocol
# (python/src/torch_function.c), the one the torch functions written in C go through
handle_torch_function = _C.handle_torch_function


# ---- what a __torch_function__ can override, and the names of the functions ----

def is_tensor_like(inp):
    """A Tensor, or an object whose type has a __torch_function__."""
    return type(inp) is _tensor_class() or hasattr(inp, "__torch_function__")


def _tensor_class():
    import torch
    return torch.Tensor


def _resolve(qualified):
    """The object a recorded qualified name ('torch.Tensor.add', 'torch.Tensor.shape.__get__')
    names in this package, or None where ctorch lacks it."""
    import torch
    parts = qualified.split(".")
    if parts[0] != "torch":
        return None
    obj = torch
    try:
        for p in parts[1:]:
            obj = getattr(obj, p)
    except AttributeError:  # NotImplementedInCtorch is one: a name ctorch lacks
        return None
    return obj


_ignored = None


def get_ignored_functions():
    """The functions a __torch_function__ cannot override: PyTorch 2.6's list
    (_overrides_ignored.py, recorded), those of them ctorch has."""
    global _ignored
    if _ignored is None:
        from ._overrides_ignored import IGNORED
        found = set()
        for name in IGNORED:
            f = _resolve(name)
            if f is not None:
                try:
                    found.add(f)
                except TypeError:  # an unhashable attribute is no function
                    pass
        _ignored = found
    return _ignored


_overridable = None


def _tested_namespaces():
    import torch
    spaces = [("torch", torch, [n for n in dir(torch) if not n.startswith("__")])]
    for name in ("torch.functional", "torch.nn.functional", "torch.nn.init", "torch.Tensor", "torch.linalg", "torch.fft",
                 "torch.special"):
        ns = _resolve(name)
        if ns is not None:
            spaces.append((name, ns, dir(ns)))
    return spaces


def _get_overridable_functions():
    """({namespace: [function]}, {function: qualified name}), walking ctorch's namespaces as
    PyTorch walks its own: private names, in-place names and capitalised names are named but not
    overridable, nor are the ignored functions; a property is named by its __get__ and __set__."""
    global _overridable
    if _overridable is not None:
        return _overridable
    import collections
    import types
    overridable = collections.defaultdict(list)
    index = {}
    ignored = get_ignored_functions()
    tensor_class = _tensor_class()
    for ns_name, ns, names in _tested_namespaces():
        for name in names:
            ignore = False
            if ns is not tensor_class:
                if name.startswith("__"):
                    continue
                if name.startswith("_") or name.endswith("_") or not name[0].islower():
                    ignore = True
            try:
                func = getattr(ns, name)
            except AttributeError:
                continue
            if ns is tensor_class and (getattr(object, name, None) == func or name == "__weakref__"):
                continue
            if isinstance(func, types.ModuleType):
                continue
            if not callable(func) and hasattr(func, "__get__"):
                index[func.__get__] = f"{ns_name}.{name}.__get__"
                if hasattr(func, "__set__"):
                    index[func.__set__] = f"{ns_name}.{name}.__set__"
                if not ignore and func.__get__ not in ignored:
                    overridable[ns].append(func.__get__)
                continue
            if not callable(func):
                continue
            try:
                index[func] = f"{ns_name}.{name}"
            except TypeError:
                continue
            if ignore or func in ignored:
                continue
            overridable[ns].append(func)
    _overridable = (overridable, index)
    return _overridable


def get_overridable_functions():
    """{namespace: [function]} of the functions a __torch_function__ can override."""
    return _get_overridable_functions()[0]


def resolve_name(f):
    """The qualified name of a function of the torch API ('torch.add', 'torch.Tensor.add',
    'torch.Tensor.shape.__get__'), an operator's own name for an OpOverload(Packet), None for
    anything else."""
    if isinstance(f, (_C.OpOverload, _C.OpOverloadPacket)):
        return str(f)
    return _get_overridable_functions()[1].get(f)


def get_testing_overrides():
    """{function: a stand-in returning -1}, for every overridable function (PyTorch's stand-ins
    take each function's own parameters; these take any)."""
    def dummy(*args, **kwargs):
        return -1
    return {f: dummy for fs in get_overridable_functions().values() for f in fs}


def is_tensor_method_or_property(func):
    """A method or property getter of torch.Tensor."""
    return func in set(get_overridable_functions()[_tensor_class()]) or getattr(func, "__name__", None) == "__get__"


def wrap_torch_function(dispatcher):
    """A decorator: the function offers its call to __torch_function__ of the tensor-likes
    dispatcher(*args, **kwargs) names."""
    import functools

    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant_args = dispatcher(*args, **kwargs)
            if has_torch_function(relevant_args):
                return handle_torch_function(wrapped, relevant_args, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


def enable_reentrant_dispatch():
    """A with block in which __torch_dispatch__ may re-enter the dispatcher: ctorch keeps no
    Python TLS snapshot to restore, so the block changes nothing."""
    import contextlib
    return contextlib.nullcontext()


from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.overrides')
