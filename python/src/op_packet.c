/* torch._ops.OpOverloadPacket: every overload of an operator (torch.ops.aten.addmm), called
 * like PyTorch's argument parser picks among them; and OpOverload.overloadpacket, which this
 * file adds to the overload's type. */
#include <string.h>

#include "ctpy.h"

static PyObject *packet_cache; /* "aten::addmm" -> OpOverloadPacket */

typedef struct {
    PyObject_HEAD
    PyObject *qualified; /* "aten::addmm" */
    PyObject *overloads; /* tuple of OpOverload, in definition order */
    vectorcallfunc vectorcall;
} CtPacketObject;

static PyObject *packet_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    CtPacketObject *p = (CtPacketObject *)self;
    const char *q = PyUnicode_AsUTF8(p->qualified);
    const char *c = strstr(q, "::");
    {
        bool handled;
        PyObject *r = ctpy_torch_function_vector(self, q, args, PyVectorcall_NARGS(nargsf), kwnames, false, &handled);
        if (handled) return r;
    }
    return ctpy_call_candidates(c ? c + 2 : q, p->overloads, NULL, args, PyVectorcall_NARGS(nargsf), kwnames, true,
                           CTPY_NUMBERS_AS_TENSORS);
}

static void packet_dealloc(PyObject *self) {
    CtPacketObject *p = (CtPacketObject *)self;
    Py_XDECREF(p->qualified);
    Py_XDECREF(p->overloads);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *packet_str(PyObject *self) {
    /* str(aten.addmm) is "aten.addmm" */
    PyObject *q = ((CtPacketObject *)self)->qualified;
    PyObject *sep = PyUnicode_FromString("::"), *dot = PyUnicode_FromString(".");
    PyObject *r = sep && dot ? PyUnicode_Replace(q, sep, dot, 1) : NULL;
    Py_XDECREF(sep);
    Py_XDECREF(dot);
    return r;
}

static PyObject *packet_repr(PyObject *self) {
    PyObject *s = packet_str(self);
    if (!s) return NULL;
    PyObject *r = PyUnicode_FromFormat("<OpOverloadPacket(op='%U')>", s);
    Py_DECREF(s);
    return r;
}

static PyObject *packet_getattro(PyObject *self, PyObject *name) {
    PyObject *r = PyObject_GenericGetAttr(self, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
    PyErr_Clear();
    CtPacketObject *p = (CtPacketObject *)self;
    const char *want = PyUnicode_AsUTF8(name);
    if (!want) return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p->overloads); i++) {
        PyObject *o = PyTuple_GET_ITEM(p->overloads, i);
        if (strcmp(ctpy_overload_name(((CtOpOverloadObject *)o)->schema.op), want) == 0) {
            Py_INCREF(o);
            return o;
        }
    }
    return ctpy_not_implemented("%s.%s", PyUnicode_AsUTF8(p->qualified), want);
}

static PyObject *packet_overloads(PyObject *self, PyObject *unused) {
    (void)unused;
    CtPacketObject *p = (CtPacketObject *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(p->overloads);
    PyObject *l = PyList_New(n);
    for (Py_ssize_t i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i, PyUnicode_FromString(ctpy_overload_name(((CtOpOverloadObject *)PyTuple_GET_ITEM(p->overloads, i))->schema.op)));
    return l;
}

static PyObject *packet_get_name(PyObject *self, void *c) {
    (void)c;
    const char *q = PyUnicode_AsUTF8(((CtPacketObject *)self)->qualified);
    const char *s = strstr(q, "::");
    return PyUnicode_FromString(s ? s + 2 : q);
}
static PyObject *packet_get_qualified(PyObject *self, void *c) {
    (void)c;
    PyObject *q = ((CtPacketObject *)self)->qualified;
    Py_INCREF(q);
    return q;
}

static PyMethodDef packet_methods[] = {{"overloads", packet_overloads, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static PyObject *packet_get_module(PyObject *self, void *c) {
    (void)c;
    return ctpy_ops_module_of(PyUnicode_AsUTF8(((CtPacketObject *)self)->qualified));
}

static PyGetSetDef packet_getset[] = {{"__name__", packet_get_name, NULL, NULL, NULL},
                                      {"__module__", packet_get_module, NULL, NULL, NULL},
                                      {"_qualified_op_name", packet_get_qualified, NULL, NULL, NULL},
                                      {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CtPacket_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._ops.OpOverloadPacket",
    .tp_basicsize = sizeof(CtPacketObject),
    .tp_dealloc = packet_dealloc,
    .tp_vectorcall_offset = offsetof(CtPacketObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_str = packet_str,
    .tp_repr = packet_repr,
    .tp_getattro = packet_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "All overloads of an operator (torch.ops.aten.addmm).",
    .tp_methods = packet_methods,
    .tp_getset = packet_getset,
};

static PyObject *packet_for(const char *base_name) {
    PyObject *p = PyDict_GetItemString(packet_cache, base_name);
    if (p) {
        Py_INCREF(p);
        return p;
    }
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 0; i < ct_op_count(); i++) {
        const ct_op *op = ct_op_at(i);
        if (strcmp(ct_op_base_name(op), base_name) != 0) continue;
        PyObject *o = ctpy_op_overload(op);
        if (!o || PyList_Append(list, o) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    if (PyList_GET_SIZE(list) == 0) {
        Py_DECREF(list);
        return ctpy_not_implemented("operator %s", base_name);
    }
    CtPacketObject *n = PyObject_New(CtPacketObject, &CtPacket_Type);
    if (!n) {
        Py_DECREF(list);
        return NULL;
    }
    n->vectorcall = packet_vectorcall;
    n->qualified = PyUnicode_FromString(base_name);
    n->overloads = PyList_AsTuple(list);
    Py_DECREF(list);
    if (!n->qualified || !n->overloads || PyDict_SetItemString(packet_cache, base_name, (PyObject *)n) < 0) {
        Py_DECREF(n);
        return NULL;
    }
    return (PyObject *)n;
}

PyObject *ctpy_op_packet_of(const ct_op *op) { return packet_for(ct_op_base_name(op)); }

static PyObject *py_op_packet(PyObject *unused, PyObject *arg) {
    (void)unused;
    const char *name = PyUnicode_AsUTF8(arg);
    return name ? packet_for(name) : NULL;
}

/* OpOverload.overloadpacket */
static PyObject *overload_get_packet(PyObject *self, void *c) {
    (void)c;
    CtOpOverloadObject *o = (CtOpOverloadObject *)self;
    if (!o->packet) o->packet = packet_for(ct_op_base_name(o->schema.op));
    Py_XINCREF(o->packet);
    return o->packet;
}

static PyGetSetDef overload_packet_getset = {"overloadpacket", overload_get_packet, NULL, NULL, NULL};

static PyMethodDef packet_functions[] = {{"_op_packet", py_op_packet, METH_O, "The OpOverloadPacket for 'aten::add'."},
                                         {NULL, NULL, 0, NULL}};

int ctpy_op_packet_init(PyObject *m) {
    if (PyType_Ready(&CtPacket_Type) < 0) return -1;
    packet_cache = PyDict_New();
    if (!packet_cache) return -1;
    PyObject *d = PyDescr_NewGetSet(&CtOpOverload_Type, &overload_packet_getset);
    int rc = d ? PyDict_SetItemString(CtOpOverload_Type.tp_dict, "overloadpacket", d) : -1;
    Py_XDECREF(d);
    if (rc < 0) return -1;
    PyType_Modified(&CtOpOverload_Type);
    Py_INCREF(&CtPacket_Type);
    if (PyModule_AddObject(m, "OpOverloadPacket", (PyObject *)&CtPacket_Type) < 0) return -1;
    return ctpy_add_functions(m, packet_functions);
}
