/* test_qwords.c: the oracle's copy of the utilities as words (oracle/em_qwords.h) gives back
 * every utility exactly as given (canonical or not, excluded ones as 0), falls back to
 * rationals when one does not fit two words, and em_qcmp (num/em_qcmp.h) has mpq_cmp's
 * sign on every pair from a set of edge values (zero, both signs, one-limb extremes, two
 * limbs, equal values written differently). */
#include "em_check_main.h"
#include <check.h>
#include <limits.h>
#include <stdlib.h>

#include <gmp.h>

#include "em_base.h"
#include "num/em_qcmp.h"
#include "oracle/em_problem.h"
#include "oracle/em_qwords.h"

static int sgn(int x)
{
    return (x > 0) - (x < 0);
}

/* every u_i back through the copy's reader, equal part for part */
static void round_trip(size_t n, mpq_t *u, const unsigned char *ex, int want_words)
{
    mpq_t eps;
    mpq_init(eps);
    mpq_set_ui(eps, 1, 1);
    em_problem P;
    em_problem_init(&P);
    ck_assert_int_eq(em_problem_finite(&P, n, u, ex, eps, eps, EM_STANDARD, NULL), EM_OK);
    em_qcopy c;
    em_utility_reader src;
    ck_assert_int_eq(em_qcopy_new(&P, &c, &src), EM_OK);
    ck_assert_int_eq(c.w != NULL, want_words);
    ck_assert_int_eq(c.q != NULL, !want_words);
    mpq_t v;
    mpq_init(v);
    for (size_t i = 0; i < n; i++) {
        mpq_set_si(v, 12345, 7); /* overwritten */
        src.get(src.ctx, i, v);
        if (ex && ex[i]) {
            ck_assert_int_eq(mpq_sgn(v), 0);
            continue;
        }
        ck_assert(mpz_cmp(mpq_numref(v), mpq_numref(u[i])) == 0);
        ck_assert(mpz_cmp(mpq_denref(v), mpq_denref(u[i])) == 0);
    }
    mpq_clear(v);
    em_qcopy_free(&c, n);
    em_qcopy_free(&c, n); /* zeroed: harmless */
    em_problem_clear(&P);
    mpq_clear(eps);
}

START_TEST(copy_words)
{
    enum { N = 9 };
    mpq_t u[N];
    unsigned char ex[N] = {0, 0, 0, 1, 0, 0, 0, 0, 0};
    for (int i = 0; i < N; i++)
        mpq_init(u[i]);
    mpq_set_si(u[0], -7, 1000);
    mpq_set_si(u[1], 0, 1);
    mpq_set_ui(u[2], 123456789, 1000);
    mpz_set_ui(mpq_numref(u[3]), 1);
    mpz_mul_2exp(mpq_numref(u[3]), mpq_numref(u[3]), 200); /* excluded: never read */
    mpq_set_si(u[4], LONG_MIN, 3);
    mpq_set_si(u[5], LONG_MAX, ULONG_MAX);
    mpq_set_si(u[6], 6, 4); /* not canonical: kept as given */
    mpq_set_si(u[7], -1, ULONG_MAX);
    mpq_set_ui(u[8], 5, 1);
    round_trip(N, u, ex, 1);
    /* a numerator past a long: the rationals instead */
    mpz_set_ui(mpq_numref(u[8]), 1);
    mpz_mul_2exp(mpq_numref(u[8]), mpq_numref(u[8]), 63);
    round_trip(N, u, ex, 0);
    /* a denominator past an unsigned long */
    mpq_set_ui(u[8], 1, 1);
    mpz_mul_2exp(mpq_denref(u[8]), mpq_denref(u[8]), 64);
    round_trip(N, u, ex, 0);
    for (int i = 0; i < N; i++)
        mpq_clear(u[i]);
}
END_TEST

START_TEST(qcmp_signs)
{
    enum { N = 16 };
    mpq_t v[N];
    for (int i = 0; i < N; i++)
        mpq_init(v[i]);
    mpq_set_si(v[0], 0, 1);
    mpq_set_si(v[1], 1, 3);
    mpq_set_si(v[2], -1, 3);
    mpq_set_si(v[3], 2, 6); /* 1/3 written differently */
    mpq_set_ui(v[4], ULONG_MAX, 1);
    mpq_set_ui(v[5], ULONG_MAX, ULONG_MAX); /* 1 */
    mpq_set_ui(v[6], 1, 1);
    mpq_set_ui(v[7], ULONG_MAX - 1, ULONG_MAX);
    mpq_set_ui(v[8], ULONG_MAX, ULONG_MAX - 1);
    mpq_set_si(v[9], LONG_MIN, 1);
    mpq_set_si(v[10], LONG_MIN, ULONG_MAX);
    mpz_set_ui(mpq_numref(v[11]), 1);
    mpz_mul_2exp(mpq_numref(v[11]), mpq_numref(v[11]), 64); /* two limbs */
    mpz_neg(mpq_numref(v[12]), mpq_numref(v[11]));
    mpz_set_ui(mpq_denref(v[12]), 3);
    mpq_set_ui(v[13], 1, 1);
    mpz_mul_2exp(mpq_denref(v[13]), mpq_denref(v[13]), 70); /* two-limb denominator */
    mpq_set_si(v[14], -7919, 1000);
    mpq_set_si(v[15], -7918999, 1000000);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            ck_assert_int_eq(sgn(em_qcmp(v[i], v[j])), sgn(mpq_cmp(v[i], v[j])));
    /* the values above are not all distinct: equal pairs are exercised too */
    ck_assert_int_eq(em_qcmp(v[1], v[3]), 0);
    ck_assert_int_eq(em_qcmp(v[5], v[6]), 0);
    for (int i = 0; i < N; i++)
        mpq_clear(v[i]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("qwords");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, copy_words);
    tcase_add_test(tc, qcmp_signs);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
