/* test_api_law.c: the law of a mechanism through the public API (src/include/em_law.h):
 * probabilities against closed forms computed here with libm (standard, pf, measure,
 * pieces), exact values where they are exact, sampling streams that repeat under a seed,
 * the continuous functions and the utility report, and every entry refusing bad input
 * with a status and a message. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "api/em_obj.h"

static em_error err;

/* a finite mechanism over utilities u (NULL: excluded) */
static em_mech *mk_finite(size_t n, const char *const *u, const char *const *measure,
                       const char *eps, int variant, int digits, em_scn **s)
{
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = n, .utilities = u, .measure = measure}, s, &err), EM_OK);
    em_opts o = {eps, NULL, variant, 0, digits};
    em_mech *m = NULL;
    ck_assert_int_eq(em_mech_new(*s, &o, &m, &err), EM_OK);
    return m;
}

/* [0,1] with utility 0 (uniform), or [0,1] with utility r and [1,2] with 2 - r */
static em_mech *mk_pieces(int tent, em_scn **s)
{
    const char *lo[] = {"0", "1"}, *hi[] = {"1", "2"}, *a[] = {"0", "2"}, *b[] = {"1", "-1"};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = tent ? 2 : 1, .lo = lo, .hi = hi, .a = a, .b = tent ? b : NULL}, s, &err), EM_OK);
    em_opts o = {"2", NULL, EM_VARIANT_AUTO, 0, 5};
    em_mech *m = NULL;
    ck_assert_int_eq(em_mech_new(*s, &o, &m, &err), EM_OK);
    return m;
}

static void near(double got, double want)
{
    ck_assert_msg(fabs(got - want) <= 4e-16 * fabs(want), "%.17g != %.17g", got, want);
}

/* Candidate i's probability into *p; its decimals checked against prob and logprob where
 * given (NULL: not checked). */
static void get(em_mech *m, size_t i, em_prob *p, const char *prob, const char *logprob)
{
    ck_assert_int_eq(em_probs_get(m, i, p, &err), EM_OK);
    ck_assert_str_eq(err.msg, "");
    if (prob)
        ck_assert_str_eq(p->prob, prob);
    if (logprob)
        ck_assert_str_eq(p->logprob, logprob);
}

/* n draws of m with a fresh sampler of options o (em_sampler_new, em_sampler_draw) */
static int draws(em_mech *m, const em_sample_opts *o, size_t n, em_draw *out, em_error *e)
{
    em_sampler *sp = NULL;
    int st = em_sampler_new(m, o, &sp, e);
    if (st == EM_OK)
        st = em_sampler_draw(sp, n, out, e);
    em_free(sp);
    return st;
}

START_TEST(standard_two_candidates)
{
    /* eps 2, sensitivity 1: c = 1, P(1) = e / (1 + e) */
    const char *u[] = {"0", "1", NULL};
    em_scn *s;
    em_mech *m = mk_finite(3, u, NULL, "2", EM_VARIANT_AUTO, 5, &s);
    em_prob p;
    get(m, 1, &p, "0.73106", "-0.31326");
    near(p.prob_d, exp(1) / (1 + exp(1)));
    near(p.logprob_d, -log1p(exp(-1)));
    ck_assert_uint_eq(p.flags, 0);
    get(m, 0, &p, "0.26894", "-1.3133");
    near(p.prob_d, 1 / (1 + exp(1)));
    get(m, 2, &p, "0", "-inf");
    ck_assert_uint_eq(p.flags, EM_PROB_ZERO);
    ck_assert(p.prob_d == 0 && isinf(p.logprob_d) && p.logprob_d < 0);
    ck_assert_int_eq(em_probs_get(m, 3, &p, &err), EM_ERR_DOMAIN);
    ck_assert_str_ne(err.msg, "");
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(exact_cases)
{
    const char *one[] = {"7", NULL};
    em_scn *s;
    em_mech *m = mk_finite(2, one, NULL, "1", EM_VARIANT_AUTO, 0, &s);
    em_prob p;
    get(m, 0, &p, "1", "0");
    ck_assert(p.flags & EM_PROB_ONE);
    em_free(m);
    em_free(s);
    const char *tie[] = {"3", "3", "3", "3"};
    m = mk_finite(4, tie, NULL, "1", EM_VARIANT_AUTO, 3, &s);
    get(m, 2, &p, "0.250", NULL);
    ck_assert(p.prob_d == 0.25 && (p.flags & EM_PROB_RATIONAL));
    em_free(m);
    em_free(s);
    /* 1 - 1e-30 rounds to 1 at 17 digits: 17 nines */
    const char *gap[] = {"0", "-138.155105579642741"};
    m = mk_finite(2, gap, NULL, "1", EM_STANDARD, 0, &s);
    get(m, 0, &p, "0.99999999999999999", NULL);
    ck_assert(p.flags & EM_PROB_NEAR_ONE);
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(permute_and_flip)
{
    /* eps 2, D 1: p_1 = 1, p_0 = 1/e; P(0) = p_0 / 2, P(1) = 1 - p_0 / 2 */
    const char *u[] = {"0", "1", NULL};
    em_scn *s;
    em_mech *m = mk_finite(3, u, NULL, "2", EM_PF, 6, &s);
    ck_assert_int_eq(em_probs_prepare(m, &err), EM_OK);
    em_prob p;
    get(m, 0, &p, "0.183940", NULL);
    near(p.prob_d, exp(-1) / 2);
    near(p.logprob_d, -1 - log(2));
    ck_assert_str_eq(p.logprob, "-1.69315");
    get(m, 1, &p, "0.816060", NULL);
    near(p.prob_d, 1 - exp(-1) / 2);
    near(p.logprob_d, log1p(-exp(-1) / 2));
    get(m, 2, &p, NULL, NULL);
    ck_assert_uint_eq(p.flags, EM_PROB_ZERO);
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(measure_and_pieces)
{
    const char *u[] = {"0", "0"}, *w[] = {"1", "3"};
    em_scn *s;
    em_mech *m = mk_finite(2, u, w, "1", EM_VARIANT_AUTO, 5, &s);
    em_prob p;
    get(m, 1, &p, "0.75000", NULL);
    ck_assert(p.prob_d == 0.75);
    near(p.logprob_d, log(0.75));
    em_free(m);
    em_free(s);
    /* tent: c = 1, mass of [0,1] = int e^r = e - 1 = mass of [1,2]: 1/2 each */
    m = mk_pieces(1, &s);
    get(m, 0, &p, "0.50000", NULL);
    char *lo, *hi;
    ck_assert_int_eq(em_piece_ends(m, 1, &lo, &hi, &err), EM_OK);
    ck_assert_str_eq(lo, "1");
    ck_assert_str_eq(hi, "2");
    em_free(lo);
    em_free(hi);
    ck_assert_int_eq(em_piece_ends(m, 2, &lo, &hi, &err), EM_ERR_DOMAIN);
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(continuous_functions)
{
    em_scn *s;
    em_mech *m = mk_pieces(0, &s); /* uniform on [0, 1] */
    char *v = NULL, *l = NULL;
    ck_assert_int_eq(em_law_at(m, EM_LAW_CDF, "0.25", NULL, &v, NULL, &err), EM_OK);
    ck_assert(strtod(v, NULL) == 0.25);
    em_free(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_CDF, "-3", NULL, &v, NULL, &err), EM_OK);
    ck_assert_str_eq(v, "0");
    em_free(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_INTERVAL, "1/4", "3/4", &v, NULL, &err), EM_OK);
    ck_assert(strtod(v, NULL) == 0.5);
    em_free(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_DENSITY, "0.5", NULL, &v, &l, &err), EM_OK);
    ck_assert(strtod(v, NULL) == 1 && strtod(l, NULL) == 0);
    em_free(v);
    em_free(l);
    ck_assert_int_eq(em_law_at(m, EM_LAW_DENSITY, "2", NULL, &v, NULL, &err), EM_OK);
    ck_assert_str_eq(v, "0");
    em_free(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_QUANTILE, "0.5", NULL, &v, NULL, &err), EM_OK);
    ck_assert(strtod(v, NULL) == 0.5);
    em_free(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_QUANTILE, "2", NULL, &v, NULL, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_null(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_CDF, "x", NULL, &v, NULL, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "bad number 'x'"));
    /* a control byte, a newline or a byte that is not UTF-8 is shown escaped, never raw */
    ck_assert_int_eq(em_law_at(m, EM_LAW_CDF, "0.5\x1b[2J\n\xff", NULL, &v, NULL, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "bad number '0.5\\x1b[2J\\x0a\\xff': "));
    ck_assert_int_eq(em_law_at(m, EM_LAW_INTERVAL, "1", "0", &v, NULL, &err), EM_ERR_DOMAIN);
    /* one call, the arguments of its kind only */
    ck_assert_int_eq(em_law_at(m, 4, "0", NULL, &v, NULL, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_null(v);
    ck_assert_int_eq(em_law_at(m, EM_LAW_CDF, "0", "1", &v, NULL, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_law_at(m, EM_LAW_INTERVAL, "0", NULL, &v, NULL, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_law_at(m, EM_LAW_QUANTILE, "0.5", NULL, &v, &l, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "em_law_at: y is EM_LAW_INTERVAL's b"));
    /* the grid 0, 1/3, 2/3, 1: exact text, printed rounded to 5 digits */
    char *x, *shown;
    ck_assert_int_eq(em_num_grid_point(m, "0", "1", 4, 1, &x, &shown, &err), EM_OK);
    ck_assert_str_eq(x, "1/3");
    ck_assert_str_eq(shown, "0.33333");
    em_free(x);
    em_free(shown);
    ck_assert_int_eq(em_num_grid_point(NULL, "0", "1", 5, 1, &x, NULL, &err), EM_OK);
    ck_assert_str_eq(x, "0.25");
    em_free(x);
    ck_assert_int_eq(em_num_grid_point(m, "1", "0", 3, 0, &x, &shown, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_num_grid_point(m, "0", "1", 1, 0, &x, &shown, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_num_grid_point(m, "0", "1", 3, 3, &x, &shown, &err), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_num_grid_point(m, "0", "1", 0, 0, &x, &shown, &err), EM_ERR_DOMAIN);
    em_free(m);
    em_free(s);
    int sign;
    ck_assert_int_eq(em_num_cmp("1/3", "0.3333", &sign, &err), EM_OK);
    ck_assert_int_eq(sign, 1);
    ck_assert_int_eq(em_num_cmp("0x1p-2", "0.25", &sign, &err), EM_OK);
    ck_assert_int_eq(sign, 0);
    ck_assert_int_eq(em_num_cmp("1", "1..", &sign, &err), EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "'1..'"));
}
END_TEST

START_TEST(utility_report)
{
    /* eps 2: P(1) = p = e / (1 + e); E[u] = p, loss = 1 - p, sd = sqrt(p (1 - p)) */
    const char *u[] = {"0", "1"};
    em_scn *s;
    em_mech *m = mk_finite(2, u, NULL, "2", EM_VARIANT_AUTO, 0, &s);
    em_utility_result *r = NULL;
    const char *half[] = {"0.5"}, *neg[] = {"-1"};
    ck_assert_int_eq(em_utility(m, &(em_utility_opts){1, half, 0, NULL}, &r, &err), EM_OK);
    double p = exp(1) / (1 + exp(1));
    ck_assert_str_eq(r->opt, "1.0000000000000000");
    near(r->expected_utility_d, p);
    near(r->expected_loss_d, 1 / (1 + exp(1)));
    near(r->sd_loss_d, sqrt(p * (1 - p)));
    near(r->p_best_d, p);
    ck_assert(fabs(strtod(r->expected_utility, NULL) - p) < 1e-16);
    near(strtod(r->p_loss_gt[0], NULL), 1 / (1 + exp(1)));
    em_free(r);
    ck_assert_int_eq(em_utility(m, &(em_utility_opts){1, neg, 0, NULL}, &r, &err),
                     EM_ERR_DOMAIN);
    em_free(m);
    em_free(s);
    /* pf: the other is visited first and accepted with probability e^-1 */
    m = mk_finite(2, u, NULL, "2", EM_PF, 0, &s);
    ck_assert_int_eq(em_utility(m, NULL, &r, &err), EM_OK);
    near(r->p_best_d, 1 - exp(-1) / 2);
    em_free(r);
    em_free(m);
    em_free(s);
}
END_TEST

/* the same seed repeats; a stream drawn in pieces is the one drawn at once */
START_TEST(sampling_streams)
{
    const char *u[] = {"0", "1", "2", NULL};
    em_scn *s;
    em_mech *m = mk_finite(4, u, NULL, "1", EM_VARIANT_AUTO, 0, &s);
    for (int kind = 0; kind < 3; kind++) {
        em_sample_opts o = EM_SAMPLE_OPTS_INIT;
        o.seeded = 1;
        o.seed = 42;
        o.sampler = kind == 1 ? EM_SAMPLER_FLOAT : EM_SAMPLER_EXACT;
        o.timing = kind == 2 ? EM_TIMING_FIXED : EM_TIMING_VARIABLE;
        em_draw a[200], b[200];
        ck_assert_int_eq(draws(m, &o, 200, a, &err), EM_OK);
        em_sampler *sp;
        ck_assert_int_eq(em_sampler_new(m, &o, &sp, &err), EM_OK);
        ck_assert_int_eq(em_sampler_draw(sp, 77, b, &err), EM_OK);
        ck_assert_int_eq(em_sampler_draw(sp, 123, b + 77, &err), EM_OK);
        em_free(sp);
        size_t seen[4] = {0};
        for (int k = 0; k < 200; k++) {
            ck_assert_uint_eq(a[k].index, b[k].index);
            ck_assert_uint_lt(a[k].index, 3); /* never the excluded one */
            ck_assert(isnan(a[k].value));      /* a finite draw has no value */
            seen[a[k].index]++;
        }
        ck_assert(seen[2] > seen[0]); /* P(2) = 0.506, P(0) = 0.186 */
    }
    em_sample_opts o = EM_SAMPLE_OPTS_INIT; /* the OS source */
    em_draw one;
    ck_assert_int_eq(draws(m, &o, 1, &one, &err), EM_OK);
    ck_assert_uint_lt(one.index, 3);
    em_free(m);
    em_free(s);
    m = mk_pieces(1, &s);
    em_draw xa[50], xb[50];
    o.seeded = 1;
    o.seed = 7;
    ck_assert_int_eq(draws(m, &o, 50, xa, &err), EM_OK);
    ck_assert_int_eq(draws(m, &o, 50, xb, &err), EM_OK);
    for (int k = 0; k < 50; k++) {
        ck_assert(xa[k].value == xb[k].value && xa[k].value >= 0 && xa[k].value <= 2);
        /* the piece drawn: [0, 1] or [1, 2] */
        ck_assert_uint_eq(xa[k].index, xb[k].index);
        ck_assert(xa[k].index == 0 ? xa[k].value <= 1 : xa[k].index == 1 && xa[k].value >= 1);
    }
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(bad_input)
{
    em_prob p;
    char *v = (char *)1, *w = (char *)1;
    em_draw idx;
    int sign;
    em_sample_opts o = EM_SAMPLE_OPTS_INIT;
    em_sampler *sp = (em_sampler *)1;
    em_utility_result *r = (em_utility_result *)1;
    ck_assert_int_eq(em_probs_prepare(NULL, &err), EM_ERR_NULL);
    ck_assert_str_ne(err.msg, "");
    ck_assert_int_eq(em_probs_get(NULL, 0, &p, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_piece_ends(NULL, 0, &v, &w, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_sampler_new(NULL, &o, &sp, &err), EM_ERR_NULL);
    ck_assert_ptr_null(sp);
    ck_assert_int_eq(draws(NULL, &o, 1, &idx, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_sampler_draw(NULL, 1, &idx, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_law_at(NULL, EM_LAW_CDF, "0", NULL, &v, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_law_at(NULL, EM_LAW_DENSITY, "0", NULL, &v, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_law_at(NULL, EM_LAW_DENSITY, "0", NULL, &v, &w, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_law_at(NULL, EM_LAW_QUANTILE, "0", NULL, &v, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_law_at(NULL, EM_LAW_INTERVAL, "0", "1", &v, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_utility(NULL, NULL, &r, &err), EM_ERR_NULL);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(em_num_cmp(NULL, "1", &sign, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_num_grid_point(NULL, "0", "1", 2, 0, NULL, NULL, &err), EM_ERR_NULL);
    em_free(NULL);
    em_free(NULL);
    /* a mechanism with bad epsilon is never made: NaN, inf, <= 0 */
    const char *u[] = {"0", "1"};
    em_scn *s;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 2, .utilities = u}, &s, &err), EM_OK);
    const char *bad_eps[] = {"nan", "inf", "0", "-1"};
    for (int k = 0; k < 4; k++) {
        em_opts eo = {bad_eps[k], NULL, EM_VARIANT_AUTO, 0, 0};
        em_mech *bm = (em_mech *)1;
        ck_assert_int_ne(em_mech_new(s, &eo, &bm, &err), EM_OK);
        ck_assert_ptr_null(bm);
    }
    em_opts eo = {"1", NULL, EM_VARIANT_AUTO, 0, 0};
    em_mech *m;
    ck_assert_int_eq(em_mech_new(s, &eo, &m, &err), EM_OK);
    ck_assert_int_eq(em_law_at(m, EM_LAW_CDF, "0", NULL, &v, NULL, &err), EM_ERR_DOMAIN); /* finite */
    ck_assert_ptr_nonnull(strstr(err.msg, "finite"));
    ck_assert_int_eq(draws(m, &o, 0, &idx, &err), EM_ERR_EMPTY);
    ck_assert_int_eq(draws(m, &o, 1, NULL, &err), EM_ERR_NULL);
    ck_assert_int_eq(draws(m, NULL, 1, &idx, &err), EM_ERR_NULL);
    o.sampler = 9;
    ck_assert_int_eq(draws(m, &o, 1, &idx, &err), EM_ERR_DOMAIN);
    o.sampler = EM_SAMPLER_FLOAT;
    o.timing = EM_TIMING_FIXED;
    ck_assert_int_eq(draws(m, &o, 1, &idx, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "timing fixed"));
    o.timing = 5;
    ck_assert_int_eq(draws(m, &o, 1, &idx, &err), EM_ERR_DOMAIN);
    em_free(m);
    eo.variant = EM_PF;
    ck_assert_int_eq(em_mech_new(s, &eo, &m, &err), EM_OK);
    o.timing = EM_TIMING_VARIABLE;
    ck_assert_int_eq(draws(m, &o, 1, &idx, &err), EM_ERR_VARIANT);
    ck_assert_ptr_nonnull(strstr(err.msg, "only the exact sampler"));
    em_free(m);
    em_free(s);
    /* a utility beyond double's range: the float sampler names it */
    const char *big[] = {"0", "1e400"};
    const char *lab[] = {"a", "huge"};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 2, .utilities = big, .labels = lab}, &s, &err), EM_OK);
    eo.variant = EM_VARIANT_AUTO;
    ck_assert_int_eq(em_mech_new(s, &eo, &m, &err), EM_OK);
    ck_assert_int_eq(draws(m, &o, 1, &idx, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "'huge' is beyond double's range"));
    o.sampler = EM_SAMPLER_EXACT;
    ck_assert_int_eq(draws(m, &o, 1, &idx, &err), EM_OK);
    ck_assert_uint_eq(idx.index, 1); /* P(a) = exp(-5e399) */
    em_free(m);
    em_free(s);
}
END_TEST

/* The float sampler's many-draw path (cumulative table, binary search) gives the
   cells of the one-shot core path (em_sample_fixed's linear scan) on the same seeded
   stream: drawn one per call, several per call, with ties and zero weights. */
START_TEST(float_many_draws_same_cells)
{
    enum { N = 40, DRAWS = 3000 };
    char ubuf[N][16], lbuf[N][16];
    const char *u[N], *lab[N];
    double ud[N];
    for (int i = 0; i < N; i++) {
        /* ties (i % 5 == 0 share 0), and weights that are 0 in double (-2000) */
        int v = i % 5 == 0 ? 0 : i % 7 == 0 ? -2000 : -(i % 9);
        snprintf(ubuf[i], sizeof ubuf[i], "%d", v);
        snprintf(lbuf[i], sizeof lbuf[i], "c%d", i);
        u[i] = ubuf[i];
        lab[i] = lbuf[i];
        ud[i] = v;
    }
    em_scn *s;
    em_mech *m;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = N, .utilities = u, .labels = lab}, &s, &err), EM_OK);
    em_opts eo = {"1", NULL, EM_VARIANT_AUTO, 0, 0};
    ck_assert_int_eq(em_mech_new(s, &eo, &m, &err), EM_OK);
    /* the reference: the core's one-shot path on the same doubles and stream */
    double lw[N];
    uint64_t W[N], total, scale;
    size_t argmax, want[DRAWS];
    em_rng rng;
    ck_assert_int_eq(em_logweights(N, ud, 1.0, 1.0, EM_STANDARD, lw, &argmax), EM_OK);
    ck_assert_int_eq(em_weights_fixed(N, lw, W, &total, &scale), EM_OK);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){99}, 1), EM_OK);
    for (int k = 0; k < DRAWS; k++)
        ck_assert_int_eq(em_sample_fixed(N, W, total, &rng, &want[k]), EM_OK);
    for (int batch = 1; batch <= 2; batch++) {
        em_sample_opts o = {99, 1, EM_SAMPLER_FLOAT, EM_TIMING_VARIABLE};
        em_sampler *sp;
        ck_assert_int_eq(em_sampler_new(m, &o, &sp, &err), EM_OK);
        em_draw got[DRAWS];
        if (batch == 1) {
            for (int k = 0; k < DRAWS; k++)
                ck_assert_int_eq(em_sampler_draw(sp, 1, &got[k], &err), EM_OK);
        } else {
            ck_assert_int_eq(em_sampler_draw(sp, 1, &got[0], &err), EM_OK);
            ck_assert_int_eq(em_sampler_draw(sp, DRAWS - 1, &got[1], &err), EM_OK);
        }
        for (int k = 0; k < DRAWS; k++) {
            ck_assert_msg(got[k].index == want[k], "draw %d (batch %d): %zu, one-shot path %zu", k,
                          batch, got[k].index, want[k]);
            ck_assert_msg(W[got[k].index] > 0, "draw %d: zero-weight cell %zu", k, got[k].index);
        }
        em_free(sp);
    }
    em_free(m);
    em_free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("api_law");
    TCase *tc = tcase_create("api_law");
    tcase_add_test(tc, float_many_draws_same_cells);
    tcase_add_test(tc, standard_two_candidates);
    tcase_add_test(tc, exact_cases);
    tcase_add_test(tc, permute_and_flip);
    tcase_add_test(tc, measure_and_pieces);
    tcase_add_test(tc, continuous_functions);
    tcase_add_test(tc, utility_report);
    tcase_add_test(tc, sampling_streams);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
