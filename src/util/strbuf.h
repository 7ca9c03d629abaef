/* The growing string is public (ctorch/text.h); library code includes it under this name too. */
#ifndef CT_UTIL_STRBUF_H
#define CT_UTIL_STRBUF_H
#include "ctorch/text.h"
#endif
