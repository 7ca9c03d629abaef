/* Python's float repr (see util/pyfloat.h). */
#include "util/pyfloat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The double that the decimal digits d[0..n) times 10^(e10 - n + 1) denote, i.e. d[0].d[1..]
 * times 10^e10. Built as "DDDDeX" with no decimal point, so strtod's locale cannot matter. */
static double digits_value(const char *d, int n, int e10) {
    char s[64];
    snprintf(s, sizeof s, "%.*se%d", n, d, e10 - (n - 1));
    return strtod(s, NULL);
}

/* Adds one unit in the last place to the n digits d[0..n), keeping n digits: "129" -> "130";
 * when the carry runs out, "999" -> "100" with the exponent raised. */
static void digits_increment(char *d, int n, int *e10) {
    int i = n - 1;
    while (i >= 0 && d[i] == '9') d[i--] = '0';
    if (i >= 0) d[i]++;
    else {
        d[0] = '1';
        (*e10)++;
    }
}

/* repr(float) of a finite nonzero v into out (>= 32 bytes). Python prints the shortest
 * digit string that reads back as v, and among those the nearest to v (David Gay's
 * algorithm). For each length n = 1..17 we take printf's correctly rounded n digits, the
 * nearest n-digit decimal to v, and check that it reads back. It can fail where another
 * n-digit decimal succeeds only when v is a power of two: the doubles around it are twice as
 * far apart above as below, so the values that round to v reach twice as far above it, and
 * the next n-digit decimal up can be in range while the nearest (below) is not. So that
 * one is tried too. 17 digits always read back. */
static void float_repr(double v, char *out) {
    int neg = signbit(v) != 0;
    double a = fabs(v);
    char d[24];
    int n = 0, e10 = 0;
    for (n = 1; n <= 17; n++) {
        char tmp[48];
        snprintf(tmp, sizeof tmp, "%.*e", n - 1, a); /* "d.ddde+XX" (decimal point per locale) */
        int k = 0;
        const char *p = tmp;
        for (; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9') d[k++] = *p;
        e10 = (int)strtol(p + 1, NULL, 10);
        if (digits_value(d, n, e10) == a) break;
        if (n == 17) break; /* cannot happen: 17 significant digits identify every double */
        char up[24];
        int eu = e10;
        memcpy(up, d, (size_t)n);
        digits_increment(up, n, &eu);
        if (digits_value(up, n, eu) == a) {
            memcpy(d, up, (size_t)n);
            e10 = eu;
            break;
        }
    }
    while (n > 1 && d[n - 1] == '0') n--; /* "1.50" is "1.5" */

    /* Python's layout (float_repr_style 'short'): positional for 1e-4 <= |v| < 1e16, with
     * ".0" if there is no fraction; otherwise d.ddde+XX with at least two exponent digits. */
    char *o = out;
    if (neg) *o++ = '-';
    if (e10 >= -4 && e10 < 16) {
        if (e10 >= 0) {
            for (int i = 0; i <= e10; i++) *o++ = i < n ? d[i] : '0';
            *o++ = '.';
            if (n > e10 + 1)
                for (int i = e10 + 1; i < n; i++) *o++ = d[i];
            else *o++ = '0';
        } else {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -e10 - 1; i++) *o++ = '0';
            for (int i = 0; i < n; i++) *o++ = d[i];
        }
        *o = '\0';
    } else {
        *o++ = d[0];
        if (n > 1) {
            *o++ = '.';
            for (int i = 1; i < n; i++) *o++ = d[i];
        }
        snprintf(o, 16, "e%c%02d", e10 < 0 ? '-' : '+', e10 < 0 ? -e10 : e10);
    }
}

void ct_py_float_repr(double v, char *out) {
    if (isnan(v)) strcpy(out, "nan");
    else if (isinf(v)) strcpy(out, v > 0 ? "inf" : "-inf");
    else if (v == 0) strcpy(out, signbit(v) ? "-0.0" : "0.0");
    else float_repr(v, out);
}
