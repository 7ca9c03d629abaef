"""torch.nn: Module, Linear, ReLU, Sequential, Identity, Dropout, CrossEntropyLoss; functional; init."""
from .. import _C
from .parameter import Parameter  # noqa: F401
from .modules import (CrossEntropyLoss, Dropout, Identity, Linear, Module, ModuleList, ReLU,  # noqa: F401
                      Sequential)
from . import functional, init  # noqa: F401


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.nn.{name} is not implemented in ctorch")
