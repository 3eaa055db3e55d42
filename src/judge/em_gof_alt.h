/* em_gof_alt.h: the G-test of counts under a law, cells pooled as em_check pools them, and
 * the power of that test against another law (the noncentral chi-square): what the
 * conformance suite needs to say that a case detects a mistake, and which mistake's law a
 * sampler's draws fit.  Never installed. */
#ifndef EM_JUDGE_GOF_ALT_H
#define EM_JUDGE_GOF_ALT_H

#include <stddef.h>
#include <stdint.h>

/* em_check's pooling of cells p[0..n) at N draws (min_expected each): cell_of[i] the pool,
 * SIZE_MAX where p is 0; returns the number of pools (0: none, or no memory). */
size_t em_gof_alt_pool(size_t n, const double *p, uint64_t N, double min_expected,
                       size_t *cell_of);

/* The G-test of counts[0..n) against probabilities p[] (summing to 1 within 1e-9), cells
 * pooled smallest expected first until each expects >= min_expected: *g, *df, *pv (1 when
 * df = 0), *impossible (a draw where p is 0: then *pv = 0).  cell_of: NULL or n entries
 * (SIZE_MAX for p = 0).  EM_OK, EM_ERR_DOMAIN (p does not sum to 1, no draw),
 * EM_ERR_NOMEM. */
int em_gof_alt_test(size_t n, const double *p, const uint64_t *counts, double min_expected,
                    double *g, size_t *df, double *pv, int *impossible, size_t *cell_of);

/* The probability that a noncentral chi-square (df, lambda) exceeds the level-alpha
 * critical value of the central one. */
double em_gof_alt_chisq_power(double df, double lambda, double alpha);

/* The power of the level-alpha G-test of N draws, cells pooled to min_expected under p as
 * em_check pools them, against law q (a draw where p = 0 rejects at once, too). */
double em_gof_alt_power(size_t n, const double *p, const double *q, uint64_t N, double alpha,
                        double min_expected);

#endif
