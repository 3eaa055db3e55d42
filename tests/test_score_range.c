/* test_score_range.c: the scores over a range (src/core/em_score_range.h) against an
 * independent evaluation of each score at many points of every piece, on random data:
 * every integer strictly inside a piece (what the WP contract states), every quarter
 * point (the real line the continuous law lives on), and the breakpoints (the boundary
 * conventions: a bid equal to a price counts at that price, so revenue is the left
 * piece's value there).  Also every error path. */
#include "em_check_main.h"
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_test_util.h"
#include "expmech.h"
#include "core/em_count.h"
#include "core/em_score_count.h"
#include "core/em_score_rank.h"
#include "core/em_score_range.h"
#include "core/em_score_revenue.h"
#include "core/em_score_rr.h"
#include "core/em_score_laplace.h"

static int64_t rnd(uint64_t *s, int64_t lo, int64_t hi) /* uniform in [lo, hi] */
{
    return lo + (int64_t)(em_t_splitmix(s) % (uint64_t)(hi - lo + 1));
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Brute force at a real point r = r4 / 4 (data in integers, compared as x * 4). */
static void counts4(const int64_t *x, size_t n, int64_t r4, long *lt, long *gt, long *ge)
{
    *lt = *gt = *ge = 0;
    for (size_t i = 0; i < n; i++) {
        *lt += 4 * x[i] < r4;
        *gt += 4 * x[i] > r4;
        *ge += 4 * x[i] >= r4;
    }
}

/* The median score from its definition's closed form (spec/Rank.acsl), written again. */
static long median_brute(long n, long lt, long gt)
{
    long q = (n - 1) / 2, m = 0;
    if (lt - q > m)
        m = lt - q;
    if (gt - (n - 1 - q) > m)
        m = gt - (n - 1 - q);
    return -2 * m;
}

static long quantile_brute(long lt, long gt, long qa, long qb)
{
    long v = (qb - qa) * lt - qa * gt;
    return v < 0 ? v : -v;
}

static void check_tiling(const em_piece *p, size_t k, int64_t lo, int64_t hi, const int64_t *x, size_t n)
{
    EM_T_REQUIRE(k >= 1 && k <= n + 1, "k = %zu", k);
    EM_T_REQUIRE(p[0].lo == lo && p[k - 1].hi == hi, "ends");
    for (size_t j = 0; j < k; j++) {
        EM_T_REQUIRE(p[j].lo < p[j].hi, "empty piece %zu", j);
        if (j + 1 < k) {
            EM_T_REQUIRE(p[j].hi == p[j + 1].lo, "gap after piece %zu", j);
            int found = 0;
            for (size_t i = 0; i < n; i++)
                found |= x[i] == p[j].hi;
            EM_T_REQUIRE(found, "breakpoint %lld is not a row", (long long)p[j].hi);
        }
        for (size_t i = 0; i < n; i++)
            EM_T_REQUIRE(!(p[j].lo < x[i] && x[i] < p[j].hi), "row inside piece %zu", j);
    }
    /* every distinct row strictly inside the range is a breakpoint */
    for (size_t i = 0; i < n; i++)
        if (lo < x[i] && x[i] < hi) {
            int found = 0;
            for (size_t j = 0; j + 1 < k; j++)
                found |= p[j].hi == x[i];
            EM_T_REQUIRE(found, "row %lld not a breakpoint", (long long)x[i]);
        }
}

START_TEST(random_pieces_against_brute_force)
{
    uint64_t seed = 20261124;
    int64_t x[40];
    em_piece p[41];
    for (int rep = 0; rep < 3000; rep++) {
        size_t n = (size_t)rnd(&seed, 1, 40);
        int64_t span = rnd(&seed, 1, 30);
        for (size_t i = 0; i < n; i++)
            x[i] = rnd(&seed, -5, span);
        qsort(x, n, sizeof *x, cmp_i64);
        int64_t lo = rnd(&seed, -8, span), hi = lo + rnd(&seed, 1, span + 10);
        size_t k;
        /* median */
        ck_assert_int_eq(em_range_median(n, x, lo, hi, p, &k), EM_OK);
        check_tiling(p, k, lo, hi, x, n);
        for (size_t j = 0; j < k; j++) {
            EM_T_REQUIRE(p[j].b == 0, "median slope");
            for (int64_t r4 = 4 * p[j].lo + 1; r4 < 4 * p[j].hi; r4++) {
                long lt, gt, ge;
                counts4(x, n, r4, &lt, &gt, &ge);
                EM_T_REQUIRE(median_brute((long)n, lt, gt) == p[j].a, "median at %lld/4: %ld vs %lld",
                             (long long)r4, median_brute((long)n, lt, gt), (long long)p[j].a);
            }
        }
        /* quantile, alpha = qa/qb */
        int64_t qb = rnd(&seed, 2, 12), qa = rnd(&seed, 1, qb - 1);
        ck_assert_int_eq(em_range_quantile(n, x, lo, hi, qa, qb, p, &k), EM_OK);
        check_tiling(p, k, lo, hi, x, n);
        for (size_t j = 0; j < k; j++) {
            EM_T_REQUIRE(p[j].b == 0, "quantile slope");
            for (int64_t r4 = 4 * p[j].lo + 1; r4 < 4 * p[j].hi; r4++) {
                long lt, gt, ge;
                counts4(x, n, r4, &lt, &gt, &ge);
                EM_T_REQUIRE(quantile_brute(lt, gt, qa, qb) == p[j].a, "quantile at %lld/4", (long long)r4);
                /* diffprivlib's -|i - alpha n| (times qb) with i the rows below */
                long d = qb * lt - qa * (long)n;
                EM_T_REQUIRE((d < 0 ? d : -d) == p[j].a, "diffprivlib convention at %lld/4", (long long)r4);
            }
        }
        /* revenue: prices >= 0 */
        int64_t rlo = lo < 0 ? -lo : lo, rhi = rlo + (hi - lo);
        ck_assert_int_eq(em_range_revenue(n, x, rlo, rhi, p, &k), EM_OK);
        check_tiling(p, k, rlo, rhi, x, n);
        for (size_t j = 0; j < k; j++) {
            EM_T_REQUIRE(p[j].a == 0, "revenue intercept");
            for (int64_t r4 = 4 * p[j].lo + 1; r4 < 4 * p[j].hi; r4++) {
                long lt, gt, ge;
                counts4(x, n, r4, &lt, &gt, &ge);
                /* u(r) = r * ge, and the piece says r * b */
                EM_T_REQUIRE(ge == p[j].b, "revenue count at %lld/4: %ld vs %lld", (long long)r4, ge,
                             (long long)p[j].b);
            }
            /* at an inner breakpoint (a bid value) the bid counts: the left piece's value */
            if (j + 1 < k) {
                long lt, gt, ge;
                counts4(x, n, 4 * p[j].hi, &lt, &gt, &ge);
                EM_T_REQUIRE(ge == p[j].b, "revenue at the bid %lld", (long long)p[j].hi);
                EM_T_REQUIRE(ge > p[j + 1].b, "the count drops after the bid %lld", (long long)p[j].hi);
            }
        }
    }
}
END_TEST

START_TEST(seeds)
{
    /* seed 003: bids {1, 1, 1, 3.01} in units of 0.01 on [0, 3.5] */
    int64_t bids[] = {100, 100, 100, 301};
    em_piece p[5];
    size_t k;
    ck_assert_int_eq(em_range_revenue(4, bids, 0, 350, p, &k), EM_OK);
    ck_assert_uint_eq(k, 3);
    ck_assert(p[0].lo == 0 && p[0].hi == 100 && p[0].a == 0 && p[0].b == 4);
    ck_assert(p[1].lo == 100 && p[1].hi == 301 && p[1].b == 1);
    ck_assert(p[2].lo == 301 && p[2].hi == 350 && p[2].b == 0);
    /* seed 002: A = {1, 100, 102, 104, 105, 200, 365} on [0, 400] */
    int64_t a[] = {1, 100, 102, 104, 105, 200, 365};
    int64_t want_lo[] = {0, 1, 100, 102, 104, 105, 200, 365};
    int64_t want_a[] = {-8, -6, -4, -2, -2, -4, -6, -8};
    em_piece q[8];
    ck_assert_int_eq(em_range_median(7, a, 0, 400, q, &k), EM_OK);
    ck_assert_uint_eq(k, 8);
    for (size_t j = 0; j < 8; j++)
        ck_assert(q[j].lo == want_lo[j] && q[j].a == want_a[j] && q[j].b == 0);
    /* ties: one piece between distinct values, none of length 0 */
    int64_t t[] = {5, 5, 5, 7};
    ck_assert_int_eq(em_range_median(4, t, 0, 10, q, &k), EM_OK);
    ck_assert_uint_eq(k, 3);
    ck_assert(q[0].hi == 5 && q[1].hi == 7 && q[2].hi == 10);
    /* rows outside the range: counted, never a breakpoint */
    int64_t o[] = {-3, 2, 50};
    ck_assert_int_eq(em_range_revenue(3, o, 0, 10, q, &k), EM_OK);
    ck_assert_uint_eq(k, 2);
    ck_assert(q[0].b == 2 && q[1].b == 1);
}
END_TEST

START_TEST(laplace_pieces)
{
    uint64_t seed = 7;
    em_piece p[2];
    size_t k;
    for (int rep = 0; rep < 20000; rep++) {
        int64_t f = rnd(&seed, -20, 20), lo = rnd(&seed, -25, 20), hi = lo + rnd(&seed, 1, 30);
        int lo_inf = (int)(em_t_splitmix(&seed) & 1), hi_inf = (int)(em_t_splitmix(&seed) & 1);
        ck_assert_int_eq(em_range_laplace(f, lo_inf, lo, hi_inf, hi, p, &k), EM_OK);
        EM_T_REQUIRE(k == 1 || k == 2, "k");
        if (!lo_inf)
            EM_T_REQUIRE(p[0].lo == lo, "lo");
        if (!hi_inf)
            EM_T_REQUIRE(p[k - 1].hi == hi, "hi");
        if (lo_inf)
            EM_T_REQUIRE(p[0].b == 1, "integrable at -inf");
        if (hi_inf)
            EM_T_REQUIRE(p[k - 1].b == -1, "integrable at +inf");
        for (size_t j = 0; j < k; j++) {
            int64_t a = (j == 0 && lo_inf) ? -60 : p[j].lo, b = (j == k - 1 && hi_inf) ? 60 : p[j].hi;
            for (int64_t r = a + 1; r < b; r++) {
                int64_t u = f > r ? r - f : f - r;
                EM_T_REQUIRE(u == p[j].a + p[j].b * r, "f %lld r %lld", (long long)f, (long long)r);
            }
        }
    }
    ck_assert_int_eq(em_range_laplace(3, 1, 0, 1, 0, p, &k), EM_OK);
    ck_assert(k == 2 && p[0].hi == 3 && p[0].a == -3 && p[0].b == 1 && p[1].a == 3 && p[1].b == -1);
}
END_TEST

START_TEST(errors)
{
    int64_t x[] = {1, 2, 3}, bad[] = {1, 3, 2};
    em_piece p[4];
    size_t k = 99;
    ck_assert_int_eq(em_range_median(3, NULL, 0, 5, p, &k), EM_ERR_NULL);
    ck_assert_int_eq(em_range_median(3, x, 0, 5, NULL, &k), EM_ERR_NULL);
    ck_assert_int_eq(em_range_median(3, x, 0, 5, p, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_range_median(0, x, 0, 5, p, &k), EM_ERR_EMPTY);
    ck_assert_int_eq(em_range_median(3, x, 5, 5, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_median(3, bad, 0, 5, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_quantile(3, x, 0, 5, 1, 1, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_quantile(3, x, 0, 5, 0, 2, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_quantile(3, bad, 0, 5, 1, 2, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_quantile(3, x, 0, 5, 1, INT64_MAX, p, &k), EM_ERR_OVERFLOW);
    ck_assert_int_eq(em_range_revenue(3, x, -1, 5, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_revenue(3, x, 6, 5, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_revenue(3, bad, 0, 5, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_revenue(0, x, 0, 5, p, &k), EM_ERR_EMPTY);
    ck_assert_int_eq(em_range_laplace(0, 0, 5, 0, 5, p, &k), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_range_laplace(EM_RANGE_ABS_MAX + 1, 1, 0, 1, 0, p, &k), EM_ERR_OVERFLOW);
    ck_assert_int_eq(em_range_laplace(0, 0, INT64_MIN, 1, 0, p, &k), EM_ERR_OVERFLOW);
    ck_assert_int_eq(em_range_laplace(0, 1, INT64_MIN, 1, INT64_MAX, p, &k), EM_OK); /* ignored ends */
    ck_assert_int_eq(em_range_laplace(0, 1, 0, 1, 0, NULL, &k), EM_ERR_NULL);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("score_range");
    TCase *tc = tcase_create("score_range");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_pieces_against_brute_force);
    tcase_add_test(tc, seeds);
    tcase_add_test(tc, laplace_pieces);
    tcase_add_test(tc, errors);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
