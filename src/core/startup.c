/* The start-up flag (core/startup.h). */
#include "core/startup.h"

atomic_bool ct_library_ready;
