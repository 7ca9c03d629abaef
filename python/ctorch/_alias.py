"""Makes `import torch` (and `import torch.x.y`) give ctorch's modules, so a PyTorch script runs
on ctorch unchanged. Installed first on sys.meta_path by `ctorch python`; a torch submodule
ctorch does not have raises ModuleNotFoundError saying so, never the installed PyTorch's."""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys


class _MissingModule(ModuleNotFoundError, NotImplementedError):
    pass


class TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self):
        self._real_specs = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        real = "ctorch" + fullname[len("torch"):]
        try:
            spec = importlib.util.find_spec(real)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            raise _MissingModule(f"No module named '{fullname}' (ctorch does not implement it)", name=fullname)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=spec.submodule_search_locations is not None)

    def create_module(self, spec):
        module = importlib.import_module("ctorch" + spec.name[len("torch"):])
        self._real_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        # the import system set __spec__ to the alias's; the module keeps its own
        real = self._real_specs.pop(module.__spec__.name, None)
        if real is not None:
            module.__spec__ = real


def install():
    """Puts the alias first on sys.meta_path and forgets any torch imported before."""
    if not any(isinstance(f, TorchAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, TorchAlias())
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        del sys.modules[name]


def install_as_torch():
    """From now on `import torch` (and `import torch.x.y`) gives ctorch's modules in this
    interpreter: for a plain python3 or a notebook kernel, where `ctorch python` did not do it.
    Call it before anything imports torch; a torch imported before is forgotten (sys.modules),
    though objects already taken from it are not replaced. Returns the ctorch module."""
    install()
    return sys.modules[__package__]
