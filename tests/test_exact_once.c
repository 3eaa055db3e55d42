/* test_exact_once.c: one exact draw from doubles without keeping a sampler
 * (em_exact_sample_d, src/oracle/em_exact_new.c).
 *
 *   - bit-level enumeration (tests/test_exact_enum.h) of the one-shot on the scenarios of
 *     tests/test_exact_d.c against the oracle's probabilities of the same reals, including
 *     one whose cheap bounds are too wide (the sampler built after all);
 *   - a draw left undecided by the 63-bit words (U's bits at F(1), found by MPFR at 256
 *     bits) finishes in MPFR on the right side, with the sampler's bits;
 *   - at 10^5 candidates, the chain in one run of chunks and scattered over all of them:
 *     the sampler's draws and bits for a fixed seed;
 *   - errors: the sampler's statuses (NaN or +inf anywhere, the first in index order),
 *     each with a one-line message.
 * The sameness with the sampler over many sizes and inputs is in tests/test_exact_vec.c
 * (once_same_draws), beside the draws recorded before the four-at-a-time pass. */
#include "em_check_main.h"
#include "test_exact_enum.h"

#include <float.h>
#include <string.h>

#include "em_problem_util.h"

typedef struct once_ctx {
    em_problem P;
} once_ctx;

static int once_fn(void *ctx, em_bits *b, size_t *out)
{
    return em_exact_sample_d(&((once_ctx *)ctx)->P, b, out, NULL);
}

/* Enumerate the one-shot on (u, ex, eps, delta) to L bits against the oracle's
 * probabilities of the same reals (the doubles as C99 hex floats: exact).  Returns the
 * violations; *unf the unfinished mass. */
static int check_once(size_t n, const double *u, const unsigned char *ex, double eps,
                      double delta, int variant, unsigned L, double *unf)
{
    scen s;
    scen_init_d(&s, n, u, ex, eps, delta, variant);
    once_ctx c;
    em_problem_init(&c.P);
    ck_assert_int_eq(em_problem_doubles(&c.P, n, u, ex, eps, delta, variant, NULL), EM_OK);
    enum_state e;
    int v = enum_check(&e, once_fn, &c, n, L, s.ex, s.plo, s.phi);
    *unf = enum_unf(&e);
    printf("  one-shot n=%zu L=%u: %llu runs, unfinished mass %.3g, violations %d\n", n, L,
           (unsigned long long)e.runs, *unf, v);
    enum_free(&e);
    em_problem_clear(&c.P);
    scen_free(&s);
    return v;
}

START_TEST(law_enumerated)
{
    double unf;
    ck_assert_int_eq(check_once(7, marital_d, NULL, 1.0, 1.0, EM_STANDARD, 16, &unf), 0);
    ck_assert(unf < 0.01);
    ck_assert_int_eq(check_once(7, marital_d, NULL, 1.0, 1.0, EM_MONOTONE, 20, &unf), 0);
    static const double u4[] = {-1.5, -1.5, -1.5, -1.5};
    ck_assert_int_eq(check_once(4, u4, NULL, 0.5, 1.0, EM_STANDARD, 12, &unf), 0);
    ck_assert(unf == 0.0); /* dyadic boundaries, exact words */
    static const double v[] = {NAN, 1, 7.0, 0.25, 2, HUGE_VAL};
    static const unsigned char ex[] = {1, 0, 1, 0, 0, 1};
    ck_assert_int_eq(check_once(6, v, ex, 1.0, 1.0, EM_MONOTONE, 20, &unf), 0);
    static const double x[] = {0, -1500, 3, -2000, 2.5};
    ck_assert_int_eq(check_once(5, x, NULL, 1.0, 1.0, EM_STANDARD, 20, &unf), 0);
    /* DBL_MAX - (-DBL_MAX) overflows: the cheap words are too wide, the sampler is built */
    static const double w[] = {DBL_MAX, -DBL_MAX, 0x1.fffffffffffffp1022, -1.0};
    ck_assert_int_eq(check_once(4, w, NULL, 2.0e-308, 1.0, EM_STANDARD, 20, &unf), 0);
    /* 13 candidates, some tied with the mode, one excluded */
    static const double t[] = {1, 0.5, 1, -3, 0.75, -HUGE_VAL, 1, 0.1, -0.2, 0.9, 0.3, 1, -1};
    ck_assert_int_eq(check_once(13, t, NULL, 2.0, 1.0, EM_STANDARD, 18, &unf), 0);
}
END_TEST

START_TEST(slow_path_at_boundary)
{
    /* F1 = floor(F(1) 2^63), F(1) = 1/(1 + e^-1/2) from MPFR at 256 bits: U's bits F1
     * then zeros lie below F(1) (cell 0), then ones above it (cell 1); the cheap words
     * leave both undecided after 63 bits */
    static const double u2[] = {0, -1};
    uint64_t F1 = two_cell_f1();
    em_problem P;
    em_problem_init(&P);
    ck_assert_int_eq(em_problem_doubles(&P, 2, u2, NULL, 1.0, 1.0, EM_STANDARD, NULL), EM_OK);
    for (int c = 0; c < 2; c++) {
        unsigned char bits[200];
        for (int k = 0; k < 63; k++)
            bits[k] = (F1 >> (62 - k)) & 1;
        for (int k = 63; k < 200; k++)
            bits[k] = (unsigned char)c;
        em_bits b;
        em_bits_init_script(&b, bits, 200);
        size_t r = 9;
        ck_assert_int_eq(em_exact_sample_d(&P, &b, &r, NULL), EM_OK);
        ck_assert(b.used > 63);
        ck_assert_uint_eq(r, (size_t)c);
        /* the sampler's bits exactly */
        em_exact *x;
        ck_assert_int_eq(em_exact_new_d(&P, &x, NULL), EM_OK);
        em_bits b2;
        em_bits_init_script(&b2, bits, 200);
        size_t r2 = 9;
        ck_assert_int_eq(em_exact_sample(x, &b2, &r2), EM_OK);
        ck_assert_uint_eq(r2, r);
        ck_assert_uint_eq(b2.used, b.used);
        em_exact_free(x);
    }
    /* the script running out inside the slow path: the bit source's error */
    unsigned char bits[70];
    for (int k = 0; k < 63; k++)
        bits[k] = (F1 >> (62 - k)) & 1;
    memset(bits + 63, 0, 7);
    em_bits b;
    em_bits_init_script(&b, bits, 70);
    size_t r;
    em_error err = {EM_OK, ""};
    ck_assert_int_eq(em_exact_sample_d(&P, &b, &r, &err), EM_ERR_RNG);
    ck_assert(err.msg[0] != 0 && !strchr(err.msg, '\n'));
    em_problem_clear(&P);
}
END_TEST

/* 200 one-shot draws on (n, u) against the sampler's, from the same seed */
static void same_as_sampler(size_t n, const double *u, const char *what)
{
    em_problem P;
    em_problem_init(&P);
    ck_assert_int_eq(em_problem_doubles(&P, n, u, NULL, 1.0, 1.0, EM_STANDARD, NULL), EM_OK);
    em_exact *x;
    ck_assert_int_eq(em_exact_new_d(&P, &x, NULL), EM_OK);
    em_rng rng[2];
    em_bits b[2];
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(em_rng_init(&rng[k], EM_RNG_CHACHA, &(uint64_t){2026}, 1), EM_OK);
        em_bits_init_rng(&b[k], &rng[k]);
    }
    size_t distinct = 0, last = n;
    for (int d = 0; d < 200; d++) {
        size_t r0, r1;
        ck_assert_int_eq(em_exact_sample(x, &b[0], &r0), EM_OK);
        ck_assert_int_eq(em_exact_sample_d(&P, &b[1], &r1, NULL), EM_OK);
        EM_T_REQUIRE(r0 == r1, "%s: draw %d: %zu vs %zu", what, d, r0, r1);
        distinct += r1 != last;
        last = r1;
    }
    ck_assert_uint_eq(b[0].used, b[1].used);
    ck_assert_uint_gt(distinct, 150); /* not one cell every time */
    printf("  %s: 200 draws and %llu bits as the sampler's\n", what,
           (unsigned long long)b[1].used);
    em_exact_free(x);
    em_problem_clear(&P);
}

START_TEST(large_same_as_sampler)
{
    const size_t n = 100000;
    double *u = malloc(n * sizeof *u);
    ck_assert_ptr_nonnull(u);
    for (size_t i = 0; i < n; i++)
        u[i] = -(double)i / 1000.0;
    same_as_sampler(n, u, "10^5, the chain in the first chunks");
    /* the same utilities permuted (7919 is prime to 10^5): every chunk holds some of the
     * chain, none is skipped */
    for (size_t i = 0; i < n; i++)
        u[i] = -(double)((i * 7919) % n) / 1000.0;
    same_as_sampler(n, u, "10^5, the chain in every chunk");
    free(u);
}
END_TEST

START_TEST(errors)
{
    double u[100];
    for (int i = 0; i < 100; i++)
        u[i] = (double)(i % 13);
    em_problem P;
    em_problem_init(&P);
    ck_assert_int_eq(em_problem_doubles(&P, 100, u, NULL, 1.0, 1.0, EM_STANDARD, NULL), EM_OK);
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1), EM_OK);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    size_t r;
    em_error err = {EM_OK, ""};
    ck_assert_int_eq(em_exact_sample_d(NULL, &b, &r, &err), EM_ERR_NULL);
    ck_assert(err.msg[0] != 0 && !strchr(err.msg, '\n'));
    ck_assert_int_eq(em_exact_sample_d(&P, NULL, &r, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_exact_sample_d(&P, &b, NULL, NULL), EM_ERR_NULL);
    /* a NaN or +inf among the utilities (the vector maximum's flag, then the first in
     * index order), at the start, the middle, in the last partial four */
    static const int at[] = {0, 37, 97, 99};
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++)
        for (int k = 0; k < 3; k++) {
            double keep = u[at[a]];
            u[at[a]] = k == 1 ? HUGE_VAL : NAN;
            if (k == 2)
                u[99 - at[a] / 2] = HUGE_VAL; /* +inf after (or at) the NaN */
            int want = k == 1 || (k == 2 && 99 - at[a] / 2 <= at[a]) ? EM_ERR_POS_INF : EM_ERR_NAN;
            em_exact *x = NULL;
            ck_assert_int_eq(em_exact_new_d(&P, &x, NULL), want);
            err = (em_error){EM_OK, ""};
            ck_assert_int_eq(em_exact_sample_d(&P, &b, &r, &err), want);
            ck_assert(err.msg[0] != 0 && !strchr(err.msg, '\n'));
            u[at[a]] = keep;
            u[99 - at[a] / 2] = (double)((99 - at[a] / 2) % 13);
        }
    ck_assert_int_eq(em_exact_sample_d(&P, &b, &r, NULL), EM_OK);
    ck_assert_uint_lt(r, 100);
    for (int i = 0; i < 100; i++)
        u[i] = -HUGE_VAL;
    ck_assert_int_eq(em_exact_sample_d(&P, &b, &r, NULL), EM_ERR_ALL_EXCLUDED);
    em_problem_clear(&P);
    /* epsilon not a double: the sampler's EM_ERR_DOMAIN */
    em_problem Q;
    em_problem_init(&Q);
    u[0] = 1;
    ck_assert_int_eq(em_problem_doubles(&Q, 1, u, NULL, 1.0, 1.0, EM_STANDARD, NULL), EM_OK);
    Q.eps_d = 0;
    mpq_set_ui(Q.eps, 1, 3);
    err = (em_error){EM_OK, ""};
    ck_assert_int_eq(em_exact_sample_d(&Q, &b, &r, &err), EM_ERR_DOMAIN);
    ck_assert(strstr(err.msg, "em_exact_sample_d") != NULL);
    Q.n = 0;
    ck_assert_int_eq(em_exact_sample_d(&Q, &b, &r, NULL), EM_ERR_EMPTY);
    em_problem_clear(&Q);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("exact_once");
    TCase *t = tcase_create("once");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, law_enumerated);
    tcase_add_test(t, slow_path_at_boundary);
    tcase_add_test(t, large_same_as_sampler);
    tcase_add_test(t, errors);
    suite_add_tcase(s, t);
    return s;
}

EM_CHECK_MAIN(suite)
