/* test_ks.c: the Kolmogorov-Smirnov statistic and p-values of src/judge/em_ks.c.
 * Expected values are closed forms derived here (n = 1, 2, the top of the range), the
 * Kolmogorov limit series, and Monte Carlo estimates with GSL's MT19937 at fixed seeds;
 * the two algorithms (Marsaglia-Tsang-Wang and Birnbaum-Tingey) are also checked against
 * each other where one bounds the other. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "judge/em_ks.h"

/* P(D_2 < d) by integrating the order statistics (u1 < u2, density 2) over
 * i/n - d < u_i < (i-1)/n + d. */
static double k2(double d)
{
    if (d <= 0.25)
        return 0;
    if (d <= 0.5)
        return 2 * (2 * d - 0.5) * (2 * d - 0.5);
    if (d < 1)
        return 1 - 2 * (1 - d) * (1 - d);
    return 1;
}

/* Kolmogorov's limit: P(sqrt(n) D_n > t) -> 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 t^2) */
static double kolmogorov_q(double t)
{
    double s = 0;
    for (int k = 1; k < 100; k++)
        s += (k % 2 ? 2 : -2) * exp(-2.0 * k * k * t * t);
    return s;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* D_n of n uniforms against F(x) = x, computed directly from the order statistics */
static double d_uniform(gsl_rng *r, int n, double *u)
{
    for (int i = 0; i < n; i++)
        u[i] = gsl_rng_uniform_pos(r);
    qsort(u, (size_t)n, sizeof *u, dcmp);
    double d = 0;
    for (int i = 0; i < n; i++) {
        double a = (i + 1.0) / n - u[i], b = u[i] - (double)i / n;
        if (a > d) d = a;
        if (b > d) d = b;
    }
    return d;
}

START_TEST(small_n_closed_forms)
{
    /* n = 1: D_1 = max(U, 1 - U): P(D_1 < d) = 2d - 1 on [1/2, 1] */
    for (double d = 0.5; d < 1; d += 0.0625) {
        ck_assert_double_eq_tol(em_ks_mtw_cdf(1, d, 0), 2 * d - 1, 1e-14);
        int m;
        ck_assert_double_eq_tol(em_ks_pvalue(1, d, &m, NULL), 2 * (1 - d), 1e-14);
        ck_assert_double_eq_tol(em_ks_smirnov_upper(1, d), 1 - d, 1e-15);
    }
    /* n = 2 */
    for (double d = 0.26; d < 1; d += 0.01)
        ck_assert_double_eq_tol(em_ks_mtw_cdf(2, d, 0), k2(d), 1e-13);
    /* the top: D+ >= d needs every point below 1 - d: (1 - d)^n for d >= 1 - 1/n */
    ck_assert_double_eq_tol(em_ks_smirnov_upper(5, 0.9), 1e-5, 1e-19);
    ck_assert_double_eq_tol(em_ks_mtw_cdf(5, 0.9, 0), 1 - 2e-5, 1e-13);
    int m = -1;
    ck_assert_double_eq_tol(em_ks_pvalue(5, 0.9, &m, NULL), 2e-5, 1e-18);
    ck_assert_int_eq(m, EM_KS_TAIL2);
    ck_assert_double_eq_tol(em_ks_smirnov_upper(50, 0.99) / 1e-100, 1.0, 1e-12);
}
END_TEST

START_TEST(limits_and_bad_arguments)
{
    int m;
    ck_assert(isnan(em_ks_pvalue(0, 0.1, &m, NULL)));
    ck_assert(isnan(em_ks_pvalue(10, NAN, &m, NULL)));
    ck_assert(isnan(em_ks_mtw_cdf(0, 0.1, 0)));
    ck_assert_double_eq(em_ks_pvalue(10, 0.05, &m, NULL), 1.0); /* D_10 >= 1/20 always */
    ck_assert_int_eq(m, EM_KS_EXACT);
    ck_assert_double_eq(em_ks_pvalue(10, 1.0, &m, NULL), 0.0);
    ck_assert_double_eq(em_ks_smirnov_upper(10, 0), 1.0);
    ck_assert_double_eq(em_ks_smirnov_upper(10, 1), 0.0);
    ck_assert(isnan(em_ks_mtw_cdf(100000, 0.5, 1000))); /* beyond max_m */
}
END_TEST

START_TEST(mtw_published_and_monte_carlo)
{
    /* Marsaglia, Tsang & Wang (2003), section 3: K(10, 0.274) = 0.6284796154565043 */
    double k = em_ks_mtw_cdf(10, 0.274, 0);
    ck_assert_double_eq_tol(k, 0.6284796154565043, 1e-13);
    /* and a Monte Carlo estimate of the same (independent of both) */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20240601);
    double u[100];
    const int reps = 400000;
    int below = 0;
    for (int t = 0; t < reps; t++)
        below += d_uniform(r, 10, u) < 0.274;
    double est = (double)below / reps, sd = sqrt(k * (1 - k) / reps);
    ck_assert_msg(fabs(est - k) < 5 * sd, "MC %g vs %g", est, k);
    gsl_rng_free(r);
}
END_TEST

START_TEST(tail_doubling_matches_exact)
{
    /* in the tail, 2 P(D+ >= d) is the two-sided p-value to about its own size: against
     * Marsaglia-Tsang-Wang (whose 1 - K loses digits below ~1e-10, hence the range) */
    static const unsigned ns[] = {10, 50, 200, 1000};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
        unsigned n = ns[a];
        for (double t = 1.4; t <= 2.6; t += 0.1) { /* sqrt(n) d = t: p from ~0.04 to ~1e-6 */
            double d = t / sqrt(n);
            double exact = 1 - em_ks_mtw_cdf(n, d, 0);
            double t2 = 2 * em_ks_smirnov_upper(n, d);
            /* union bound: t2 >= exact, up to MTW's own rounding (about 1e-14 absolute) */
            ck_assert_msg(t2 >= exact - 1e-13, "n %u t %g: 2P+ %.17g < exact %.17g", n,
                          t, t2, exact);
            if (exact < 1e-3)
                ck_assert_msg((t2 - exact) / exact < 1e-5, "n %u t %g: %.17g vs %.17g", n, t,
                              t2, exact);
            int m;
            double p = em_ks_pvalue(n, d, &m, NULL);
            ck_assert_msg(fabs(p - exact) <= 1e-5 * exact + 1e-13, "n %u t %g: p %.17g exact %.17g",
                          n, t, p, exact);
        }
    }
}
END_TEST

START_TEST(large_n_kolmogorov_limit)
{
    /* n = 10^6: the p-value is Kolmogorov's limit with Stephens' correction
     * t = d (sqrt(n) + 0.12 + 0.11/sqrt(n)) to about 1e-3 */
    const unsigned n = 1000000;
    for (double t = 1.9; t <= 3.0; t += 0.25) {
        double d = t / sqrt((double)n);
        int m;
        double p = em_ks_pvalue(n, d, &m, NULL);
        double ts = d * (sqrt((double)n) + 0.12 + 0.11 / sqrt((double)n));
        double q = kolmogorov_q(ts);
        ck_assert_msg(fabs(p - q) < 3e-3 * q, "t %g: p %.6g vs %.6g (method %d)", t, p, q, m);
    }
    /* moderate p at large n: the exact matrix is too big: the corrected limit, flagged,
     * with the doubled one-sided tail as an upper bound */
    int m;
    double up;
    for (double t = 0.4; t < 1.9; t += 0.3) {
        double p = em_ks_pvalue(n, t / sqrt((double)n), &m, &up);
        ck_assert_int_eq(m, EM_KS_ASYMPTOTIC);
        double q = kolmogorov_q(t * (1 + 0.12 / 1000 + 0.11 / 1e6));
        ck_assert_msg(fabs(p - fmin(q, up)) < 1e-9, "t %g: %.10g vs %.10g", t, p, q);
        ck_assert(up >= p && up <= 2 * exp(-2 * t * t) * 1.01);
    }
    /* both series of the limit agree at t = 1 (where the code switches) */
    ck_assert_double_eq_tol(em_ks_kolmogorov_q(1 - 1e-12), em_ks_kolmogorov_q(1), 1e-11);
    ck_assert_double_eq_tol(em_ks_kolmogorov_q(1.0), kolmogorov_q(1.0), 1e-15);
    /* below 1 the code uses the theta-function form; the alternating series here */
    for (double t = 0.3; t < 1; t += 0.1)
        ck_assert_double_eq_tol(em_ks_kolmogorov_q(t), kolmogorov_q(t), 1e-13);
    ck_assert_double_eq_tol(em_ks_kolmogorov_q(0.5), 0.963945, 1e-6); /* K(0.5) = 0.036055 */
}
END_TEST

START_TEST(calibration_monte_carlo)
{
    /* under the null the p-value is uniform: P(p <= a) = a (continuous statistic, up to the
     * discreteness of D_n, negligible at n = 40) */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    double u[40];
    const int reps = 20000;
    int le10 = 0, le01 = 0, le50 = 0;
    for (int t = 0; t < reps; t++) {
        int m;
        double p = em_ks_pvalue(40, d_uniform(r, 40, u), &m, NULL);
        le50 += p <= 0.5;
        le10 += p <= 0.1;
        le01 += p <= 0.01;
    }
    gsl_rng_free(r);
    /* 5 standard deviations of a binomial proportion */
    ck_assert_msg(fabs(le50 / (double)reps - 0.5) < 5 * sqrt(0.25 / reps), "%d", le50);
    ck_assert_msg(fabs(le10 / (double)reps - 0.1) < 5 * sqrt(0.09 / reps), "%d", le10);
    ck_assert_msg(fabs(le01 / (double)reps - 0.01) < 5 * sqrt(0.0099 / reps), "%d", le01);
}
END_TEST

START_TEST(statistic_by_hand)
{
    /* F at three draws 0.1, 0.5, 0.6: D+ = max(1/3 - .1, 2/3 - .5, 1 - .6) = 0.4 */
    const double F[3] = {0.1, 0.5, 0.6};
    const uint64_t c[3] = {1, 1, 1};
    size_t w;
    int side;
    ck_assert_double_eq_tol(em_ks_statistic(3, F, c, 3, &w, &side), 0.4, 1e-15);
    ck_assert_uint_eq(w, 2);
    ck_assert_int_eq(side, 1);
    /* D- side: draws at F = 0.9, 0.95: F - F_N(x-) = 0.9 at the first */
    const double G[2] = {0.9, 0.95};
    ck_assert_double_eq_tol(em_ks_statistic(2, G, c, 2, &w, &side), 0.9, 1e-15);
    ck_assert_uint_eq(w, 0);
    ck_assert_int_eq(side, -1);
    /* ties: one value drawn 3 times at F = 0.25: F_N jumps 0 -> 1: D = 0.75 */
    const double H[1] = {0.25};
    const uint64_t c3[1] = {3};
    ck_assert_double_eq_tol(em_ks_statistic(1, H, c3, 3, &w, &side), 0.75, 1e-15);
    ck_assert_int_eq(side, 1);
    ck_assert_double_eq(em_ks_statistic(0, NULL, NULL, 0, NULL, NULL), 0.0);
}
END_TEST

static Suite *ks_suite(void)
{
    Suite *s = suite_create("ks");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, small_n_closed_forms);
    tcase_add_test(tc, limits_and_bad_arguments);
    tcase_add_test(tc, mtw_published_and_monte_carlo);
    tcase_add_test(tc, tail_doubling_matches_exact);
    tcase_add_test(tc, large_n_kolmogorov_limit);
    tcase_add_test(tc, calibration_monte_carlo);
    tcase_add_test(tc, statistic_by_hand);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(ks_suite)
