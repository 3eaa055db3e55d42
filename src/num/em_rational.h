/* em_rational.h: exact parsing of numbers into GMP rationals, and exact-to-double rounding.
 *
 * Accepted syntax (no surrounding white space; the caller trims):
 *   decimal      [+-] digits [. digits] [(e|E) [+-] digits]     e.g. -12.5e3, 0.1 (= 1/10), .5, 5.
 *   hex float    [+-] 0x hexdigits [. hexdigits] [(p|P) [+-] digits]   (C99; the exact value)
 *   fraction     [+-] digits / digits                           e.g. 4100/4140 (exact; extension)
 *   -inf         -inf or -infinity (any case): an excluded candidate (only when allowed)
 * Rejected with a message: empty text, NaN, +inf / inf, a zero denominator, white space or any
 * other character, a decimal exponent beyond +-EM_Q_MAX_EXP10, a binary exponent beyond
 * +-EM_Q_MAX_EXP2, more than EM_Q_MAX_DIGITS digits.
 */
#ifndef EM_NUM_RATIONAL_H
#define EM_NUM_RATIONAL_H

#include <stddef.h>
#include <gmp.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EM_Q_MAX_EXP10 10000L   /* |decimal exponent| limit (the written one, e.g. 1e10000) */
#define EM_Q_MAX_EXP2 33220L    /* |binary exponent| limit of hex floats (about 2^(+-10^4 * log2 10)) */
#define EM_Q_MAX_DIGITS 10000   /* digits in a mantissa, numerator or denominator */

typedef enum em_q_kind {
    EM_Q_FINITE = 0,
    EM_Q_NEG_INF = 1
} em_q_kind;

/* Parse s[0..len) exactly.  On success returns EM_OK, sets *kind and (for EM_Q_FINITE) q,
 * canonical.  allow_neg_inf: whether "-inf" is accepted.  On failure returns EM_ERR_PARSE
 * (or EM_ERR_NULL) and points *msg (if msg is not NULL) at a static English message; q is
 * then unspecified but still valid. */
int em_q_parse(const char *s, size_t len, int allow_neg_inf, mpq_t q, int *kind, const char **msg);

/* Same on a NUL-terminated string. */
int em_q_parse_str(const char *s, int allow_neg_inf, mpq_t q, int *kind, const char **msg);

/* The double nearest to q (round-to-nearest, ties to even, subnormals included); +-inf
 * (with *overflow = 1 if overflow is not NULL) when |q| rounds beyond DBL_MAX. */
double em_q_get_d(const mpq_t q, int *overflow);

/* The double nearest to the rational q rounded down (dir < 0) or up (dir > 0), or to
 * nearest (dir == 0); +-inf beyond the range of double in that direction. */
double em_q_to_d_dir(const mpq_t q, int dir);

/* The bits of |q| rounded up (0 for q == 0): an upper bound of log2|q| + 1. */
long em_q_bits(const mpq_t q);

/* n rationals, initialised (0), or NULL when out of memory; em_q_array_free clears and
 * frees them (NULL is harmless). */
mpq_t *em_q_array_new(size_t n);
void em_q_array_free(mpq_t *a, size_t n);

/* The rounding boundary between the double y and its neighbour in direction dir (> 0: up),
 * exactly: their midpoint, or DBL_MAX + 2^970 (half an ulp) beyond the largest double. */
void em_d_boundary(mpq_t B, double y, int dir);

/* 1 when the double d is finite and equal to q exactly. */
int em_q_is_d(const mpq_t q, double d);

/* Write q as a short exact decimal when it has one with at most `maxdigits` significant
 * digits (e.g. "10.683", "-1e+300"), else as "num/den".  Returns a malloc'd string. */
char *em_q_to_string(const mpq_t q, int maxdigits);

#ifdef __cplusplus
}
#endif
#endif
