/* test_logweights.c: em_logweights and em_normalize against an independent MPFR
 * computation (tests/em_test_util.h, 320 bits), plus every error path. */
#include "em_check_main.h"
#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const double INF = HUGE_VAL;

static void marital_div1000(double *u)
{
    const double counts[] = EM_MARITAL_COUNTS;
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        u[i] = counts[i] / 1000.0;
}

/* ------------------------------------------------------------ accuracy */

START_TEST(marital_example)
{
    double u[EM_MARITAL_N];
    marital_div1000(u);
    em_t_check_case("marital/1000 standard", EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD);
    em_t_check_case("marital/1000 monotone", EM_MARITAL_N, u, 1.0, 1.0, EM_MONOTONE);

    /* spot values known in closed form: p(mode) = 1/sum exp((u_j - u_1)/2) */
    double lw[EM_MARITAL_N], logp[EM_MARITAL_N], p[EM_MARITAL_N];
    size_t am;
    ck_assert_int_eq(em_logweights(EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_uint_eq(am, 1);
    ck_assert_int_eq(em_normalize(EM_MARITAL_N, lw, logp, p), EM_OK);
    ck_assert_double_eq_tol(p[1], 0.88875894265787771, 1e-15);
    ck_assert_double_eq_tol(p[5], 0.00050324711014115648, 1e-18);
    /* log p_i - log p_j = (u_i - u_j)/2 */
    ck_assert_double_eq_tol(logp[0] - logp[5], (10.683 - 0.023) / 2, 1e-12);
}
END_TEST

START_TEST(marital_raw_counts)
{
    const double u[] = EM_MARITAL_COUNTS;
    em_t_check_case("marital raw standard", EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD);
    em_t_check_case("marital raw monotone", EM_MARITAL_N, u, 1.0, 1.0, EM_MONOTONE);

    double lw[EM_MARITAL_N], logp[EM_MARITAL_N], p[EM_MARITAL_N];
    size_t am;
    ck_assert_int_eq(em_logweights(EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_uint_eq(am, 1);
    ck_assert_int_eq(em_normalize(EM_MARITAL_N, lw, logp, p), EM_OK);
    /* the naive exp(count/2) overflows; here the mode has probability 1 - 6e-933 */
    ck_assert(p[1] == 1.0);
    ck_assert(logp[1] <= 0.0 && logp[1] >= -1e-300);
    /* log p_i = -(u_1 - u_i)/2 - log1p(6e-933) */
    ck_assert_double_eq_tol(logp[5], -7476.5, 1e-9);
    ck_assert_double_eq_tol(logp[0], -2146.5, 1e-9);
    ck_assert_double_eq_tol(logp[2], -5266.5, 1e-9);
    for (size_t i = 0; i < EM_MARITAL_N; i++) {
        ck_assert(!isnan(p[i]) && !isnan(logp[i]));
        if (i != 1)
            ck_assert(p[i] == 0.0 && isfinite(logp[i])); /* exp(-2146.5) underflows */
    }
}
END_TEST

START_TEST(huge_utilities)
{
    const double a[] = {1e300, -1e300, 0.0, 5e299, -INF, 1e300 * (1 - 0x1p-52)};
    for (int v = 0; v < 2; v++) {
        em_t_check_case("+-1e300 eps 1", N_OF(a), a, 1.0, 1.0, v);
        em_t_check_case("+-1e300 eps 1e12", N_OF(a), a, 1e12, 1.0, v);
        em_t_check_case("+-1e300 eps 1e-12", N_OF(a), a, 1e-12, 1.0, v);
        em_t_check_case("+-1e300 eps 1e-300", N_OF(a), a, 1e-300, 1.0, v);
        em_t_check_case("+-1e300 delta 1e300", N_OF(a), a, 1.0, 1e300, v);
        em_t_check_case("+-1e300 eps=delta=1e300", N_OF(a), a, 1e300, 1e300, v);
        em_t_check_case("+-1e300 eps=delta=1e-300", N_OF(a), a, 1e-300, 1e-300, v);
        em_t_check_case("+-1e300 eps 1e300 delta 1e-300", N_OF(a), a, 1e300, 1e-300, v);
    }
    /* the largest utility range: u_i - u_max = -2 DBL_MAX, still no NaN */
    const double b[] = {DBL_MAX, -DBL_MAX};
    em_t_check_case("+-DBL_MAX standard", 2, b, 1.0, 1.0, EM_STANDARD);
    em_t_check_case("+-DBL_MAX monotone", 2, b, 1.0, 1.0, EM_MONOTONE);
    em_t_check_case("+-DBL_MAX eps 1e-300", 2, b, 1e-300, 1.0, EM_STANDARD);
    double lw[2];
    size_t am;
    /* standard, eps = delta = 1: c (u_1 - u_0) = -DBL_MAX exactly, finite */
    ck_assert_int_eq(em_logweights(2, b, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert(am == 0 && lw[0] == 0.0 && lw[1] == -DBL_MAX);
    /* monotone: -2 DBL_MAX is below -DBL_MAX, so -inf */
    ck_assert_int_eq(em_logweights(2, b, 1.0, 1.0, EM_MONOTONE, lw, &am), EM_OK);
    ck_assert(am == 0 && lw[0] == 0.0 && isinf(lw[1]) && lw[1] < 0);
    const double c[] = {-DBL_MAX, DBL_MAX, DBL_MAX, 0.0};
    em_t_check_case("DBL_MAX tie", N_OF(c), c, 1.0, 1.0, EM_STANDARD);
    em_t_check_case("DBL_MAX tie eps 1e-12", N_OF(c), c, 1e-12, 1e3, EM_MONOTONE);
    /* the first pass's lane sums overflow (+inf in lane 0, -inf in lane 1: NaN),
       which sends it to the error scan; it finds no error and the result stands */
    const double d[] = {DBL_MAX, -INF, 0.0, 1.0, DBL_MAX, -DBL_MAX, 2.0, 3.0, 1e300};
    em_t_check_case("lane sums overflow", N_OF(d), d, 1.0, 1.0, EM_STANDARD);
    double lwd[N_OF(d)]; /* one log-weight per utility (lw above holds two) */
    ck_assert_int_eq(em_logweights(N_OF(d), d, 1.0, 1.0, EM_STANDARD, lwd, &am), EM_OK);
    ck_assert_uint_eq(am, 0);
    /* a long run (several lanes and blocks) with a few finite utilities below
       -2^1022 among exclusions and ordinary ones: those take the halving path */
    double e[300];
    for (size_t i = 0; i < N_OF(e); i++)
        e[i] = i % 37 == 5 ? -DBL_MAX * (1.0 - (double)i * 0x1p-20) : i % 11 == 3 ? -INF
                                                                   : -(double)i / 7.0;
    em_t_check_case("run with values below -2^1022", N_OF(e), e, 1.0, 1.0, EM_STANDARD);
    em_t_check_case("run with values below -2^1022, eps 1e-300", N_OF(e), e, 1e-300, 1.0,
                    EM_MONOTONE);
}
END_TEST

START_TEST(epsilon_sweep)
{
    double m[EM_MARITAL_N];
    marital_div1000(m);
    const double raw[] = EM_MARITAL_COUNTS;
    const double seq[] = {0, 1, 2, 3, 4, 5, 6};
    const double deltas[] = {1.0, 1e-3, 7.5, 1e3};
    char label[128];
    for (int k = -12; k <= 12; k++) {
        double eps = pow(10.0, k);
        for (size_t d = 0; d < N_OF(deltas); d++)
            for (int v = 0; v < 2; v++) {
                snprintf(label, sizeof label, "marital/1000 eps 1e%d delta %g v%d", k, deltas[d], v);
                em_t_check_case(label, EM_MARITAL_N, m, eps, deltas[d], v);
                snprintf(label, sizeof label, "marital raw eps 1e%d delta %g v%d", k, deltas[d], v);
                em_t_check_case(label, EM_MARITAL_N, raw, eps, deltas[d], v);
                snprintf(label, sizeof label, "0..6 eps 1e%d delta %g v%d", k, deltas[d], v);
                em_t_check_case(label, N_OF(seq), seq, eps, deltas[d], v);
            }
    }
}
END_TEST

START_TEST(far_beyond_exp_range)
{
    /* eps u / delta >> 709: weights exp(c u) overflow without the max-shift */
    const double a[] = {0, 1, 2, 1.5, 2 - 0x1p-40};
    em_t_check_case("eps 2000", N_OF(a), a, 2000.0, 1.0, EM_STANDARD);
    em_t_check_case("eps 1e6", N_OF(a), a, 1e6, 1.0, EM_MONOTONE);
    const double b[] = {5000, 4290, 4300, 4255.5, 3000};
    em_t_check_case("u ~ 5000", N_OF(b), b, 1.0, 0.5, EM_STANDARD);
    em_t_check_case("u ~ 5000 monotone", N_OF(b), b, 1.0, 0.5, EM_MONOTONE);
    double lw[N_OF(b)], logp[N_OF(b)], p[N_OF(b)];
    size_t am;
    ck_assert_int_eq(em_logweights(N_OF(b), b, 1.0, 0.5, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_int_eq(em_normalize(N_OF(b), lw, logp, p), EM_OK);
    /* c = 1: lw = u - 5000, exactly representable */
    ck_assert(am == 0 && lw[1] == -710.0 && lw[2] == -700.0 && lw[3] == -744.5 && lw[4] == -2000.0);
    ck_assert(p[1] > 0.0 && p[1] < DBL_MIN * 1e2); /* e^-710 is still a normal double */
    ck_assert(p[3] > 0.0 && p[3] < DBL_MIN);       /* e^-744.5: subnormal, not 0 */
    ck_assert(p[4] == 0.0 && isfinite(logp[4]));
}
END_TEST

START_TEST(ties)
{
    const double a[] = {3, 5, 5, 1};
    double lw[4], logp[4], p[4];
    size_t am = 99;
    ck_assert_int_eq(em_logweights(4, a, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_uint_eq(am, 1); /* the first maximum */
    ck_assert(lw[1] == 0.0 && lw[2] == 0.0);
    ck_assert_int_eq(em_normalize(4, lw, logp, p), EM_OK);
    ck_assert(p[1] == p[2] && logp[1] == logp[2]);
    em_t_check_case("tie", 4, a, 1.0, 1.0, EM_STANDARD);

    const double b[] = {-2, -2, -2, -2, -2};
    double w5[5], p5[5], l5[5];
    ck_assert_int_eq(em_logweights(5, b, 3.0, 1.0, EM_MONOTONE, w5, &am), EM_OK);
    ck_assert_uint_eq(am, 0);
    ck_assert_int_eq(em_normalize(5, w5, l5, p5), EM_OK);
    for (int i = 0; i < 5; i++) {
        ck_assert(w5[i] == 0.0 && p5[i] == p5[0] && l5[i] == l5[0]);
        ck_assert_double_eq_tol(p5[i], 0.2, 1e-16);
        ck_assert_double_eq_tol(l5[i], -log(5.0), 1e-15);
    }
    em_t_check_case("all equal", 5, b, 3.0, 1.0, EM_MONOTONE);

    const double c[] = {-INF, 7, 0, 7, 7, -INF};
    double w6[6];
    ck_assert_int_eq(em_logweights(6, c, 1.0, 1.0, EM_STANDARD, w6, &am), EM_OK);
    ck_assert_uint_eq(am, 1);
    em_t_check_case("tie after -inf", 6, c, 1.0, 1.0, EM_STANDARD);
}
END_TEST

START_TEST(exclusions)
{
    const double a[] = {-INF, 1, -INF, 0, -INF};
    double lw[5], logp[5], p[5];
    size_t am;
    ck_assert_int_eq(em_logweights(5, a, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_uint_eq(am, 1);
    ck_assert_int_eq(em_normalize(5, lw, logp, p), EM_OK);
    for (int i = 0; i < 5; i += 2)
        ck_assert(isinf(lw[i]) && lw[i] < 0 && isinf(logp[i]) && logp[i] < 0 && p[i] == 0.0);
    /* two candidates left: p = 1/(1 + e^-1/2) */
    ck_assert_double_eq_tol(p[1], 1.0 / (1.0 + exp(-0.5)), 1e-15);
    em_t_check_case("exclusions", 5, a, 1.0, 1.0, EM_STANDARD);
    /* an excluded candidate first: argmax is the first finite maximum */
    const double b[] = {-INF, -1e308, -INF};
    ck_assert_int_eq(em_logweights(3, b, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_uint_eq(am, 1);
    ck_assert_int_eq(em_normalize(3, lw, logp, p), EM_OK);
    ck_assert(p[1] == 1.0 && logp[1] == 0.0 && p[0] == 0.0 && p[2] == 0.0);
}
END_TEST

START_TEST(single_candidate)
{
    const double vals[] = {0.0, 42.0, -1e308, DBL_MAX, -DBL_MAX, 4.9e-324, -0.0};
    for (size_t k = 0; k < N_OF(vals); k++)
        for (int v = 0; v < 2; v++) {
            double lw = 1.0, logp = 1.0, p = -1.0;
            size_t am = 7;
            ck_assert_int_eq(em_logweights(1, &vals[k], 1e12, 1e-3, v, &lw, &am), EM_OK);
            ck_assert(am == 0 && lw == 0.0);
            ck_assert_int_eq(em_normalize(1, &lw, &logp, &p), EM_OK);
            ck_assert_msg(p == 1.0 && logp == 0.0, "u = %g: p = %.17g logp = %.17g", vals[k], p, logp);
        }
    /* one finite candidate among exclusions */
    const double u[] = {-INF, -INF, -3.0};
    em_t_check_case("one left", 3, u, 1.0, 1.0, EM_STANDARD);
}
END_TEST

START_TEST(all_but_one_underflow)
{
    const double a[] = {-1e6, 0, -2e6, -1e4, -3000};
    double lw[5], logp[5], p[5];
    size_t am;
    ck_assert_int_eq(em_logweights(5, a, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_uint_eq(am, 1);
    ck_assert_int_eq(em_normalize(5, lw, logp, p), EM_OK);
    ck_assert(p[1] == 1.0 && logp[1] == 0.0);
    for (int i = 0; i < 5; i++)
        if (i != 1)
            ck_assert(p[i] == 0.0 && isfinite(logp[i]) && logp[i] < -1000);
    ck_assert_double_eq_tol(logp[0], -5e5, 1e-9);
    em_t_check_case("all but one underflow", 5, a, 1.0, 1.0, EM_STANDARD);
}
END_TEST

/* The mode's log-probability when the other candidates carry a tiny mass y:
   log p = -log1p(y), which a double holds to full relative precision down to
   1e-300 even though 1 + y rounds to 1. */
START_TEST(dominant_logp_tiny_mass)
{
    const double a[] = {0, -50};
    double lw[2], logp[2], p[2];
    size_t am;
    ck_assert_int_eq(em_logweights(2, a, 1.0, 1.0, EM_MONOTONE, lw, &am), EM_OK);
    ck_assert_int_eq(em_normalize(2, lw, logp, p), EM_OK);
    double exact0 = -log1p(exp(-50.0)); /* -1.9287498479639178e-22 */
    ck_assert_msg(fabs(logp[0] - exact0) <= 1e-12 * fabs(exact0),
                  "u = {0, -50}, eps 1, monotone: logp[0] = %.17g, exact %.17g", logp[0], exact0);
    em_t_check_case("u = {0, -50} monotone", 2, a, 1.0, 1.0, EM_MONOTONE);
    const double b[] = {0, -20};
    em_t_check_case("u = {0, -20} monotone", 2, b, 1.0, 1.0, EM_MONOTONE);
    const double c[] = {7, 7 - 1e3, 7 - 2e3, 7 - 1.2e3};
    em_t_check_case("mass 1e-217", 4, c, 1.0, 1.0, EM_STANDARD);
}
END_TEST

/* Subnormal epsilon and delta are accepted parameters (em_check_params), so the
   log-weights must stay accurate for them too.  First case: c = 1/2, exact
   lw[1] = -0.5, p = {0.6225, 0.3775}. */
START_TEST(subnormal_parameters)
{
    const double b[] = {0, -1.0};
    em_t_check_case("u = {0, -1}, eps = delta = 2^-1074", 2, b, 0x1p-1074, 0x1p-1074, EM_STANDARD);
    em_t_check_case("eps = delta = 1e-310", 2, b, 1e-310, 1e-310, EM_MONOTONE);
    em_t_check_case("eps 4.9e-324", 2, b, 4.9e-324, 1.0, EM_STANDARD);
    const double a[] = {0, -3 * 0x1p-1074};
    em_t_check_case("subnormal u and delta", 2, a, 1.0, 0x1p-1074, EM_STANDARD);
    const double c[] = {0, -2.03e-21};
    em_t_check_case("eps 1e-300 delta 1e-322", 2, c, 1e-300, 1e-322, EM_STANDARD);
}
END_TEST

START_TEST(random_cases)
{
    /* random utilities over many magnitudes, random eps/delta; n up to 300 */
    uint64_t s = 20240601;
    double *u = malloc(300 * sizeof *u);
    ck_assert(u != NULL);
    char label[128];
    for (int rep = 0; rep < 150; rep++) {
        size_t n = 1 + em_t_splitmix(&s) % 300;
        int mag = (int)(em_t_splitmix(&s) % 601) - 300;   /* utility scale 10^mag */
        int ek = (int)(em_t_splitmix(&s) % 25) - 12;      /* eps 10^ek */
        int dk = (int)(em_t_splitmix(&s) % 13) - 6;       /* delta 10^dk */
        for (size_t i = 0; i < n; i++) {
            uint64_t w = em_t_splitmix(&s);
            double x = ((double)(w >> 11) * 0x1p-53 * 2.0 - 1.0) * pow(10.0, mag);
            if (w % 17 == 0)
                x = -INF;
            u[i] = x;
        }
        u[em_t_splitmix(&s) % n] = pow(10.0, mag) * 0.5; /* at least one finite */
        double eps = pow(10.0, ek), delta = pow(10.0, dk);
        int v = (int)(em_t_splitmix(&s) & 1);
        snprintf(label, sizeof label, "random rep %d n %zu mag %d eps 1e%d delta 1e%d v%d", rep, n, mag,
                 ek, dk, v);
        em_t_check_case(label, n, u, eps, delta, v);
    }
    free(u);
}
END_TEST

START_TEST(normalize_direct)
{
    /* em_normalize on hand-made max-shifted log-weights (c = 1 in the reference) */
    const double lw[] = {0.0, -800.5, -1e308, -INF, -745.2, -0.5, -DBL_MAX, -708.0, -1e-300};
    size_t n = N_OF(lw);
    double logp[N_OF(lw)], p[N_OF(lw)];
    ck_assert_int_eq(em_normalize(n, lw, logp, p), EM_OK);
    em_ref r;
    ck_assert_int_eq(em_ref_compute(&r, n, lw, 2.0, 1.0, EM_STANDARD), 0);
    for (size_t i = 0; i < n; i++) {
        if (r.excluded[i]) {
            ck_assert(isinf(logp[i]) && logp[i] < 0 && p[i] == 0.0);
            continue;
        }
        em_t_check_log("logp", "normalize direct", i, logp[i], r.logp[i]);
        em_t_check_p("normalize direct", i, p[i], r.p[i]);
    }
    em_ref_free(&r);
    /* both outputs NULL: nothing to do, still EM_OK */
    ck_assert_int_eq(em_normalize(n, lw, NULL, NULL), EM_OK);
}
END_TEST

/* ------------------------------------------------------------- errors */

START_TEST(errors_utilities)
{
    double lw[4] = {7, 7, 7, 7};
    size_t am;
    const double nan_at[3][3] = {{NAN, 1, 2}, {1, NAN, 2}, {1, 2, NAN}};
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(em_logweights(3, nan_at[k], 1, 1, EM_STANDARD, lw, &am), EM_ERR_NAN);
    const double nan_ex[] = {-INF, NAN};
    ck_assert_int_eq(em_logweights(2, nan_ex, 1, 1, EM_STANDARD, lw, &am), EM_ERR_NAN);
    const double neg_nan[] = {0, -NAN};
    ck_assert_int_eq(em_logweights(2, neg_nan, 1, 1, EM_MONOTONE, lw, &am), EM_ERR_NAN);
    const double inf_at[3][3] = {{INF, 1, 2}, {1, INF, 2}, {-INF, -INF, INF}};
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(em_logweights(3, inf_at[k], 1, 1, EM_STANDARD, lw, &am), EM_ERR_POS_INF);
    /* the first NaN or +inf in index order decides, also past the lanes' first pass */
    const double inf_nan[] = {1, 2, 3, 4, 5, INF, 7, NAN, 9};
    ck_assert_int_eq(em_logweights(N_OF(inf_nan), inf_nan, 1, 1, EM_STANDARD, lw, &am), EM_ERR_POS_INF);
    const double nan_inf[] = {1, 2, 3, 4, 5, NAN, 7, INF, 9};
    ck_assert_int_eq(em_logweights(N_OF(nan_inf), nan_inf, 1, 1, EM_STANDARD, lw, &am), EM_ERR_NAN);
    const double all_ex[] = {-INF, -INF, -INF};
    ck_assert_int_eq(em_logweights(3, all_ex, 1, 1, EM_STANDARD, lw, &am), EM_ERR_ALL_EXCLUDED);
    ck_assert_int_eq(em_logweights(1, all_ex, 1, 1, EM_MONOTONE, lw, &am), EM_ERR_ALL_EXCLUDED);
    /* the parameters are checked before the utilities */
    ck_assert_int_eq(em_logweights(3, nan_at[0], 0.0, 1, EM_STANDARD, lw, &am), EM_ERR_EPSILON);
    ck_assert_int_eq(em_logweights(3, all_ex, 1, -1, EM_STANDARD, lw, &am), EM_ERR_SENSITIVITY);
    ck_assert_int_eq(em_logweights(3, inf_at[0], 1, 1, 5, lw, &am), EM_ERR_VARIANT);
}
END_TEST

START_TEST(errors_parameters)
{
    const double u[] = {1, 2, 3};
    double lw[3];
    size_t am;
    const double bad[] = {0.0, -0.0, -1.0, -DBL_MAX, NAN, INF, -INF, -4.9e-324};
    for (size_t k = 0; k < N_OF(bad); k++) {
        ck_assert_int_eq(em_logweights(3, u, bad[k], 1, EM_STANDARD, lw, &am), EM_ERR_EPSILON);
        ck_assert_int_eq(em_logweights(3, u, 1, bad[k], EM_MONOTONE, lw, &am), EM_ERR_SENSITIVITY);
        ck_assert_int_eq(em_logweights(3, u, bad[k], bad[k], 9, lw, &am), EM_ERR_EPSILON);
    }
    ck_assert_int_eq(em_logweights(3, u, 1, 1, 2, lw, &am), EM_ERR_VARIANT);
    ck_assert_int_eq(em_logweights(3, u, 1, 1, -1, lw, &am), EM_ERR_VARIANT);
    ck_assert_int_eq(em_logweights(3, u, 1, NAN, -1, lw, &am), EM_ERR_SENSITIVITY);
}
END_TEST

START_TEST(errors_sizes_and_null)
{
    const double u[] = {1, 2, 3};
    double lw[3] = {5, 5, 5};
    size_t am = 77;
    /* null, empty and too-many assign nothing */
    ck_assert_int_eq(em_logweights(3, NULL, 1, 1, EM_STANDARD, lw, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_logweights(3, u, 1, 1, EM_STANDARD, NULL, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_logweights(3, u, 1, 1, EM_STANDARD, lw, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_logweights(0, NULL, 1, 1, EM_STANDARD, lw, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_logweights(0, u, 1, 1, EM_STANDARD, lw, &am), EM_ERR_EMPTY);
    ck_assert_int_eq(em_logweights(0, u, NAN, 1, 7, lw, &am), EM_ERR_EMPTY);
    /* n beyond EM_N_MAX is refused before any element is read (the arrays hold 3) */
    ck_assert_int_eq(em_logweights(EM_N_MAX + 1, u, 1, 1, EM_STANDARD, lw, &am), EM_ERR_TOO_MANY);
    ck_assert_int_eq(em_logweights(SIZE_MAX, u, NAN, 1, EM_STANDARD, lw, &am), EM_ERR_TOO_MANY);
    ck_assert(lw[0] == 5 && lw[1] == 5 && lw[2] == 5 && am == 77);

    double logp[3] = {3, 3, 3}, p[3] = {3, 3, 3};
    ck_assert_int_eq(em_normalize(3, NULL, logp, p), EM_ERR_NULL);
    ck_assert_int_eq(em_normalize(0, NULL, logp, p), EM_ERR_NULL);
    ck_assert_int_eq(em_normalize(0, lw, logp, p), EM_ERR_EMPTY);
    ck_assert_int_eq(em_normalize(EM_N_MAX + 1, lw, logp, p), EM_ERR_TOO_MANY);
    ck_assert_int_eq(em_normalize(SIZE_MAX, lw, logp, p), EM_ERR_TOO_MANY);
    for (int i = 0; i < 3; i++)
        ck_assert(logp[i] == 3 && p[i] == 3);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("logweights");
    TCase *tc = tcase_create("accuracy");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, marital_example);
    tcase_add_test(tc, marital_raw_counts);
    tcase_add_test(tc, huge_utilities);
    tcase_add_test(tc, epsilon_sweep);
    tcase_add_test(tc, far_beyond_exp_range);
    tcase_add_test(tc, ties);
    tcase_add_test(tc, exclusions);
    tcase_add_test(tc, single_candidate);
    tcase_add_test(tc, all_but_one_underflow);
    tcase_add_test(tc, dominant_logp_tiny_mass);
    tcase_add_test(tc, subnormal_parameters);
    tcase_add_test(tc, random_cases);
    tcase_add_test(tc, normalize_direct);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_add_test(te, errors_utilities);
    tcase_add_test(te, errors_parameters);
    tcase_add_test(te, errors_sizes_and_null);
    suite_add_tcase(s, te);
    return s;
}

EM_CHECK_MAIN(suite)
