/* Autograd metadata: created here, released and named through the hooks core calls
 * (ct_autograd_meta_hooks, c10's AutogradMetaInterface). */
#include "autograd/autograd_impl.h"
#include "autograd/node.h"
#include "core/alloc.h"
#include "core/startup.h"

ct_autograd_meta *ct_tensor_autograd_meta(ct_tensor *t) {
    if (!t->autograd) {
        ct_library_ensure();
        t->autograd = ct_calloc(1, sizeof *t->autograd);
    }
    return t->autograd;
}

static void meta_release(ct_autograd_meta *m) {
    ct_tensor_release(m->grad);
    ct_node_release(m->grad_fn);
    ct_tensor_release(m->base);
    ct_free(m);
}

static const char *meta_grad_fn_name(const ct_autograd_meta *m) {
    return m->grad_fn ? ct_node_py_name(m->grad_fn) : NULL;
}

static const ct_autograd_meta_hooks hooks = {meta_release, meta_grad_fn_name};

void ct_autograd_install_meta_hooks(void) { ct_autograd_hooks = &hooks; }
