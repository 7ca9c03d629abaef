"""torch.nn: Module, Linear, ReLU, GELU, Embedding, LayerNorm, Sequential, ModuleList, Identity, Dropout,
CrossEntropyLoss, Conv1d, Conv2d, Conv3d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d; functional; init; utils
(clip_grad_norm_)."""
from .. import _C
from .parameter import Parameter  # noqa: F401
from .modules import (GELU, AdaptiveAvgPool2d, AvgPool2d, Conv1d, Conv2d, Conv3d, CrossEntropyLoss,  # noqa: F401
                      Dropout, Embedding, Identity, LayerNorm, Linear, MaxPool2d, Module, ModuleList, ReLU, Sequential)
from . import functional, init, utils  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn')
