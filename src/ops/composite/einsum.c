/* CompositeImplicitAutograd body of einsum (Linear.cpp's einsum and its pairwise contraction,
 * sumproduct_pair): the equation is parsed into labels, each operand's repeated labels become
 * diagonals, missing labels unsqueezed dimensions and the operand permuted to the common order
 * (output dimensions first, then the contracted ones); operands are then contracted two at a
 * time (left to right, or in the order of `path`) with permute / reshape / bmm, dimensions only
 * one operand still has being summed first. Every step calls the operators PyTorch 2.6's calls,
 * in the same order, so a dispatch mode sees the same log. */
#include <string.h>

#include "core/alloc.h"
#include "ops/builtin.h"
#include "ops/kernel_util.h"

enum { N_LETTERS = 26, N_LABELS = 52, ELLIPSIS = 52 };

static int label_to_subscript(unsigned char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + N_LETTERS; }
static char subscript_to_label(int s) { return (char)(s < N_LETTERS ? s + 'A' : s - N_LETTERS + 'a'); }
static bool is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* t replaced by r (a new reference, or NULL after an error) */
static ct_tensor *step(ct_tensor **t, ct_tensor *r) {
    ct_tensor_release(*t);
    *t = r;
    return r;
}

/* sumproduct_pair(left, right, sum_dims, keepdim=true): (left * right).sum(sum_dims, keepdim) by
 * permutation and batch matrix multiplication; both have the same rank (broadcast by size 1). */
static ct_tensor *sumproduct_pair(ct_tensor *left_, ct_tensor *right_, const int64_t *sum_dims, int n_sum) {
    if (left_->ndim != right_->ndim) {
        ct_error_set(CT_ERR_RUNTIME, "number of dimensions must match");
        return NULL;
    }
    if (n_sum == 0) return ct_mul(left_, right_);
    int dim = left_->ndim;
    bool is_sum[CT_MAX_DIMS] = {false};
    for (int k = 0; k < n_sum; k++) is_sum[sum_dims[k]] = true;
    int64_t lro[CT_MAX_DIMS], lo[CT_MAX_DIMS], ro[CT_MAX_DIMS];
    int n_lro = 0, n_lo = 0, n_ro = 0;
    int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
    ct_tensor *left = ct_tensor_retain(left_), *right = ct_tensor_retain(right_), *result = NULL;
    for (int i = 0; i < dim; i++) {
        bool sl = left->sizes[i] != 1, sr = right->sizes[i] != 1;
        int64_t d = i;
        if (is_sum[i]) {
            if (sl && sr) {
                if (left->sizes[i] != right->sizes[i]) {
                    ct_error_set(CT_ERR_RUNTIME, "non-broadcast dimensions must match");
                    goto done;
                }
                sum_size *= left->sizes[i];
            } else if (sl) {
                if (!step(&left, ct_sum_dim(left, &d, 1, true, CT_DTYPE_UNDEFINED))) goto done;
            } else if (sr) {
                if (!step(&right, ct_sum_dim(right, &d, 1, true, CT_DTYPE_UNDEFINED))) goto done;
            }
        } else if (sl && sr) {
            if (left->sizes[i] != right->sizes[i]) {
                ct_error_set(CT_ERR_RUNTIME, "non-broadcast dimensions must match");
                goto done;
            }
            lro[n_lro++] = i;
            lro_size *= left->sizes[i];
        } else if (sl) {
            lo[n_lo++] = i;
            lo_size *= left->sizes[i];
        } else {
            ro[n_ro++] = i;
            ro_size *= right->sizes[i];
        }
    }
    /* output "lro, lo, 1 for each summed dimension, ro"; left "lro, lo, summed"; right "lro, summed, ro" */
    int64_t out_size[CT_MAX_DIMS], lperm[CT_MAX_DIMS], rperm[CT_MAX_DIMS], operm[CT_MAX_DIMS];
    int n_out = 0, nl = 0, nr = 0;
    for (int k = 0; k < n_lro; k++) out_size[n_out++] = left->sizes[lro[k]];
    for (int k = 0; k < n_lo; k++) out_size[n_out++] = left->sizes[lo[k]];
    for (int k = 0; k < n_sum; k++) out_size[n_out++] = 1;
    for (int k = 0; k < n_ro; k++) out_size[n_out++] = right->sizes[ro[k]];
    for (int k = 0; k < n_lro; k++) lperm[nl++] = lro[k], rperm[nr++] = lro[k];
    for (int k = 0; k < n_lo; k++) lperm[nl++] = lo[k];
    for (int k = 0; k < n_sum; k++) lperm[nl++] = sum_dims[k];
    for (int k = 0; k < n_ro; k++) lperm[nl++] = ro[k];
    for (int k = 0; k < n_sum; k++) rperm[nr++] = sum_dims[k];
    for (int k = 0; k < n_ro; k++) rperm[nr++] = ro[k];
    for (int k = 0; k < n_lo; k++) rperm[nr++] = lo[k];
    {
        int64_t i = 0;
        for (int k = 0; k < n_lro; k++) operm[lro[k]] = i++;
        for (int k = 0; k < n_lo; k++) operm[lo[k]] = i++;
        for (int k = 0; k < n_sum; k++) operm[sum_dims[k]] = i++;
        for (int k = 0; k < n_ro; k++) operm[ro[k]] = i++;
    }
    int64_t lshape[3] = {lro_size, lo_size, sum_size}, rshape[3] = {lro_size, sum_size, ro_size};
    if (!step(&left, ct_permute(left, lperm, nl)) || !step(&left, ct_reshape(left, lshape, 3))) goto done;
    if (!step(&right, ct_permute(right, rperm, nr)) || !step(&right, ct_reshape(right, rshape, 3))) goto done;
    result = ct_bmm(left, right);
    if (!result || !step(&result, ct_view(result, out_size, n_out))) goto done;
    step(&result, ct_permute(result, operm, n_out));
done:
    ct_tensor_release(left);
    ct_tensor_release(right);
    return result;
}

/* The parsed equation: each operand's labels (subscripts 0..51, ELLIPSIS) in one array. */
typedef struct parsed {
    uint8_t *labels;
    int64_t *start, *count; /* operand k's labels: labels[start[k] .. start[k] + count[k]) */
} parsed;

static void parsed_free(parsed *p) {
    ct_free(p->labels);
    ct_free(p->start);
    ct_free(p->count);
}

/* einsum(str equation, Tensor[] tensors, *, int[]? path=None) */
int ct_k_einsum(const ct_op *op, ct_keyset ks, ct_value *args, ct_value *rets) {
    (void)op;
    (void)ks;
    const char *equation = args[0].u.s;
    ct_tensor **operands = args[1].u.tlist.items;
    int64_t num_ops = args[1].u.tlist.len;
    bool has_path = args[2].tag != CT_TAG_NONE;
    const int64_t *path = has_path ? args[2].u.list.data : NULL;
    if (num_ops == 0) return ct_error_set(CT_ERR_RUNTIME, "einsum(): must provide at least one operand");
    if (has_path) {
        int64_t path_size = num_ops == 1 ? 1 : (num_ops - 1) * 2;
        if (args[2].u.list.len != path_size)
            return ct_error_set(CT_ERR_RUNTIME,
                                "einsum(): expected contraction path given in path parameter to have size %lld but got %lld",
                                (long long)path_size, (long long)args[2].u.list.len);
    }
    const char *arrow = strstr(equation, "->");
    size_t eq_len = strlen(equation), lhs_len = arrow ? (size_t)(arrow - equation) : eq_len;

    parsed P = {ct_malloc(lhs_len + 1), ct_calloc((size_t)num_ops, sizeof(int64_t)),
                ct_calloc((size_t)num_ops, sizeof(int64_t))};
    ct_tensor **ops = ct_calloc((size_t)num_ops, sizeof *ops);
    int64_t n_ops = 0, *dim_counts = NULL, *ell_sizes = NULL;
    int rc = -1;
    ct_tensor *result = NULL;
    if (!P.labels || !P.start || !P.count || !ops) goto done;

    /* 1. the operands' labels */
    int64_t n_labels = 0, curr_op = 0;
    bool ell_in_input = false;
    for (size_t i = 0; i < lhs_len; i++) {
        unsigned char label = (unsigned char)equation[i];
        if (label == ' ') continue;
        if (label == '.') {
            if (ell_in_input) {
                ct_error_set(CT_ERR_RUNTIME, "einsum(): found '.' for operand %lld for which an ellipsis was already found",
                             (long long)curr_op);
                goto done;
            }
            if (!(i + 2 < lhs_len && equation[++i] == '.' && equation[++i] == '.')) {
                ct_error_set(CT_ERR_RUNTIME, "einsum(): found '.' for operand %lld that is not part of any ellipsis",
                             (long long)curr_op);
                goto done;
            }
            P.labels[n_labels++] = ELLIPSIS;
            P.count[curr_op]++;
            ell_in_input = true;
        } else if (label == ',') {
            if (++curr_op >= num_ops) {
                ct_error_set(CT_ERR_RUNTIME, "einsum(): fewer operands were provided than specified in the equation");
                goto done;
            }
            P.start[curr_op] = n_labels;
            ell_in_input = false;
        } else {
            if (!is_alpha(label)) {
                ct_error_set(CT_ERR_RUNTIME,
                             "einsum(): invalid subscript given at index %zu in the equation string, subscripts must be in [a-zA-Z]", i);
                goto done;
            }
            P.labels[n_labels++] = (uint8_t)label_to_subscript(label);
            P.count[curr_op]++;
        }
    }
    if (curr_op != num_ops - 1) {
        ct_error_set(CT_ERR_RUNTIME, "einsum(): more operands were provided than specified in the equation");
        goto done;
    }

    /* 2. label counts and the number of dimensions the ellipsis covers */
    int64_t label_count[N_LABELS] = {0}, ell_num_dim = 0;
    for (int64_t k = 0; k < num_ops; k++) {
        int64_t ndims = operands[k]->ndim, nlabels = P.count[k];
        bool has_ellipsis = false;
        for (int64_t j = 0; j < P.count[k]; j++) {
            uint8_t s = P.labels[P.start[k] + j];
            if (s == ELLIPSIS) {
                nlabels--;
                has_ellipsis = true;
                if (ndims - nlabels > ell_num_dim) ell_num_dim = ndims - nlabels;
            } else {
                label_count[s]++;
            }
        }
        if (has_ellipsis ? nlabels > ndims : nlabels != ndims) {
            ct_error_set(CT_ERR_RUNTIME, "einsum(): the number of subscripts in the equation (%lld%s%lld) for operand %lld%s",
                         (long long)nlabels,
                         has_ellipsis ? ") is more than the number of dimensions (" : ") does not match the number of dimensions (",
                         (long long)ndims, (long long)k, has_ellipsis ? "" : " and no ellipsis was given");
            goto done;
        }
    }
    /* recomputed per operand below: ell_num_dim here is the largest ellipsis */

    /* 3. each label's index in the common order: the output's dimensions, then the contracted ones */
    int64_t label_perm_index[N_LABELS], perm_index = 0, ell_index = 0;
    for (int s = 0; s < N_LABELS; s++) label_perm_index[s] = -1;
    bool ell_in_output = false;
    if (!arrow) {
        perm_index = ell_num_dim; /* implicit output: the ellipsis, then the labels seen once */
        ell_in_output = true;
        for (int s = 0; s < N_LABELS; s++)
            if (label_count[s] == 1) label_perm_index[s] = perm_index++;
    } else {
        const char *rhs = arrow + 2;
        size_t rhs_len = strlen(rhs);
        for (size_t i = 0; i < rhs_len; i++) {
            unsigned char label = (unsigned char)rhs[i];
            if (label == ' ') continue;
            if (label == '.') {
                if (ell_in_output) {
                    ct_error_set(CT_ERR_RUNTIME, "einsum(): found '.' for output but an ellipsis (...) was already found");
                    goto done;
                }
                if (!(i + 2 < rhs_len && rhs[++i] == '.' && rhs[++i] == '.')) {
                    ct_error_set(CT_ERR_RUNTIME, "einsum(): found '.' for output that is not part of any ellipsis (...)");
                    goto done;
                }
                ell_index = perm_index;
                perm_index += ell_num_dim;
                ell_in_output = true;
                continue;
            }
            if (!is_alpha(label)) {
                ct_error_set(CT_ERR_RUNTIME,
                             "einsum(): invalid subscript given at index %zu in the equation string, subscripts must be in [a-zA-Z]",
                             lhs_len + 2 + i);
                goto done;
            }
            int s = label_to_subscript(label);
            if (!(label_count[s] > 0 && label_perm_index[s] == -1)) {
                ct_error_set(CT_ERR_RUNTIME, "einsum(): output subscript %c%s", label,
                             label_perm_index[s] > -1 ? " appears more than once in the output"
                                                      : " does not appear in the equation for any input operand");
                goto done;
            }
            label_perm_index[s] = perm_index++;
        }
    }
    const int64_t out_num_dim = perm_index;
    if (!ell_in_output) { /* the ellipsis is contracted */
        ell_index = perm_index;
        perm_index += ell_num_dim;
    }
    for (int s = 0; s < N_LABELS; s++)
        if (label_count[s] > 0 && label_perm_index[s] == -1) label_perm_index[s] = perm_index++;
    if (perm_index > CT_MAX_DIMS) {
        ct_error_set(CT_ERR_RUNTIME, "einsum(): the equation has %lld dimensions, more than ctorch's limit of %d",
                     (long long)perm_index, CT_MAX_DIMS);
        goto done;
    }

    /* 4. sizes checked, diagonals of repeated labels, missing labels unsqueezed, operands permuted */
    int64_t label_size[N_LABELS];
    for (int s = 0; s < N_LABELS; s++) label_size[s] = 1;
    ell_sizes = ct_calloc((size_t)(ell_num_dim ? ell_num_dim : 1), sizeof *ell_sizes);
    dim_counts = ct_calloc((size_t)(perm_index ? perm_index : 1), sizeof *dim_counts);
    if (!ell_sizes || !dim_counts) goto done;
    for (int64_t j = 0; j < ell_num_dim; j++) ell_sizes[j] = 1;
    for (int64_t k = 0; k < num_ops; k++) {
        ct_tensor *t = ct_tensor_retain(operands[k]);
        int64_t permutation[CT_MAX_DIMS];
        for (int64_t p = 0; p < perm_index; p++) permutation[p] = -1;
        int64_t dim = 0;
        for (int64_t j = 0; j < P.count[k]; j++) {
            uint8_t s = P.labels[P.start[k] + j];
            if (s == ELLIPSIS) {
                int64_t ndim = operands[k]->ndim - (P.count[k] - 1);
                for (int64_t e = ell_num_dim - ndim; e < ell_num_dim; e++) {
                    if (t->sizes[dim] != 1) {
                        if (ell_sizes[e] != 1 && ell_sizes[e] != t->sizes[dim]) {
                            ct_error_set(CT_ERR_RUNTIME,
                                         "einsum(): dimension %lld covered by ellipsis in operand %lldhas size %lld which does "
                                         "not broadcast with previously seen ellipsis with size %lld for the respective dimension",
                                         (long long)dim, (long long)k, (long long)t->sizes[dim], (long long)ell_sizes[e]);
                            ct_tensor_release(t);
                            goto done;
                        }
                        ell_sizes[e] = t->sizes[dim];
                        dim_counts[ell_index + e]++;
                    }
                    permutation[ell_index + e] = dim++;
                }
            } else if (permutation[label_perm_index[s]] == -1) {
                if (t->sizes[dim] != 1) {
                    if (label_size[s] != 1 && label_size[s] != t->sizes[dim]) {
                        ct_error_set(CT_ERR_RUNTIME,
                                     "einsum(): subscript %c has size %lld for operand %lld which does not broadcast with "
                                     "previously seen size %lld",
                                     subscript_to_label(s), (long long)t->sizes[dim], (long long)k, (long long)label_size[s]);
                        ct_tensor_release(t);
                        goto done;
                    }
                    label_size[s] = t->sizes[dim];
                    dim_counts[label_perm_index[s]]++;
                }
                permutation[label_perm_index[s]] = dim++;
            } else { /* a repeated label: its diagonal, moved to the first occurrence */
                int64_t prev_dim = permutation[label_perm_index[s]];
                if (t->sizes[dim] != t->sizes[prev_dim]) {
                    ct_error_set(CT_ERR_RUNTIME, "einsum(): subscript %c is repeated for operand %lld but the sizes don't match, %lld != %lld",
                                 subscript_to_label(s), (long long)k, (long long)t->sizes[dim], (long long)t->sizes[prev_dim]);
                    ct_tensor_release(t);
                    goto done;
                }
                if (!step(&t, ct_diagonal(t, 0, prev_dim, dim)) || !step(&t, ct_movedim_int(t, -1, prev_dim))) goto done;
            }
        }
        for (int64_t p = 0; p < perm_index; p++) {
            if (permutation[p] != -1) continue;
            if (!step(&t, ct_unsqueeze(t, dim))) goto done;
            permutation[p] = dim++;
        }
        ops[n_ops] = ct_permute(t, permutation, perm_index);
        ct_tensor_release(t);
        if (!ops[n_ops]) goto done;
        n_ops++;
    }

    /* 5. contraction, two operands at a time */
    const int64_t *it = path;
    while (n_ops > 1) {
        int64_t i = 0, j = 1;
        if (has_path) {
            i = *it++;
            j = *it++;
            if (j < i) {
                int64_t tmp = i;
                i = j;
                j = tmp;
            }
            if (!(i != j && i >= 0 && j < n_ops)) {
                ct_error_set(CT_ERR_RUNTIME, "einsum(): invalid contraction (%lld, %lld%s", (long long)i, (long long)j,
                             i == j ? ") cannot contract an operand with itself" : ") operand index is out of bounds");
                goto done;
            }
        }
        ct_tensor *a = ops[i], *b = ops[j];
        memmove(&ops[j], &ops[j + 1], (size_t)(n_ops - j - 1) * sizeof *ops);
        memmove(&ops[i], &ops[i + 1], (size_t)(n_ops - 2 - i) * sizeof *ops);
        n_ops -= 2;
        int64_t sum_dims[CT_MAX_DIMS], a_sum[CT_MAX_DIMS], b_sum[CT_MAX_DIMS];
        int n_sum = 0, n_a = 0, n_b = 0;
        for (int64_t d = out_num_dim; d < perm_index; d++) {
            if (a->sizes[d] != 1 && b->sizes[d] != 1) {
                if (--dim_counts[d] == 1) {
                    sum_dims[n_sum++] = d;
                    dim_counts[d] = 0;
                }
            } else if (dim_counts[d] == 1) {
                if (a->sizes[d] != 1) {
                    a_sum[n_a++] = d;
                    dim_counts[d] = 0;
                } else if (b->sizes[d] != 1) {
                    b_sum[n_b++] = d;
                    dim_counts[d] = 0;
                }
            }
        }
        ct_tensor *r = NULL;
        if (n_a && !step(&a, ct_sum_dim(a, a_sum, n_a, true, CT_DTYPE_UNDEFINED))) goto pair_done;
        if (n_b && !step(&b, ct_sum_dim(b, b_sum, n_b, true, CT_DTYPE_UNDEFINED))) goto pair_done;
        r = sumproduct_pair(a, b, sum_dims, n_sum);
    pair_done:
        ct_tensor_release(a);
        ct_tensor_release(b);
        if (!r) goto done;
        if (has_path) {
            ops[n_ops++] = r;
        } else {
            memmove(&ops[1], &ops[0], (size_t)n_ops * sizeof *ops);
            ops[0] = r;
            n_ops++;
        }
    }

    /* 6. the contracted dimensions out: size 1 after a contraction (a view), else summed */
    if (perm_index - out_num_dim > 0) {
        if (num_ops > 1) {
            int64_t sizes[CT_MAX_DIMS];
            for (int64_t d = 0; d < out_num_dim; d++) sizes[d] = ops[0]->sizes[d];
            result = ct_view(ops[0], sizes, out_num_dim);
        } else {
            int64_t sum_dims[CT_MAX_DIMS];
            for (int64_t d = out_num_dim; d < perm_index; d++) sum_dims[d - out_num_dim] = d;
            result = ct_sum_dim(ops[0], sum_dims, perm_index - out_num_dim, false, CT_DTYPE_UNDEFINED);
        }
    } else {
        result = ct_tensor_retain(ops[0]);
    }
    if (result) rc = ct_ret(rets, 0, result);
done:
    for (int64_t k = 0; k < n_ops; k++) ct_tensor_release(ops[k]);
    ct_free(ops);
    ct_free(dim_counts);
    ct_free(ell_sizes);
    parsed_free(&P);
    return rc;
}
