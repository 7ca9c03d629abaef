"""torch.nn.Parameter: a Tensor subclass made with Tensor._make_subclass (data.detach(), then
requires_grad), as PyTorch makes it."""
from .. import _C
from .._tensor import _PLAIN_REPR, Tensor


class Parameter(Tensor):
    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .. import empty
            data = empty(0)
        if type(data) is Tensor or type(data) is Parameter:
            return Tensor._make_subclass(cls, data, requires_grad)
        # another tensor subclass (or anything else) the way PyTorch's Parameter takes it
        t = data.detach().requires_grad_(requires_grad)
        if type(t) is not type(data):
            raise RuntimeError(f"Creating a Parameter from an instance of type {type(data).__name__} requires that "
                               "detach() returns an instance of the same type, but return type "
                               f"{type(t).__name__} was found instead. To use the type as a Parameter, please correct "
                               "the detach() semantics defined by its __torch_dispatch__() implementation.")
        t._is_param = True
        return t

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    # as in PyTorch: torch functions on a Parameter return plain Tensors, without a detour
    # through Tensor.__torch_function__
    __torch_function__ = _C._disabled_torch_function_impl

    def __reduce_ex__(self, proto):
        raise _C.NotImplementedInCtorch("pickling a Parameter is not implemented in ctorch")


_PLAIN_REPR.add(Parameter)
