/* em_pf_brute.h: permute-and-flip's output distribution by brute force, independent of
 * the law at scale (src/oracle/em_pf_law.c), for the tests of the exact pmf (test_pf.c),
 * of the command line (test_cli.c) and the benchmark's baseline (stats/bench_speed.c):
 * - pf_brute: P(r) = sum over all n! visiting orders of prod_{j before r} (1 - p_j) p_r / n!,
 *   in long double, n <= 8;
 * - pf_brute_round: the O(n^2) Bernstein form's bounds (em_pf_pmf_brute_bounds) rounded by
 *   Ziv's strategy as `expmech probs --variant pf` did before the law at scale: one loop
 *   for the probabilities (doubles and K-digit decimals, from 192 + 3.33 K bits, doubling),
 *   one for the log-probabilities (log of both ends, and log1p(-(sum of the others)) for
 *   P > 1/2); decimals by mpfr_get_str. */
#ifndef EM_PF_BRUTE_H
#define EM_PF_BRUTE_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <gmp.h>
#include <mpfr.h>

#include "expmech.h"
#include "num/em_format.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "em_problem_util.h"

static inline void pf_brute(size_t n, const double *p, long double *P)
{
    size_t perm[8];
    for (size_t i = 0; i < n; i++) {
        perm[i] = i;
        P[i] = 0;
    }
    long double nf = 1;
    for (size_t i = 2; i <= n; i++)
        nf *= i;
    for (;;) {
        long double rej = 1;
        for (size_t k = 0; k < n; k++) {
            P[perm[k]] += rej * p[perm[k]] / nf;
            rej *= 1 - (long double)p[perm[k]];
        }
        size_t i = n - 1;
        while (i > 0 && perm[i - 1] >= perm[i])
            i--;
        if (i == 0)
            break;
        size_t j = n - 1;
        while (perm[j] <= perm[i - 1])
            j--;
        size_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
        for (size_t a = i, b = n - 1; a < b; a++, b--) {
            t = perm[a];
            perm[a] = perm[b];
            perm[b] = t;
        }
    }
}

/* Both ends of [lo, hi] round alike: the K-digit decimal (oracle style, malloc'd) and the
 * double; 0 otherwise.  neg: the interval is negative (a log). */
static inline int pf_brute_decide(mpfr_srcptr lo, mpfr_srcptr hi, int K, int neg, char *s1,
                                  char *s2, char **str, double *d)
{
    mpfr_exp_t e1, e2;
    mpfr_get_str(s1, &e1, 10, (size_t)K, lo, MPFR_RNDN);
    mpfr_get_str(s2, &e2, 10, (size_t)K, hi, MPFR_RNDN);
    double d1 = mpfr_get_d(lo, MPFR_RNDN), d2 = mpfr_get_d(hi, MPFR_RNDN);
    if (e1 != e2 || strcmp(s1, s2) != 0 || d1 != d2)
        return 0;
    mpz_t e;
    mpz_init_set_si(e, (long)e1);
    *str = em_format_decimal(neg, s1 + neg, e);
    mpz_clear(e);
    *d = d1;
    return 1;
}

/* Every probability and log-probability correctly rounded by the brute force: EM_OK, or
 * EM_ERR_UNDECIDED past 2^20 bits (left NULL / NaN), or em_pf_pmf_brute_bounds's error.
 * "0" / "-inf" excluded, "1" / "0" the only candidate. */
static inline int pf_brute_round(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                                 const mpq_t delta, int variant, int K, double *pd, char **dec,
                                 double *ld, char **lg)
{
    mpfr_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    char *s1 = malloc((size_t)K + 8), *s2 = malloc((size_t)K + 8);
    unsigned char *done = calloc(n, 1);
    if (!lo || !hi || !s1 || !s2 || !done) {
        free(lo);
        free(hi);
        free(s1);
        free(s2);
        free(done);
        return EM_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        dec[i] = lg[i] = NULL;
        pd[i] = ld[i] = NAN;
        mpfr_inits2(64, lo[i], hi[i], (mpfr_ptr)0);
    }
    mpfr_t a, b, ya, yb;
    mpfr_inits2(64, a, b, ya, yb, (mpfr_ptr)0);
    int st = EM_OK;
    for (int pass = 0; pass < 2 && st == EM_OK; pass++) { /* probabilities, then logs */
        memset(done, 0, n);
        size_t left = n;
        for (mpfr_prec_t prec = 192 + (mpfr_prec_t)(K * 3.33); left > 0 && st == EM_OK;
             prec *= 2) {
            if (prec > (1L << 20)) {
                st = EM_ERR_UNDECIDED;
                break;
            }
            for (size_t i = 0; i < n; i++) {
                mpfr_set_prec(lo[i], prec);
                mpfr_set_prec(hi[i], prec);
            }
            mpfr_set_prec(a, prec);
            mpfr_set_prec(b, prec);
            mpfr_set_prec(ya, prec);
            mpfr_set_prec(yb, prec);
            st = tp_pf_pmf_bounds(n, u, ex, eps, delta, variant, prec, lo, hi);
            for (size_t i = 0; i < n && st == EM_OK; i++) {
                if (done[i])
                    continue;
                if (mpfr_zero_p(hi[i]) || mpfr_cmp_ui(lo[i], 1) == 0) { /* exactly 0 or 1 */
                    int one = !mpfr_zero_p(hi[i]);
                    if (pass == 0) {
                        dec[i] = strdup(one ? "1" : "0");
                        pd[i] = one;
                    } else {
                        lg[i] = strdup(one ? "0" : "-inf");
                        ld[i] = one ? 0.0 : -INFINITY;
                    }
                    done[i] = 1;
                } else if (pass == 0) {
                    if (mpfr_sgn(lo[i]) > 0)
                        done[i] = (unsigned char)pf_brute_decide(lo[i], hi[i], K, 0, s1, s2,
                                                                 &dec[i], &pd[i]);
                } else if (mpfr_sgn(lo[i]) > 0) {
                    mpfr_log(a, lo[i], MPFR_RNDD);
                    mpfr_log(b, hi[i], MPFR_RNDU);
                    if (mpfr_cmp_d(lo[i], 0.5) > 0) { /* log1p(-(the others)): tight */
                        mpfr_set_zero(ya, 1);
                        mpfr_set_zero(yb, 1);
                        for (size_t j = 0; j < n; j++)
                            if (j != i) {
                                mpfr_add(ya, ya, lo[j], MPFR_RNDD);
                                mpfr_add(yb, yb, hi[j], MPFR_RNDU);
                            }
                        mpfr_neg(yb, yb, MPFR_RNDD);
                        mpfr_log1p(yb, yb, MPFR_RNDD);
                        mpfr_neg(ya, ya, MPFR_RNDU);
                        mpfr_log1p(ya, ya, MPFR_RNDU);
                        mpfr_max(a, a, yb, MPFR_RNDD);
                        mpfr_min(b, b, ya, MPFR_RNDU);
                    }
                    if (mpfr_sgn(b) < 0)
                        done[i] = (unsigned char)pf_brute_decide(a, b, K, 1, s1, s2, &lg[i],
                                                                 &ld[i]);
                }
                left -= done[i];
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        mpfr_clears(lo[i], hi[i], (mpfr_ptr)0);
    mpfr_clears(a, b, ya, yb, (mpfr_ptr)0);
    free(lo);
    free(hi);
    free(s1);
    free(s2);
    free(done);
    return st;
}

#endif
