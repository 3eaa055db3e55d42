/* em_cont_priv.h: the insides of the weighted and continuous laws (em_cont.h), shared by
 * the files of em_cont: em_cont_build.c (construction and the precision levels), em_cont_terms.c
 * (exact masses up to a point), em_cont_prob.c (probabilities, CDF, density),
 * em_cont_utility.c (expected utility and loss), em_cont_quantile.c, em_cont_sample.c.
 * The method and its exactness argument: spec/Continuous.md.
 *
 *
 * Notation.  c = eps/(2 delta) or eps/delta; every exponent is shifted by T = the largest
 * c u over the finite ends (atoms: over the candidates), so the exponents used are <= 0
 * and nothing overflows.  For piece j, k_j = c b_j, tl_j = c u(lo_j) - T, th_j = c u(hi_j)
 * - T, ca_j = c a_j - T (so c u(x) - T = ca_j + k_j x).  The mass of a segment [s, e] of a
 * piece is (exp(te) - exp(ts)) / k (k != 0, a missing term at an infinite end) or
 * (e - s) exp(ts) (k == 0); for computing it is written exp(ts) expm1(k (e - s)) / k, or
 * with -inf as s, exp(te) / k.  An atom's mass is m exp(t).
 */
#ifndef EM_ORACLE_CONT_PRIV_H
#define EM_ORACLE_CONT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>

#include "oracle/em_cont.h"

#define NLEV 12                /* precision levels p0 * 2^k cached */
#define SAMPLE_STEP 8          /* bits drawn per refinement of a draw */

struct level {
    mpfr_prec_t p;
    mpfr_t *Mlo, *Mhi;         /* masses (T-shifted) */
    mpfr_t *Clo, *Chi;         /* prefix sums C_0 = 0 .. C_n = Z */
    mpfr_t *Elo, *Ehi;         /* exp(tl_j) (pieces with a finite lo; atoms: exp(t_j)) */
    int done;
};

struct em_cont {
    int kind;
    size_t n;
    int K;
    mpq_t c, T;
    mpq_t *lo, *hi, *a, *b, *k, *tl, *th, *ca, *len;
    int lo_inf, hi_inf;
    unsigned char *zero;       /* mass exactly 0 */
    unsigned char *excl;       /* atoms: excluded */
    size_t npos, onlypos;
    unsigned long *line;
    mpfr_prec_t p0;
    struct level lev[NLEV];
    struct level slev;         /* the sampling level: 64 bits */
    mpfr_t *flo, *fhi, *fk, *fca; /* 64-bit bounds, two per piece (lo, hi): lo_j, hi_j,
                                     k_j, ca_j, for the sampler's fast comparison */
    unsigned first_chunk;      /* bits of the first read (63 by default) */
    int test_bug;              /* test hook: 1 = round X down instead of to nearest */
    /* sampling */
    uint64_t *lo64, *hi64;
    double *Fd;                /* approximate F at the cell starts (float path) */
    double *Ed, *kd, *lod;     /* approximate exp(tl - tlmax), k, lo (float path) */
    long double *Fl, *El, *kl, *lol; /* the same in long double: the exact sampler's first
                                        guess (any guess is corrected; a good one saves
                                        comparisons) */
    mpq_t q_one, q_minus_one, q_zero; /* 1, -1, 0: read-only, for the term builders */
};

static inline int finite_lo(const em_cont *C, size_t j) { return !(j == 0 && C->lo_inf); }
static inline int finite_hi(const em_cont *C, size_t j) { return !(j == C->n - 1 && C->hi_inf); }

/* ------------------------------------------------ shared by the files of em_cont */

/* em_cont_build.c: level l (precision p0 2^l) of C, computed the first time; and the filling of a
 * level at precision p (the sampler's own 64-bit level). */
int em_cont_level(em_cont *C, int l, struct level **out);
int em_cont_level_fill(em_cont *C, struct level *L, mpfr_prec_t p);

/* em_cont_build.c: bounds of the mass of segment [s, e] of piece j, s = lo_j (or -inf), e given
 * by its exponent te and d = k (e - lo) (k != 0) or e - lo (k == 0), at the precision of
 * lo and hi (s1..s4: scratch). */
void em_cont_seg_bounds(const em_cont *C, size_t j, const struct level *L, const mpq_t te,
                        const mpq_t d, mpfr_t lo, mpfr_t hi, mpfr_t s1, mpfr_t s2, mpfr_t s3,
                        mpfr_t s4);

/* em_cont_terms.c: append coef * exp(shift) * (the mass of [lo_j, x] of piece j; x NULL: of
 * the whole piece), of Z, or of N(x) = the mass below x, as exact terms (T-shifted
 * exponents).  EM_OK or EM_ERR_NOMEM. */
int em_cont_append_seg(const em_cont *C, em_expoly *P, size_t j, const mpq_t x,
                       const mpq_t coef, const mpq_t shift);
int em_cont_append_z_shifted(const em_cont *C, em_expoly *P, const mpq_t coef,
                             const mpq_t shift);
int em_cont_append_n(const em_cont *C, em_expoly *P, const mpq_t x, const mpq_t coef,
                     const mpq_t shift);

/* em_cont_terms.c: bounds of N(x) at level L. */
void em_cont_n_bounds(const em_cont *C, const struct level *L, const mpq_t x, mpfr_t lo,
                      mpfr_t hi);

/* em_cont_terms.c: where x is for F(x) = N(x) / Z.  *where: -1 left of R (F = 0), +1 right
 * of R (F = 1), 0 inside; *j the piece with lo_j <= x (inside); *partial whether x lies
 * strictly inside piece j (else N = C_{j+1} when x >= hi_j, or C_j when x == lo_j);
 * *cidx the prefix sum before it. */
void em_cont_locate(const em_cont *C, const mpq_t x, int *where, size_t *j, int *partial,
                    size_t *cidx);

/* em_cont_deep.c: beyond the range.  Values below MPFR's exponent range (a piece whose
 * weight relative to the largest is exp(-5e399): its probability, F(x) or an interval's
 * probability there), decided from their logarithms, which are ordinary numbers computed
 * from the masses' logarithms (exact exponent + small bounded part), never from the
 * masses; and the logarithms of values within such a distance of 1 (log P = -log1p(q),
 * decided from log q).  Correctly rounded to C->K digits; flags EM_CV_FROM_LOG,
 * EM_CV_LOG_FROM_LOG.  EM_OK, EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
int em_cont_deep_prob(em_cont *C, size_t j, em_cval *p);
int em_cont_deep_logprob(em_cont *C, size_t j, em_cval *logp);
int em_cont_deep_cdf(em_cont *C, const mpq_t x, em_cval *out);
int em_cont_deep_interval(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out);
/* log f(x), x in piece j (te = c u(x) - T), when exp(te) is piece j's whole mass (length
 * 1, or |k| = 1 with an infinite end) and f(x) = 1 / (1 + q) with q below the range;
 * EM_ERR_UNDECIDED otherwise. */
int em_cont_deep_logdens(em_cont *C, size_t j, const mpq_t te, em_cval *out);
/* N / D (D > 0; its square root when half, N >= 0 then), N and D exponential
 * polynomials (T-shifted exponents), from log |N| - log D with each sum shifted by its own
 * largest exponent: the expected utility, loss, sd and probabilities of events when they
 * lie below MPFR's range.  "0" exactly when N is empty; EM_ERR_DOMAIN for D <= 0. */
int em_cont_ratio_from_log(em_cont *C, const em_expoly *N, const em_expoly *D, int half,
                           em_cval *out);

#endif
