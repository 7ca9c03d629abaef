/* The seed scripts' --seed: Python's int() over the text, then manual_seed's range check. */
#include "seed_arg.h"

#include <stdio.h>
#include <string.h>

#include "ctorch/error.h"

/* The ASCII whitespace Python's int() strips from both ends of a str (Py_ISSPACE: not the
 * separators 0x1c-0x1f, although str.isspace() counts them). */
static bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* argparse's "invalid int value: %r": the text as Python's repr() writes a str (single quotes
 * unless the text holds a ' and no ", backslash escapes for the quote, \\, \t, \n, \r and
 * other control characters). Bytes above 0x7f are copied: they are printable UTF-8. */
static int invalid(const char *text) {
    bool dq = strchr(text, '\'') && !strchr(text, '"');
    char q = dq ? '"' : '\'';
    size_t n = strlen(text);
    char buf[1024];
    size_t o = 0;
    buf[o++] = q;
    for (size_t i = 0; i < n && o < sizeof buf - 8; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == (unsigned char)q || c == '\\') o += (size_t)snprintf(buf + o, sizeof buf - o, "\\%c", c);
        else if (c == '\t') o += (size_t)snprintf(buf + o, sizeof buf - o, "\\t");
        else if (c == '\n') o += (size_t)snprintf(buf + o, sizeof buf - o, "\\n");
        else if (c == '\r') o += (size_t)snprintf(buf + o, sizeof buf - o, "\\r");
        else if (c < 0x20 || c == 0x7f) o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", c);
        else buf[o++] = (char)c;
    }
    buf[o++] = q;
    buf[o] = '\0';
    return ct_error_set(CT_ERR_VALUE, "invalid int value: %s", buf);
}

/* PyTorch's message when the int does not fit manual_seed's uint64_t, nor its int64_t fallback. */
static int overflow(void) { return ct_error_set(CT_ERR_RUNTIME, "Overflow when unpacking long"); }

int ct_example_seed_parse(const char *text, ct_example_seed *seed) {
    if (!text || !seed) return ct_error_set(CT_ERR_VALUE, "ct_example_seed_parse: %s is NULL", text ? "seed" : "text");
    const char *p = text, *end = text + strlen(text);
    while (p < end && py_space((unsigned char)*p)) p++;
    while (end > p && py_space((unsigned char)end[-1])) end--;
    bool negative = false;
    if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
    if (p == end || !digit(*p)) return invalid(text);
    /* The whole text is checked before its size: "99...9x" is invalid, not an overflow. */
    uint64_t magnitude = 0;
    bool too_big = false;
    for (; p < end; p++) {
        if (digit(*p)) {
            unsigned d = (unsigned)(*p - '0');
            if (magnitude > (UINT64_MAX - d) / 10) too_big = true;
            else if (!too_big) magnitude = magnitude * 10 + d;
        } else if (!(*p == '_' && digit(p[-1]) && p + 1 < end && digit(p[1]))) {
            return invalid(text);
        }
    }
    /* unpack_uint64: a non-negative int up to 2^64 - 1 as it is; otherwise as an int64_t
     * (down to -2^63), reinterpreted as the uint64_t of the same bits. */
    if (too_big || (negative && magnitude > (UINT64_C(1) << 63))) return overflow();
    seed->value = negative ? (uint64_t)0 - magnitude : magnitude;
    seed->negative = negative && magnitude != 0;
    return 0;
}

int ct_example_seed_add(ct_example_seed seed, uint64_t k, ct_example_seed *sum) {
    if (!sum) return ct_error_set(CT_ERR_VALUE, "ct_example_seed_add: sum is NULL");
    if (!seed.negative) {
        if (seed.value > UINT64_MAX - k) return overflow();
        sum->value = seed.value + k;
        sum->negative = false;
        return 0;
    }
    uint64_t magnitude = (uint64_t)0 - seed.value; /* 1 .. 2^63 */
    sum->value = seed.value + k;                  /* modulo 2^64 either way */
    sum->negative = k < magnitude;
    return 0;
}

char *ct_example_seed_format(ct_example_seed seed, char *buf) {
    if (seed.negative) snprintf(buf, CT_EXAMPLE_SEED_TEXT_MAX, "-%llu", (unsigned long long)((uint64_t)0 - seed.value));
    else snprintf(buf, CT_EXAMPLE_SEED_TEXT_MAX, "%llu", (unsigned long long)seed.value);
    return buf;
}
