/* The Python key's interpreter hooks (dispatch/py_interpreter.h). */
#include "dispatch/py_interpreter.h"

ct_py_interpreter ct_py_interpreter_hooks;
