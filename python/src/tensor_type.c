/* torch._C.TensorBase, the type: the object's slots (tensor.c) with its methods
 * (tensor_methods.c), properties (tensor_attrs.c), number protocol and repr (tensor_number.c)
 * and indexing (tensor_index.c), readied and added to the module. */
#include "ctpy.h"

int ctpy_tensor_type_init(PyObject *m) {
    ctpy_tensor_object_init();
    CtTensorBase_Type.tp_methods = ctpy_tensor_methods;
    CtTensorBase_Type.tp_getset = ctpy_tensor_getset;
    CtTensorBase_Type.tp_as_number = &ctpy_tensor_as_number;
    CtTensorBase_Type.tp_as_mapping = &ctpy_tensor_as_mapping;
    CtTensorBase_Type.tp_repr = ctpy_tensor_repr;
    CtTensorBase_Type.tp_richcompare = ctpy_tensor_richcompare;
    if (PyType_Ready(&CtTensorBase_Type) < 0 || ctpy_tensor_torch_function_init() < 0) return -1;
    Py_INCREF(&CtTensorBase_Type);
    if (PyModule_AddObject(m, "TensorBase", (PyObject *)&CtTensorBase_Type) < 0) return -1;
    return ctpy_add_functions(m, ctpy_tensor_functions);
}
