"""What a missing name raises (Note [NotImplementedInCtorch] in python/src/errors.c): a name
PyTorch 2.6 has and ctorch lacks is NotImplementedInCtorch (its AttributeError kind, so hasattr()
says False); a name PyTorch lacks too is the AttributeError PyTorch raises."""
from . import _C
from ._pytorch_names import NAMES


def attribute(owner, name, obj_type=None):
    """The exception for owner.name: owner is a module's name ("torch.nn") or a class's
    ("Tensor"); obj_type names the instance's class in PyTorch's message ("'Tensor' object has
    no attribute 'x'")."""
    if name in NAMES.get(owner, ()):
        return _C._NotImplementedInCtorchAttribute(f"{owner}.{name} is not implemented in ctorch")
    if obj_type is not None:
        return AttributeError(f"'{obj_type}' object has no attribute '{name}'")
    return AttributeError(f"module '{owner}' has no attribute '{name}'")


def module_getattr(owner):
    """A module's __getattr__ raising attribute(owner, name)."""
    def __getattr__(name):
        raise attribute(owner, name)
    return __getattr__
