"""torch.linalg: vector_norm, norm and matrix_norm, each calling ctorch's aten::linalg_vector_norm as
PyTorch 2.6's torch._C._linalg functions do (linalg_norm and linalg_matrix_norm are
CompositeImplicitAutograd there: a dispatch mode sees linalg_vector_norm); the nuclear norm and the
numeric matrix orders raise NotImplementedInCtorch."""
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
    """linalg_matrix_norm's checks (LinearAlgebra.cpp), then the Frobenius norm as
    linalg_vector_norm(A, 2, dim, keepdim); the nuclear norm and the numeric orders (svdvals,
    amax/amin of row sums) are not in ctorch."""
    if has_torch_function_unary(A):
        return handle_torch_function(matrix_norm, (A,), A, ord, dim, keepdim, dtype=dtype, out=out)
    if isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    if ord == "fro":
        return vector_norm(A, 2, dim, keepdim, dtype=dtype, out=out)
    raise _C.NotImplementedInCtorch(f"torch.linalg.matrix_norm(ord={ord!r}) is not implemented in ctorch")


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
