/* The Python key's interpreter (c10/core/impl/PyInterpreter.h): the work the Python key does
 * is done by whoever implements it, reached through these hooks (internal). modes fill the mode
 * side, subclass the wrapper side, each once at start-up; a Python key can only be in a key
 * set after the library has started, so the hooks are set whenever they are called. */
#ifndef CT_PY_INTERPRETER_H
#define CT_PY_INTERPRETER_H

#include "ctorch/dispatch.h"

typedef struct ct_py_interpreter {
    /* pyinterpreter()->detach(self): aten::detach sent to the top dispatch mode, or to t's
     * wrapper subclass. *out: new reference. (modes) */
    int (*detach)(ct_tensor *t, ct_tensor **out);
    /* a wrapper's __torch_dispatch__: runs op on the handler of t's subclass. (subclass) */
    int (*subclass_dispatch)(ct_tensor *t, const ct_op *op, ct_value *args, ct_value *rets);
} ct_py_interpreter;

extern ct_py_interpreter ct_py_interpreter_hooks; /* fields written once, at start-up */

#endif
