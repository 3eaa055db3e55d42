/* test_api_score.c: scores from data through the high-level API (src/include/em_scoring.h):
 * the scenario as data (utilities, declared sensitivity and monotonicity, comment lines)
 * for row and aggregated data, em_write's text read back to the same scenario, and
 * every bad entry an error status with a message, never a crash. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expmech.h"
#include "api/em_obj.h"

static em_error err;
static char dir[] = "/tmp/em_test_api_score_XXXXXX";
static char path[128];

static const char *file(const char *name, const char *text)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void utility_is(const em_scn *s, size_t i, const char *want)
{
    char *t = NULL;
    ck_assert_int_eq(em_scn_utility(s, i, &t, &err), EM_OK);
    ck_assert_msg(!strcmp(t, want), "utility %zu: %s, want %s", i, t, want);
    em_free(t);
}

/* The scenario text em_write produces (a memory stream), malloc'd. */
static char *written(const em_scn *s, const char *const *c, size_t nc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.comments = c;
    o.n_comments = nc;
    ck_assert_int_eq(em_write(s, f, &o, &err), EM_OK);
    fclose(f);
    return text;
}

/* b a b c b a with candidates a b c d: counts 2 3 1 0 (by hand), frequency /6, maxnorm /3 */
START_TEST(counts_as_data)
{
    char data[256], cands[256];
    strcpy(data, file("d.txt", "b\na\nb\nc\nb\na\n"));
    strcpy(cands, file("c.txt", "a\nb\nc\nd\n"));
    em_scoring_opts o = EM_SCORING_OPTS_INIT;
    o.function = "frequency";
    o.data = data;
    o.candidates = cands;
    em_scoring *r = NULL;
    ck_assert_int_eq(em_scoring_new(&o, &r, &err), EM_OK);
    ck_assert_str_eq(err.msg, "");
    em_scn *s = em_scoring_get(r).scn;
    ck_assert_uint_eq(em_scn_get(s).size, 4);
    const char *want[] = {"1/3", "0.5", "1/6", "0"};
    for (size_t i = 0; i < 4; i++)
        utility_is(s, i, want[i]);
    ck_assert_str_eq(em_scn_label(s, 1), "b");
    ck_assert_ptr_null(em_scoring_get(r).warning);
    ck_assert_uint_eq(em_scoring_get(r).n_comments, 2);
    ck_assert_ptr_nonnull(strstr(em_scoring_get(r).comments[0], "6 rows, 4 candidates"));
    /* Delta 1/n (substitution, the default): the mechanism picks it up from the scenario */
    em_opts mo = EM_OPTS_INIT;
    mo.epsilon = "1";
    em_mech *m = NULL;
    ck_assert_int_eq(em_mech_new(s, &mo, &m, &err), EM_OK);
    ck_assert_str_eq(em_mech_get(m).sensitivity, "1/6");
    em_free(m);
    em_free(r);

    /* the same data aggregated (counts a 2, b 3, c 1), maxnorm: counts / 3, monotone */
    o.function = "maxnorm";
    strcpy(data, file("g.txt", "a,2\nb,3\nc,1\n"));
    o.aggregated = 1;
    ck_assert_int_eq(em_scoring_new(&o, &r, &err), EM_OK);
    s = em_scoring_get(r).scn;
    const char *want2[] = {"2/3", "1", "1/3", "0"};
    for (size_t i = 0; i < 4; i++)
        utility_is(s, i, want2[i]);
    char *text = written(s, NULL, 0);
    ck_assert_str_eq(text, "# sensitivity: 1\n# monotone: yes\na,2/3\nb,1\nc,1/3\nd,0\n");
    free(text);
    em_free(r);
}
END_TEST

/* median over [0, 10] of 1, 5, 5 (aggregated 1,1 and 5,2), the lower median the second
   row: c in (1, 5) needs one 5 replaced by c (|A (+) B| = 2), c < 1 or c > 5 two rows */
START_TEST(range_median_and_write_round_trip)
{
    em_scoring_opts o = EM_SCORING_OPTS_INIT;
    o.function = "median";
    o.data = file("m.txt", "1,1\n5,2\n");
    o.aggregated = 1;
    o.range = "0:10";
    em_scoring *r = NULL;
    ck_assert_int_eq(em_scoring_new(&o, &r, &err), EM_OK);
    em_scn *s = em_scoring_get(r).scn;
    ck_assert_int_eq(em_scn_get(s).continuous, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(em_scoring_write(f, r, &err), EM_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "# 3 rows, "));
    ck_assert_ptr_nonnull(strstr(text, "# output: continuous\n# sensitivity: 2\n"));
    ck_assert_ptr_nonnull(strstr(text, "\n0,1,-4,0\n1,5,-2,0\n5,10,-4,0\n"));
    /* read back and written again: the same text */
    em_scn *back = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.text = text, .len = len, .name = "back"}, &back, &err), EM_OK);
    const char *c[16];
    size_t nc = em_scoring_get(r).n_comments;
    for (size_t i = 0; i < nc; i++)
        c[i] = em_scoring_get(r).comments[i];
    char *again = written(back, c, nc);
    ck_assert_str_eq(again, text);
    free(again);
    free(text);
    em_free(back);
    em_free(r);
}
END_TEST

/* em_write of scenarios the API built: labels quoted where needed, exact numbers,
   -inf, a base measure, rays */
START_TEST(write_arrays)
{
    const char *u[] = {"0.1", "-inf", "4100/4140"}, *lab[] = {"a,b", "#c", "d"};
    const char *ms[] = {"1", "2", "0"};
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities = u, .labels = lab, .measure = ms}, &s, &err), EM_OK);
    ck_assert_int_eq(em_scn_declare(s, "0.5", 0, &err), EM_OK);
    const char *c[] = {"made by hand"};
    char *text = written(s, c, 1);
    ck_assert_str_eq(text, "# made by hand\n# sensitivity: 0.5\n# monotone: no\n# measure: yes\n"
                           "\"a,b\",0.1,1\n\"#c\",-inf,2\nd,205/207,0\n");
    free(text);
    em_free(s);
    const char *lo[] = {"-inf", "0"}, *hi[] = {"0", "inf"}, *a[] = {"0", "0"}, *b[] = {"1", "-1"};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 2, .lo = lo, .hi = hi, .a = a, .b = b}, &s, &err), EM_OK);
    text = written(s, NULL, 0);
    ck_assert_str_eq(text, "# output: continuous\n-inf,0,0,1\n0,inf,0,-1\n");
    free(text);
    em_free(s);
}
END_TEST

START_TEST(bad_entries)
{
    em_scoring *r = (em_scoring *)1;
    em_scoring_opts o = EM_SCORING_OPTS_INIT;
    ck_assert_int_eq(em_scoring_new(NULL, &r, &err), EM_ERR_NULL);
    ck_assert_ptr_null(r);
    ck_assert_int_ne(err.msg[0], 0);
    ck_assert_int_eq(em_scoring_new(&o, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_scoring_new(&o, &r, &err), EM_ERR_PARSE); /* no function */
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown scoring function"));
    ck_assert_int_eq(em_scoring_known(NULL), 0);
    ck_assert_int_eq(em_scoring_known("max-normalised"), 1);
    ck_assert_int_eq(em_scoring_known("mode"), 0);
    struct { const char *fn, *data, *cands, *alpha; int agg; const char *part; } bad[] = {
        {"count", NULL, "0:3", NULL, 0, "o->data FILE is required"},
        {"count", "/nonexistent/x", "0:3", NULL, 0, "cannot open /nonexistent/x"},
        {"quantile", "@", "0:3", NULL, 0, "o->alpha is required"},
        {"quantile", "@", "0:3", "nan", 0, "not an exact number"},
        {"quantile", "@", "0:3", "1", 0, "strictly between 0 and 1"},
        {"count", "@", "3:0", NULL, 0, "the range is empty"},
        {"count", "@", "0:3:0", NULL, 0, "the step must be > 0"},
        {"median", "@", "0:3", NULL, 1, "one.txt:1: 1 field: o->aggregated reads lines"},
        {"rr", "@", NULL, NULL, 1, "option o->aggregated does not apply to 'rr'"},
        {"laplace", NULL, "0:3", NULL, 1, "o->aggregated needs o->data"},
    };
    char data[256];
    strcpy(data, file("one.txt", "1\n"));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o = (em_scoring_opts)EM_SCORING_OPTS_INIT;
        o.function = bad[i].fn;
        o.data = bad[i].data && !strcmp(bad[i].data, "@") ? data : bad[i].data;
        o.candidates = bad[i].cands;
        o.alpha = bad[i].alpha;
        o.aggregated = bad[i].agg;
        ck_assert_int_eq(em_scoring_new(&o, &r, &err), EM_ERR_PARSE);
        ck_assert_ptr_null(r);
        ck_assert_msg(strstr(err.msg, bad[i].part) != NULL, "%zu: %s", i, err.msg);
        /* the library names its fields, never the command line's options */
        ck_assert_msg(strstr(err.msg, "--") == NULL, "%zu: %s", i, err.msg);
    }
    /* NULL err is fine */
    ck_assert_int_eq(em_scoring_new(&o, &r, NULL), EM_ERR_PARSE);
    ck_assert_int_eq(em_scoring_write(stdout, NULL, &err), EM_ERR_NULL);
    em_free(NULL);
    /* the writer's own checks */
    const char *u[] = {"1"};
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .utilities = u}, &s, &err), EM_OK);
    ck_assert_int_eq(em_write(s, NULL, &(em_write_opts){.comments = NULL, .n_comments = 0}, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_write(NULL, stdout, &(em_write_opts){.comments = NULL, .n_comments = 0}, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_write(s, stdout, &(em_write_opts){.comments = NULL, .n_comments = 1}, &err), EM_ERR_NULL);
    const char *nl[] = {"two\nlines"};
    ck_assert_int_eq(em_write(s, stdout, &(em_write_opts){.comments = nl, .n_comments = 1}, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "comments[0]"));
    em_free(s);
}
END_TEST

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(dir, "/tmp/em_test_api_score_XXXXXX");
}

static Suite *suite(void)
{
    Suite *s = suite_create("api_score");
    TCase *t = tcase_create("score");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, counts_as_data);
    tcase_add_test(t, range_median_and_write_round_trip);
    tcase_add_test(t, write_arrays);
    tcase_add_test(t, bad_entries);
    suite_add_tcase(s, t);
    return s;
}

EM_CHECK_MAIN(suite)
