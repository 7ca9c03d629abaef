"""torch.nn: Module, Linear, ReLU, GELU, Embedding, LayerNorm, Sequential, ModuleList, Identity, Dropout,
CrossEntropyLoss; functional; init; utils (clip_grad_norm_)."""
from .. import _C
from .parameter import Parameter  # noqa: F401
from .modules import (GELU, CrossEntropyLoss, Dropout, Embedding, Identity, LayerNorm, Linear, Module,  # noqa: F401
                      ModuleList, ReLU, Sequential)
from . import functional, init, utils  # noqa: F401


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.nn.{name} is not implemented in ctorch")
