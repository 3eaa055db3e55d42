/* test_count.c: em_count and em_histogram (src/core/em_count.h). */
#include "em_check_main.h"
#include <limits.h>

#include "em_test_util.h"
#include "core/em_count.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const uint64_t SENTINEL = 0xDEADBEEFCAFEF00DULL;

/* The marital data: code i repeated counts[i] times, in a shuffled order. */
static int *marital_data(size_t *n_out)
{
    const double counts[] = EM_MARITAL_COUNTS;
    size_t n = 0;
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        n += (size_t)counts[i];
    int *d = malloc(n * sizeof *d);
    ck_assert(d != NULL);
    size_t k = 0;
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        for (size_t j = 0; j < (size_t)counts[i]; j++)
            d[k++] = (int)i;
    uint64_t s = 7;
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates, deterministic */
        size_t j = (size_t)(em_t_splitmix(&s) % (i + 1));
        int t = d[i];
        d[i] = d[j];
        d[j] = t;
    }
    *n_out = n;
    return d;
}

START_TEST(marital_histogram)
{
    size_t n;
    int *d = marital_data(&n);
    ck_assert_uint_eq(n, 10683 + 14976 + 4443 + 418 + 1025 + 23 + 993);
    ck_assert_uint_eq(n, 32561); /* the Adult training set */
    uint64_t hist[EM_MARITAL_N];
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        hist[i] = SENTINEL;
    ck_assert_int_eq(em_histogram(n, d, EM_MARITAL_N, hist), EM_OK);
    const uint64_t expect[EM_MARITAL_N] = {10683, 14976, 4443, 418, 1025, 23, 993};
    uint64_t sum = 0;
    for (size_t i = 0; i < EM_MARITAL_N; i++) {
        ck_assert_uint_eq(hist[i], expect[i]);
        ck_assert_uint_eq(em_count(n, d, (int)i), expect[i]);
        sum += hist[i];
    }
    ck_assert_uint_eq(sum, n);
    /* values absent from the data */
    ck_assert_uint_eq(em_count(n, d, 7), 0);
    ck_assert_uint_eq(em_count(n, d, -1), 0);
    ck_assert_uint_eq(em_count(n, d, INT_MIN), 0);
    /* a larger k: the extra cells are zero, the sum still n */
    uint64_t big[10];
    for (size_t i = 0; i < 10; i++)
        big[i] = SENTINEL;
    ck_assert_int_eq(em_histogram(n, d, 10, big), EM_OK);
    for (size_t i = 0; i < 10; i++)
        ck_assert_uint_eq(big[i], i < EM_MARITAL_N ? expect[i] : 0);
    free(d);
}
END_TEST

START_TEST(count_small)
{
    const int d[] = {3, -2, 3, INT_MAX, 0, 3, INT_MIN, -2};
    ck_assert_uint_eq(em_count(N_OF(d), d, 3), 3);
    ck_assert_uint_eq(em_count(N_OF(d), d, -2), 2);
    ck_assert_uint_eq(em_count(N_OF(d), d, INT_MAX), 1);
    ck_assert_uint_eq(em_count(N_OF(d), d, INT_MIN), 1);
    ck_assert_uint_eq(em_count(N_OF(d), d, 1), 0);
    /* a prefix only: n bounds the rows read */
    ck_assert_uint_eq(em_count(3, d, 3), 2);
    ck_assert_uint_eq(em_count(0, d, 3), 0);
    const int same[] = {5, 5, 5, 5};
    ck_assert_uint_eq(em_count(4, same, 5), 4);
}
END_TEST

START_TEST(random_histograms)
{
    uint64_t s = 99;
    int d[500];
    uint64_t hist[17];
    for (int rep = 0; rep < 50; rep++) {
        size_t n = (size_t)(em_t_splitmix(&s) % 500) + 1, k = (size_t)(em_t_splitmix(&s) % 17) + 1;
        size_t naive[17] = {0};
        for (size_t i = 0; i < n; i++) {
            d[i] = (int)(em_t_splitmix(&s) % k);
            naive[d[i]]++;
        }
        ck_assert_int_eq(em_histogram(n, d, k, hist), EM_OK);
        uint64_t sum = 0;
        for (size_t r = 0; r < k; r++) {
            ck_assert_uint_eq(hist[r], naive[r]);
            ck_assert_uint_eq(em_count(n, d, (int)r), naive[r]);
            sum += hist[r];
        }
        ck_assert_uint_eq(sum, n);
    }
}
END_TEST

static void check_domain(size_t n, const int *d, size_t k)
{
    uint64_t hist[8];
    for (size_t i = 0; i < 8; i++)
        hist[i] = SENTINEL;
    ck_assert_int_eq(em_histogram(n, d, k, hist), EM_ERR_DOMAIN);
    for (size_t i = 0; i < k; i++)
        ck_assert_msg(hist[i] == 0, "hist[%zu] = %llu after EM_ERR_DOMAIN", i, (unsigned long long)hist[i]);
    for (size_t i = k; i < 8; i++)
        ck_assert_msg(hist[i] == SENTINEL, "hist[%zu] beyond k written", i);
}

START_TEST(out_of_range_rows)
{
    const int neg_first[] = {-1, 0, 1, 2};
    check_domain(4, neg_first, 3);
    const int neg_last[] = {0, 1, 2, 1, 0, -1};
    check_domain(6, neg_last, 3); /* counts already accumulated must be wiped */
    const int eq_k[] = {0, 0, 2, 3, 1};
    check_domain(5, eq_k, 3);
    const int k_last[] = {2, 2, 2, 3};
    check_domain(4, k_last, 3);
    const int extremes[] = {0, INT_MAX};
    check_domain(2, extremes, 4);
    const int extremes2[] = {1, INT_MIN};
    check_domain(2, extremes2, 4);
    const int all_bad[] = {5, 6, 7};
    check_domain(3, all_bad, 1);
    /* k - 1 is fine, k is not */
    uint64_t h[3];
    const int top[] = {2, 2};
    ck_assert_int_eq(em_histogram(2, top, 3, h), EM_OK);
    ck_assert(h[0] == 0 && h[1] == 0 && h[2] == 2);
    check_domain(2, top, 2);
    /* an out-of-range row beyond n is never read */
    const int tail[] = {0, 1, 9};
    ck_assert_int_eq(em_histogram(2, tail, 2, h), EM_OK);
    ck_assert(h[0] == 1 && h[1] == 1);
}
END_TEST

START_TEST(null_empty_zero_rows)
{
    const int d[] = {0, 1, 1};
    uint64_t h[3] = {SENTINEL, SENTINEL, SENTINEL};
    ck_assert_int_eq(em_histogram(3, NULL, 3, h), EM_ERR_NULL);
    ck_assert_int_eq(em_histogram(0, NULL, 3, h), EM_ERR_NULL);
    ck_assert_int_eq(em_histogram(3, d, 3, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_histogram(3, NULL, 0, NULL), EM_ERR_NULL);
    ck_assert(h[0] == SENTINEL && h[1] == SENTINEL && h[2] == SENTINEL); /* nothing assigned */
    /* k == 0: EM_ERR_EMPTY, nothing written, even with out-of-range rows */
    ck_assert_int_eq(em_histogram(3, d, 0, h), EM_ERR_EMPTY);
    ck_assert_int_eq(em_histogram(0, d, 0, h), EM_ERR_EMPTY);
    ck_assert(h[0] == SENTINEL && h[1] == SENTINEL && h[2] == SENTINEL);
    /* n == 0: EM_OK with every cell zero (sum 0 == n) */
    ck_assert_int_eq(em_histogram(0, d, 3, h), EM_OK);
    ck_assert(h[0] == 0 && h[1] == 0 && h[2] == 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("count");
    TCase *tc = tcase_create("count");
    tcase_add_test(tc, marital_histogram);
    tcase_add_test(tc, count_small);
    tcase_add_test(tc, random_histograms);
    tcase_add_test(tc, out_of_range_rows);
    tcase_add_test(tc, null_empty_zero_rows);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
