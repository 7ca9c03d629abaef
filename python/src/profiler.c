/* The profiler from Python: one ctorch profiler per `with profile(...)` block; the Python package
 * (ctorch/autograd/profiler.py) builds FunctionEvent trees and key_averages() on it. */
#include "ctpy.h"

typedef struct {
    PyObject_HEAD
    ct_profiler *p;
    bool recording;
} CtProfilerObject;

static void profiler_dealloc(PyObject *self) {
    CtProfilerObject *o = (CtProfilerObject *)self;
    if (o->recording) ct_profiler_stop(o->p);
    ct_profiler_free(o->p);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *str_result(char *s) {
    if (!s) return ctpy_raise();
    PyObject *r = PyUnicode_FromString(s);
    ct_free(s);
    return r;
}

static PyObject *prof_stop(PyObject *self, PyObject *unused) {
    (void)unused;
    CtProfilerObject *o = (CtProfilerObject *)self;
    if (!o->recording) Py_RETURN_NONE;
    o->recording = false;
    if (ct_profiler_stop(o->p) != 0) return ctpy_raise();
    Py_RETURN_NONE;
}

typedef char *(*report_fn)(ct_profiler *, const char *, int, bool);

static PyObject *report(PyObject *self, PyObject *args, PyObject *kwargs, report_fn fn) {
    static char *kw[] = {"sort_by", "row_limit", "group_by_input_shape", NULL};
    const char *sort_by = NULL;
    int row_limit = 100, by_shape = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zip", kw, &sort_by, &row_limit, &by_shape)) return NULL;
    return str_result(fn(((CtProfilerObject *)self)->p, sort_by, row_limit, by_shape != 0));
}
static PyObject *prof_table(PyObject *self, PyObject *args, PyObject *kwargs) {
    return report(self, args, kwargs, ct_profiler_table);
}
static PyObject *prof_table_csv(PyObject *self, PyObject *args, PyObject *kwargs) {
    return report(self, args, kwargs, ct_profiler_table_csv);
}
static PyObject *prof_table_json(PyObject *self, PyObject *args, PyObject *kwargs) {
    return report(self, args, kwargs, ct_profiler_table_json);
}
static PyObject *prof_tree(PyObject *self, PyObject *unused) {
    (void)unused;
    return str_result(ct_profiler_tree(((CtProfilerObject *)self)->p));
}
static PyObject *prof_export(PyObject *self, PyObject *arg) {
    PyObject *path;
    if (!PyUnicode_FSConverter(arg, &path)) return NULL;
    int rc = ct_profiler_export_chrome_trace(((CtProfilerObject *)self)->p, PyBytes_AS_STRING(path));
    Py_DECREF(path);
    if (rc != 0) return ctpy_raise();
    Py_RETURN_NONE;
}

/* [(name, parent index, start_ns, end_ns, thread id, sequence nr, input shapes text or None)] */
static PyObject *prof_events(PyObject *self, PyObject *unused) {
    (void)unused;
    ct_profiler *p = ((CtProfilerObject *)self)->p;
    size_t n = ct_profiler_num_events(p);
    if (n == 0 && ct_error_code() != CT_OK) return ctpy_raise();
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        ct_profiler_event_info e;
        if (ct_profiler_event(p, i, &e) != 0) {
            Py_DECREF(l);
            return ctpy_raise();
        }
        PyObject *shapes = e.input_shapes ? PyUnicode_FromString(e.input_shapes) : (Py_INCREF(Py_None), Py_None);
        PyObject *t = shapes ? Py_BuildValue("(sLLLKLN)", e.name, (long long)e.parent, (long long)e.start_ns,
                                             (long long)e.end_ns, (unsigned long long)e.thread_id,
                                             (long long)e.sequence_nr, shapes)
                             : NULL;
        if (!t) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, t);
    }
    return l;
}

static PyObject *prof_overhead(PyObject *self, PyObject *unused) {
    (void)unused;
    CtProfilerObject *o = (CtProfilerObject *)self;
    return Py_BuildValue("(LL)", (long long)ct_profiler_overhead_ns(o->p), (long long)ct_profiler_raw_event_count(o->p));
}

static PyMethodDef profiler_methods[] = {
    {"stop", prof_stop, METH_NOARGS, NULL},
    {"table", (PyCFunction)(void (*)(void))prof_table, METH_VARARGS | METH_KEYWORDS, NULL},
    {"table_csv", (PyCFunction)(void (*)(void))prof_table_csv, METH_VARARGS | METH_KEYWORDS, NULL},
    {"table_json", (PyCFunction)(void (*)(void))prof_table_json, METH_VARARGS | METH_KEYWORDS, NULL},
    {"tree", prof_tree, METH_NOARGS, NULL},
    {"export_chrome_trace", prof_export, METH_O, NULL},
    {"events", prof_events, METH_NOARGS, NULL},
    {"overhead", prof_overhead, METH_NOARGS, "(nanoseconds in the profiler's hooks, raw events)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject CtProfiler_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._Profiler",
    .tp_basicsize = sizeof(CtProfilerObject),
    .tp_dealloc = profiler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A ctorch profiler recording this thread.",
    .tp_methods = profiler_methods,
};

static PyObject *py_profiler_start(PyObject *unused, PyObject *arg) {
    (void)unused;
    int shapes = PyObject_IsTrue(arg);
    if (shapes < 0) return NULL;
    ct_profiler *p = ct_profiler_start(shapes != 0);
    if (!p) return ctpy_raise();
    CtProfilerObject *o = PyObject_New(CtProfilerObject, &CtProfiler_Type);
    if (!o) {
        ct_profiler_stop(p);
        ct_profiler_free(p);
        return NULL;
    }
    o->p = p;
    o->recording = true;
    return (PyObject *)o;
}

static PyMethodDef profiler_functions[] = {
    {"_profiler_start", py_profiler_start, METH_O, "Starts a profiler on this thread (record_shapes)."},
    {NULL, NULL, 0, NULL}};

int ctpy_profiler_init(PyObject *m) {
    if (PyType_Ready(&CtProfiler_Type) < 0) return -1;
    return ctpy_add_functions(m, profiler_functions);
}
