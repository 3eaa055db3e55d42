/* test_gof.c: the goodness-of-fit test of src/judge/em_gof.c.
 * Counts are drawn with GSL's MT19937 at fixed seeds (deterministic), as exact
 * multinomial samples (gsl_ran_multinomial). */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "expmech.h"
#include "judge/em_gof.h"

static const double marital_counts[7] = {10683, 14976, 4443, 418, 1025, 23, 993};

/* exponential-mechanism probabilities in double (good to ~1e-15: enough here) */
static void em_probs(size_t n, const double *u, double c, double *p)
{
    double m = -INFINITY, s = 0;
    for (size_t i = 0; i < n; i++)
        if (u[i] > m) m = u[i];
    for (size_t i = 0; i < n; i++) {
        p[i] = exp(c * (u[i] - m));
        s += p[i];
    }
    for (size_t i = 0; i < n; i++)
        p[i] /= s;
}

static void draw(size_t n, const double *p, unsigned N, unsigned long seed, uint64_t *counts)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    unsigned *c = malloc(n * sizeof *c);
    gsl_ran_multinomial(r, n, N, p, c);
    for (size_t i = 0; i < n; i++)
        counts[i] = c[i];
    free(c);
    gsl_rng_free(r);
}

START_TEST(lambda_table)
{
    /* power 0.99 at alpha = 1e-6 */
    ck_assert_double_eq_tol(em_ncx2_lambda_for_power(1, 1e-6, 0.99), 52.1, 0.1);
    ck_assert_double_eq_tol(em_ncx2_lambda_for_power(6, 1e-6, 0.99), 66.6, 0.1);
    ck_assert_double_eq_tol(em_ncx2_lambda_for_power(19, 1e-6, 0.99), 85.7, 0.1);
    ck_assert_double_eq_tol(em_ncx2_lambda_for_power(99, 1e-6, 0.99), 142.1, 0.1);
    /* large df (GSL's own chi-square inverse fails there): about (z_a + z_b) sqrt(2 df) */
    double l6 = em_ncx2_lambda_for_power(1e6, 1e-6, 0.99);
    ck_assert_double_eq_tol(l6, 7.079 * sqrt(2e6), 100);
    ck_assert(isnan(em_ncx2_lambda_for_power(0, 1e-6, 0.99)));
    ck_assert(isnan(em_ncx2_lambda_for_power(3, 0, 0.99)));
}
END_TEST

START_TEST(ncx2_central_and_limits)
{
    ck_assert_double_eq_tol(em_ncx2_Q(3.84145882069412, 1, 0), 0.05, 1e-12);
    /* noncentral chi-square 1 df, lambda = 4: P(X > 3.841459) = 0.5160 (tabulated power of
     * the two-sided z test at shift 2: Phi(2 - 1.96) + Phi(-2 - 1.96)) */
    double pw = 0.5160052; /* Phi(0.040036) + Phi(-3.959964) */
    ck_assert_double_eq_tol(em_ncx2_Q(3.84145882069412, 1, 4), pw, 1e-6);
    ck_assert_double_eq(em_ncx2_Q(0, 5, 3), 1.0);
    ck_assert_double_eq(em_ncx2_Q(INFINITY, 5, 3), 0.0);
    ck_assert(isnan(em_ncx2_Q(1, 5, -1)));
}
END_TEST

START_TEST(accepts_exact_marital)
{
    double u[7], p[7];
    for (int i = 0; i < 7; i++)
        u[i] = marital_counts[i] / 1000;
    em_probs(7, u, 0.5, p);
    for (unsigned long seed = 1; seed <= 20; seed++) {
        uint64_t counts[7];
        draw(7, p, 1000000, seed, counts);
        em_gof_result r;
        size_t cell_of[7];
        ck_assert_int_eq(em_gof_test(7, p, counts, 1e-6, 0, &r, cell_of), EM_OK);
        ck_assert_msg(!r.reject, "seed %lu: p = %g", seed, r.p_value);
        ck_assert_uint_eq(r.n_draws, 1000000);
        ck_assert(r.p_value > 1e-6);
        ck_assert(!r.support_violation);
        /* Married-AF-spouse (p ~ 4.8e-4) expects ~480 draws: no pooling */
        ck_assert_uint_eq(r.ncells, 7);
        ck_assert_double_eq(r.tail_p, 1.0);
        ck_assert_int_eq(r.df, (int)r.ncells - 1);
        ck_assert(r.min_rel_err > 0 && r.min_rel_err < 0.01);
    }
}
END_TEST

START_TEST(accepts_many_cells)
{
    enum { K = 2000 };
    static double u[K], p[K];
    static uint64_t counts[K];
    static size_t cell_of[K];
    for (int i = 0; i < K; i++)
        u[i] = -(double)i / 100;
    em_probs(K, u, 0.5, p);
    for (unsigned long seed = 100; seed < 110; seed++) {
        draw(K, p, 100000, seed, counts);
        em_gof_result r;
        ck_assert_int_eq(em_gof_test(K, p, counts, 1e-6, 20, &r, cell_of), EM_OK);
        ck_assert_msg(!r.reject, "seed %lu: p = %g tail %g", seed, r.p_value, r.tail_p);
        /* every pooled cell expects at least 20 */
        double *E = calloc(r.ncells, sizeof *E);
        for (int i = 0; i < K; i++) {
            ck_assert_uint_lt(cell_of[i], r.ncells);
            E[cell_of[i]] += 100000 * p[i];
        }
        for (size_t c = 0; c < r.ncells; c++)
            ck_assert_msg(E[c] >= 20 * (1 - 1e-9), "cell %zu expects %g", c, E[c]);
        /* pooled cells numbered by smallest member: cell of 0 is 0 */
        ck_assert_uint_eq(cell_of[0], 0);
        free(E);
    }
}
END_TEST

START_TEST(rejects_eps_not_halved)
{
    double u[7], p[7], q[7];
    for (int i = 0; i < 7; i++)
        u[i] = marital_counts[i] / 1000;
    em_probs(7, u, 0.5, p);
    em_probs(7, u, 1.0, q); /* the bug: exp(eps u) instead of exp(eps u / 2) */
    uint64_t counts[7];
    draw(7, q, 1000000, 7, counts);
    em_gof_result r;
    ck_assert_int_eq(em_gof_test(7, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert(r.reject);
    ck_assert(r.p_value < 1e-100);
    ck_assert(r.max_std_resid > 100);
}
END_TEST

START_TEST(rejects_small_bias)
{
    /* 7 cells u = 0..6, eps = 1; a 3% relative error on the mode at N = 1e6 */
    double u[7], p[7], q[7];
    for (int i = 0; i < 7; i++)
        u[i] = i;
    em_probs(7, u, 0.5, p);
    double pm = p[6], r3 = 0.03;
    for (int i = 0; i < 6; i++)
        q[i] = p[i] * (1 - pm * r3 / (1 - pm));
    q[6] = pm * (1 + r3);
    uint64_t counts[7];
    draw(7, q, 1000000, 11, counts);
    em_gof_result r;
    ck_assert_int_eq(em_gof_test(7, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert(r.min_rel_err < r3); /* the test claims it can see it... */
    ck_assert(r.reject);           /* ...and does */
}
END_TEST

START_TEST(support_violation)
{
    double p[4] = {0.5, 0.25, 0.0, 0.25};
    uint64_t counts[4] = {500, 250, 1, 249};
    em_gof_result r;
    size_t cell_of[4];
    ck_assert_int_eq(em_gof_test(4, p, counts, 1e-6, 20, &r, cell_of), EM_OK);
    ck_assert(r.support_violation);
    ck_assert_uint_eq(r.support_index, 2);
    ck_assert(r.reject);
    ck_assert_uint_eq(cell_of[2], EM_GOF_NO_CELL);
    ck_assert_uint_eq(r.ncells, 3);
    /* without the draw, the same counts pass */
    counts[2] = 0;
    counts[3] = 250;
    ck_assert_int_eq(em_gof_test(4, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert(!r.support_violation);
    ck_assert_uint_eq(r.support_index, EM_GOF_NO_CELL);
    ck_assert(!r.reject);
    ck_assert_double_eq_tol(r.g, 0, 1e-9);
    ck_assert_double_eq_tol(r.p_value, 1, 1e-9);
}
END_TEST

START_TEST(tail_overrepresented)
{
    /* two big cells and 100 tiny ones (1e-7 each, expecting 0.01 draws each at N = 1e5):
     * an implementation that draws the tiny ones 30 times in total is caught by the tail
     * test even though pooling hides them inside a big cell for G. */
    enum { K = 102 };
    double p[K];
    uint64_t counts[K] = {0};
    p[0] = p[1] = (1 - 100 * 1e-7) / 2;
    for (int i = 2; i < K; i++)
        p[i] = 1e-7;
    counts[0] = 50000 - 15;
    counts[1] = 50000 - 15;
    for (int i = 2; i < 32; i++)
        counts[i] = 1;
    em_gof_result r;
    ck_assert_int_eq(em_gof_test(K, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert(r.tail_p < 1e-30);
    ck_assert(r.reject);
    ck_assert(!r.support_violation);
    /* zero tail draws: tail_p = 1 */
    for (int i = 2; i < K; i++)
        counts[i] = 0;
    counts[0] = counts[1] = 50000;
    ck_assert_int_eq(em_gof_test(K, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_double_eq(r.tail_p, 1.0);
    ck_assert(!r.reject);
    /* one tail draw (the tail expects 1e5 * 1e-5 = 1): P(X >= 1) = 1 - 1/e */
    counts[5] = 1;
    counts[0]--;
    ck_assert_int_eq(em_gof_test(K, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_double_eq_tol(r.tail_p, 1 - exp(-1), 1e-4);
    ck_assert(!r.reject);
}
END_TEST

START_TEST(no_tail_when_no_pooling)
{
    double p[3] = {0.25, 0.25, 0.5};
    uint64_t counts[3] = {250, 260, 490};
    em_gof_result r;
    ck_assert_int_eq(em_gof_test(3, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_double_eq(r.tail_p, 1.0);
    ck_assert_uint_eq(r.ncells, 3);
    ck_assert_int_eq(r.df, 2);
    /* Pearson: (0 + 100 + 100)/250.. = 0 + 0.4 + 0.2 */
    ck_assert_double_eq_tol(r.x2, 0.6, 1e-12);
}
END_TEST

START_TEST(single_cell)
{
    double p[2] = {1.0, 0.0};
    uint64_t counts[2] = {10, 0};
    em_gof_result r;
    ck_assert_int_eq(em_gof_test(2, p, counts, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_int_eq(r.df, 0);
    ck_assert_double_eq(r.p_value, 1.0);
    ck_assert(isinf(r.min_rel_err));
    ck_assert(!r.reject);
}
END_TEST

START_TEST(bad_inputs)
{
    double p[3] = {0.25, 0.25, 0.5};
    uint64_t counts[3] = {1, 2, 3};
    em_gof_result r;
    ck_assert_int_eq(em_gof_test(3, NULL, counts, 1e-6, 20, &r, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_gof_test(3, p, NULL, 1e-6, 20, &r, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_gof_test(3, p, counts, 1e-6, 20, NULL, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_gof_test(0, p, counts, 1e-6, 20, &r, NULL), EM_ERR_EMPTY);
    ck_assert_int_eq(em_gof_test(3, p, counts, 0, 20, &r, NULL), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_gof_test(3, p, counts, 1, 20, &r, NULL), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_gof_test(3, p, counts, NAN, 20, &r, NULL), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_gof_test(3, p, counts, 1e-6, INFINITY, &r, NULL), EM_ERR_DOMAIN);
    double q[3] = {0.25, 0.25, 0.49};
    ck_assert_int_eq(em_gof_test(3, q, counts, 1e-6, 20, &r, NULL), EM_ERR_DOMAIN);
    double q2[3] = {0.5, -0.25, 0.75};
    ck_assert_int_eq(em_gof_test(3, q2, counts, 1e-6, 20, &r, NULL), EM_ERR_DOMAIN);
    double q3[3] = {0.5, NAN, 0.5};
    ck_assert_int_eq(em_gof_test(3, q3, counts, 1e-6, 20, &r, NULL), EM_ERR_DOMAIN);
    double q4[3] = {0.5, INFINITY, 0.5};
    ck_assert_int_eq(em_gof_test(3, q4, counts, 1e-6, 20, &r, NULL), EM_ERR_DOMAIN);
    uint64_t zero[3] = {0, 0, 0};
    ck_assert_int_eq(em_gof_test(3, p, zero, 1e-6, 20, &r, NULL), EM_ERR_DOMAIN);
    uint64_t huge[3] = {UINT64_MAX, 1, 0};
    ck_assert_int_eq(em_gof_test(3, p, huge, 1e-6, 20, &r, NULL), EM_ERR_OVERFLOW);
    /* within 1e-9 of 1 is accepted */
    double q5[3] = {0.25, 0.25, 0.5 + 5e-10};
    ck_assert_int_eq(em_gof_test(3, q5, counts, 1e-6, 20, &r, NULL), EM_OK);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gof");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lambda_table);
    tcase_add_test(tc, ncx2_central_and_limits);
    tcase_add_test(tc, accepts_exact_marital);
    tcase_add_test(tc, accepts_many_cells);
    tcase_add_test(tc, rejects_eps_not_halved);
    tcase_add_test(tc, rejects_small_bias);
    tcase_add_test(tc, support_violation);
    tcase_add_test(tc, tail_overrepresented);
    tcase_add_test(tc, no_tail_when_no_pooling);
    tcase_add_test(tc, single_cell);
    tcase_add_test(tc, bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
