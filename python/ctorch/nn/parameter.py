"""torch.nn.Parameter: a Tensor subclass made with Tensor._make_subclass (data.detach(), then
requires_grad), as PyTorch makes it."""
from .. import _C
from .._tensor import Tensor


class Parameter(Tensor):
    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .. import empty
            data = empty(0)
        return Tensor._make_subclass(cls, data, requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, proto):
        raise _C.NotImplementedInCtorch("pickling a Parameter is not implemented in ctorch")
