/* test_params.c: em_strerror and em_check_params (src/core/em_params.h). */
#include "em_check_main.h"
#include <limits.h>

#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define FIRST_CODE EM_OK
#define LAST_CODE EM_ERR_OVERFLOW

START_TEST(strerror_every_code_distinct)
{
    ck_assert_int_eq(LAST_CODE, 14); /* the header's list: 0 .. 14 */
    for (int a = FIRST_CODE; a <= LAST_CODE; a++) {
        const char *ma = em_strerror(a);
        ck_assert_msg(ma != NULL && ma[0] != '\0', "code %d: empty message", a);
        ck_assert_msg(strlen(ma) < 200, "code %d: message unreasonably long", a);
        for (int b = FIRST_CODE; b < a; b++)
            ck_assert_msg(strcmp(ma, em_strerror(b)) != 0, "codes %d and %d share '%s'", a, b, ma);
        /* static: the same pointer every call */
        ck_assert_ptr_eq(ma, em_strerror(a));
    }
}
END_TEST

START_TEST(strerror_mentions_subject)
{
    /* each message names what went wrong (case-insensitive word check) */
    struct { int code; const char *word; } w[] = {
        {EM_ERR_NULL, "null"},       {EM_ERR_EMPTY, "empty"},      {EM_ERR_TOO_MANY, "many"},
        {EM_ERR_NAN, "nan"},         {EM_ERR_POS_INF, "inf"},      {EM_ERR_ALL_EXCLUDED, "exclud"},
        {EM_ERR_EPSILON, "epsilon"}, {EM_ERR_SENSITIVITY, "sensitivity"}, {EM_ERR_VARIANT, "variant"},
        {EM_ERR_RNG, "random"},      {EM_ERR_NOMEM, "memory"},     {EM_ERR_DOMAIN, "range"},
        {EM_ERR_PARSE, "malformed"}, {EM_ERR_OVERFLOW, "fit"},
    };
    for (size_t i = 0; i < N_OF(w); i++) {
        const char *m = em_strerror(w[i].code);
        ck_assert_msg(strcasestr(m, w[i].word) != NULL, "code %d: '%s' lacks '%s'", w[i].code, m, w[i].word);
    }
}
END_TEST

START_TEST(strerror_unknown_codes)
{
    const int unknown[] = {-1, 15, 16, 100, INT_MAX, INT_MIN, -14};
    for (size_t i = 0; i < N_OF(unknown); i++) {
        const char *m = em_strerror(unknown[i]);
        ck_assert_msg(m != NULL && m[0] != '\0', "code %d", unknown[i]);
        /* an unknown code never reads as success or as a known error */
        for (int c = FIRST_CODE; c <= LAST_CODE; c++)
            ck_assert_msg(strcmp(m, em_strerror(c)) != 0, "unknown code %d reads as code %d", unknown[i], c);
    }
    ck_assert_str_eq(em_strerror(-1), em_strerror(INT_MAX));
}
END_TEST

START_TEST(params_ok)
{
    const double good[] = {1.0, 0.5, 1e-12, 1e12, DBL_MAX, DBL_MIN, 0x1p-1074, 4.9e-324, 2.2e-310,
                           nextafter(DBL_MAX, 0)};
    for (size_t i = 0; i < N_OF(good); i++)
        for (size_t j = 0; j < N_OF(good); j++) {
            ck_assert_msg(em_check_params(good[i], good[j], EM_STANDARD) == EM_OK, "eps %g delta %g", good[i], good[j]);
            ck_assert_msg(em_check_params(good[i], good[j], EM_MONOTONE) == EM_OK, "eps %g delta %g", good[i], good[j]);
        }
}
END_TEST

START_TEST(params_bad_epsilon)
{
    const double bad[] = {0.0, -0.0, -1.0, -0x1p-1074, -DBL_MAX, NAN, -NAN, HUGE_VAL, -HUGE_VAL};
    for (size_t i = 0; i < N_OF(bad); i++) {
        ck_assert_msg(em_check_params(bad[i], 1.0, EM_STANDARD) == EM_ERR_EPSILON, "eps %g", bad[i]);
        ck_assert_msg(em_check_params(bad[i], 1.0, EM_MONOTONE) == EM_ERR_EPSILON, "eps %g", bad[i]);
        /* epsilon is reported first, whatever else is wrong */
        ck_assert_msg(em_check_params(bad[i], bad[i], 7) == EM_ERR_EPSILON, "eps %g", bad[i]);
        ck_assert_msg(em_check_params(bad[i], NAN, -1) == EM_ERR_EPSILON, "eps %g", bad[i]);
    }
}
END_TEST

START_TEST(params_bad_delta)
{
    const double bad[] = {0.0, -0.0, -1.0, -0x1p-1074, -DBL_MAX, NAN, -NAN, HUGE_VAL, -HUGE_VAL};
    for (size_t i = 0; i < N_OF(bad); i++) {
        ck_assert_msg(em_check_params(1.0, bad[i], EM_STANDARD) == EM_ERR_SENSITIVITY, "delta %g", bad[i]);
        ck_assert_msg(em_check_params(DBL_MAX, bad[i], EM_MONOTONE) == EM_ERR_SENSITIVITY, "delta %g", bad[i]);
        /* the sensitivity is reported before the variant */
        ck_assert_msg(em_check_params(1.0, bad[i], 2) == EM_ERR_SENSITIVITY, "delta %g", bad[i]);
    }
}
END_TEST

START_TEST(params_bad_variant)
{
    const int bad[] = {2, 3, -1, 100, INT_MAX, INT_MIN};
    for (size_t i = 0; i < N_OF(bad); i++) {
        ck_assert_int_eq(em_check_params(1.0, 1.0, bad[i]), EM_ERR_VARIANT);
        ck_assert_int_eq(em_check_params(0x1p-1074, DBL_MAX, bad[i]), EM_ERR_VARIANT);
    }
    ck_assert_int_eq(EM_STANDARD, 0);
    ck_assert_int_eq(EM_MONOTONE, 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("strerror");
    tcase_add_test(tc, strerror_every_code_distinct);
    tcase_add_test(tc, strerror_mentions_subject);
    tcase_add_test(tc, strerror_unknown_codes);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("check_params");
    tcase_add_test(tp, params_ok);
    tcase_add_test(tp, params_bad_epsilon);
    tcase_add_test(tp, params_bad_delta);
    tcase_add_test(tp, params_bad_variant);
    suite_add_tcase(s, tp);
    return s;
}

EM_CHECK_MAIN(suite)
