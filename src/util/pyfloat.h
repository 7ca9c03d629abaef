/* Python's float repr is public (ctorch/text.h); library code includes it under this name too. */
#ifndef CT_UTIL_PYFLOAT_H
#define CT_UTIL_PYFLOAT_H
#include "ctorch/text.h"
#endif
