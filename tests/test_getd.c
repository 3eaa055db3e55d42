/* test_getd.c: em_mpfr_get_d_rn is mpfr_get_d(x, MPFR_RNDN) bit for bit, on random
 * numbers of every precision and exponent (normal, subnormal, overflowing), and on exact
 * ties between two doubles, built here as odd multiples of half an ulp. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "num/em_getd.h"

static void same_double(mpfr_srcptr x)
{
    double got = em_mpfr_get_d_rn(x), want = mpfr_get_d(x, MPFR_RNDN);
    uint64_t g, w;
    memcpy(&g, &got, sizeof g);
    memcpy(&w, &want, sizeof w);
    if (g != w && !(isnan(got) && isnan(want))) {
        mpfr_fprintf(stderr, "x=%.80Rg (prec %ld): got %a want %a\n", x,
                     (long)mpfr_get_prec(x), got, want);
        ck_abort_msg("em_mpfr_get_d_rn differs from mpfr_get_d");
    }
}

START_TEST(random_values)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 5303);
    for (int it = 0; it < 200000; it++) {
        mpfr_prec_t p = 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 400);
        mpfr_t x;
        mpfr_init2(x, p);
        mpfr_urandomb(x, rs);
        long sh = (long)gmp_urandomm_ui(rs, 2300) - 1150;
        mpfr_mul_2si(x, x, sh, MPFR_RNDN);
        if (gmp_urandomb_ui(rs, 1))
            mpfr_neg(x, x, MPFR_RNDN);
        same_double(x);
        mpfr_nextabove(x);
        same_double(x);
        mpfr_clear(x);
    }
    gmp_randclear(rs);
}
END_TEST

/* (2k + 1) 2^(e-54) for 2^52 <= k < 2^53: exactly between two doubles (ties to even),
 * and its neighbours one ulp of a wider precision away; plus the largest values below
 * 2^1024 and the smallest normals, where the fast path hands over */
START_TEST(ties_and_edges)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 77);
    mpz_t k;
    mpz_init(k);
    int ties = 0;
    for (int it = 0; it < 20000; it++) {
        mpz_urandomb(k, rs, 52);
        mpz_setbit(k, 52);
        mpz_mul_2exp(k, k, 1);
        mpz_add_ui(k, k, 1); /* 2k + 1: 54 bits */
        long e = (long)gmp_urandomm_ui(rs, 2100) - 1050;
        mpfr_prec_t p = 54 + (mpfr_prec_t)gmp_urandomm_ui(rs, 200);
        mpfr_t x;
        mpfr_init2(x, p);
        ck_assert_int_eq(mpfr_set_z_2exp(x, k, e - 54, MPFR_RNDN), 0);
        same_double(x);
        mpfr_nextabove(x);
        same_double(x);
        mpfr_nextbelow(x);
        mpfr_nextbelow(x);
        same_double(x);
        mpfr_neg(x, x, MPFR_RNDN);
        same_double(x);
        ties++;
        mpfr_clear(x);
    }
    ck_assert_int_eq(ties, 20000);
    mpfr_t x;
    mpfr_init2(x, 200);
    for (long e = -1080; e <= -1015; e++) { /* subnormal to normal */
        mpfr_set_ui_2exp(x, 1, e, MPFR_RNDN);
        for (int j = 0; j < 4; j++) {
            same_double(x);
            mpfr_nextbelow(x);
        }
    }
    for (long e = 1020; e <= 1026; e++) { /* up to overflow */
        mpfr_set_ui_2exp(x, 1, e, MPFR_RNDN);
        for (int j = 0; j < 4; j++) {
            mpfr_nextbelow(x);
            same_double(x);
        }
    }
    mpfr_set_ui(x, 0, MPFR_RNDN);
    same_double(x);
    mpfr_neg(x, x, MPFR_RNDN);
    same_double(x);
    mpfr_set_inf(x, -1);
    same_double(x);
    mpfr_set_nan(x);
    same_double(x);
    mpfr_clear(x);
    mpz_clear(k);
    gmp_randclear(rs);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("getd");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_values);
    tcase_add_test(tc, ties_and_edges);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
