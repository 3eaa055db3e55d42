/* test_audit.c: `expmech audit` and the exact default of `expmech sample` (--sampler,
 * --variant pf), run as a program (build/expmech, or $EM_EXPMECH). */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_audit_XXXXXX");
}

START_TEST(audit_marital_neighbour)
{
    /* one more row of Married-AF-spouse: utility + 1/1000 */
    ck_assert_int_eq(run("$E example marital > x.csv && sed 's/^Married-AF-spouse,0.023/"
                         "Married-AF-spouse,0.024/' x.csv > y.csv && $E audit --epsilon 1 x.csv y.csv"),
                     0);
    ck_assert_ptr_nonnull(strstr(out, "ideal mechanism"));
    ck_assert_ptr_nonnull(strstr(out, "float sampler as implemented"));
    /* ln-ratio at the changed label: 0.0005 - ln(Z_Y / Z_X), to 17 digits (MPFR) */
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: 0.00049974831356022806"));
    ck_assert_ptr_nonnull(strstr(out, "at 'Married-AF-spouse'"));
    ck_assert_ptr_nonnull(strstr(out, "verdict: eps-DP holds"));
    /* permute-and-flip: only p_r changes, so the loss is exactly 0.0005 */
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant pf x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: 0.0005 "));
    ck_assert_ptr_null(strstr(out, "float sampler"));
}
END_TEST

START_TEST(audit_float_underflow_violation)
{
    /* weight exp(-745) is the smallest subnormal; exp(-745.5) underflows to 0 */
    put("x.csv", "a,0\nb,-1490\n");
    put("y.csv", "a,0\nb,-1491\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: 0.5 "));
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: inf (p = 0 on one side only) at 'b'"));
    ck_assert_ptr_nonnull(strstr(out, "VIOLATED"));
}
END_TEST

START_TEST(audit_ideal_violation_and_samples)
{
    /* not neighbours at sensitivity 1: the claim fails; the draws show it too */
    put("x.csv", "a,0\nb,0\nc,-1\n");
    put("y.csv", "c,-1\nb,0\na,4\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: 1.2387140089725834"));
    ck_assert_ptr_nonnull(strstr(out, "delta(eps) X->Y: 0.130888"));
    ck_assert_int_eq(run("$E sample --epsilon 1 -n 20000 --seed 1 x.csv > s1 && "
                         "$E sample --epsilon 1 -n 20000 --seed 2 y.csv > s2 && "
                         "$E audit --epsilon 1 --samples-x s1 --samples-y s2 x.csv y.csv"),
                     1);
    ck_assert_ptr_nonnull(strstr(out, "VIOLATED: the draws show a loss above eps"));
    /* at sensitivity 4 (the true one here) the claim holds */
    ck_assert_int_eq(run("$E audit --epsilon 1 --sensitivity 4 x.csv y.csv"), 0);
}
END_TEST

START_TEST(audit_usage)
{
    put("x.csv", "a,0\nb,1\n");
    put("y.csv", "a,0\nc,1\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv"), 2);
    ck_assert_int_eq(run("$E audit x.csv x.csv"), 2);
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "label 'b' of X is not in Y"));
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant nope x.csv x.csv"), 2);
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-x x.csv x.csv x.csv"), 2);
    ck_assert_int_eq(run("$E audit --help"), 0);
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv x.csv"), 0);
    /* identical scenarios: exactly 0 (decided on the exact inputs), not 1e-95 */
    ck_assert_ptr_nonnull(strstr(out, "ideal mechanism (= the exact sampler):\n  privacy loss: 0 (exactly"));
    ck_assert_ptr_nonnull(strstr(out, "em_weights_fixed):\n  privacy loss: 0 (exactly"));
    ck_assert_ptr_null(strstr(out, "e-9"));
}
END_TEST

/* The bounded-range width and the zCDP rho it implies.  Expected values by hand and from
 * Python's decimal at 40 digits: u_X = (0, 1, 2), u_Y = (1, 1, 1), c = 1/2: the log-ratio
 * is c (u_X - u_Y) - ln(Z_X/Z_Y), its span c (1 - (-1)) = 1, rho 1/8; densities u_X = 0,
 * u_Y = r on [0, 1]: span c = 1/2, rho 1/32; measures (1, 2) against (1, 1): the ratios
 * 2/3 and 4/3 span ln 2; permute-and-flip on u = (0, 0), u' = (1, -0.999) (near the
 * counterexample of proofs/theorems/BoundedRange.mlw, where the loss is eps exactly and
 * the verdict undecidable): 0.9995 + ln(2 - e^-0.9995) = 1.4892673912740337 > eps while the
 * loss is 0.9995, and no rho; an output of X that Y excludes: an infinite width. */
START_TEST(audit_bounded_range)
{
    static const struct {
        const char *x, *y, *opt;
        int exit;
        const char *want[3], *absent;
    } pairs[] = {
        {"a,0\nb,1\nc,2\n", "a,1\nb,1\nc,1\n", "", 0,
         {"width: 1.0000000000000000 (correctly rounded",
          "rho = width^2/8 = 0.12500000000000000 on this pair", NULL}, NULL},
        {"# output: continuous\n0,1,0,0\n", "# output: continuous\n0,1,0,1\n", "", 0,
         {"width: 0.50000000000000000 (correctly rounded",
          "rho = width^2/8 = 0.031250000000000000 on", NULL}, NULL},
        {"# measure: yes\na,0,1\nb,0,2\n", "# measure: yes\na,0,1\nb,0,1\n", "", 0,
         {"width: 0.69314718055994531 (correctly rounded",
          "rho = width^2/8 = 0.060056626739775178 on", NULL}, NULL},
        {"a,0\nb,0\n", "a,1\nb,-0.999\n", "--variant pf", 0,
         {"privacy loss: 0.9995 ", "width: 1.4892673912740337 (upper end of the enclosure)",
          "permute-and-flip is not bounded-range"}, "rho = width"},
        {"a,0\nb,-inf\n", "a,0\nb,0\n", "", 1,
         {"width: inf = ", "zCDP: none (the width is infinite)", NULL}, NULL},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        put("x.csv", pairs[i].x);
        put("y.csv", pairs[i].y);
        ck_assert_int_eq(run("$E audit --epsilon 1 %s x.csv y.csv", pairs[i].opt), pairs[i].exit);
        for (int k = 0; k < 3 && pairs[i].want[k]; k++)
            ck_assert_msg(strstr(out, pairs[i].want[k]), "pair %zu: no '%s' in:\n%s", i,
                          pairs[i].want[k], out);
        if (pairs[i].absent)
            ck_assert_ptr_null(strstr(out, pairs[i].absent));
    }
}
END_TEST

START_TEST(sample_exact_default)
{
    ck_assert_int_eq(run("$E example marital > m.csv && $E sample --epsilon 1 -n 2000 --seed 7 "
                         "m.csv > a && $E sample --sampler exact --epsilon 1 -n 2000 --seed 7 "
                         "m.csv > b && cmp a b && $E sample --sampler float --epsilon 1 -n 2000 "
                         "--seed 7 m.csv > c && wc -l < c"),
                     0);
    ck_assert_str_eq(out, "2000\n");
    ck_assert_int_eq(run("$E sample --sampler=float --epsilon 1 -n 3 --seed 7 m.csv"), 0);
    ck_assert_int_eq(run("$E sample --sampler bogus --epsilon 1 m.csv"), 2);
    ck_assert_int_eq(run("$E sample --sampler --epsilon 1 m.csv"), 2);
    ck_assert_int_eq(run("$E sample --variant pf --epsilon 1 -n 1000 --seed 3 m.csv | sort -u | wc -l"), 0);
    ck_assert_int_eq(run("$E sample --variant pf --sampler float --epsilon 1 m.csv"), 2);
    /* exact sampling of utilities beyond double's range: the larger always wins here */
    put("huge.csv", "a,1e400\nb,0\nc,-inf\n");
    ck_assert_int_eq(run("$E sample --epsilon 1 -n 5 --seed 1 huge.csv"), 0);
    ck_assert_str_eq(out, "a\na\na\na\na\n");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("audit");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, audit_marital_neighbour);
    tcase_add_test(tc, audit_float_underflow_violation);
    tcase_add_test(tc, audit_ideal_violation_and_samples);
    tcase_add_test(tc, audit_usage);
    tcase_add_test(tc, audit_bounded_range);
    tcase_add_test(tc, sample_exact_default);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
