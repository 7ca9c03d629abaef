"""torch.optim: Optimizer, SGD and AdamW."""
from .. import _C
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adamw import AdamW  # noqa: F401


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.optim')
