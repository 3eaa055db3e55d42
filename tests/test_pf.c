/* test_pf.c: permute-and-flip (src/oracle/em_pf.c): the exact pmf against an independent
 * brute force over all orders, its known properties, and the exact sampler against the
 * pmf by exhaustive bit-level enumeration (tests/test_exact_enum.h), including a planted
 * modulo bias in the uniform draw of the random order, which the enumeration detects. */
#include "em_check_main.h"
#include "test_exact_enum.h"

#include "oracle/em_pf.h"
#include "em_problem_util.h"
#include "em_pf_brute.h"

/* pmf intervals (exact rationals) from em_pf_pmf_bounds at 320 bits */
static void pf_intervals(scen *s)
{
    mpfr_t lo[16], hi[16];
    for (size_t i = 0; i < s->n; i++)
        mpfr_inits2(320, lo[i], hi[i], (mpfr_ptr)0);
    ck_assert_int_eq(tp_pf_pmf_bounds(s->n, s->u, s->ex, s->eps, s->delta, s->variant, 320, lo, hi),
                     EM_OK);
    for (size_t i = 0; i < s->n; i++) {
        ck_assert(mpfr_cmp(lo[i], hi[i]) <= 0);
        mpfr_get_q(s->plo[i], lo[i]);
        mpfr_get_q(s->phi[i], hi[i]);
        mpfr_clears(lo[i], hi[i], (mpfr_ptr)0);
    }
}

static int pf_fn(void *ctx, em_bits *b, size_t *out)
{
    return em_pf_sample((em_pf *)ctx, b, out);
}

/* planted: modulo bias, (b + 2) bits reduced mod m */
static int uniform_modulo(em_bits *b, uint64_t m, uint64_t *out)
{
    unsigned nb = 1;
    while (nb < 62 && ((m - 1) >> nb) != 0)
        nb++;
    uint64_t x;
    int st = em_bits_get(b, nb + 2, &x);
    if (st == EM_OK)
        *out = x % m;
    return st;
}

static int check_pf(scen *s, unsigned L, em_pf_uniform_fn hook)
{
    em_pf *x;
    ck_assert_int_eq(tp_pf_new(s->n, s->u, s->ex, s->eps, s->delta, s->variant, &x), EM_OK);
    em_pf_set_uniform(x, hook);
    enum_state e;
    int v = enum_check(&e, pf_fn, x, s->n, L, s->ex, s->plo, s->phi);
    printf("  pf n=%zu L=%u: %llu runs, unfinished mass %.3g, violations %d%s\n", s->n, L,
           (unsigned long long)e.runs, enum_unf(&e), v, hook ? " (planted modulo bias)" : "");
    enum_free(&e);
    em_pf_free(x);
    return v;
}

START_TEST(pmf_brute_force)
{
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    double P[7], p[7], em[7];
    ck_assert_int_eq(tp_pf_pmf(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
    static const double cnt[7] = {10683, 14976, 4443, 418, 1025, 23, 993};
    for (int i = 0; i < 7; i++)
        p[i] = exp((cnt[i] - 14976) / 2000.0);
    long double B[7];
    pf_brute(7, p, B);
    double sum = 0, eu_pf = 0, eu_em = 0;
    for (int i = 0; i < 7; i++) {
        ck_assert_msg(fabsl(B[i] - P[i]) <= 1e-13L * P[i], "cell %d: %Lg vs %g", i, B[i], P[i]);
        sum += P[i];
        eu_pf += P[i] * cnt[i] / 1000;
        em[i] = mpq_get_d(s.plo[i]); /* the exponential mechanism's p from the oracle */
        eu_em += em[i] * cnt[i] / 1000;
    }
    ck_assert(fabs(sum - 1) < 1e-14);
    /* McKenna & Sheldon: never worse in expected utility than the exponential mechanism */
    ck_assert(eu_pf >= eu_em);
    printf("  marital: expected utility PF %.6f >= EM %.6f\n", eu_pf, eu_em);
    /* correctly rounded decimals: the mode's */
    char *dec[7];
    ck_assert_int_eq(tp_pf_pmf(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 30, dec), EM_OK);
    for (int i = 0; i < 7; i++) {
        ck_assert(dec[i] != NULL);
        ck_assert(fabs(strtod(dec[i], NULL) - P[i]) <= 1e-15 * P[i]);
        free(dec[i]);
    }
    scen_free(&s);
}
END_TEST

/* The definition of PF's output distribution that the Why3 privacy theorem is proven
 * over (proofs/theorems/PermuteFlip.mlw, spec/PermuteAndFlip.md): P(r) = p_r E[1/(1+K)],
 * K the number of heads among the other candidates' independent coins (Poisson-binomial).
 * Computed here independently of em_pf.c (Poisson-binomial DP in MPFR, 256 bits) and
 * compared with the oracle's e_k formula at n = 60 with ties, both variants: this ties
 * the theorem's definition to the pmf the command line prints. */
static void heads_pmf(size_t n, const long *u, double c, double *out)
{
    long umax = u[0];
    for (size_t i = 1; i < n; i++)
        if (u[i] > umax)
            umax = u[i];
    mpfr_t p[64], dist[64], t, acc;
    mpfr_inits2(256, t, acc, (mpfr_ptr)0);
    for (size_t i = 0; i < n; i++) {
        mpfr_inits2(256, p[i], dist[i], (mpfr_ptr)0);
        mpfr_set_si(p[i], u[i] - umax, MPFR_RNDN);
        mpfr_mul_d(p[i], p[i], c, MPFR_RNDN);
        mpfr_exp(p[i], p[i], MPFR_RNDN);
    }
    for (size_t r = 0; r < n; r++) {
        size_t m = 0; /* dist[k] = P(K = k) over the others seen so far */
        mpfr_set_ui(dist[0], 1, MPFR_RNDN);
        for (size_t s = 0; s < n; s++) {
            if (s == r)
                continue;
            mpfr_set_ui(dist[m + 1], 0, MPFR_RNDN);
            for (size_t k = m + 1; k >= 1; k--) { /* dist[k] = (1-p) dist[k] + p dist[k-1] */
                mpfr_ui_sub(t, 1, p[s], MPFR_RNDN);
                mpfr_mul(dist[k], dist[k], t, MPFR_RNDN);
                mpfr_mul(t, p[s], dist[k - 1], MPFR_RNDN);
                mpfr_add(dist[k], dist[k], t, MPFR_RNDN);
            }
            mpfr_ui_sub(t, 1, p[s], MPFR_RNDN);
            mpfr_mul(dist[0], dist[0], t, MPFR_RNDN);
            m++;
        }
        mpfr_set_ui(acc, 0, MPFR_RNDN);
        for (size_t k = 0; k <= m; k++) {
            mpfr_div_ui(t, dist[k], (unsigned long)(k + 1), MPFR_RNDN);
            mpfr_add(acc, acc, t, MPFR_RNDN);
        }
        mpfr_mul(acc, acc, p[r], MPFR_RNDN);
        out[r] = mpfr_get_d(acc, MPFR_RNDN);
    }
    for (size_t i = 0; i < n; i++)
        mpfr_clears(p[i], dist[i], (mpfr_ptr)0);
    mpfr_clears(t, acc, (mpfr_ptr)0);
}

START_TEST(pmf_heads_characterisation)
{
    enum { N = 60 };
    long u[N];
    mpq_t uq[N], eps, delta;
    unsigned char ex[N] = {0};
    mpq_inits(eps, delta, NULL);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 1, 1);
    for (int i = 0; i < N; i++) {
        u[i] = (i * 37) % 23 - (i % 5 == 0 ? 9 : 0); /* ties, several modes */
        mpq_init(uq[i]);
        mpq_set_si(uq[i], u[i], 1);
    }
    static const struct { em_variant v; double c; } cases[] = {
        {EM_STANDARD, 0.5}, {EM_MONOTONE, 1.0}};
    double P[N], H[N];
    for (size_t t = 0; t < 2; t++) {
        double sum = 0;
        ck_assert_int_eq(tp_pf_pmf(N, uq, ex, eps, delta, cases[t].v, P, 0, NULL), EM_OK);
        heads_pmf(N, u, cases[t].c, H);
        for (int i = 0; i < N; i++) {
            ck_assert_msg(fabs(H[i] - P[i]) <= 1e-13 * P[i], "cell %d: %.17g vs %.17g", i, H[i], P[i]);
            sum += H[i];
        }
        ck_assert(fabs(sum - 1) < 1e-13);
    }
    /* the comparison can fail: the monotone pmf is far from the standard one */
    double worst = 0;
    ck_assert_int_eq(tp_pf_pmf(N, uq, ex, eps, delta, EM_STANDARD, P, 0, NULL), EM_OK);
    heads_pmf(N, u, 1.0, H);
    for (int i = 0; i < N; i++)
        worst = fmax(worst, fabs(H[i] - P[i]) / P[i]);
    ck_assert(worst > 0.1);
    for (int i = 0; i < N; i++)
        mpq_clear(uq[i]);
    mpq_clears(eps, delta, NULL);
}
END_TEST

/* Theorem 2 of McKenna & Sheldon (PF's expected score >= the exponential mechanism's)
 * is not machine-checked here (spec/Theorems.md, section 4); this checks it on 600
 * random instances (n = 2..12 integer scores in [0, 20], eps/delta in {0.1, 1, 5}, both
 * coefficients), exact PF pmf against the core's EM probabilities, and shows that the
 * comparison can fail: the uniform output fails it on most instances. */
START_TEST(pf_expected_score_dominance)
{
    em_rng rng;
    ck_assert_int_eq(em_rng_init_chacha(&rng, 20261122), EM_OK);
    static const char *const epss[] = {"1/10", "1", "5"};
    static const double epsd[] = {0.1, 1.0, 5.0};
    int checked = 0, uniform_fails = 0;
    double min_gain = 1e300;
    for (int it = 0; it < 600; it++) {
        uint64_t x;
        ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
        size_t n = 2 + x % 11;
        int e = (int)((x >> 8) % 3);
        int variant = ((x >> 16) & 1) ? EM_MONOTONE : EM_STANDARD;
        double u[12], lw[12], logp[12], pem[12], ppf[12];
        mpq_t uq[12], eps, delta;
        unsigned char ex[12] = {0};
        mpq_inits(eps, delta, NULL);
        mpq_set_str(eps, epss[e], 10);
        mpq_canonicalize(eps);
        mpq_set_ui(delta, 1, 1);
        for (size_t i = 0; i < n; i++) {
            uint64_t y;
            ck_assert_int_eq(em_rng_u64(&rng, &y), EM_OK);
            u[i] = (double)(y % 21);
            mpq_init(uq[i]);
            mpq_set_ui(uq[i], (unsigned long)(y % 21), 1);
        }
        size_t am;
        ck_assert_int_eq(em_logweights(n, u, epsd[e], 1.0, variant, lw, &am), EM_OK);
        ck_assert_int_eq(em_normalize(n, lw, logp, pem), EM_OK);
        ck_assert_int_eq(tp_pf_pmf(n, uq, ex, eps, delta, variant, ppf, 0, NULL), EM_OK);
        double eem = 0, epf = 0, eun = 0;
        for (size_t i = 0; i < n; i++) {
            eem += pem[i] * u[i];
            epf += ppf[i] * u[i];
            eun += u[i] / (double)n;
            mpq_clear(uq[i]);
        }
        mpq_clears(eps, delta, NULL);
        ck_assert_msg(epf >= eem - 1e-12, "instance %d: PF %.17g < EM %.17g", it, epf, eem);
        if (epf - eem < min_gain)
            min_gain = epf - eem;
        if (!(eun >= eem - 1e-12))
            uniform_fails++; /* the same criterion rejects a worse mechanism */
        checked++;
    }
    ck_assert_int_eq(checked, 600);
    ck_assert_int_gt(uniform_fails, 500);
    printf("  PF >= EM in expected score on 600 random instances (smallest gain %.3g); "
           "uniform output fails the same check on %d\n", min_gain, uniform_fails);
}
END_TEST

START_TEST(pmf_ties_excluded_single)
{
    static const char *const u[] = {"1", "-inf", "1", "1", "1"};
    scen s;
    scen_init(&s, 5, u, "1", "1", EM_STANDARD);
    double P[5];
    char *dec[5];
    ck_assert_int_eq(tp_pf_pmf(5, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 5, dec), EM_OK);
    ck_assert(P[1] == 0.0);
    ck_assert_str_eq(dec[1], "0");
    for (int i = 0; i < 5; i++) {
        if (i != 1) {
            ck_assert(P[i] == 0.25);
            ck_assert_str_eq(dec[i], "0.25000");
        }
        free(dec[i]);
    }
    scen_free(&s);
    static const char *const v[] = {"-inf", "3"};
    scen_init(&s, 2, v, "1", "1", EM_STANDARD);
    ck_assert_int_eq(tp_pf_pmf(2, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
    ck_assert(P[0] == 0.0 && P[1] == 1.0);
    scen_free(&s);
    /* two candidates: P(low) = p / 2 exactly (the low one first, then accepted) */
    static const char *const w[] = {"0", "-2"};
    scen_init(&s, 2, w, "1", "1", EM_STANDARD);
    ck_assert_int_eq(tp_pf_pmf(2, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
    ck_assert(fabs(P[1] - exp(-1.0) / 2) <= 1e-16);
    scen_free(&s);
}
END_TEST

START_TEST(bits_pf)
{
    /* marital: valid but loose (a draw visits several candidates: many bits) */
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    pf_intervals(&s);
    ck_assert_int_eq(check_pf(&s, 20, NULL), 0);
    scen_free(&s);
    /* three candidates, moderate utilities: tight */
    static const char *const u3[] = {"1", "0", "1/2"};
    scen_init(&s, 3, u3, "1", "1", EM_STANDARD);
    pf_intervals(&s);
    ck_assert_int_eq(check_pf(&s, 24, NULL), 0);
    scen_free(&s);
    scen_init(&s, 3, u3, "1", "1", EM_MONOTONE);
    pf_intervals(&s);
    ck_assert_int_eq(check_pf(&s, 24, NULL), 0);
    scen_free(&s);
    /* ties and an excluded candidate */
    static const char *const t[] = {"2", "-inf", "2", "1.5"};
    scen_init(&s, 4, t, "1", "1", EM_STANDARD);
    pf_intervals(&s);
    ck_assert_int_eq(check_pf(&s, 24, NULL), 0);
    scen_free(&s);
    /* near underflow: a weight exp(-751) */
    static const char *const v[] = {"0", "-1500", "-1", "-inf"};
    scen_init(&s, 4, v, "1", "1", EM_STANDARD);
    pf_intervals(&s);
    ck_assert_int_eq(check_pf(&s, 24, NULL), 0);
    scen_free(&s);
}
END_TEST

START_TEST(planted_modulo_pf)
{
    static const char *const u3[] = {"1", "0", "1/2"};
    scen s;
    scen_init(&s, 3, u3, "1", "1", EM_STANDARD);
    pf_intervals(&s);
    ck_assert_int_eq(check_pf(&s, 24, NULL), 0);
    ck_assert_int_gt(check_pf(&s, 24, uniform_modulo), 0);
    scen_free(&s);
}
END_TEST

START_TEST(pf_rng_draws)
{
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    em_pf *x;
    ck_assert_int_eq(tp_pf_new(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, &x), EM_OK);
    em_rng rng;
    em_bits b;
    ck_assert_int_eq(em_rng_init_chacha(&rng, 5), EM_OK);
    em_bits_init_rng(&b, &rng);
    uint64_t hits[7] = {0};
    for (int k = 0; k < 100000; k++) {
        size_t r;
        EM_T_REQUIRE(em_pf_sample(x, &b, &r) == EM_OK && r < 7, "draw");
        hits[r]++;
    }
    double P[7];
    ck_assert_int_eq(tp_pf_pmf(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
    ck_assert(fabs(hits[1] / 1e5 - P[1]) < 0.01);
    size_t r;
    ck_assert_int_eq(em_pf_sample(NULL, &b, &r), EM_ERR_NULL);
    em_pf_free(x);
    scen_free(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("pf");
    TCase *tc = tcase_create("pf");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, pmf_brute_force);
    tcase_add_test(tc, pmf_ties_excluded_single);
    tcase_add_test(tc, pmf_heads_characterisation);
    tcase_add_test(tc, pf_expected_score_dominance);
    tcase_add_test(tc, bits_pf);
    tcase_add_test(tc, planted_modulo_pf);
    tcase_add_test(tc, pf_rng_draws);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
