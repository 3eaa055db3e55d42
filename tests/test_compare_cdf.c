/* test_compare_cdf.c: `expmech compare --cdf` on continuous scenarios and `compare --probs`
 * on scenarios with a measure column, run as a program (build/expmech or $EM_EXPMECH).
 * The tables are written here from closed forms evaluated in MPFR (300 bits) and printed
 * with 20 significant digits: the Laplace CDF F(x) = e^x / 2 (x < 0), 1 - e^{-x} / 2
 * (x >= 0), the uniform CDF, and the weighted probabilities m_r e^{c u_r} / Z. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#define EM_CLI_OUT_SIZE (1 << 17)
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_compare_cdf_XXXXXX");
}

static double after(const char *key)
{
    const char *p = strstr(out, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* Laplace(0, b) CDF at x, MPFR */
static void laplace_cdf(mpfr_t F, double x, double b)
{
    mpfr_set_d(F, fabs(x), MPFR_RNDN);
    mpfr_div_d(F, F, b, MPFR_RNDN);
    mpfr_neg(F, F, MPFR_RNDN);
    mpfr_exp(F, F, MPFR_RNDN);
    mpfr_div_2ui(F, F, 1, MPFR_RNDN);
    if (x >= 0)
        mpfr_ui_sub(F, 1, F, MPFR_RNDN);
}

/* a table x = i/8, i = -40..40, of the Laplace(0, b) CDF; returns the largest
 * |F_b - F_1| over the grid and its x */
static double write_laplace(const char *name, double b, double *where)
{
    char *s = malloc(81 * 64), *p = s;
    mpfr_t F, G;
    mpfr_inits2(300, F, G, (mpfr_ptr)0);
    double best = 0;
    for (int i = -40; i <= 40; i++) {
        double x = i / 8.0;
        laplace_cdf(F, x, b);
        p += mpfr_sprintf(p, "%.17g,%.20Rg\n", x, F);
        laplace_cdf(G, x, 1);
        mpfr_sub(G, F, G, MPFR_RNDN);
        double d = fabs(mpfr_get_d(G, MPFR_RNDN));
        if (d > best) {
            best = d;
            *where = x;
        }
    }
    mpfr_clears(F, G, (mpfr_ptr)0);
    put(name, s);
    free(s);
    return best;
}

START_TEST(laplace_pass_and_fail)
{
    /* u = -|r|, eps = 2: c = 1, the Laplace law of scale 1 */
    put("l.csv", "# output: continuous\n-inf,0,0,1\n0,inf,0,-1\n");
    double w;
    write_laplace("good.txt", 1, &w);
    ck_assert_int_eq(run("$E compare --epsilon 2 --cdf good.txt l.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "points: 81"));
    ck_assert(after("max absolute error: ") < 1e-19);
    ck_assert(after("max relative error: ") < 1e-19);
    ck_assert_ptr_nonnull(strstr(out, "verdict: PASS: every value within max(1e-09 * F(x), 2^-1074)"));
    /* scale 1.01: fails; the largest error and its place as computed here */
    double best = write_laplace("bad.txt", 1.01, &w);
    ck_assert_int_eq(run("$E compare --epsilon 2 --cdf bad.txt l.csv"), 1);
    ck_assert_double_eq_tol(after("max absolute error: "), best, 1e-5 * best);
    /* |F_b - F_1| is symmetric in x: the place is w or -w (20-digit rounding decides) */
    const char *at = strstr(strstr(out, "max absolute error: "), " at x = ");
    ck_assert_ptr_nonnull(at);
    ck_assert_double_eq(fabs(strtod(at + 8, NULL)), fabs(w));
    ck_assert_double_eq_tol(best, 0.0018302, 1e-7);
    ck_assert_ptr_nonnull(strstr(out, "verdict: FAIL: 80 of 81 values")); /* F(0) = 1/2 is right */
    /* the same within an absolute tolerance above that error */
    ck_assert_int_eq(run("$E compare --epsilon 2 --rtol 0 --atol %.6g --cdf bad.txt l.csv",
                         best * 1.001),
                     0);
    ck_assert_int_eq(run("$E compare --epsilon 2 --rtol 0 --atol %.6g --cdf bad.txt l.csv",
                         best * 0.999),
                     1);
    /* a naive right tail 1 - e^{-x}/2 in double loses relative accuracy in 1 - F */
    char *s = malloc(64 * 64), *p = s;
    for (int x = 30; x <= 40; x++)
        p += sprintf(p, "%d,%.17g\n", x, 1 - exp(-(double)x) / 2);
    put("tail.txt", s);
    free(s);
    ck_assert_int_eq(run("$E compare --epsilon 2 --cdf tail.txt l.csv"), 0); /* within 1e-9 F */
    ck_assert(after("max error relative to the upper tail 1 - F: ") > 0.5);
}
END_TEST

START_TEST(uniform_exact_values_and_invalid)
{
    put("u.csv", "# output: continuous\n0,1,3\n");
    put("t.txt", "-1,0\n0,0\n0.25,0.25\n1/3,1/3\n0x1p-3,0.125\n1,1\n2,1\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "max absolute error: 0 "));
    ck_assert_ptr_nonnull(strstr(out, "points: 7"));
    /* positive where F = 0: infinite relative error, fails */
    put("t.txt", "-1,1e-300\n0.5,0.5\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "max relative error: inf at x = -1"));
    /* ... unless the floor allows it */
    ck_assert_int_eq(run("$E compare --epsilon 1 --atol 1e-299 --cdf t.txt u.csv"), 0);
    /* NaN, infinities, values outside [0, 1], a decreasing pair */
    put("t.txt", "0.1,nan\n0.2,inf\n0.3,-0.1\n0.4,1.5\n0.5,0.5\n0.6,0.4\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "NaN: 1, infinite: 1, negative: 1, above 1: 1"));
    ck_assert_ptr_nonnull(strstr(out, "decreasing (x up, given value down): 2 pair(s)"));
    /* F(1/10) = 1/10 exactly: its correct rounding, not the double nearest it */
    ck_assert_ptr_nonnull(strstr(out, "FAIL line 1: x = 0.1: given nan, exact 0.10000000000000000"));
    ck_assert_ptr_nonnull(strstr(out, "verdict: FAIL: 5 of 6"));
}
END_TEST

START_TEST(measure_probs)
{
    /* (u, m) = a (0, 1), b (1, 2), c (0, 1/2), eps = 1: P = m e^{u/2} / Z */
    put("m.csv", "# measure: yes\na,0,1\nb,1,2\nc,0,0.5\n");
    mpfr_t e, Z, P;
    mpfr_inits2(300, e, Z, P, (mpfr_ptr)0);
    mpfr_set_d(e, 0.5, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul_2ui(Z, e, 1, MPFR_RNDN);
    mpfr_add_d(Z, Z, 1.5, MPFR_RNDN);
    char s[512], *p = s;
    mpfr_ui_div(P, 1, Z, MPFR_RNDN);
    p += mpfr_sprintf(p, "a,%.25Rg\n", P);
    mpfr_mul_2ui(P, e, 1, MPFR_RNDN);
    mpfr_div(P, P, Z, MPFR_RNDN);
    p += mpfr_sprintf(p, "b,%.25Rg\n", P);
    mpfr_d_div(P, 0.5, Z, MPFR_RNDN);
    p += mpfr_sprintf(p, "c,%.25Rg\n", P);
    put("p.txt", s);
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs p.txt m.csv"), 0);
    ck_assert(after("max relative error: ") < 1e-20);
    /* forgetting the measure: P = e^{u/2} / (2 + e^{1/2}) */
    mpfr_add_ui(Z, e, 2, MPFR_RNDN);
    p = s;
    mpfr_ui_div(P, 1, Z, MPFR_RNDN);
    p += mpfr_sprintf(p, "a,%.25Rg\nc,%.25Rg\n", P, P);
    mpfr_div(P, e, Z, MPFR_RNDN);
    p += mpfr_sprintf(p, "b,%.25Rg\n", P);
    put("p.txt", s);
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs p.txt m.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "verdict: FAIL: 3 of 3"));
    /* a measure 0 candidate must be given 0 */
    put("m0.csv", "# measure: yes\na,0,1\nb,1,0\n");
    put("p.txt", "a,1\nb,0\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs p.txt m0.csv"), 0);
    put("p.txt", "a,1\nb,1e-300\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs p.txt m0.csv"), 1);
    mpfr_clears(e, Z, P, (mpfr_ptr)0);
}
END_TEST

START_TEST(bad_input)
{
    put("u.csv", "# output: continuous\n0,1,0\n");
    put("f.csv", "a,0\nb,1\n");
    put("t.txt", "0.5,0.5\n0.7\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "t.txt:2: expected 'x,cdf'"));
    put("t.txt", "0.5,0.5,0.6\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 2);
    put("t.txt", "# x,cdf\n0.5,abc\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "t.txt:2: bad cdf value 'abc'"));
    put("t.txt", "inf,1\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "t.txt:1: bad point x 'inf'"));
    put("t.txt", ",0.5\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 2);
    put("t.txt", "\n# nothing\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt u.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "no points"));
    put("t.txt", "0.5,0.5\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt f.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "--cdf needs a continuous scenario"));
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs t.txt u.csv"), 2);
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs t.txt --cdf t.txt u.csv"), 2);
    ck_assert_int_eq(run("$E compare --epsilon 1 u.csv"), 2);
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf t.txt --atol -1 u.csv"), 2);
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf - < t.txt"), 2);
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf - u.csv < t.txt"), 0);
    ck_assert_int_eq(run("$E compare --epsilon 1 --cdf missing.txt u.csv"), 2);
}
END_TEST

static Suite *compare_cdf_suite(void)
{
    Suite *s = suite_create("compare_cdf");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, laplace_pass_and_fail);
    tcase_add_test(tc, uniform_exact_values_and_invalid);
    tcase_add_test(tc, measure_probs);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(compare_cdf_suite)
