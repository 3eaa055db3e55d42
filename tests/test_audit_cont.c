/* test_audit_cont.c: `expmech audit` on continuous scenarios and on finite scenarios with a
 * measure column (src/judge/em_privacy_loss.c), run as a program (build/expmech or $EM_EXPMECH).
 * Expected values are closed forms evaluated here in MPFR (300 bits) and rounded to
 * double: the program's 17-digit output, read back with strtod, must give the same double
 * (both are correct roundings of the same real). */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_audit_cont_XXXXXX");
}

/* the number printed after key (NaN if absent) */
static double after(const char *key)
{
    const char *p = strstr(out, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

static void expect_value(const char *key, mpfr_srcptr ref)
{
    double want = mpfr_get_d(ref, MPFR_RNDN), got = after(key);
    ck_assert_msg(got == want, "%s: got %.17g, want %.17g\n%s", key, got, want, out);
}

START_TEST(laplace_translation)
{
    /* u_X = -|r|, u_Y = -|r - 1| on the real line: Z_X = Z_Y, so the loss is c sup ||r-1| - |r||
     * = c exactly: eps/2 = 0.5 (standard); with the monotone weight c = eps = 1, the loss
     * equals eps: the claim holds (an exact tie, decided exactly) */
    put("x.csv", "# output: continuous\n-inf,0,0,1\n0,inf,0,-1\n");
    put("y.csv", "# output: continuous\n-inf,1,-1,1\n1,inf,1,-1\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_X/f_Y) = 0.50000000000000000 at r = 0 (both sides)"));
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_Y/f_X) = 0.50000000000000000 at r = 1 (both sides)"));
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 0.50000000000000000"));
    ck_assert_ptr_nonnull(strstr(out, "verdict: eps-DP holds"));
    /* no '# monotone: yes' header: refused, unless forced (the arithmetic is what is tested) */
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant monotone x.csv y.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "needs '# monotone: yes'"));
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant monotone --force x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 1.0000000000000000 "));
    ck_assert_ptr_nonnull(strstr(out, "eps-DP holds on this pair (loss <= eps, decided exactly)"));
    /* a claimed sensitivity of 1/2 gives c = 1 = eps: the loss equals eps again (holds);
     * at 1/4, c = 2: loss 2 > eps */
    ck_assert_int_eq(run("$E audit --epsilon 1 --sensitivity 0.5 x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 1.0000000000000000 "));
    ck_assert_int_eq(run("$E audit --epsilon 1 --sensitivity 1/4 x.csv y.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 2.0000000000000000 "));
    ck_assert_ptr_nonnull(strstr(out, "VIOLATED"));
}
END_TEST

START_TEST(bounded_closed_forms)
{
    /* X: u = r on [0, 1]; Y: u = 0 on [0, 1]; eps = 1, c = 1/2.
     * f_X = e^{r/2} / Z_X, Z_X = 2 (e^{1/2} - 1); f_Y = 1.
     * ln f_X/f_Y = r/2 - ln Z_X: largest at r = 1 (1/2 - ln Z_X), smallest at r = 0. */
    put("x.csv", "# output: continuous\n0,1,0,1\n");
    put("y.csv", "# output: continuous\n0,1,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 0);
    mpfr_t z, v;
    mpfr_inits2(300, z, v, (mpfr_ptr)0);
    mpfr_set_d(z, 0.5, MPFR_RNDN);
    mpfr_expm1(z, z, MPFR_RNDN);
    mpfr_mul_2ui(z, z, 1, MPFR_RNDN);
    mpfr_log(z, z, MPFR_RNDN); /* ln Z_X */
    mpfr_d_sub(v, 0.5, z, MPFR_RNDN);
    expect_value("sup ln(f_X/f_Y) = ", v);
    expect_value("sup ln(f_Y/f_X) = ", z);
    ck_assert_ptr_nonnull(strstr(out, "at r = 1 (limit from the left)"));
    ck_assert_ptr_nonnull(strstr(out, "at r = 0 (limit from the right)"));
    ck_assert_ptr_nonnull(strstr(out, "= sup ln(Y/X)")); /* 0.2604 > 0.2396 */

    /* Laplace-like on [0, 10]: u_X = -|r - 3|, u_Y = -|r - 4|, eps = 2 (c = 1):
     * ln f_X/f_Y = |r-4| - |r-3| - L, in [-1, 1] - L, L = ln Z(3) - ln Z(4),
     * Z(f) = 2 - e^{-f} - e^{-(10-f)}.  sup X/Y = 1 - L, sup Y/X = 1 + L. */
    put("x.csv", "# output: continuous\n0,3,-3,1\n3,10,3,-1\n");
    put("y.csv", "# output: continuous\n0,4,-4,1\n4,10,4,-1\n");
    ck_assert_int_eq(run("$E audit --epsilon 2 x.csv y.csv"), 0);
    mpfr_t a, b;
    mpfr_inits2(300, a, b, (mpfr_ptr)0);
    for (int f = 3; f <= 4; f++) {
        mpfr_ptr t = f == 3 ? a : b;
        mpfr_set_si(t, -f, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_set_si(v, -(10 - f), MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDN);
        mpfr_add(t, t, v, MPFR_RNDN);
        mpfr_ui_sub(t, 2, t, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
    }
    mpfr_sub(z, a, b, MPFR_RNDN); /* L */
    mpfr_ui_sub(v, 1, z, MPFR_RNDN);
    expect_value("sup ln(f_X/f_Y) = ", v);
    mpfr_add_ui(v, z, 1, MPFR_RNDN);
    expect_value("sup ln(f_Y/f_X) = ", v);
    /* a jump at a breakpoint: X: u = r on [0, 1], 0 on [1, 2]; Y: 0 on [0, 2]; c = 1/2:
     * ln f_X/f_Y = c u_X - L is largest just left of 1: 1/2 - L, L = ln((2 (e^{1/2} - 1) + 1)/2) */
    put("x.csv", "# output: continuous\n0,1,0,1\n1,2,0\n");
    put("y.csv", "# output: continuous\n0,2,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_X/f_Y) = 0.3"));
    ck_assert_ptr_nonnull(strstr(out, "at r = 1 (limit from the left)"));
    mpfr_set_d(v, 0.5, MPFR_RNDN);
    mpfr_expm1(v, v, MPFR_RNDN);
    mpfr_mul_2ui(v, v, 1, MPFR_RNDN);
    mpfr_add_ui(v, v, 1, MPFR_RNDN);
    mpfr_div_2ui(v, v, 1, MPFR_RNDN);
    mpfr_log(v, v, MPFR_RNDN);
    mpfr_d_sub(v, 0.5, v, MPFR_RNDN);
    expect_value("sup ln(f_X/f_Y) = ", v);
    mpfr_clears(z, v, a, b, (mpfr_ptr)0);
}
END_TEST

START_TEST(infinite_losses)
{
    /* supports differ by a set of positive length */
    put("a.csv", "# output: continuous\n0,1,0\n");
    put("b.csv", "# output: continuous\n0,2,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 a.csv b.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_Y/f_X) = inf: Y has positive density on (1, 2) where X has none"));
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_X/f_Y) = 0.69314718055994531 at r = 0")); /* ln 2 */
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: inf"));
    ck_assert_ptr_nonnull(strstr(out, "VIOLATED"));
    /* a gap in one of them */
    put("g.csv", "# output: continuous\n0,1,0\n1.5,2,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 b.csv g.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "X has positive density on (1, 1.5) where Y has none"));
    /* a gap of length 0 (a shared end point) is no difference */
    put("h.csv", "# output: continuous\n0,1,0\n1,2,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 b.csv h.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 0 "));
    /* slopes that differ on an unbounded piece: e^{-r/2} vs e^{-r} on [0, inf) */
    put("e1.csv", "# output: continuous\n0,inf,0,-1\n");
    put("e2.csv", "# output: continuous\n0,inf,0,-2\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 e1.csv e2.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_X/f_Y) = inf: the log-ratio grows without bound as r -> +inf on (0, inf)"));
    /* the other way: f_Y / f_X = 2 e^{-r/2}: ln 2 at r = 0 */
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_Y/f_X) = 0.69314718055994531 at r = 0 (limit from the right)"));
    /* and on the left: e^{r} vs e^{2r} on (-inf, 0] */
    put("e3.csv", "# output: continuous\n-inf,0,0,1\n");
    put("e4.csv", "# output: continuous\n-inf,0,0,2\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 e3.csv e4.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(f_X/f_Y) = inf: the log-ratio grows without bound as r -> -inf"));
}
END_TEST

START_TEST(finite_with_measure)
{
    /* X: (u, m) = a (0, 1), b (1, 2), c (0, 1/2); Y: a (1, 1), b (0, 2), c (0, 1/2); c = 1/2.
     * Z_X = 1 + 2 e^{1/2} + 1/2, Z_Y = e^{1/2} + 2 + 1/2; ln P_X/P_Y at a: -1/2 - L, at b:
     * 1/2 - L, at c: -L; L = ln Z_X - ln Z_Y. */
    put("x.csv", "# measure: yes\na,0,1\nb,1,2\nc,0,0.5\n");
    put("y.csv", "# measure: yes\nb,0,2\na,1,1\nc,0,1/2\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 0);
    mpfr_t e, zx, zy, L, v;
    mpfr_inits2(300, e, zx, zy, L, v, (mpfr_ptr)0);
    mpfr_set_d(e, 0.5, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_mul_2ui(zx, e, 1, MPFR_RNDN);
    mpfr_add_d(zx, zx, 1.5, MPFR_RNDN);
    mpfr_add_d(zy, e, 2.5, MPFR_RNDN);
    mpfr_div(L, zx, zy, MPFR_RNDN);
    mpfr_log(L, L, MPFR_RNDN);
    mpfr_d_sub(v, 0.5, L, MPFR_RNDN);
    expect_value("sup ln(P_X/P_Y) = ", v);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(P_X/P_Y) = 0.35471718717094784 at 'b'"));
    mpfr_add_d(v, L, 0.5, MPFR_RNDN);
    expect_value("sup ln(P_Y/P_X) = ", v);
    ck_assert_ptr_nonnull(strstr(out, "at 'a'"));
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 0.64528281282905216"));
    /* the interval report of the same pair agrees */
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: 0.64528281282905216  (in"));
    ck_assert_ptr_nonnull(strstr(out, "float sampler: none"));
    /* the measure changes between X and Y (a non-public base measure): m_a 1 -> 9 */
    put("y9.csv", "# measure: yes\na,0,9\nb,1,2\nc,0,0.5\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y9.csv"), 1);
    /* ln P_Y(a)/P_X(a) = ln 9 - ln(Z_Y/Z_X), Z_Y = Z_X + 8: 1.2161 > 1 */
    mpfr_add_ui(zy, zx, 8, MPFR_RNDN);
    mpfr_div(v, zx, zy, MPFR_RNDN);
    mpfr_mul_ui(v, v, 9, MPFR_RNDN);
    mpfr_log(v, v, MPFR_RNDN);
    expect_value("sup ln(P_Y/P_X) = ", v);
    /* a measure 0 on one side only: infinite */
    put("y0.csv", "# measure: yes\na,0,1\nb,1,2\nc,0,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y0.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "sup ln(P_X/P_Y) = inf: 'c' has positive probability under X only"));
    /* a measure column on one side only: the other's measure is 1 */
    put("p.csv", "a,0\nb,1\nc,0\n");
    put("q.csv", "# measure: yes\na,0,1\nb,1,1\nc,0,1\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 p.csv q.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 0 "));
    mpfr_clears(e, zx, zy, L, v, (mpfr_ptr)0);
}
END_TEST

START_TEST(bad_input)
{
    put("c.csv", "# output: continuous\n0,1,0\n");
    put("f.csv", "a,0\nb,1\n");
    put("m.csv", "# measure: yes\na,0,1\nb,1,1\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 c.csv f.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "c.csv is continuous and f.csv is not"));
    ck_assert_int_eq(run("$E audit --epsilon 1 f.csv c.csv"), 2);
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant pf c.csv c.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "--variant pf is not available for continuous"));
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant pf m.csv m.csv"), 2);
    put("s.txt", "0.5\n");
    /* draws of a continuous pair are judged on intervals (test_harden3.c has the rows) */
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-x s.txt --samples-y s.txt c.csv c.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "verdict: consistent with eps"));
    /* a piece whose integral diverges, named by file and line */
    put("d.csv", "# output: continuous\n0,inf,0,1\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 c.csv d.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "d.csv"));
    /* identical laws: 0 exactly */
    ck_assert_int_eq(run("$E audit --epsilon 1 c.csv c.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "exact privacy loss: 0 "));
}
END_TEST

static Suite *audit_cont_suite(void)
{
    Suite *s = suite_create("audit_cont");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, laplace_translation);
    tcase_add_test(tc, bounded_closed_forms);
    tcase_add_test(tc, infinite_losses);
    tcase_add_test(tc, finite_with_measure);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(audit_cont_suite)
