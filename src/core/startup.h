/* The library's one start-up (internal). src/library/init.c runs every layer's registration
 * once; every entry point that needs the operators calls ct_library_ensure() first. The flag is
 * core's, so the fast check reads nothing above core; the one call upward, to ct_library_init,
 * is on purpose (as every SQLite API function calls sqlite3_initialize()): in C nothing runs a
 * higher layer's registration before main the way PyTorch's static initialisers do. */
#ifndef CT_STARTUP_H
#define CT_STARTUP_H

#include <stdatomic.h>
#include <stdbool.h>

/* Set (release) once the start-up has run; read (acquire) by ct_library_ensure. */
extern atomic_bool ct_library_ready;

/* Runs the start-up once (pthread_once); thread-safe and idempotent. Defined in src/library/init.c. */
void ct_library_init(void);

static inline void ct_library_ensure(void) {
    if (__builtin_expect(!atomic_load_explicit(&ct_library_ready, memory_order_acquire), 0)) ct_library_init();
}

#endif
