/* test_api_report.c: the epsilon sweep of the reports (src/include/em_sweep.h): lists kept
 * as given, linear points exact, log-spaced points correctly rounded at 17 digits (values
 * from Python's decimal module, written below), and every bad spec an error status with a
 * message, never a crash. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"

static em_error err;

/* spec (log_spaced) gives exactly the n texts want */
static void sweep_is(const char *spec, int log_spaced, const char *const *want, size_t n)
{
    char **v = NULL;
    size_t k = 0;
    ck_assert_msg(em_epsilon_sweep(spec, log_spaced, &v, &k, &err) == EM_OK, "%s: %s", spec,
                  err.msg);
    ck_assert_str_eq(err.msg, "");
    ck_assert_uint_eq(k, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(!strcmp(v[i], want[i]), "%s point %zu: %s, want %s", spec, i, v[i], want[i]);
    em_free(v);
}

#define SWEEP_IS(spec, log, ...)                                                  \
    do {                                                                          \
        static const char *const w_[] = {__VA_ARGS__};                            \
        sweep_is(spec, log, w_, sizeof w_ / sizeof w_[0]);                        \
    } while (0)

START_TEST(lists_as_given)
{
    SWEEP_IS("2", 0, "2");
    SWEEP_IS("0.5,1e-3,1/3,0x1p-2", 0, "0.5", "1e-3", "1/3", "0x1p-2");
    SWEEP_IS("3,1,3", 0, "3", "1", "3"); /* the order given, repeats kept */
    SWEEP_IS("1e-400", 0, "1e-400");
}
END_TEST

START_TEST(linear_exact)
{
    /* the seed's grid np.arange(0.001, 100, 10): 0.001 + 10 k, k = 0..9 */
    char want[10][16];
    const char *w[10];
    for (int k = 0; k < 10; k++) {
        snprintf(want[k], sizeof want[k], "%d.001", 10 * k);
        w[k] = want[k];
    }
    sweep_is("0.001:90.001:10", 0, w, 10);
    /* thirds do not terminate: num/den */
    SWEEP_IS("1:2:4", 0, "1", "4/3", "5/3", "2");
    SWEEP_IS("1/2:1:3", 0, "0.5", "0.75", "1");
    /* 40 digits still a decimal: 1 + k 10^-39 */
    SWEEP_IS("1:1.000000000000000000000000000000000000002:3", 0, "1",
             "1.000000000000000000000000000000000000001",
             "1.000000000000000000000000000000000000002");
    /* the largest N: points 1, 2, ..., 100000 */
    char **v = NULL;
    size_t n = 0;
    ck_assert_int_eq(em_epsilon_sweep("1:100000:100000", 0, &v, &n, &err), EM_OK);
    ck_assert_uint_eq(n, EM_SWEEP_MAX);
    char t[24];
    for (size_t i = 0; i < n; i += 9973) {
        snprintf(t, sizeof t, "%zu", i + 1);
        ck_assert_str_eq(v[i], t);
    }
    em_free(v);
}
END_TEST

START_TEST(log_rounded)
{
    /* exact powers of 10: the points are exact, written without trailing zeros */
    SWEEP_IS("0.01:100:5", 1, "0.01", "0.1", "1", "10", "100");
    /* Decimal(2).sqrt() at 60 digits = 1.41421356237309504880...: 17 digits 1.4142135623730950
       (the double nearest sqrt 2, 1.4142135623730951, is not what is asked) */
    SWEEP_IS("1:2:3", 1, "1", "1.414213562373095", "2");
    /* Decimal(10) ** (Decimal(1)/3) = 2.15443469003188372175..., ** (2/3) = 4.64158883361277889241... */
    SWEEP_IS("1:10:4", 1, "1", "2.1544346900318837", "4.6415888336127789", "10");
    /* the ends exact even when they have more than 17 digits */
    SWEEP_IS("1:10.000000000000000000001:2", 1, "1", "10.000000000000000000001");
    /* rational inner points that are ties at 17 digits: to even.  1.00000000000000015^2 =
       1.0000000000000003000000000000000225 and 1.00000000000000005^2 =
       1.0000000000000001000000000000000025 (Decimal, exact) */
    SWEEP_IS("1:1.0000000000000003000000000000000225:3", 1, "1", "1.0000000000000002",
             "1.0000000000000003000000000000000225");
    SWEEP_IS("1:1.0000000000000001000000000000000025:3", 1, "1", "1",
             "1.0000000000000001000000000000000025");
    /* HI/LO = 100: the middle is 0.001 100^(1/2) = 0.01 */
    SWEEP_IS("0.001:0.1:3", 1, "0.001", "0.01", "0.1");
}
END_TEST

START_TEST(bad_specs)
{
    static const struct {
        const char *spec;
        int log_spaced, status;
        const char *msg; /* a part of the message */
    } bad[] = {
        {"", 0, EM_ERR_PARSE, "empty number"},
        {"1:2", 0, EM_ERR_PARSE, "expected E, E1,E2,... or LO:HI:N"},
        {"1:2:3:4", 0, EM_ERR_PARSE, "LO:HI:N"},
        {"1:2:1", 0, EM_ERR_PARSE, "must be 2 to 100000"},
        {"1:2:0", 0, EM_ERR_PARSE, "must be 2 to 100000"},
        {"1:2:100001", 0, EM_ERR_PARSE, "must be 2 to 100000"},
        {"1:2:99999999999999999999999", 0, EM_ERR_PARSE, "must be 2 to 100000"},
        {"1:2:x", 0, EM_ERR_PARSE, "bad number of points 'x'"},
        {"1:2:3x", 0, EM_ERR_PARSE, "bad number of points '3x'"},
        {"1:2:", 0, EM_ERR_PARSE, "bad number of points ''"},
        {"1:2:+3", 0, EM_ERR_PARSE, "digits expected"},
        {"2:1:3", 0, EM_ERR_PARSE, "LO must be below HI"},
        {"1:1:3", 1, EM_ERR_PARSE, "LO must be below HI"},
        {"0:1:3", 0, EM_ERR_EPSILON, "bad number '0': must be > 0"},
        {"0:1:4", 0, EM_ERR_EPSILON, "must be > 0"},
        {"-1:1:3", 1, EM_ERR_EPSILON, "must be > 0"},
        {"-1", 0, EM_ERR_EPSILON, "bad number '-1': must be > 0"},
        {"0", 0, EM_ERR_EPSILON, "must be > 0"},
        {"1,0", 0, EM_ERR_EPSILON, "bad number '0': must be > 0"},
        {"nan", 0, EM_ERR_PARSE, "bad number 'nan': NaN"},
        {"inf", 0, EM_ERR_PARSE, "bad number 'inf'"},
        {"1:inf:3", 0, EM_ERR_PARSE, "bad number 'inf'"},
        {"1,,2", 0, EM_ERR_PARSE, "bad number '': empty number"},
        {"1,", 0, EM_ERR_PARSE, "empty number"},
        {",1", 0, EM_ERR_PARSE, "empty number"},
        {"1, 2", 0, EM_ERR_PARSE, "bad number ' 2'"},
        {"1,x", 0, EM_ERR_PARSE, "bad number 'x'"},
        {"2", 1, EM_ERR_PARSE, "expected LO:HI:N"},
        {"1,2", 1, EM_ERR_PARSE, "expected LO:HI:N"},
        /* (10^10000 - 10^-10000)/2 has 20001 digits: more than a number may have */
        {"1e-10000:1e10000:3", 0, EM_ERR_PARSE, "point 2: too many digits"},
        /* 10^5 points of about 2 x 1000 digits (the step has the factor 1/99999) */
        {"1e-1000:1:100000", 0, EM_ERR_PARSE, "pass 64 MiB"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char **v = (char **)&err; /* not NULL: must come back NULL */
        size_t n = 7;
        int st = em_epsilon_sweep(bad[i].spec, bad[i].log_spaced, &v, &n, &err);
        ck_assert_msg(st == bad[i].status, "'%s': status %d, want %d (%s)", bad[i].spec, st,
                      bad[i].status, err.msg);
        ck_assert_int_eq(err.status, st);
        ck_assert_msg(strstr(err.msg, bad[i].msg), "'%s': message '%s' lacks '%s'", bad[i].spec,
                      err.msg, bad[i].msg);
        ck_assert_ptr_null(v);
        ck_assert_uint_eq(n, 0);
    }
    /* more than EM_SWEEP_MAX values in a list */
    size_t len = 2 * (EM_SWEEP_MAX + 1);
    char *many = malloc(len);
    ck_assert_ptr_nonnull(many);
    for (size_t i = 0; i < len; i += 2) {
        many[i] = '1';
        many[i + 1] = ',';
    }
    many[len - 1] = 0;
    char **v = NULL;
    size_t n = 0;
    ck_assert_int_eq(em_epsilon_sweep(many, 0, &v, &n, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "more than 100000"));
    many[len - 3] = 0; /* exactly EM_SWEEP_MAX */
    ck_assert_int_eq(em_epsilon_sweep(many, 0, &v, &n, &err), EM_OK);
    ck_assert_uint_eq(n, EM_SWEEP_MAX);
    em_free(v);
    free(many);
}
END_TEST

START_TEST(null_args)
{
    char **v = NULL;
    size_t n = 0;
    ck_assert_int_eq(em_epsilon_sweep(NULL, 0, &v, &n, &err), EM_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(err.msg, "spec"));
    ck_assert_int_eq(em_epsilon_sweep("1", 0, NULL, &n, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_epsilon_sweep("1", 0, &v, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_epsilon_sweep("1", 0, NULL, NULL, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_epsilon_sweep("x", 0, &v, &n, NULL), EM_ERR_PARSE); /* err may be NULL */
    ck_assert_int_eq(em_epsilon_sweep("1:2:3", 1, &v, &n, NULL), EM_OK);
    em_free(v);
    em_free(NULL);
}
END_TEST

/* every text of a sweep is accepted by em_mech_new as that epsilon */
START_TEST(texts_make_mechanisms)
{
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.text = "a,1\nb,0\n", .len = 8, .name = NULL}, &s, &err), EM_OK);
    static const char *const specs[] = {"1:2:4", "1:10:4", "0.5,1/3,0x1p-2"};
    for (size_t j = 0; j < 3; j++) {
        char **v = NULL;
        size_t n = 0;
        ck_assert_int_eq(em_epsilon_sweep(specs[j], j == 1, &v, &n, &err), EM_OK);
        for (size_t i = 0; i < n; i++) {
            em_opts o = EM_OPTS_INIT;
            o.epsilon = v[i];
            em_mech *m = NULL;
            ck_assert_msg(em_mech_new(s, &o, &m, &err) == EM_OK, "%s: %s", v[i], err.msg);
            em_free(m);
        }
        em_free(v);
    }
    em_free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("api_report");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, lists_as_given);
    tcase_add_test(tc, linear_exact);
    tcase_add_test(tc, log_rounded);
    tcase_add_test(tc, bad_specs);
    tcase_add_test(tc, null_args);
    tcase_add_test(tc, texts_make_mechanisms);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
