/* test_api_judge.c: check, compare and audit of the high-level API (src/include/em_judge.h).
 * Expected values are computed by hand or by another tool (stated beside each), never by
 * the code under test; every entry refuses bad input with a status and a message. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expmech.h"
#include "api/em_judge_priv.h"

static em_error err;

/* A finite mechanism on utilities u (labels lab, NULL: indices) at epsilon eps (and
 * sensitivity sens, NULL: 1); the scenario is freed with the mechanism by mech_free. */
static em_mech *mech(size_t n, const char *const *u, const char *const *lab, const char *eps,
                     const char *sens)
{
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = n, .utilities = u, .labels = lab}, &s, &err), EM_OK);
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    o.sensitivity = sens;
    em_mech *m = NULL;
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    return m;
}

/* One piece [lo, hi] with utility a + b r. */
static em_mech *mech_piece(const char *lo, const char *hi, const char *a, const char *b,
                           const char *eps)
{
    em_scn *s = NULL;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .lo = &lo, .hi = &hi, .a = &a, .b = &b}, &s, &err), EM_OK);
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    em_mech *m = NULL;
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    return m;
}

static void mech_free(em_mech *m)
{
    em_scn *s = em_mech_get(m).scn;
    em_free(m);
    em_free(s);
}

static const char *const TWO_EQUAL[] = {"0", "0"};

/* ------------------------------------------------------------ Clopper-Pearson */

/* R 4.x: binom.test(k, n)$conf.int at 95%:
 *   k = 0, n = 10:  [0, 0.3084971]
 *   k = 5, n = 10:  [0.1870860, 0.8129140]
 *   k = 10, n = 10: [0.6915029, 1] */
START_TEST(clopper_pearson_matches_binom_test)
{
    double lo, hi;
    ck_assert_int_eq(em_clopper_pearson(0, 10, 0.95, &lo, &hi, &err), EM_OK);
    ck_assert_double_eq(lo, 0.0);
    ck_assert_double_eq_tol(hi, 0.3084971, 1e-7);
    ck_assert_int_eq(em_clopper_pearson(5, 10, 0.95, &lo, &hi, &err), EM_OK);
    ck_assert_double_eq_tol(lo, 0.1870860, 1e-7);
    ck_assert_double_eq_tol(hi, 0.8129140, 1e-7);
    ck_assert_int_eq(em_clopper_pearson(10, 10, 0.95, &lo, &hi, &err), EM_OK);
    ck_assert_double_eq_tol(lo, 0.6915029, 1e-7);
    ck_assert_double_eq(hi, 1.0);
    ck_assert_str_eq(err.msg, "");
}
END_TEST

/* Parameters where GSL's inverse does not converge (it returns NaN for Beta(500, 999501)):
 * the bounds still bracket k/n, and the normal approximation k/n +- 1.96 sqrt(k/n (1-k/n)/n)
 * (5e-4 +- 4.38e-5) is within 10% of their half-widths. */
START_TEST(clopper_pearson_large_n)
{
    double lo, hi;
    ck_assert_int_eq(em_clopper_pearson(500, 1000000, 0.95, &lo, &hi, &err), EM_OK);
    ck_assert(lo < 5e-4 && 5e-4 < hi);
    ck_assert_double_eq_tol(5e-4 - lo, 4.38e-5, 4.4e-6);
    ck_assert_double_eq_tol(hi - 5e-4, 4.38e-5, 4.4e-6);
}
END_TEST

START_TEST(clopper_pearson_bad_input)
{
    double lo, hi;
    ck_assert_int_eq(em_clopper_pearson(1, 2, 0.95, NULL, &hi, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_clopper_pearson(3, 2, 0.95, &lo, &hi, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "k = 3 of n = 2"));
    ck_assert_int_eq(em_clopper_pearson(0, 0, 0.95, &lo, &hi, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_clopper_pearson(1, 2, 1.0, &lo, &hi, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_clopper_pearson(1, 2, NAN, &lo, &hi, NULL), EM_ERR_DOMAIN);
}
END_TEST

/* The draws of the old entry points, as the one em_draws_check takes them. */
static int check_draws(em_mech *m, const size_t *x, const double *v, size_t n,
                       const em_check_opts *o, em_check_result **r, em_error *e)
{
    em_draw *d = malloc((n ? n : 1) * sizeof *d);
    ck_assert_ptr_nonnull(d);
    for (size_t k = 0; k < n; k++) {
        d[k].index = x ? x[k] : SIZE_MAX;
        d[k].value = v ? v[k] : NAN;
    }
    em_draws D = EM_DRAWS_INIT;
    D.draw = x || v ? d : NULL;
    D.n = n;
    int st = em_draws_check(m, &D, o, r, e);
    free(d);
    return st;
}
#define check_idx(m, x, n, o, r, e) check_draws(m, x, NULL, n, o, r, e)
#define check_val(m, v, n, o, r, e) check_draws(m, NULL, v, n, o, r, e)

static int check_counts(em_mech *m, const uint64_t *c, size_t n, const em_check_opts *o,
                        em_check_result **r, em_error *e)
{
    em_draws D = EM_DRAWS_INIT;
    D.counts = c;
    D.n = n;
    return em_draws_check(m, &D, o, r, e);
}

static int check_path(em_mech *m, const char *path, int are, const em_check_opts *o,
                      em_check_result **r, em_error *e)
{
    em_draws D = EM_DRAWS_INIT;
    D.path = path;
    D.samples_are = are;
    return em_draws_check(m, &D, o, r, e);
}

static int audit_draws(em_mech *x, em_mech *y, const uint64_t *cx, const uint64_t *cy,
                        double conf, em_audit_result **r, em_error *e)
{
    em_draws dx = EM_DRAWS_INIT, dy = EM_DRAWS_INIT;
    dx.counts = cx;
    dx.n = x && !em_scn_get(em_mech_get(x).scn).continuous ? em_scn_get(em_mech_get(x).scn).size : 1;
    dy.counts = cy;
    dy.n = y && !em_scn_get(em_mech_get(y).scn).continuous ? em_scn_get(em_mech_get(y).scn).size : 1;
    return em_audit(x, y, &dx, cy ? &dy : NULL, conf, r, e);
}

/* ------------------------------------------------------------------ check */

/* Two candidates of probability 1/2: 500 draws of each fit exactly (G = 0); 1000 of the
 * first give G = 2 * 1000 ln 2 = 1386.294361... and reject. */
START_TEST(check_finite_pass_and_reject)
{
    em_mech *m = mech(2, TWO_EQUAL, NULL, "1", NULL);
    size_t *x = malloc(1000 * sizeof *x);
    for (size_t k = 0; k < 1000; k++)
        x[k] = k % 2;
    em_check_result *r = NULL;
    ck_assert_int_eq(check_idx(m, x, 1000, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_PASS);
    ck_assert_double_eq_tol(r->statistic, 0.0, 1e-12);
    ck_assert_double_eq_tol(r->p_value, 1.0, 1e-12);
    ck_assert_uint_eq(r->df, 1);
    ck_assert_uint_eq(r->n, 1000);
    ck_assert_double_eq(r->alpha, 1e-6);
    ck_assert_uint_eq(r->nrows, 2);
    ck_assert_double_eq_tol(r->rows[0].expected, 500.0, 1e-9);
    ck_assert_uint_eq(r->rows[1].observed, 500);
    ck_assert_uint_eq(r->rows[1].first, 1);
    ck_assert_uint_eq(r->rows[1].last, 1);
    ck_assert(r->min_detectable > 0 && r->min_detectable < 1);
    em_free(r);
    for (size_t k = 0; k < 1000; k++)
        x[k] = 0;
    ck_assert_int_eq(check_idx(m, x, 1000, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    ck_assert_double_eq_tol(r->statistic, 1386.2943611198905, 1e-6);
    ck_assert(r->reasons & EM_CHECK_R_FIT);
    em_free(r);
    free(x);
    mech_free(m);
}
END_TEST

/* 3 draws over two cells expecting 1.5 each: one pooled cell, nothing can pass or reject
 * (P(Bin(3, 1/2) >= 3) = 1/8 is no evidence). */
START_TEST(check_insufficient)
{
    em_mech *m = mech(2, TWO_EQUAL, NULL, "1", NULL);
    size_t x[] = {0, 0, 0};
    em_check_result *r = NULL;
    ck_assert_int_eq(check_idx(m, x, 3, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_INSUFFICIENT);
    ck_assert_uint_eq(r->ncells, 1);
    ck_assert_double_eq_tol(r->cand_p, 0.125, 1e-12);
    em_free(r);
    mech_free(m);
}
END_TEST

/* A draw of an excluded candidate rejects whatever the rest. */
START_TEST(check_support_and_counts)
{
    const char *u[] = {"0", "-inf", "0"};
    const char *lab[] = {"a", "b", "c"};
    em_mech *m = mech(3, u, lab, "1", NULL);
    uint64_t counts[] = {100, 1, 100};
    em_check_result *r = NULL;
    ck_assert_int_eq(check_counts(m, counts, 3, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    ck_assert(r->reasons & EM_CHECK_R_SUPPORT);
    ck_assert_uint_eq(r->support_index, 1);
    ck_assert_uint_eq(r->support_count, 1);
    ck_assert_uint_eq(r->nzero, 1);
    ck_assert_uint_eq(r->cell_of[1], EM_JUDGE_NONE);
    em_free(r);
    /* the same from a samples file of labels */
    char path[] = "/tmp/em_api_judge_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    for (int k = 0; k < 100; k++)
        fputs("a\nc\n", f);
    fclose(f);
    em_check_opts o = EM_CHECK_OPTS_INIT;
    ck_assert_int_eq(check_path(m, path, EM_SAMPLES_ARE_LABELS, &o, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_PASS);
    ck_assert_uint_eq(r->n, 200);
    em_free(r);
    ck_assert_int_eq(check_path(m, path, EM_SAMPLES_ARE_INDICES, &o, &r, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, path));
    unlink(path);
    ck_assert_int_eq(check_path(m, path, 0, &o, &r, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
    mech_free(m);
}
END_TEST

START_TEST(check_bad_input)
{
    em_mech *m = mech(2, TWO_EQUAL, NULL, "1", NULL);
    em_mech *c = mech_piece("0", "1", "0", "0", "1");
    size_t x[] = {0, 1};
    em_check_result *r = (em_check_result *)1;
    ck_assert_int_eq(check_idx(m, x, 2, NULL, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(check_idx(NULL, x, 2, NULL, &r, &err), EM_ERR_NULL);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(check_idx(m, NULL, 2, NULL, &r, &err), EM_ERR_DOMAIN); /* no draws */
    em_draws none = EM_DRAWS_INIT;
    ck_assert_int_eq(em_draws_check(m, NULL, NULL, &r, &err), EM_ERR_NULL);
    uint64_t two[] = {1, 1};
    none.counts = two;
    none.n = 2;
    none.path = "x"; /* two forms */
    ck_assert_int_eq(em_draws_check(m, &none, NULL, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "exactly one"));
    ck_assert_int_eq(check_idx(m, x, 0, NULL, &r, &err), EM_ERR_EMPTY);
    size_t bad[] = {0, 2};
    ck_assert_int_eq(check_idx(m, bad, 2, NULL, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "draw[1].index"));
    em_check_opts o = {0, 20, 0};
    ck_assert_int_eq(check_idx(m, x, 2, &o, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "alpha"));
    o.alpha = NAN;
    ck_assert_int_eq(check_idx(m, x, 2, &o, &r, &err), EM_ERR_DOMAIN);
    o.alpha = 0.01;
    o.min_expected = 0.5;
    ck_assert_int_eq(check_idx(m, x, 2, &o, &r, &err), EM_ERR_DOMAIN);
    uint64_t counts[] = {1, 1};
    ck_assert_int_eq(check_counts(c, counts, 2, NULL, &r, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(check_counts(m, counts, 1, NULL, &r, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(check_counts(m, NULL, 2, NULL, &r, &err), EM_ERR_DOMAIN); /* no draws */
    double d[] = {0.5};
    ck_assert_int_eq(check_val(m, d, 1, NULL, &r, &err), EM_ERR_DOMAIN); /* no index */
    ck_assert_int_eq(check_val(c, d, 0, NULL, &r, &err), EM_ERR_EMPTY);
    ck_assert_int_eq(check_val(c, NULL, 1, NULL, &r, &err), EM_ERR_DOMAIN); /* no draws */
    ck_assert_int_eq(check_path(NULL, "x", 0, NULL, &r, &err), EM_ERR_NULL);
    ck_assert_int_eq(check_path(m, "x", 7, NULL, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "samples_are 7"));
    em_free(NULL);
    mech_free(m);
    mech_free(c);
}
END_TEST

/* Uniform on [0, 1] (utility 0): 2000 evenly spaced draws fit, with KS D = 1/4000 (the
 * largest gap between the empirical and the exact CDF at (k + 1/2)/2000); 2000 draws at 0.25
 * reject; a draw at 2 is outside R. */
START_TEST(check_continuous)
{
    em_mech *c = mech_piece("0", "1", "0", "0", "1");
    double *x = malloc(2000 * sizeof *x);
    for (size_t k = 0; k < 2000; k++)
        x[k] = (k + 0.5) / 2000;
    em_check_result *r = NULL;
    ck_assert_int_eq(check_val(c, x, 2000, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_PASS);
    ck_assert_double_eq_tol(r->ks_d, 1.0 / 4000, 1e-12);
    ck_assert_uint_eq(r->nrows, 20);
    ck_assert_double_eq_tol(r->rows[0].probability, 0.05, 1e-15);
    ck_assert_double_eq_tol(r->rows[3].lo, 0.15, 1e-15);
    ck_assert_uint_eq(r->rows[3].observed, 100);
    ck_assert_ptr_nonnull(r->ks_method);
    ck_assert_uint_eq(r->first_outside, EM_JUDGE_NONE);
    em_free(r);
    x[7] = 2.0;
    ck_assert_int_eq(check_val(c, x, 2000, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    ck_assert(r->reasons & EM_CHECK_R_SUPPORT);
    ck_assert_uint_eq(r->first_outside, 7);
    ck_assert_double_eq(r->outside_value, 2.0);
    em_free(r);
    for (size_t k = 0; k < 2000; k++)
        x[k] = 0.25;
    ck_assert_int_eq(check_val(c, x, 2000, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    ck_assert(r->reasons & EM_CHECK_R_KS);
    ck_assert(r->reasons & EM_CHECK_R_FIT);
    em_free(r);
    free(x);
    mech_free(c);
}
END_TEST

/* ---------------------------------------------------------------- compare */

/* u = (1, 0), epsilon 2, standard: P = (e/(1+e), 1/(1+e)) = (0.7310585786300049,
 * 0.2689414213699951) (the doubles nearest, by Python's math.e). */
START_TEST(compare_probabilities)
{
    const char *u[] = {"1", "0"};
    em_mech *m = mech(2, u, NULL, "2", NULL);
    double good[] = {0.7310585786300049, 0.2689414213699951};
    em_compare_result *r = NULL;
    ck_assert_int_eq(em_compare(m, good, 2, NULL, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->passed, 1);
    ck_assert_uint_eq(r->nfail, 0);
    ck_assert(r->max_abs_error < 1e-16);
    ck_assert(r->max_ulp_error <= 0.5);
    em_free(r);
    double bad[] = {0.7310585786300049, 0.2689415};
    ck_assert_int_eq(em_compare(m, bad, 2, NULL, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->passed, 0);
    ck_assert_uint_eq(r->nfail, 1);
    ck_assert_uint_eq(r->worst, 1);
    ck_assert_double_eq_tol(r->max_abs_error, 7.863e-8, 1e-11);
    ck_assert_double_eq_tol(r->max_rel_error, 7.863e-8 / 0.2689414213699951, 1e-10);
    ck_assert_uint_eq(r->nshow, 1);
    ck_assert_str_eq(r->show[0].why, "error above tolerance");
    /* the given double exactly: 0.2689415 is 4844819356737849 / 2^54 */
    ck_assert_str_eq(r->show[0].given, "4844819356737849/18014398509481984");
    /* 1/(1+e) to 40 digits: 0.26894142136999512074884075817816372563485 (bc -l) */
    ck_assert_str_eq(r->show[0].exact, "0.2689414213699951207488407581781637256349");
    em_free(r);
    double odd[] = {NAN, -0.5};
    ck_assert_int_eq(em_compare(m, odd, 2, NULL, NULL, &r, &err), EM_OK);
    ck_assert_uint_eq(r->nnan, 1);
    ck_assert_uint_eq(r->nneg, 1);
    ck_assert_uint_eq(r->nfail, 2);
    em_free(r);
    em_compare_opts o = {1e-3, 0};
    ck_assert_int_eq(em_compare(m, bad, 2, NULL, &o, &r, &err), EM_OK);
    ck_assert_int_eq(r->passed, 1);
    em_free(r);
    mech_free(m);
}
END_TEST

/* A file of 'label,probability' lines, and a CDF table of the uniform law on [0, 1]. */
START_TEST(compare_files)
{
    const char *lab[] = {"x", "y"};
    em_mech *m = mech(2, TWO_EQUAL, lab, "1", NULL);
    char path[] = "/tmp/em_api_judge_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("y,1/2\nx,0.5\n", f);
    fclose(f);
    em_compare_result *r = NULL;
    ck_assert_int_eq(em_compare(m, NULL, 0, path, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->passed, 1);
    ck_assert_str_eq(r->max_abs_text, "0");
    em_free(r);
    em_mech *c = mech_piece("0", "1", "0", "0", "1");
    f = fopen(path, "w");
    fputs("0,0\n0.25,0.25\n0.5,0.6\n1,1\n", f);
    fclose(f);
    ck_assert_int_eq(em_compare(c, NULL, 0, path, NULL, &r, &err), EM_OK);
    ck_assert_int_eq(r->passed, 0);
    ck_assert_uint_eq(r->n, 4);
    ck_assert_uint_eq(r->nfail, 1);
    ck_assert_double_eq_tol(r->max_abs_error, 0.1, 1e-15);
    ck_assert_uint_eq(r->line_abs, 3);
    ck_assert_str_eq(r->x_abs, "0.5");
    /* F(0.5) = 1/2 correctly rounded to the mechanism's 17 digits */
    ck_assert_str_eq(r->show[0].exact, "0.50000000000000000");
    em_free(r);
    /* values are a finite mechanism's; never both forms */
    const double half[] = {0.5, 0.5};
    ck_assert_int_eq(em_compare(c, half, 2, NULL, NULL, &r, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_compare(m, half, 2, path, NULL, &r, &err), EM_ERR_DOMAIN);
    f = fopen(path, "w");
    fclose(f);
    ck_assert_int_eq(em_compare(c, NULL, 0, path, NULL, &r, &err), EM_ERR_EMPTY);
    ck_assert_ptr_nonnull(strstr(err.msg, "no points"));
    unlink(path);
    ck_assert_int_eq(em_compare(m, NULL, 0, path, NULL, &r, &err), EM_ERR_PARSE);
    mech_free(m);
    mech_free(c);
}
END_TEST

START_TEST(compare_bad_input)
{
    em_mech *m = mech(2, TWO_EQUAL, NULL, "1", NULL);
    double g[] = {0.5, 0.5};
    em_compare_result *r = (em_compare_result *)1;
    ck_assert_int_eq(em_compare(m, g, 2, NULL, NULL, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_compare(NULL, g, 2, NULL, NULL, &r, &err), EM_ERR_NULL);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(em_compare(m, NULL, 2, NULL, NULL, &r, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_compare(m, g, 0, NULL, NULL, &r, &err), EM_ERR_EMPTY);
    ck_assert_int_eq(em_compare(m, g, 1, NULL, NULL, &r, &err), EM_ERR_DOMAIN);
    em_compare_opts o = {-1, 0};
    ck_assert_int_eq(em_compare(m, g, 2, NULL, &o, &r, &err), EM_ERR_DOMAIN);
    o.rtol = 0;
    o.atol = NAN;
    ck_assert_int_eq(em_compare(m, g, 2, NULL, &o, &r, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_compare(NULL, NULL, 0, "x", NULL, &r, &err), EM_ERR_NULL);
    em_free(NULL);
    mech_free(m);
}
END_TEST

/* ------------------------------------------------------------------ audit */

/* X: u = (0, 0); Y: u = (1, 0); standard, c = eps / (2 D).  P_X = (1/2, 1/2), P_Y(1) =
 * 1/(1 + e^c), so the loss is ln((1 + e^c)/2) at the second candidate: for eps = 1, D = 1:
 * 0.28092980362016137145...; for D = 0.1: c = 5, 4.31356816792917275919... > 1 (bc -l,
 * scale=40: l((1+e(0.5))/2), l((1+e(5))/2)). */
START_TEST(audit_finite)
{
    const char *uy[] = {"0", "1"}; /* Y's labels in the other order */
    const char *lx[] = {"a", "b"}, *ly[] = {"b", "a"};
    em_mech *x = mech(2, TWO_EQUAL, lx, "1", NULL), *y = mech(2, uy, ly, "1", NULL);
    em_audit_result *r = NULL;
    ck_assert_int_eq(em_audit(x, y, NULL, NULL, 0, &r, &err), EM_OK);
    ck_assert_str_eq(r->loss, "0.28092980362016137");
    ck_assert_double_eq(r->loss_d, 0.28092980362016137);
    ck_assert_int_eq(r->within, 1);
    ck_assert_int_eq(r->verdict, EM_VERDICT_PASS);
    ck_assert_int_eq(r->exact, 1);
    ck_assert_uint_eq(r->d[r->worst].atom, 1);
    ck_assert_int_eq(r->ideal.verdict, EM_VERDICT_PASS);
    ck_assert_uint_eq(r->ideal.where, 1);
    ck_assert_int_eq(r->fp.computed, 1);
    /* the log-ratio's span: c (0 - (-1)) = 1/2 exactly, rho = 1/32 */
    ck_assert_str_eq(r->width, "0.50000000000000000");
    ck_assert_int_eq(r->width_exact, 1);
    ck_assert_double_eq(r->width_d, 0.5);
    ck_assert_str_eq(r->rho, "0.031250000000000000");
    ck_assert_double_eq(r->rho_d, 0.03125);
    em_free(r);
    mech_free(x);
    mech_free(y);
    x = mech(2, TWO_EQUAL, lx, "1", "0.1");
    y = mech(2, uy, ly, "1", "0.1");
    ck_assert_int_eq(em_audit(x, y, NULL, NULL, 0, &r, &err), EM_OK);
    ck_assert_str_eq(r->loss, "4.3135681679291728");
    ck_assert_int_eq(r->within, 0);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    ck_assert_double_eq(r->width_d, 5); /* c = 5: beyond eps, as the loss is */
    ck_assert_double_eq(r->rho_d, 3.125);
    em_free(r);
    /* the same law on both sides: exactly 0 */
    ck_assert_int_eq(em_audit(x, x, NULL, NULL, 0, &r, &err), EM_OK);
    ck_assert_str_eq(r->loss, "0");
    ck_assert_double_eq(r->width_d, 0);
    ck_assert_double_eq(r->rho_d, 0);
    ck_assert_int_eq(r->ideal.equal, 1);
    ck_assert_int_eq(r->within, 1);
    em_free(r);
    mech_free(x);
    mech_free(y);
}
END_TEST

/* Draws agreeing with the laws: the lower bound stays below epsilon. */
START_TEST(audit_counts)
{
    const char *uy[] = {"1", "0"};
    em_mech *x = mech(2, TWO_EQUAL, NULL, "1", NULL), *y = mech(2, uy, NULL, "1", NULL);
    uint64_t cx[] = {5000, 5000}, cy[] = {6225, 3775}; /* 10^4 e^.5/(1+e^.5) = 6224.6 */
    em_audit_result *r = NULL;
    ck_assert_int_eq(audit_draws(x, y, cx, cy, 0.95, &r, &err), EM_OK);
    ck_assert_int_eq(r->empirical, 1);
    ck_assert_uint_eq(r->nx, 10000);
    ck_assert_uint_eq(r->ny, 10000);
    ck_assert(r->eps_lower < 0.28092980362016137);
    ck_assert_int_eq(r->empirical_violation, 0);
    ck_assert_int_eq(r->verdict, EM_VERDICT_PASS);
    em_free(r);
    ck_assert_int_eq(audit_draws(x, y, cx, cy, 1.5, &r, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(audit_draws(x, y, cx, NULL, 0.95, &r, &err), EM_ERR_NULL);
    mech_free(x);
    mech_free(y);
}
END_TEST

/* X uniform on [0, 1]; Y with utility r, c = 1/2: ln f_X - ln f_Y = ln Z_Y - r/2, Z_Y =
 * 2 (e^(1/2) - 1), largest in absolute value at r = 0: ln(2 (e^.5 - 1)) =
 * 0.26039505099275673752... (bc -l, scale=40: l(2*(e(0.5)-1))). */
START_TEST(audit_continuous)
{
    em_mech *x = mech_piece("0", "1", "0", "0", "1"), *y = mech_piece("0", "1", "0", "1", "1");
    em_audit_result *r = NULL;
    ck_assert_int_eq(em_audit(x, y, NULL, NULL, 0, &r, &err), EM_OK);
    ck_assert_int_eq(r->continuous, 1);
    ck_assert_str_eq(r->loss, "0.26039505099275674");
    ck_assert_double_eq(r->loss_d, 0.26039505099275674);
    ck_assert_int_eq(r->within, 1);
    ck_assert_str_eq(r->d[r->worst].at, "0");
    em_free(r);
    uint64_t c[] = {1};
    ck_assert_int_eq(audit_draws(x, y, c, c, 0.95, &r, &err), EM_ERR_DOMAIN);
    mech_free(x);
    mech_free(y);
}
END_TEST

/* Draws of two continuous mechanisms through em_audit: the uniform law on [0, 1] on both
 * sides, so that draws spread over it agree with the claim, and draws piled at opposite
 * ends (1000 at 0.01 on X, 1000 at 0.99 on Y: each side's events then hold every draw of
 * one side and none of the other) prove far more than epsilon 1. */
START_TEST(audit_continuous_draws)
{
    enum { N = 1000 };
    em_mech *x = mech_piece("0", "1", "0", "0", "1"), *k = mech(2, TWO_EQUAL, NULL, "1", NULL);
    em_draw *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    for (size_t i = 0; i < N; i++) {
        a[i] = (em_draw){0, (i + 0.5) / N};
        b[i] = (em_draw){0, (N - i - 0.5) / N};
    }
    em_draws dx = EM_DRAWS_INIT, dy = EM_DRAWS_INIT;
    dx.draw = a;
    dx.n = dy.n = N;
    dy.draw = b;
    em_audit_result *r = NULL;
    ck_assert_msg(em_audit(x, x, &dx, &dy, 0.95, &r, &err) == EM_OK, "%s", err.msg);
    ck_assert_int_eq(r->continuous, 1);
    ck_assert_int_eq(r->empirical_violation, 0);
    ck_assert(r->eps_lower_xy <= 1 && r->eps_lower_yx <= 1);
    ck_assert_uint_gt(r->ev_cells, 1);
    em_free(r);
    for (size_t i = 0; i < N; i++) {
        a[i].value = 0.01;
        b[i].value = 0.99;
    }
    ck_assert_msg(em_audit(x, x, &dx, &dy, 0.95, &r, &err) == EM_OK, "%s", err.msg);
    ck_assert_int_eq(r->empirical_violation, 1);
    ck_assert(r->eps_lower_xy > 1 && r->eps_lower_yx > 1);
    ck_assert(r->ev_xy_lo < 0.01 && 0.01 <= r->ev_xy_hi && r->ev_xy_hi < 0.99);
    em_free(r);
    /* refused: NaN, labels for numbers, a finite and a continuous side */
    a[0].value = NAN;
    ck_assert_int_eq(em_audit(x, x, &dx, &dy, 0.95, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_null(r);
    a[0].value = 0.5;
    dx.samples_are = EM_SAMPLES_ARE_LABELS;
    ck_assert_int_eq(em_audit(x, x, &dx, &dy, 0.95, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "dx->samples_are does not apply"));
    dx.samples_are = EM_SAMPLES_ARE_AUTO;
    ck_assert_int_eq(em_audit(x, k, &dx, &dy, 0.95, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "dx, dy: X and Y must both be finite or both"));
    ck_assert_int_eq(em_audit(x, x, &dx, &dy, 1.5, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "confidence"));
    free(a);
    free(b);
    mech_free(x);
    mech_free(k);
}
END_TEST

START_TEST(audit_bad_input)
{
    const char *u3[] = {"0", "0", "0"};
    const char *lx[] = {"a", "b"}, *lz[] = {"a", "z"};
    em_mech *x = mech(2, TWO_EQUAL, lx, "1", NULL);
    em_mech *e2 = mech(2, TWO_EQUAL, lx, "2", NULL);
    em_mech *z = mech(2, TWO_EQUAL, lz, "1", NULL);
    em_mech *t = mech(3, u3, NULL, "1", NULL);
    em_mech *c = mech_piece("0", "1", "0", "0", "1");
    em_audit_result *r = (em_audit_result *)1;
    ck_assert_int_eq(em_audit(x, x, NULL, NULL, 0, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_audit(NULL, x, NULL, NULL, 0, &r, &err), EM_ERR_NULL);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(em_audit(x, e2, NULL, NULL, 0, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "same epsilon"));
    ck_assert_int_eq(em_audit(x, z, NULL, NULL, 0, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "label 'b' of X is not in Y"));
    ck_assert_int_eq(em_audit(x, t, NULL, NULL, 0, &r, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_audit(x, c, NULL, NULL, 0, &r, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "continuous"));
    em_free(NULL);
    em_mech *all[] = {x, e2, z, t, c};
    for (int k = 0; k < 5; k++)
        mech_free(all[k]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("api_judge");
    TCase *tc = tcase_create("judge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, clopper_pearson_matches_binom_test);
    tcase_add_test(tc, clopper_pearson_large_n);
    tcase_add_test(tc, clopper_pearson_bad_input);
    tcase_add_test(tc, check_finite_pass_and_reject);
    tcase_add_test(tc, check_insufficient);
    tcase_add_test(tc, check_support_and_counts);
    tcase_add_test(tc, check_bad_input);
    tcase_add_test(tc, check_continuous);
    tcase_add_test(tc, compare_probabilities);
    tcase_add_test(tc, compare_files);
    tcase_add_test(tc, compare_bad_input);
    tcase_add_test(tc, audit_finite);
    tcase_add_test(tc, audit_counts);
    tcase_add_test(tc, audit_continuous);
    tcase_add_test(tc, audit_continuous_draws);
    tcase_add_test(tc, audit_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
