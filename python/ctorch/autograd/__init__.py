"""torch.autograd: backward, grad modes, graph nodes and the profiler (ctorch's engine)."""
from .. import _C
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
from . import graph, profiler  # noqa: F401


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """torch.autograd.backward: one graph task from every root, as PyTorch runs it."""
    if create_graph:
        raise _C.NotImplementedInCtorch("torch.autograd.backward(create_graph=True) is not implemented in ctorch")
    if inputs is not None:
        raise _C.NotImplementedInCtorch("torch.autograd.backward(inputs=...) is not implemented in ctorch")
    if grad_variables is not None:
        grad_tensors = grad_variables
    if isinstance(tensors, _C.TensorBase):
        tensors = (tensors,)
    if isinstance(grad_tensors, _C.TensorBase):
        grad_tensors = (grad_tensors,)
    _C._autograd_backward(list(tensors), None if grad_tensors is None else list(grad_tensors), retain_graph)


def grad(*args, **kwargs):
    raise _C.NotImplementedInCtorch("torch.autograd.grad is not implemented in ctorch (use backward)")


class Function:
    """torch.autograd.Function: custom Python autograd functions are not implemented."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

    @classmethod
    def apply(cls, *args, **kwargs):
        raise _C.NotImplementedInCtorch("torch.autograd.Function (custom autograd functions) is not implemented in ctorch")


def __getattr__(name):
    raise _C.NotImplementedInCtorch(f"torch.autograd.{name} is not implemented in ctorch")
