/* test_exact_d.c: the exact sampler from doubles (em_exact_new_d) and its cheap bounds
 * (src/oracle/em_wbound.h, em_wbound_tab.c).
 *
 *   - every table entry recomputed with MPFR (directed roundings; exp(-k) at 64 bits,
 *     the others as ceilings at 512 bits, the double tables at 53 bits) and compared
 *     exactly, and shown tight;
 *   - the integer upper bound of exp and the double chain's lower bound (and its stated
 *     relative error, 2^-48) against MPFR at 256 bits over dense sweeps and edge cases
 *     (x = 0, tiny and subnormal x, x near EM_WB_XCUT, huge and infinite x);
 *   - the chain's block form (AVX2 where the CPU has it) against the scalar one, bit for
 *     bit;
 *   - bit-level enumeration (tests/test_exact_enum.h) of the sampler on the scenarios of
 *     tests/test_exact.c given as doubles, against the oracle's probabilities of the same
 *     reals (the doubles written as C99 hex floats: exact), with MPFR never set up;
 *   - the words bracket the same F(i) as the rational constructor's MPFR words, and are
 *     tight (a regression to loose bounds fails);
 *   - the slow path, forced, sets up MPFR lazily and still samples correctly;
 *   - error inputs. */
#include "em_check_main.h"
#include "test_exact_enum.h"

#include <float.h>

#include "oracle/em_wbound.h"
#include "em_problem_util.h"
#include "em_exact_ref.h"

static int exact_fn(void *ctx, em_bits *b, size_t *out)
{
    return em_exact_sample((em_exact *)ctx, b, out);
}

/* ------------------------------------------------------------------ tables */

/* MPFR's exp(-v) with v = j 2^-shift (exact), rounded rnd, at prec bits */
static void mp_exp_neg(mpfr_t y, long j, int shift, mpfr_rnd_t rnd)
{
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_set_si_2exp(t, -j, -shift, MPFR_RNDN);
    mpfr_exp(y, t, rnd);
    mpfr_clear(t);
}

START_TEST(tables_match_mpfr)
{
    mpfr_t y;
    mpz_t z;
    mpz_init(z);
    mpfr_init2(y, 64);
    for (long k = 0; k < EM_WB_XCUT; k++) {
        const em_wb_sig *t = &em_wb_exp_int_hi[k];
        mp_exp_neg(y, k, 0, MPFR_RNDU);
        mpfr_exp_t ex = mpfr_get_z_2exp(z, y);
        EM_T_REQUIRE(mpz_get_ui(z) == t->m && -ex == t->e, "exp(-%ld)", k);
        EM_T_REQUIRE(t->m >> 63, "normalised");
        /* tight: the 64-bit number below it is below exp(-k) (equal at k = 0, exp(0) = 1) */
        mpfr_t a, b;
        mpfr_inits2(64, a, b, (mpfr_ptr)0);
        mp_exp_neg(a, k, 0, MPFR_RNDD);
        mpfr_set_ui_2exp(b, t->m, -t->e, MPFR_RNDN);
        if (k > 0)
            mpfr_nextabove(a);
        EM_T_REQUIRE(mpfr_equal_p(a, b), "exp(-%ld) tight", k);
        mpfr_clears(a, b, (mpfr_ptr)0);
    }
    mpfr_set_prec(y, 512);
    const uint64_t *hi[3] = {em_wb_exp_a_hi, em_wb_exp_b_hi, em_wb_exp_c_hi};
    for (int t = 0; t < 3; t++) {
        int shift = 10 * (t + 1);
        for (long j = 0; j < 1024; j++) {
            mp_exp_neg(y, j, shift, MPFR_RNDU);
            mpfr_mul_2ui(y, y, 63, MPFR_RNDN);
            mpfr_get_z(z, y, MPFR_RNDU);
            EM_T_REQUIRE(mpz_get_ui(z) == hi[t][j], "table %d %ld", t, j);
            /* exp(-v) is irrational for rational v != 0: its floor is one below */
            mp_exp_neg(y, j, shift, MPFR_RNDD);
            mpfr_mul_2ui(y, y, 63, MPFR_RNDN);
            mpfr_get_z(z, y, MPFR_RNDD);
            EM_T_REQUIRE(hi[t][j] - mpz_get_ui(z) == (j ? 1u : 0u), "table %d tight %ld", t, j);
        }
    }
    /* the double tables: exp(-k), exp(-j 2^-10) rounded down at 53 bits, exactly */
    mpfr_set_prec(y, 53);
    for (long k = 0; k < EM_WB_XCUT; k++) {
        mp_exp_neg(y, k, 0, MPFR_RNDD);
        EM_T_REQUIRE(mpfr_cmp_d(y, em_wb_exp_int_d[k]) == 0, "exp(-%ld) as a double", k);
        EM_T_REQUIRE(em_wb_exp_int_d[k] >= 0x1p-1022, "exp(-%ld) normal", k);
    }
    for (long j = 0; j < 1024; j++) {
        mp_exp_neg(y, j, 10, MPFR_RNDD);
        EM_T_REQUIRE(mpfr_cmp_d(y, em_wb_exp_a_d[j]) == 0, "exp(-%ld/1024) as a double", j);
    }
    mpfr_clear(y);
    mpz_clear(z);
}
END_TEST

/* ------------------------------------------------------ integer exp bounds */

static mpfr_t ref, tmp, bnd;

static void ref_init(void)
{
    mpfr_inits2(256, ref, tmp, bnd, (mpfr_ptr)0);
}

static void ref_clear(void)
{
    mpfr_clears(ref, tmp, bnd, (mpfr_ptr)0);
}

/* ref = exp(-x) at 256 bits rounded rnd (x a double) */
static void ref_exp_d(double x, mpfr_rnd_t rnd)
{
    mpfr_set_d(tmp, -x, MPFR_RNDN); /* exact */
    mpfr_exp(ref, tmp, rnd);
}

/* m 2^-e vs ref: lower (up = 0) must be <= exp(-x) rounded down, upper >= rounded up */
static int bound_ok(uint64_t m, int e, int up)
{
    mpfr_set_ui_2exp(bnd, m, -e, MPFR_RNDN); /* exact: 64 bits */
    return up ? mpfr_cmp(bnd, ref) >= 0 : mpfr_cmp(bnd, ref) <= 0;
}

static void check_x(double x, double *worst)
{
    /* em_wb_fix: floor of x 2^64 */
    if (x < EM_WB_XCUT) {
        mpz_t z, w;
        mpz_init(z);
        mpfr_set_d(tmp, x, MPFR_RNDN);
        mpfr_mul_2ui(tmp, tmp, 64, MPFR_RNDN);
        mpfr_get_z(z, tmp, MPFR_RNDD);
        em_u128 X = em_wb_fix(x);
        mpz_init_set_ui(w, (unsigned long)(uint64_t)(X >> 64));
        mpz_mul_2exp(w, w, 64);
        mpz_add_ui(w, w, (unsigned long)(uint64_t)X);
        EM_T_REQUIRE(mpz_cmp(w, z) == 0, "em_wb_fix(%a)", x);
        mpz_clears(w, z, (mpz_ptr)0);
        /* the integer chain on X: an upper bound of exp(-X 2^-64), hence of exp(-x) */
        uint64_t m;
        int e;
        em_wb_exp_up(X, &m, &e);
        ref_exp_d(x, MPFR_RNDU);
        EM_T_REQUIRE(bound_ok(m, e, 1), "em_wb_exp_up(%a)", x);
        /* the double chain: L <= exp(-x) <= L (1 + 2^-48) */
        const em_wb_poly pc = em_wb_poly_init();
        double L = em_wb_exp_lo_dbl(x, &pc);
        ref_exp_d(x, MPFR_RNDD);
        EM_T_REQUIRE(mpfr_cmp_d(ref, L) >= 0, "em_wb_exp_lo_dbl(%a) above exp(-x)", x);
        ref_exp_d(x, MPFR_RNDU);
        mpfr_set_d(bnd, L, MPFR_RNDN);
        mpfr_mul_d(bnd, bnd, 1.0 + 0x1p-48, MPFR_RNDN); /* exact at 256 bits */
        EM_T_REQUIRE(mpfr_cmp(ref, bnd) <= 0, "em_wb_exp_lo_dbl(%a) not within 2^-48", x);
        EM_T_REQUIRE(L >= 0x1p-186, "em_wb_exp_lo_dbl(%a) normal", x);
        mpfr_sub_d(bnd, ref, L, MPFR_RNDU);
        mpfr_div(bnd, bnd, ref, MPFR_RNDU);
        double g = mpfr_get_d(bnd, MPFR_RNDU);
        if (g > *worst)
            *worst = g;
    }
    /* at scale 2^P, as the sampler's first pass uses L: the packed significand scaled down,
     * l = floor(L 2^P) <= exp(-x) 2^P <= (l + 1)(1 + 2^-48) */
    if (x < EM_WB_XCUT) {
        static const unsigned Ps[3] = {97, 110, 124};
        const em_wb_poly pc = em_wb_poly_init();
        double L = em_wb_exp_lo_dbl(x, &pc);
        int ex;
        double fr = frexp(L, &ex); /* L = fr 2^ex, fr in [1/2, 1) */
        uint64_t M = (uint64_t)ldexp(fr, 53);
        mpz_t w;
        mpz_init(w);
        for (int q = 0; q < 3; q++) {
            em_u128 l = em_wb_scale(M, 53 - ex, Ps[q], 0);
            mpz_set_ui(w, (unsigned long)(uint64_t)(l >> 64));
            mpz_mul_2exp(w, w, 64);
            mpz_add_ui(w, w, (unsigned long)(uint64_t)l);
            mpfr_set_z_2exp(bnd, w, -(long)Ps[q], MPFR_RNDN); /* exact: <= 128 bits */
            ref_exp_d(x, MPFR_RNDD);
            EM_T_REQUIRE(mpfr_cmp(bnd, ref) <= 0, "weight lo at %a, P = %u", x, Ps[q]);
            mpz_add_ui(w, w, 1);
            mpfr_set_z_2exp(bnd, w, -(long)Ps[q], MPFR_RNDN);
            mpfr_mul_d(bnd, bnd, 1.0 + 0x1p-48, MPFR_RNDU);
            ref_exp_d(x, MPFR_RNDU);
            EM_T_REQUIRE(mpfr_cmp(bnd, ref) >= 0, "weight hi at %a, P = %u", x, Ps[q]);
        }
        mpz_clear(w);
    }
}

START_TEST(wexp_against_mpfr)
{
    ref_init();
    double worst = 0;
    /* dense sweeps: a uniform grid, a geometric one (tiny to XCUT), and random doubles */
    for (long i = 0; i <= 20000; i++)
        check_x((double)i * (130.0 / 20000.0), &worst);
    for (double x = 0x1p-1074; x < 200.0; x = em_next_up(x * 1.37)) /* (subnormals) */
        check_x(x, &worst);
    uint64_t st = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        check_x(ldexp((double)(st >> 11), -53) * 128.0, &worst);
        check_x(ldexp((double)(st >> 11), -53 - (int)(st & 63)), &worst);
    }
    /* edges: 0, the smallest subnormal, table boundaries, XCUT and beyond, infinity */
    static const double edge[] = {0.0, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp-1023, 0x1p-64,
                                  0x1p-65, 0x1p-30, 0x1.ffffffffp-31, 0x1p-20, 0x1p-10, 1.0,
                                  0x1.fffffffffffffp-1, 127.0, 0x1.fffffffffffffp6, 128.0,
                                  0x1.0000000000001p7, 745.5, 1.0e300, DBL_MAX, HUGE_VAL};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        check_x(edge[i], &worst);
    /* x = 0 exactly: exp(0) = 1 from above, and from below within 2^-48 */
    uint64_t m;
    int e;
    em_wb_exp_up(0, &m, &e);
    ck_assert(m == (uint64_t)1 << 63 && e == 63);
    /* the double chain's relative error, stated as below 2^-48 (24.3u in its comment) */
    printf("  em_wb_exp_lo_dbl: largest relative error %.3g (2^%.1f)\n", worst, log2(worst));
    ck_assert(worst < 0x1p-48);
    ref_clear();
}
END_TEST

START_TEST(lo_block_same_bits)
{
    /* the block form (AVX2 on a CPU that has it) gives the scalar chain's doubles bit for
     * bit, at every length 0 .. 67 (vector body and scalar tail) and over a sweep of
     * [0, 128) including the table boundaries */
    enum { N = 4096 };
    static double x[N], lv[N], ls[N];
    const em_wb_poly pc = em_wb_poly_init();
    uint64_t st = 0x243f6a8885a308d3ull;
    for (int i = 0; i < N; i++) {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        x[i] = i % 4 == 0   ? (double)(i / 4 % 128)                           /* integers */
               : i % 4 == 1 ? (double)(st % 131072) * 0x1p-10                 /* j 2^-10 */
               : i % 4 == 2 ? em_next_down((double)(st % 128) + 1.0)          /* just below */
                            : ldexp((double)(st >> 11), -53) * 128.0;         /* uniform */
        if (!(x[i] < EM_WB_XCUT))
            x[i] = em_next_down((double)EM_WB_XCUT);
    }
    for (unsigned len = 0; len <= 67; len++) {
        em_wb_exp_lo_block(len, x + len, lv, &pc, 1);
        em_wb_exp_lo_block(len, x + len, ls, &pc, 0);
        for (unsigned c = 0; c < len; c++)
            EM_T_REQUIRE(memcmp(&lv[c], &ls[c], sizeof(double)) == 0, "len %u at %u", len, c);
    }
    for (int i = 0; i + 64 <= N; i += 64) {
        em_wb_exp_lo_block(64, x + i, lv + i, &pc, 1);
        em_wb_exp_lo_block(64, x + i, ls + i, &pc, 0);
    }
    for (int i = 0; i < N; i++) {
        EM_T_REQUIRE(memcmp(&lv[i], &ls[i], sizeof(double)) == 0, "x = %a", x[i]);
        EM_T_REQUIRE(memcmp(&ls[i], &(double){em_wb_exp_lo_dbl(x[i], &pc)}, sizeof(double)) == 0,
                     "scalar block at %a", x[i]);
    }
}
END_TEST

START_TEST(neighbours)
{
    static const double xs[] = {0.0, -0.0, 0x1p-1074, -0x1p-1074, 1.0, -1.0, 0x1p-1022,
                                DBL_MAX, -DBL_MAX, 3.5e-310, 1.0e300};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        ck_assert(em_next_up(xs[i]) == nextafter(xs[i], HUGE_VAL));
        ck_assert(em_next_down(xs[i]) == nextafter(xs[i], -HUGE_VAL));
        if (xs[i] >= 0 && xs[i] < DBL_MAX && !signbit(xs[i]))
            ck_assert(em_bits_up(xs[i]) == nextafter(xs[i], HUGE_VAL));
        if (xs[i] > 0)
            ck_assert(em_bits_down(xs[i]) == nextafter(xs[i], -HUGE_VAL));
    }
    ck_assert(em_next_up(HUGE_VAL) == HUGE_VAL);
    ck_assert(em_next_down(HUGE_VAL) == DBL_MAX);
    ck_assert(em_next_up(-HUGE_VAL) == -DBL_MAX);
    ck_assert(em_bits_down(HUGE_VAL) == DBL_MAX);
    ck_assert(isnan(em_bits_up(HUGE_VAL)));
}
END_TEST

/* ------------------------------------------------------- bit-level sampling */

/* Enumerate em_exact_new_d on (u, ex, eps, delta) to L bits against the oracle's
 * probabilities of the same reals; asserts MPFR was never set up.  Returns violations. */
static int check_dm(size_t n, const double *u, const unsigned char *ex, double eps,
                    double delta, int variant, unsigned L, double *unf, int mpfr_levels)
{
    scen s;
    scen_init_d(&s, n, u, ex, eps, delta, variant);
    em_exact *x;
    ck_assert_int_eq(tp_exact_new_d(n, u, ex, eps, delta, variant, &x), EM_OK);
    enum_state e;
    int v = enum_check(&e, exact_fn, x, n, L, s.ex, s.plo, s.phi);
    *unf = enum_unf(&e);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    printf("  exact_d n=%zu L=%u: %llu runs, unfinished mass %.3g, violations %d, MPFR levels %d\n",
           n, L, (unsigned long long)e.runs, *unf, v, st.levels);
    /* the fast path never needed MPFR (unless the cheap bounds were too wide) */
    ck_assert_int_eq(st.levels, mpfr_levels);
    enum_free(&e);
    em_exact_free(x);
    scen_free(&s);
    return v;
}

static int check_d(size_t n, const double *u, const unsigned char *ex, double eps,
                   double delta, int variant, unsigned L, double *unf)
{
    return check_dm(n, u, ex, eps, delta, variant, L, unf, 0);
}

START_TEST(bits_d_marital)
{
    double unf;
    ck_assert_int_eq(check_d(7, marital_d, NULL, 1.0, 1.0, EM_STANDARD, 16, &unf), 0);
    ck_assert(unf < 0.01);
    ck_assert_int_eq(check_d(7, marital_d, NULL, 1.0, 1.0, EM_STANDARD, 32, &unf), 0);
    ck_assert(unf < 1.0e-7);
    ck_assert_int_eq(check_d(7, marital_d, NULL, 1.0, 1.0, EM_MONOTONE, 20, &unf), 0);
    ck_assert_int_eq(check_d(7, marital_d, NULL, 0.1, 3.0, EM_STANDARD, 20, &unf), 0);
}
END_TEST

START_TEST(bits_d_ties)
{
    double unf;
    static const double u3[] = {2, 2, 2};
    ck_assert_int_eq(check_d(3, u3, NULL, 1.0, 1.0, EM_STANDARD, 20, &unf), 0);
    static const double u4[] = {-1.5, -1.5, -1.5, -1.5};
    ck_assert_int_eq(check_d(4, u4, NULL, 0.5, 1.0, EM_STANDARD, 12, &unf), 0);
    ck_assert(unf == 0.0); /* dyadic boundaries, exact words */
    static const double u5[] = {3, 1.0 / 3.0, 3, 0x1.8p1, -2};
    ck_assert_int_eq(check_d(5, u5, NULL, 0.7, 2.0, EM_STANDARD, 20, &unf), 0);
}
END_TEST

START_TEST(bits_d_excluded)
{
    double unf;
    static const double u[] = {-HUGE_VAL, 1, -HUGE_VAL, 0.25, 2, -HUGE_VAL};
    ck_assert_int_eq(check_d(6, u, NULL, 1.0, 1.0, EM_MONOTONE, 20, &unf), 0);
    /* by the array; the excluded values are not read (NaN there is fine) */
    static const double v[] = {NAN, 1, 7.0, 0.25, 2, HUGE_VAL};
    static const unsigned char ex[] = {1, 0, 1, 0, 0, 1};
    ck_assert_int_eq(check_d(6, v, ex, 1.0, 1.0, EM_MONOTONE, 20, &unf), 0);
    static const double w[] = {-HUGE_VAL, -HUGE_VAL, 5};
    ck_assert_int_eq(check_d(3, w, NULL, 1.0, 1.0, EM_STANDARD, 8, &unf), 0);
    ck_assert(unf == 0.0);
}
END_TEST

START_TEST(bits_d_extremes)
{
    double unf;
    /* weights exp(-751.5), exp(-1001.5): below double's range */
    static const double u[] = {0, -1500, 3, -2000, 2.5};
    ck_assert_int_eq(check_d(5, u, NULL, 1.0, 1.0, EM_STANDARD, 20, &unf), 0);
    /* 1e300 apart, and differences that overflow to +inf (umax - u beyond DBL_MAX) */
    static const double v[] = {1e300, 0, 1e300, -1e300};
    ck_assert_int_eq(check_d(4, v, NULL, 1.0, 1.0, EM_STANDARD, 16, &unf), 0);
    /* DBL_MAX - (-DBL_MAX) overflows to +inf: that weight's lower bound is 0, the words
     * too wide, and level 0 is computed in MPFR at construction (the fallback) */
    static const double w[] = {DBL_MAX, -DBL_MAX, 0x1.fffffffffffffp1022, -1.0};
    ck_assert_int_eq(check_dm(4, w, NULL, 2.0e-308, 1.0, EM_STANDARD, 20, &unf, 1), 0);
    static const double w2[] = {0x1p1023, -0x1.8p1022, 0x1p1022, -1.0};
    ck_assert_int_eq(check_d(4, w2, NULL, 2.0e-308, 1.0, EM_STANDARD, 20, &unf), 0);
    /* eps / delta underflowing (c = 1e-600: all weights within 1e-290 of 1) */
    static const double z[] = {0, -1, 0.5, -3};
    ck_assert_int_eq(check_d(4, z, NULL, 1.0e-300, 1.0e300, EM_MONOTONE, 20, &unf), 0);
    /* subnormal utilities and eps */
    static const double s[] = {0x1p-1074, 0, 3.5e-310, -0x1p-1060};
    ck_assert_int_eq(check_d(4, s, NULL, 4.9e-324, 1.0, EM_STANDARD, 16, &unf), 0);
    /* eps / delta = 2^1050 overflows: the weights' upper bounds stay near 1 (c taken as
     * DBL_MAX / 2 from below, +inf from above): too wide, MPFR at construction */
    static const double s3[] = {0x1p-1074, 0, 0x1p-1074}; /* x = 2^1049 2^-1074 = 2^-25 */
    ck_assert_int_eq(check_dm(3, s3, NULL, 1.0, 0x1p-1050, EM_STANDARD, 20, &unf, 1), 0);
}
END_TEST

START_TEST(rational_fallback_wide)
{
    /* utilities beyond double's range 1 apart, 10^400 and 10^400 - 1: their double
     * enclosures say nothing about the difference (weight bounds [0, 1]), so the rational
     * constructor computes level 0 in MPFR at construction; still exact */
    static char big[402], nines[401];
    big[0] = '1';
    memset(big + 1, '0', 400);
    big[401] = 0;
    memset(nines, '9', 400);
    nines[400] = 0;
    const char *u[3] = {big, nines, "-inf"};
    scen s;
    scen_init(&s, 3, u, "1", "1", EM_STANDARD);
    em_exact *x;
    ck_assert_int_eq(tp_exact_new(3, s.u, s.ex, s.eps, s.delta, EM_STANDARD, &x), EM_OK);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_int_eq(st.levels, 1);
    enum_state e;
    ck_assert_int_eq(enum_check(&e, exact_fn, x, 3, 20, s.ex, s.plo, s.phi), 0);
    printf("  rational, beyond double's range: MPFR level 0 at construction, unfinished %.3g\n",
           enum_unf(&e));
    enum_free(&e);
    em_exact_free(x);
    scen_free(&s);
}
END_TEST

START_TEST(c_overflow)
{
    /* eps / delta = 1e600 overflows: the mode alone (the others have probability below
     * exp(-1e599)); every draw is the mode, decided by the words, no MPFR */
    static const double z[] = {0, -1, 0.5, -3};
    em_exact *x;
    ck_assert_int_eq(tp_exact_new_d(4, z, NULL, 1.0e300, 1.0e-300, EM_STANDARD, &x), EM_OK);
    const uint64_t *lo = em_exact_lo64(x), *hi = em_exact_hi64(x);
    ck_assert(hi[2] <= 16 && lo[3] >= ((uint64_t)1 << 63) - 16); /* cell 2: [0, 1) but units */
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){3}, 1), EM_OK);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    for (int k = 0; k < 1000; k++) {
        size_t r;
        ck_assert_int_eq(em_exact_sample(x, &b, &r), EM_OK);
        ck_assert_uint_eq(r, 2);
    }
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_int_eq(st.levels, 0);
    em_exact_free(x);
}
END_TEST

/* ------------------------------------------- against the MPFR words, tightness */


START_TEST(words_bracket_and_tight)
{
    /* n = 1000, three utility sets: the cheap words of em_exact_new_d and of the rational
     * constructor em_exact_new (the same reals) bracket F(i) 2^63 computed independently
     * by MPFR at 256 bits, and are tight */
    size_t n = 1000;
    double *u = malloc(n * sizeof *u);
    mpq_t *q = malloc(n * sizeof *q);
    uint64_t *fl = malloc((n + 1) * sizeof *fl), *fh = malloc((n + 1) * sizeof *fh);
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < n; i++) {
            u[i] = pass == 0   ? -(double)i / 1000.0
                   : pass == 1 ? (double)((i * 7919) % 1009) / 37.0
                               : -(double)((i * 104729) % 4093) / 16.0;
            mpq_init(q[i]);
            mpq_set_d(q[i], u[i]);
        }
        ref_words(n, u, NULL, 0.9, 1.1, EM_STANDARD, fl, fh);
        mpq_t eps, delta;
        mpq_inits(eps, delta, NULL);
        mpq_set_d(eps, 0.9);
        mpq_set_d(delta, 1.1);
        em_exact *x[2];
        ck_assert_int_eq(tp_exact_new_d(n, u, NULL, 0.9, 1.1, EM_STANDARD, &x[0]), EM_OK);
        ck_assert_int_eq(tp_exact_new(n, q, NULL, eps, delta, EM_STANDARD, &x[1]), EM_OK);
        for (int k = 0; k < 2; k++) {
            const uint64_t *lo = em_exact_lo64(x[k]), *hi = em_exact_hi64(x[k]);
            uint64_t widest = 0;
            for (size_t i = 0; i <= n; i++) {
                EM_T_REQUIRE(lo[i] <= fh[i] && fl[i] <= hi[i], "bracket at %zu (%d)", i, k);
                EM_T_REQUIRE(lo[i] <= hi[i] && (i == 0 || lo[i] >= lo[i - 1]), "order at %zu", i);
                if (hi[i] - lo[i] > widest)
                    widest = hi[i] - lo[i];
            }
            ck_assert(lo[0] == 0 && hi[0] == 0 && lo[n] == (uint64_t)1 << 63 &&
                      hi[n] == (uint64_t)1 << 63);
            /* tight: the widest pair is below 2^-44 of the scale (2^19 units of 2^-63) */
            printf("  cheap words %s n=%zu set %d: widest hi - lo = %llu units of 2^-63\n",
                   k ? "rational" : "double", n, pass, (unsigned long long)widest);
            ck_assert(widest < ((uint64_t)1 << 19));
            em_exact_stats st;
            em_exact_get_stats(x[k], &st);
            ck_assert_int_eq(st.levels, 0); /* no MPFR level at construction */
            em_exact_free(x[k]);
        }
        for (size_t i = 0; i < n; i++)
            mpq_clear(q[i]);
        mpq_clears(eps, delta, NULL);
    }
    free(u);
    free(q);
    free(fl);
    free(fh);
}
END_TEST

/* ------------------------------------------------------------- slow path */

static size_t select_never(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a,
                           uint64_t w)
{
    (void)lo;
    (void)hi;
    (void)a;
    (void)w;
    return n;
}

START_TEST(slow_path_lazy)
{
    static const double u2[] = {0, -1};
    em_exact *x;
    ck_assert_int_eq(tp_exact_new_d(2, u2, NULL, 1.0, 1.0, EM_STANDARD, &x), EM_OK);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_int_eq(st.levels, 0); /* no MPFR at construction */
    /* F1 = floor(F(1) 2^63), F(1) = 1/(1 + e^-1/2) from MPFR at 256 bits: U following F1
     * then zeros is below F(1) (cell 0), then ones above it (cell 1); either way the cheap
     * words (lo64[1] <= F1 < hi64[1]) leave it undecided after 63 bits: MPFR decides */
    uint64_t F1 = two_cell_f1();
    ck_assert(em_exact_lo64(x)[1] <= F1 && F1 < em_exact_hi64(x)[1]);
    for (int c = 0; c < 2; c++) {
        unsigned char bits[200];
        for (int k = 0; k < 63; k++)
            bits[k] = (F1 >> (62 - k)) & 1;
        for (int k = 63; k < 200; k++)
            bits[k] = (unsigned char)c;
        em_bits b;
        em_bits_init_script(&b, bits, 200);
        size_t r;
        ck_assert_int_eq(em_exact_sample(x, &b, &r), EM_OK);
        ck_assert(b.used > 63);
        ck_assert_uint_eq(r, (size_t)c);
    }
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.slow, 2);
    ck_assert_int_ge(st.levels, 1);
    em_exact_free(x);

    /* every draw forced through the slow path (a decision that always declines): still the
     * right law on marital (G-test-free check: 4000 draws, each frequency within 5 sd) */
    ck_assert_int_eq(tp_exact_new_d(7, marital_d, NULL, 1.0, 1.0, EM_STANDARD, &x), EM_OK);
    em_exact_set_select(x, select_never);
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){5}, 1), EM_OK);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    const int N = 4000;
    int hits[7] = {0};
    for (int k = 0; k < N; k++) {
        size_t r;
        EM_T_REQUIRE(em_exact_sample(x, &b, &r) == EM_OK && r < 7, "slow draw");
        hits[r]++;
    }
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.slow, (uint64_t)N);
    double Z = 0;
    for (int i = 0; i < 7; i++)
        Z += exp((marital_d[i] - marital_d[1]) / 2.0);
    for (int i = 0; i < 7; i++) {
        double p = exp((marital_d[i] - marital_d[1]) / 2.0) / Z;
        double sd = sqrt(N * p * (1 - p));
        EM_T_REQUIRE(fabs(hits[i] - N * p) <= 5 * sd + 1, "cell %d: %d vs %.1f", i, hits[i], N * p);
    }
    em_exact_free(x);
}
END_TEST

START_TEST(many_draws_no_mpfr)
{
    /* 10^5 candidates, 10^4 draws: the fast path decides every one (undecided after 63
     * bits has probability about 2^-35 here), MPFR never set up */
    size_t n = 100000;
    double *u = malloc(n * sizeof *u);
    for (size_t i = 0; i < n; i++)
        u[i] = -(double)i / 1000.0;
    em_exact *x;
    ck_assert_int_eq(tp_exact_new_d(n, u, NULL, 1.0, 1.0, EM_STANDARD, &x), EM_OK);
    free(u); /* copied */
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){11}, 1), EM_OK);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    double mean = 0;
    for (int k = 0; k < 10000; k++) {
        size_t r;
        EM_T_REQUIRE(em_exact_sample(x, &b, &r) == EM_OK, "draw");
        mean += (double)r;
    }
    mean /= 10000;
    /* P(i) = (1 - q) q^i with q = exp(-1/2000) (up to q^n = e^-50): mean q / (1 - q) */
    double qq = exp(-1.0 / 2000.0), m = qq / (1 - qq), sd = sqrt(qq) / (1 - qq);
    ck_assert(fabs(mean - m) < 5 * sd / 100);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    ck_assert_uint_eq(st.slow, 0);
    ck_assert_int_eq(st.levels, 0);
    em_exact_free(x);
}
END_TEST

/* ------------------------------------------------------------------ errors */

START_TEST(errors_d)
{
    double u[3] = {0, 1, 2};
    em_exact *x = NULL;
    ck_assert_int_eq(tp_exact_new_d(3, u, NULL, 1, 1, EM_STANDARD, NULL), EM_ERR_NULL);
    ck_assert_int_eq(tp_exact_new_d(3, NULL, NULL, 1, 1, EM_STANDARD, &x), EM_ERR_NULL);
    ck_assert_int_eq(tp_exact_new_d(0, u, NULL, 1, 1, EM_STANDARD, &x), EM_ERR_EMPTY);
    ck_assert_int_eq(tp_exact_new_d(EM_N_MAX + 1, u, NULL, 1, 1, EM_STANDARD, &x),
                     EM_ERR_TOO_MANY);
    static const double bad[] = {0.0, -1.0, NAN, HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(tp_exact_new_d(3, u, NULL, bad[i], 1, EM_STANDARD, &x), EM_ERR_EPSILON);
        ck_assert_int_eq(tp_exact_new_d(3, u, NULL, 1, bad[i], EM_STANDARD, &x),
                         EM_ERR_SENSITIVITY);
    }
    ck_assert_int_eq(tp_exact_new_d(3, u, NULL, 1, 1, 7, &x), EM_ERR_VARIANT);
    u[1] = NAN;
    ck_assert_int_eq(tp_exact_new_d(3, u, NULL, 1, 1, EM_STANDARD, &x), EM_ERR_NAN);
    u[1] = HUGE_VAL;
    ck_assert_int_eq(tp_exact_new_d(3, u, NULL, 1, 1, EM_STANDARD, &x), EM_ERR_POS_INF);
    u[0] = u[1] = u[2] = -HUGE_VAL;
    ck_assert_int_eq(tp_exact_new_d(3, u, NULL, 1, 1, EM_STANDARD, &x), EM_ERR_ALL_EXCLUDED);
    static const unsigned char all[3] = {1, 1, 1};
    u[0] = u[1] = u[2] = 1;
    ck_assert_int_eq(tp_exact_new_d(3, u, all, 1, 1, EM_STANDARD, &x), EM_ERR_ALL_EXCLUDED);
    ck_assert(x == NULL);
    em_exact_free(NULL);
    /* one candidate: drawn after the first chunk, words exactly 0 and 2^63 */
    double one = 3.25;
    ck_assert_int_eq(tp_exact_new_d(1, &one, NULL, 1, 1, EM_MONOTONE, &x), EM_OK);
    ck_assert(em_exact_lo64(x)[0] == 0 && em_exact_hi64(x)[0] == 0);
    ck_assert(em_exact_lo64(x)[1] == (uint64_t)1 << 63 && em_exact_hi64(x)[1] == (uint64_t)1 << 63);
    static const unsigned char bits[3] = {1, 0, 1};
    em_bits b;
    em_bits_init_script(&b, bits, 3);
    size_t r = 7;
    ck_assert_int_eq(em_exact_sample(x, &b, &r), EM_OK);
    ck_assert_uint_eq(r, 0);
    em_exact_free(x);
}
END_TEST

/* em_problem_doubles's coefficient (word arithmetic) is em_coef of the doubles' rationals
 * (mpq_div), and its eps / delta are those rationals, for doubles of every magnitude */
START_TEST(problem_doubles_coefficient)
{
    const double v[] = {1, 0.5, 3, 0.1, 1e-300, 4.9e-324, 1.7976931308623157e308, 0.75,
                        12345.678, 2.2250738585072014e-308, 6.0, 1.0 / 3.0};
    const size_t nv = sizeof v / sizeof v[0];
    mpq_t e, d, c;
    mpq_inits(e, d, c, (mpq_ptr)0);
    double u = 0;
    for (size_t i = 0; i < nv; i++)
        for (size_t j = 0; j < nv; j++)
            for (int var = EM_STANDARD; var <= EM_MONOTONE; var++) {
                em_problem P;
                em_problem_init(&P);
                ck_assert_int_eq(em_problem_doubles(&P, 1, &u, NULL, v[i], v[j], var, NULL), EM_OK);
                mpq_set_d(e, v[i]);
                mpq_set_d(d, v[j]);
                em_coef(c, e, d, var);
                ck_assert(mpq_equal(P.eps, e) && mpq_equal(P.delta, d));
                ck_assert_msg(mpq_equal(P.c, c), "eps %a delta %a variant %d", v[i], v[j], var);
                ck_assert(P.eps_d == v[i] && P.delta_d == v[j]);
                em_problem_clear(&P);
            }
    mpq_clears(e, d, c, (mpq_ptr)0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("exact_d");
    TCase *tw = tcase_create("wbound");
    tcase_set_timeout(tw, 300);
    tcase_add_test(tw, tables_match_mpfr);
    tcase_add_test(tw, wexp_against_mpfr);
    tcase_add_test(tw, lo_block_same_bits);
    tcase_add_test(tw, neighbours);
    suite_add_tcase(s, tw);
    TCase *tb = tcase_create("bitlevel");
    tcase_set_timeout(tb, 300);
    tcase_add_test(tb, bits_d_marital);
    tcase_add_test(tb, bits_d_ties);
    tcase_add_test(tb, bits_d_excluded);
    tcase_add_test(tb, bits_d_extremes);
    tcase_add_test(tb, c_overflow);
    tcase_add_test(tb, rational_fallback_wide);
    suite_add_tcase(s, tb);
    TCase *tu = tcase_create("unit");
    tcase_set_timeout(tu, 120);
    tcase_add_test(tu, words_bracket_and_tight);
    tcase_add_test(tu, slow_path_lazy);
    tcase_add_test(tu, many_draws_no_mpfr);
    tcase_add_test(tu, errors_d);
    tcase_add_test(tu, problem_doubles_coefficient);
    suite_add_tcase(s, tu);
    return s;
}

EM_CHECK_MAIN(suite)
