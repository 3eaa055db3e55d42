/* em_dec10.h: exact K-digit decimal rounding of MPFR numbers in integer arithmetic.
 *
 * The oracle decides a K-digit result by rounding both ends of a certified interval and
 * comparing (rounding is monotone).  mpfr_get_str does that rounding, but through its own
 * MPFR approximation of 10^s at each call (most of the oracle's time at 10^6 candidates).
 * Here |x| = M 2^E (M the significand as an integer, exact) is scaled by an exact power
 * 10^s kept in a cache, and q = round(|x| 10^s) is taken with an integer shift or
 * division: the same correctly rounded digits (round to nearest, ties to even, as
 * mpfr_get_str with MPFR_RNDN), with no approximation anywhere.
 */
#ifndef EM_DEC10_H
#define EM_DEC10_H

#include <gmp.h>
#include <mpfr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* |s| above this (decimal exponents beyond about +-1000 at 40 digits): em_dec10_round
 * declines and the caller converts with mpfr_get_str. */
#define EM_DEC10_MAX_SCALE 1200

typedef struct em_dec10 {
    int K;
    mpz_t a, r, ch, p1, pK, pK1; /* scratch; 10^K, 10^(K-1) */
    mpz_t *pw;              /* pw[s] = 10^s for s < npw (built on demand); NULL: none kept */
    int npw;
    int live;               /* initialised, not yet cleared */
} em_dec10;

/* K >= 1.  Returns 0, or EM_ERR_NOMEM with nothing to clear. */
int em_dec10_init(em_dec10 *c, int K);
/* The same for one or two conversions: no powers of ten kept (each computed when needed),
 * nothing allocated but the integers; never fails (GMP aborts when out of memory). */
void em_dec10_init_single(em_dec10 *c, int K);
void em_dec10_clear(em_dec10 *c);

/* The K-digit round-to-nearest (ties to even) decimal of |x|: q in [10^(K-1), 10^K) and
 * *ex with |x| ~ q 10^(*ex - K), i.e. |x| ~ 0.q 10^*ex (mpfr_get_str's convention).
 * Returns 1, or 0 (q, *ex unspecified) when x is zero, not a number, or its decimal
 * exponent is beyond the cached scales. */
int em_dec10_round(em_dec10 *c, mpfr_srcptr x, mpz_ptr q, long *ex);

/* The decision of correct rounding for an enclosure [lo, hi] of a real v (same sign,
 * non-zero, finite): 1 when every real of [lo, hi] has the same K-digit round-to-nearest
 * (ties to even) decimal, then in q and *ex as em_dec10_round's; 0 when the ends round
 * differently (the caller refines); -1 when this cannot tell (a zero, a sign change, or a
 * decimal exponent beyond the cached scales).  The ends are scaled exactly to the K-digit
 * grid of the smaller magnitude and reduced to their codes (floor and fraction class,
 * spec/RoundDecide.acsl); the decision on the codes is em_round_decide's, proven by WP
 * (src/core/em_round_decide.h).  What it assumes: GMP's integer arithmetic is exact and
 * an MPFR number's significand and exponent are read as stored (src/trusted/em_mpfr.h). */
int em_dec10_decide(em_dec10 *c, mpfr_srcptr lo, mpfr_srcptr hi, mpz_ptr q, long *ex);

/* The K digits of q in [10^(K-1), 10^K) (em_dec10_round's result) into d, with a final
 * NUL: mpz_get_str's string, without its allocation. */
void em_dec10_digits(em_dec10 *c, mpz_srcptr q, char *d);

#ifdef __cplusplus
}
#endif
#endif
