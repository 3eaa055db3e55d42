/* test_exact_vec.c: em_exact_new_d's first pass four candidates at a time
 * (src/oracle/em_exact_vec.c, AVX2) against the one-by-one pass and against independent
 * references.
 *
 *   - draws for fixed seeds equal those of the sampler before the four-at-a-time pass
 *     (sequences recorded from that build, commit 373899a8: not computed by the code under
 *     test), with the pass on and off;
 *   - the pass on and off give the same 63-bit words bit for bit, the same MPFR fallback at
 *     construction and the same draws and bits used, over sizes 8 to 1003 (partial fours
 *     at the end) and inputs with ties, -inf, an excluded array (NaN under it), modes in
 *     every position, utilities that overflow the difference, tiny and subnormal ones, a
 *     tail beyond the scale, and epsilon / delta that over- or underflow;
 *   - the words bracket F(i) 2^63 from MPFR at 256 bits on the exact rationals (an
 *     evaluation independent of the sampler), and are tight;
 *   - bit-level enumeration of sets of 9 to 16 candidates (through the pass) against the
 *     oracle's probabilities;
 *   - the pass itself: a four holding an enclosure too wide for the chain is left to the
 *     caller untouched (the fallback), partial fours write nothing past n;
 *   - a draw undecided after 63 bits at a cell boundary of a 9-candidate set goes to MPFR
 *     and lands in the right cell. */
#include "em_check_main.h"
#include "test_exact_enum.h"

#include <float.h>

#include "oracle/em_exact_vec.h"
#include "oracle/em_exponents.h"
#include "em_problem_util.h"
#include "em_exact_ref.h"

static int exact_fn(void *ctx, em_bits *b, size_t *out)
{
    return em_exact_sample((em_exact *)ctx, b, out);
}

/* ------------------------------------------------- draws as before the pass */

/* scenario k: n, utilities (malloc), excluded (malloc or NULL), eps, delta, variant, seed */
static void gold_scen(int k, size_t *n, double **u, unsigned char **ex, double *eps,
                      double *del, int *var, uint64_t *seed)
{
    size_t N = k == 0 ? 7 : k == 1 ? 1000 : k == 2 ? 37 : 10000;
    double *v = malloc(N * sizeof *v);
    unsigned char *e = NULL;
    ck_assert_ptr_nonnull(v);
    *eps = 1.0;
    *del = 1.0;
    *var = EM_STANDARD;
    for (size_t i = 0; i < N; i++) {
        if (k == 0)
            v[i] = marital_d[i];
        else if (k == 1)
            v[i] = -(double)i / 1000.0;
        else if (k == 2)
            v[i] = i % 5 == 3 ? -HUGE_VAL : (double)((i * 7919) % 101) / 8.0;
        else
            v[i] = -(double)((i * 104729) % 4093) / 16.0;
    }
    if (k == 2) {
        *eps = 0.9;
        *del = 1.1;
        *var = EM_MONOTONE;
    }
    if (k == 3) {
        e = calloc(N, 1);
        ck_assert_ptr_nonnull(e);
        for (size_t i = 0; i < N; i++)
            e[i] = i % 7 == 2;
    }
    *n = N;
    *u = v;
    *ex = e;
    *seed = 7 + 2 * (uint64_t)k;
}

/* 40 draws each and the bits they used, from the build before the pass (commit 373899a8) */
static const size_t gold_draws[4][40] = {
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1,
     1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1},
    {914, 495, 39,  225, 240, 577, 807, 499, 971, 104, 175, 668, 77,  800,
     56,  116, 459, 438, 274, 637, 633, 162, 947, 491, 711, 61,  9,   540,
     170, 164, 204, 26,  755, 268, 212, 336, 87,  12,  242, 327},
    {34, 22, 27, 22, 27, 32, 27, 32, 17, 12, 31, 12, 32, 34, 22, 22, 22, 32, 27, 32,
     14, 22, 17, 27, 22, 7,  27, 32, 27, 32, 27, 27, 32, 17, 22, 32, 32, 22, 27, 22},
    {9497, 5862, 252,  5341, 0,    8358, 1517, 9766, 458,  2370, 4488, 3492, 5261, 63,
     8501, 4156, 7459, 2954, 3870, 109,  3366, 979,  2954, 4471, 2542, 8581, 458,  8833,
     5278, 252,  5736, 2559, 2639, 8186, 7127, 5215, 7854, 5009, 9703, 8644}};
static const uint64_t gold_bits[4] = {212, 524, 336, 640};

/* epsilon / delta: ordinary, small, large, under- and overflowing */
static const double EPS_DELTA[][2] = {{1, 1}, {0.9, 1.1}, {1e-3, 1}, {30, 1}, {1e-300, 1e300},
                                      {2.0e-308, 1.0}, {4.9e-324, 1.0}, {1e300, 1e-300}};

START_TEST(draws_unchanged)
{
    for (int on = 0; on < 2; on++) {
        em_exact_vec_set(on);
        for (int k = 0; k < 4; k++) {
            size_t n;
            double *u, eps, del;
            unsigned char *ex;
            int var;
            uint64_t seed;
            gold_scen(k, &n, &u, &ex, &eps, &del, &var, &seed);
            em_exact *x;
            ck_assert_int_eq(tp_exact_new_d(n, u, ex, eps, del, var, &x), EM_OK);
            em_problem P;
            em_problem_init(&P);
            ck_assert_int_eq(em_problem_doubles(&P, n, u, ex, eps, del, var, NULL), EM_OK);
            /* the sampler, then one draw per call of em_exact_sample_d: the same draws */
            for (int once = 0; once < 2; once++) {
                em_rng rng;
                ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){seed}, 1), EM_OK);
                em_bits b;
                em_bits_init_rng(&b, &rng);
                for (int d = 0; d < 40; d++) {
                    size_t r;
                    ck_assert_int_eq(once ? em_exact_sample_d(&P, &b, &r, NULL)
                                          : em_exact_sample(x, &b, &r), EM_OK);
                    EM_T_REQUIRE(r == gold_draws[k][d], "scenario %d draw %d (%s): %zu, was %zu",
                                 k, d, once ? "one-shot" : "sampler", r, gold_draws[k][d]);
                }
                ck_assert_uint_eq(b.used, gold_bits[k]);
            }
            em_problem_clear(&P);
            em_exact_free(x);
            free(u);
            free(ex);
        }
    }
    em_exact_vec_set(1);
    printf("  draws for fixed seeds as before the pass (4 scenarios, 40 draws, pass on and off; "
           "the sampler and em_exact_sample_d)\n");
}
END_TEST

/* ------------------------------------------------------ on and off alike */

static uint64_t rs; /* xorshift state: set by each test that fills (fixed seeds whether
                      * or not the tests run in forked processes) */

static uint64_t xr(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static double ur(void)
{
    return (double)(xr() >> 11) * 0x1p-53;
}

#define KINDS 12

/* utilities of kind k into u (n), excluded flags into ex (kind 5; else all 0) */
static void fill(int kind, size_t n, double *u, unsigned char *ex)
{
    for (size_t i = 0; i < n; i++) {
        ex[i] = 0;
        switch (kind) {
        case 0: u[i] = -(double)i / 1000.0; break;
        case 1: u[i] = (double)((i * 7919) % 1009) / 37.0; break;
        case 2: u[i] = ur() * 100 - 50; break;
        case 3: u[i] = floor(ur() * 4); break; /* ties, modes in many fours */
        case 4: u[i] = xr() % 5 == 0 ? -HUGE_VAL : ur() * 10; break;
        case 5:
            u[i] = ur() * 10;
            ex[i] = xr() % 4 == 0;
            if (ex[i] && xr() % 2)
                u[i] = NAN; /* not read */
            break;
        case 6: u[i] = ur() < 0.5 ? 1e300 * ur() : -1e300 * ur(); break;
        case 7: u[i] = (ur() - 0.5) * 2000; break; /* most beyond the scale: the tail */
        case 8: u[i] = ur() * 1e-300; break;
        case 9: u[i] = i % 3 ? 0x1p-1074 * (double)(i % 5) : -0x1p-1060; break; /* subnormal */
        case 10: u[i] = i % 4 == 1 ? DBL_MAX : i % 4 == 2 ? -DBL_MAX : ur(); break;
        case 11: u[i] = ur() * 0.25 + (i % 3 == 0 ? 400 : 0); break;
        }
    }
}

/* the sampler of (u, ex, eps, del, var) with the pass on and off: the same status, words,
 * MPFR fallback, draws and bits (asserted) */
static void same_on_off(size_t n, const double *u, const unsigned char *ex, double eps,
                        double del, int var, const char *what)
{
    em_exact *x[2];
    int st[2];
    for (int on = 0; on < 2; on++) {
        em_exact_vec_set(on);
        st[on] = tp_exact_new_d(n, u, ex, eps, del, var, &x[on]);
    }
    em_exact_vec_set(1);
    EM_T_REQUIRE(st[0] == st[1], "%s: status %d vs %d", what, st[0], st[1]);
    if (st[0] != EM_OK)
        return;
    const uint64_t *lo[2] = {em_exact_lo64(x[0]), em_exact_lo64(x[1])};
    const uint64_t *hi[2] = {em_exact_hi64(x[0]), em_exact_hi64(x[1])};
    for (size_t i = 0; i <= n; i++)
        EM_T_REQUIRE(lo[0][i] == lo[1][i] && hi[0][i] == hi[1][i], "%s: words at %zu", what, i);
    em_exact_stats s0, s1;
    em_exact_get_stats(x[0], &s0);
    em_exact_get_stats(x[1], &s1);
    EM_T_REQUIRE(s0.levels == s1.levels, "%s: MPFR levels %d vs %d", what, s0.levels, s1.levels);
    em_rng rng[2];
    em_bits b[2];
    for (int on = 0; on < 2; on++) {
        ck_assert_int_eq(em_rng_init(&rng[on], EM_RNG_CHACHA, &(uint64_t){42 + n}, 1), EM_OK);
        em_bits_init_rng(&b[on], &rng[on]);
    }
    for (int d = 0; d < 20; d++) {
        size_t r[2];
        for (int on = 0; on < 2; on++)
            ck_assert_int_eq(em_exact_sample(x[on], &b[on], &r[on]), EM_OK);
        EM_T_REQUIRE(r[0] == r[1], "%s: draw %d", what, d);
    }
    EM_T_REQUIRE(b[0].used == b[1].used, "%s: bits used", what);
    em_exact_free(x[0]);
    em_exact_free(x[1]);
}

START_TEST(on_off_same_words)
{
    em_exact_vec_set(1);
    if (!em_exact_vec_ok()) {
        printf("  (no AVX2 here: the pass does not run; nothing to compare)\n");
        return;
    }
    static const size_t ns[] = {8, 9, 10, 11, 12, 13, 15, 16, 17, 31, 33, 63, 64, 65, 100, 257, 1000, 1003};
    double *u = malloc(1003 * sizeof *u);
    unsigned char *ex = malloc(1003);
    ck_assert(u && ex);
    rs = 88172645463325252ULL;
    int count = 0;
    char what[96];
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (int kind = 0; kind < KINDS; kind++) {
            fill(kind, ns[a], u, ex);
            if (kind == 4)
                u[ns[a] / 2] = 1.0; /* not all -inf */
            for (size_t p = 0; p < sizeof EPS_DELTA / sizeof EPS_DELTA[0]; p++)
                for (int var = 0; var < 2; var++) {
                    snprintf(what, sizeof what, "n %zu kind %d params %zu variant %d", ns[a], kind,
                             p, var);
                    same_on_off(ns[a], u, kind == 5 ? ex : NULL, EPS_DELTA[p][0], EPS_DELTA[p][1],
                                var ? EM_MONOTONE : EM_STANDARD, what);
                    count++;
                }
        }
    printf("  pass on and off: the same words, fallback, draws and bits in %d scenarios\n", count);
    free(u);
    free(ex);
}
END_TEST

/* ------------------------------------------- one draw without a sampler */

/* em_exact_sample_d on (u, ex, eps, del, var) against the sampler: the same status, and
 * for a fixed seed the same 12 draws and bits used, with the pass on and off; returns 1
 * when the sampler computed MPFR level 0 at construction (the one-shot's fallback) */
static int once_same(size_t n, const double *u, const unsigned char *ex, double eps, double del,
                     int var, const char *what)
{
    int mp = 0;
    for (int on = 0; on < 2; on++) {
        em_exact_vec_set(on);
        em_exact *x;
        em_problem P;
        em_problem_init(&P);
        ck_assert_int_eq(em_problem_doubles(&P, n, u, ex, eps, del, var, NULL), EM_OK);
        int st = em_exact_new_d(&P, &x, NULL);
        em_rng rng[2];
        em_bits b[2];
        for (int k = 0; k < 2; k++) {
            ck_assert_int_eq(em_rng_init(&rng[k], EM_RNG_CHACHA, &(uint64_t){99 + n}, 1), EM_OK);
            em_bits_init_rng(&b[k], &rng[k]);
        }
        size_t r = 0, r1 = 0;
        int st1 = em_exact_sample_d(&P, &b[1], &r1, NULL);
        EM_T_REQUIRE(st == st1, "%s: status %d vs %d", what, st, st1);
        if (st == EM_OK) {
            em_exact_stats es;
            em_exact_get_stats(x, &es);
            mp = es.levels > 0;
            for (int d = 0; d < 12; d++) {
                ck_assert_int_eq(em_exact_sample(x, &b[0], &r), EM_OK);
                if (d > 0)
                    ck_assert_int_eq(em_exact_sample_d(&P, &b[1], &r1, NULL), EM_OK);
                EM_T_REQUIRE(r == r1, "%s (pass %d): draw %d: %zu vs %zu", what, on, d, r, r1);
            }
            EM_T_REQUIRE(b[0].used == b[1].used, "%s: bits used", what);
            em_exact_free(x);
        }
        em_problem_clear(&P);
    }
    em_exact_vec_set(1);
    return mp;
}

START_TEST(once_same_draws)
{
    /* sizes across the one-shot's chunks of 512 (a partial last chunk, one of 1 to 3
     * candidates, exactly full ones), all the kinds of utilities above, epsilon / delta
     * ordinary, small, large, under- and overflowing */
    static const size_t ns[] = {1, 2, 3, 7, 8, 9, 511, 512, 513, 515, 1024, 1025, 1536, 2051};
    double *u = malloc(2051 * sizeof *u);
    unsigned char *ex = malloc(2051);
    ck_assert(u && ex);
    rs = 362436069ULL;
    int count = 0, fallback = 0;
    char what[96];
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (int kind = 0; kind < KINDS; kind++) {
            fill(kind, ns[a], u, ex);
            if (kind == 4)
                u[ns[a] / 2] = 1.0; /* not all -inf */
            if (kind == 5)
                ex[ns[a] / 2] = 0;
            for (size_t p = 0; p < sizeof EPS_DELTA / sizeof EPS_DELTA[0]; p++) {
                int var = (int)(p + a) % 2 ? EM_MONOTONE : EM_STANDARD;
                snprintf(what, sizeof what, "n %zu kind %d params %zu", ns[a], kind, p);
                fallback += once_same(ns[a], u, kind == 5 ? ex : NULL, EPS_DELTA[p][0], EPS_DELTA[p][1], var,
                                      what);
                count++;
            }
        }
    /* the tail of a long set in whole chunks (skipped by each scan), a chain at its end */
    for (size_t i = 0; i < 2051; i++)
        u[i] = i < 2000 ? -1000.0 - (double)i : 0.5 * (double)(i % 7);
    count++;
    fallback += once_same(2051, u, NULL, 1.0, 1.0, EM_STANDARD, "tail first");
    printf("  em_exact_sample_d: the sampler's draws and bits in %d scenarios (%d through MPFR "
           "level 0)\n", count, fallback);
    ck_assert_int_gt(fallback, 0); /* the fallback was taken somewhere */
    free(u);
    free(ex);
}
END_TEST

/* ------------------------------------------------- against MPFR, tight */


START_TEST(words_bracket_mpfr)
{
    static const size_t ns[] = {8, 11, 13, 64, 999};
    static const int kinds[] = {0, 1, 2, 3, 4, 5, 11};
    static const double E[][2] = {{1, 1}, {0.9, 1.1}, {30, 1}};
    double *u = malloc(999 * sizeof *u);
    unsigned char *ex = malloc(999);
    uint64_t *fl = malloc(1000 * sizeof *fl), *fh = malloc(1000 * sizeof *fh);
    ck_assert(u && ex && fl && fh);
    em_exact_vec_set(1);
    rs = 2463534242ULL;
    uint64_t widest = 0;
    int count = 0;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t kk = 0; kk < sizeof kinds / sizeof kinds[0]; kk++)
            for (size_t p = 0; p < sizeof E / sizeof E[0]; p++)
                for (int var = 0; var < 2; var++) {
                    size_t n = ns[a];
                    int kind = kinds[kk], v = var ? EM_MONOTONE : EM_STANDARD;
                    fill(kind, n, u, ex);
                    if (kind == 4)
                        u[n / 2] = 1.0;
                    const unsigned char *e = kind == 5 ? ex : NULL;
                    ref_words(n, u, e, E[p][0], E[p][1], v, fl, fh);
                    em_exact *x;
                    ck_assert_int_eq(tp_exact_new_d(n, u, e, E[p][0], E[p][1], v, &x), EM_OK);
                    em_exact_stats st;
                    em_exact_get_stats(x, &st);
                    ck_assert_int_eq(st.levels, 0); /* the cheap words, no MPFR */
                    const uint64_t *lo = em_exact_lo64(x), *hi = em_exact_hi64(x);
                    for (size_t i = 0; i <= n; i++) {
                        EM_T_REQUIRE(lo[i] <= fh[i] && fl[i] <= hi[i],
                                     "n %zu kind %d: bracket at %zu", n, kind, i);
                        EM_T_REQUIRE(lo[i] <= hi[i] && (i == 0 || lo[i] >= lo[i - 1]),
                                     "n %zu kind %d: order at %zu", n, kind, i);
                        if (hi[i] - lo[i] > widest)
                            widest = hi[i] - lo[i];
                    }
                    ck_assert(lo[0] == 0 && hi[0] == 0 && lo[n] == (uint64_t)1 << 63 &&
                              hi[n] == (uint64_t)1 << 63);
                    em_exact_free(x);
                    count++;
                }
    /* tight: below 2^-44 of the scale (2^19 units of 2^-63) */
    printf("  words bracket MPFR's F in %d scenarios; widest hi - lo = %llu units of 2^-63\n",
           count, (unsigned long long)widest);
    ck_assert(widest < ((uint64_t)1 << 19));
    free(u);
    free(ex);
    free(fl);
    free(fh);
}
END_TEST

/* --------------------------------------------------------- bit-level */

/* enumerate the sampler of the doubles u (n <= 16) to L bits against the oracle */
static int check_enum(size_t n, const double *u, double eps, double delta, int variant,
                      unsigned L, double *unf)
{
    scen s;
    scen_init_d(&s, n, u, NULL, eps, delta, variant);
    em_exact *x;
    ck_assert_int_eq(tp_exact_new_d(n, u, NULL, eps, delta, variant, &x), EM_OK);
    enum_state e;
    int v = enum_check(&e, exact_fn, x, n, L, s.ex, s.plo, s.phi);
    *unf = enum_unf(&e);
    printf("  four at a time n=%zu L=%u: %llu runs, unfinished mass %.3g, violations %d\n", n,
           L, (unsigned long long)e.runs, *unf, v);
    enum_free(&e);
    em_exact_free(x);
    scen_free(&s);
    return v;
}

START_TEST(bits_enumerated)
{
    em_exact_vec_set(1);
    double unf;
    /* marital twice over, a mode in the second four */
    double m2[14];
    for (int i = 0; i < 14; i++)
        m2[i] = marital_d[i % 7] - (i >= 7 ? 0.5 : 0.0);
    ck_assert_int_eq(check_enum(14, m2, 1.0, 1.0, EM_STANDARD, 18, &unf), 0);
    ck_assert(unf < 0.01);
    /* ties, -inf and a partial last four */
    static const double t9[] = {2, -HUGE_VAL, 2, 0.5, 2, -1, -HUGE_VAL, 2, 1.25};
    ck_assert_int_eq(check_enum(9, t9, 1.0, 1.0, EM_MONOTONE, 18, &unf), 0);
    /* eight ties: dyadic boundaries, exact words, nothing unfinished */
    static const double e8[] = {-3, -3, -3, -3, -3, -3, -3, -3};
    ck_assert_int_eq(check_enum(8, e8, 0.7, 2.0, EM_STANDARD, 12, &unf), 0);
    ck_assert(unf == 0.0);
    /* weights below double's range and 1e300 apart (tail and overflow beside the chain) */
    static const double x11[] = {0, -1500, 3, -2000, 2.5, 1e300, -1e300, 1e300, 0.25, -3, 1e300};
    ck_assert_int_eq(check_enum(11, x11, 1.0, 1.0, EM_STANDARD, 16, &unf), 0);
}
END_TEST

/* ----------------------------------------------------------- the pass itself */

START_TEST(run_leaves_wide_fours)
{
    em_exact_vec_set(1);
    if (!em_exact_vec_ok()) {
        printf("  (no AVX2 here: the pass does not run)\n");
        return;
    }
    /* c = 1/2 from above and below; umax = 0; candidate 6 has an enclosure wider than
     * the chain takes (x_lo = 0 < xcut, x_hi NaN: clo = 0 and an overflowing d), forced
     * by clo = 0, chi = 1/2, d = +inf */
    enum { N = 11, PAD = 4 };
    double u[N] = {0, -1, -2, -3, -0.5, -0.25, -HUGE_VAL, -4, -5, -6, -7};
    double ud[N + PAD];
    unsigned char cls[N + PAD];
    uint64_t lo[N + PAD], hi[N + PAD];
    for (int i = 0; i < N + PAD; i++) {
        ud[i] = 12345.0;
        cls[i] = 77;
        lo[i] = hi[i] = 0xdeadbeef;
    }
    em_xrun r;
    memset(&r, 0, sizeof r);
    r.u = u;
    r.ud = ud;
    r.cls = cls;
    r.lo = lo;
    r.hi = hi;
    r.umax = 0;
    r.clo = 0.5;
    r.chi = 0x1.0000000000001p-1;
    r.uthr = -HUGE_VAL;
    r.xcut = 117 * 0.6932;
    r.P = 117;
    r.pc = em_wb_poly_init();
    /* all fours of the chain and a mode, the last one partial: nothing past n written */
    size_t j = em_exact_vec_run(&r, 0, N);
    ck_assert_uint_eq(j, N);
    ck_assert_int_eq(r.why, EM_XRUN_END);
    ck_assert_uint_eq(r.modes, 1);
    ck_assert_uint_eq(r.k, N - 2);
    ck_assert(cls[0] == CL_MODE && cls[6] == CL_EXCLUDED && cls[1] == CL_OTHER);
    ck_assert(ud[6] == -HUGE_VAL && lo[6] == 0 && hi[6] == 0);
    for (int i = N; i < N + PAD; i++)
        EM_T_REQUIRE(ud[i] == 12345.0 && cls[i] == 77 && lo[i] == 0xdeadbeef && hi[i] == 0xdeadbeef,
                     "written past n at %d", i);
    /* an enclosure too wide: c = 1e-307, umax = DBL_MAX, and candidate 6 at -DBL_MAX has
     * d = +inf, so x_lo = 17.9... < xcut but x_hi NaN (the others' x are below 18): the
     * four holding it is left untouched, the one before done */
    static const double w[N] = {DBL_MAX, 1e308, 5e307, 2e307, 1e307, 3e307,
                                -DBL_MAX, 4e307, 6e307, 7e307, 8e307};
    memcpy(u, w, sizeof u);
    r.umax = DBL_MAX;
    r.clo = em_next_down(1e-307);
    r.chi = em_next_up(1e-307);
    for (int i = 0; i < N; i++) {
        cls[i] = 77;
        lo[i] = 0xdeadbeef;
    }
    memset(&r.zlo, 0, sizeof r.zlo);
    r.k = r.modes = r.tail = 0;
    r.dsum = 0;
    j = em_exact_vec_run(&r, 0, N);
    ck_assert_int_eq(r.why, EM_XRUN_MIXED);
    ck_assert_uint_eq(j, 4);
    ck_assert(cls[3] != 77 && cls[4] == 77 && cls[7] == 77 && lo[4] == 0xdeadbeef);
    /* and the sampler on such a set: the one-by-one pass takes that four (the same words
     * as with the pass off) */
    same_on_off(N, u, NULL, 1e-307, 1.0, EM_MONOTONE, "wide four");
}
END_TEST

/* ------------------------------------------------- slow path at a boundary */

static size_t select_never(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a,
                           uint64_t w)
{
    (void)lo;
    (void)hi;
    (void)a;
    (void)w;
    return n;
}

START_TEST(slow_path_at_boundary)
{
    em_exact_vec_set(1);
    /* 9 candidates u_i = -i/4, standard, eps = 1: F(3) = (1 + q + q^2) / S9, q = e^-1/8,
     * S9 = (1 - q^9) / (1 - q), from MPFR at 256 bits; U following floor(F(3) 2^63), then
     * zeros (cell 2) or ones (cell 3), is undecided by the words after 63 bits */
    double u[9];
    for (int i = 0; i < 9; i++)
        u[i] = -i / 4.0;
    em_exact *x;
    ck_assert_int_eq(tp_exact_new_d(9, u, NULL, 1.0, 1.0, EM_STANDARD, &x), EM_OK);
    mpfr_t q, num, den, f;
    mpfr_inits2(256, q, num, den, f, (mpfr_ptr)0);
    mpfr_set_si(q, -1, MPFR_RNDN);
    mpfr_div_ui(q, q, 8, MPFR_RNDN);
    mpfr_exp(q, q, MPFR_RNDN);
    mpfr_set_ui(num, 0, MPFR_RNDN);
    mpfr_set_ui(den, 0, MPFR_RNDN);
    mpfr_set_ui(f, 1, MPFR_RNDN);
    for (int i = 0; i < 9; i++) {
        if (i < 3)
            mpfr_add(num, num, f, MPFR_RNDN);
        mpfr_add(den, den, f, MPFR_RNDN);
        mpfr_mul(f, f, q, MPFR_RNDN);
    }
    mpfr_div(f, num, den, MPFR_RNDN);
    mpfr_mul_2ui(f, f, 63, MPFR_RNDN);
    uint64_t F3 = (uint64_t)mpfr_get_uj(f, MPFR_RNDD);
    mpfr_clears(q, num, den, f, (mpfr_ptr)0);
    ck_assert(em_exact_lo64(x)[3] <= F3 && F3 < em_exact_hi64(x)[3]);
    for (int c = 0; c < 2; c++) {
        unsigned char bits[200];
        for (int k = 0; k < 63; k++)
            bits[k] = (F3 >> (62 - k)) & 1;
        for (int k = 63; k < 200; k++)
            bits[k] = (unsigned char)c;
        em_bits b;
        em_bits_init_script(&b, bits, 200);
        size_t r;
        ck_assert_int_eq(em_exact_sample(x, &b, &r), EM_OK);
        ck_assert(b.used > 63);
        ck_assert_uint_eq(r, (size_t)(2 + c));
    }
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.slow, 2);
    em_exact_free(x);
    /* every draw through MPFR (the decision declines): the right law on a 13-candidate set
     * (4000 draws, each frequency within 5 sd) */
    double v[13];
    for (int i = 0; i < 13; i++)
        v[i] = marital_d[i % 7] - (i >= 7 ? 1.0 : 0.0);
    ck_assert_int_eq(tp_exact_new_d(13, v, NULL, 1.0, 1.0, EM_STANDARD, &x), EM_OK);
    em_exact_set_select(x, select_never);
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){5}, 1), EM_OK);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    const int N = 4000;
    int hits[13] = {0};
    for (int k = 0; k < N; k++) {
        size_t r;
        EM_T_REQUIRE(em_exact_sample(x, &b, &r) == EM_OK && r < 13, "slow draw");
        hits[r]++;
    }
    double Z = 0;
    for (int i = 0; i < 13; i++)
        Z += exp((v[i] - marital_d[1]) / 2.0);
    for (int i = 0; i < 13; i++) {
        double p = exp((v[i] - marital_d[1]) / 2.0) / Z;
        double sd = sqrt(N * p * (1 - p));
        EM_T_REQUIRE(fabs(hits[i] - N * p) <= 5 * sd + 1, "cell %d: %d vs %.1f", i, hits[i], N * p);
    }
    em_exact_free(x);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("exact_vec");
    TCase *t = tcase_create("vec");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, draws_unchanged);
    tcase_add_test(t, on_off_same_words);
    tcase_add_test(t, words_bracket_mpfr);
    tcase_add_test(t, bits_enumerated);
    tcase_add_test(t, run_leaves_wide_fours);
    tcase_add_test(t, slow_path_at_boundary);
    tcase_add_test(t, once_same_draws);
    suite_add_tcase(s, t);
    return s;
}

EM_CHECK_MAIN(suite)
