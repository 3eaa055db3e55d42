/* test_pf.c: permute-and-flip (src/oracle/em_pf.c, em_pf_law.c): the exact pmf against an
 * independent brute force over all orders, its known properties, the law at scale against
 * the O(n^2) brute force digit for digit (random small cases, ties, excluded candidates,
 * 300 candidates, utilities beyond MPFR's range against closed forms), and the exact
 * sampler against the pmf by exhaustive bit-level enumeration (tests/test_exact_enum.h),
 * including a planted modulo bias in the uniform draw of the random order, which the
 * enumeration detects. */
#include "em_check_main.h"
#include "test_exact_enum.h"

#include "oracle/em_exponents.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "oracle/em_pf_law.h"
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
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){20261122}, 1), EM_OK);
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
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){5}, 1), EM_OK);
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

/* ------------------------------------------ the law at scale against the brute force */

/* The brute force's correct rounding (em_pf_brute.h): it must decide everything */
static void brute_round(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                        const mpq_t delta, int variant, int K, double *pd, char **dec,
                        double *ld, char **lg)
{
    ck_assert_int_eq(pf_brute_round(n, u, ex, eps, delta, variant, K, pd, dec, ld, lg), EM_OK);
}

/* The law at scale on n exact utilities: its doubles, decimals and logs */
static int law_round(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                     const mpq_t delta, int variant, int K, double *pd, char **dec, double *ld,
                     char **lg, unsigned *fl)
{
    em_pfl *L;
    int st = tp_pfl_new(n, u, ex, eps, delta, variant, &L);
    if (st == EM_OK) {
        em_pfl_out o = {dec, lg, pd, ld, fl};
        st = em_pfl_round(L, K, &o);
        em_pfl_free(L);
    }
    return st;
}

/* both agree digit for digit: decimals, logs, doubles (lg may be NULL where undecided) */
static void agree(size_t n, int K, const char *what, char **d1, char **d2, double *p1,
                  double *p2, char **l1, char **l2, double *q1, double *q2)
{
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(d1[i] && d2[i] && !strcmp(d1[i], d2[i]) && p1[i] == p2[i],
                      "%s K=%d P(%zu): law %s %.17g, brute %s %.17g", what, K, i,
                      d1[i] ? d1[i] : "NULL", p1[i], d2[i] ? d2[i] : "NULL", p2[i]);
        ck_assert_msg(l1[i] && l2[i] && !strcmp(l1[i], l2[i]) && q1[i] == q2[i],
                      "%s K=%d log P(%zu): law %s %.17g, brute %s %.17g", what, K, i,
                      l1[i] ? l1[i] : "NULL", q1[i], l2[i] ? l2[i] : "NULL", q2[i]);
    }
}

/* a deterministic generator (no libc rand: the cases are the same everywhere) */
static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

/* Random small scenarios (ties, excluded candidates, fractions, both variants) of at most
 * nmax candidates, K drawn from Ks: the law at scale and the brute force give the same
 * decimals, logs and doubles. */
enum { NMAX = 16 };
static void random_cases(uint64_t x, int cases, size_t nmax, const int *Ks, unsigned nK)
{
    static const char *const eps_s[] = {"1", "1/3", "5", "1/100", "2"};
    mpq_t u[NMAX], eps, delta;
    for (int i = 0; i < NMAX; i++)
        mpq_init(u[i]);
    mpq_inits(eps, delta, (mpq_ptr)0);
    for (int c = 0; c < cases; c++) {
        size_t n = 1 + lcg(&x) % nmax;
        unsigned char ex[NMAX] = {0};
        unsigned kind = (unsigned)(lcg(&x) % 5);
        for (size_t i = 0; i < n; i++) {
            long num = kind == 0 ? (long)(lcg(&x) % 3)          /* many ties */
                       : kind == 1 ? (long)(lcg(&x) % 40)
                       : kind == 2 ? (long)(lcg(&x) % 4000) - 2000 /* spread */
                       : kind == 3 ? (long)(lcg(&x) % 7)
                                   : (long)(lcg(&x) % 100000);
            mpq_set_si(u[i], num, 1 + (unsigned long)(lcg(&x) % (kind == 3 ? 1 : 9)));
            mpq_canonicalize(u[i]);
            ex[i] = lcg(&x) % 8 == 0;
        }
        ex[lcg(&x) % n] = 0;
        int kind_e;
        ck_assert_int_eq(em_q_parse_str(eps_s[lcg(&x) % 5], 0, eps, &kind_e, NULL), EM_OK);
        mpq_set_ui(delta, 1 + lcg(&x) % 3, 1);
        int variant = lcg(&x) % 2 ? EM_STANDARD : EM_MONOTONE, K = Ks[lcg(&x) % nK];
        double p1[NMAX], p2[NMAX], q1[NMAX], q2[NMAX];
        char *d1[NMAX], *d2[NMAX], *l1[NMAX], *l2[NMAX];
        ck_assert_int_eq(law_round(n, u, ex, eps, delta, variant, K, p1, d1, q1, l1, NULL), EM_OK);
        brute_round(n, u, ex, eps, delta, variant, K, p2, d2, q2, l2);
        char what[32];
        snprintf(what, sizeof what, "case %d", c);
        agree(n, K, what, d1, d2, p1, p2, l1, l2, q1, q2);
        /* the public entry point gives the same */
        char *d3[NMAX];
        double p3[NMAX];
        ck_assert_int_eq(tp_pf_pmf(n, u, ex, eps, delta, variant, p3, K, d3), EM_OK);
        for (size_t i = 0; i < n; i++) {
            ck_assert(p3[i] == p1[i] && !strcmp(d3[i], d1[i]));
            free(d1[i]);
            free(d2[i]);
            free(d3[i]);
            free(l1[i]);
            free(l2[i]);
        }
    }
    for (int i = 0; i < NMAX; i++)
        mpq_clear(u[i]);
    mpq_clears(eps, delta, (mpq_ptr)0);
}

/* 1 to 40 digits */
START_TEST(law_vs_brute_random)
{
    static const int Ks[] = {1, 2, 3, 17, 17, 40};
    random_cases(20240601, 240, NMAX, Ks, 6);
}
END_TEST

/* 40 and 100 digits (the levels' precision, and the brute force's, near 350 bits) */
START_TEST(law_vs_brute_high_digits)
{
    static const int Ks[] = {40, 100};
    random_cases(20261128, 60, 12, Ks, 2);
}
END_TEST

/* Larger scenarios against the brute force (200 candidates: spread utilities with many
 * small probabilities and heavy ones, near ties, ties with a single mode near 1); and the
 * law's interval bounds (what the utility report sums) overlap the brute force's at
 * 80 bits and are that narrow (the brute force's computed at 512 bits). */
START_TEST(law_vs_brute_200)
{
    enum { N = 200 };
    mpq_t *u = malloc(N * sizeof *u), eps, delta;
    unsigned char ex[N] = {0};
    mpq_inits(eps, delta, (mpq_ptr)0);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 1, 1);
    for (int i = 0; i < N; i++)
        mpq_init(u[i]);
    double p1[N], p2[N], q1[N], q2[N];
    char *d1[N], *d2[N], *l1[N], *l2[N];
    for (int kind = 0; kind < 3; kind++) {
        for (int i = 0; i < N; i++) {
            if (kind == 0) /* spread: p from 1 down to exp(-60) */
                mpq_set_si(u[i], (long)((7919L * i) % 1201) - 1200, 10);
            else if (kind == 1) /* near ties */
                mpq_set_si(u[i], -(long)((7919L * i) % 1000), 100000);
            else /* one mode far above 299 ties */
                mpq_set_si(u[i], i == 17 ? 40 : 0, 1);
            mpq_canonicalize(u[i]);
            ex[i] = kind == 0 && i % 37 == 5;
        }
        ck_assert_int_eq(law_round(N, u, ex, eps, delta, EM_STANDARD, 17, p1, d1, q1, l1, NULL),
                         EM_OK);
        brute_round(N, u, ex, eps, delta, EM_STANDARD, 17, p2, d2, q2, l2);
        char what[32];
        snprintf(what, sizeof what, "n=200 kind %d", kind);
        agree(N, 17, what, d1, d2, p1, p2, l1, l2, q1, q2);
        for (int i = 0; i < N; i++) {
            free(d1[i]);
            free(d2[i]);
            free(l1[i]);
            free(l2[i]);
        }
        if (kind == 1)
            continue; /* the bounds (the law's machinery is the same as just above) */
        mpfr_t *a = malloc(2 * N * sizeof *a), *b = malloc(2 * N * sizeof *b);
        for (int i = 0; i < 2 * N; i++)
            mpfr_inits2(80, a[i], b[i], (mpfr_ptr)0);
        em_pfl *L;
        ck_assert_int_eq(tp_pfl_new(N, u, ex, eps, delta, EM_STANDARD, &L), EM_OK);
        ck_assert_int_eq(em_pfl_bounds(L, 80, a, a + N), EM_OK);
        em_pfl_free(L);
        ck_assert_int_eq(tp_pf_pmf_bounds(N, u, ex, eps, delta, EM_STANDARD, 512, b, b + N),
                         EM_OK);
        for (int i = 0; i < N; i++) {
            ck_assert(mpfr_cmp(a[i], b[N + i]) <= 0 && mpfr_cmp(b[i], a[N + i]) <= 0);
            if (ex[i]) {
                ck_assert(mpfr_zero_p(a[i]) && mpfr_zero_p(a[N + i]));
                continue;
            }
            mpfr_sub(a[N + i], a[N + i], a[i], MPFR_RNDU);
            mpfr_div(a[N + i], a[N + i], a[i], MPFR_RNDU);
            ck_assert_msg(mpfr_cmp_ui_2exp(a[N + i], 1, -76) < 0, "width at %d", i);
        }
        for (int i = 0; i < 2 * N; i++)
            mpfr_clears(a[i], b[i], (mpfr_ptr)0);
        free(a);
        free(b);
    }
    for (int i = 0; i < N; i++)
        mpq_clear(u[i]);
    free(u);
    mpq_clears(eps, delta, (mpq_ptr)0);
}
END_TEST

/* The K-digit decimal of exp(a) for a = A + B ln 2 + C ln 10 (A exact, from text; the
 * value is far below MPFR's range), through log10 at two precisions that must agree:
 * independent of the library's own conversion (em_round_exp). */
static char *dec_of_exp10(const char *A, double B, long C, int K)
{
    char *out[2];
    for (int k = 0; k < 2; k++) {
        mpfr_prec_t p = 1400 + 200 * k;
        mpfr_t x, l, f;
        mpfr_inits2(p, x, l, f, (mpfr_ptr)0);
        mpfr_set_str(x, A, 10, MPFR_RNDN);
        mpfr_const_log2(l, MPFR_RNDN);
        mpfr_mul_d(l, l, B, MPFR_RNDN);
        mpfr_add(x, x, l, MPFR_RNDN);
        mpfr_log_ui(l, 10, MPFR_RNDN);
        mpfr_div(x, x, l, MPFR_RNDN); /* log10 */
        mpfr_add_si(x, x, C, MPFR_RNDN);
        mpfr_floor(l, x);
        mpfr_sub(f, x, l, MPFR_RNDN);
        mpfr_exp10(f, f, MPFR_RNDN);
        mpz_t e;
        mpz_init(e);
        mpfr_get_z(e, l, MPFR_RNDN);
        mpfr_exp_t em; /* 0.d 10^em, em = 1 (or 2 when it rounds up to 10) */
        char *d = mpfr_get_str(NULL, &em, 10, (size_t)K, f, MPFR_RNDN);
        mpz_add_ui(e, e, (unsigned long)em);
        out[k] = em_format_decimal(0, d, e);
        mpfr_free_str(d);
        mpz_clear(e);
        mpfr_clears(x, l, f, (mpfr_ptr)0);
    }
    ck_assert_str_eq(out[0], out[1]);
    free(out[1]);
    return out[0];
}

static char *dec_of_exp(const char *A, long B, int K)
{
    return dec_of_exp10(A, (double)B, 0, K);
}

/* Utilities 1e300, 0, -1e300 (eps = delta = 1): the tails lie far below MPFR's range and
 * the mode's log-probability too; closed form for three candidates with a mode:
 * P(r) = p_r (1/2 - p_s / 6), so P(b) = exp(-5e299 - ln 2) and P(c) = exp(-1e300 - ln 2)
 * up to factors 1 - exp(-1e299...), and log P(a) = log(1 - P(b) - P(c)) = -P(b) (1 + ...).
 * With two modes P = p_r / 3 for the tails and the modes 1/2 minus an infinitesimal. */
START_TEST(law_extreme_utilities)
{
    static const char *const u3[] = {"1e300", "0", "-1e300"};
    scen s;
    scen_init(&s, 3, u3, "1", "1", EM_STANDARD);
    double pd[4], ld[4];
    char *dec[4], *lg[4];
    unsigned fl[4];
    ck_assert_int_eq(law_round(3, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, pd, dec, ld, lg, fl),
                     EM_OK);
    char *pb = dec_of_exp("-5e299", -1, 17), *pc = dec_of_exp("-1e300", -1, 17);
    ck_assert_str_eq(dec[1], pb);
    ck_assert_str_eq(dec[2], pc);
    ck_assert_str_eq(dec[0], "1.0000000000000000"); /* below 1, rounds to 1 (printed as nines) */
    ck_assert(lg[0][0] == '-' && !strcmp(lg[0] + 1, pb));
    ck_assert_str_eq(lg[1], "-5.0000000000000000e+299");
    ck_assert_str_eq(lg[2], "-1.0000000000000000e+300");
    ck_assert(pd[0] == 1.0 && pd[1] == 0.0 && pd[2] == 0.0);
    ck_assert(ld[0] == 0.0 && signbit(ld[0]) && ld[1] == -5e299 && ld[2] == -1e300);
    ck_assert(fl[0] == EM_OF_LOG_FROM_LOG && fl[1] == EM_OF_FROM_LOG && fl[2] == EM_OF_FROM_LOG);
    for (int i = 0; i < 3; i++) {
        free(dec[i]);
        free(lg[i]);
    }
    free(pb);
    free(pc);
    scen_free(&s);
    /* two modes: the tails p_r / 3 (ln 3 is not a multiple of ln 2: compare logs), the
     * modes 1/2 minus an infinitesimal */
    static const char *const u4[] = {"1e300", "0", "-1e300", "1e300"};
    scen_init(&s, 4, u4, "1", "1", EM_STANDARD);
    ck_assert_int_eq(law_round(4, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, pd, dec, ld, lg, fl),
                     EM_OK);
    ck_assert_str_eq(dec[0], "0.50000000000000000");
    ck_assert_str_eq(dec[3], "0.50000000000000000");
    ck_assert_str_eq(lg[0], "-0.69314718055994531");
    ck_assert(pd[0] == 0.5 && fl[0] == 0 && fl[1] == EM_OF_FROM_LOG);
    ck_assert(!strncmp(dec[1], "4.5192870704825286e-", 20)); /* 6.7789306057237929 * 2/3 */
    for (int i = 0; i < 4; i++) {
        free(dec[i]);
        free(lg[i]);
    }
    scen_free(&s);
    /* eight modes and a tail below the range: 1/8 - an infinitesimal, at 2 digits 0.12
     * (the tie goes down), at 3 digits 0.125; 1/3 - an infinitesimal */
    static const char *const u9[] = {"0", "0", "0", "0", "0", "0", "0", "0", "-1e300"};
    scen_init(&s, 9, u9, "1", "1", EM_STANDARD);
    double p9[9], l9[9];
    char *d9[9], *g9[9];
    for (int K = 2; K <= 3; K++) {
        ck_assert_int_eq(law_round(9, s.u, s.ex, s.eps, s.delta, EM_STANDARD, K, p9, d9, l9, g9,
                                   NULL), EM_OK);
        ck_assert_str_eq(d9[0], K == 2 ? "0.12" : "0.125");
        ck_assert_str_eq(g9[0], K == 2 ? "-2.1" : "-2.08");
        ck_assert(p9[0] == 0.125);
        for (int i = 0; i < 9; i++) {
            free(d9[i]);
            free(g9[i]);
        }
    }
    scen_free(&s);
    static const char *const u3b[] = {"0", "-1e300", "0", "0"};
    scen_init(&s, 4, u3b, "1", "1", EM_STANDARD);
    ck_assert_int_eq(law_round(4, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, pd, dec, ld, lg, NULL),
                     EM_OK);
    ck_assert_str_eq(dec[0], "0.33333333333333333");
    ck_assert(pd[0] == 1.0 / 3);
    for (int i = 0; i < 4; i++) {
        free(dec[i]);
        free(lg[i]);
    }
    scen_free(&s);
}
END_TEST

/* The utility report over utilities 1e300, 0, -1e300 (eps = delta = 1, opt = 1e300): the
 * loss and its tails lie far below MPFR's range and are decided from logarithms:
 * E[loss] = 1e300 P(b) + 2e300 P(c), P(b) = exp(-5e299 - ln 2) (1 - ...), so
 * E[loss] = exp(-5e299 - ln 2 + 300 ln 10); Var = P(b) 1e600 (1 - ...), the sd
 * exp(-2.5e299 - ln 2 / 2 + 300 ln 10); E[u] = 1e300 - E[loss]; P(loss > 0) = P(b) + P(c),
 * P(loss > 1e300) = P(c) = exp(-1e300 - ln 2).  With opt = 0 (utilities 0, -1e300),
 * E[u] = -1e300 P(b) is negative and below the range too. */
START_TEST(law_extreme_utility_report)
{
    static const char *const u3[] = {"1e300", "0", "-1e300"};
    scen s;
    scen_init(&s, 3, u3, "1", "1", EM_STANDARD);
    em_pf_utility *R;
    ck_assert_int_eq(tp_pf_utility_new(3, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, &R),
                     EM_OK);
    em_cval v[5];
    for (int k = 0; k < 5; k++)
        em_cval_init(&v[k]);
    ck_assert_int_eq(em_pf_utility_moments(R, &v[0], &v[1], &v[2], &v[3], &v[4]), EM_OK);
    char *loss = dec_of_exp10("-5e299", -1, 300, 17), *sd = dec_of_exp10("-2.5e299", -0.5, 300, 17);
    ck_assert_str_eq(v[0].str, "1.0000000000000000e+300");
    ck_assert_str_eq(v[1].str, "1.0000000000000000e+300");
    ck_assert_str_eq(v[2].str, loss);
    ck_assert_str_eq(v[3].str, sd);
    ck_assert_str_eq(v[4].str, "1.0000000000000000"); /* below 1: the API prints nines */
    ck_assert(v[1].d == 1e300 && v[2].d == 0.0 && v[3].d == 0.0 && v[4].d == 1.0);
    mpq_t t;
    mpq_init(t);
    char *pb = dec_of_exp("-5e299", -1, 17), *pc = dec_of_exp("-1e300", -1, 17);
    ck_assert_int_eq(em_pf_utility_loss_tail(R, t, &v[0]), EM_OK);
    ck_assert_str_eq(v[0].str, pb);
    mpz_ui_pow_ui(mpq_numref(t), 10, 300); /* t = 1e300 */
    ck_assert_int_eq(em_pf_utility_loss_tail(R, t, &v[0]), EM_OK);
    ck_assert_str_eq(v[0].str, pc);
    em_pf_utility_free(R);
    scen_free(&s);
    static const char *const u2[] = {"0", "-1e300"};
    scen_init(&s, 2, u2, "1", "1", EM_STANDARD);
    ck_assert_int_eq(tp_pf_utility_new(2, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, &R),
                     EM_OK);
    ck_assert_int_eq(em_pf_utility_moments(R, &v[0], &v[1], &v[2], &v[3], &v[4]), EM_OK);
    ck_assert_str_eq(v[0].str, "0");
    ck_assert(v[1].str[0] == '-' && !strcmp(v[1].str + 1, loss));
    ck_assert_str_eq(v[2].str, loss);
    ck_assert(v[1].d == 0.0 && signbit(v[1].d));
    em_pf_utility_free(R);
    scen_free(&s);
    for (int k = 0; k < 5; k++)
        em_cval_clear(&v[k]);
    mpq_clear(t);
    free(loss);
    free(sd);
    free(pb);
    free(pc);
}
END_TEST

/* Ties: all tied is exactly 1/m (ties to even: 1/8 at 2 digits is 0.12, at 1 digit 0.1);
 * eight ties and a tail exp(-1000) (P just below 1/8, against the brute force); one
 * candidate; a mode near 1 (log P = -exp(-50)/2 (1 + ...), from the others' sum). */
START_TEST(law_ties_and_near_one)
{
    static const char *const t8[] = {"7", "7", "-inf", "7", "7", "7", "7", "7", "7"};
    scen s;
    scen_init(&s, 9, t8, "1", "1", EM_STANDARD);
    double pd[9], ld[9];
    char *dec[9], *lg[9];
    for (int K = 1; K <= 2; K++) {
        ck_assert_int_eq(law_round(9, s.u, s.ex, s.eps, s.delta, EM_STANDARD, K, pd, dec, ld, lg,
                                   NULL), EM_OK);
        ck_assert_str_eq(dec[0], K == 1 ? "0.1" : "0.12");
        ck_assert_str_eq(dec[2], "0");
        ck_assert_str_eq(lg[2], "-inf");
        ck_assert_str_eq(lg[0], K == 1 ? "-2" : "-2.1");
        ck_assert(pd[0] == 0.125 && pd[2] == 0.0 && ld[0] == -log(8.0));
        for (int i = 0; i < 9; i++) {
            free(dec[i]);
            free(lg[i]);
        }
    }
    scen_free(&s);
    static const char *const t9[] = {"0", "0", "0", "0", "0", "0", "0", "0", "-2000"};
    scen_init(&s, 9, t9, "1", "1", EM_STANDARD);
    double p2[9], q2[9];
    char *d2[9], *l2[9];
    for (int K = 2; K <= 17; K += 15) {
        ck_assert_int_eq(law_round(9, s.u, s.ex, s.eps, s.delta, EM_STANDARD, K, pd, dec, ld, lg,
                                   NULL), EM_OK);
        brute_round(9, s.u, s.ex, s.eps, s.delta, EM_STANDARD, K, p2, d2, q2, l2);
        agree(9, K, "8 ties and exp(-1000)", dec, d2, pd, p2, lg, l2, ld, q2);
        for (int i = 0; i < 9; i++) {
            free(dec[i]);
            free(lg[i]);
            free(d2[i]);
            free(l2[i]);
        }
    }
    scen_free(&s);
    static const char *const one[] = {"-inf", "5", "-inf"};
    scen_init(&s, 3, one, "1", "1", EM_STANDARD);
    ck_assert_int_eq(law_round(3, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, pd, dec, ld, lg,
                               NULL), EM_OK);
    ck_assert_str_eq(dec[1], "1");
    ck_assert_str_eq(lg[1], "0");
    ck_assert(pd[1] == 1.0 && ld[1] == 0.0 && pd[0] == 0.0 && ld[0] == -INFINITY);
    for (int i = 0; i < 3; i++) {
        free(dec[i]);
        free(lg[i]);
    }
    scen_free(&s);
    static const char *const near[] = {"0", "-100", "-130"};
    scen_init(&s, 3, near, "1", "1", EM_STANDARD);
    ck_assert_int_eq(law_round(3, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, pd, dec, ld, lg,
                               NULL), EM_OK);
    brute_round(3, s.u, s.ex, s.eps, s.delta, EM_STANDARD, 17, p2, d2, q2, l2);
    agree(3, 17, "near one", dec, d2, pd, p2, lg, l2, ld, q2);
    ck_assert_str_eq(dec[0], "1.0000000000000000");
    ck_assert(fabs(ld[0] + (exp(-50.0) + exp(-65.0)) / 2) <= 1e-14 * exp(-50.0));
    for (int i = 0; i < 3; i++) {
        free(dec[i]);
        free(lg[i]);
        free(d2[i]);
        free(l2[i]);
    }
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
    tcase_add_test(tc, law_vs_brute_random);
    tcase_add_test(tc, law_vs_brute_high_digits);
    tcase_add_test(tc, law_vs_brute_200);
    tcase_add_test(tc, law_extreme_utilities);
    tcase_add_test(tc, law_extreme_utility_report);
    tcase_add_test(tc, law_ties_and_near_one);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
