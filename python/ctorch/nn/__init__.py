"""torch.nn: Module, Linear, ReLU, GELU, Embedding, LayerNorm, Sequential, ModuleList, Identity, Dropout,
CrossEntropyLoss; functional; init; utils (clip_grad_norm_)."""
from .. import _C
from .parameter import Parameter  # noqa: F401
from .modules import (GELU, CrossEntropyLoss, Dropout, Embedding, Identity, LayerNorm, Linear, Module,  # noqa: F401
                      ModuleList, ReLU, Sequential)
from . import functional, init, utils  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn')
