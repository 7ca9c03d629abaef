"""torch.optim: Optimizer, SGD and AdamW."""
from .. import _C
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adamw import AdamW  # noqa: F401


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.optim.{name} is not implemented in ctorch")
