/* test_pf.c: permute-and-flip (src/oracle/em_pf.c): the exact pmf against an independent
 * brute force over all orders, its known properties, and the exact sampler against the
 * pmf by exhaustive bit-level enumeration (tests/test_exact_enum.h), including a planted
 * modulo bias in the uniform draw of the random order, which the enumeration detects. */
#include "test_exact_enum.h"

#include "oracle/em_pf.h"

/* pmf intervals (exact rationals) from em_pf_pmf_bounds at 320 bits */
static void pf_intervals(scen *s)
{
    mpfr_t lo[16], hi[16];
    for (size_t i = 0; i < s->n; i++)
        mpfr_inits2(320, lo[i], hi[i], (mpfr_ptr)0);
    ck_assert_int_eq(em_pf_pmf_bounds(s->n, s->u, s->ex, s->eps, s->delta, s->variant, 320, lo, hi),
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
    ck_assert_int_eq(em_pf_new(s->n, s->u, s->ex, s->eps, s->delta, s->variant, &x), EM_OK);
    em_pf_set_uniform(x, hook);
    enum_state e;
    int v = enum_check(&e, pf_fn, x, s->n, L, s->ex, s->plo, s->phi);
    printf("  pf n=%zu L=%u: %llu runs, unfinished mass %.3g, violations %d%s\n", s->n, L,
           (unsigned long long)e.runs, enum_unf(&e), v, hook ? " (planted modulo bias)" : "");
    enum_free(&e);
    em_pf_free(x);
    return v;
}

/* independent: sum over all orders of prod_{before r} (1 - p_j) p_r, long double */
static void brute(size_t n, const double *p, long double *P)
{
    size_t perm[8];
    for (size_t i = 0; i < n; i++) {
        perm[i] = i;
        P[i] = 0;
    }
    long double nf = 1;
    for (size_t i = 2; i <= n; i++)
        nf *= i;
    for (;;) {
        long double rej = 1;
        for (size_t k = 0; k < n; k++) {
            size_t r = perm[k];
            P[r] += rej * p[r] / nf;
            rej *= 1 - (long double)p[r];
        }
        /* next permutation (lexicographic) */
        size_t i = n - 1;
        while (i > 0 && perm[i - 1] >= perm[i])
            i--;
        if (i == 0)
            break;
        size_t j = n - 1;
        while (perm[j] <= perm[i - 1])
            j--;
        size_t tmp = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = tmp;
        for (size_t a = i, b = n - 1; a < b; a++, b--) {
            tmp = perm[a];
            perm[a] = perm[b];
            perm[b] = tmp;
        }
    }
}

START_TEST(pmf_brute_force)
{
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    double P[7], p[7], em[7];
    ck_assert_int_eq(em_pf_pmf(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
    static const double cnt[7] = {10683, 14976, 4443, 418, 1025, 23, 993};
    for (int i = 0; i < 7; i++)
        p[i] = exp((cnt[i] - 14976) / 2000.0);
    long double B[7];
    brute(7, p, B);
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
    ck_assert_int_eq(em_pf_pmf(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 30, dec), EM_OK);
    for (int i = 0; i < 7; i++) {
        ck_assert(dec[i] != NULL);
        ck_assert(fabs(strtod(dec[i], NULL) - P[i]) <= 1e-15 * P[i]);
        free(dec[i]);
    }
    scen_free(&s);
}
END_TEST

START_TEST(pmf_ties_excluded_single)
{
    static const char *const u[] = {"1", "-inf", "1", "1", "1"};
    scen s;
    scen_init(&s, 5, u, "1", "1", EM_STANDARD);
    double P[5];
    char *dec[5];
    ck_assert_int_eq(em_pf_pmf(5, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 5, dec), EM_OK);
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
    ck_assert_int_eq(em_pf_pmf(2, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
    ck_assert(P[0] == 0.0 && P[1] == 1.0);
    scen_free(&s);
    /* two candidates: P(low) = p / 2 exactly (the low one first, then accepted) */
    static const char *const w[] = {"0", "-2"};
    scen_init(&s, 2, w, "1", "1", EM_STANDARD);
    ck_assert_int_eq(em_pf_pmf(2, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
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
    ck_assert_int_eq(em_pf_new(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, &x), EM_OK);
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
    ck_assert_int_eq(em_pf_pmf(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, P, 0, NULL), EM_OK);
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
    tcase_add_test(tc, bits_pf);
    tcase_add_test(tc, planted_modulo_pf);
    tcase_add_test(tc, pf_rng_draws);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? 0 : 1;
}
