/* em_ks.h: the one-sample Kolmogorov-Smirnov test against an exactly known continuous CDF.
 *
 * Part of the judges (outside the verified core).  The statistic is
 *   D_N = sup_x |F_N(x) - F(x)|,  F_N the empirical CDF of N draws, F the exact CDF,
 * computed from F at the distinct sorted draws (ties allowed: F_N jumps by their
 * multiplicity).  Its p-value P(D_N >= d) under the null (F continuous) comes from one of:
 *
 *   EM_KS_EXACT   1 - K_N(d), K_N the exact CDF of D_N by Marsaglia, Tsang & Wang,
 *                 "Evaluating Kolmogorov's distribution", J. Stat. Softw. 8(18), 2003
 *                 (an m x m matrix power, m = 2 ceil(N d) - 1 about, in double with
 *                 explicit exponent scaling; WITHOUT the paper's optional right-tail
 *                 shortcut).  Used when the p-value is above EM_KS_TAIL and the matrix
 *                 costs at most EM_KS_MTW_FLOPS floating-point operations.
 *   EM_KS_TAIL2   2 P(D+_N >= d), the exact one-sided Smirnov tail by the Birnbaum-Tingey
 *                 (1951) sum, doubled.  By the union bound it is never below the exact
 *                 two-sided p-value, and it equals it for d >= 1/2 (the two one-sided
 *                 events are then disjoint).  Used when it is below EM_KS_TAIL = 1e-3,
 *                 where its relative excess is of the order of the p-value itself
 *                 (Miller 1956; below 1e-6 against the exact value in tests/test_ks.c).
 *   EM_KS_ASYMPTOTIC  when that tail is above EM_KS_TAIL and the exact matrix is too large
 *                 (large N, moderate p): Kolmogorov's limit Q(t) = 2 sum_k (-1)^(k-1)
 *                 exp(-2 k^2 t^2) at Stephens' (1970) corrected t = d (sqrt(N) + 0.12 +
 *                 0.11 / sqrt(N)), an approximation (about 1e-3 relative at N = 10^6,
 *                 tests/test_ks.c); the doubled one-sided tail is given with it as a
 *                 rigorous upper bound (and caps it).
 * So a p-value below 1e-3 is always accurate to many digits, and a test at level
 * alpha <= 1e-3 decides as with the exact p-value (up to that relative error): the
 * approximation is only used where both it and the rigorous bound are far above alpha.
 */
#ifndef EM_JUDGE_KS_H
#define EM_JUDGE_KS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { EM_KS_EXACT = 0, EM_KS_TAIL2 = 1, EM_KS_ASYMPTOTIC = 2 };

#define EM_KS_TAIL 1e-3
#define EM_KS_MTW_FLOPS 2e10

/* K_N(d) = P(D_N < d) by Marsaglia-Tsang-Wang, exact up to double rounding; NaN when
 * n == 0, d is NaN, or the matrix would exceed max_m rows (max_m == 0: no limit). */
double em_ks_mtw_cdf(uint64_t n, double d, size_t max_m);

/* P(D+_N >= d), D+_N = sup (F_N - F), the one-sided Smirnov upper tail (Birnbaum-Tingey
 * sum in long double): 1 for d <= 0, 0 for d >= 1, (1 - d)^N for d >= 1 - 1/N. */
double em_ks_smirnov_upper(uint64_t n, double d);

/* The two-sided p-value P(D_N >= d) and the method used (EM_KS_*); *upper (may be NULL)
 * receives a rigorous upper bound on it (the p-value itself for EM_KS_EXACT and
 * EM_KS_TAIL2, up to rounding; the doubled one-sided tail for EM_KS_ASYMPTOTIC).  NaN when
 * n == 0 or d is NaN. */
double em_ks_pvalue(uint64_t n, double d, int *method, double *upper);

/* Kolmogorov's limiting upper tail Q(t) = P(sup |B(s)| > t), B a Brownian bridge. */
double em_ks_kolmogorov_q(double t);

/* The statistic from m distinct sorted draws: F[i] the exact CDF at the i-th (clamped to
 * [0, 1]), count[i] its multiplicity (> 0), N the total.  Returns D; *where the index i
 * at which it is attained and *side +1 when F_N - F is largest there (F_N(x_i) - F(x_i)),
 * -1 when F - F_N(x_i-) is (either pointer may be NULL).  0 when m == 0. */
double em_ks_statistic(size_t m, const double *F, const uint64_t *count, uint64_t N,
                       size_t *where, int *side);

/* The same where the law has atoms at some draws: Fleft[i] = F(x_i-), F[i] = F(x_i) (an
 * exact draw rounded to +-inf lands on an atom: the mass beyond the largest double). */
double em_ks_statistic_atoms(size_t m, const double *Fleft, const double *F,
                             const uint64_t *count, uint64_t N, size_t *where, int *side);

const char *em_ks_method_name(int method);

#ifdef __cplusplus
}
#endif
#endif
