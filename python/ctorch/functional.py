"""torch.functional: the torch functions PyTorch 2.6 writes in Python over its operators (einsum,
meshgrid, tensordot, norm, cartesian_prod), each calling ctorch's operators as PyTorch's does."""
import warnings

from . import _C
from .overrides import handle_torch_function, has_torch_function, has_torch_function_unary, has_torch_function_variadic

_VF = _C._VariableFunctions

__all__ = ["einsum", "meshgrid", "tensordot", "norm", "cartesian_prod", "split"]


def _is_tensor(x):
    from ._tensor import Tensor
    return isinstance(x, Tensor)


def einsum(*args):
    """torch.einsum(equation, *operands), torch.einsum(equation, [operands]) and the sublist form
    torch.einsum(op1, sublist1, op2, sublist2, ..., [sublist_out])."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if _is_tensor(args[0]):
        def parse_subscript(n):
            if n == Ellipsis:
                return "..."
            if 0 <= n < 26:
                return chr(ord("A") + n)
            if 26 <= n < 52:
                return chr(ord("a") + n - 26)
            raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")

        equation = ",".join("".join(parse_subscript(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(parse_subscript(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation = args[0]
        operands = args[1:]
    if has_torch_function(operands):
        return handle_torch_function(einsum, operands, equation, *operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    # PyTorch asks opt_einsum for a contraction path when it is installed and there are more than
    # two operands; ctorch has no opt_einsum, as PyTorch without it: left to right
    return _VF.einsum(equation, operands)


_meshgrid_warned = []


def meshgrid(*tensors, indexing=None):
    return _meshgrid(*tensors, indexing=indexing)


def _meshgrid(*tensors, indexing):
    if has_torch_function(tensors):
        return handle_torch_function(meshgrid, tensors, *tensors, indexing=indexing)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        if not _meshgrid_warned:  # aten::meshgrid's TORCH_WARN_ONCE
            _meshgrid_warned.append(True)
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                          "(Triggered internally at ./aten/src/ATen/native/TensorShape.cpp:3637.)", UserWarning,
                          stacklevel=3)
        return _VF.meshgrid(tensors)
    return _VF.meshgrid(tensors, indexing=indexing)


def tensordot(a, b, dims=2, out=None):
    if has_torch_function_variadic(a, b):
        return handle_torch_function(tensordot, (a, b), a, b, dims=dims, out=out)
    if not isinstance(dims, (tuple, list, int)) and not _is_tensor(dims):
        raise RuntimeError("tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] containing "
                           f"two lists, but got dims={dims}")
    dims_a, dims_b = [], []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if _is_tensor(dims):
        if dims.numel() > 1:
            assert dims.size()[0] == 2
            dims_a = dims[0].tolist()
            dims_b = dims[1].tolist()
        else:
            dims_val = int(dims.item())
            if dims_val < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims_a = list(range(-dims_val, 0))
            dims_b = list(range(dims_val))
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a = list(range(-dims, 0))
        dims_b = list(range(dims))
    if out is None:
        return _VF.tensordot(a, b, dims_a, dims_b)
    return _VF.tensordot(a, b, dims_a, dims_b, out=out)


def split(tensor, split_size_or_sections, dim=0):
    """torch.split: Tensor.split, which picks split or split_with_sizes by the argument's type."""
    if has_torch_function_unary(tensor):
        return handle_torch_function(split, (tensor,), tensor, split_size_or_sections, dim=dim)
    return tensor.split(split_size_or_sections, dim)


def cartesian_prod(*tensors):
    if has_torch_function(tensors):
        return handle_torch_function(cartesian_prod, tensors, *tensors)
    return _VF.cartesian_prod(tensors)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm: for strided CPU tensors, torch.linalg.vector_norm (and matrix_norm for the
    string orders over more than two dimensions, which ctorch lacks)."""
    if has_torch_function_unary(input):
        return handle_torch_function(norm, (input,), input, p=p, dim=dim, keepdim=keepdim, out=out, dtype=dtype)
    from . import linalg
    if dim is not None:
        _dim = [dim] if isinstance(dim, int) else dim
    else:
        _dim = None
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            if out is None:
                return linalg.vector_norm(input, 2, _dim, keepdim, dtype=dtype)
            return linalg.vector_norm(input, 2, _dim, keepdim, dtype=dtype, out=out)
        if _dim is None:
            _dim = list(range(input.ndim))
        if out is None:
            return linalg.matrix_norm(input, p, _dim, keepdim, dtype=dtype)
        return linalg.matrix_norm(input, p, _dim, keepdim, dtype=dtype, out=out)
    _p = 2.0 if p is None else p
    if out is None:
        return linalg.vector_norm(input, _p, _dim, keepdim, dtype=dtype)
    return linalg.vector_norm(input, _p, _dim, keepdim, dtype=dtype, out=out)

