/* test_uniform.c: em_uniform_below, em_sample_fixed and em_sample_cumulative_many
 * (src/core/em_uniform.h) with
 * scripted words: rejection on the top bits (never modulo), exact boundaries,
 * retry limits, and the mapping of draws to cells. */
#include "em_check_main.h"
#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const uint64_t LOWJUNK = 0x0123456789ABCDEFULL; /* low bits that must not matter */

/* A word whose top b bits are v and whose other bits are junk. */
static uint64_t top(unsigned b, uint64_t v)
{
    return b == 64 ? v : (v << (64 - b)) | (LOWJUNK >> b);
}

START_TEST(rejection_not_modulo_m3)
{
    /* m = 3: b = 2 bits from the top; 11 (3) is rejected, never reduced mod 3 */
    const uint64_t words[] = {top(2, 3), top(2, 1)};
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 2), EM_OK);
    uint64_t out = 99;
    ck_assert_int_eq(em_uniform_below(&rng, 3, &out), EM_OK);
    ck_assert_uint_eq(out, 1);            /* the second word's top bits; 3 mod 3 = 0 would be modulo */
    ck_assert_uint_eq(rng.words_drawn, 2); /* the first word was drawn and rejected */

    /* each accepted value equals the word's top two bits, whatever the low bits */
    for (uint64_t v = 0; v < 3; v++) {
        const uint64_t lows[] = {0, UINT64_MAX >> 2, LOWJUNK >> 2, 1};
        for (size_t k = 0; k < N_OF(lows); k++) {
            uint64_t w = (v << 62) | lows[k];
            ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
            ck_assert_int_eq(em_uniform_below(&rng, 3, &out), EM_OK);
            ck_assert_uint_eq(out, v);
            ck_assert_uint_eq(rng.words_drawn, 1);
        }
    }
    /* the largest word (top bits 11) alone: rejected, then the script runs out */
    uint64_t w = UINT64_MAX;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
    out = 99;
    ck_assert_int_eq(em_uniform_below(&rng, 3, &out), EM_ERR_RNG);
    ck_assert_uint_eq(rng.words_drawn, 1);
}
END_TEST

START_TEST(exact_distribution_m5)
{
    /* m = 5, b = 3: every top pattern 000..111 exactly once, one word per call:
       0..4 come out once each, 5, 6, 7 are rejected */
    int seen[8] = {0};
    em_rng rng;
    for (uint64_t v = 0; v < 8; v++) {
        uint64_t w = top(3, v), out = 99;
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
        int st = em_uniform_below(&rng, 5, &out);
        if (v < 5) {
            ck_assert_int_eq(st, EM_OK);
            ck_assert_uint_eq(out, v);
            seen[out]++;
        } else {
            ck_assert_int_eq(st, EM_ERR_RNG); /* rejected; the script had nothing more */
        }
        ck_assert_uint_eq(rng.words_drawn, 1);
    }
    for (int v = 0; v < 5; v++)
        ck_assert_int_eq(seen[v], 1);
    /* the same eight words as one script, in scrambled order: the five accepted
       values are exactly {0..4}; each rejection consumed exactly one word */
    const uint64_t order[] = {7, 2, 5, 0, 6, 4, 1, 3};
    uint64_t words[8];
    for (int i = 0; i < 8; i++)
        words[i] = top(3, order[i]);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 8), EM_OK);
    int got[5] = {0};
    const uint64_t expect_seq[] = {2, 0, 4, 1, 3};
    const uint64_t expect_drawn[] = {2, 4, 6, 7, 8};
    for (int k = 0; k < 5; k++) {
        uint64_t out;
        ck_assert_int_eq(em_uniform_below(&rng, 5, &out), EM_OK);
        ck_assert_uint_eq(out, expect_seq[k]);
        ck_assert_uint_eq(rng.words_drawn, expect_drawn[k]);
        got[out]++;
    }
    for (int v = 0; v < 5; v++)
        ck_assert_int_eq(got[v], 1);
    uint64_t out;
    ck_assert_int_eq(em_uniform_below(&rng, 5, &out), EM_ERR_RNG);
}
END_TEST

START_TEST(bit_count_per_m)
{
    /* for m in 2..300, b = bit length of m - 1: value v < m accepted from top(b, v),
       and the first rejected pattern (m itself, when m < 2^b) is rejected */
    em_rng rng;
    for (uint64_t m = 2; m <= 300; m++) {
        unsigned b = 0;
        while (b < 64 && ((m - 1) >> b) != 0)
            b++;
        const uint64_t vs[] = {0, m / 2, m - 1};
        for (size_t k = 0; k < 3; k++) {
            uint64_t w = top(b, vs[k]), out;
            ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
            EM_T_REQUIRE(em_uniform_below(&rng, m, &out) == EM_OK && out == vs[k], "m %llu v %llu",
                         (unsigned long long)m, (unsigned long long)vs[k]);
        }
        if (m < (1ULL << b)) {
            const uint64_t w[2] = {top(b, m), top(b, 0)};
            uint64_t out;
            ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, w, 2), EM_OK);
            EM_T_REQUIRE(em_uniform_below(&rng, m, &out) == EM_OK && out == 0 && rng.words_drawn == 2,
                         "m %llu: pattern m not rejected", (unsigned long long)m);
        }
    }
}
END_TEST

START_TEST(m_one_and_zero)
{
    em_rng rng;
    const uint64_t w[] = {123};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, w, 1), EM_OK);
    uint64_t out = 99;
    ck_assert_int_eq(em_uniform_below(&rng, 1, &out), EM_OK);
    ck_assert_uint_eq(out, 0);
    ck_assert_uint_eq(rng.words_drawn, 0); /* nothing drawn */
    ck_assert_uint_eq(rng.script_pos, 0);
    /* even with an empty script */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 0), EM_OK);
    out = 99;
    ck_assert_int_eq(em_uniform_below(&rng, 1, &out), EM_OK);
    ck_assert_uint_eq(out, 0);
    /* m == 0: EM_ERR_DOMAIN, nothing drawn, out untouched */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, w, 1), EM_OK);
    out = 99;
    ck_assert_int_eq(em_uniform_below(&rng, 0, &out), EM_ERR_DOMAIN);
    ck_assert_uint_eq(out, 99);
    ck_assert_uint_eq(rng.words_drawn, 0);
    /* NULLs */
    ck_assert_int_eq(em_uniform_below(NULL, 3, &out), EM_ERR_NULL);
    ck_assert_int_eq(em_uniform_below(&rng, 3, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_uniform_below(NULL, 0, NULL), EM_ERR_NULL);
    ck_assert_uint_eq(rng.words_drawn, 0);
}
END_TEST

START_TEST(script_exhausted_and_retry_limit)
{
    em_rng rng;
    uint64_t out = 99;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 0), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, 2, &out), EM_ERR_RNG);
    ck_assert_uint_eq(out, 99);

    /* m = 3: EM_UNIFORM_TRIES words all rejected (top bits 11) then a good one:
       the limit is reached first, exactly EM_UNIFORM_TRIES words drawn */
    ck_assert_int_eq(EM_UNIFORM_TRIES, 256);
    uint64_t words[EM_UNIFORM_TRIES + 1];
    for (int i = 0; i < EM_UNIFORM_TRIES; i++)
        words[i] = top(2, 3) ^ (uint64_t)i;
    words[EM_UNIFORM_TRIES] = top(2, 2);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, EM_UNIFORM_TRIES + 1), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, 3, &out), EM_ERR_RNG);
    ck_assert_uint_eq(out, 99);
    ck_assert_uint_eq(rng.words_drawn, EM_UNIFORM_TRIES);
    /* one rejection fewer: the last try is accepted */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words + 1, EM_UNIFORM_TRIES), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, 3, &out), EM_OK);
    ck_assert_uint_eq(out, 2);
    ck_assert_uint_eq(rng.words_drawn, EM_UNIFORM_TRIES);
    /* a script of 10 rejections: exhausted after 10 words */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 10), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, 3, &out), EM_ERR_RNG);
    ck_assert_uint_eq(rng.words_drawn, 10);
}
END_TEST

START_TEST(boundary_m)
{
    em_rng rng;
    uint64_t out;
    /* m = 2^64 - 1: b = 64, only the all-ones word is rejected */
    const uint64_t a[] = {UINT64_MAX, UINT64_MAX - 1};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, a, 2), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, UINT64_MAX, &out), EM_OK);
    ck_assert(out == UINT64_MAX - 1 && rng.words_drawn == 2);
    const uint64_t a0[] = {0};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, a0, 1), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, UINT64_MAX, &out), EM_OK);
    ck_assert_uint_eq(out, 0);
    /* m = 2^63: b = 63, never a rejection; the value is word >> 1 */
    const uint64_t b[] = {UINT64_MAX, 1, 0x8000000000000000ULL};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, b, 3), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, 1ULL << 63, &out), EM_OK);
    ck_assert_uint_eq(out, (1ULL << 63) - 1);
    ck_assert_int_eq(em_uniform_below(&rng, 1ULL << 63, &out), EM_OK);
    ck_assert_uint_eq(out, 0);
    ck_assert_int_eq(em_uniform_below(&rng, 1ULL << 63, &out), EM_OK);
    ck_assert_uint_eq(out, 1ULL << 62);
    ck_assert_uint_eq(rng.words_drawn, 3);
    /* m = 2^63 + 1: b = 64, words above 2^63 rejected, 2^63 accepted */
    const uint64_t c[] = {(1ULL << 63) + 1, UINT64_MAX, 1ULL << 63};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, c, 3), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, (1ULL << 63) + 1, &out), EM_OK);
    ck_assert(out == (1ULL << 63) && rng.words_drawn == 3);
    /* m = 2^63 - 1: b = 63, the top-63 pattern 2^63 - 1 rejected */
    const uint64_t d[] = {UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 2};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, d, 3), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, (1ULL << 63) - 1, &out), EM_OK);
    ck_assert(out == (1ULL << 63) - 2 && rng.words_drawn == 3);
    /* m = 2: the top bit only */
    const uint64_t e[] = {0x7FFFFFFFFFFFFFFFULL, 0x8000000000000000ULL};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, e, 2), EM_OK);
    ck_assert_int_eq(em_uniform_below(&rng, 2, &out), EM_OK);
    ck_assert_uint_eq(out, 0);
    ck_assert_int_eq(em_uniform_below(&rng, 2, &out), EM_OK);
    ck_assert_uint_eq(out, 1);
}
END_TEST

/* ------------------------------------------------------------ em_sample_fixed */

START_TEST(sample_every_cell_boundary)
{
    /* W = {0, 3, 0, 5, 2, 0}, total 10, b = 4: t = top 4 bits; t in 10..15 rejected */
    const uint64_t W[] = {0, 3, 0, 5, 2, 0};
    const size_t cell_of_t[10] = {1, 1, 1, 3, 3, 3, 3, 3, 4, 4};
    em_rng rng;
    for (uint64_t t = 0; t < 16; t++) {
        uint64_t w = top(4, t);
        size_t out = 99;
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
        int st = em_sample_fixed(6, W, 10, &rng, &out);
        if (t < 10) {
            ck_assert_int_eq(st, EM_OK);
            ck_assert_msg(out == cell_of_t[t], "t %llu -> cell %zu", (unsigned long long)t, out);
            ck_assert(W[out] > 0);
        } else {
            ck_assert_int_eq(st, EM_ERR_RNG); /* rejected, then out of words */
            ck_assert_uint_eq(out, 99);
        }
    }
    /* a rejected word followed by an accepted one */
    const uint64_t two[] = {top(4, 15), top(4, 9)};
    size_t out;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, two, 2), EM_OK);
    ck_assert_int_eq(em_sample_fixed(6, W, 10, &rng, &out), EM_OK);
    ck_assert_uint_eq(out, 4);
}
END_TEST

START_TEST(sample_random_vectors_all_t)
{
    /* random weight vectors (zeros at start, middle, end): for every t < total, the
       scripted word with top bits t maps to the naive cell, never a zero weight */
    uint64_t s = 11;
    em_rng rng;
    for (int rep = 0; rep < 100; rep++) {
        size_t n = 1 + (size_t)(em_t_splitmix(&s) % 12);
        uint64_t W[12], total = 0;
        for (size_t i = 0; i < n; i++) {
            W[i] = em_t_splitmix(&s) % 3 == 0 ? 0 : em_t_splitmix(&s) % 9;
            total += W[i];
        }
        W[0] = 0;
        if (n > 1)
            W[n - 1] = 0;
        if (total == 0 || (n > 1 && total == W[0] + W[n - 1])) {
            W[n / 2] += 1;
        }
        total = 0;
        for (size_t i = 0; i < n; i++)
            total += W[i];
        if (total == 0)
            continue; /* n == 1 with W[0] == 0 */
        unsigned b = 0;
        while (b < 64 && ((total - 1) >> b) != 0)
            b++;
        for (uint64_t t = 0; t < total; t++) {
            uint64_t w = total == 1 ? 0 : top(b, t);
            size_t out = 99, want = 0;
            uint64_t acc = W[0];
            while (t >= acc)
                acc += W[++want];
            ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
            EM_T_REQUIRE(em_sample_fixed(n, W, total, &rng, &out) == EM_OK, "status");
            EM_T_REQUIRE(out == want && W[out] > 0, "t %llu: cell %zu, expected %zu", (unsigned long long)t, out, want);
        }
    }
}
END_TEST

START_TEST(sample_large_total)
{
    /* total 2^63 from fixed-point-sized weights: b = 63, t = word >> 1 */
    const uint64_t W[] = {1ULL << 62, 0, (1ULL << 62) - 1, 1};
    const struct { uint64_t t; size_t cell; } c[] = {
        {0, 0}, {(1ULL << 62) - 1, 0}, {1ULL << 62, 2}, {(1ULL << 63) - 2, 2}, {(1ULL << 63) - 1, 3}};
    em_rng rng;
    for (size_t k = 0; k < N_OF(c); k++) {
        uint64_t w = (c[k].t << 1) | 1; /* the lowest bit is not used */
        size_t out;
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
        ck_assert_int_eq(em_sample_fixed(4, W, 1ULL << 63, &rng, &out), EM_OK);
        ck_assert_msg(out == c[k].cell, "t %llu -> %zu", (unsigned long long)c[k].t, out);
    }
    /* the single-candidate case draws nothing (total 1) */
    const uint64_t one[] = {0, 1, 0};
    size_t out = 99;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 0), EM_OK);
    ck_assert_int_eq(em_sample_fixed(3, one, 1, &rng, &out), EM_OK);
    ck_assert_uint_eq(out, 1);
    ck_assert_uint_eq(rng.words_drawn, 0);
}
END_TEST

START_TEST(sample_errors)
{
    const uint64_t W[] = {1, 2};
    const uint64_t Z[] = {0, 0};
    const uint64_t w[] = {0};
    em_rng rng;
    size_t out = 99;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, w, 1), EM_OK);
    ck_assert_int_eq(em_sample_fixed(2, NULL, 3, &rng, &out), EM_ERR_NULL);
    ck_assert_int_eq(em_sample_fixed(2, W, 3, NULL, &out), EM_ERR_NULL);
    ck_assert_int_eq(em_sample_fixed(2, W, 3, &rng, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_sample_fixed(0, W, 0, &rng, &out), EM_ERR_EMPTY);
    ck_assert_int_eq(em_sample_fixed(2, Z, 0, &rng, &out), EM_ERR_DOMAIN);
    ck_assert_uint_eq(out, 99);
    ck_assert_uint_eq(rng.words_drawn, 0); /* none of these drew a word */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 0), EM_OK);
    ck_assert_int_eq(em_sample_fixed(2, W, 3, &rng, &out), EM_ERR_RNG);
    ck_assert_uint_eq(out, 99);
}
END_TEST

START_TEST(sample_pipeline_marital)
{
    /* the whole chain on the marital example with scripted words: the first word
       (t = 0) lands in cell 0, the last t in cell 6, and the mode's cell spans exactly
       [W0, W0 + W1) */
    double u[EM_MARITAL_N], lw[EM_MARITAL_N];
    const double counts[] = EM_MARITAL_COUNTS;
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        u[i] = counts[i] / 1000.0;
    uint64_t W[EM_MARITAL_N], total, scale;
    size_t am, out;
    ck_assert_int_eq(em_logweights(EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_int_eq(em_weights_fixed(EM_MARITAL_N, lw, W, &total, &scale), EM_OK);
    unsigned b = 0;
    while (b < 64 && ((total - 1) >> b) != 0)
        b++;
    const struct { uint64_t t; size_t cell; } c[] = {
        {0, 0}, {W[0] - 1, 0}, {W[0], 1}, {W[0] + W[1] - 1, 1}, {W[0] + W[1], 2}, {total - 1, 6}};
    em_rng rng;
    for (size_t k = 0; k < N_OF(c); k++) {
        uint64_t w = top(b, c[k].t);
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, &w, 1), EM_OK);
        ck_assert_int_eq(em_sample_fixed(EM_MARITAL_N, W, total, &rng, &out), EM_OK);
        ck_assert_uint_eq(out, c[k].cell);
    }
}
END_TEST

/* ---------------------------------------------------- em_sample_cumulative_many */

/* C = em_cumulative(W) */
static void cumulate(size_t n, const uint64_t *W, uint64_t *C)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++)
        C[i] = acc += W[i];
}

START_TEST(many_same_as_single_draws)
{
    /* k draws in one call = k calls of em_sample_fixed (em_uniform_below, then em_select's
       full scan) on the same ChaCha stream: the same cells, the same words consumed, the
       same next word.  k spans one run, exactly EM_UNIFORM_BATCH, and several runs. */
    double u[EM_MARITAL_N], lw[EM_MARITAL_N];
    const double counts[] = EM_MARITAL_COUNTS;
    for (size_t i = 0; i < EM_MARITAL_N; i++)
        u[i] = counts[i] / 1000.0;
    uint64_t marital[EM_MARITAL_N], total, scale;
    size_t am;
    ck_assert_int_eq(em_logweights(EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD, lw, &am), EM_OK);
    ck_assert_int_eq(em_weights_fixed(EM_MARITAL_N, lw, marital, &total, &scale), EM_OK);
    const uint64_t big[] = {1ULL << 62, 0, (1ULL << 62) - 1, 1};      /* total 2^63 */
    const uint64_t odd[] = {0, 3, 0, 1, 1};                           /* total 5: b = 3 */
    const uint64_t pow2p1[] = {(1ULL << 40), 1};                      /* rejection near 1/2 */
    const struct { size_t n; const uint64_t *W; } tabs[] = {
        {EM_MARITAL_N, marital}, {4, big}, {5, odd}, {2, pow2p1}};
    const size_t ks[] = {1, 2, EM_UNIFORM_BATCH - 1, EM_UNIFORM_BATCH, EM_UNIFORM_BATCH + 1, 5000};
    enum { KMAX = 5000 };
    static size_t got[KMAX];
    for (size_t t = 0; t < N_OF(tabs); t++) {
        size_t n = tabs[t].n;
        const uint64_t *W = tabs[t].W;
        uint64_t C[EM_MARITAL_N], sum = 0;
        cumulate(n, W, C);
        for (size_t i = 0; i < n; i++)
            sum += W[i];
        for (size_t q = 0; q < N_OF(ks); q++) {
            size_t k = ks[q];
            em_rng a, b;
            ck_assert_int_eq(em_rng_init(&a, EM_RNG_CHACHA, &(uint64_t){1000 + q}, 1), EM_OK);
            ck_assert_int_eq(em_rng_init(&b, EM_RNG_CHACHA, &(uint64_t){1000 + q}, 1), EM_OK);
            uint64_t skip; /* start inside a buffer */
            ck_assert_int_eq(em_rng_u64(&a, &skip), EM_OK);
            ck_assert_int_eq(em_rng_u64(&b, &skip), EM_OK);
            ck_assert_int_eq(em_sample_cumulative_many(n, C, &a, k, got), EM_OK);
            for (size_t j = 0; j < k; j++) {
                size_t want;
                ck_assert_int_eq(em_sample_fixed(n, W, sum, &b, &want), EM_OK);
                EM_T_REQUIRE(got[j] == want, "table %zu k %zu: draw %zu is %zu, single %zu", t, k, j,
                             got[j], want);
            }
            EM_T_REQUIRE(a.words_drawn == b.words_drawn, "table %zu k %zu: %llu words, singles %llu",
                         t, k, (unsigned long long)a.words_drawn, (unsigned long long)b.words_drawn);
            uint64_t xa, xb;
            ck_assert_int_eq(em_rng_u64(&a, &xa), EM_OK);
            ck_assert_int_eq(em_rng_u64(&b, &xb), EM_OK);
            ck_assert(xa == xb);
        }
    }
}
END_TEST

START_TEST(many_exact_enumeration)
{
    /* W = {1, 2, 0, 3}, C = {1, 3, 3, 6}: m = 6, b = 3.  Every top pattern 0..7 once, in a
       scrambled order: 6 and 7 rejected (never reduced), each of 0..5 one draw, so the
       cells come out 1, 2, 0, 3 times: exactly W, the law's numerators over 6. */
    const uint64_t C[] = {1, 3, 3, 6};
    const uint64_t v[] = {5, 7, 0, 3, 6, 1, 4, 2};
    const size_t cell_of[] = {0, 1, 1, 3, 3, 3}; /* t -> the cell with C[i-1] <= t < C[i] */
    uint64_t words[8];
    for (size_t i = 0; i < 8; i++)
        words[i] = top(3, v[i]);
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 8), EM_OK);
    size_t out[6];
    ck_assert_int_eq(em_sample_cumulative_many(4, C, &rng, 6, out), EM_OK);
    ck_assert_uint_eq(rng.words_drawn, 8);
    const uint64_t accepted[] = {5, 0, 3, 1, 4, 2};
    size_t count[4] = {0};
    for (size_t j = 0; j < 6; j++) {
        ck_assert_uint_eq(out[j], cell_of[accepted[j]]);
        count[out[j]]++;
    }
    ck_assert_uint_eq(count[0], 1);
    ck_assert_uint_eq(count[1], 2);
    ck_assert_uint_eq(count[2], 0);
    ck_assert_uint_eq(count[3], 3);
}
END_TEST

START_TEST(many_retry_limit)
{
    /* m = 3 (b = 2): 255 rejections in a row then an acceptance is a draw; 256 in a row
       fail, also when they straddle the runs of words (k = 3: runs of 3, 2, 2, ... words) */
    const uint64_t C[] = {1, 2, 3};
    static uint64_t words[EM_UNIFORM_TRIES + 3];
    size_t out[3];
    em_rng rng;
    for (size_t i = 0; i < EM_UNIFORM_TRIES + 3; i++)
        words[i] = top(2, 3);
    words[0] = top(2, 2);                        /* draw 0: cell 2 */
    words[EM_UNIFORM_TRIES] = top(2, 0);         /* after 255 rejections: cell 0 */
    words[EM_UNIFORM_TRIES + 1] = top(2, 1);     /* cell 1 */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, EM_UNIFORM_TRIES + 2), EM_OK);
    ck_assert_int_eq(em_sample_cumulative_many(3, C, &rng, 3, out), EM_OK);
    ck_assert_uint_eq(out[0], 2);
    ck_assert_uint_eq(out[1], 0);
    ck_assert_uint_eq(out[2], 1);
    ck_assert_uint_eq(rng.words_drawn, EM_UNIFORM_TRIES + 2);
    /* 256 rejections after the first draw: an error, not a biased value */
    words[EM_UNIFORM_TRIES] = top(2, 3);
    words[EM_UNIFORM_TRIES + 1] = top(2, 1);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, EM_UNIFORM_TRIES + 3), EM_OK);
    ck_assert_int_eq(em_sample_cumulative_many(3, C, &rng, 2, out), EM_ERR_RNG);
    /* one draw at a time (runs of one word): the same limit */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words + 1, EM_UNIFORM_TRIES), EM_OK);
    ck_assert_int_eq(em_sample_cumulative_many(3, C, &rng, 1, out), EM_ERR_RNG);
    ck_assert_uint_eq(rng.words_drawn, EM_UNIFORM_TRIES);
    /* a source that runs out: an error */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 1), EM_OK);
    ck_assert_int_eq(em_sample_cumulative_many(3, C, &rng, 2, out), EM_ERR_RNG);
}
END_TEST

START_TEST(many_errors_and_one_cell)
{
    const uint64_t C[] = {1, 3};
    const uint64_t Z[] = {0, 0};
    const uint64_t one[] = {0, 1, 1}; /* total 1: only cell 1, no word drawn */
    const uint64_t w[] = {0};
    em_rng rng;
    size_t out[4] = {99, 99, 99, 99};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, w, 1), EM_OK);
    ck_assert_int_eq(em_sample_cumulative_many(2, NULL, &rng, 1, out), EM_ERR_NULL);
    ck_assert_int_eq(em_sample_cumulative_many(2, C, NULL, 1, out), EM_ERR_NULL);
    ck_assert_int_eq(em_sample_cumulative_many(2, C, &rng, 1, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_sample_cumulative_many(0, C, &rng, 1, out), EM_ERR_EMPTY);
    ck_assert_int_eq(em_sample_cumulative_many(2, C, &rng, 0, out), EM_ERR_EMPTY);
    ck_assert_int_eq(em_sample_cumulative_many(2, Z, &rng, 1, out), EM_ERR_DOMAIN);
    ck_assert_uint_eq(out[0], 99);
    ck_assert_uint_eq(rng.words_drawn, 0); /* none of these drew a word */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 0), EM_OK);
    ck_assert_int_eq(em_sample_cumulative_many(3, one, &rng, 4, out), EM_OK);
    for (size_t j = 0; j < 4; j++)
        ck_assert_uint_eq(out[j], 1);
    ck_assert_uint_eq(rng.words_drawn, 0);
    ck_assert_int_eq(em_sample_cumulative_many(2, C, &rng, 1, out), EM_ERR_RNG);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("uniform");
    TCase *tu = tcase_create("uniform_below");
    tcase_add_test(tu, rejection_not_modulo_m3);
    tcase_add_test(tu, exact_distribution_m5);
    tcase_add_test(tu, bit_count_per_m);
    tcase_add_test(tu, m_one_and_zero);
    tcase_add_test(tu, script_exhausted_and_retry_limit);
    tcase_add_test(tu, boundary_m);
    suite_add_tcase(s, tu);
    TCase *ts = tcase_create("sample_fixed");
    tcase_add_test(ts, sample_every_cell_boundary);
    tcase_add_test(ts, sample_random_vectors_all_t);
    tcase_add_test(ts, sample_large_total);
    tcase_add_test(ts, sample_errors);
    tcase_add_test(ts, sample_pipeline_marital);
    suite_add_tcase(s, ts);
    TCase *tm = tcase_create("many");
    tcase_add_test(tm, many_same_as_single_draws);
    tcase_add_test(tm, many_exact_enumeration);
    tcase_add_test(tm, many_retry_limit);
    tcase_add_test(tm, many_errors_and_one_cell);
    suite_add_tcase(s, tm);
    return s;
}

EM_CHECK_MAIN(suite)
