/* em_test_util.h: shared helpers for the unit tests of the core and trusted layer.
 *
 * Header-only, static inline.  The reference computation below is independent of
 * src/: it works in MPFR at EM_REF_PREC bits from the raw doubles (utilities,
 * epsilon, delta), with MPFR's widest exponent range, and never calls the code
 * under test.
 *
 *   c       = eps / (2 delta)  (standard)  or  eps / delta  (monotone)
 *   a_i     = c (u_i - u_max)                    (exact log-weight, <= 0)
 *   y       = sum_{j != first argmax} exp(a_j)   (the mass outside the mode)
 *   L       = log1p(y) = log sum_j exp(a_j)      (accurate even when y is tiny)
 *   log p_i = a_i - L,  p_i = exp(log p_i)
 * which equals -log sum_j exp(c (u_j - u_i)) and 1 / sum_j exp(c (u_j - u_i)).
 */
#ifndef EM_TEST_UTIL_H
#define EM_TEST_UTIL_H

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "expmech.h"

#define EM_REF_PREC 320

/* The seed's marital-status counts (Adult data), in the seed's category order. */
#define EM_MARITAL_N 7
#define EM_MARITAL_COUNTS {10683, 14976, 4443, 418, 1025, 23, 993}

/* An assertion for hot loops: Check's ck_assert records every passing check (one
   write per call), so loops over millions of elements test with this instead. */
#define EM_T_REQUIRE(cond, ...) \
    do { \
        if (!(cond)) \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

/* A deterministic 64-bit generator for test inputs (SplitMix64). */
static inline uint64_t em_t_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void em_t_mpfr_wide(void)
{
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
}

/* ------------------------------------------------------ reference (MPFR) */

typedef struct em_ref {
    size_t n;
    size_t argmax;   /* first maximal finite utility */
    int *excluded;   /* u_i == -inf */
    mpfr_t *a;       /* exact log-weights (excluded: -inf) */
    mpfr_t *logp;    /* exact log-probabilities (excluded: -inf) */
    mpfr_t *p;       /* exact probabilities (excluded: 0) */
} em_ref;

/* Returns 0 on success, -1 when every utility is -inf (no reference). */
static inline int em_ref_compute(em_ref *r, size_t n, const double *u, double eps,
                                 double delta, int variant)
{
    em_t_mpfr_wide();
    r->n = n;
    r->excluded = calloc(n, sizeof *r->excluded);
    r->a = malloc(n * sizeof *r->a);
    r->logp = malloc(n * sizeof *r->logp);
    r->p = malloc(n * sizeof *r->p);
    ck_assert(r->excluded && r->a && r->logp && r->p);
    size_t best = n;
    for (size_t i = 0; i < n; i++) {
        mpfr_inits2(EM_REF_PREC, r->a[i], r->logp[i], r->p[i], (mpfr_ptr)0);
        r->excluded[i] = isinf(u[i]) && u[i] < 0;
        if (!r->excluded[i] && (best == n || u[i] > u[best]))
            best = i;
    }
    r->argmax = best;
    if (best == n)
        return -1;

    mpfr_t c, d, y, t, L;
    mpfr_inits2(EM_REF_PREC, c, d, y, t, L, (mpfr_ptr)0);
    mpfr_set_d(c, eps, MPFR_RNDN);
    mpfr_set_d(d, delta, MPFR_RNDN);
    mpfr_div(c, c, d, MPFR_RNDN);
    if (variant == EM_STANDARD)
        mpfr_div_ui(c, c, 2, MPFR_RNDN);
    mpfr_set_zero(y, 1);
    for (size_t i = 0; i < n; i++) {
        if (r->excluded[i]) {
            mpfr_set_inf(r->a[i], -1);
            continue;
        }
        /* u_i - u_max: both doubles, exact in MPFR before the subtraction */
        mpfr_set_d(t, u[i], MPFR_RNDN);
        mpfr_set_d(d, u[best], MPFR_RNDN);
        mpfr_sub(t, t, d, MPFR_RNDN);
        mpfr_mul(r->a[i], c, t, MPFR_RNDN);
        if (i != best) {
            mpfr_exp(t, r->a[i], MPFR_RNDN);
            mpfr_add(y, y, t, MPFR_RNDN);
        }
    }
    mpfr_log1p(L, y, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        if (r->excluded[i]) {
            mpfr_set_inf(r->logp[i], -1);
            mpfr_set_zero(r->p[i], 1);
            continue;
        }
        mpfr_sub(r->logp[i], r->a[i], L, MPFR_RNDN);
        mpfr_exp(r->p[i], r->logp[i], MPFR_RNDN);
    }
    mpfr_clears(c, d, y, t, L, (mpfr_ptr)0);
    return 0;
}

static inline void em_ref_free(em_ref *r)
{
    for (size_t i = 0; i < r->n; i++)
        mpfr_clears(r->a[i], r->logp[i], r->p[i], (mpfr_ptr)0);
    free(r->a);
    free(r->logp);
    free(r->p);
    free(r->excluded);
}

/* An MPFR value as text for failure messages (a few rotating buffers). */
static inline const char *em_t_str(mpfr_srcptr x)
{
    static char buf[4][96];
    static int k;
    k = (k + 1) % 4;
    mpfr_snprintf(buf[k], sizeof buf[k], "%.20Re", x);
    return buf[k];
}

/* |x - ref| / |ref| (ref finite, nonzero), computed in MPFR. */
static inline double em_t_relerr(double x, mpfr_srcptr ref)
{
    mpfr_t t;
    mpfr_init2(t, EM_REF_PREC);
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_sub(t, t, ref, MPFR_RNDN);
    mpfr_div(t, t, ref, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    double e = mpfr_get_d(t, MPFR_RNDU);
    mpfr_clear(t);
    return e;
}

/* |x - ref|, computed in MPFR (ref finite). */
static inline double em_t_abserr(double x, mpfr_srcptr ref)
{
    mpfr_t t;
    mpfr_init2(t, EM_REF_PREC);
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_sub(t, t, ref, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    double e = mpfr_get_d(t, MPFR_RNDU);
    mpfr_clear(t);
    return e;
}

/* -1: ref < -DBL_MAX (1 + 1e-12) (double must be -inf); +1: ref >= -DBL_MAX (1 - 1e-12)
   (double must be finite); 0: in between (either is acceptable). */
static inline int em_t_fits_double(mpfr_srcptr ref)
{
    if (mpfr_inf_p(ref))
        return -1;
    mpfr_t lim;
    mpfr_init2(lim, EM_REF_PREC);
    mpfr_set_d(lim, -DBL_MAX, MPFR_RNDN);
    mpfr_mul_d(lim, lim, 1.0 + 1e-12, MPFR_RNDN);
    int below = mpfr_less_p(ref, lim);
    mpfr_set_d(lim, -DBL_MAX, MPFR_RNDN);
    mpfr_mul_d(lim, lim, 1.0 - 1e-12, MPFR_RNDN);
    int above = mpfr_greaterequal_p(ref, lim);
    mpfr_clear(lim);
    return below ? -1 : above ? 1 : 0;
}

/* Check one double log-quantity (lw or logp) against its exact value: relative
   error <= 1e-12 where |exact| >= 1e-300, absolute 1e-300 below that, -inf exactly
   where the exact value is -inf or below -DBL_MAX. */
static inline void em_t_check_log(const char *what, const char *label, size_t i, double x,
                                  mpfr_srcptr ref)
{
    ck_assert_msg(!isnan(x), "%s: %s[%zu] is NaN", label, what, i);
    int fit = em_t_fits_double(ref);
    if (fit < 0) {
        ck_assert_msg(isinf(x) && x < 0, "%s: %s[%zu] = %.17g, exact %s (below -DBL_MAX) needs -inf",
                      label, what, i, x, em_t_str(ref));
        return;
    }
    if (fit == 0 && isinf(x) && x < 0)
        return;
    ck_assert_msg(isfinite(x), "%s: %s[%zu] = %.17g, exact %s", label, what, i, x, em_t_str(ref));
    mpfr_t lim;
    mpfr_init2(lim, 64);
    mpfr_set_d(lim, 1e-300, MPFR_RNDN);
    int big = mpfr_cmpabs(ref, lim) >= 0;
    mpfr_clear(lim);
    if (big) {
        double e = em_t_relerr(x, ref);
        ck_assert_msg(e <= 1e-12, "%s: %s[%zu] = %.17g, exact %s, relative error %.3g",
                      label, what, i, x, em_t_str(ref), e);
    } else {
        double e = em_t_abserr(x, ref);
        ck_assert_msg(e <= 1e-300, "%s: %s[%zu] = %.17g, exact %s, absolute error %.3g",
                      label, what, i, x, em_t_str(ref), e);
    }
}

/* Check a probability: relative error <= 1e-12 where exact >= DBL_MIN; below that
   |p - exact| <= 1e-12 exact + 2^-1074 (subnormal rounding), and p == 0 only where
   exact < DBL_MIN 2^-52. */
static inline void em_t_check_p(const char *label, size_t i, double x, mpfr_srcptr ref)
{
    ck_assert_msg(!isnan(x), "%s: p[%zu] is NaN", label, i);
    ck_assert_msg(x >= 0.0 && x <= 1.0, "%s: p[%zu] = %.17g outside [0, 1]", label, i, x);
    if (mpfr_zero_p(ref)) {
        ck_assert_msg(x == 0.0, "%s: p[%zu] = %.17g, exact 0", label, i, x);
        return;
    }
    if (mpfr_cmp_d(ref, DBL_MIN) >= 0) {
        double e = em_t_relerr(x, ref);
        ck_assert_msg(e <= 1e-12, "%s: p[%zu] = %.17g, exact %s, relative error %.3g",
                      label, i, x, em_t_str(ref), e);
    } else {
        double tol = 1e-12 * mpfr_get_d(ref, MPFR_RNDU) + 0x1p-1074;
        double e = em_t_abserr(x, ref);
        ck_assert_msg(e <= tol, "%s: p[%zu] = %.17g, exact %s (subnormal range), error %.3g",
                      label, i, x, em_t_str(ref), e);
    }
    if (x == 0.0)
        ck_assert_msg(mpfr_cmp_d(ref, DBL_MIN * 0x1p-52) < 0,
                      "%s: p[%zu] == 0 but exact %s >= DBL_MIN 2^-52", label, i, em_t_str(ref));
}

/* Run em_logweights and em_normalize on one case and check every output against
   the reference, plus the structural promises (max-shift, ranges, no NaN). */
static inline void em_t_check_case(const char *label, size_t n, const double *u, double eps,
                                   double delta, int variant)
{
    double *lw = malloc(n * sizeof *lw), *logp = malloc(n * sizeof *logp),
           *p = malloc(n * sizeof *p), *p2 = malloc(n * sizeof *p2),
           *logp2 = malloc(n * sizeof *logp2);
    ck_assert(lw && logp && p && p2 && logp2);
    em_ref r;
    ck_assert_msg(em_ref_compute(&r, n, u, eps, delta, variant) == 0, "%s: no finite utility", label);

    size_t argmax = (size_t)-1;
    int st = em_logweights(n, u, eps, delta, variant, lw, &argmax);
    ck_assert_msg(st == EM_OK, "%s: em_logweights -> %d (%s)", label, st, em_strerror(st));
    ck_assert_msg(argmax == r.argmax, "%s: argmax %zu, expected %zu", label, argmax, r.argmax);
    ck_assert_msg(lw[argmax] == 0.0, "%s: lw[argmax] = %.17g", label, lw[argmax]);

    st = em_normalize(n, lw, logp, p);
    ck_assert_msg(st == EM_OK, "%s: em_normalize -> %d", label, st);
    /* each output alone gives the same values as both together */
    ck_assert_int_eq(em_normalize(n, lw, NULL, p2), EM_OK);
    ck_assert_int_eq(em_normalize(n, lw, logp2, NULL), EM_OK);

    double psum = 0.0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(!isnan(lw[i]) && lw[i] <= 0.0, "%s: lw[%zu] = %.17g", label, i, lw[i]);
        ck_assert_msg(!isnan(logp[i]) && logp[i] <= 0.0, "%s: logp[%zu] = %.17g", label, i, logp[i]);
        ck_assert_msg(memcmp(&p[i], &p2[i], sizeof p[i]) == 0, "%s: p[%zu] differs without logp", label, i);
        ck_assert_msg(memcmp(&logp[i], &logp2[i], sizeof logp[i]) == 0, "%s: logp[%zu] differs without p", label, i);
        if (r.excluded[i]) {
            ck_assert_msg(isinf(lw[i]) && lw[i] < 0, "%s: excluded lw[%zu] = %.17g", label, i, lw[i]);
            ck_assert_msg(isinf(logp[i]) && logp[i] < 0, "%s: excluded logp[%zu] = %.17g", label, i, logp[i]);
            ck_assert_msg(p[i] == 0.0, "%s: excluded p[%zu] = %.17g", label, i, p[i]);
            continue;
        }
        em_t_check_log("lw", label, i, lw[i], r.a[i]);
        em_t_check_log("logp", label, i, logp[i], r.logp[i]);
        em_t_check_p(label, i, p[i], r.p[i]);
        psum += p[i];
    }
    ck_assert_msg(fabs(psum - 1.0) <= 1e-12, "%s: sum p = %.17g", label, psum);
    em_ref_free(&r);
    free(lw);
    free(logp);
    free(p);
    free(p2);
    free(logp2);
}

#endif
