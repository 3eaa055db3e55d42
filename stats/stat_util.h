/* stat_util.h: shared pieces of the stats/stat_*.c programs (header-only):
 * the PASS/FAIL verdict counters, the closing line, and the power of the level-alpha
 * G-test against a given wrong distribution (noncentral chi-square). */
#ifndef EM_STAT_UTIL_H
#define EM_STAT_UTIL_H

#include <stdio.h>
#include <stddef.h>

#include "judge/em_gof.h"

static int em_st_passed, em_st_failed;

static inline void em_st_verdict(int ok, const char *what)
{
    printf("  %s: %s\n", ok ? "PASS" : "FAIL", what);
    if (ok)
        em_st_passed++;
    else
        em_st_failed++;
}

/* Prints "stats: N passed, N failed"; returns the exit status. */
static inline int em_st_finish(void)
{
    printf("stats: %d passed, %d failed\n", em_st_passed, em_st_failed);
    return em_st_failed ? 1 : 0;
}

/* Power of the level-alpha test with df degrees of freedom against q when p is true:
 * noncentrality N sum (q - p)^2 / p, critical value by bisection. */
static inline double em_st_power(size_t n, const double *p, const double *q, double N, int df,
                                 double alpha)
{
    double w2 = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] > 0)
            w2 += (q[i] - p[i]) * (q[i] - p[i]) / p[i];
    double lo = 0, hi = 10000;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (em_ncx2_Q(mid, df, 0.0) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return em_ncx2_Q(hi, df, N * w2);
}

#endif
