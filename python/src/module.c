/* The module ctorch._C (also importable as torch._C): its initialisation, which runs each
 * file's, from the lowest up (ctpy.h lists the files). */
#include "ctpy.h"

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "ctorch._C",
                                        "ctorch's C extension: tensors, the dispatcher, autograd, modes, the profiler.", -1,
                                        NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__C(void);
PyMODINIT_FUNC PyInit__C(void) {
    if (ct_init() != 0) return PyErr_Format(PyExc_ImportError, "%s", ct_error_message()); /* ctorch/init.h */
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    /* lowest first: each file's init may use what the ones before it made */
    if (ctpy_errors_init(m) < 0 || ctpy_dtype_init(m) < 0 || ctpy_runtime_init(m) < 0 || ctpy_keyset_init(m) < 0 ||
        ctpy_dispatch_dump_init(m) < 0 || ctpy_package_init(m) < 0 || ctpy_generator_init(m) < 0 ||
        ctpy_class_type_init(m) < 0 || ctpy_script_object_init(m) < 0 || ctpy_torch_function_init(m) < 0 ||
        ctpy_torch_function_disable_init(m) < 0 || ctpy_tensor_type_init(m) < 0 || ctpy_op_overload_init(m) < 0 || ctpy_return_types_init(m) < 0 ||
        ctpy_op_packet_init(m) < 0 || ctpy_op_function_init(m) < 0 || ctpy_bindings_init(m) < 0 ||
        ctpy_subclass_init(m) < 0 || ctpy_node_init(m) < 0 || ctpy_autograd_init(m) < 0 || ctpy_grad_mode_init(m) < 0 ||
        ctpy_tensor_number_init() < 0 || ctpy_tensor_new_init(m) < 0 || ctpy_allclose_init(m) < 0 ||
        ctpy_nn_init(m) < 0 || ctpy_profiler_init(m) < 0 || ctpy_dispatch_mode_init(m) < 0 ||
        ctpy_function_mode_init(m) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
