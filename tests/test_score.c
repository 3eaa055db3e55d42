/* test_score.c: the scoring functions (src/core/em_score_*.h), on the seed
 * numbers, against brute force, and on bad inputs; exact probabilities via the oracle.
 *
 *   count / frequency   seed 001 (socks: 100 rows, 10 Violent), em_histogram, em_score_frequency
 *   max-normalised      seed 004 (occupation counts), em_score_maxnorm
 *   median / quantile   seed 002 (A = {1, 100, 102, 104, 105, 200, 365}, the worst case)
 *   revenue             seed 003 (bids {1, 1, 1, 3.01}, unit 0.001)
 *   randomized response seed 003 (beta = -1/4, gamma = 1/4): exact curve
 *   Laplace             seeds 002, 003
 * The sensitivity bounds proven in proofs/lemmas/Score*_lemmas.h are also checked at
 * run time on random neighbouring datasets (a test of the link code <-> logic, not a
 * substitute for the proofs). */
#include "em_check_main.h"
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "em_test_util.h"
#include "expmech.h"
#include "core/em_count.h"
#include "core/em_score_count.h"
#include "core/em_score_rank.h"
#include "core/em_score_range.h"
#include "core/em_score_revenue.h"
#include "core/em_score_rr.h"
#include "core/em_score_laplace.h"
#include "oracle/em_oracle.h"
#include "em_problem_util.h"
#include "num/em_rational.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Exact probability (correctly rounded to double) of candidate i, utilities given as
 * exact strings ("4100/4140", "0.1", "-inf"). */
static double oracle_p(size_t n, const char *const *u, const char *eps, const char *delta,
                       int variant, size_t i)
{
    mpq_t *q = malloc(n * sizeof *q);
    unsigned char *ex = calloc(n, 1);
    mpq_t e, d;
    ck_assert(q && ex);
    mpq_inits(e, d, NULL);
    int kind;
    for (size_t j = 0; j < n; j++) {
        mpq_init(q[j]);
        ck_assert_int_eq(em_q_parse_str(u[j], 1, q[j], &kind, NULL), EM_OK);
        ex[j] = kind == EM_Q_NEG_INF;
    }
    ck_assert_int_eq(em_q_parse_str(eps, 0, e, &kind, NULL), EM_OK);
    ck_assert_int_eq(em_q_parse_str(delta, 0, d, &kind, NULL), EM_OK);
    em_oracle *o = NULL;
    ck_assert_int_eq(tp_oracle_new(n, q, ex, e, d, variant, 17, &o), EM_OK);
    em_oracle_cand c;
    ck_assert_int_eq(em_oracle_get(o, i, &c), EM_OK);
    double p = c.prob_d;
    em_oracle_free(o);
    for (size_t j = 0; j < n; j++)
        mpq_clear(q[j]);
    mpq_clears(e, d, NULL);
    free(q);
    free(ex);
    return p;
}

/* 1 / (1 + exp(x)) in MPFR, rounded to double: the probability of the worse of two
 * candidates whose weights differ by the factor exp(x). */
static double logistic_minus(double x_num, double x_den)
{
    mpfr_t t;
    mpfr_init2(t, 256);
    mpfr_set_d(t, x_num, MPFR_RNDN);
    mpfr_div_d(t, t, x_den, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_ui_div(t, 1, t, MPFR_RNDN);
    double r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clear(t);
    return r;
}

static int close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b);
}

/* ============================================================ count / frequency */

/* seed 001: 100 rows, code 0 = Violent (10 rows), code 1 = NonViolent (90 rows); the Red
   group is 70 rows with 9 Violent, the Blue group 30 rows with 1 Violent. */
static int *socks(size_t violent, size_t total)
{
    int *d = malloc(total * sizeof *d);
    ck_assert(d);
    for (size_t i = 0; i < total; i++)
        d[i] = i < violent ? 0 : 1;
    return d;
}

START_TEST(socks_count_frequency)
{
    int *d = socks(10, 100);
    uint64_t h[2], num[2], den = 0;
    ck_assert_int_eq(em_histogram(100, d, 2, h), EM_OK);
    ck_assert_uint_eq(h[0], 10);
    ck_assert_uint_eq(h[1], 90);
    ck_assert_int_eq(em_score_frequency(100, d, 2, num, &den), EM_OK);
    ck_assert_uint_eq(num[0], 10);
    ck_assert_uint_eq(num[1], 90);
    ck_assert_uint_eq(den, 100);
    free(d);
    d = socks(9, 70);
    ck_assert_int_eq(em_score_frequency(70, d, 2, num, &den), EM_OK);
    ck_assert(num[0] == 9 && num[1] == 61 && den == 70);
    free(d);
    d = socks(1, 30);
    ck_assert_int_eq(em_score_frequency(30, d, 2, num, &den), EM_OK);
    ck_assert(num[0] == 1 && num[1] == 29 && den == 30);
    free(d);
}
END_TEST

/* The seed's printed probabilities (Delta = 1) and what the proven Delta = 1/n gives. */
START_TEST(socks_delta_one_vs_one_over_n)
{
    const char *u[2] = {"10/100", "90/100"};
    /* seed: [0.09975049 0.90024951] at epsilon 5.5, Delta 1 */
    double p = oracle_p(2, u, "5.5", "1", EM_STANDARD, 0);
    ck_assert_msg(close_rel(p, 0.09975049, 1e-7), "p = %.10g", p);
    ck_assert(close_rel(p, logistic_minus(5.5 * 0.8, 2.0), 1e-15));
    /* Red group, epsilon 0.7 * 10: seed 0.06913842; Blue, epsilon 3: seed 0.19781611 */
    const char *red[2] = {"9/70", "61/70"}, *blue[2] = {"1/30", "29/30"};
    p = oracle_p(2, red, "7", "1", EM_STANDARD, 0);
    ck_assert_msg(close_rel(p, 0.06913842034334683, 1e-12), "p = %.17g", p);
    p = oracle_p(2, blue, "3", "1", EM_STANDARD, 0);
    ck_assert_msg(close_rel(p, 0.19781611144141822, 1e-12), "p = %.17g", p);
    /* epsilon 1: Delta 1 gives P(Violent) = 1/(1+e^0.4) = 0.401..., Delta 1/100 gives
       1/(1+e^40) = 4.25e-18: Delta = 1 spends the budget of epsilon/100. */
    p = oracle_p(2, u, "1", "1", EM_STANDARD, 0);
    ck_assert(close_rel(p, logistic_minus(0.4, 1.0), 1e-15));
    ck_assert(p > 0.40 && p < 0.41);
    double q = oracle_p(2, u, "1", "1/100", EM_STANDARD, 0);
    ck_assert(close_rel(q, logistic_minus(40.0, 1.0), 1e-15));
    ck_assert(q > 4.2e-18 && q < 4.3e-18);
    /* the same distribution: (epsilon, Delta 1) == (epsilon / 100, Delta 1/100) */
    ck_assert(oracle_p(2, u, "10", "1", EM_STANDARD, 0) == oracle_p(2, u, "1/10", "1/100", EM_STANDARD, 0));
    /* epsilon 10: 0.0180 with Delta 1 (the seed's "odd" 2-3 Violent in 100), 1.9e-174 with 1/n */
    p = oracle_p(2, u, "10", "1", EM_STANDARD, 0);
    ck_assert(close_rel(p, logistic_minus(4.0, 1.0), 1e-15));
    q = oracle_p(2, u, "10", "1/100", EM_STANDARD, 0);
    ck_assert_msg(q > 1.9e-174 && q < 2.0e-174, "q = %g", q);
}
END_TEST

START_TEST(count_frequency_errors)
{
    int d[3] = {0, 1, 2};
    uint64_t num[3], den = 77;
    ck_assert_int_eq(em_score_frequency(3, NULL, 3, num, &den), EM_ERR_NULL);
    ck_assert_int_eq(em_score_frequency(3, d, 3, NULL, &den), EM_ERR_NULL);
    ck_assert_int_eq(em_score_frequency(3, d, 3, num, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_score_frequency(0, d, 3, num, &den), EM_ERR_EMPTY);   /* n = 0 */
    ck_assert_int_eq(em_score_frequency(3, d, 0, num, &den), EM_ERR_EMPTY);   /* no candidate */
    ck_assert_int_eq(em_score_frequency(3, d, 2, num, &den), EM_ERR_DOMAIN);  /* 2 outside [0, 2) */
    ck_assert_uint_eq(den, 77);
    int neg[2] = {0, -1};
    ck_assert_int_eq(em_score_frequency(2, neg, 3, num, &den), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_score_maxnorm(0, d, 3, num, &den), EM_ERR_EMPTY);
    ck_assert_int_eq(em_score_maxnorm(3, d, 2, num, &den), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_score_maxnorm(3, d, 3, NULL, &den), EM_ERR_NULL);
    ck_assert_uint_eq(den, 77);
}
END_TEST

/* ============================================================ max-normalised (seed 004) */

static const char *const occ_labels[15] = {
    "Prof-specialty", "Craft-repair", "Exec-managerial", "Adm-clerical", "Sales",
    "Other-service", "Machine-op-inspct", "Transport-moving", "Handlers-cleaners",
    "Farming-fishing", "Tech-support", "Protective-serv", "Priv-house-serv", "Armed-Forces", "Baby"};
static const int occ_counts[15] = {4140, 4100, 4066, 3770, 3650, 3295, 2002, 1597,
                                   1370, 994,  928,  649,  149,  9,    1};

START_TEST(occupation_maxnorm)
{
    size_t n = 0;
    for (int i = 0; i < 15; i++)
        n += (size_t)occ_counts[i];
    ck_assert_uint_eq(n, 30720);
    int *d = malloc(n * sizeof *d);
    size_t k = 0;
    uint64_t s = 4;
    for (int i = 0; i < 15; i++)
        for (int j = 0; j < occ_counts[i]; j++)
            d[k++] = i;
    for (size_t i = n - 1; i > 0; i--) { /* shuffled: order does not matter */
        size_t j = (size_t)(em_t_splitmix(&s) % (i + 1));
        int t = d[i];
        d[i] = d[j];
        d[j] = t;
    }
    uint64_t num[15], den = 0;
    ck_assert_int_eq(em_score_maxnorm(n, d, 15, num, &den), EM_OK);
    ck_assert_uint_eq(den, 4140);
    for (int i = 0; i < 15; i++)
        ck_assert_uint_eq(num[i], (uint64_t)occ_counts[i]);
    free(d);
    /* seed: score(Tech-support) = 0.22415458937198068 = 928/4140 */
    ck_assert(fabs(928.0 / 4140.0 - 0.22415458937198068) < 1e-16);

    /* Why the seed's 200 draws look nearly uniform: with Delta = 1 the scores lie in
       [0, 1], so at epsilon 1 every weight is in [1, e^(1/2)]: P(Armed-Forces) = 0.0512
       (10.2 of 200 draws; the seed saw 14), P(Prof-specialty) = 0.0843 (16.9; seed 15).
       Count with Delta 1 gives Armed-Forces e^-2065.5. */
    char buf[15][32];
    const char *u[15], *uc[15];
    char cbuf[15][16];
    for (int i = 0; i < 15; i++) {
        snprintf(buf[i], sizeof buf[i], "%d/4140", occ_counts[i]);
        snprintf(cbuf[i], sizeof cbuf[i], "%d", occ_counts[i]);
        u[i] = buf[i];
        uc[i] = cbuf[i];
    }
    double p_af = oracle_p(15, u, "1", "1", EM_STANDARD, 13);
    double p_top = oracle_p(15, u, "1", "1", EM_STANDARD, 0);
    double p_baby = oracle_p(15, u, "1", "1", EM_STANDARD, 14);
    ck_assert_msg(p_af > 0.0511 && p_af < 0.0513, "P(Armed-Forces) = %.6g", p_af);
    ck_assert_msg(p_top > 0.0842 && p_top < 0.0844, "P(Prof-specialty) = %.6g", p_top);
    ck_assert(p_baby < p_af && p_af / p_baby < 1.003);
    ck_assert(p_top / p_baby < exp(0.5) + 1e-12);
    double c_af = oracle_p(15, uc, "1", "1", EM_STANDARD, 13);
    ck_assert_msg(c_af == 0.0, "count: P(Armed-Forces) = %g (e^-2065.5... is below double)", c_af);
    double c_top = oracle_p(15, uc, "1", "1", EM_STANDARD, 0);
    ck_assert(c_top > 0.999 && c_top <= 1.0);
    /* max-norm is monotone under add/remove (MaxNorm_Insert): the monotone variant is
       allowed, and still near uniform (weights in [1, e]) */
    double m_af = oracle_p(15, u, "1", "1", EM_MONOTONE, 13);
    ck_assert_msg(m_af > 0.0378 && m_af < 0.0380, "monotone: P(Armed-Forces) = %.6g", m_af);
    (void)occ_labels;
}
END_TEST

/* Delta = 1 is the best global bound (MaxNorm_Tight), and the run-time check of
   MaxNorm_Insert: adding a row moves every score the same way. */
START_TEST(maxnorm_tight_and_monotone)
{
    uint64_t num[3], den;
    int x[1] = {0}, y[2] = {0, 1}, z[2] = {0, 0};
    ck_assert_int_eq(em_score_maxnorm(1, x, 2, num, &den), EM_OK);
    ck_assert(num[1] == 0 && den == 1);                 /* 0 */
    ck_assert_int_eq(em_score_maxnorm(2, y, 2, num, &den), EM_OK);
    ck_assert(num[1] == 1 && den == 1);                 /* 1: +1 under add */
    ck_assert_int_eq(em_score_maxnorm(2, z, 2, num, &den), EM_OK);
    ck_assert(num[1] == 0 && den == 2);                 /* 0: -1 under substitution */
    uint64_t s = 11;
    int a[40], b[41];
    for (int trial = 0; trial < 3000; trial++) {
        size_t n = 1 + (size_t)(em_t_splitmix(&s) % 40), k = 1 + (size_t)(em_t_splitmix(&s) % 3);
        for (size_t i = 0; i < n; i++)
            a[i] = (int)(em_t_splitmix(&s) % k);
        size_t j = (size_t)(em_t_splitmix(&s) % (n + 1));
        int v = (int)(em_t_splitmix(&s) % k);
        for (size_t i = 0; i < j; i++) b[i] = a[i];
        b[j] = v;
        for (size_t i = j; i < n; i++) b[i + 1] = a[i];
        uint64_t na[3], nb[3], da, db;
        ck_assert_int_eq(em_score_maxnorm(n, a, k, na, &da), EM_OK);
        ck_assert_int_eq(em_score_maxnorm(n + 1, b, k, nb, &db), EM_OK);
        int up = 0, down = 0;
        for (size_t r = 0; r < k; r++) {
            /* compare nb/db with na/da exactly: nb * da vs na * db */
            uint64_t l = nb[r] * da, rr = na[r] * db;
            up |= l > rr;
            down |= l < rr;
            ck_assert(l <= rr + da * db); /* |difference| <= 1 */
            ck_assert(rr <= l + da * db);
        }
        ck_assert_msg(!(up && down), "trial %d: scores moved both ways", trial);
    }
}
END_TEST

/* ============================================================ median (seed 002) */

static const int64_t nice[7] = {1, 100, 102, 104, 105, 200, 365};

static int64_t *grid(int64_t lo, int64_t hi)
{
    int64_t *c = malloc((size_t)(hi - lo + 1) * sizeof *c);
    ck_assert(c);
    for (int64_t x = lo; x <= hi; x++)
        c[x - lo] = x;
    return c;
}

START_TEST(median_seed_nice)
{
    int64_t *c = grid(0, 400), u[401];
    ck_assert_int_eq(em_score_median(7, nice, 401, c, u), EM_OK);
    ck_assert_int_eq(u[104], 0);
    ck_assert_int_eq(u[102], -2);
    ck_assert_int_eq(u[103], -2);
    ck_assert_int_eq(u[105], -2);
    ck_assert_int_eq(u[100], -4);
    ck_assert_int_eq(u[101], -4);
    /* only 104 scores 0 */
    for (int x = 0; x <= 400; x++)
        ck_assert(u[x] <= 0 && (u[x] == 0) == (x == 104));
    ck_assert_int_eq(u[106], -4);  /* 104 and 105 must both move up */
    ck_assert_int_eq(u[150], -4);
    ck_assert_int_eq(u[201], -6);
    ck_assert_int_eq(u[0], -8);
    ck_assert_int_eq(u[400], -8);
    /* order of the rows does not matter */
    const int64_t shuffled[7] = {365, 104, 1, 200, 102, 105, 100};
    int64_t u2[401];
    ck_assert_int_eq(em_score_median(7, shuffled, 401, c, u2), EM_OK);
    ck_assert(memcmp(u, u2, sizeof u) == 0);
    free(c);
}
END_TEST

START_TEST(median_seed_worst)
{
    const int64_t A[7] = {0, 0, 0, 0, 1000000, 1000000, 1000000};
    size_t m = 1000001;
    int64_t *c = grid(0, 1000000), *u = malloc(m * sizeof *u);
    ck_assert_int_eq(em_score_median(7, A, m, c, u), EM_OK);
    ck_assert_int_eq(u[0], 0);
    for (size_t i = 1; i < m; i++)
        EM_T_REQUIRE(u[i] == -2, "u[%zu] = %lld", i, (long long)u[i]);
    free(c);
    free(u);
}
END_TEST

/* lower median of a sorted array */
static int64_t lower_median(const int64_t *b, size_t n)
{
    return b[(n - 1) / 2];
}

static int cmp64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* |A (+) B| for sorted multisets */
static size_t symdiff(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
    size_t i = 0, j = 0, d = 0;
    while (i < na && j < nb) {
        if (a[i] == b[j]) { i++; j++; }
        else if (a[i] < b[j]) { i++; d++; }
        else { j++; d++; }
    }
    return d + (na - i) + (nb - j);
}

/* min |A (+) B| over sorted multisets B with values in [lo, hi], sizes in [smin, smax],
   lower median c; SIZE_MAX if none.  Enumerates nondecreasing sequences. */
static size_t brute(const int64_t *a, size_t na, int64_t c, int64_t lo, int64_t hi,
                    size_t smin, size_t smax)
{
    size_t best = SIZE_MAX;
    int64_t b[8];
    for (size_t nb = smin; nb <= smax; nb++) {
        if (nb == 0)
            continue;
        for (size_t i = 0; i < nb; i++)
            b[i] = lo;
        for (;;) {
            if (lower_median(b, nb) == c) {
                size_t d = symdiff(a, na, b, nb);
                if (d < best)
                    best = d;
            }
            size_t i = nb;
            while (i > 0 && b[i - 1] == hi)
                i--;
            if (i == 0)
                break;
            b[i - 1]++;
            for (size_t t = i; t < nb; t++)
                b[t] = b[i - 1];
        }
    }
    return best;
}

/* The closed form MedianScore equals -min |A (+) B| over same-size B (the reading
   spec/Rank.acsl pins down), for every A of size <= 5 over {0..3} and c in {-1..4}. */
START_TEST(median_closed_form_brute_force)
{
    int64_t a[5], cands[6] = {-1, 0, 1, 2, 3, 4}, u[6];
    for (size_t n = 1; n <= 5; n++) {
        size_t total = 1;
        for (size_t i = 0; i < n; i++)
            total *= 4;
        for (size_t code = 0; code < total; code++) {
            size_t x = code;
            for (size_t i = 0; i < n; i++) {
                a[i] = (int64_t)(x % 4);
                x /= 4;
            }
            int64_t s[5];
            memcpy(s, a, n * sizeof *a);
            qsort(s, n, sizeof *s, cmp64);
            ck_assert_int_eq(em_score_median(n, a, 6, cands, u), EM_OK);
            for (size_t t = 0; t < 6; t++) {
                size_t best = brute(s, n, cands[t], -2, 5, n, n);
                EM_T_REQUIRE(u[t] == -(int64_t)best, "n %zu code %zu c %lld: %lld vs %zu", n, code,
                             (long long)cands[t], (long long)u[t], best);
            }
        }
    }
}
END_TEST

/* The other reading (B of any size) differs: smallest example A = {0}, c = -1 (any-size
   B = {-1, 0} costs 1; same size needs B = {-1}, cost 2); on the seed's A it gives -1 at
   102 and 103.  No example with |A| <= 1 and c >= 0 differs, none with A empty exists
   under the same-size reading (no B of size 0 has a median). */
START_TEST(median_two_readings)
{
    const int64_t a0[1] = {0};
    ck_assert_uint_eq(brute(a0, 1, -1, -2, 2, 1, 1), 2);
    ck_assert_uint_eq(brute(a0, 1, -1, -2, 2, 1, 3), 1);
    ck_assert_uint_eq(brute(a0, 1, 1, -2, 2, 1, 1), 2);
    ck_assert_uint_eq(brute(a0, 1, 1, -2, 2, 1, 3), 2); /* {0, 1} has lower median 0 */
    /* seed A, relative order only matters: map 1,100,102,104,105,200,365 -> 0,2,4,6,8,10,12,
       so 101 -> 3, 103 -> 5 */
    const int64_t r[7] = {0, 2, 4, 6, 8, 10, 12};
    ck_assert_uint_eq(brute(r, 7, 4, 0, 12, 7, 7), 2);  /* 102, same size */
    ck_assert_uint_eq(brute(r, 7, 4, 0, 12, 5, 8), 1);  /* 102, any size: drop one row above */
    ck_assert_uint_eq(brute(r, 7, 5, 0, 12, 5, 8), 1);  /* 103, any size: add 103 */
    ck_assert_uint_eq(brute(r, 7, 8, 0, 12, 5, 8), 2);  /* 105: 2 in both readings */
    ck_assert_uint_eq(brute(r, 7, 3, 0, 12, 7, 7), 4);  /* 101 */
}
END_TEST

START_TEST(median_errors)
{
    int64_t c[2] = {0, 1}, u[2] = {5, 5};
    ck_assert_int_eq(em_score_median(7, nice, 2, c, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_score_median(7, NULL, 2, c, u), EM_ERR_NULL);
    ck_assert_int_eq(em_score_median(7, nice, 2, NULL, u), EM_ERR_NULL);
    ck_assert_int_eq(em_score_median(0, nice, 2, c, u), EM_ERR_EMPTY);   /* empty data */
    ck_assert_int_eq(em_score_median(7, nice, 0, c, u), EM_ERR_EMPTY);
    ck_assert(u[0] == 5 && u[1] == 5);
}
END_TEST

/* ============================================================ quantile */

START_TEST(quantile_scores)
{
    int64_t *c = grid(0, 400), u[401];
    /* alpha = 1/2: u = -|#{x<c} - #{x>c}| (times 2 / 2 = 1) */
    ck_assert_int_eq(em_score_quantile(7, nice, 401, c, 1, 2, u), EM_OK);
    ck_assert_int_eq(u[104], 0);
    ck_assert_int_eq(u[103], -1);  /* L = 3, G = 4 */
    ck_assert_int_eq(u[102], -2);  /* L = 2, G = 4 */
    ck_assert_int_eq(u[105], -2);
    ck_assert_int_eq(u[0], -7);
    ck_assert_int_eq(u[400], -7);
    /* alpha = 1/4 (first quartile): u = -|3 L - G|; at c = 100: L = 1, G = 5: -2;
       at 102: L = 2, G = 4: -2; at 101: L = 2, G = 5: -1; at 1: L = 0, G = 6: -6 */
    ck_assert_int_eq(em_score_quantile(7, nice, 401, c, 1, 4, u), EM_OK);
    ck_assert_int_eq(u[101], -1);
    ck_assert_int_eq(u[100], -2);
    ck_assert_int_eq(u[102], -2);
    ck_assert_int_eq(u[1], -6);
    free(c);
}
END_TEST

START_TEST(quantile_errors)
{
    int64_t c[2] = {0, 1}, u[2] = {5, 5};
    ck_assert_int_eq(em_score_quantile(7, nice, 2, c, 0, 2, u), EM_ERR_DOMAIN);  /* alpha 0 */
    ck_assert_int_eq(em_score_quantile(7, nice, 2, c, 2, 2, u), EM_ERR_DOMAIN);  /* alpha 1 */
    ck_assert_int_eq(em_score_quantile(7, nice, 2, c, 3, 2, u), EM_ERR_DOMAIN);  /* alpha 3/2 */
    ck_assert_int_eq(em_score_quantile(7, nice, 2, c, -1, 2, u), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_score_quantile(0, nice, 2, c, 1, 2, u), EM_ERR_EMPTY);
    ck_assert_int_eq(em_score_quantile(7, nice, 2, c, 1, INT64_MAX, u), EM_ERR_OVERFLOW);
    ck_assert_int_eq(em_score_quantile(7, nice, 2, NULL, 1, 2, u), EM_ERR_NULL);
    ck_assert(u[0] == 5 && u[1] == 5);
    /* the largest qb that fits: n * qb <= INT64_MAX */
    ck_assert_int_eq(em_score_quantile(7, nice, 2, c, 1, INT64_MAX / 7, u), EM_OK);
}
END_TEST

/* Run-time check of the proven bounds on random neighbours: median 2 (both relations),
   quantile max(qa, qb - qa) (add/remove) and qb (substitution). */
START_TEST(rank_sensitivity_random)
{
    uint64_t s = 5;
    int64_t a[30], b[31], c[12], ua[12], ub[12];
    for (size_t t = 0; t < 12; t++)
        c[t] = (int64_t)t - 1;
    for (int trial = 0; trial < 4000; trial++) {
        size_t n = 1 + (size_t)(em_t_splitmix(&s) % 30);
        for (size_t i = 0; i < n; i++)
            a[i] = (int64_t)(em_t_splitmix(&s) % 10);
        int64_t qb = 2 + (int64_t)(em_t_splitmix(&s) % 7), qa = 1 + (int64_t)(em_t_splitmix(&s) % (uint64_t)(qb - 1));
        int64_t addb = qa > qb - qa ? qa : qb - qa;
        /* insertion */
        size_t j = (size_t)(em_t_splitmix(&s) % (n + 1));
        for (size_t i = 0; i < j; i++) b[i] = a[i];
        b[j] = (int64_t)(em_t_splitmix(&s) % 10);
        for (size_t i = j; i < n; i++) b[i + 1] = a[i];
        ck_assert_int_eq(em_score_median(n, a, 12, c, ua), EM_OK);
        ck_assert_int_eq(em_score_median(n + 1, b, 12, c, ub), EM_OK);
        for (size_t t = 0; t < 12; t++)
            EM_T_REQUIRE(llabs(ua[t] - ub[t]) <= 2, "median add");
        ck_assert_int_eq(em_score_quantile(n, a, 12, c, qa, qb, ua), EM_OK);
        ck_assert_int_eq(em_score_quantile(n + 1, b, 12, c, qa, qb, ub), EM_OK);
        for (size_t t = 0; t < 12; t++)
            EM_T_REQUIRE(llabs(ua[t] - ub[t]) <= addb, "quantile add");
        /* substitution */
        memcpy(b, a, n * sizeof *a);
        b[em_t_splitmix(&s) % n] = (int64_t)(em_t_splitmix(&s) % 10);
        ck_assert_int_eq(em_score_median(n, a, 12, c, ua), EM_OK);
        ck_assert_int_eq(em_score_median(n, b, 12, c, ub), EM_OK);
        for (size_t t = 0; t < 12; t++)
            EM_T_REQUIRE(llabs(ua[t] - ub[t]) <= 2, "median subst");
        ck_assert_int_eq(em_score_quantile(n, a, 12, c, qa, qb, ua), EM_OK);
        ck_assert_int_eq(em_score_quantile(n, b, 12, c, qa, qb, ub), EM_OK);
        for (size_t t = 0; t < 12; t++)
            EM_T_REQUIRE(llabs(ua[t] - ub[t]) <= qb, "quantile subst");
    }
}
END_TEST

/* ============================================================ revenue (seed 003) */

START_TEST(revenue_seed)
{
    const int64_t bids[4] = {1000, 1000, 1000, 3010}; /* 1, 1, 1, 3.01 in units of 0.001 */
    size_t m = 3500;                                  /* prices 0, 0.001, ..., 3.499 */
    int64_t *p = grid(0, 3499), *u = malloc(m * sizeof *u);
    ck_assert_int_eq(em_score_revenue(4, bids, m, p, 3499, u), EM_OK);
    ck_assert_int_eq(u[1000], 4000);  /* 4.00 at price 1.00 */
    ck_assert_int_eq(u[3000], 3000);  /* 3.00 */
    ck_assert_int_eq(u[3010], 3010);  /* 3.01 */
    ck_assert_int_eq(u[3011], 0);     /* 3.011: nobody buys */
    ck_assert_int_eq(u[999], 3996);
    ck_assert_int_eq(u[1001], 1001);
    ck_assert_int_eq(u[0], 0);
    size_t best = 0;
    for (size_t i = 0; i < m; i++)
        if (u[i] > u[best])
            best = i;
    ck_assert_uint_eq(best, 1000);
    free(p);
    free(u);
}
END_TEST

START_TEST(revenue_errors)
{
    const int64_t bids[2] = {5, 7};
    int64_t p[3] = {0, 5, 10}, u[3] = {9, 9, 9};
    ck_assert_int_eq(em_score_revenue(2, bids, 3, p, 0, u), EM_ERR_DOMAIN);   /* p_max = 0 */
    ck_assert_int_eq(em_score_revenue(2, bids, 3, p, -3, u), EM_ERR_DOMAIN);  /* p_max < 0 */
    ck_assert_int_eq(em_score_revenue(2, bids, 3, p, 9, u), EM_ERR_DOMAIN);   /* 10 > p_max */
    int64_t neg[2] = {-1, 3};
    ck_assert_int_eq(em_score_revenue(2, bids, 2, neg, 9, u), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_score_revenue(0, bids, 3, p, 10, u), EM_ERR_EMPTY);
    ck_assert_int_eq(em_score_revenue(2, bids, 0, p, 10, u), EM_ERR_EMPTY);
    ck_assert_int_eq(em_score_revenue(2, NULL, 3, p, 10, u), EM_ERR_NULL);
    int64_t big[1] = {INT64_MAX / 2 + 1};
    ck_assert_int_eq(em_score_revenue(2, bids, 1, big, INT64_MAX / 2 + 1, u), EM_ERR_OVERFLOW);
    ck_assert(u[0] == 9 && u[1] == 9 && u[2] == 9);
    ck_assert_int_eq(em_score_revenue(2, bids, 3, p, 10, u), EM_OK);
    ck_assert(u[0] == 0 && u[1] == 10 && u[2] == 0);
    /* add/remove: revenue only rises, by at most the price (Revenue_Insert) */
    const int64_t more[3] = {5, 7, 10};
    int64_t u2[3];
    ck_assert_int_eq(em_score_revenue(3, more, 3, p, 10, u2), EM_OK);
    for (int i = 0; i < 3; i++)
        ck_assert(u2[i] >= u[i] && u2[i] - u[i] <= p[i]);
}
END_TEST

/* ============================================================ randomized response */

/* Seed 003's curve: x = 1, u(1, 1) = 1/4, u(., 0) = 0, the seed's Delta u = 1, epsilon in
   0.001, 10.001, ..., 90.001: P(true value) = 1 / (1 + e^(-epsilon/8)), exactly. */
START_TEST(rr_curve)
{
    int64_t u[2];
    ck_assert_int_eq(em_score_rr(1, -1, 1, u), EM_OK);  /* beta = -1/4, gamma = 1/4 over d = 4 */
    ck_assert(u[0] == 0 && u[1] == 1);
    ck_assert_int_eq(em_score_rr(0, -1, 1, u), EM_OK);
    ck_assert(u[0] == 0 && u[1] == -1);
    const char *ux1[2] = {"0", "1/4"}, *ux0[2] = {"0", "-1/4"};
    for (int i = 0; i < 10; i++) {
        char eps[32];
        snprintf(eps, sizeof eps, "%d.001", 10 * i);
        double e = 10.0 * i + 0.001;
        double p1 = oracle_p(2, ux1, eps, "1", EM_STANDARD, 1);     /* returns 1 when x = 1 */
        double p0 = oracle_p(2, ux0, eps, "1", EM_STANDARD, 0);     /* returns 0 when x = 0 */
        double want = 1.0 - logistic_minus(e, 8.0);
        ck_assert_msg(close_rel(p1, want, 1e-15), "eps %s: %.17g vs %.17g", eps, p1, want);
        ck_assert(close_rel(p0, want, 1e-15));
        /* the proven Delta = |beta - gamma| = 1/2 doubles the exponent (e^(eps/4)); the
           monotone variant (RR_Monotone) doubles it again (e^(eps/2)) */
        double q = oracle_p(2, ux1, eps, "1/2", EM_STANDARD, 1);
        ck_assert(close_rel(q, 1.0 - logistic_minus(e, 4.0), 1e-15));
        double r = oracle_p(2, ux1, eps, "1/2", EM_MONOTONE, 1);
        ck_assert(close_rel(r, 1.0 - logistic_minus(e, 2.0), 1e-15));
    }
    /* points of the seed's plot: 0.5000312, 0.7773215, 0.9241506, ..., 0.9999870 */
    double p = oracle_p(2, ux1, "0.001", "1", EM_STANDARD, 1);
    ck_assert(close_rel(p, 0.5000312499999593, 1e-14));
    p = oracle_p(2, ux1, "10.001", "1", EM_STANDARD, 1);
    ck_assert(close_rel(p, 0.7773214985230328, 1e-14));
    p = oracle_p(2, ux1, "90.001", "1", EM_STANDARD, 1);
    ck_assert(close_rel(p, 0.9999869944973018, 1e-14));
    ck_assert_int_eq(em_score_rr(2, -1, 1, u), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_score_rr(-1, -1, 1, u), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_score_rr(0, -1, 1, NULL), EM_ERR_NULL);
}
END_TEST

/* ============================================================ Laplace */

START_TEST(laplace_scores)
{
    int64_t *g = grid(-20, 20), u[41];
    ck_assert_int_eq(em_score_laplace(3, 41, g, u), EM_OK);
    for (int i = 0; i < 41; i++)
        ck_assert_int_eq(u[i], -llabs(3 - g[i]));
    ck_assert_int_eq(u[23], 0);
    ck_assert_int_eq(u[0], -23);
    /* |f - f'| <= 1 moves every score by at most 1 */
    int64_t v[41];
    ck_assert_int_eq(em_score_laplace(4, 41, g, v), EM_OK);
    for (int i = 0; i < 41; i++)
        ck_assert(llabs(u[i] - v[i]) <= 1);
    ck_assert_int_eq(em_score_laplace(EM_SCORE_ABS_MAX + 1, 41, g, u), EM_ERR_OVERFLOW);
    int64_t far[2] = {0, -EM_SCORE_ABS_MAX - 1};
    ck_assert_int_eq(em_score_laplace(0, 2, far, u), EM_ERR_OVERFLOW);
    int64_t ext[2] = {EM_SCORE_ABS_MAX, -EM_SCORE_ABS_MAX};
    ck_assert_int_eq(em_score_laplace(-EM_SCORE_ABS_MAX, 2, ext, u), EM_OK);
    ck_assert_int_eq(u[0], -2 * EM_SCORE_ABS_MAX);
    ck_assert_int_eq(em_score_laplace(0, 0, g, u), EM_ERR_EMPTY);
    ck_assert_int_eq(em_score_laplace(0, 41, NULL, u), EM_ERR_NULL);
    free(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("score");
    TCase *tc = tcase_create("score");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, socks_count_frequency);
    tcase_add_test(tc, socks_delta_one_vs_one_over_n);
    tcase_add_test(tc, count_frequency_errors);
    tcase_add_test(tc, occupation_maxnorm);
    tcase_add_test(tc, maxnorm_tight_and_monotone);
    tcase_add_test(tc, median_seed_nice);
    tcase_add_test(tc, median_seed_worst);
    tcase_add_test(tc, median_closed_form_brute_force);
    tcase_add_test(tc, median_two_readings);
    tcase_add_test(tc, median_errors);
    tcase_add_test(tc, quantile_scores);
    tcase_add_test(tc, quantile_errors);
    tcase_add_test(tc, rank_sensitivity_random);
    tcase_add_test(tc, revenue_seed);
    tcase_add_test(tc, revenue_errors);
    tcase_add_test(tc, rr_curve);
    tcase_add_test(tc, laplace_scores);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
