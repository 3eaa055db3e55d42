/* em_round.h: the one correct-rounding routine.  A real value is given by interval
 * bounds at a precision and, where it can be, an exact comparison with a rational;
 * em_round returns its correctly rounded K-digit decimal (round half to even at an exact
 * tie) and double.  Ziv's strategy: when both ends of the interval round alike, so does
 * every number between them (rounding is monotone), the value included; otherwise the
 * precision is doubled, and past a few levels the exact comparison decides the walk to
 * the correct neighbour.  The only failure is EM_ERR_UNDECIDED past EM_ROUND_MAX_PREC
 * bits. */
#ifndef EM_NUM_ROUND_H
#define EM_NUM_ROUND_H

#include <gmp.h>
#include <mpfr.h>

/* The precision limit of every rising-precision loop (bits). */
#define EM_ROUND_MAX_PREC (1L << 20)
/* The most significant digits a decimal result may have. */
#define EM_ROUND_MAX_DIGITS 1000
/* Decimal outputs of magnitude beyond 10^+-EM_ROUND_MAX_EXP10 are not printed
 * (EM_ERR_UNDECIDED): the exact comparisons would need numbers of that many digits. */
#define EM_ROUND_MAX_EXP10 10000000L

#define EM_CV_EXACT 1u   /* the string is the exact value (0, 1, -inf, inf, or a hit) */
#define EM_CV_TIE 2u     /* the value was exactly a rounding boundary: rounded half to even */
#define EM_CV_NEAR_ONE 4u /* a probability below 1 whose rounding is 1: printed as K nines
                             (0.99...9, as the finite oracle does); d is 1.0 */
#define EM_CV_FROM_LOG 8u     /* below MPFR's exponent range: decided from its logarithm */
#define EM_CV_LOG_FROM_LOG 16u /* |v| below MPFR's range, v a log near 0: from log |v| */

typedef struct em_cval {
    char *str;       /* correctly rounded K-digit decimal, malloc'd (em_cval_clear) */
    double d;        /* correctly rounded double (ties to even; +-inf beyond DBL_MAX) */
    unsigned flags;
} em_cval;

void em_cval_init(em_cval *v);
void em_cval_clear(em_cval *v);
/* v set to the exact value s (EM_CV_EXACT) and its double d: EM_OK or EM_ERR_NOMEM. */
int em_cval_exact(em_cval *v, const char *s, double d);

/* v, a value known to be below 1, when its K-digit decimal is 1: the decimal becomes the
 * largest K-digit decimal below 1, K nines (EM_CV_NEAR_ONE; never "1.000", which reads as
 * certainty); its double stays 1.0.  EM_OK or EM_ERR_NOMEM. */
int em_cval_below_one(em_cval *v, int K);

/* Exact sign of v - B. */
typedef int (*em_cmp_fn)(void *ctx, const mpq_t B, int *sign);
/* lo <= v <= hi at about prec bits. */
typedef int (*em_round_bounds_fn)(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi);

/* A real value v given by interval bounds at a precision, and an exact comparison with a
 * rational; em_round finds its correctly rounded K-digit decimal and double. */
typedef struct em_rval {
    /* lo <= v <= hi at about prec bits (lo, hi initialised; the callee may set their
     * precision).  EM_OK or an error (a bound that no precision can improve, below MPFR's
     * exponent range: EM_ERR_UNDECIDED at once). */
    em_round_bounds_fn bounds;
    /* exact sign of v - B; NULL when v has none (a value known only by its bounds): the
     * bounds are then refined up to EM_ROUND_MAX_PREC bits, so that a value exactly at a
     * rounding boundary is EM_ERR_UNDECIDED, never a guess (the caller recognises the
     * values that can be: exact zeros, ties of rationals) */
    em_cmp_fn cmp;
    void *ctx;
} em_rval;

/* Correctly rounded K-digit decimal (round half to even at exact ties) and double of v
 * (bounds required).  prec0: first precision tried.  EM_OK, EM_ERR_UNDECIDED,
 * EM_ERR_NOMEM, or the error of bounds or cmp. */
int em_round(const em_rval *v, int K, mpfr_prec_t prec0, em_cval *out);

/* A value s exp(a) (s = -1 when neg, else +1) that may lie beyond MPFR's exponent range,
 * known by the bounds of a: its correctly rounded K-digit decimal, from 10^(a / ln 10) at
 * both ends of a's interval (floor and fraction), and its correctly rounded double (+-0
 * below 2^-1075).  a->bounds sets lo and hi to a precision that carries a's integer part
 * besides prec bits; a->cmp is not used (no exact comparison: Ziv's test alone, from
 * prec0 bits doubled up to EM_ROUND_MAX_PREC).  EM_OK, EM_ERR_UNDECIDED, EM_ERR_NOMEM,
 * or the error of bounds. */
int em_round_exp(const em_rval *a, int neg, int K, mpfr_prec_t prec0, em_cval *out);

/* Its test at one precision: 1 when both ends of [lo, hi] (a's bounds, any magnitude) give
 * exp(a) the same K digits, then in d1 with the exponent e1 (the value 0.d1 10^e1); d2,
 * e2 scratch (d1, d2: K + 16 chars). */
int em_round_exp_digits(mpfr_srcptr lo, mpfr_srcptr hi, int K, char *d1, char *d2, mpz_t e1,
                        mpz_t e2);

/* An exact rational q correctly rounded (ties to even; EM_CV_EXACT when the decimal is q
 * itself). */
int em_round_q(const mpq_t q, int K, em_cval *out);

/* The sign of v - B in *sign, by the same means (bounds from prec0 bits, doubled; then
 * cmp, or the bounds alone up to EM_ROUND_MAX_PREC bits). */
int em_round_cmp(const em_rval *v, mpfr_prec_t prec0, const mpq_t B, int *sign);

/* The walk alone: from the approximation approx of v (non-zero), by exact comparisons
 * with the rounding boundaries, to v's correctly rounded K-digit decimal and double. */
int em_round_walk(em_cmp_fn cmp, void *ctx, mpfr_t approx, int K, em_cval *out);

#endif
