/* The JSON layer is public (ctorch/json.h); library code includes it under this name too. */
#ifndef CT_UTIL_JSON_H
#define CT_UTIL_JSON_H
#include "ctorch/json.h"
#endif
