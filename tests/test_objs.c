/* test_objs.c: the object arrays of num/ (em_objs.h, and through it em_q_array_new and
 * em_mpfr_array_new): every element initialised (a rational reads 0, an MPFR number has
 * the precision asked for and is NaN, as mpfr_init2 leaves it), n == 0 gives a usable
 * array, a size whose product with n overflows gives NULL without calling init, and
 * freeing NULL is harmless. */
#include "em_check_main.h"
#include <check.h>
#include <stdint.h>

#include <gmp.h>
#include <mpfr.h>

#include "num/em_bounds.h"
#include "num/em_objs.h"
#include "num/em_rational.h"

static int init_calls;

static void count_init(void *x, long arg)
{
    (void)x;
    (void)arg;
    init_calls++;
}

START_TEST(q_array)
{
    mpq_t *a = em_q_array_new(5);
    ck_assert_ptr_nonnull(a);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(mpq_sgn(a[i]), 0);
        mpq_set_si(a[i], -i, 7);  /* each element its own storage */
    }
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(mpq_cmp_si(a[i], -i, 7), 0);
    em_q_array_free(a, 5);
    em_q_array_free(NULL, 5);
    a = em_q_array_new(0);
    ck_assert_ptr_nonnull(a);
    em_q_array_free(a, 0);
}
END_TEST

START_TEST(mpfr_array)
{
    mpfr_t *a = em_mpfr_array_new(3, 113);
    ck_assert_ptr_nonnull(a);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(mpfr_get_prec(a[i]), 113);
        ck_assert(mpfr_nan_p(a[i]));
        mpfr_set_si(a[i], 10 * i + 1, MPFR_RNDN);
    }
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(mpfr_cmp_si(a[i], 10 * i + 1), 0);
    em_mpfr_array_free(a, 3);
    em_mpfr_array_free(NULL, 3);
}
END_TEST

START_TEST(overflow)
{
    init_calls = 0;
    ck_assert_ptr_null(em_objs_new(SIZE_MAX / 16 + 1, 16, count_init, 0));
    ck_assert_int_eq(init_calls, 0);
    void *a = em_objs_new(4, 16, count_init, 0);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(init_calls, 4);
    em_objs_free(a, 0, 16, NULL);  /* no element to clear */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("objs");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, q_array);
    tcase_add_test(tc, mpfr_array);
    tcase_add_test(tc, overflow);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
