"""torch.linalg: vector_norm and norm (vectors: a 1-D input or an int dim, and ord None), each
calling ctorch's aten::linalg_vector_norm as PyTorch 2.6's torch._C._linalg functions do; the
matrix norms raise NotImplementedInCtorch."""
from .. import _C
from ..overrides import handle_torch_function, has_torch_function_unary

__all__ = ["vector_norm", "norm", "matrix_norm"]


def _aten():
    from .._ops import ops
    return ops.aten


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    if has_torch_function_unary(x):
        return handle_torch_function(vector_norm, (x,), x, ord, dim, keepdim, dtype=dtype, out=out)
    if isinstance(dim, int):
        dim = [dim]
    if out is not None:
        return _aten().linalg_vector_norm.out(x, ord, dim, keepdim, dtype=dtype, out=out)
    return _aten().linalg_vector_norm(x, ord, dim, keepdim, dtype=dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    raise _C.NotImplementedInCtorch("torch.linalg.matrix_norm (aten::linalg_matrix_norm) is not implemented in ctorch")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """linalg_norm (CompositeImplicitAutograd, LinearAlgebra.cpp): linalg_vector_norm unless ord is
    given for a matrix (dim of length 2, or a 2-D input without dim): linalg_matrix_norm, which
    ctorch lacks."""
    if has_torch_function_unary(A):
        return handle_torch_function(norm, (A,), A, ord, dim, keepdim, dtype=dtype, out=out)
    if isinstance(dim, int):
        dim = [dim]
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.dim()}D.")
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and A.dim() == 2)):
        return matrix_norm(A, ord, [0, 1] if dim is None else dim, keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)
