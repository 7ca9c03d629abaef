"""torch.nn: Module, Linear, ReLU, GELU, Embedding, LayerNorm, BatchNorm1d, BatchNorm2d, GroupNorm, Sequential,
ModuleList, Identity, Dropout, CrossEntropyLoss, Conv1d, Conv2d, Conv3d, MaxPool2d, AvgPool2d, AdaptiveAvgPool2d;
functional; init; utils (clip_grad_norm_)."""
from .. import _C
from .parameter import Parameter  # noqa: F401
from .modules import (GELU, AdaptiveAvgPool2d, AvgPool2d, BatchNorm1d, BatchNorm2d, Conv1d, Conv2d, Conv3d,  # noqa: F401
                      CrossEntropyLoss, Dropout, Embedding, GroupNorm, Identity, LayerNorm, Linear, MaxPool2d, Module,
                      ModuleList, ReLU, Sequential)
from . import functional, init, utils  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.nn')
