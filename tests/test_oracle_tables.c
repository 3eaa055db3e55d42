/* test_oracle_tables.c: the oracle's exponent tables (utilities with a common denominator,
 * exp(t_j) as a product of table entries) against a direct computation written here:
 * S = sum_j exp(t_j) and P_i = exp(t_i) / S, log P_i = t_i - ln S at 1024 bits (plus the
 * bits of the largest |t|), each rounded to K digits by mpfr_get_str.  Scenarios are sized
 * so that the tables take 1, 2, 4 and 5 digits (exponents up to 2^40), with far-below-range
 * probabilities (decimal exponents beyond em_dec10's cache) and ties. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "expmech.h"
#include "oracle/em_oracle.h"
#include "em_problem_util.h"

/* "d.ddd" / "0.000ddd" / "d.ddde-N" of the oracle back to (digits, exponent) as
 * mpfr_get_str gives them: strip sign, point and leading zeros */
static void oracle_digits(const char *s, char *d, long *ex)
{
    long e = 0, nd = 0, point = -1, lead = 0;
    const char *p = s;
    if (*p == '-')
        p++;
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') {
            point = nd + lead;
            continue;
        }
        if (nd == 0 && *p == '0') {
            lead++;
            continue;
        }
        d[nd++] = *p;
    }
    d[nd] = 0;
    long intdigits = (point < 0 ? nd + lead : point); /* digits before the point */
    e = intdigits - lead;
    if (*p == 'e')
        e += strtol(p + 1, NULL, 10);
    *ex = e;
}

static void check_scenario(size_t n, mpq_t *u, const mpq_t eps, int K, const char *name)
{
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpq_t one, c, umax, t;
    mpq_inits(one, c, umax, t, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpq_div_2exp(c, eps, 1); /* standard: eps / (2 delta), delta = 1 */
    mpq_set(umax, u[0]);
    for (size_t i = 1; i < n; i++)
        if (mpq_cmp(u[i], umax) > 0)
            mpq_set(umax, u[i]);
    mpq_sub(t, umax, u[0]);
    for (size_t i = 1; i < n; i++) { /* largest |t| */
        mpq_t d;
        mpq_init(d);
        mpq_sub(d, umax, u[i]);
        if (mpq_cmp(d, t) > 0)
            mpq_set(t, d);
        mpq_clear(d);
    }
    mpq_mul(t, t, c);
    mpfr_prec_t P = 1024 + (mpfr_prec_t)mpz_sizeinbase(mpq_numref(t), 2);
    mpfr_t S, x, lS, v;
    mpfr_inits2(P, S, x, lS, v, (mpfr_ptr)0);
    mpfr_set_ui(S, 0, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        mpq_sub(t, u[i], umax);
        mpq_mul(t, t, c);
        mpfr_set_q(x, t, MPFR_RNDN);
        mpfr_exp(x, x, MPFR_RNDN);
        mpfr_add(S, S, x, MPFR_RNDN);
    }
    mpfr_log(lS, S, MPFR_RNDN);

    em_oracle *o;
    ck_assert_int_eq(tp_oracle_new(n, u, NULL, eps, one, EM_STANDARD, K, &o), EM_OK);
    char *want = malloc((size_t)K + 8), *got = malloc((size_t)K + 64);
    long far = 0;
    for (size_t i = 0; i < n; i++) {
        em_oracle_cand r;
        ck_assert_int_eq(em_oracle_get(o, i, &r), EM_OK);
        mpq_sub(t, u[i], umax);
        mpq_mul(t, t, c);
        mpfr_set_q(x, t, MPFR_RNDN);
        /* log P */
        mpfr_sub(v, x, lS, MPFR_RNDN);
        mpfr_exp_t we;
        long ge;
        if (!mpfr_zero_p(v)) {
            mpfr_get_str(want, &we, 10, (size_t)K, v, MPFR_RNDN);
            oracle_digits(r.logprob, got, &ge);
            ck_assert_msg(strcmp(want + 1, got) == 0 && (long)we == ge,
                          "%s: log P_%zu = %s, expected %s e%ld", name, i, r.logprob, want,
                          (long)we);
            ck_assert(r.logprob_d == mpfr_get_d(v, MPFR_RNDN));
        }
        /* P, unless it is within 10^-K of 1 (printed as K nines) */
        mpfr_exp(v, v, MPFR_RNDN);
        if (r.flags & EM_OF_NEAR_ONE)
            continue;
        mpfr_get_str(want, &we, 10, (size_t)K, v, MPFR_RNDN);
        oracle_digits(r.prob, got, &ge);
        ck_assert_msg(strcmp(want, got) == 0 && (long)we == ge, "%s: P_%zu = %s, expected %s e%ld",
                      name, i, r.prob, want, (long)we);
        ck_assert(r.prob_d == mpfr_get_d(v, MPFR_RNDN));
        far += (long)we < -1300;
    }
    (void)far;
    em_oracle_free(o);
    free(want);
    free(got);
    mpfr_clears(S, x, lS, v, (mpfr_ptr)0);
    mpq_clears(one, c, umax, t, (mpq_ptr)0);
}

/* u_i = ((a i + b) mod M) / den, for i < n */
static void modular(size_t n, unsigned long long a, unsigned long long b, unsigned long long M,
                    unsigned long den, unsigned long eps_num, int K, const char *name)
{
    mpq_t *u = malloc(n * sizeof *u), eps;
    for (size_t i = 0; i < n; i++) {
        mpq_init(u[i]);
        unsigned long long k = (a * i + b) % M; /* a i < 2^64 here */
        mpz_set_ui(mpq_numref(u[i]), (unsigned long)k);
        mpz_set_ui(mpq_denref(u[i]), den);
        mpq_canonicalize(u[i]);
    }
    mpq_init(eps);
    mpq_set_ui(eps, eps_num, 1);
    check_scenario(n, u, eps, K, name);
    for (size_t i = 0; i < n; i++)
        mpq_clear(u[i]);
    free(u);
    mpq_clear(eps);
}

START_TEST(one_digit)
{
    /* m < 2^9 over 4000 candidates (many ties): one table of 512 */
    modular(4000, 7, 3, 500, 10, 1, 40, "one digit");
}
END_TEST

START_TEST(two_digits)
{
    /* m < 2^20 (thousandths up to 1000): two tables of 1024 */
    modular(9000, 7919, 0, 1000003, 1000, 1, 40, "two digits");
}
END_TEST

START_TEST(four_digits)
{
    /* m up to about 2^40 with D = 2: t down to -2^39, P far below 1e-1300 (decimal
     * exponents beyond em_dec10's cache; exponents of exp beyond 32 bits) */
    modular(20000, 55000003, 11, 1ULL << 40, 1, 1, 25, "four digits");
}
END_TEST

START_TEST(five_digits_mixed)
{
    /* denominators 1..8 (lcm 840), m up to about 2^35: five tables of 128; K 17 */
    size_t n = 6000;
    mpq_t *u = malloc(n * sizeof *u), eps;
    for (size_t i = 0; i < n; i++) {
        mpq_init(u[i]);
        mpq_set_ui(u[i], (unsigned long)((i * 104729UL) % 3000017UL), 1 + (unsigned long)(i % 8));
        mpq_canonicalize(u[i]);
    }
    mpq_init(eps);
    mpq_set_ui(eps, 3, 7);
    check_scenario(n, u, eps, 17, "mixed denominators");
    for (size_t i = 0; i < n; i++)
        mpq_clear(u[i]);
    free(u);
    mpq_clear(eps);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("oracle_tables");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, one_digit);
    tcase_add_test(tc, two_digits);
    tcase_add_test(tc, four_digits);
    tcase_add_test(tc, five_digits_mixed);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
