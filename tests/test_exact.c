/* test_exact.c: the exact sampler (src/oracle/em_exact_*.c, src/core/em_exact_select.c).
 *
 * Bit-level exhaustive tests: a scripted bit source; every bit string up to length L is
 * enumerated (depth first, a prefix is extended only to the length the sampler asks
 * for), which gives the sampler's exact output distribution as dyadic rationals
 * c_i / 2^L plus the mass U of the paths still unfinished at L bits.  For a correct
 * sampler, exactly:   c_i / 2^L <= p_i <= c_i / 2^L + U   for every cell i,
 * with p_i from the MPFR oracle (40 correctly rounded digits, as an exact rational
 * interval).  Planted bugs (defined here only) must violate it:
 *   - an off-by-one in the exact sampler's cumulative selection (the draw interval taken
 *     one bit narrower than drawn);
 *   - an off-by-one (t <= acc) in the prefix selection of the integer sampler;
 *   - modulo bias in a uniform integer draw (b + 4 bits mod m instead of rejection);
 * and the noncentrality at N = 10^6 draws of the last two is computed and shown to be far
 * below what a chi-square test needs. */
#include "em_check_main.h"
#include "test_exact_enum.h"

#include "judge/em_gof.h"
#include "core/em_exact_select.h"
#include "core/em_exact_encl.h"
#include "num/em_bounds.h"
#include "em_problem_util.h"

static int exact_fn(void *ctx, em_bits *b, size_t *out)
{
    return em_exact_sample((em_exact *)ctx, b, out);
}

/* The planted bug: the draw interval taken one bit narrower than drawn. */
static size_t select_narrow(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a,
                            uint64_t w)
{
    return em_exact_select(n, lo, hi, a, w > 1 ? w / 2 : 1);
}

/* Enumerate the exact sampler on s to length L; returns violations; *unf the unfinished
 * mass. */
static int check_exact(scen *s, unsigned L, em_exact_select_fn hook, double *unf)
{
    em_exact *x;
    ck_assert_int_eq(tp_exact_new(s->n, s->u, s->ex, s->eps, s->delta, s->variant, &x), EM_OK);
    em_exact_set_select(x, hook);
    enum_state e;
    int v = enum_check(&e, exact_fn, x, s->n, L, s->ex, s->plo, s->phi);
    *unf = enum_unf(&e);
    /* noncentrality of a G-test at N = 10^6 against the enumerated distribution */
    double lam = 0;
    for (size_t i = 0; i < s->n; i++) {
        double p = mpq_get_d(s->phi[i]);
        double q = ldexp(mpz_get_d(e.count[i]), -(int)e.L) / (1 - *unf);
        if (p > 0)
            lam += 1.0e6 * (q - p) * (q - p) / p;
    }
    printf("  exact n=%zu L=%u: %llu runs, unfinished mass %.3g, violations %d", s->n, L,
           (unsigned long long)e.runs, *unf, v);
    if (hook) /* (renormalising the finished mass is a fair estimate only when U is small) */
        printf(" (planted bug; noncentrality at N=10^6 about %.3g: a gross bug)", lam);
    printf("\n");
    enum_free(&e);
    em_exact_free(x);
    return v;
}

START_TEST(bits_marital)
{
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    double unf;
    ck_assert_int_eq(check_exact(&s, 16, NULL, &unf), 0);
    ck_assert(unf < 0.01);
    ck_assert_int_eq(check_exact(&s, 32, NULL, &unf), 0);
    ck_assert(unf < 1.0e-7);
    scen_free(&s);
}
END_TEST

START_TEST(bits_monotone_marital)
{
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_MONOTONE);
    double unf;
    ck_assert_int_eq(check_exact(&s, 20, NULL, &unf), 0);
    scen_free(&s);
}
END_TEST

START_TEST(bits_ties)
{
    /* three-way tie: 1/3 each (irrational boundaries are not the only case) */
    static const char *const u3[] = {"2", "2", "2"};
    scen s;
    scen_init(&s, 3, u3, "1", "1", EM_STANDARD);
    double unf;
    ck_assert_int_eq(check_exact(&s, 20, NULL, &unf), 0);
    scen_free(&s);
    /* four-way tie: dyadic boundaries 1/4, 1/2, 3/4: finished exactly at 2 + 2 bits */
    static const char *const u4[] = {"-1.5", "-1.5", "-1.5", "-1.5"};
    scen_init(&s, 4, u4, "0.5", "1", EM_STANDARD);
    ck_assert_int_eq(check_exact(&s, 12, NULL, &unf), 0);
    ck_assert(unf == 0.0);
    scen_free(&s);
    /* two modes and a lower candidate */
    static const char *const u5[] = {"3", "1/3", "3", "0x1.8p1", "-2"};
    scen_init(&s, 5, u5, "0.7", "2", EM_STANDARD);
    ck_assert_int_eq(check_exact(&s, 20, NULL, &unf), 0);
    scen_free(&s);
}
END_TEST

START_TEST(bits_excluded)
{
    static const char *const u[] = {"-inf", "1", "-inf", "0.25", "2", "-inf"};
    scen s;
    scen_init(&s, 6, u, "1", "1", EM_MONOTONE);
    double unf;
    ck_assert_int_eq(check_exact(&s, 20, NULL, &unf), 0);
    scen_free(&s);
    /* the only candidate not excluded: drawn with probability 1 after the first chunk */
    static const char *const u1[] = {"-inf", "-inf", "5"};
    scen_init(&s, 3, u1, "1", "1", EM_STANDARD);
    ck_assert_int_eq(check_exact(&s, 8, NULL, &unf), 0);
    ck_assert(unf == 0.0);
    scen_free(&s);
}
END_TEST

START_TEST(bits_near_underflow)
{
    /* weights exp(-751.5) and exp(-1001.5): below double's range (the float sampler
     * rounds them to the smallest fixed-point weight or 0); exact here. */
    static const char *const u[] = {"0", "-1500", "3", "-2000", "2.5"};
    scen s;
    scen_init(&s, 5, u, "1", "1", EM_STANDARD);
    double unf;
    ck_assert_int_eq(check_exact(&s, 20, NULL, &unf), 0);
    scen_free(&s);
    /* beyond MPFR's exponent range of exp: 1e300 apart */
    static const char *const v[] = {"1e300", "0", "1e300", "-1e300"};
    scen_init(&s, 4, v, "1", "1", EM_STANDARD);
    ck_assert_int_eq(check_exact(&s, 16, NULL, &unf), 0);
    scen_free(&s);
}
END_TEST

START_TEST(bits_first_chunk_63)
{
    /* one 63-bit chunk: the same exact distribution (enumerated to 63 + 4 bits would be
     * too many strings; check at the first chunk of 12 and 20 bits instead) */
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    em_exact *x;
    ck_assert_int_eq(tp_exact_new(7, s.u, s.ex, s.eps, s.delta, EM_STANDARD, &x), EM_OK);
    ck_assert_int_eq(em_exact_set_first_chunk(x, 0), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_exact_set_first_chunk(x, 64), EM_ERR_DOMAIN);
    for (unsigned k = 12; k <= 20; k += 8) {
        ck_assert_int_eq(em_exact_set_first_chunk(x, k), EM_OK);
        enum_state e;
        enum_init(&e, exact_fn, x, 7, k + 4);
        ck_assert(!e.bad);
        ck_assert_int_eq(enum_violations(&e, s.plo, s.phi), 0);
        enum_free(&e);
    }
    ck_assert_int_eq(em_exact_set_first_chunk(x, 63), EM_OK);
    em_rng rng;
    em_bits b;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){9}, 1), EM_OK);
    em_bits_init_rng(&b, &rng);
    em_exact_stats s0, st;
    em_exact_get_stats(x, &s0);
    for (int d = 0; d < 10000; d++) {
        size_t r;
        EM_T_REQUIRE(em_exact_sample(x, &b, &r) == EM_OK, "draw");
    }
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.draws - s0.draws, 10000);
    ck_assert_uint_eq(st.scans - s0.scans, 10000); /* one scan per draw */
    ck_assert_uint_eq(b.used, 630000);
    em_exact_free(x);
    scen_free(&s);
}
END_TEST

START_TEST(planted_exact_off_by_one)
{
    scen s;
    scen_init(&s, 7, marital_u, "1", "1", EM_STANDARD);
    double unf;
    int v = check_exact(&s, 16, select_narrow, &unf);
    ck_assert_int_gt(v, 0);
    scen_free(&s);
}
END_TEST

/* --------------------------------- the integer decision at the bit level */
/* The float sampler's integer decision (em_sample_fixed) drawn from bits: t uniform on
 * [0, total) by rejection on b = bitlen(total - 1) bits, then the prefix cell of t.
 * Its exact distribution is W_i / total.  Bugs: sel_le (t <= acc instead of t < acc)
 * and modulo ((b + 4) bits mod total, no rejection). */

typedef struct fixed_ctx {
    size_t n;
    const uint64_t *W;
    uint64_t total;
    int bug; /* 0 none, 1 off-by-one, 2 modulo */
} fixed_ctx;

static unsigned bitlen64(uint64_t x)
{
    unsigned b = 0;
    while (b < 64 && (x >> b) != 0)
        b++;
    return b;
}

static int fixed_fn(void *ctx, em_bits *b, size_t *out)
{
    fixed_ctx *c = ctx;
    unsigned nb = bitlen64(c->total - 1);
    uint64_t t;
    if (c->bug == 2) {
        int st = em_bits_get(b, nb + 4, &t);
        if (st != EM_OK)
            return st;
        t %= c->total;
    } else {
        for (;;) {
            int st = em_bits_get(b, nb, &t);
            if (st != EM_OK)
                return st;
            if (t < c->total)
                break;
        }
    }
    size_t idx = 0;
    uint64_t acc = 0;
    for (size_t i = 0; i < c->n; i++) {
        acc += c->W[i];
        if (c->bug == 1)
            idx = (t > acc) ? i + 1 : idx;
        else
            idx = (t >= acc) ? i + 1 : idx;
    }
    *out = idx;
    return EM_OK;
}

/* N * sum (q - p)^2 / p at N = 10^6, q the buggy distribution (finished mass
 * renormalised), p = W / total. */
static double lambda_1e6(const enum_state *e, const uint64_t *W, uint64_t total)
{
    double fin = 1.0 - enum_unf(e), lam = 0;
    for (size_t i = 0; i < e->n; i++) {
        double p = (double)W[i] / (double)total;
        double q = ldexp(mpz_get_d(e->count[i]), -(int)e->L) / fin;
        lam += (q - p) * (q - p) / p;
    }
    return 1.0e6 * lam;
}

START_TEST(planted_fixed_bugs)
{
    /* marital probabilities (u = count/1000, eps = 1) on the scale total = 2^20 - 2
     * (b = 20 bits, rejection 2/2^20), the mode taking the remainder */
    static const long cnt[7] = EM_MARITAL_COUNTS;
    const uint64_t total = ((uint64_t)1 << 20) - 2;
    uint64_t W[7], rest = total;
    double Z = 0;
    for (int i = 0; i < 7; i++)
        Z += exp((cnt[i] - 14976) / 2000.0);
    for (int i = 0; i < 7; i++)
        if (i != 1) {
            W[i] = (uint64_t)floor(exp((cnt[i] - 14976) / 2000.0) / Z * (double)total);
            rest -= W[i];
        }
    W[1] = rest;
    mpq_t plo[7], phi[7];
    for (int i = 0; i < 7; i++) {
        mpq_inits(plo[i], phi[i], NULL);
        mpq_set_ui(plo[i], W[i], total);
        mpq_canonicalize(plo[i]);
        mpq_set(phi[i], plo[i]);
    }
    double lam_crit = em_ncx2_lambda_for_power(6, 1e-6, 0.99);
    for (int bug = 0; bug <= 2; bug++) {
        fixed_ctx c = {7, W, total, bug};
        enum_state e;
        enum_init(&e, fixed_fn, &c, 7, bug == 2 ? 24 : 20);
        ck_assert(!e.bad);
        int v = enum_violations(&e, plo, phi);
        double lam = lambda_1e6(&e, W, total);
        printf("  fixed sampler %s: L=%u, unfinished %.3g, violations %d, noncentrality at "
               "N=10^6 %.3g (a G-test at alpha 1e-6 needs %.1f for power 0.99: N >= %.3g)\n",
               bug == 0 ? "correct" : bug == 1 ? "off-by-one" : "modulo", e.L, enum_unf(&e), v,
               lam, lam_crit, bug ? 1.0e6 * lam_crit / lam : 0.0);
        if (bug == 0) {
            ck_assert_int_eq(v, 0);
        } else {
            ck_assert_int_gt(v, 0);
            fflush(stdout);
            ck_assert(lam < 1.0); /* invisible to a chi-square test at 10^6 draws */
        }
        enum_free(&e);
    }
    for (int i = 0; i < 7; i++)
        mpq_clears(plo[i], phi[i], NULL);
}
END_TEST

/* --------------------------------------------------------- unit behaviour */

START_TEST(bits_source)
{
    static const unsigned char sc[5] = {1, 0, 1, 1, 0};
    em_bits b;
    em_bits_init_script(&b, sc, 5);
    uint64_t x;
    ck_assert_int_eq(em_bits_get(&b, 3, &x), EM_OK);
    ck_assert_uint_eq(x, 5);
    ck_assert_int_eq(em_bits_get(&b, 3, &x), EM_ERR_RNG);
    ck_assert_uint_eq(b.wanted, 6);
    ck_assert_uint_eq(b.used, 3);
    ck_assert_int_eq(em_bits_get(&b, 2, &x), EM_OK);
    ck_assert_uint_eq(x, 2);
    ck_assert_int_eq(em_bits_get(&b, 0, &x), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_bits_get(&b, 65, &x), EM_ERR_DOMAIN);
    /* from an rng: MSB first, across words */
    const uint64_t words[2] = {0xF000000000000001ULL, 0x8000000000000000ULL};
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 2), EM_OK);
    em_bits_init_rng(&b, &rng);
    ck_assert_int_eq(em_bits_get(&b, 4, &x), EM_OK);
    ck_assert_uint_eq(x, 15);
    ck_assert_int_eq(em_bits_get(&b, 59, &x), EM_OK);
    ck_assert_uint_eq(x, 0);
    ck_assert_int_eq(em_bits_get(&b, 2, &x), EM_OK);
    ck_assert_uint_eq(x, 3); /* last bit of word 1, first of word 2 */
    ck_assert_int_eq(em_bits_get(&b, 64, &x), EM_ERR_RNG);
}
END_TEST

START_TEST(select_unit)
{
    /* F = 0, 1/4, 1/4 (an empty cell), 3/4, 1 on the scale 2^63, exact bounds */
    const uint64_t S = (uint64_t)1 << 63;
    uint64_t lo[5] = {0, S / 4, S / 4, 3 * (S / 4), S};
    uint64_t hi[5] = {0, S / 4, S / 4, 3 * (S / 4), S};
    ck_assert_uint_eq(em_exact_select(4, lo, hi, 0, S / 4), 0);
    ck_assert_uint_eq(em_exact_select(4, lo, hi, 0, S / 2), 4);       /* straddles */
    ck_assert_uint_eq(em_exact_select(4, lo, hi, S / 4, S / 4), 2);   /* not the empty cell */
    ck_assert_uint_eq(em_exact_select(4, lo, hi, S / 2, S / 4), 2);
    ck_assert_uint_eq(em_exact_select(4, lo, hi, 3 * (S / 4), S / 4), 3);
    ck_assert_uint_eq(em_exact_select(4, lo, hi, S - 1, 1), 3);
    /* widened bounds: undecided at the edge, decided inside */
    hi[2] = S / 4 + 1;
    ck_assert_uint_eq(em_exact_select(4, lo, hi, S / 4, S / 4), 4);
    ck_assert_uint_eq(em_exact_select(4, lo, hi, S / 4 + 1, 1), 2);
}
END_TEST

/* A block's loops as proven (em_encl_suffix, em_encl_upward) against em_encl_add and
 * em_encl_ratio one index at a time, as src/oracle/em_exact_levels.c ran them before: the
 * same bounds bit for bit (mpfr_equal_p: also 0 against 0); and a cap below an upper sum
 * stops each with 1. */
START_TEST(block_loops)
{
    enum { M = 37 };
    const mpfr_prec_t p = 128;
    mpfr_t *wlo = em_mpfr_array_new(M, p), *whi = em_mpfr_array_new(M, p);
    mpfr_t *tlo = em_mpfr_array_new(M + 1, p), *thi = em_mpfr_array_new(M + 1, p);
    mpfr_t *rlo = em_mpfr_array_new(M, p), *rhi = em_mpfr_array_new(M, p);
    mpfr_t clo, chi, Tlo, Thi, Clo, Chi, d, flo, fhi, cap;
    mpfr_inits2(p, clo, chi, Tlo, Thi, Clo, Chi, d, flo, fhi, cap, (mpfr_ptr)0);
    ck_assert_ptr_nonnull(wlo && whi && tlo && thi && rlo && rhi ? wlo : NULL);
    mpfr_set_ui_2exp(cap, 1, 996, MPFR_RNDN);
    for (int j = 0; j < M; j++) { /* weights exp(-j/3) rounded both ways, some excluded (0) */
        if (j % 11 == 5) {
            mpfr_set_ui(wlo[j], 0, MPFR_RNDN);
            mpfr_set_ui(whi[j], 0, MPFR_RNDN);
            continue;
        }
        mpfr_set_si(d, -j, MPFR_RNDN);
        mpfr_div_ui(d, d, 3, MPFR_RNDN);
        mpfr_exp(wlo[j], d, MPFR_RNDD);
        mpfr_exp(whi[j], d, MPFR_RNDU);
    }
    /* T after the block and C before it: 1/3 rounded apart, and 2^-200 .. 1 + 2^-200 */
    mpfr_set_ui(tlo[M], 1, MPFR_RNDN);
    mpfr_div_ui(tlo[M], tlo[M], 3, MPFR_RNDD);
    mpfr_set_ui(thi[M], 1, MPFR_RNDN);
    mpfr_div_ui(thi[M], thi[M], 3, MPFR_RNDU);
    mpfr_set_ui_2exp(clo, 1, -200, MPFR_RNDN);
    mpfr_set_ui(chi, 1, MPFR_RNDN);
    mpfr_add(chi, chi, clo, MPFR_RNDU);
    mpfr_set(Clo, clo, MPFR_RNDN);
    mpfr_set(Chi, chi, MPFR_RNDN);
    mpfr_set(Tlo, tlo[M], MPFR_RNDN);
    mpfr_set(Thi, thi[M], MPFR_RNDN);
    ck_assert_int_eq(em_encl_suffix(M, tlo[0], thi[0], wlo[0], whi[0], cap), 0);
    for (int k = M; k-- > 0;) {
        em_encl_add(Tlo, Thi, wlo[k], whi[k]);
        ck_assert(mpfr_equal_p(Tlo, tlo[k]) && mpfr_equal_p(Thi, thi[k]));
    }
    ck_assert_int_eq(em_encl_upward(M, rlo[0], rhi[0], d, clo, chi, tlo[0], thi[0], wlo[0],
                                    whi[0], cap), 0);
    for (int k = 0; k < M; k++) {
        em_encl_ratio(flo, fhi, d, Clo, Chi, tlo[k], thi[k]);
        ck_assert(mpfr_equal_p(flo, rlo[k]) && mpfr_equal_p(fhi, rhi[k]));
        ck_assert(mpfr_lessequal_p(rlo[k], rhi[k]));
        em_encl_add(Clo, Chi, wlo[k], whi[k]);
    }
    ck_assert(mpfr_equal_p(Clo, clo) && mpfr_equal_p(Chi, chi));
    /* a cap below the upper sums: 1 from each (the suffix's T passes 1 on the way down,
       the upward C starts above 1) */
    mpfr_set_ui(cap, 1, MPFR_RNDN);
    ck_assert_int_eq(em_encl_suffix(M, tlo[0], thi[0], wlo[0], whi[0], cap), 1);
    ck_assert_int_eq(em_encl_upward(M, rlo[0], rhi[0], d, clo, chi, tlo[0], thi[0], wlo[0],
                                    whi[0], cap), 1);
    mpfr_clears(clo, chi, Tlo, Thi, Clo, Chi, d, flo, fhi, cap, (mpfr_ptr)0);
    em_mpfr_arrays_free((mpfr_t *[]){wlo, whi, rlo, rhi}, 4, M);
    em_mpfr_arrays_free((mpfr_t *[]){tlo, thi}, 2, M + 1);
}
END_TEST

START_TEST(errors_and_rng)
{
    mpq_t u[3], eps, delta;
    for (int i = 0; i < 3; i++) {
        mpq_init(u[i]);
        mpq_set_si(u[i], i, 1);
    }
    mpq_inits(eps, delta, NULL);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 1, 1);
    em_exact *x = NULL;
    unsigned char ex_all[3] = {1, 1, 1};
    ck_assert_int_eq(tp_exact_new(0, u, NULL, eps, delta, EM_STANDARD, &x), EM_ERR_EMPTY);
    ck_assert_int_eq(tp_exact_new(3, u, ex_all, eps, delta, EM_STANDARD, &x), EM_ERR_ALL_EXCLUDED);
    ck_assert_int_eq(tp_exact_new(3, u, NULL, eps, delta, 7, &x), EM_ERR_VARIANT);
    ck_assert_int_eq(tp_exact_new(3, NULL, NULL, eps, delta, EM_STANDARD, &x), EM_ERR_NULL);
    mpq_set_si(eps, -1, 1);
    ck_assert_int_eq(tp_exact_new(3, u, NULL, eps, delta, EM_STANDARD, &x), EM_ERR_EPSILON);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 0, 1);
    ck_assert_int_eq(tp_exact_new(3, u, NULL, eps, delta, EM_STANDARD, &x), EM_ERR_SENSITIVITY);
    mpq_set_ui(delta, 1, 1);
    ck_assert_int_eq(tp_exact_new(3, u, NULL, eps, delta, EM_STANDARD, &x), EM_OK);
    /* many draws from ChaCha20: frequencies near the truth; bits per draw small */
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){42}, 1), EM_OK);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    uint64_t hits[3] = {0};
    for (int k = 0; k < 200000; k++) {
        size_t r;
        EM_T_REQUIRE(em_exact_sample(x, &b, &r) == EM_OK, "draw failed");
        EM_T_REQUIRE(r < 3, "range");
        hits[r]++;
    }
    double Z = 1 + exp(0.5) + exp(1.0);
    ck_assert(fabs(hits[2] / 200000.0 - exp(1.0) / Z) < 0.01);
    ck_assert(fabs(hits[0] / 200000.0 - 1 / Z) < 0.01);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.draws, 200000);
    ck_assert((double)st.bits / st.draws < 8.0);
    size_t r;
    ck_assert_int_eq(em_exact_sample(NULL, &b, &r), EM_ERR_NULL);
    em_exact_free(x);
    for (int i = 0; i < 3; i++)
        mpq_clear(u[i]);
    mpq_clears(eps, delta, NULL);
}
END_TEST

START_TEST(slow_path_deep)
{
    /* a draw that must go past 63 bits: U's bits follow a boundary F(1) = 1/(1 + e^-1/2)
     * ... simplest: script 0111...1 for F(1) of a tie of two (= 1/2 exactly): cell 0 is
     * certain only when U's interval is below 1/2: 0 then anything: decided at k = 2.
     * Use instead a boundary irrational: follow the bits of lo64[1] then diverge. */
    static const char *const u2[] = {"0", "-1"};
    scen s;
    scen_init(&s, 2, u2, "1", "1", EM_STANDARD);
    em_exact *x;
    ck_assert_int_eq(tp_exact_new(2, s.u, s.ex, s.eps, s.delta, EM_STANDARD, &x), EM_OK);
    uint64_t F1 = em_exact_lo64(x)[1]; /* floor(F(1) 2^63), F(1) = 1/(1 + e^-0.5) */
    unsigned char bits[200];
    for (int k = 0; k < 63; k++)
        bits[k] = (F1 >> (62 - k)) & 1;
    /* the remaining bits of F(1) are unknown here; two continuations: all zeros (then U
     * is just below or at F1 2^-63 + ...: eventually cell 0 or 1, decided by MPFR) */
    for (int k = 63; k < 200; k++)
        bits[k] = 0;
    em_bits b;
    em_bits_init_script(&b, bits, 200);
    size_t r;
    ck_assert_int_eq(em_exact_sample(x, &b, &r), EM_OK);
    ck_assert(b.used > 63);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.slow, 1);
    /* at the fixed-point floor of the boundary followed by zeros, U < F(1): cell 0 */
    ck_assert_uint_eq(r, 0);
    em_exact_free(x);
    scen_free(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("exact");
    TCase *tb = tcase_create("bitlevel");
    tcase_set_timeout(tb, 300);
    tcase_add_test(tb, bits_marital);
    tcase_add_test(tb, bits_monotone_marital);
    tcase_add_test(tb, bits_ties);
    tcase_add_test(tb, bits_excluded);
    tcase_add_test(tb, bits_near_underflow);
    tcase_add_test(tb, bits_first_chunk_63);
    tcase_add_test(tb, planted_exact_off_by_one);
    tcase_add_test(tb, planted_fixed_bugs);
    suite_add_tcase(s, tb);
    TCase *tu = tcase_create("unit");
    tcase_set_timeout(tu, 60);
    tcase_add_test(tu, bits_source);
    tcase_add_test(tu, select_unit);
    tcase_add_test(tu, block_loops);
    tcase_add_test(tu, errors_and_rng);
    tcase_add_test(tu, slow_path_deep);
    suite_add_tcase(s, tu);
    return s;
}

EM_CHECK_MAIN(suite)
