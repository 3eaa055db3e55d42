/* test_api_scn.c: scenarios and mechanisms of the high-level API (src/include/em_scn.h):
 * arrays and text read alike, every error path returns a status and a message naming
 * the element, and the parameter rule refuses what would weaken the declared privacy. */
#include "em_check_main.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"

static em_error err;

START_TEST(arrays_read_like_text)
{
    const char *u[] = {"1", "0.1", "0x1.8p1", "-inf", "4100/4140"};
    const char *lab[] = {"a", "b,c", "\"q\"", "d", " e"};
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 5, .utilities = u, .labels = lab}, &s, &err), EM_OK);
    ck_assert_str_eq(err.msg, "");
    ck_assert_uint_eq(em_scn_get(s).size, 5);
    ck_assert_int_eq(em_scn_get(s).continuous, 0);
    ck_assert_str_eq(em_scn_label(s, 1), "b,c");
    ck_assert_str_eq(em_scn_label(s, 2), "\"q\"");
    ck_assert_str_eq(em_scn_label(s, 4), " e");
    ck_assert_ptr_null(em_scn_label(s, 5));
    ck_assert_int_eq(em_scn_find(s, "d"), 3);
    ck_assert_int_eq(em_scn_find(s, "zz"), -1);
    const char *want[] = {"1", "0.1", "3", "-inf", "205/207"};
    for (size_t i = 0; i < 5; i++) {
        char *t = NULL;
        ck_assert_int_eq(em_scn_utility(s, i, &t, &err), EM_OK);
        ck_assert_str_eq(t, want[i]);
        em_free(t);
    }
    char *t = (char *)1;
    ck_assert_int_eq(em_scn_utility(s, 5, &t, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_null(t);
    em_free(s);
}
END_TEST

START_TEST(default_labels_are_indices)
{
    const char *u[] = {"2", NULL, "3"};
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities = u}, &s, NULL), EM_OK);
    ck_assert_str_eq(em_scn_label(s, 0), "0");
    ck_assert_str_eq(em_scn_label(s, 2), "2");
    char *t;
    ck_assert_int_eq(em_scn_utility(s, 1, &t, NULL), EM_OK);
    ck_assert_str_eq(t, "-inf");
    em_free(t);
    em_free(s);
}
END_TEST

/* each bad array: the status, and a message naming the element */
START_TEST(bad_arrays_name_the_element)
{
    struct { const char *u1; const char *l1; const char *m1; int st; const char *part; } rows[] = {
        {"nan", "b", NULL, EM_ERR_PARSE, "utilities[1]"},
        {"inf", "b", NULL, EM_ERR_PARSE, "utilities[1]"},
        {"1,2", "b", NULL, EM_ERR_PARSE, "utilities[1]"},
        {"", "b", NULL, EM_ERR_PARSE, "utilities[1]"},
        {"1", "a", NULL, EM_ERR_PARSE, "labels[1]"},       /* duplicate of labels[0] */
        {"1", "", NULL, EM_ERR_PARSE, "labels[1] is empty"},
        {"1", "x\ny", NULL, EM_ERR_PARSE, "line break"},
        {"1", "b", "-1", EM_ERR_PARSE, "measure[1]"},
        {"1", "b", "abc", EM_ERR_PARSE, "measure[1]"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const char *u[] = {"0", rows[k].u1};
        const char *l[] = {"a", rows[k].l1};
        const char *m[] = {"1", rows[k].m1};
        em_scn *s = (em_scn *)1;
        int st = em_scn_new(&(em_scn_spec){.n = 2, .utilities = u, .labels = l, .measure = rows[k].m1 ? m : NULL}, &s, &err);
        ck_assert_msg(st == rows[k].st, "row %zu: status %d", k, st);
        ck_assert_int_eq(err.status, st);
        ck_assert_ptr_null(s);
        ck_assert_msg(strstr(err.msg, rows[k].part), "row %zu: '%s' lacks '%s'", k, err.msg, rows[k].part);
    }
    em_scn *s = (em_scn *)1;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 0, .utilities = (const char *const[]){"1"}}, &s, &err), EM_ERR_EMPTY);
    /* one form, and only its fields */
    const char *const one[] = {"1"};
    const double oned[] = {1.0};
    ck_assert_int_eq(em_scn_new(NULL, &s, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1}, &s, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "em_scn_new: give one of utilities"));
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .utilities = one, .utilities_d = oned},
                                &s, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .utilities = one, .lo = one}, &s, &err),
                     EM_ERR_DOMAIN);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .utilities_d = oned, .labels = one},
                                &s, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .b = one}, &s, &err), EM_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(err.msg, "lo, hi or a is NULL"));
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .labels = one}, &s, &err), EM_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(err.msg, "utilities is NULL"));
    ck_assert_ptr_null(s);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .utilities = (const char *const[]){"1"}}, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.text = NULL, .len = 3, .name = "x"}, &s, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.text = "", .len = 0, .name = "x"}, &s, &err), EM_ERR_PARSE);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.path = "/nonexistent/file.csv"}, &s, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/file.csv"));
    /* a file and its text at once: two forms */
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.path = "-", .text = "a,1\n", .len = 4}, &s,
                                &err), EM_ERR_DOMAIN);
    ck_assert_ptr_null(s);
}
END_TEST

START_TEST(pieces)
{
    const char *lo[] = {"-inf", "0", "1"}, *hi[] = {"0", "1", "inf"};
    const char *a[] = {"0", "0", "1"}, *b[] = {"1", "0", "-1"};
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .lo = lo, .hi = hi, .a = a, .b = b}, &s, &err), EM_OK);
    ck_assert_int_eq(em_scn_get(s).continuous, 1);
    ck_assert_uint_eq(em_scn_get(s).pieces, 3);
    ck_assert_uint_eq(em_scn_get(s).size, 0);
    em_free(s);
    /* the tiling (no gap, no overlap) is the law's to check: em_law.h */
    const char *a2[] = {"0", "x", "1"};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .lo = lo, .hi = hi, .a = a2}, &s, &err), EM_ERR_PARSE);
    ck_assert_msg(strstr(err.msg, "pieces[1]"), "%s", err.msg);
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 0, .lo = lo, .hi = hi, .a = a, .b = b}, &s, &err), EM_ERR_EMPTY);
}
END_TEST

START_TEST(parameter_rule)
{
    const char *text = "# sensitivity: 2\na,1\nb,2\n";
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.text = text, .len = strlen(text), .name = "h.csv"}, &s, &err), EM_OK);
    em_opts o = EM_OPTS_INIT;
    em_mech *m = (em_mech *)1;
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_ERR_EPSILON);
    ck_assert_ptr_null(m);
    o.epsilon = "0.5";
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    ck_assert_str_eq(em_mech_get(m).sensitivity, "2");
    ck_assert_str_eq(em_mech_get(m).epsilon, "0.5");
    ck_assert_int_eq(em_mech_get(m).variant, EM_STANDARD);
    ck_assert_int_eq(em_mech_get(m).digits, 17);
    ck_assert_ptr_eq(em_mech_get(m).scn, s);
    ck_assert_str_eq(em_mech_get(m).provenance, "variant standard (default), sensitivity 2 (header of h.csv)");
    em_free(m);
    o.sensitivity = "1"; /* below the header: refused */
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "below the sensitivity 2"));
    o.force = 1;
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    ck_assert_int_eq(em_mech_get(m).forced, 1);
    ck_assert_ptr_nonnull(strstr(em_mech_get(m).provenance, "FORCED"));
    em_free(m);
    o.force = 0;
    o.sensitivity = NULL;
    o.variant = EM_MONOTONE; /* undeclared: refused */
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "monotone"));
    ck_assert_int_eq(em_scn_declare(s, NULL, 1, &err), EM_OK);
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    ck_assert_int_eq(em_mech_get(m).variant, EM_MONOTONE);
    em_free(m);
    struct { const char *eps, *sens; int var, digits, st; } bad[] = {
        {"0", NULL, EM_VARIANT_AUTO, 0, EM_ERR_EPSILON},
        {"-1", NULL, EM_VARIANT_AUTO, 0, EM_ERR_EPSILON},
        {"nan", NULL, EM_VARIANT_AUTO, 0, EM_ERR_PARSE},
        {"inf", NULL, EM_VARIANT_AUTO, 0, EM_ERR_PARSE},
        {"1", "0", EM_VARIANT_AUTO, 0, EM_ERR_SENSITIVITY},
        {"1", "x", EM_VARIANT_AUTO, 0, EM_ERR_PARSE},
        {"1", NULL, 7, 0, EM_ERR_VARIANT},
        {"1", NULL, EM_VARIANT_AUTO, 1001, EM_ERR_DOMAIN},
        {"1", NULL, EM_VARIANT_AUTO, -1, EM_ERR_DOMAIN},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        em_opts b = {bad[k].eps, bad[k].sens, bad[k].var, 0, bad[k].digits};
        ck_assert_msg(em_mech_new(s, &b, &m, &err) == bad[k].st, "row %zu: %s", k, err.msg);
        ck_assert_msg(err.msg[0], "row %zu: no message", k);
    }
    ck_assert_int_eq(em_scn_declare(s, "0", 0, &err), EM_ERR_SENSITIVITY);
    ck_assert_int_eq(em_scn_declare(s, "1/0", 0, &err), EM_ERR_PARSE);
    em_free(s);
}
END_TEST

START_TEST(all_excluded_and_pf_on_pieces)
{
    const char *u[] = {"-inf", "-inf"};
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 2, .utilities = u}, &s, &err), EM_OK);
    em_opts o = {"1", NULL, EM_VARIANT_AUTO, 0, 0};
    em_mech *m;
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_ERR_ALL_EXCLUDED);
    em_free(s);
    const char *lo[] = {"0"}, *hi[] = {"1"}, *a[] = {"0"};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .lo = lo, .hi = hi, .a = a}, &s, &err), EM_OK);
    o.variant = EM_PF;
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_ERR_VARIANT);
    ck_assert_ptr_nonnull(strstr(err.msg, "continuous"));
    em_free(s);
}
END_TEST

/* em_example's list names every example once, each a scenario em_scn_new reads by its name
 * (the small ones: median-worst has 10^6 + 1 candidates) */
START_TEST(examples_listed_and_read)
{
    char *list = NULL, *text = NULL;
    ck_assert_int_eq(em_example(NULL, &list, &err), EM_OK);
    ck_assert_int_eq(strncmp(list, "marital\t", 8), 0);
    size_t n = 0;
    for (char *l = list, *tab; (tab = strchr(l, '\t')); l = strchr(tab, '\n') + 1, n++) {
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(tab - l), l);
        if (!strcmp(name, "median-worst"))
            continue;
        ck_assert_msg(em_example(name, &text, &err) == EM_OK, "%s: %s", name, err.msg);
        em_scn *s = NULL;
        ck_assert_msg(em_scn_new(&(em_scn_spec){.text = text, .len = strlen(text), .name = name},
                                 &s, &err) == EM_OK, "%s: %s", name, err.msg);
        em_free(s);
        em_free(text);
    }
    ck_assert_uint_eq(n, 10);
    em_free(list);
    ck_assert_int_eq(em_example("nope", &text, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_null(text);
    ck_assert_int_eq(em_example(NULL, NULL, &err), EM_ERR_NULL);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("api_scn");
    TCase *tc = tcase_create("api_scn");
    tcase_add_test(tc, arrays_read_like_text);
    tcase_add_test(tc, default_labels_are_indices);
    tcase_add_test(tc, bad_arrays_name_the_element);
    tcase_add_test(tc, pieces);
    tcase_add_test(tc, parameter_rule);
    tcase_add_test(tc, all_excluded_and_pf_on_pieces);
    tcase_add_test(tc, examples_listed_and_read);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
