"""torch.nn: Module, Linear, ReLU, GELU, Embedding, LayerNorm, BatchNorm1d, BatchNorm2d, GroupNorm, Sequential, ModuleList, Identity, Dropout,
CrossEntropyLoss; functional; init; utils (clip_grad_norm_)."""
from .. import _C
from .parameter import Parameter  # noqa: F401
from .modules import (GELU, BatchNorm1d, BatchNorm2d, CrossEntropyLoss, Dropout, Embedding, GroupNorm,  # noqa: F401
                      Identity, LayerNorm, Linear, Module, ModuleList, ReLU, Sequential)
from . import functional, init, utils  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn')
