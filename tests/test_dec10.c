/* test_dec10.c: em_dec10_round and em_dec10_decide, the oracle's exact K-digit decimal
 * rounding, against MPFR's own conversion (mpfr_get_str, round to nearest) on random
 * numbers, exact ties, decade crossings and far exponents, and against exact ties worked
 * out here from the finite decimal expansion of w 2^-j (no rounding code shared with
 * em_dec10). */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "num/em_dec10.h"

/* mpfr_get_str's K-digit round-to-nearest of |x| */
static void ref_round(mpfr_srcptr x, int K, char *d, long *ex)
{
    mpfr_exp_t e;
    mpfr_t a;
    mpfr_init2(a, mpfr_get_prec(x));
    mpfr_abs(a, x, MPFR_RNDN);
    mpfr_get_str(d, &e, 10, (size_t)K, a, MPFR_RNDN);
    mpfr_clear(a);
    *ex = (long)e;
}

/* em_dec10_round agrees with mpfr_get_str on x (or declines where it may); returns 1 when
 * it converted */
static int agrees(em_dec10 *c, mpfr_srcptr x)
{
    mpz_t q;
    mpz_init(q);
    long ex = 0;
    int ok = em_dec10_round(c, x, q, &ex);
    if (ok) {
        char got[1300], want[1300];
        long wex;
        ck_assert(mpz_sizeinbase(q, 10) <= (size_t)c->K + 1);
        mpz_get_str(got, 10, q);
        ref_round(x, c->K, want, &wex);
        if (strcmp(got, want) != 0 || ex != wex) {
            mpfr_fprintf(stderr, "K=%d x=%.60Rg: got %s e%ld, want %s e%ld\n", c->K, x, got,
                         ex, want, wex);
            ck_abort_msg("em_dec10_round differs from mpfr_get_str");
        }
    }
    mpz_clear(q);
    return ok;
}

START_TEST(random_points)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 20261124);
    static const int Ks[] = {1, 2, 5, 17, 38, 39, 40, 41, 60};
    long converted = 0, total = 0;
    for (size_t ki = 0; ki < sizeof Ks / sizeof Ks[0]; ki++) {
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, Ks[ki]), 0);
        for (int it = 0; it < 3000; it++) {
            mpfr_prec_t p = 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 320);
            mpfr_t x;
            mpfr_init2(x, p);
            mpfr_urandomb(x, rs);
            if (mpfr_zero_p(x))
                mpfr_set_ui(x, 1, MPFR_RNDN);
            long sh = (long)gmp_urandomm_ui(rs, 9000) - 4500;
            mpfr_mul_2si(x, x, sh, MPFR_RNDN);
            if (gmp_urandomb_ui(rs, 1))
                mpfr_neg(x, x, MPFR_RNDN);
            converted += agrees(&c, x);
            /* the neighbours: an interval's ends a few ulps apart */
            for (int k = 0; k < 3; k++) {
                mpfr_nextabove(x);
                converted += agrees(&c, x);
            }
            total += 4;
            mpfr_clear(x);
        }
        em_dec10_clear(&c);
    }
    /* exponents within about +-1100 decimal (most of the range drawn) are converted */
    ck_assert_int_gt(converted, total / 3);
    gmp_randclear(rs);
}
END_TEST

/* x = w 2^-j with w odd and j >= 1 has a finite decimal expansion ending in 5: rounded to
 * one digit fewer it is an exact tie, which goes to the even neighbour. */
START_TEST(exact_ties)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 7);
    mpz_t w, v, q;
    mpz_inits(w, v, q, (mpz_ptr)0);
    int ties = 0;
    for (int it = 0; it < 4000; it++) {
        mp_bitcnt_t bits = 1 + gmp_urandomm_ui(rs, 150);
        mpz_urandomb(w, rs, bits);
        mpz_setbit(w, 0); /* odd */
        unsigned long j = 1 + gmp_urandomm_ui(rs, 120);
        /* w 2^-j = w 5^j 10^-j: the digits of v = w 5^j, the last being 5 */
        mpz_ui_pow_ui(v, 5, j);
        mpz_mul(v, v, w);
        char *digits = mpz_get_str(NULL, 10, v);
        int D = (int)strlen(digits);
        ck_assert_int_eq(digits[D - 1], '5');
        if (D < 2) {
            free(digits);
            continue;
        }
        int K = D - 1;
        /* expected: the first K digits, plus one if the K-th is odd */
        char *want = strdup(digits);
        want[K] = 0;
        long wex = (long)D - (long)j; /* value = 0.digits 10^(D - j) */
        if ((want[K - 1] - '0') % 2 == 1) {
            int k = K - 1;
            while (k >= 0 && want[k] == '9')
                want[k--] = '0';
            if (k >= 0) {
                want[k]++;
            } else {
                want[0] = '1';
                wex++;
            }
        }
        mpfr_t x;
        mpfr_init2(x, bits < 2 ? 2 : (mpfr_prec_t)bits);
        ck_assert_int_eq(mpfr_set_z_2exp(x, w, -(mpfr_exp_t)j, MPFR_RNDN), 0);
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, K), 0);
        long ex;
        ck_assert(em_dec10_round(&c, x, q, &ex));
        char *got = mpz_get_str(NULL, 10, q);
        ck_assert_str_eq(got, want);
        ck_assert_int_eq(ex, wex);
        ck_assert(agrees(&c, x));
        ties++;
        em_dec10_clear(&c);
        mpfr_clear(x);
        free(got);
        free(want);
        free(digits);
    }
    ck_assert_int_gt(ties, 3000);
    mpz_clears(w, v, q, (mpz_ptr)0);
    gmp_randclear(rs);
}
END_TEST

/* hand-made cases: ties, K nines rolling over to the next decade, values at 0.1 */
START_TEST(boundaries)
{
    em_dec10 c;
    mpz_t q;
    mpz_init(q);
    long ex;
    mpfr_t x;
    mpfr_init2(x, 192);

    ck_assert_int_eq(em_dec10_init(&c, 2), 0);
    mpfr_set_d(x, 0.125, MPFR_RNDN); /* 12.5 units: tie to even 12 */
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(mpz_get_ui(q), 12);
    ck_assert_int_eq(ex, 0);
    mpfr_set_d(x, 0.375, MPFR_RNDN); /* 37.5: 38 */
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(mpz_get_ui(q), 38);
    mpfr_set_d(x, -99.5, MPFR_RNDN); /* |x| 99.5: tie to even 100 -> "10" e3 */
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(mpz_get_ui(q), 10);
    ck_assert_int_eq(ex, 3);
    mpfr_set_d(x, 98.5, MPFR_RNDN); /* 98 */
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(mpz_get_ui(q), 98);
    ck_assert_int_eq(ex, 2);
    em_dec10_clear(&c);

    /* 40 digits: 1 - 2^-200 rounds to 1.000 (K nines would be below it); 1 - 10^-40 at
     * 192 bits is just off the tie 0.99..995 either way */
    ck_assert_int_eq(em_dec10_init(&c, 40), 0);
    mpfr_set_ui_2exp(x, 1, -200, MPFR_RNDN);
    mpfr_ui_sub(x, 1, x, MPFR_RNDN);
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(ex, 1);
    ck_assert(mpz_cmp(q, c.pK1) == 0);
    ck_assert(agrees(&c, x));
    mpfr_set_str(x, "0.99999999999999999999999999999999999999995", 10, MPFR_RNDD);
    ck_assert(agrees(&c, x));
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(ex, 0); /* below the tie: 40 nines */
    mpfr_set_str(x, "0.99999999999999999999999999999999999999995", 10, MPFR_RNDU);
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(ex, 1); /* above: 1.000 */
    /* 0.1 and its neighbours: the binary values nearest 0.1 all round to 0.1000 */
    mpfr_set_str(x, "0.1", 10, MPFR_RNDN);
    for (int k = 0; k < 4; k++) {
        ck_assert(em_dec10_round(&c, x, q, &ex));
        ck_assert(mpz_cmp(q, c.pK1) == 0);
        ck_assert_int_eq(ex, 0);
        mpfr_nextbelow(x);
    }
    /* tiny and huge: 2^-3000 (8.1e-904), 3 2^2999 (1.5e+903) convert; 2^-5000 declines */
    mpfr_set_ui_2exp(x, 1, -3000, MPFR_RNDN);
    ck_assert(agrees(&c, x));
    ck_assert(em_dec10_round(&c, x, q, &ex));
    ck_assert_int_eq(ex, -903); /* 8.1e-904 = 0.81e-903 */
    mpfr_set_ui_2exp(x, 3, 2999, MPFR_RNDN);
    ck_assert(agrees(&c, x));
    mpfr_set_ui_2exp(x, 1, -5000, MPFR_RNDN);
    ck_assert(!em_dec10_round(&c, x, q, &ex));
    mpfr_set_ui(x, 0, MPFR_RNDN);
    ck_assert(!em_dec10_round(&c, x, q, &ex));
    mpfr_set_nan(x);
    ck_assert(!em_dec10_round(&c, x, q, &ex));
    em_dec10_clear(&c);
    mpfr_clear(x);
    mpz_clear(q);
}
END_TEST

/* em_dec10_decide against both ends rounded by mpfr_get_str: intervals a few ulps to many
 * ulps wide, both signs, decimal exponents inside and beyond the cache */
START_TEST(same_random)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 20261128);
    static const int Ks[] = {1, 2, 5, 17, 40, 41, 60};
    static const unsigned long widths[] = {0, 1, 2, 7, 1000, 1UL << 40};
    long decided = 0, differ = 0, total = 0;
    char d0[1300], d1[1300], got[1300];
    mpz_t q;
    mpz_init(q);
    for (size_t ki = 0; ki < sizeof Ks / sizeof Ks[0]; ki++) {
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, Ks[ki]), 0);
        for (int it = 0; it < 2000; it++) {
            mpfr_prec_t p = 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 320);
            mpfr_t lo, hi;
            mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
            mpfr_urandomb(lo, rs);
            if (mpfr_zero_p(lo))
                mpfr_set_ui(lo, 1, MPFR_RNDN);
            long sh = (long)gmp_urandomm_ui(rs, 9000) - 4500;
            mpfr_mul_2si(lo, lo, sh, MPFR_RNDN);
            mpfr_set(hi, lo, MPFR_RNDN);
            unsigned long w = widths[gmp_urandomm_ui(rs, sizeof widths / sizeof widths[0])];
            for (unsigned long k = 0; k < w && k < 8; k++)
                mpfr_nextabove(hi);
            if (w >= 8) {
                /* w ulps of lo, exactly or rounded up */
                mpfr_t u;
                mpfr_init2(u, 64);
                mpfr_set_ui_2exp(u, w, mpfr_get_exp(lo) - p, MPFR_RNDN);
                mpfr_add(hi, hi, u, MPFR_RNDU);
                mpfr_clear(u);
            }
            if (gmp_urandomb_ui(rs, 1)) {
                /* negative: [-hi, -lo] */
                mpfr_neg(lo, lo, MPFR_RNDN);
                mpfr_neg(hi, hi, MPFR_RNDN);
                mpfr_swap(lo, hi);
            }
            long e0, e1, ex = 0;
            ref_round(lo, Ks[ki], d0, &e0);
            ref_round(hi, Ks[ki], d1, &e1);
            int want = e0 == e1 && strcmp(d0, d1) == 0;
            int r = em_dec10_decide(&c, lo, hi, q, &ex);
            if (r >= 0) {
                if (r != want) {
                    mpfr_fprintf(stderr, "K=%d [%.60Rg, %.60Rg]: got %d want %d\n", Ks[ki], lo,
                                 hi, r, want);
                    ck_abort_msg("em_dec10_decide differs from mpfr_get_str");
                }
                if (r) {
                    mpz_get_str(got, 10, q);
                    ck_assert_str_eq(got, d0);
                    ck_assert_int_eq(ex, e0);
                }
                decided++;
                differ += !r;
            }
            total++;
            mpfr_clears(lo, hi, (mpfr_ptr)0);
        }
        em_dec10_clear(&c);
    }
    ck_assert_int_gt(decided, total / 3);
    ck_assert_int_gt(differ, decided / 20);     /* both outcomes exercised */
    ck_assert_int_lt(differ, decided - decided / 20);
    mpz_clear(q);
    gmp_randclear(rs);
}
END_TEST

/* The far end exactly on the top of the near end's cell (an exact tie, w 2^-j as in
 * exact_ties): the same decimal exactly when the near end's is even. */
START_TEST(same_tie_at_top)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 11);
    mpz_t w, v, q;
    mpz_inits(w, v, q, (mpz_ptr)0);
    int same = 0, apart = 0;
    for (int it = 0; it < 3000; it++) {
        mp_bitcnt_t bits = 2 + gmp_urandomm_ui(rs, 150);
        mpz_urandomb(w, rs, bits);
        mpz_setbit(w, 0);
        unsigned long j = 1 + gmp_urandomm_ui(rs, 120);
        mpz_ui_pow_ui(v, 5, j);
        mpz_mul(v, v, w);
        char *digits = mpz_get_str(NULL, 10, v);
        int D = (int)strlen(digits);
        if (D < 2) {
            free(digits);
            continue;
        }
        int K = D - 1;
        int even = (digits[K - 1] - '0') % 2 == 0; /* the near end rounds down to these */
        mpfr_t x0, x1;
        /* ulps far below the last digit: 2^-(bits + 4 j + 64) relative, 10^-D > 2^-(bits + 3 j) */
        mpfr_inits2((mpfr_prec_t)(bits + 4 * j + 64), x0, x1, (mpfr_ptr)0);
        ck_assert_int_eq(mpfr_set_z_2exp(x1, w, -(mpfr_exp_t)j, MPFR_RNDN), 0);
        mpfr_set(x0, x1, MPFR_RNDN);
        mpfr_nextbelow(x0); /* just below the tie: rounds down */
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, K), 0);
        long ex;
        int r = em_dec10_decide(&c, x0, x1, q, &ex);
        ck_assert_int_eq(r, even);
        if (r) {
            char *got = mpz_get_str(NULL, 10, q);
            digits[K] = 0;
            ck_assert_str_eq(got, digits);
            ck_assert_int_eq(ex, (long)D - (long)j);
            free(got);
        }
        /* negated: [-x1, -x0], the same answer */
        mpfr_neg(x0, x0, MPFR_RNDN);
        mpfr_neg(x1, x1, MPFR_RNDN);
        ck_assert_int_eq(em_dec10_decide(&c, x1, x0, q, &ex), even);
        same += even;
        apart += !even;
        em_dec10_clear(&c);
        mpfr_clears(x0, x1, (mpfr_ptr)0);
        free(digits);
    }
    ck_assert_int_gt(same, 1000);
    ck_assert_int_gt(apart, 1000);
    mpz_clears(w, v, q, (mpz_ptr)0);
    gmp_randclear(rs);
}
END_TEST

/* Every pair of ends whose codes on the K-digit grid are known exactly: x = m + f with m a
 * K-digit integer (the grid is the integers) and f one of 0, eps, 1/4, 1/2 - eps, 1/2,
 * 1/2 + eps, 3/4, 1 - eps (the four fraction classes, the exact tie among them), m over
 * seven consecutive integers (code differences from 0 past EM_ROUND_DECIDE_SPAN, a decade's
 * end among them); against both ends rounded by mpfr_get_str. */
START_TEST(same_codes)
{
    static const int Ks[] = {1, 2, 3, 17, 40};
    enum { NM = 7, NF = 8, NX = NM * NF };
    long decided = 0, differ = 0;
    static char d[NX][64], got[64];
    long e[NX];
    mpz_t q, m0, m;
    mpz_inits(q, m0, m, (mpz_ptr)0);
    for (size_t ki = 0; ki < sizeof Ks / sizeof Ks[0]; ki++) {
        const int K = Ks[ki];
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, K), 0);
        const mpfr_prec_t p = (mpfr_prec_t)mpz_sizeinbase(c.pK, 2) + 64;
        for (int base = 0; base < 3; base++) {
            /* 10^(K-1), 10^(K-1) + 1 (the other parity), 10^K - 7 (into the next decade) */
            if (base < 2)
                mpz_add_ui(m0, c.pK1, (unsigned long)base);
            else
                mpz_sub_ui(m0, c.pK, NM);
            mpfr_t x[NX];
            for (int k = 0; k < NX; k++) {
                mpfr_init2(x[k], p);
                mpz_add_ui(m, m0, (unsigned long)(k / NF));
                ck_assert_int_eq(mpfr_set_z(x[k], m, MPFR_RNDN), 0);
                const int f = k % NF;
                /* f in quarters, and eps = 2^-40 below or above */
                static const int quarters[NF] = {0, 0, 1, 2, 2, 2, 3, 4};
                static const int eps[NF] = {0, 1, 0, -1, 0, 1, 0, -1};
                mpfr_t t;
                mpfr_init2(t, 64);
                mpfr_set_ui_2exp(t, (unsigned long)quarters[f], -2, MPFR_RNDN);
                ck_assert_int_eq(mpfr_add(x[k], x[k], t, MPFR_RNDN), 0);
                mpfr_set_si_2exp(t, eps[f], -40, MPFR_RNDN);
                ck_assert_int_eq(mpfr_add(x[k], x[k], t, MPFR_RNDN), 0);
                mpfr_clear(t);
                ref_round(x[k], K, d[k], &e[k]);
            }
            for (int sign = 0; sign < 2; sign++) {
                for (int i = 0; i < NX; i++)
                    for (int j = i; j < NX; j++) {
                        long ex = 0;
                        /* [x_i, x_j], or [-x_j, -x_i] */
                        int r = sign ? em_dec10_decide(&c, x[j], x[i], q, &ex)
                                     : em_dec10_decide(&c, x[i], x[j], q, &ex);
                        int want = e[i] == e[j] && strcmp(d[i], d[j]) == 0;
                        ck_assert_int_eq(r, want);
                        if (r) {
                            mpz_get_str(got, 10, q);
                            ck_assert_str_eq(got, d[i]);
                            ck_assert_int_eq(ex, e[i]);
                        }
                        decided += r;
                        differ += !r;
                    }
                for (int k = 0; k < NX; k++)
                    mpfr_neg(x[k], x[k], MPFR_RNDN);
            }
            for (int k = 0; k < NX; k++)
                mpfr_clear(x[k]);
        }
        em_dec10_clear(&c);
    }
    ck_assert_int_gt(decided, 2000);
    ck_assert_int_gt(differ, 2000);
    mpz_clears(q, m0, m, (mpz_ptr)0);
}
END_TEST

/* em_dec10_digits is mpz_get_str on K-digit integers */
START_TEST(digits)
{
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 99);
    mpz_t q, lo, span;
    mpz_inits(q, lo, span, (mpz_ptr)0);
    char got[300], want[300];
    for (int K = 1; K <= 230; K += K < 120 ? 1 : 11) { /* beyond 154: the mpz path */
        em_dec10 c;
        ck_assert_int_eq(em_dec10_init(&c, K), 0);
        mpz_set(lo, c.pK1);
        mpz_sub(span, c.pK, c.pK1);
        for (int it = 0; it < 200; it++) {
            if (it == 0)
                mpz_set(q, lo); /* 10^(K-1) */
            else if (it == 1)
                mpz_sub_ui(q, c.pK, 1); /* K nines */
            else {
                mpz_urandomm(q, rs, span);
                mpz_add(q, q, lo);
            }
            em_dec10_digits(&c, q, got);
            mpz_get_str(want, 10, q);
            ck_assert_str_eq(got, want);
        }
        em_dec10_clear(&c);
    }
    mpz_clears(q, lo, span, (mpz_ptr)0);
    gmp_randclear(rs);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dec10");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_points);
    tcase_add_test(tc, exact_ties);
    tcase_add_test(tc, boundaries);
    tcase_add_test(tc, digits);
    tcase_add_test(tc, same_random);
    tcase_add_test(tc, same_tie_at_top);
    tcase_add_test(tc, same_codes);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
