/* Autograd graph nodes. */
#include <stddef.h>

#include "autograd/node.h"
#include "ctorch/testing.h"

void ct_node_release(ct_node *n) { (void)n; }
ct_node *ct_node_retain(ct_node *n) { return n; }
const char *ct_node_name(const ct_node *n) {
    (void)n;
    return "";
}
const char *ct_node_py_name(const ct_node *n) {
    (void)n;
    return "";
}
int64_t ct_testing_live_nodes(void) { return 0; }
