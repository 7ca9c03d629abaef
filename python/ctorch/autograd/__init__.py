"""torch.autograd: backward, grad modes, graph nodes and the profiler (ctorch's engine)."""
from .. import _C
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
from . import graph, profiler  # noqa: F401


def _make_grads(outputs, grads):
    """The gradients backward starts from, as torch.autograd._make_grads makes them: each given one
    checked against its output (the output's dtype, is_nested and shape read first, in that
    order, as a function mode sees), ones_like for a scalar output that requires grad. PyTorch's
    is Python, and what a function mode sees of it (those reads, torch.ones_like with its
    memory_format) is Python's to give; the C engine (ct_autograd_backward) makes the same
    checks, in the same order, with the same messages, for a C caller."""
    from .._functions import ones_like
    from .._device_mod import preserve_format
    new_grads = []
    for out, grad in zip(outputs, grads):
        out_dtype = out.dtype
        out.is_nested
        out_size = out.shape
        if isinstance(grad, _C.TensorBase):
            if tuple(out_size) != tuple(grad.size()):
                raise RuntimeError(f"Mismatch in shape: grad_output[{grads.index(grad)}] has a shape of {grad.shape} and "
                                   f"output[{outputs.index(out)}] has a shape of {out_size}.")
            if out_dtype.is_complex != grad.dtype.is_complex:
                raise RuntimeError(f"For complex Tensors, both grad_output and output are required to have the same "
                                   f"dtype. Mismatch in dtype: grad_output[{grads.index(grad)}] has a dtype of "
                                   f"{grad.dtype} and output[{outputs.index(out)}] has a dtype of {out_dtype}.")
            if grad.dtype != out_dtype:
                grad = grad.to(out_dtype)  # the engine's validate_outputs casts a root gradient to its output's dtype
            new_grads.append(grad)
        elif grad is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out_dtype.is_floating_point:
                    raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out_dtype}")
                new_grads.append(ones_like(out, memory_format=preserve_format))
            else:
                new_grads.append(None)
        else:
            raise TypeError("gradients can be either Tensors or None, but got " + type(grad).__name__)
    return new_grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """torch.autograd.backward: the implicit gradients are made here in Python, as PyTorch makes them
    (a dispatch mode logs their ones_like first), then one graph task runs from every root."""
    if grad_variables is not None:
        import warnings
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=2)
        if grad_tensors is not None:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to `backward()`. "
                               "Please only use `grad_tensors`.")
        grad_tensors = grad_variables
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = (tensors,) if isinstance(tensors, _C.TensorBase) else tuple(tensors)
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    elif isinstance(grad_tensors, _C.TensorBase):
        grad_tensors = [grad_tensors]
    else:
        grad_tensors = list(grad_tensors)
    grads = _make_grads(tensors, grad_tensors)
    if len(grads) != len(tensors) or len(grad_tensors) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grad_tensors)} gradients")
    # what ctorch's engine lacks, once PyTorch's own checks of the call have passed
    if create_graph:
        raise _C.NotImplementedInCtorch("torch.autograd.backward(create_graph=True) is not implemented in ctorch")
    if inputs is not None:
        raise _C.NotImplementedInCtorch("torch.autograd.backward(inputs=...) is not implemented in ctorch")
    if retain_graph is None:
        retain_graph = create_graph
    _C._autograd_backward(list(tensors), grads, retain_graph)


def grad(*args, **kwargs):
    raise _C.NotImplementedInCtorch("torch.autograd.grad is not implemented in ctorch (use backward)")


class Function:
    """torch.autograd.Function: custom Python autograd functions are not implemented."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

    @classmethod
    def apply(cls, *args, **kwargs):
        raise _C.NotImplementedInCtorch("torch.autograd.Function (custom autograd functions) is not implemented in ctorch")


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.autograd')
