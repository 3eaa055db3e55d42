/* test_scn_binary.c: em_scn_new_d (utilities as doubles) reads every double as the exact
 * rational its hex form denotes, into the same compact code the text parser gives it
 * (em_scn_new over "%a" text is the reference: no code shared with the binary path but
 * the scenario storage), refuses NaN and +inf with em_scn_new's messages; em_probs_text
 * is em_probs_get line by line. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "expmech.h"
#include "io/em_scn_text.h"

static em_error err;

/* the text constructor over the doubles' hex forms */
static em_scn *scn_text(size_t n, const double *u)
{
    char **t = calloc(n, sizeof *t);
    ck_assert_ptr_nonnull(t);
    for (size_t i = 0; i < n; i++)
        if (!(isinf(u[i]) && u[i] < 0))
            ck_assert_int_ge(asprintf(&t[i], "%a", u[i]), 0);
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = n, .utilities = (const char *const *)t}, &s, &err), EM_OK);
    for (size_t i = 0; i < n; i++)
        free(t[i]);
    free(t);
    return s;
}

static void same_scenario(em_scn *a, em_scn *b)
{
    ck_assert_uint_eq(a->n, b->n);
    mpq_t x, y;
    mpq_inits(x, y, (mpq_ptr)0);
    for (size_t i = 0; i < a->n; i++) {
        ck_assert_int_eq(a->excluded[i], b->excluded[i]);
        em_scn_get_u(a, i, x);
        em_scn_get_u(b, i, y);
        ck_assert_msg(mpq_equal(x, y), "candidate %zu: utilities differ", i);
        ck_assert_msg(a->ucode[i] == b->ucode[i] && a->uv[i] == b->uv[i],
                      "candidate %zu: compact codes differ", i);
        ck_assert_str_eq(a->labels[i], b->labels[i]);
        ck_assert_int_eq(em_scn_find(a, b->labels[i]), (int)i);
    }
    mpq_clears(x, y, (mpq_ptr)0);
}

START_TEST(doubles_read_as_their_hex_text)
{
    enum { N = 4000 };
    static double u[N];
    const double fixed[] = {0.0, -0.0, 1.0, -1.0, 0.1, -12.345, 4.9e-324, -4.9e-324,
                            2.2250738585072014e-308, 1.7976931308623157e308, -1.7976931308623157e308,
                            4611686018427387904.0 /* 2^62 */, 4611686018427387904.0 * 0.75,
                            9007199254740993.0, 1e22, -1e300, 123456789012345678.0, -INFINITY,
                            0.5, 3.0, 1e-5};
    const size_t nf = sizeof fixed / sizeof fixed[0];
    uint64_t st = 20261128;
    for (size_t i = 0; i < N; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        if (i < nf)
            u[i] = fixed[i];
        else if (i % 4 == 0)
            u[i] = -(double)i / 1000.0;            /* the benchmarks' utilities */
        else if (i % 4 == 1)
            u[i] = (double)(int64_t)(st >> 1) / 8.0; /* integers and eighths up to 2^60 */
        else if (i % 4 == 2) {
            uint64_t b = st;                         /* any finite double */
            double d;
            memcpy(&d, &b, sizeof d);
            u[i] = isfinite(d) ? d : 1.5;
        } else
            u[i] = (double)(int32_t)(st >> 32);      /* small integers */
    }
    em_scn *a = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = N, .utilities_d = u}, &a, &err), EM_OK);
    ck_assert_str_eq(err.msg, "");
    em_scn *b = scn_text(N, u);
    same_scenario(a, b);
    em_free(a);
    em_free(b);
}
END_TEST

START_TEST(bad_doubles_name_the_element)
{
    double u[3] = {0, 1, NAN};
    em_scn *s = (em_scn *)1;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities_d = u}, &s, &err), EM_ERR_PARSE);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(err.msg, "utilities[2]: bad number 'nan': NaN is not a number");
    u[2] = INFINITY;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities_d = u}, &s, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "utilities[2]: bad number 'inf'"));
    u[2] = 2;
    double m[3] = {1, -1, 1};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities_d = u, .measure_d = m}, &s, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "measure[1]"));
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 0, .utilities_d = u}, &s, &err), EM_ERR_EMPTY);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .measure_d = m}, &s, &err), EM_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(err.msg, "utilities_d is NULL"));
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities_d = u}, NULL, &err), EM_ERR_NULL);
    double x[2] = {-INFINITY, -INFINITY};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 2, .utilities_d = x}, &s, &err), EM_OK);
    ck_assert_uint_eq(em_scn_get(s).size, 2);
    em_free(s);
}
END_TEST

/* em_probs_text over em_scn_new_d against em_probs_get over the hex text, a measure too */
START_TEST(probs_in_one_buffer)
{
    double u[6] = {0.1, -INFINITY, 3, -2.5, 1e-3, 0.1};
    double m[6] = {1, 1, 0.5, 2, 0, 1};
    for (int with_m = 0; with_m < 2; with_m++) {
        em_scn *a = NULL, *b = NULL;
        ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 6, .utilities_d = u, .measure_d = with_m ? m : NULL}, &a, &err), EM_OK);
        if (with_m) {
            const char *ut[6] = {"0x1.999999999999ap-4", "-inf", "3", "-2.5", "0x1.0624dd2f1a9fcp-10",
                                 "0x1.999999999999ap-4"};
            const char *mt[6] = {"1", "1", "0.5", "2", "0", "1"};
            ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 6, .utilities = ut, .measure = mt}, &b, &err), EM_OK);
        } else {
            b = scn_text(6, u);
        }
        em_opts o = EM_OPTS_INIT;
        o.epsilon = "1.5";
        o.digits = 30;
        em_mech *ma = NULL, *mb = NULL;
        ck_assert_int_eq(em_mech_new(a, &o, &ma, &err), EM_OK);
        ck_assert_int_eq(em_mech_new(b, &o, &mb, &err), EM_OK);
        for (int lg = 0; lg < 2; lg++) {
            char *text = NULL;
            size_t len = 0;
            ck_assert_int_eq(em_probs_text(ma, lg, &text, &len, &err), EM_OK);
            ck_assert_uint_eq(len, strlen(text));
            char want[4096] = "";
            for (size_t i = 0; i < 6; i++) {
                em_prob p;
                ck_assert_int_eq(em_probs_get(mb, i, &p, &err), EM_OK);
                strcat(want, lg ? p.logprob : p.prob);
                strcat(want, "\n");
            }
            ck_assert_str_eq(text, want);
            em_free(text);
        }
        char *t = (char *)1;
        ck_assert_int_eq(em_probs_text(NULL, 0, &t, NULL, &err), EM_ERR_NULL);
        em_free(ma);
        em_free(mb);
        em_free(a);
        em_free(b);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scn_binary");
    TCase *tc = tcase_create("scn_binary");
    tcase_add_test(tc, doubles_read_as_their_hex_text);
    tcase_add_test(tc, bad_doubles_name_the_element);
    tcase_add_test(tc, probs_in_one_buffer);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
