/* test_libm.c: the trusted libm wrappers (src/trusted/em_libm.h): range at the
 * ends and over dense sweeps, monotonicity, and closeness to MPFR (faithful). */
#include "em_check_main.h"
#include "em_test_util.h"
#include "trusted/em_libm.h"

#define SWEEP 100000

/* |got - exact| in ulps of the double nearest to exact (exact from MPFR). */
static double ulps_exp(double x, double got)
{
    mpfr_t e;
    mpfr_init2(e, 200);
    mpfr_set_d(e, x, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    double ref = mpfr_get_d(e, MPFR_RNDN);
    mpfr_sub_d(e, e, got, MPFR_RNDN);
    mpfr_abs(e, e, MPFR_RNDN);
    double ulp = ref > 0 ? nextafter(ref, HUGE_VAL) - ref : 0x1p-1074;
    if (ulp < 0x1p-1074)
        ulp = 0x1p-1074;
    double d = mpfr_get_d(e, MPFR_RNDU) / ulp;
    mpfr_clear(e);
    return d;
}

static double ulps_log(double x, double got)
{
    mpfr_t e;
    mpfr_init2(e, 200);
    mpfr_set_d(e, x, MPFR_RNDN);
    mpfr_log(e, e, MPFR_RNDN);
    double ref = mpfr_get_d(e, MPFR_RNDN);
    mpfr_sub_d(e, e, got, MPFR_RNDN);
    mpfr_abs(e, e, MPFR_RNDN);
    double ulp = ref > 0 ? nextafter(ref, HUGE_VAL) - ref : 0x1p-1074;
    double d = ref == 0 ? (got == 0 ? 0 : HUGE_VAL) : mpfr_get_d(e, MPFR_RNDU) / ulp;
    mpfr_clear(e);
    return d;
}

START_TEST(exp_ends)
{
    ck_assert(em_exp_nonpos(0.0) == 1.0);
    ck_assert(em_exp_nonpos(-0.0) == 1.0);
    double r = em_exp_nonpos(-800.0);
    ck_assert(r >= 0.0 && r <= 1.0);
    ck_assert(r == 0.0); /* e^-800 < 2^-1075: rounds to 0 */
    double t = em_exp_nonpos(-0x1p-1074);
    ck_assert(t >= 0.0 && t <= 1.0);
    ck_assert(em_exp_nonpos(-1e-300) <= 1.0);
    ck_assert(em_exp_nonpos(nextafter(0.0, -1.0)) <= 1.0);
    ck_assert(em_exp_nonpos(-745.0) > 0.0);                  /* still a subnormal */
    ck_assert(em_exp_nonpos(-708.0) >= DBL_MIN);              /* still normal */
    ck_assert_double_eq_tol(em_exp_nonpos(-1.0), 0.36787944117144233, 1e-16);
    ck_assert_double_eq_tol(em_exp_nonpos(-0.5), 0.60653065971263342, 1e-16);
}
END_TEST

START_TEST(exp_sweep)
{
    /* x from 0 down to -800 in SWEEP steps: range [0, 1], non-increasing as x decreases */
    double prev = em_exp_nonpos(0.0);
    for (int i = 1; i <= SWEEP; i++) {
        double x = -800.0 * (double)i / SWEEP;
        double y = em_exp_nonpos(x);
        EM_T_REQUIRE(y >= 0.0 && y <= 1.0, "exp(%.17g) = %.17g outside [0, 1]", x, y);
        EM_T_REQUIRE(y <= prev, "exp(%.17g) = %.17g > exp of the larger neighbour %.17g", x, y, prev);
        prev = y;
    }
    /* adjacent doubles near 0, near the subnormal threshold and near underflow */
    const double starts[] = {0.0, -1.0, -708.39, -745.13, -0x1p-20};
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        double x = starts[s], py = em_exp_nonpos(x);
        for (int i = 0; i < 2000; i++) {
            x = nextafter(x, -HUGE_VAL);
            double y = em_exp_nonpos(x);
            EM_T_REQUIRE(y >= 0.0 && y <= 1.0 && y <= py, "exp not monotone at %.17g", x);
            py = y;
        }
    }
}
END_TEST

START_TEST(exp_faithful)
{
    /* within one ulp of the exact value (MPFR), subnormal results within 2^-1074 */
    for (int i = 0; i <= 20000; i++) {
        double x = -800.0 * (double)i / 20000 - (double)(i % 7) * 1e-9;
        if (x < -800.0)
            x = -800.0;
        double d = ulps_exp(x, em_exp_nonpos(x));
        EM_T_REQUIRE(d <= 1.0, "exp(%.17g): %.3g ulps", x, d);
    }
}
END_TEST

/* em_exp_nonpos_block: the same contract element-wise, from glibc's vector exp
   (documented < 4 ulp, not faithful): every block length, so that the padded
   last vector is exercised at every position. */
START_TEST(exp_block_ends)
{
    const double xs[] = {0.0, -0.0, -800.0, -745.0, -708.0, -1.0, -0.5, -0x1p-1074,
                         -1e-300, -0x1p-20, -745.13, -744.0, -1e-9, 0.0, -3.0, -709.0};
    const size_t nx = sizeof xs / sizeof xs[0];
    for (size_t n = 0; n <= EM_EXP_BLOCK; n++) {
        double x[EM_EXP_BLOCK] = {0.0}, y[EM_EXP_BLOCK + 1];
        for (size_t j = 0; j < n; j++)
            x[j] = xs[(j + n) % nx];
        y[n] = 42.0; /* never written: only y[0 .. n - 1] is assigned */
        em_exp_nonpos_block(n, x, y);
        ck_assert(y[n] == 42.0);
        for (size_t j = 0; j < n; j++) {
            EM_T_REQUIRE(y[j] >= 0.0 && y[j] <= 1.0, "block exp(%.17g) = %.17g outside [0, 1]", x[j], y[j]);
            if (x[j] == 0.0)
                EM_T_REQUIRE(y[j] == 1.0, "block exp(0) = %.17g", y[j]);
            if (x[j] == -800.0)
                EM_T_REQUIRE(y[j] == 0.0, "block exp(-800) = %.17g", y[j]);
            if (x[j] == -745.0 || x[j] == -744.0)
                EM_T_REQUIRE(y[j] > 0.0, "block exp(%.17g) underflowed", x[j]);
            if (x[j] == -708.0)
                EM_T_REQUIRE(y[j] >= DBL_MIN, "block exp(-708) not normal");
            double d = ulps_exp(x[j], y[j]);
            EM_T_REQUIRE(d <= 4.0, "block exp(%.17g): %.3g ulps", x[j], d);
            /* the value does not depend on the position in the block */
            double one;
            em_exp_nonpos_block(1, &x[j], &one);
            EM_T_REQUIRE(one == y[j], "block exp(%.17g) = %.17g at %zu of %zu, %.17g alone", x[j], y[j], j, n, one);
        }
    }
}
END_TEST

START_TEST(exp_block_accurate)
{
    /* within 4 ulps of MPFR over [-800, 0] and near 0, in full blocks */
    double x[EM_EXP_BLOCK], y[EM_EXP_BLOCK];
    for (int i = 0; i < 40000; i += EM_EXP_BLOCK) {
        for (int j = 0; j < EM_EXP_BLOCK; j++) {
            int k = i + j;
            x[j] = k % 2 ? -800.0 * (double)k / 40000 - (double)(k % 7) * 1e-9
                         : -ldexp(1.0 + (double)(k % 1000) / 1000.0, -(k % 60));
            if (x[j] < -800.0)
                x[j] = -800.0;
        }
        em_exp_nonpos_block(EM_EXP_BLOCK, x, y);
        for (int j = 0; j < EM_EXP_BLOCK; j++) {
            EM_T_REQUIRE(y[j] >= 0.0 && y[j] <= 1.0, "block exp(%.17g) = %.17g outside [0, 1]", x[j], y[j]);
            double d = ulps_exp(x[j], y[j]);
            EM_T_REQUIRE(d <= 4.0, "block exp(%.17g): %.3g ulps", x[j], d);
        }
    }
}
END_TEST

/* em_log1p_sum(y) = log1p(y) on [0, 2^31]; for x >= 1, x - 1 is exact in double,
   so log1p(x - 1) must be log(x) within the same faithful-rounding bound. */
static double log_via_log1p(double x)
{
    return em_log1p_sum(x - 1.0);
}

START_TEST(log1p_small)
{
    /* the reason for log1p: a dominant candidate's log-probability is -log1p(y) */
    ck_assert(em_log1p_sum(0.0) == 0.0);
    ck_assert_double_eq_tol(em_log1p_sum(0x1p-60), 0x1p-60, 1e-34);
    ck_assert_double_eq_tol(em_log1p_sum(1.9287498479639178e-22), 1.9287498479639178e-22, 1e-37);
}
END_TEST

START_TEST(frexp_ldexp)
{
    int e;
    double m = em_frexp(1.0, &e);
    ck_assert(m == 0.5 && e == 1);
    m = em_frexp(0x1p-1074, &e); /* smallest subnormal */
    ck_assert(m == 0.5 && e == -1073);
    m = em_frexp(0x1.fffffffffffffp1023, &e);
    ck_assert(m == 0x1.fffffffffffffp-1 && e == 1024);
    m = em_frexp(3.0, &e);
    ck_assert(m == 0.75 && e == 2);
    ck_assert(em_ldexp(-0.75, 2) == -3.0);
    ck_assert(em_ldexp(-0.5, -1073) == -0x1p-1074);
    ck_assert(em_ldexp(-0.5, 2000) == -HUGE_VAL); /* overflow keeps the sign */
    ck_assert(em_ldexp(-0.5, -2000) == 0.0 && signbit(em_ldexp(-0.5, -2000)));
}
END_TEST

START_TEST(log_ends)
{
    ck_assert(log_via_log1p(1.0) == 0.0);
    double top = log_via_log1p(0x1p31);
    ck_assert(top >= 0.0 && top <= 22.0);
    ck_assert_double_eq_tol(top, 31 * 0.69314718055994531, 1e-13);
    double just = log_via_log1p(nextafter(1.0, 2.0));
    ck_assert(just >= 0.0 && just <= 22.0);
    ck_assert_double_eq_tol(log_via_log1p(2.0), 0.69314718055994531, 1e-16);
    ck_assert_double_eq_tol(log_via_log1p(7.0), 1.9459101490553132, 1e-15);
}
END_TEST

START_TEST(log_sweep)
{
    /* x from 1 to 2^31 geometrically and linearly: range [0, 22], non-decreasing */
    double prev = log_via_log1p(1.0);
    for (int i = 1; i <= SWEEP; i++) {
        double x = pow(2.0, 31.0 * (double)i / SWEEP);
        if (x > 0x1p31)
            x = 0x1p31;
        double y = log_via_log1p(x);
        EM_T_REQUIRE(y >= 0.0 && y <= 22.0, "log(%.17g) = %.17g outside [0, 22]", x, y);
        EM_T_REQUIRE(y >= prev, "log(%.17g) = %.17g below the smaller neighbour's %.17g", x, y, prev);
        prev = y;
    }
    prev = log_via_log1p(1.0);
    for (int i = 1; i <= SWEEP; i++) {
        double x = 1.0 + (0x1p31 - 1.0) * (double)i / SWEEP;
        double y = log_via_log1p(x);
        EM_T_REQUIRE(y >= 0.0 && y <= 22.0 && y >= prev, "log(%.17g) = %.17g", x, y);
        prev = y;
    }
    /* adjacent doubles above 1 and below 2^31 */
    double x = 1.0, py = 0.0;
    for (int i = 0; i < 2000; i++) {
        x = nextafter(x, 2.0);
        double y = log_via_log1p(x);
        EM_T_REQUIRE(y >= py && y >= 0.0, "log not monotone at %.17g", x);
        py = y;
    }
    x = 0x1p31;
    py = log_via_log1p(x);
    for (int i = 0; i < 2000; i++) {
        x = nextafter(x, 0.0);
        double y = log_via_log1p(x);
        EM_T_REQUIRE(y <= py && y <= 22.0, "log not monotone at %.17g", x);
        py = y;
    }
}
END_TEST

START_TEST(log_faithful)
{
    for (int i = 1; i <= 20000; i++) {
        double x = pow(2.0, 31.0 * (double)i / 20000) + (double)(i % 5) * 1e-7;
        if (x > 0x1p31)
            x = 0x1p31;
        double d = ulps_log(x, log_via_log1p(x));
        EM_T_REQUIRE(d <= 1.0, "log(%.17g): %.3g ulps", x, d);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("libm");
    TCase *tc = tcase_create("libm");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, exp_ends);
    tcase_add_test(tc, exp_sweep);
    tcase_add_test(tc, exp_faithful);
    tcase_add_test(tc, exp_block_ends);
    tcase_add_test(tc, exp_block_accurate);
    tcase_add_test(tc, log1p_small);
    tcase_add_test(tc, frexp_ldexp);
    tcase_add_test(tc, log_ends);
    tcase_add_test(tc, log_sweep);
    tcase_add_test(tc, log_faithful);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
