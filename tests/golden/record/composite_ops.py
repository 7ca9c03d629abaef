"""Records the composites family's test table under PyTorch 2.6, for tests/python/composite_ops.py to
replay through ctorch: einsum, meshgrid, tensordot, kron, cartesian_prod, the norms (torch.norm,
Tensor.norm, linalg_vector_norm, F.normalize), glu, binary_cross_entropy_with_logits, the margin
losses (hinge_embedding, margin_ranking, soft_margin, multilabel_soft_margin, cosine_embedding,
triplet_margin), cosine_similarity, pairwise_distance, poisson_nll_loss, gaussian_nll_loss and the
in-place activations' gradients (silu_, mish_, hardsigmoid_, hardswish_).

Usage (under real PyTorch 2.6; the reference tool runs it):
    the reference tool: tests/golden/record/composite_ops.py tests/golden/torch-2.6/composite_ops.json

Each case is a Python expression over `torch`, `F` (torch.nn.functional), `X(shape, dtype)` (an arange
of that shape in that dtype) and `V(shape, seed, dtype)` (values of sin, made from Python floats so
both sides hold the same numbers), evaluated as written by the recorder and by the replay:
  value cases   the result's values, dtype and shape for the dtypes listed with the case
  grad cases    float64: the inputs' gradients (x0, x1, ... each requires grad) for a fixed cotangent,
                and the grad_fn's name
  log cases     the operators a dispatch mode sees (forward, and backward for the "bwd" ones)
  warn cases    the warnings the call gives (category and message)
  errors        the exception's type and message
Output: JSON {"torch": version, "cases": [{"id", "expr" | "grad" | "log" | "warn", "result" | "error"}]}."""
import json
import math
import sys
import warnings

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

FLOATS = ["float32", "float64"]
NUM = ["float32", "float64", "int64"]


def X(shape, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n, dtype=torch.float64).reshape(shape).to(dtype)


def V(shape, seed=0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    vals = [round(math.sin(1.3 * i + seed) * 2.0, 6) for i in range(n)]
    return torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dtype)


def P(shape, seed=0, dtype=torch.float32):
    """positive values in (0.1, 0.9)"""
    n = 1
    for s in shape:
        n *= s
    vals = [round(0.5 + 0.4 * math.sin(0.7 * i + seed), 6) for i in range(n)]
    return torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dtype)


def S(shape, seed=0, dtype=torch.float32):
    """signs: +1 / -1"""
    n = 1
    for s in shape:
        n *= s
    vals = [1.0 if math.sin(2.1 * i + seed) >= 0 else -1.0 for i in range(n)]
    return torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dtype)


VALUE = [  # (id, expr, dtypes): D is replaced by the dtype
    ("einsum_mm", "torch.einsum('ij,jk->ik', X([2, 3], D), X([3, 4], D))", NUM),
    ("einsum_bmm", "torch.einsum('bij,bjk->bik', X([2, 2, 3], D), X([2, 3, 2], D))", NUM),
    ("einsum_diag", "torch.einsum('ii->i', X([3, 3], D))", NUM),
    ("einsum_trace", "torch.einsum('ii', X([3, 3], D))", NUM),
    ("einsum_dot", "torch.einsum('i,i->', X([4], D), X([4], D))", NUM),
    ("einsum_outer", "torch.einsum('i,j->ij', X([3], D), X([2], D))", NUM),
    ("einsum_ell_t", "torch.einsum('...ij->...ji', X([2, 2, 3], D))", NUM),
    ("einsum_attn", "torch.einsum('bhqd,bhkd->bhqk', V([2, 2, 3, 4], 0, D), V([2, 2, 5, 4], 1, D))", FLOATS),
    ("einsum_list", "torch.einsum('ij,jk', [X([2, 3], D), X([3, 2], D)])", NUM),
    ("einsum_sum", "torch.einsum('ij->', X([2, 3], D))", NUM),
    ("einsum_colsum", "torch.einsum('ij->j', X([2, 3], D))", NUM),
    ("einsum_three", "torch.einsum('ij,jk,kl->il', X([2, 3], D), X([3, 2], D), X([2, 2], D))", NUM),
    ("einsum_bcast", "torch.einsum('...j,j->...', X([2, 3, 4], D), X([4], D))", NUM),
    ("einsum_sublist", "torch.einsum(X([2, 3], D), [0, 1], X([3, 4], D), [1, 2], [0, 2])", NUM),
    ("einsum_space", "torch.einsum('i j , j k -> i k', X([2, 3], D), X([3, 2], D))", NUM),
    ("einsum_upper", "torch.einsum('Ab,bC->AC', X([2, 3], D), X([3, 2], D))", NUM),
    ("einsum_size1", "torch.einsum('ij,jk->ik', X([2, 1], D), X([3, 4], D))", NUM),
    ("meshgrid_ij", "torch.meshgrid(X([3], D), X([2], D), indexing='ij')", NUM),
    ("meshgrid_xy", "torch.meshgrid(X([3], D), X([2], D), indexing='xy')", NUM),
    ("meshgrid_list", "torch.meshgrid([X([2], D), X([3], D), X([2], D)], indexing='xy')", NUM),
    ("meshgrid_0d", "torch.meshgrid(X([], D), X([2], D), indexing='ij')", NUM),
    ("tensordot", "torch.tensordot(X([2, 3, 4], D), X([3, 4, 2], D))", NUM),
    ("tensordot_1", "torch.tensordot(X([2, 3], D), X([3, 2], D), dims=1)", NUM),
    ("tensordot_lists", "torch.tensordot(X([2, 3, 4], D), X([4, 3], D), dims=([1, 2], [1, 0]))", NUM),
    ("tensordot_0", "torch.tensordot(X([2], D), X([3], D), dims=0)", NUM),
    ("kron", "torch.kron(X([2, 2], D), X([2, 3], D))", NUM),
    ("kron_rank", "torch.kron(X([2], D), X([2, 2], D))", NUM),
    ("cartesian_prod", "torch.cartesian_prod(X([2], D), X([3], D))", NUM),
    ("cartesian_prod_1", "torch.cartesian_prod(X([3], D))", NUM),
    ("norm", "torch.norm(V([3, 4], 0, D))", FLOATS),
    ("norm_p1", "torch.norm(V([3, 4], 0, D), 1)", FLOATS),
    ("norm_inf", "torch.norm(V([3, 4], 0, D), float('inf'), dim=1)", FLOATS),
    ("norm_dim", "torch.norm(V([3, 4], 0, D), dim=0, keepdim=True)", FLOATS),
    ("norm_p3", "torch.norm(V([3, 4], 0, D), 3, (0, 1))", FLOATS),
    ("norm_fro_dim", "torch.norm(V([2, 3, 4], 0, D), 'fro', (1, 2))", FLOATS),
    ("matrix_norm_fro", "torch.linalg.matrix_norm(V([2, 3, 4], 0, D))", FLOATS),
    ("linalg_norm_fro", "torch.linalg.norm(V([3, 4], 0, D), 'fro')", FLOATS),
    ("norm_p0", "torch.norm(V([3, 4], 0, D), 0)", FLOATS),
    ("tnorm", "V([3, 4], 0, D).norm()", FLOATS),
    ("tnorm_p", "V([3, 4], 0, D).norm(p=1, dim=1)", FLOATS),
    ("tnorm_dtype", "V([3, 4], 0, D).norm(dtype=torch.float64)", FLOATS),
    ("vector_norm", "torch.linalg.vector_norm(V([3, 4], 0, D), 2, dim=(0, 1))", FLOATS),
    ("vector_norm_ninf", "torch.linalg.vector_norm(V([3, 4], 0, D), float('-inf'), dim=-1)", FLOATS),
    ("linalg_norm_vec", "torch.linalg.norm(V([5], 0, D))", FLOATS),
    ("linalg_norm_vec_ord", "torch.linalg.norm(V([5], 0, D), 3)", FLOATS),
    ("linalg_norm_dim", "torch.linalg.norm(V([3, 4], 0, D), dim=1)", FLOATS),
    ("normalize", "F.normalize(V([3, 4], 0, D))", FLOATS),
    ("normalize_p1", "F.normalize(V([3, 4], 0, D), p=1, dim=0)", FLOATS),
    ("normalize_zero", "F.normalize(torch.zeros(2, 3, dtype=D))", FLOATS),
    ("glu", "F.glu(V([3, 4], 0, D))", FLOATS),
    ("glu_dim0", "F.glu(V([4, 3], 0, D), 0)", FLOATS),
    ("bce_logits", "F.binary_cross_entropy_with_logits(V([3, 4], 0, D), P([3, 4], 1, D))", FLOATS),
    ("bce_logits_none", "F.binary_cross_entropy_with_logits(V([3, 4], 0, D), P([3, 4], 1, D), reduction='none')", FLOATS),
    ("bce_logits_w", "F.binary_cross_entropy_with_logits(V([3, 4], 0, D), P([3, 4], 1, D), weight=P([4], 2, D), reduction='sum')", FLOATS),
    ("bce_logits_pw", "F.binary_cross_entropy_with_logits(V([3, 4], 0, D), P([3, 4], 1, D), pos_weight=P([4], 3, D) * 3)", FLOATS),
    ("bce_logits_both", "F.binary_cross_entropy_with_logits(V([3, 4], 0, D), P([3, 4], 1, D), weight=P([3, 1], 2, D), pos_weight=P([4], 3, D) * 3, reduction='none')", FLOATS),
    ("hinge", "F.hinge_embedding_loss(V([3, 4], 0, D), S([3, 4], 1, D))", FLOATS),
    ("hinge_none", "F.hinge_embedding_loss(V([3, 4], 0, D), S([3, 4], 1, D), margin=0.5, reduction='none')", FLOATS),
    ("margin_ranking", "F.margin_ranking_loss(V([5], 0, D), V([5], 1, D), S([5], 2, D))", FLOATS),
    ("margin_ranking_none", "F.margin_ranking_loss(V([5], 0, D), V([5], 1, D), S([5], 2, D), margin=0.3, reduction='none')", FLOATS),
    ("soft_margin", "F.soft_margin_loss(V([3, 4], 0, D), S([3, 4], 1, D))", FLOATS),
    ("soft_margin_none", "F.soft_margin_loss(V([3, 4], 0, D), S([3, 4], 1, D), reduction='none')", FLOATS),
    ("soft_margin_sum", "F.soft_margin_loss(V([3, 4], 0, D), S([3, 4], 1, D), reduction='sum')", FLOATS),
    ("multilabel_soft_margin", "F.multilabel_soft_margin_loss(V([3, 4], 0, D), P([3, 4], 1, D).round())", FLOATS),
    ("multilabel_soft_margin_w", "F.multilabel_soft_margin_loss(V([3, 4], 0, D), P([3, 4], 1, D).round(), weight=P([4], 2, D), reduction='none')", FLOATS),
    ("cosine_similarity", "F.cosine_similarity(V([3, 4], 0, D), V([3, 4], 1, D))", FLOATS),
    ("cosine_similarity_dim0", "F.cosine_similarity(V([3, 4], 0, D), V([1, 4], 1, D), dim=0)", FLOATS),
    ("cosine_similarity_zero", "F.cosine_similarity(torch.zeros(2, 3, dtype=D), V([2, 3], 1, D))", FLOATS),
    ("cosine_embedding", "F.cosine_embedding_loss(V([3, 4], 0, D), V([3, 4], 1, D), S([3], 2, D))", FLOATS),
    ("cosine_embedding_none", "F.cosine_embedding_loss(V([3, 4], 0, D), V([3, 4], 1, D), S([3], 2, D), margin=0.2, reduction='none')", FLOATS),
    ("pairwise_distance", "F.pairwise_distance(V([3, 4], 0, D), V([3, 4], 1, D))", FLOATS),
    ("pairwise_distance_p1", "F.pairwise_distance(V([3, 4], 0, D), V([4], 1, D), p=1, keepdim=True)", FLOATS),
    ("pairwise_distance_1d", "F.pairwise_distance(V([4], 0, D), V([4], 1, D))", FLOATS),
    ("triplet", "F.triplet_margin_loss(V([3, 4], 0, D), V([3, 4], 1, D), V([3, 4], 2, D))", FLOATS),
    ("triplet_swap", "F.triplet_margin_loss(V([3, 4], 0, D), V([3, 4], 1, D), V([3, 4], 2, D), margin=2.0, p=1, swap=True, reduction='none')", FLOATS),
    ("poisson_nll", "F.poisson_nll_loss(V([3, 4], 0, D), P([3, 4], 1, D) * 4)", FLOATS),
    ("poisson_nll_nolog", "F.poisson_nll_loss(P([3, 4], 0, D), P([3, 4], 1, D) * 4, log_input=False, reduction='none')", FLOATS),
    ("poisson_nll_full", "F.poisson_nll_loss(V([3, 4], 0, D), P([3, 4], 1, D) * 4, full=True, reduction='sum')", FLOATS),
    ("gaussian_nll", "F.gaussian_nll_loss(V([3, 4], 0, D), V([3, 4], 1, D), P([3, 4], 2, D))", FLOATS),
    ("gaussian_nll_full", "F.gaussian_nll_loss(V([3, 4], 0, D), V([3, 4], 1, D), P([3], 2, D), full=True, reduction='none')", FLOATS),
    ("kl_div_batchmean", "F.kl_div(V([3, 4], 0, D), P([3, 4], 1, D), reduction='batchmean')", FLOATS),
    ("l1_loss", "F.l1_loss(V([3, 4], 0, D), V([3, 4], 1, D))", FLOATS),
    ("sum_out", "torch.sum(X([3, 4], D), 1, out=torch.empty(0, dtype=D))", NUM),
    ("sum_out_keepdim", "torch.sum(X([2, 3, 4], D), (0, 2), True, out=torch.empty(1, 3, 1, dtype=D))", NUM),
    ("sum_out_dtype", "torch.sum(X([3, 4], D), 0, dtype=torch.float64, out=torch.empty(4, dtype=torch.float64))", NUM),
    ("mean_out", "torch.mean(V([3, 4], 0, D), 0, out=torch.empty(4, dtype=D))", FLOATS),
    ("mean_out_wider", "torch.mean(V([3, 4], 0, D), 1, out=torch.empty(3, dtype=torch.float64))", FLOATS),
    ("amax_out", "torch.amax(X([3, 4], D), 1, out=torch.empty(3, dtype=D))", NUM),
    ("amin_out", "torch.amin(X([3, 4], D), (0, 1), out=torch.empty(5, dtype=D))", NUM),
    ("prod_out", "torch.prod(X([3, 4], D), 1, out=torch.empty(0, dtype=D))", NUM),
    ("prod_out_keepdim", "torch.prod(X([3, 4], D), 0, True, dtype=torch.float64, out=torch.empty(1, 4, dtype=torch.float64))", NUM),
    ("cumsum_out", "torch.cumsum(X([3, 4], D), 1, out=torch.empty(3, 4, dtype=D))", NUM),
    ("cumsum_out_resize", "torch.cumsum(X([3, 4], D), 0, out=torch.empty(0, dtype=D))", NUM),
    ("sort_values", "torch.ops.aten.sort.values(V([3, 4], 0, D), 1, values=torch.empty(0, dtype=D), indices=torch.empty(0, dtype=torch.int64))", FLOATS),
    ("sort_values_desc", "torch.ops.aten.sort.values(X([3, 4], D).flip(1), 0, True, values=torch.empty(3, 4, dtype=D), indices=torch.empty(3, 4, dtype=torch.int64))", NUM),
    ("topk_values", "torch.ops.aten.topk.values(V([3, 4], 0, D), 2, values=torch.empty(0, dtype=D), indices=torch.empty(0, dtype=torch.int64))", FLOATS),
    ("silu_", "F.silu(V([5], 0, D), inplace=True)", FLOATS),
    ("hardswish_", "F.hardswish(V([5], 0, D) * 2, inplace=True)", FLOATS),
]
ERRORS = [
    ("einsum_no_operands", "torch.einsum('i')"),
    ("einsum_fewer", "torch.einsum('i,j', X([2]))"),
    ("einsum_more", "torch.einsum('i', X([2]), X([2]))"),
    ("einsum_bad_char", "torch.einsum('i1', X([2, 2]))"),
    ("einsum_bad_out_char", "torch.einsum('ij->i1', X([2, 2]))"),
    ("einsum_dims", "torch.einsum('ij', X([2]))"),
    ("einsum_dims_ell", "torch.einsum('ij...', X([2]))"),
    ("einsum_dot", "torch.einsum('i.j', X([2, 2]))"),
    ("einsum_two_ell", "torch.einsum('......', X([2, 2]))"),
    ("einsum_out_twice", "torch.einsum('ij->ii', X([2, 2]))"),
    ("einsum_out_missing", "torch.einsum('ij->k', X([2, 2]))"),
    ("einsum_out_two_ell", "torch.einsum('...->......', X([2, 2]))"),
    ("einsum_out_dot", "torch.einsum('...->.', X([2, 2]))"),
    ("einsum_size", "torch.einsum('ij,jk', X([2, 3]), X([4, 2]))"),
    ("einsum_diag_size", "torch.einsum('ii', X([2, 3]))"),
    ("einsum_ell_bcast", "torch.einsum('...,...', X([2]), X([3]))"),
    ("einsum_path_len", "torch.ops.aten.einsum('ij,jk', [X([2, 3]), X([3, 2])], path=[0])"),
    ("einsum_path_self", "torch.ops.aten.einsum('ij,jk', [X([2, 3]), X([3, 2])], path=[0, 0])"),
    ("einsum_path_oob", "torch.ops.aten.einsum('ij,jk', [X([2, 3]), X([3, 2])], path=[0, 2])"),
    ("einsum_py_args", "torch.einsum('ij')"),
    ("einsum_dtype", "torch.einsum('ij,jk', X([2, 3]), X([3, 2], torch.float64))"),
    ("meshgrid_empty", "torch.meshgrid([], indexing='ij')"),
    ("meshgrid_2d", "torch.meshgrid(X([2, 2]), X([2]), indexing='ij')"),
    ("meshgrid_indexing", "torch.meshgrid(X([2]), X([2]), indexing='ab')"),
    ("meshgrid_dtype", "torch.meshgrid(X([2]), X([2], torch.float64), indexing='ij')"),
    ("tensordot_neg", "torch.tensordot(X([2, 3]), X([3, 2]), dims=-1)"),
    ("tensordot_big", "torch.tensordot(X([2, 3]), X([3, 2]), dims=3)"),
    ("tensordot_len", "torch.tensordot(X([2, 3]), X([3, 2]), dims=([0, 1], [0]))"),
    ("tensordot_dtype", "torch.tensordot(X([2, 3]), X([3, 2], torch.float64), dims=1)"),
    ("tensordot_size", "torch.tensordot(X([2, 3]), X([2, 2]), dims=([1], [0]))"),
    ("tensordot_type", "torch.tensordot(X([2, 3]), X([3, 2]), dims='a')"),
    ("norm_int", "torch.norm(X([3], torch.int64))"),
    ("norm_str", "torch.norm(X([3, 3]), 'abc')"),
    ("vector_norm_int", "torch.linalg.vector_norm(X([3], torch.int64))"),
    ("vector_norm_neg_empty", "torch.linalg.vector_norm(torch.zeros(0), -1)"),
    ("glu_odd", "F.glu(X([3, 3]))"),
    ("glu_0d", "F.glu(X([]))"),
    ("glu_dim", "F.glu(X([2, 4]), 2)"),
    ("bce_logits_size", "F.binary_cross_entropy_with_logits(X([3]), X([4]))"),
    ("margin_ranking_dims", "F.margin_ranking_loss(X([3]), X([3]), X([1, 3]))"),
    ("triplet_margin", "F.triplet_margin_loss(X([3, 4]), X([3, 4]), X([3, 4]), margin=0)"),
    ("triplet_dims", "F.triplet_margin_loss(X([3, 4]), X([3]), X([3, 4]))"),
    ("cosine_embedding_dims", "F.cosine_embedding_loss(X([3, 4]), X([3, 4]), X([3, 1]))"),
    ("cosine_similarity_int", "F.cosine_similarity(X([3], torch.int64), X([3], torch.int64), dim=0)"),
    ("pairwise_distance_bad", "F.pairwise_distance(X([3, 4]), X([3, 5]))"),
    ("poisson_red", "F.poisson_nll_loss(X([3]), X([3]), reduction='x')"),
    ("gaussian_var", "F.gaussian_nll_loss(X([3, 4]), X([3, 4]), torch.ones(2))"),
    ("gaussian_neg", "F.gaussian_nll_loss(X([3, 4]), X([3, 4]), -torch.ones(3, 4))"),
    ("soft_margin_red", "F.soft_margin_loss(X([3]), X([3]), reduction='x')"),
    ("multilabel_red", "F.multilabel_soft_margin_loss(X([3, 2]), X([3, 2]), reduction='x')"),
    ("hinge_size", "F.hinge_embedding_loss(X([3]), X([4]))"),
    ("einsum_empty_list", "torch.ops.aten.einsum('i', [])"),
    ("mean_out_dtype", "torch.mean(X([3], torch.int64), [], dtype=torch.float64, out=torch.empty(()))"),
    ("mean_out_int", "torch.mean(X([3], torch.int64), 0, out=torch.empty(()))"),
    ("mean_out_int_dtype", "torch.mean(X([3]), 0, dtype=torch.int64, out=torch.empty((), dtype=torch.int64))"),
    ("sum_out_dtype", "torch.sum(X([3]), 0, dtype=torch.float64, out=torch.empty(()))"),
    ("amax_out_dtype", "torch.amax(X([3, 4]), 1, out=torch.empty(3, dtype=torch.float64))"),
    ("amin_out_dtype", "torch.amin(X([3, 4], torch.int64), 1, out=torch.empty(3))"),
    ("sum_out_grad", "torch.sum(X([3]).requires_grad_(), 0, out=torch.empty(()))"),
    ("sort_values_dtype", "torch.ops.aten.sort.values(X([3]), values=torch.empty(0, dtype=torch.float64), indices=torch.empty(0, dtype=torch.int64))"),
    ("sort_indices_dtype", "torch.ops.aten.sort.values(X([3]), values=torch.empty(0), indices=torch.empty(0, dtype=torch.int32))"),
    ("topk_indices_dtype", "torch.ops.aten.topk.values(X([3]), 1, values=torch.empty(0), indices=torch.empty(0))"),
    ("sort_values_grad", "torch.ops.aten.sort.values(X([3]).requires_grad_(), values=torch.empty(0), indices=torch.empty(0, dtype=torch.int64))"),
    ("topk_values_grad", "torch.ops.aten.topk.values(X([3]).requires_grad_(), 1, values=torch.empty(0), indices=torch.empty(0, dtype=torch.int64))"),
    ("prod_out_dtype", "torch.prod(X([3]), 0, dtype=torch.float64, out=torch.empty(()))"),
    ("cumsum_out_dtype", "torch.cumsum(X([3]), 0, out=torch.empty(3, dtype=torch.int64), dtype=torch.float64)"),
    ("cumsum_out_dim", "torch.cumsum(X([3]), 1, out=torch.empty(3))"),
    ("cumsum_out_grad", "torch.cumsum(X([3]).requires_grad_(), 0, out=torch.empty(3))"),
    ("amax_out_grad", "torch.amax(X([3]).requires_grad_(), 0, out=torch.empty(()))"),
    ("cartesian_prod_2d", "torch.cartesian_prod(X([2, 2]), X([2]))"),
    ("norm_op_int", "torch.ops.aten.norm.ScalarOpt_dim(X([3], torch.int64), 2, [0])"),
    ("cosine_embedding_1d_target", "F.cosine_embedding_loss(X([3]), X([3]), X([3]))"),
    ("cosine_embedding_0d_target", "F.cosine_embedding_loss(X([2, 3]), X([2, 3]), X([]))"),
    ("glu_backward_shape", "torch.ops.aten.glu_backward(X([3]), X([2, 4]), 1)"),
    ("glu_int", "F.glu(X([2, 4], torch.int64))"),
    ("matrix_norm_1d", "torch.linalg.matrix_norm(X([3]))"),
    ("matrix_norm_dim", "torch.linalg.matrix_norm(X([3, 3]), dim=(0,))"),
    ("linalg_norm_dim3", "torch.linalg.norm(X([2, 2, 2]), dim=(0, 1, 2))"),
    ("linalg_norm_ord3d", "torch.linalg.norm(X([2, 2, 2]), 2)"),
]
GRAD = [  # (id, expr over x0, x1, ..., [(maker, shape, seed)...]); every input requires grad
    ("einsum_mm", "torch.einsum('ij,jk->ik', x0, x1)", [("V", [2, 3], 0), ("V", [3, 4], 1)]),
    ("einsum_diag", "torch.einsum('ii->i', x0)", [("V", [3, 3], 0)]),
    ("einsum_trace", "torch.einsum('ii', x0)", [("V", [3, 3], 0)]),
    ("einsum_outer", "torch.einsum('i,j->ij', x0, x1)", [("V", [3], 0), ("V", [2], 1)]),
    ("einsum_attn", "torch.einsum('bhqd,bhkd->bhqk', x0, x1)", [("V", [1, 2, 3, 4], 0), ("V", [1, 2, 2, 4], 1)]),
    ("meshgrid", "torch.stack(torch.meshgrid(x0, x1, indexing='xy'))", [("V", [3], 0), ("V", [2], 1)]),
    ("tensordot", "torch.tensordot(x0, x1, dims=([1], [0]))", [("V", [2, 3], 0), ("V", [3, 2], 1)]),
    ("kron", "torch.kron(x0, x1)", [("V", [2, 2], 0), ("V", [2, 3], 1)]),
    ("cartesian_prod", "torch.cartesian_prod(x0, x1)", [("V", [2], 0), ("V", [3], 1)]),
    ("norm", "torch.norm(x0)", [("V", [3, 4], 0)]),
    ("norm_p1_dim", "torch.norm(x0, 1, dim=1)", [("V", [3, 4], 0)]),
    ("norm_p3", "torch.norm(x0, 3)", [("V", [3, 4], 0)]),
    ("norm_inf", "torch.norm(x0, float('inf'), dim=0)", [("V", [3, 4], 0)]),
    ("normalize", "F.normalize(x0)", [("V", [3, 4], 0)]),
    ("glu", "F.glu(x0)", [("V", [3, 4], 0)]),
    ("glu_dim0", "F.glu(x0, 0)", [("V", [4, 3], 0)]),
    ("bce_logits", "F.binary_cross_entropy_with_logits(x0, x1)", [("V", [3, 4], 0), ("P", [3, 4], 1)]),
    ("bce_logits_wpw", "F.binary_cross_entropy_with_logits(x0, x1, weight=x2.detach(), pos_weight=x3.detach(), reduction='sum')",
     [("V", [3, 4], 0), ("P", [3, 4], 1), ("P", [4], 2), ("P", [4], 3)]),
    ("bce_logits_none", "F.binary_cross_entropy_with_logits(x0, x1, reduction='none')", [("V", [3, 4], 0), ("P", [3, 4], 1)]),
    ("hinge", "F.hinge_embedding_loss(x0, x1.sign())", [("V", [3, 4], 0), ("V", [3, 4], 1)]),
    ("margin_ranking", "F.margin_ranking_loss(x0, x1, x2.sign(), margin=0.1)", [("V", [5], 0), ("V", [5], 1), ("V", [5], 2)]),
    ("soft_margin", "F.soft_margin_loss(x0, x1.detach())", [("V", [3, 4], 0), ("V", [3, 4], 1)]),
    ("soft_margin_none", "F.soft_margin_loss(x0, x1.detach(), reduction='none')", [("V", [3, 4], 0), ("V", [3, 4], 1)]),
    ("multilabel", "F.multilabel_soft_margin_loss(x0, x1)", [("V", [3, 4], 0), ("P", [3, 4], 1)]),
    ("cosine_similarity", "F.cosine_similarity(x0, x1)", [("V", [3, 4], 0), ("V", [3, 4], 1)]),
    ("cosine_embedding", "F.cosine_embedding_loss(x0, x1, x2.sign())", [("V", [3, 4], 0), ("V", [3, 4], 1), ("V", [3], 2)]),
    ("pairwise_distance", "F.pairwise_distance(x0, x1)", [("V", [3, 4], 0), ("V", [3, 4], 1)]),
    ("triplet", "F.triplet_margin_loss(x0, x1, x2, margin=3.0)", [("V", [3, 4], 0), ("V", [3, 4], 1), ("V", [3, 4], 2)]),
    ("poisson_nll", "F.poisson_nll_loss(x0, x1, full=True)", [("V", [3, 4], 0), ("P", [3, 4], 1)]),
    ("gaussian_nll", "F.gaussian_nll_loss(x0, x1, x2)", [("V", [3, 4], 0), ("V", [3, 4], 1), ("P", [3, 4], 2)]),
    ("silu_", "F.silu(x0 * 1, inplace=True)", [("V", [5], 0)]),
    ("mish_", "F.mish(x0 * 1, inplace=True)", [("V", [5], 0)]),
    ("hardsigmoid_", "F.hardsigmoid(x0 * 2, inplace=True)", [("V", [5], 0)]),
    ("hardswish_", "F.hardswish(x0 * 2, inplace=True)", [("V", [5], 0)]),
]
LOGS = [  # (id, expr over a, b, c, [shapes of a, b, c]); "bwd" ones log the backward pass too
    ("einsum_mm", "torch.einsum('ij,jk->ik', a, b)", [[2, 3], [3, 4]]),
    ("einsum_bmm", "torch.einsum('bij,bjk->bik', a, b)", [[2, 2, 3], [2, 3, 2]]),
    ("einsum_diag", "torch.einsum('ii->i', a)", [[3, 3]]),
    ("einsum_trace", "torch.einsum('ii', a)", [[3, 3]]),
    ("einsum_dot", "torch.einsum('i,i->', a, b)", [[4], [4]]),
    ("einsum_outer", "torch.einsum('i,j->ij', a, b)", [[3], [2]]),
    ("einsum_ell_t", "torch.einsum('...ij->...ji', a)", [[2, 2, 3]]),
    ("einsum_attn", "torch.einsum('bhqd,bhkd->bhqk', a, b)", [[2, 2, 3, 4], [2, 2, 5, 4]]),
    ("einsum_sum", "torch.einsum('ij->', a)", [[2, 3]]),
    ("einsum_three", "torch.einsum('ij,jk,kl->il', a, b, c)", [[2, 3], [3, 2], [2, 2]]),
    ("einsum_bcast", "torch.einsum('...j,j->...', a, b)", [[2, 3, 4], [4]]),
    ("einsum_size1", "torch.einsum('ij,jk->ik', a, b)", [[2, 1], [3, 4]]),
    ("einsum_rowsum", "torch.einsum('ij,kj->i', a, b)", [[2, 3], [4, 3]]),
    ("einsum_path", "torch.ops.aten.einsum('ij,jk,kl->il', [a, b, c], path=[1, 2, 0, 1])", [[2, 3], [3, 2], [2, 2]]),
    ("meshgrid_ij", "torch.meshgrid(a, b, indexing='ij')", [[3], [2]]),
    ("meshgrid_xy", "torch.meshgrid(a, b, indexing='xy')", [[3], [2]]),
    ("meshgrid_default", "torch.meshgrid(a, b)", [[3], [2]]),
    ("tensordot", "torch.tensordot(a, b)", [[2, 3, 4], [3, 4, 2]]),
    ("kron", "torch.kron(a, b)", [[2, 2], [2, 3]]),
    ("cartesian_prod", "torch.cartesian_prod(a, b)", [[2], [3]]),
    ("norm", "torch.norm(a)", [[3, 4]]),
    ("norm_p", "torch.norm(a, 3, dim=1)", [[3, 4]]),
    ("norm_fro_dim", "torch.norm(a, 'fro', (0, 1))", [[3, 4]]),
    ("tnorm", "a.norm(1)", [[3, 4]]),
    ("vector_norm", "torch.linalg.vector_norm(a)", [[3, 4]]),
    ("linalg_norm", "torch.linalg.norm(a)", [[5]]),
    ("normalize", "F.normalize(a)", [[3, 4]]),
    ("glu", "F.glu(a)", [[3, 4]]),
    ("bce_logits", "F.binary_cross_entropy_with_logits(a, b)", [[3, 4], [3, 4]]),
    ("bce_logits_w", "F.binary_cross_entropy_with_logits(a, b, weight=c)", [[3, 4], [3, 4], [4]]),
    ("bce_logits_pw", "F.binary_cross_entropy_with_logits(a, b, pos_weight=c)", [[3, 4], [3, 4], [4]]),
    ("hinge", "F.hinge_embedding_loss(a, b)", [[3, 4], [3, 4]]),
    ("margin_ranking", "F.margin_ranking_loss(a, b, c)", [[5], [5], [5]]),
    ("soft_margin", "F.soft_margin_loss(a, b)", [[3, 4], [3, 4]]),
    ("multilabel", "F.multilabel_soft_margin_loss(a, b)", [[3, 4], [3, 4]]),
    ("cosine_similarity", "F.cosine_similarity(a, b)", [[3, 4], [3, 4]]),
    ("cosine_embedding", "F.cosine_embedding_loss(a, b, c)", [[3, 4], [3, 4], [3]]),
    ("pairwise_distance", "F.pairwise_distance(a, b)", [[3, 4], [3, 4]]),
    ("triplet", "F.triplet_margin_loss(a, b, c)", [[3, 4], [3, 4], [3, 4]]),
    ("triplet_swap", "F.triplet_margin_loss(a, b, c, swap=True)", [[3, 4], [3, 4], [3, 4]]),
    ("poisson_nll", "F.poisson_nll_loss(a, b)", [[3, 4], [3, 4]]),
    ("poisson_nll_full", "F.poisson_nll_loss(a, b, log_input=False, full=True)", [[3, 4], [3, 4]]),
    ("gaussian_nll", "F.gaussian_nll_loss(a, b, c)", [[3, 4], [3, 4], [3, 4]]),
    ("sum_out", "torch.sum(a, 1, out=b)", [[3, 4], [3]]),
    ("mean_out", "torch.mean(a, (0, 1), out=b)", [[3, 4], [2]]),
    ("amax_out", "torch.amax(a, 0, out=b)", [[3, 4], [4]]),
    ("cumsum_out", "torch.cumsum(a, 0, out=b)", [[3, 4], [3, 4]]),
    ("prod_out", "torch.prod(a, 1, out=b)", [[3, 4], [3]]),
    ("sort_values", "torch.ops.aten.sort.values(a, values=b, indices=torch.empty(0, dtype=torch.int64))", [[3, 4], [3, 4]]),
    ("bwd/einsum_mm", "torch.einsum('ij,jk->ik', a, b)", [[2, 3], [3, 4]]),
    ("bwd/glu", "F.glu(a)", [[3, 4]]),
    ("bwd/bce_logits", "F.binary_cross_entropy_with_logits(a, b, weight=c.detach(), pos_weight=c.detach())", [[3, 4], [3, 4], [4]]),
    ("bwd/soft_margin", "F.soft_margin_loss(a, b.detach())", [[3, 4], [3, 4]]),
    ("bwd/norm", "torch.norm(a)", [[3, 4]]),
    ("bwd/silu_", "F.silu(a * 1, inplace=True)", [[5]]),
]
WARNS = [
    ("meshgrid_default", "torch.meshgrid(X([3]), X([2]))"),
    ("meshgrid_ij", "torch.meshgrid(X([3]), X([2]), indexing='ij')"),
]


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    return dict(values=r.tolist(), dtype=str(r.dtype).replace("torch.", ""), shape=list(r.shape))


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


MAKERS = dict(X=X, V=V, P=P, S=S)
ENV = dict(torch=torch, F=F, X=X, V=V, P=P, S=S)
cases = []
for cid, expr in WARNS:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        eval(expr, dict(ENV))
    cases.append(dict(id=f"warn/{cid}", warn=expr, result=[[x.category.__name__, str(x.message)] for x in w]))
warnings.simplefilter("ignore")
for cid, expr, dts in VALUE:
    for dt in dts:
        e = expr.replace("D)", f"torch.{dt})").replace("dtype=D", f"dtype=torch.{dt}")
        c = dict(id=f"{cid}/{dt}", expr=e)
        try:
            c["result"] = describe(eval(e, dict(ENV)))
        except Exception as ex:  # noqa: BLE001 - recorded as it is
            c["error"] = [type(ex).__name__, str(ex)]
        cases.append(c)
for cid, expr in ERRORS:
    c = dict(id=f"error/{cid}", expr=expr)
    try:
        eval(expr, dict(ENV))
        c["result"] = "no error"
    except Exception as ex:  # noqa: BLE001
        c["error"] = [type(ex).__name__, str(ex)]
    cases.append(c)
for cid, expr, ins in GRAD:
    c = dict(id=f"grad/{cid}", grad=expr, inputs=ins)
    try:
        xs = [MAKERS[m](s, seed, torch.float64).requires_grad_() for m, s, seed in ins]
        y = eval(expr, dict(ENV, **{f"x{i}": x for i, x in enumerate(xs)}))
        g = torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) * 0.5 - 1.0
        y.backward(g)
        c["result"] = dict(grad_fn=type(y.grad_fn).__name__,
                           grads=[None if x.grad is None else x.grad.tolist() for x in xs])
    except Exception as ex:  # noqa: BLE001
        c["error"] = [type(ex).__name__, str(ex)]
    cases.append(c)
for cid, expr, shapes in LOGS:
    bwd = cid.startswith("bwd/")
    ins = [P(s, i) for i, s in enumerate(shapes)]
    if bwd:
        ins = [t.requires_grad_() for t in ins]
    env = dict(ENV, **dict(zip("abc", ins)))
    c = dict(id=f"log/{cid}", log=expr, shapes=shapes)
    try:
        with Log() as m:
            y = eval(expr, env)
            if bwd:
                y.sum().backward()
        c["result"] = m.ops
    except Exception as ex:  # noqa: BLE001
        c["error"] = [type(ex).__name__, str(ex)]
    cases.append(c)
with open(sys.argv[1], "w") as f:
    json.dump(dict(torch=torch.__version__, cases=cases), f, indent=0)
print(len(cases), "cases")
