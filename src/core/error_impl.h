/* Thread-local errors, internal side. */
#ifndef CT_ERROR_IMPL_H
#define CT_ERROR_IMPL_H

#include <stdint.h>

/* How many errors this thread has set so far. A caller that runs code it does not trust to
 * set an error when it fails (a mode's or subclass's handler) compares the count before and
 * after: a failure that set none is reported for it, with the handler named. */
uint64_t ct_error_serial(void);

#endif
