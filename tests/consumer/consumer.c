/* A program built against an installed ctorch, with nothing but its public header:
 * y = linear(x, W, b), loss = y.sum(), loss.backward(), then the values and gradients.
 * By hand: y = [[1.9, 2.7], [3.7, 7.2]], loss = 15.5, W.grad = [[5, 7, 9], [5, 7, 9]]
 * (each row is the column sums of x), b.grad = [2, 2]. */
#include <stdio.h>

#include <ctorch/ctorch.h>

static void print_values(const char *label, const ct_tensor *t) {
    double v[16];
    int64_t n = ct_tensor_numel(t);
    if (n < 0 || n > 16 || ct_tensor_to_doubles(t, v, 16) != 0) {
        printf("%s: cannot read (%s)\n", label, ct_error_message());
        return;
    }
    printf("%s =", label);
    for (int64_t i = 0; i < n; i++) printf(" %.4f", v[i]);
    printf("\n");
}

int main(void) {
    if (ct_init() != 0) { /* the library starts first (ctorch/init.h) */
        fprintf(stderr, "ctorch: %s\n", ct_error_message());
        return 1;
    }
    printf("version %s headers %s (%d.%d.%d)\n", ct_version(), CTORCH_VERSION_STRING, CTORCH_VERSION_MAJOR,
           CTORCH_VERSION_MINOR, CTORCH_VERSION_PATCH);
    const double xd[] = {1, 2, 3, 4, 5, 6}, wd[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, bd[] = {0.5, -0.5};
    const int64_t xs[] = {2, 3}, ws[] = {2, 3}, bs[] = {2};
    ct_tensor *x = ct_tensor_from_doubles(xd, xs, 2, CT_FLOAT32);
    ct_tensor *w = ct_tensor_from_doubles(wd, ws, 2, CT_FLOAT32);
    ct_tensor *b = ct_tensor_from_doubles(bd, bs, 1, CT_FLOAT32);
    int rc = 1;
    ct_tensor *y = NULL, *loss = NULL;
    if (!x || !w || !b || ct_tensor_set_requires_grad(w, true) != 0 || ct_tensor_set_requires_grad(b, true) != 0) goto done;
    y = ct_linear(x, w, b);
    loss = y ? ct_sum(y, CT_DTYPE_UNDEFINED) : NULL;
    if (!loss || ct_backward(loss, NULL, false) != 0) goto done;
    print_values("y", y);
    print_values("loss", loss);
    print_values("W.grad", ct_tensor_grad(w));
    print_values("b.grad", ct_tensor_grad(b));
    const ct_node *fn = ct_tensor_grad_fn(y);
    printf("y.grad_fn is %s\n", fn ? ct_node_name(fn) : "None");
    rc = 0;
done:
    if (rc) printf("error: %s\n", ct_error_message());
    ct_tensor_release(loss);
    ct_tensor_release(y);
    ct_tensor_release(x);
    ct_tensor_release(w);
    ct_tensor_release(b);
    return rc;
}
