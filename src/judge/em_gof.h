/* em_gof.h: one-sample goodness-of-fit of observed draws against exact probabilities.
 *
 * Part of the judges (outside the verified core).  The method (src/oracle/README.md,
 * "Goodness of fit"):
 *   - G statistic (likelihood ratio), p-value from the chi-square upper tail with
 *     (pooled cells - 1) degrees of freedom;
 *   - cells pooled, smallest expected count first, until each pooled cell expects at
 *     least `min_expected` draws (20 by default: at alpha = 1e-6 the G-test's measured
 *     false-alarm rate is 1.02e-6 with >= 20 per cell, while the textbook ">= 5" rule is
 *     calibrated for alpha ~ 0.05 only);
 *   - support check: any draw of a probability-0 candidate is an immediate failure;
 *   - a one-sided exact binomial test on the tail that pooling hid (the cells whose own
 *     expected count is below min_expected), against over-representation;
 *   - the power of the test: the smallest relative error on the most probable cell that
 *     this N detects with probability 0.99 at alpha (noncentral chi-square, computed as
 *     an exact Poisson mixture of central chi-square tails).
 */
#ifndef EM_ORACLE_GOF_H
#define EM_ORACLE_GOF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EM_GOF_MIN_EXPECTED 20.0 /* default minimum expected count per pooled cell */
#define EM_GOF_ALPHA 1e-6        /* default significance level */
#define EM_GOF_POWER 0.99        /* power at which min_rel_err is reported */
#define EM_GOF_NO_CELL SIZE_MAX  /* cell_of[i] for a probability-0 candidate */

/* The verdict, as data (the command line formats it; exit 0, 1, 4). */
typedef enum em_gof_verdict {
    EM_GOF_PASS = 0,         /* no test rejects, and at least two cells were compared */
    EM_GOF_REJECT = 1,       /* some test rejects at alpha */
    EM_GOF_INSUFFICIENT = 2  /* nothing rejects, but too little data to test: every
                              * positive-probability candidate falls in ONE pooled cell
                              * (df = 0), while there are at least two of them; never a pass */
} em_gof_verdict;

typedef struct em_gof_result {
    double g, x2;            /* G and Pearson X^2 over the pooled cells */
    int df;                  /* pooled cells - 1 */
    double p_value;          /* chi-square upper tail of g with df (gsl_cdf_chisq_Q); 1 if df == 0 */
    double max_std_resid;    /* largest |O-E|/sqrt(E) over pooled cells */
    size_t ncells;           /* pooled cells */
    int support_violation;   /* a draw of a probability-0 candidate */
    size_t support_index;    /* first such candidate */
    double tail_p;           /* one-sided exact binomial p-value for over-representation of the pooled-away tail; 1 if none */
    double min_rel_err;      /* smallest relative error on the most probable cell detectable with power 0.99 at alpha (noncentral chi-square), for this N and df; +inf if df == 0 */
    uint64_t n_draws;
    /* the exact binomial tail of each candidate, against over-representation:
     * P(Bin(N, p_i) >= k_i) for the observed k_i > 0, smallest over i, compared with
     * alpha / (candidates of positive probability) (Bonferroni: the family keeps level
     * alpha).  It decides with any N: 10 draws all of a candidate of probability 5e-4 have
     * P = (5e-4)^10 = 9.8e-34 and reject, where pooling leaves no degree of freedom. */
    double cand_p;           /* 1 when no draw */
    size_t cand_index;       /* the candidate attaining cand_p (EM_GOF_NO_CELL if none) */
    double cand_alpha;       /* alpha / positive candidates */
    int reject;              /* p_value < alpha || tail_p < alpha || cand_p < cand_alpha
                              * || support_violation */
    em_gof_verdict verdict;
} em_gof_result;

/* p[i] exact probabilities (double), counts[i] observed; cells pooled (smallest expected
 * first) until each pooled cell expects >= min_expected (20 when min_expected is <= 0 or
 * NaN); cell_of may be NULL or receive n pooled-cell indices (EM_GOF_NO_CELL for
 * probability-0 candidates).  Pooled cells are numbered in the order of their smallest
 * member index.  Returns EM_OK or an EM_ERR_*: NULL (p, counts or res), EMPTY (n == 0),
 * DOMAIN (p not summing to 1 within 1e-9, a negative / NaN / infinite p, no positive p,
 * zero draws, alpha outside (0, 1)), NOMEM. */
int em_gof_test(size_t n, const double *p, const uint64_t *counts, double alpha,
                double min_expected, em_gof_result *res, size_t *cell_of);

/* Upper tail P(X > x) of the noncentral chi-square with df degrees of freedom and
 * noncentrality lambda >= 0: sum_j Pois(j; lambda/2) * Q_chisq(x; df + 2j), summed
 * outwards from the Poisson mode until the remaining mass is below 1e-17. */
double em_ncx2_Q(double x, double df, double lambda);

/* The level-alpha critical value of the central chi-square with df degrees of freedom, by
 * bisection on gsl_cdf_chisq_Q to relative width rtol in at most max_iter steps
 * (gsl_cdf_chisq_Qinv is wrong for large df: at alpha = 1e-6 it returns a value with Q = 0
 * at df = 1e5 and Q = 1 at df = 1e6; GSL 2.7). */
double em_chisq_crit(double df, double alpha, double rtol, int max_iter);

/* The noncentrality lambda at which the level-alpha chi-square test with df degrees
 * of freedom has the given power (bisection on em_ncx2_Q); NaN on bad arguments.
 * At alpha = 1e-6, power 0.99 gives 52.1 (1 df), 66.6 (6), 85.7 (19), 142.1 (99). */
double em_ncx2_lambda_for_power(double df, double alpha, double power);

#ifdef __cplusplus
}
#endif
#endif
