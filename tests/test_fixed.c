/* test_fixed.c: em_weights_fixed (src/core/em_fixed.h): the scale, the arg-max,
 * the support, the sum bound, and the distance to the exact distribution; and
 * em_weights_fixed_u, the same weights from the utilities in one call. */
#include "em_check_main.h"
#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const double INF = HUGE_VAL;

/* 2^(63 - ceil(log2 n)), computed here by counting bits. */
static uint64_t expected_scale(size_t n)
{
    unsigned c = 0; /* ceil(log2 n) */
    while (((size_t)1 << c) < n)
        c++;
    return (uint64_t)1 << (63 - c);
}

/* Every promise of em_weights_fixed on one input; returns the total. */
static uint64_t check_weights(const char *label, size_t n, const double *lw)
{
    uint64_t *W = malloc(n * sizeof *W), total = 0, scale = 0;
    ck_assert(W != NULL);
    int st = em_weights_fixed(n, lw, W, &total, &scale);
    EM_T_REQUIRE(st == EM_OK, "%s: status %d", label, st);
    EM_T_REQUIRE(scale == expected_scale(n), "%s: scale %llu, expected 2^(63 - ceil(log2 %zu))", label,
                  (unsigned long long)scale, n);
    uint64_t sum = 0;
    int overflow = 0;
    for (size_t i = 0; i < n; i++) {
        overflow |= __builtin_add_overflow(sum, W[i], &sum);
        EM_T_REQUIRE(W[i] <= scale, "%s: W[%zu] = %llu > scale", label, i, (unsigned long long)W[i]);
        if (lw[i] == 0.0)
            EM_T_REQUIRE(W[i] == scale, "%s: arg-max W[%zu] = %llu != scale", label, i, (unsigned long long)W[i]);
        if (lw[i] <= 0.0 && exp(lw[i]) > 0.0)
            EM_T_REQUIRE(W[i] >= 1, "%s: W[%zu] == 0 but exp(lw) = %g > 0", label, i, exp(lw[i]));
        if (isinf(lw[i]) && lw[i] < 0)
            EM_T_REQUIRE(W[i] == 0, "%s: excluded W[%zu] = %llu", label, i, (unsigned long long)W[i]);
    }
    EM_T_REQUIRE(!overflow && sum == total, "%s: total %llu != sum of W", label, (unsigned long long)total);
    EM_T_REQUIRE(total <= ((uint64_t)1 << 63), "%s: total %llu > 2^63", label, (unsigned long long)total);
    free(W);
    return total;
}

START_TEST(scale_values)
{
    const size_t ns[] = {1, 2, 3, 7, 8, 9, 1000};
    const uint64_t want[] = {1ULL << 63, 1ULL << 62, 1ULL << 61, 1ULL << 60, 1ULL << 60, 1ULL << 59, 1ULL << 53};
    double lw[1000];
    uint64_t W[1000], total, scale;
    for (size_t i = 0; i < 1000; i++)
        lw[i] = -(double)i; /* lw[0] == 0: the arg-max */
    for (size_t k = 0; k < N_OF(ns); k++) {
        ck_assert_int_eq(em_weights_fixed(ns[k], lw, W, &total, &scale), EM_OK);
        ck_assert_msg(scale == want[k], "n = %zu: scale %llu", ns[k], (unsigned long long)scale);
        ck_assert_msg(W[0] == want[k], "n = %zu: W[argmax] = %llu", ns[k], (unsigned long long)W[0]);
        ck_assert(total >= scale && total <= (1ULL << 63));
    }
    for (size_t n = 1; n <= 1000; n += (n < 70 ? 1 : 37))
        check_weights("scale sweep", n, lw);
    const size_t pow2[] = {1023, 1024, 1025};
    double z[1025] = {0};
    for (size_t k = 0; k < 3; k++)
        check_weights("all zero", pow2[k], z);
}
END_TEST

START_TEST(all_equal_fills_2_63)
{
    /* n a power of two, all arg-max: total is exactly 2^63 */
    const size_t ns[] = {1, 2, 4, 8, 1024};
    double z[1024] = {0};
    for (size_t k = 0; k < N_OF(ns); k++)
        ck_assert(check_weights("all equal", ns[k], z) == (1ULL << 63));
    ck_assert(check_weights("three equal", 3, z) == 3 * (1ULL << 61));
    /* -0.0 compares equal to 0: also the arg-max weight */
    const double nz[] = {-0.0, 0.0, -1.0};
    uint64_t W[3], total, scale;
    ck_assert_int_eq(em_weights_fixed(3, nz, W, &total, &scale), EM_OK);
    ck_assert(W[0] == scale && W[1] == scale && W[2] < scale && W[2] > 0);
}
END_TEST

START_TEST(support_edges)
{
    /* exp(-745) is the last positive double region; exp(-746) is 0 */
    const double lw[] = {0.0, -745.0, -744.4, -746.0, -800.0, -1e308, -INF, -1e-300, -0x1p-1074, -DBL_MIN, -708.4};
    size_t n = N_OF(lw);
    uint64_t W[N_OF(lw)], total, scale;
    check_weights("support edges", n, lw);
    ck_assert_int_eq(em_weights_fixed(n, lw, W, &total, &scale), EM_OK);
    ck_assert_uint_eq(scale, 1ULL << 59);
    ck_assert(W[1] == 1 && W[2] == 1);                /* exp(-745) * 2^59 < 1, rounded up */
    ck_assert(W[3] == 0 && W[4] == 0 && W[5] == 0 && W[6] == 0);
    ck_assert(W[7] == scale && W[8] == scale && W[9] == scale); /* exp(tiny) rounds to 1 */
    ck_assert(W[10] == 1);                            /* e^-708.4 2^59 ~ 1.3e-292 */
    ck_assert_uint_eq(total, 4 * scale + 3);
}
END_TEST

/* Whole blocks of log-weights in [-745, -44] (their weights are 1 without an exp)
   beside blocks that straddle the ends: every W[i] whose exact real weight (MPFR)
   is in (0, 1) is 1, and every other one within exp's error of the exact weight. */
START_TEST(tiny_blocks)
{
    em_t_mpfr_wide();
    enum { N = 5 * 64 + 17 };
    double lw[N];
    uint64_t W[N], total, scale, s = 2718;
    for (size_t i = 0; i < N; i++) {
        double r = (double)(em_t_splitmix(&s) >> 11) * 0x1p-53;
        size_t block = i / 64;
        lw[i] = block == 0 ? -60.0 * r                  /* ordinary weights */
              : block <= 2 ? -44.0 - 701.0 * r            /* tiny blocks */
              : block == 3 ? (i % 2 ? -43.9 : -745.1)     /* just outside both ends */
              : -44.0 - 701.0 * r;                        /* tiny, and a partial last block */
    }
    lw[3] = 0.0;
    lw[64] = -44.0;
    lw[127] = -745.0;
    lw[5 * 64 + 3] = -745.0;
    ck_assert_int_eq(em_weights_fixed(N, lw, W, &total, &scale), EM_OK);
    ck_assert_uint_eq(scale, 1ULL << 54); /* m = 512 */
    mpfr_t e;
    mpfr_init2(e, EM_REF_PREC);
    uint64_t sum = 0;
    for (size_t i = 0; i < N; i++) {
        mpfr_set_d(e, lw[i], MPFR_RNDN);
        mpfr_exp(e, e, MPFR_RNDN);
        mpfr_mul_2ui(e, e, 54, MPFR_RNDN);
        double w = mpfr_get_d(e, MPFR_RNDN);
        if (lw[i] >= -745.0 && w < 1.0)
            ck_assert_msg(W[i] == 1, "lw %.17g: W = %llu, exact weight %.17g", lw[i], (unsigned long long)W[i], w);
        else if (lw[i] < -745.13)
            ck_assert_msg(W[i] == 0, "lw %.17g: W = %llu below exp's underflow", lw[i], (unsigned long long)W[i]);
        else
            ck_assert_msg((double)W[i] >= w * (1 - 0x1p-50) && (double)W[i] <= w * (1 + 0x1p-50) + 1.0,
                          "lw %.17g: W = %llu, exact weight %.17g", lw[i], (unsigned long long)W[i], w);
        sum += W[i];
    }
    mpfr_clear(e);
    ck_assert_uint_eq(W[3], scale);
    ck_assert_uint_eq(total, sum);
}
END_TEST

START_TEST(ceil_of_exact_weight)
{
    /* W[i] is ceil(exp(lw[i]) 2^k) up to the rounding of exp: within 1 of the exact
       real weight, and never below it by more than exp's error */
    em_t_mpfr_wide();
    uint64_t s = 314159;
    for (int rep = 0; rep < 40; rep++) {
        size_t n = 1 + (size_t)(em_t_splitmix(&s) % 200);
        double *lw = malloc(n * sizeof *lw);
        uint64_t *W = malloc(n * sizeof *W), total, scale;
        ck_assert(lw && W);
        double range = rep % 4 == 0 ? 800.0 : rep % 4 == 1 ? 50.0 : rep % 4 == 2 ? 1e-6 : 1e4;
        for (size_t i = 0; i < n; i++)
            lw[i] = -range * (double)(em_t_splitmix(&s) >> 11) * 0x1p-53;
        lw[em_t_splitmix(&s) % n] = 0.0;
        if (n > 2)
            lw[em_t_splitmix(&s) % n] = -INF;
        check_weights("random", n, lw);
        ck_assert_int_eq(em_weights_fixed(n, lw, W, &total, &scale), EM_OK);
        mpfr_t e, t;
        mpfr_inits2(EM_REF_PREC, e, t, (mpfr_ptr)0);
        for (size_t i = 0; i < n; i++) {
            mpfr_set_d(e, lw[i], MPFR_RNDN);
            mpfr_exp(e, e, MPFR_RNDN);
            mpfr_set_d(t, (double)scale, MPFR_RNDN);
            mpfr_mul(e, e, t, MPFR_RNDN);                 /* exact weight w = exp(lw) scale */
            double w = mpfr_get_d(e, MPFR_RNDN);
            /* below about -708 exp itself is subnormal or 0 in double: only the
               upper bound applies there (the double weight may round to 0) */
            double lo = lw[i] >= -708.0 ? w * (1 - 0x1p-51) : 0.0, hi = w * (1 + 0x1p-51) + 1.0;
            ck_assert_msg((double)W[i] >= lo && (double)W[i] <= hi,
                          "lw %.17g: W = %llu, exact real weight %.17g", lw[i], (unsigned long long)W[i], w);
        }
        mpfr_clears(e, t, (mpfr_ptr)0);
        free(lw);
        free(W);
    }
}
END_TEST

START_TEST(distribution_close_to_exact)
{
    /* W[i]/total against p[i] from em_normalize and against the MPFR reference,
       both within n / scale (+ double rounding) */
    double u[EM_MARITAL_N];
    const double counts[] = EM_MARITAL_COUNTS;
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        u[i] = counts[i] / 1000.0;
    const double eps_list[] = {1.0, 0.01, 3.0, 100.0, 1e6};
    for (size_t k = 0; k < N_OF(eps_list); k++)
        for (int v = 0; v < 2; v++) {
            double lw[EM_MARITAL_N], p[EM_MARITAL_N];
            uint64_t W[EM_MARITAL_N], total, scale;
            size_t am;
            ck_assert_int_eq(em_logweights(EM_MARITAL_N, u, eps_list[k], 1.0, v, lw, &am), EM_OK);
            ck_assert_int_eq(em_normalize(EM_MARITAL_N, lw, NULL, p), EM_OK);
            ck_assert_int_eq(em_weights_fixed(EM_MARITAL_N, lw, W, &total, &scale), EM_OK);
            check_weights("marital", EM_MARITAL_N, lw);
            em_ref r;
            ck_assert_int_eq(em_ref_compute(&r, EM_MARITAL_N, u, eps_list[k], 1.0, v), 0);
            double tol = (double)EM_MARITAL_N / (double)scale;
            for (size_t i = 0; i < EM_MARITAL_N; i++) {
                double q = (double)W[i] / (double)total;
                ck_assert_msg(fabs(q - p[i]) <= tol + 1e-15, "eps %g: W/total %.17g vs p %.17g", eps_list[k], q, p[i]);
                double exact = mpfr_get_d(r.p[i], MPFR_RNDN);
                ck_assert_msg(fabs(q - exact) <= tol + 1e-15, "eps %g: W/total %.17g vs exact %.17g",
                              eps_list[k], q, exact);
            }
            em_ref_free(&r);
        }
}
END_TEST

START_TEST(large_n)
{
    size_t n = ((size_t)1 << 20) + 1;
    double *lw = calloc(n, sizeof *lw);
    ck_assert(lw != NULL);
    uint64_t total = check_weights("2^20 + 1 equal", n, lw);
    ck_assert(total == (uint64_t)n << 42);
    for (size_t i = 0; i < n; i++)
        lw[i] = -(double)(i % 1000) * 0.75;
    check_weights("2^20 + 1 mixed", n, lw);
    free(lw);
}
END_TEST

START_TEST(any_double_bounded)
{
    /* no requirement on lw's values: NaN, +inf and positive entries still give
       weights in [0, scale] and a total <= 2^63 */
    const double lw[] = {0.0, NAN, HUGE_VAL, 5.0, DBL_MAX, -INF, -NAN, 1e-300};
    size_t n = N_OF(lw);
    uint64_t W[N_OF(lw)], total, scale;
    ck_assert_int_eq(em_weights_fixed(n, lw, W, &total, &scale), EM_OK);
    ck_assert_uint_eq(scale, 1ULL << 60);
    uint64_t sum = 0;
    int overflow = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert(W[i] <= scale);
        overflow |= __builtin_add_overflow(sum, W[i], &sum);
    }
    ck_assert(!overflow && sum == total && total <= (1ULL << 63));
    ck_assert(W[0] == scale && W[5] == 0);
}
END_TEST

START_TEST(errors)
{
    double lw[3] = {0, -1, -2};
    uint64_t W[3] = {9, 9, 9}, total = 9, scale = 9;
    ck_assert_int_eq(em_weights_fixed(3, NULL, W, &total, &scale), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed(3, lw, NULL, &total, &scale), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed(3, lw, W, NULL, &scale), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed(3, lw, W, &total, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed(0, NULL, W, &total, &scale), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed(0, lw, W, &total, &scale), EM_ERR_EMPTY);
    /* refused before any element is touched (the arrays hold 3) */
    ck_assert_int_eq(em_weights_fixed(EM_N_MAX + 1, lw, W, &total, &scale), EM_ERR_TOO_MANY);
    ck_assert_int_eq(em_weights_fixed(SIZE_MAX, lw, W, &total, &scale), EM_ERR_TOO_MANY);
    ck_assert(W[0] == 9 && W[1] == 9 && W[2] == 9 && total == 9 && scale == 9);
}
END_TEST

/* ------------------------------------------------------- em_weights_fixed_u */

/* em_weights_fixed_u against em_logweights then em_weights_fixed (each tested against
   MPFR above and in test_logweights.c): the same status, and on EM_OK the same weights,
   total, scale and arg-max, bit for bit; and the contract's own facts, checked here. */
static void check_fused(const char *label, size_t n, const double *u, double eps, double delta,
                        int variant)
{
    double *lw = malloc(n * sizeof *lw);
    uint64_t *W1 = malloc(n * sizeof *W1), *W2 = malloc(n * sizeof *W2);
    ck_assert(lw && W1 && W2);
    size_t am1 = 0, am2 = 0;
    uint64_t t1 = 0, t2 = 0, s1 = 0, s2 = 0;
    int st1 = em_logweights(n, u, eps, delta, variant, lw, &am1);
    if (st1 == EM_OK)
        st1 = em_weights_fixed(n, lw, W1, &t1, &s1);
    int st2 = em_weights_fixed_u(n, u, eps, delta, variant, W2, &t2, &s2, &am2);
    EM_T_REQUIRE(st1 == st2, "%s: status %d, two calls %d", label, st2, st1);
    if (st1 == EM_OK) {
        EM_T_REQUIRE(am1 == am2 && t1 == t2 && s1 == s2, "%s: argmax %zu/%zu total %llu/%llu",
                     label, am2, am1, (unsigned long long)t2, (unsigned long long)t1);
        EM_T_REQUIRE(memcmp(W1, W2, n * sizeof *W1) == 0, "%s: weights differ", label);
        EM_T_REQUIRE(s2 == expected_scale(n) && W2[am2] == s2 && t2 >= 1 && t2 <= (1ULL << 63),
                     "%s: scale, arg-max weight or total", label);
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += W2[i];
        EM_T_REQUIRE(sum == t2, "%s: total is not the sum", label);
    }
    free(lw);
    free(W1);
    free(W2);
}

START_TEST(fused_same_as_two_calls)
{
    const double counts[] = EM_MARITAL_COUNTS;
    double m[EM_MARITAL_N];
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        m[i] = counts[i] / 1000.0;
    const double eps[] = {1e-12, 1e-3, 0.5, 1.0, 7.0, 1e3, 1e12};
    for (size_t e = 0; e < N_OF(eps); e++)
        for (int v = 0; v < 2; v++) {
            check_fused("marital", EM_MARITAL_N, m, eps[e], 1.0, v);
            check_fused("marital raw", EM_MARITAL_N, counts, eps[e], 3.0, v);
        }
    /* the block edges (EM_EXP_BLOCK = 64), the arg-max in a later block, ties, the zeros,
       exclusions, tiny and non-tiny blocks side by side */
    const size_t ns[] = {1, 2, 3, 4, 5, 63, 64, 65, 127, 128, 129, 1000, 4099};
    double *u = malloc(5000 * sizeof *u);
    ck_assert(u != NULL);
    for (size_t q = 0; q < N_OF(ns); q++) {
        size_t n = ns[q];
        for (size_t i = 0; i < n; i++)
            u[i] = -(double)((i * 7919) % 1009) / 13.0;
        u[n / 2] = 5.0; /* the arg-max, late */
        check_fused("mixed", n, u, 1.0, 1.0, EM_STANDARD);
        check_fused("mixed monotone", n, u, 0.25, 2.0, EM_MONOTONE);
        for (size_t i = 0; i < n; i += 5)
            u[i] = -HUGE_VAL;
        check_fused("mixed with exclusions", n, u, 1.0, 1.0, EM_STANDARD);
        for (size_t i = 0; i < n; i++)
            u[i] = i % 3 == 0 ? -0.0 : i % 3 == 1 ? 0.0 : -1.0;
        check_fused("signed zeros", n, u, 1.0, 1.0, EM_STANDARD);
        for (size_t i = 0; i < n; i++)
            u[i] = -(double)i / 1000.0; /* the benchmark's utilities: tiny blocks past 88000 */
        check_fused("bench", n, u, 1.0, 1.0, EM_STANDARD);
    }
    free(u);
    /* huge magnitudes: the halving path, -DBL_MAX and DBL_MAX together */
    const double h[] = {1e300, -1e300, 0.0, 5e299, -HUGE_VAL, DBL_MAX, -DBL_MAX, 1e-300};
    const double heps[] = {1e-300, 1e-12, 1.0, 1e12, 1e300};
    for (size_t e = 0; e < N_OF(heps); e++)
        for (int v = 0; v < 2; v++)
            check_fused("huge", N_OF(h), h, heps[e], 1.0, v);
    /* n = 10^5 with the tiny fast path through most blocks */
    size_t big = 100000;
    double *b = malloc(big * sizeof *b);
    ck_assert(b != NULL);
    for (size_t i = 0; i < big; i++)
        b[i] = -(double)i / 1000.0;
    check_fused("1e5", big, b, 1.0, 1.0, EM_STANDARD);
    free(b);
}
END_TEST

START_TEST(fused_errors)
{
    const double u[3] = {0, -1, -2};
    uint64_t W[3] = {9, 9, 9}, total = 9, scale = 9;
    size_t am = 9;
    ck_assert_int_eq(em_weights_fixed_u(3, NULL, 1, 1, EM_STANDARD, W, &total, &scale, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 1, 1, EM_STANDARD, NULL, &total, &scale, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 1, 1, EM_STANDARD, W, NULL, &scale, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 1, 1, EM_STANDARD, W, &total, NULL, &am), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 1, 1, EM_STANDARD, W, &total, &scale, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_weights_fixed_u(0, u, 1, 1, EM_STANDARD, W, &total, &scale, &am), EM_ERR_EMPTY);
    ck_assert_int_eq(em_weights_fixed_u(EM_N_MAX + 1, u, 1, 1, EM_STANDARD, W, &total, &scale, &am),
                     EM_ERR_TOO_MANY);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 0.0, 1, EM_STANDARD, W, &total, &scale, &am), EM_ERR_EPSILON);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 1, -1, EM_STANDARD, W, &total, &scale, &am),
                     EM_ERR_SENSITIVITY);
    ck_assert_int_eq(em_weights_fixed_u(3, u, 1, 1, 7, W, &total, &scale, &am), EM_ERR_VARIANT);
    ck_assert(W[0] == 9 && W[1] == 9 && W[2] == 9 && total == 9 && scale == 9 && am == 9);
    const double nan_u[] = {0, NAN, HUGE_VAL}, inf_u[] = {0, HUGE_VAL, NAN};
    const double ex[] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    ck_assert_int_eq(em_weights_fixed_u(3, nan_u, 1, 1, EM_STANDARD, W, &total, &scale, &am), EM_ERR_NAN);
    ck_assert_int_eq(em_weights_fixed_u(3, inf_u, 1, 1, EM_STANDARD, W, &total, &scale, &am), EM_ERR_POS_INF);
    ck_assert_int_eq(em_weights_fixed_u(3, ex, 1, 1, EM_STANDARD, W, &total, &scale, &am),
                     EM_ERR_ALL_EXCLUDED);
    /* and the errors agree with the two-call path in its order */
    check_fused("nan", 3, nan_u, 1, 1, EM_STANDARD);
    check_fused("inf", 3, inf_u, 1, 1, EM_STANDARD);
    check_fused("excluded", 3, ex, 1, 1, EM_MONOTONE);
    check_fused("nan, bad eps", 3, nan_u, -1, 1, EM_STANDARD);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fixed");
    TCase *tc = tcase_create("fixed");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, scale_values);
    tcase_add_test(tc, all_equal_fills_2_63);
    tcase_add_test(tc, support_edges);
    tcase_add_test(tc, tiny_blocks);
    tcase_add_test(tc, ceil_of_exact_weight);
    tcase_add_test(tc, distribution_close_to_exact);
    tcase_add_test(tc, large_n);
    tcase_add_test(tc, any_double_bounded);
    tcase_add_test(tc, errors);
    tcase_add_test(tc, fused_same_as_two_calls);
    tcase_add_test(tc, fused_errors);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
