/* Grad modes (c10/core/GradMode.h, c10/core/InferenceMode.h). The guards are checked like the
 * key-set guards: Note [Checked guards] in dispatch/call.c. */
#include "ctorch/autograd.h"
#include "ctorch/error.h"
#include "core/tls.h"
#include "dispatch/call_impl.h"

/* Enters g (false, with a ValueError and nothing changed, for a NULL guard). */
static bool save(ct_grad_mode_guard *g, int kind, const char *who) {
    if (!g) {
        ct_error_set(CT_ERR_VALUE, "%s: guard is NULL", who);
        return false;
    }
    g->prev_grad = !ct_tls_state.grad_disabled;
    g->prev_inference = ct_tls_state.inference_mode;
    g->prev_included = ct_tls_state.included_xor;
    g->prev_excluded = ct_tls_state.excluded_xor;
    g->kind = kind;
    g->depth = ++ct_tls_state.guard_depth;
    return true;
}

void ct_no_grad_enter(ct_grad_mode_guard *g) {
    if (!save(g, 1, "ct_no_grad_enter")) return;
    ct_tls_state.grad_disabled = true; /* no key changes: AutogradCPU still routes the call */
}

void ct_enable_grad_enter(ct_grad_mode_guard *g) {
    if (!save(g, 1, "ct_enable_grad_enter")) return;
    ct_tls_state.grad_disabled = false;
}

void ct_inference_mode_enter_enabled(ct_grad_mode_guard *g, bool enabled) {
    if (!save(g, 2, "ct_inference_mode_enter")) return;
    /* InferenceMode(enabled): grad mode is !enabled; included -/+ ADInplaceOrView, excluded
     * +/- autograd_dispatch_keyset */
    ct_tls_state.grad_disabled = enabled;
    ct_tls_state.inference_mode = enabled;
    ct_keyset inc = ct_tls_included_raw(&ct_tls_state), exc = ct_tls_excluded_raw(&ct_tls_state);
    if (enabled) {
        inc = ct_keyset_sub(inc, CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView));
        exc |= CT_AUTOGRAD_KEYSET;
    } else {
        inc |= CT_FUNCTIONALITY_BIT(CT_KEY_ADInplaceOrView);
        exc = ct_keyset_sub(exc, CT_AUTOGRAD_KEYSET);
    }
    ct_tls_state.included_xor = inc ^ CT_DEFAULT_INCLUDED;
    ct_tls_state.excluded_xor = exc ^ CT_DEFAULT_EXCLUDED;
}

void ct_inference_mode_enter(ct_grad_mode_guard *g) { ct_inference_mode_enter_enabled(g, true); }

void ct_grad_mode_restore(ct_grad_mode_guard *g) {
    if (!g || !g->kind) return;
    ct_tls_state.grad_disabled = !g->prev_grad;
    ct_tls_state.inference_mode = g->prev_inference;
    if (g->kind == 2) { /* only inference mode changed the key sets */
        ct_tls_state.included_xor = g->prev_included;
        ct_tls_state.excluded_xor = g->prev_excluded;
    }
    ct_tls_state.guard_depth = g->depth - 1;
    g->kind = 0;
}

int ct_grad_mode_exit(ct_grad_mode_guard *g) {
    if (!g) return ct_error_set(CT_ERR_VALUE, "ct_grad_mode_exit: guard is NULL");
    if (!g->kind) return 0;
    if (ct_guard_check_innermost(g->depth, "ct_grad_mode_exit") != 0) return -1;
    ct_grad_mode_restore(g);
    return 0;
}

void ct_set_grad_enabled(bool on) { ct_tls_state.grad_disabled = !on; }

bool ct_is_grad_enabled(void) { return !ct_tls_state.grad_disabled; }
bool ct_is_inference_mode_enabled(void) { return ct_tls_state.inference_mode; }
