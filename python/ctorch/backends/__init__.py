"""torch.backends: the CPU backend's facts (torch.backends.cpu)."""
from . import cpu  # noqa: F401


def __getattr__(name):
    from .._C import NotImplementedInCtorch
    raise NotImplementedInCtorch(f"torch.backends.{name} is not implemented in ctorch")
