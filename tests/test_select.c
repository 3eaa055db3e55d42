/* test_select.c: em_select and the cumulative table's binary search
 * (em_cumulative, em_select_cumulative; src/core/em_select.h) against a naive
 * reference, at every t of small weight vectors and at every cell boundary of
 * large ones (zero weights and equal weights included). */
#include "em_check_main.h"
#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The naive reference: the first i with t < W[0] + ... + W[i]. */
static size_t naive_select(size_t n, const uint64_t *W, uint64_t t)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc += W[i];
        if (t < acc)
            return i;
    }
    return n; /* t >= total: not a valid input */
}

static uint64_t total_of(size_t n, const uint64_t *W)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        ck_assert(!__builtin_add_overflow(s, W[i], &s));
    return s;
}

/* em_select_cumulative on em_cumulative's table, for one t: the reference's
   answer, and the table is the running sum. */
static size_t cumulative_select(size_t n, const uint64_t *W, uint64_t t)
{
    uint64_t *C = malloc(n * sizeof *C), acc = 0;
    ck_assert(C != NULL);
    em_cumulative(n, W, C);
    for (size_t i = 0; i < n; i++) {
        acc += W[i];
        EM_T_REQUIRE(C[i] == acc, "C[%zu] = %llu, running sum %llu", i, (unsigned long long)C[i],
                     (unsigned long long)acc);
    }
    size_t got = em_select_cumulative(n, C, t);
    free(C);
    return got;
}

/* Every t in [0, total). */
static void check_all_t(size_t n, const uint64_t *W)
{
    uint64_t total = total_of(n, W);
    ck_assert(total >= 1);
    for (uint64_t t = 0; t < total; t++) {
        size_t want = naive_select(n, W, t), got = em_select(n, W, t);
        EM_T_REQUIRE(got == want, "n %zu, t %llu: em_select %zu, reference %zu", n, (unsigned long long)t, got, want);
        EM_T_REQUIRE(W[got] > 0, "t %llu: returned zero-weight cell %zu", (unsigned long long)t, got);
        size_t bin = cumulative_select(n, W, t);
        EM_T_REQUIRE(bin == want, "n %zu, t %llu: em_select_cumulative %zu, reference %zu", n,
                     (unsigned long long)t, bin, want);
    }
}

/* The boundaries of every cell: its first and last t, and the t's either side. */
static void check_boundaries(size_t n, const uint64_t *W)
{
    uint64_t total = total_of(n, W), acc = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo = acc;
        acc += W[i];
        const uint64_t cand[] = {lo, lo + 1, acc - 1, acc, lo - 1, acc + 1};
        for (size_t k = 0; k < N_OF(cand); k++) {
            uint64_t t = cand[k];
            if (t >= total) /* also skips the wrap-around of lo - 1 at 0 */
                continue;
            size_t want = naive_select(n, W, t), got = em_select(n, W, t);
            ck_assert_msg(got == want, "t %llu: em_select %zu, reference %zu", (unsigned long long)t, got, want);
            ck_assert(W[got] > 0);
            size_t bin = cumulative_select(n, W, t);
            ck_assert_msg(bin == want, "t %llu: em_select_cumulative %zu, reference %zu", (unsigned long long)t, bin, want);
            if (W[i] > 0 && (t == lo || t == acc - 1))
                ck_assert_msg(got == i, "t %llu at cell %zu's edge gave %zu", (unsigned long long)t, i, got);
        }
    }
}

START_TEST(small_vectors_every_t)
{
    static const uint64_t v1[] = {1};
    static const uint64_t v2[] = {5};
    static const uint64_t v3[] = {0, 3};
    static const uint64_t v4[] = {3, 0};
    static const uint64_t v5[] = {0, 0, 4, 0};
    static const uint64_t v6[] = {2, 0, 3, 0, 0, 1, 0};
    static const uint64_t v7[] = {1, 1, 1, 1};
    static const uint64_t v8[] = {0, 1, 0, 2, 0};
    static const uint64_t v9[] = {0, 0, 0, 0, 0, 0, 0, 1};
    static const uint64_t v10[] = {1, 0, 0, 0, 0, 0, 0, 0};
    static const uint64_t v11[] = {7, 1, 0, 13, 2, 0, 0, 5, 9};
    const struct { size_t n; const uint64_t *w; } cases[] = {
        {N_OF(v1), v1}, {N_OF(v2), v2}, {N_OF(v3), v3}, {N_OF(v4), v4}, {N_OF(v5), v5}, {N_OF(v6), v6},
        {N_OF(v7), v7}, {N_OF(v8), v8}, {N_OF(v9), v9}, {N_OF(v10), v10}, {N_OF(v11), v11},
    };
    for (size_t c = 0; c < N_OF(cases); c++) {
        check_all_t(cases[c].n, cases[c].w);
        check_boundaries(cases[c].n, cases[c].w);
    }
    /* a few answers spelled out: {2, 0, 3, 0, 0, 1, 0} */
    ck_assert_uint_eq(em_select(7, v6, 0), 0);
    ck_assert_uint_eq(em_select(7, v6, 1), 0);
    ck_assert_uint_eq(em_select(7, v6, 2), 2);
    ck_assert_uint_eq(em_select(7, v6, 4), 2);
    ck_assert_uint_eq(em_select(7, v6, 5), 5);
    ck_assert_uint_eq(em_select(8, v9, 0), 7);
    ck_assert_uint_eq(em_select(8, v10, 0), 0);
}
END_TEST

START_TEST(random_small_vectors_every_t)
{
    uint64_t s = 424242;
    uint64_t W[40];
    for (int rep = 0; rep < 300; rep++) {
        size_t n = 1 + (size_t)(em_t_splitmix(&s) % 40);
        uint64_t total = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = em_t_splitmix(&s);
            W[i] = (r % 3 == 0) ? 0 : (r >> 8) % 12; /* many zeros */
            total += W[i];
        }
        if (total == 0)
            W[em_t_splitmix(&s) % n] = 1;
        check_all_t(n, W);
    }
}
END_TEST

START_TEST(large_weights)
{
    const uint64_t T63 = 1ULL << 63, T62 = 1ULL << 62;
    const uint64_t a[] = {T62, 0, T62 - 1, 1}; /* total 2^63 */
    check_boundaries(4, a);
    ck_assert_uint_eq(em_select(4, a, 0), 0);
    ck_assert_uint_eq(em_select(4, a, T62 - 1), 0);
    ck_assert_uint_eq(em_select(4, a, T62), 2);
    ck_assert_uint_eq(em_select(4, a, T63 - 2), 2);
    ck_assert_uint_eq(em_select(4, a, T63 - 1), 3);
    const uint64_t b[] = {UINT64_MAX - 1, 1}; /* total UINT64_MAX */
    ck_assert_uint_eq(em_select(2, b, UINT64_MAX - 1), 1);
    ck_assert_uint_eq(em_select(2, b, UINT64_MAX - 2), 0);
    ck_assert_uint_eq(em_select(2, b, 0), 0);
    const uint64_t c[] = {0, UINT64_MAX};
    ck_assert_uint_eq(em_select(2, c, 0), 1);
    ck_assert_uint_eq(em_select(2, c, UINT64_MAX - 1), 1);
    /* the binary search at a total of UINT64_MAX: mid never overflows */
    ck_assert_uint_eq(cumulative_select(2, b, UINT64_MAX - 1), 1);
    ck_assert_uint_eq(cumulative_select(2, b, UINT64_MAX - 2), 0);
    ck_assert_uint_eq(cumulative_select(2, c, 0), 1);
    const uint64_t d[] = {1, 0, UINT64_MAX - 1, 0};
    ck_assert_uint_eq(em_select(4, d, 0), 0);
    ck_assert_uint_eq(em_select(4, d, 1), 2);
    ck_assert_uint_eq(em_select(4, d, UINT64_MAX - 1), 2);
    check_boundaries(4, d);
    /* eight fixed-point-sized weights (scale 2^60) with zeros, random boundaries */
    uint64_t s = 8;
    for (int rep = 0; rep < 200; rep++) {
        uint64_t W[8];
        for (size_t i = 0; i < 8; i++)
            W[i] = (em_t_splitmix(&s) % 4 == 0) ? 0 : (em_t_splitmix(&s) >> 4) % ((1ULL << 60) + 1);
        W[rep % 8] = 1ULL << 60;
        check_boundaries(8, W);
        for (int k = 0; k < 50; k++) {
            uint64_t t = em_t_splitmix(&s) % total_of(8, W);
            size_t got = em_select(8, W, t);
            EM_T_REQUIRE(got == naive_select(8, W, t), "random t");
            EM_T_REQUIRE(cumulative_select(8, W, t) == got, "random t, cumulative");
        }
    }
}
END_TEST

START_TEST(long_vectors)
{
    /* n = 5000 with runs of zeros; every boundary against the reference */
    size_t n = 5000;
    uint64_t *W = malloc(n * sizeof *W), s = 5;
    ck_assert(W != NULL);
    for (size_t i = 0; i < n; i++)
        W[i] = ((i / 7) % 3 == 0) ? 0 : 1 + em_t_splitmix(&s) % 1000;
    W[n - 1] = 0;
    uint64_t total = total_of(n, W), acc = 0;
    uint64_t *C = malloc(n * sizeof *C);
    ck_assert(C != NULL);
    em_cumulative(n, W, C);
    for (size_t i = 0; i < n; i++) {
        if (W[i] > 0) {
            EM_T_REQUIRE(em_select(n, W, acc) == i, "first t of cell %zu", i);
            EM_T_REQUIRE(em_select(n, W, acc + W[i] - 1) == i, "last t of cell %zu", i);
            EM_T_REQUIRE(em_select_cumulative(n, C, acc) == i, "cumulative: first t of cell %zu", i);
            EM_T_REQUIRE(em_select_cumulative(n, C, acc + W[i] - 1) == i, "cumulative: last t of cell %zu", i);
        }
        acc += W[i];
    }
    ck_assert_uint_eq(acc, total);
    free(C);
    free(W);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("select");
    TCase *tc = tcase_create("select");
    tcase_add_test(tc, small_vectors_every_t);
    tcase_add_test(tc, random_small_vectors_every_t);
    tcase_add_test(tc, large_weights);
    tcase_add_test(tc, long_vectors);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
