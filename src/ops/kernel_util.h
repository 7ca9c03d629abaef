/* Helpers shared by kernels (internal): argument access, PyTorch's checks and messages,
 * iteration over strided tensors. */
#ifndef CT_KERNEL_UTIL_H
#define CT_KERNEL_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/dtype_impl.h"
#include "core/print.h" /* ct_format_shape, for the kernels' messages */
#include "core/tensor_impl.h"
#include "ctorch/dispatch.h"
#include "ctorch/error.h"
#include "ctorch/ops_generated.h"
#include "ops/kernels.h"

#define ARG_T(k_) (args[k_].u.t)
#define ARG_OPT_T(k_) (args[k_].tag == CT_TAG_TENSOR ? args[k_].u.t : NULL)
#define ARG_I(k_) (args[k_].u.i)
#define ARG_B(k_) (args[k_].u.b)
#define ARG_IS_NONE(k_) (args[k_].tag == CT_TAG_NONE)

/* Stores a new reference (transferring ownership of t) in rets[i]; returns 0, or -1 if t is NULL. */
static inline int ct_ret(ct_value *rets, int i, ct_tensor *t) {
    if (!t) return -1;
    rets[i] = ct_tensor_value(t);
    return 0;
}
/* In-place ops return self: a new reference to it. */
static inline int ct_ret_self(ct_value *rets, ct_tensor *self) {
    rets[0] = ct_tensor_value(ct_tensor_retain(self));
    return 0;
}

/* maybe_wrap_dim with PyTorch's IndexError message. Returns 0 and sets *out, or -1. */
int ct_wrap_dim(int64_t dim, int64_t ndim, int64_t *out);
/* An optional ScalarType argument: the dtype, or dflt when None. */
ct_dtype ct_arg_dtype(const ct_value *v, ct_dtype dflt);
/* Validates a dtype argument (ScalarType) is one ctorch has. */
int ct_check_dtype_arg(ct_dtype d, const char *op_name);
/* Checks a Device? / Layout? argument is CPU / strided. */
int ct_check_options(const ct_op *op, const ct_value *args);

/* Scalar helpers. */
bool ct_scalar_is_integral(ct_scalar s);
/* The dtype a Python scalar of this kind would promote as (Long, Double, Bool). */
ct_dtype ct_scalar_dtype(ct_scalar s);

/* torch.result_type over tensors (and an optional wrapped scalar). */
ct_dtype ct_result_type2(const ct_tensor *a, const ct_tensor *b);
ct_dtype ct_result_type_scalar(const ct_tensor *a, ct_scalar s);
/* torch.result_type over n tensors (at::native::result_type(TensorList), as cat uses it). */
ct_dtype ct_result_type_n(ct_tensor *const *ts, int64_t n);

/* c10::checked_convert, as Scalar::to<T>() does it: fails with PyTorch's "value cannot be
 * converted to type at::Half without overflow" when s lies outside the range of dtype
 * (never for bool, nor from a bool; NaN and infinities only for int64). */
int ct_scalar_check_convert(ct_scalar s, ct_dtype dtype);

/* A Scalar as a 0-dim wrapped-number tensor (wrapped_scalar_tensor). New reference. */
ct_tensor *ct_wrap_scalar(ct_scalar s);

/* Broadcast shape of a and b (infer_size) into out; PyTorch's error if incompatible. */
int ct_broadcast_shapes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout);

/* Strides of t viewed with the broadcast shape `sizes` (ndim): 0 for broadcast dimensions. */
void ct_broadcast_strides(const ct_tensor *t, const int64_t *sizes, int ndim, int64_t *strides);

/* Iterates n-dimensional index space `sizes`, calling f with byte offsets of each of `k`
 * operands (given their element strides and element sizes). Operands: up to 4. */
typedef void (*ct_elem_fn)(char **ptrs, void *ctx);
void ct_for_each(const int64_t *sizes, int ndim, int k, char **bases, int64_t strides[][CT_MAX_DIMS],
                 const size_t *elem_sizes, ct_elem_fn f, void *ctx);

bool ct_is_non_overlapping_and_dense(const ct_tensor *t);
/* at::isTensorSubclassLike: true while a dispatch mode is active (and Python is not excluded), or
 * for a tensor carrying a subclass-like key (Python, Sparse, Batched, Functionalize, ...).
 * Composite code then avoids in-place updates and aliasing shortcuts (reshape uses view). */
bool ct_is_tensor_subclass_like(const ct_tensor *t);
/* assert_no_internal_overlap: TensorIterator's check that a written-to tensor has no two
 * elements at one address (a dimension of size > 1 with stride 0). */
int ct_assert_no_internal_overlap(const ct_tensor *t);
/* TensorIterator's check for an output that is not resized (in-place ops, copy_): the
 * broadcast shape of the inputs (shape, n) must be the output's own. 0, or -1 with PyTorch's
 * "output with shape [..] doesn't match the broadcast shape [..]". */
int ct_check_output_shape(const ct_tensor *out, const int64_t *shape, int n);
/* TensorIteratorBase::mark_resize_outputs for an op's output `out` given the inputs ins[0..nin):
 * 0 when out has the broadcast shape (shape, n); 1 when it must be resized, as an out= tensor that
 * is none of the inputs is (PyTorch resizes what is only written, "the legacy behavior that
 * functions with out= arguments resize their outputs"); -1 with ct_check_output_shape's error
 * for an output that is also read (in place, or out= one of the inputs). */
int ct_out_mark_resize(const ct_tensor *out, const int64_t *shape, int n, ct_tensor *const *ins, int nin);
/* The out= kernel PyTorch's generator writes for an operator marked `autogen` (a
 * CompositeExplicitAutograd out= overload over its functional): the functional's result r (a new
 * reference, consumed; NULL: its error stands) into out, which is resized to r's shape
 * (resize_out_helper: contiguous) and must have r's dtype (copy_arg: "Expected out tensor to have
 * dtype float, but got long int instead"). 0 with out in rets[0], or -1. */
int ct_out_from_result(ct_tensor *r, ct_tensor *out, ct_value *rets);
/* allocate_or_resize_outputs for a marked output: out takes the shape, laid out as the
 * functional's result would be (ct_iter_alloc_output over the inputs). 0 or -1. */
int ct_out_resize(ct_tensor *out, const int64_t *shape, int n, const ct_tensor *const *ins, int nin);
/* A new tensor for TensorIterator's output of shape `sizes` (the broadcast shape of the
 * inputs ins[0..nin), in operand order), laid out as TensorIterator lays it out:
 * contiguous, the strides of the inputs when they all agree (fast_set_up), or the
 * dimension order their strides suggest (reorder_dimensions + allocate_or_resize_outputs).
 * At most CT_ITER_MAX_INPUTS inputs. New reference, or NULL. */
#define CT_ITER_MAX_INPUTS 4
ct_tensor *ct_iter_alloc_output(const int64_t *sizes, int ndim, ct_dtype dtype, const ct_tensor *const *ins, int nin);
/* Note [TensorIterator's casts on the CPU]
 * TensorIteratorBase::compute_types, on the CPU, brings every operand to the common dtype
 * before the kernel runs, with calls through the dispatcher that the profiler and a decision
 * trace see: an output of another dtype is replaced by at::empty_like(out, common dtype,
 * contiguous) (cast_common_dtype_to_outputs), copied back into the output with copy_ after the
 * kernel; then each input of another dtype is replaced by input.to(common dtype)
 * (promote_inputs_to_common_dtype), a wrapped Python number included. So `x * 2` on a float
 * tensor profiles as aten::mul over aten::to / _to_copy / empty_strided / copy_, as in PyTorch.
 * The kernels read the converted inputs; a kernel that takes a one-element operand's original
 * value (mul by a scalar in float16, original_scalar_value) still reads the original. */
typedef struct ct_iter_casts {
    ct_tensor *in[CT_ITER_MAX_INPUTS]; /* what the kernel reads: each input, or (owned) its .to(common) */
    bool owned[CT_ITER_MAX_INPUTS];
    ct_tensor *out;   /* what the kernel writes: the output given, or (owned) a temporary; NULL if none was given */
    ct_tensor *given; /* the output given, when out is a temporary of the common dtype */
    int nin;
} ct_iter_casts;
/* Makes the casts for output `out` (NULL: the kernel allocates one of the common dtype) and
 * inputs ins[0..nin); cast_out false leaves the output as it is (a comparison's bool output).
 * 0, or -1 with nothing left to release. */
int ct_iter_cast_begin(ct_iter_casts *k, ct_tensor *out, ct_tensor *const *ins, int nin, ct_dtype common, bool cast_out);
/* After the kernel (rc its result): copies the temporary into the given output when rc is 0,
 * then releases the casts. Returns rc, or -1 when the copy failed. */
int ct_iter_cast_end(ct_iter_casts *k, int rc);

/* Copies src (broadcast, any dtype) into dst (src/ops/cpu/fill_copy.c). */
int ct_copy_into(ct_tensor *dst, const ct_tensor *src);
/* ct_tensor numel-safe contiguous copy of t's elements as doubles (caller frees with ct_free). */
double *ct_to_double_buffer(const ct_tensor *t);
/* The same as floats (the float32 kernels that follow PyTorch's float arithmetic). */
float *ct_to_float_buffer(const ct_tensor *t);
/* t's elements in logical order as floats: t's own data when it is a contiguous float32 tensor
 * (*owned NULL), else a ct_to_float_buffer copy that *owned also points to, for the caller to
 * ct_free. NULL when out of memory. t must have elements. */
const float *ct_float_elements(const ct_tensor *t, float **owned);

/* The version counter bump every in-place kernel path ends with (ADInplaceOrView). */
static inline void ct_bump_version(ct_tensor *t) { ct_tensor_bump_version(t); }

/* ---- walking a tensor along one dimension (softmax, log_softmax and their backward) ---- */

/* The checks and result of _softmax_backward_data / _log_softmax_backward_data(grad_output,
 * output, dim, input_dtype): the dtype argument, dim wrapped, equal shapes, and grad_input
 * allocated in input_dtype. 0, or -1 with the error set (*gi NULL). */
int ct_softmax_backward_setup(ct_value *args, const char *name, int64_t *dim, ct_tensor **gi);

/* The element offset (from the data pointer) of position k along dim in the row numbered o over
 * the dimensions before dim and in over those after it. */
static inline int64_t ct_dim_offset(const ct_tensor *t, int dim, int64_t o, int64_t in, int64_t k) {
    int64_t off = t->storage_offset + k * t->strides[dim];
    for (int d = t->ndim - 1; d > dim; d--) {
        off += (in % t->sizes[d]) * t->strides[d];
        in /= t->sizes[d];
    }
    for (int d = dim - 1; d >= 0; d--) {
        off += (o % t->sizes[d]) * t->strides[d];
        o /= t->sizes[d];
    }
    return off;
}

/* The number of rows before and after dim. */
static inline void ct_dim_outer_inner(const ct_tensor *t, int dim, int64_t *outer, int64_t *inner) {
    *outer = 1;
    *inner = 1;
    for (int d = 0; d < dim; d++) *outer *= t->sizes[d];
    for (int d = dim + 1; d < t->ndim; d++) *inner *= t->sizes[d];
}

/* The element at offset off as a double, and a double stored there rounded to t's dtype. */
static inline double ct_elem_ld(const ct_tensor *t, int64_t off) {
    return ct_load_as_double((const char *)t->storage->data + (size_t)off * ct_dtype_size(t->dtype), t->dtype);
}
static inline void ct_elem_st(const ct_tensor *t, int64_t off, double v) {
    ct_store_from_double((char *)t->storage->data + (size_t)off * ct_dtype_size(t->dtype), t->dtype, v);
}

#endif
