/* em_format.h: the decimal output style of every correctly rounded result (C's "%#.Kg"
 * with any exponent length: K significant digits, trailing zeros kept). */
#ifndef EM_NUM_FORMAT_H
#define EM_NUM_FORMAT_H

#include <gmp.h>

/* Format a decimal given as K significant digits d (no sign, d[0] != '0') and exponent e
 * (value = 0.d * 10^e, MPFR's convention) with sign.  Returns a malloc'd string, NULL when
 * out of memory. */
char *em_format_decimal(int negative, const char *d, const mpz_t e);

/* The same into out, which holds at least strlen(d) + EM_FORMAT_EXTRA bytes, for an
 * exponent that is a long (above LONG_MIN + 1): no allocation. */
#define EM_FORMAT_EXTRA 32
void em_format_decimal_l(char *out, int negative, const char *d, long e);

/* "0.99...9" with K nines: the largest K-digit decimal below 1, printed for a probability
 * below 1 whose correct rounding is 1 (never "1.000", which reads as certainty).
 * Returns a malloc'd string, NULL when out of memory. */
char *em_format_nines(int K);

/* 1 when the decimal s (this style) is exactly 1: "1", "1.", "1.000..." */
int em_format_is_one(const char *s);

#endif
