/* Python's repr() of a float, for messages and files that must read as Python wrote them. */
#ifndef CT_UTIL_PYFLOAT_H
#define CT_UTIL_PYFLOAT_H

/* repr(v) into out (at least CT_PY_FLOAT_REPR_MAX bytes): the shortest digits that read back
 * as v, positional for 1e-4 <= |v| < 1e16 with ".0" when there is no fraction ("1.0", "-0.1",
 * "1e-05", "1.5e+16"), and "nan", "inf", "-inf", "0.0", "-0.0". */
#define CT_PY_FLOAT_REPR_MAX 48
void ct_py_float_repr(double v, char *out);

#endif
