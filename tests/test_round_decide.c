/* test_round_decide.c: the rounding decision (em_round_decide, proven by WP) on every code
 * pair it takes, against libm's rint (round to nearest, ties to even) of a real of each
 * code; and its use on MPFR enclosures (em_dec10_decide) against MPFR's own conversion of
 * both ends (mpfr_get_str, round to nearest): random enclosures, exact ties, decade
 * crossings, negative values. */
#include "em_check_main.h"
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "core/em_round_decide.h"
#include "num/em_dec10.h"

/* a real of code c (spec/RoundDecide.acsl): floor c/4, fraction 0, 1/4, 1/2 or 3/4 */
static double real_of(int64_t c)
{
    return (double)(c / 4) + 0.25 * (double)(c % 4);
}

START_TEST(codes_exhaustive)
{
    ck_assert_int_eq(fegetround(), FE_TONEAREST);
    for (int64_t a = 0; a < 8; a++)
        for (int64_t b = a; b <= a + EM_ROUND_DECIDE_SPAN; b++) {
            /* every code between a and b stands for reals between the ends' reals */
            double r0 = rint(real_of(a));
            int same = 1;
            for (int64_t c = a; c <= b; c++)
                same &= rint(real_of(c)) == r0;
            int64_t m = -1;
            int d = em_round_decide(a, b, &m);
            ck_assert_msg(d == same, "a=%ld b=%ld: decided %d, expected %d", (long)a, (long)b,
                          d, same);
            if (d)
                ck_assert_int_eq(m, (int64_t)r0);
        }
    /* the ties: 1/2 -> 0, 3/2 -> 2, 5/2 -> 2 (never away from zero) */
    int64_t m;
    ck_assert(em_round_decide(2, 2, &m) && m == 0);
    ck_assert(em_round_decide(6, 6, &m) && m == 2);
    ck_assert(em_round_decide(10 - 8, 10 - 8, &m) && m == 0); /* 5/2 less 2 */
}
END_TEST

/* em_dec10_decide on [lo, hi] agrees with mpfr_get_str of both ends: decided exactly when
 * they give the same K digits, and then those digits */
static void check_pair(em_dec10 *c, mpfr_srcptr lo, mpfr_srcptr hi, int *ndec)
{
    int K = c->K;
    char s1[1300], s2[1300], got[1300];
    mpfr_exp_t e1, e2;
    mpfr_get_str(s1, &e1, 10, (size_t)K, lo, MPFR_RNDN);
    mpfr_get_str(s2, &e2, 10, (size_t)K, hi, MPFR_RNDN);
    int want = e1 == e2 && strcmp(s1, s2) == 0;
    mpz_t q;
    mpz_init(q);
    long ex = 0;
    int d = em_dec10_decide(c, lo, hi, q, &ex);
    ck_assert_int_ge(d, 0);
    ck_assert_msg(d == want, "K=%d [%s e%ld, %s e%ld]: decided %d", K, s1, (long)e1, s2,
                  (long)e2, d);
    if (d) {
        em_dec10_digits(c, q, got);
        const char *w = s1[0] == '-' ? s1 + 1 : s1;
        ck_assert_str_eq(got, w);
        ck_assert_int_eq(ex, (long)e1);
        (*ndec)++;
    }
    mpz_clear(q);
}

START_TEST(enclosures)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 20261128);
    int ndec = 0, n = 0;
    static const int Ks[] = {1, 2, 3, 6, 17, 40};
    for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++) {
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, Ks[k]), 0);
        for (int i = 0; i < 4000; i++) {
            mpfr_prec_t p = 8 + (mpfr_prec_t)gmp_urandomm_ui(rs, 200);
            mpfr_t lo, hi, w;
            mpfr_inits2(p, lo, hi, w, (mpfr_ptr)0);
            mpfr_urandomb(lo, rs);
            mpfr_mul_2si(lo, lo, (long)gmp_urandomm_ui(rs, 400) - 200, MPFR_RNDN);
            if (mpfr_zero_p(lo))
                mpfr_set_ui(lo, 1, MPFR_RNDN);
            /* widths from none to a few units of the K-th digit */
            mpfr_set(hi, lo, MPFR_RNDN);
            unsigned long steps = gmp_urandomm_ui(rs, 4) == 0 ? 0 : gmp_urandomm_ui(rs, 1UL << 12);
            mpfr_set_ui(w, (unsigned long)steps, MPFR_RNDN);
            mpfr_mul(w, w, lo, MPFR_RNDN);
            mpfr_div_2si(w, w, (long)(Ks[k] * 3.33) + 12, MPFR_RNDN);
            mpfr_add(hi, lo, w, MPFR_RNDU);
            if (i % 2) {
                mpfr_neg(lo, lo, MPFR_RNDN);
                mpfr_neg(hi, hi, MPFR_RNDN);
                mpfr_swap(lo, hi);
            }
            check_pair(&c, lo, hi, &ndec);
            n++;
            mpfr_clears(lo, hi, w, (mpfr_ptr)0);
        }
        em_dec10_clear(&c);
    }
    /* both outcomes are exercised */
    ck_assert_int_gt(ndec, n / 10);
    ck_assert_int_lt(ndec, n - n / 10);
    gmp_randclear(rs);
}
END_TEST

/* exact ties as points (decided, to even) and inside enclosures (undecided); decade ends */
START_TEST(ties_and_decades)
{
    em_dec10 c;
    ck_assert_int_eq(em_dec10_init(&c, 2), 0);
    int ndec = 0;
    static const char *pts[] = {"0.125", "0.135", "2.5", "3.5", "-0.125", "99.5", "9.95",
                                "1048576", "0.0001220703125", "1e-300", "1.5e12"};
    mpfr_t lo, hi;
    mpfr_inits2(200, lo, hi, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof pts / sizeof *pts; i++) {
        mpfr_set_str(lo, pts[i], 10, MPFR_RNDD);
        mpfr_set(hi, lo, MPFR_RNDN);
        check_pair(&c, lo, hi, &ndec);
        mpfr_nextabove(hi);
        check_pair(&c, lo, hi, &ndec);
        mpfr_nextbelow(lo);
        check_pair(&c, lo, hi, &ndec);
    }
    /* 0.125 -> 0.12, 0.135 (binary, just off the tie) and 99.5 -> 1.0e2 carried */
    mpz_t q;
    mpz_init(q);
    long ex;
    mpfr_set_str(lo, "0.125", 10, MPFR_RNDN);
    ck_assert_int_eq(em_dec10_decide(&c, lo, lo, q, &ex), 1);
    ck_assert(mpz_cmp_ui(q, 12) == 0 && ex == 0);
    mpfr_set_str(lo, "99.5", 10, MPFR_RNDN);
    mpfr_set_str(hi, "100.4", 10, MPFR_RNDU);
    ck_assert_int_eq(em_dec10_decide(&c, lo, hi, q, &ex), 1);
    ck_assert(mpz_cmp_ui(q, 10) == 0 && ex == 3);
    mpz_clear(q);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    em_dec10_clear(&c);
    ck_assert_int_gt(ndec, 10);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("round_decide");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, codes_exhaustive);
    tcase_add_test(tc, enclosures);
    tcase_add_test(tc, ties_and_decades);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
