/* test_rng.c: the random sources behind em_rng_u64 (src/trusted/em_rng.c):
 * ChaCha20 streams (deterministic, and equal to libsodium's RFC 8439 keystream under
 * the documented key derivation), the refill boundary, the OS source, scripts, and
 * em_rng_fill (the same words as em_rng_u64, word for word). */
#include "em_check_main.h"
#include <sodium.h>

#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void draw(em_rng *rng, uint64_t *out, size_t k)
{
    for (size_t i = 0; i < k; i++)
        ck_assert_int_eq(em_rng_u64(rng, &out[i]), EM_OK);
}

/* The documented stream, computed here with libsodium directly:
   key = BLAKE2b-256("expmech-chacha20-seed-v1" || seed, little-endian),
   ChaCha20-IETF with nonce = stream number (little-endian), counter from `block`,
   words read little-endian. */
static void reference_words(uint64_t seed, uint64_t stream, uint32_t block, uint64_t *out, size_t k)
{
    ck_assert(sodium_init() >= 0);
    unsigned char msg[32], key[32], nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};
    memcpy(msg, "expmech-chacha20-seed-v1", 24);
    for (int i = 0; i < 8; i++) {
        msg[24 + i] = (unsigned char)(seed >> (8 * i));
        nonce[i] = (unsigned char)(stream >> (8 * i));
    }
    ck_assert_int_eq(crypto_generichash(key, sizeof key, msg, sizeof msg, NULL, 0), 0);
    size_t len = k * 8;
    unsigned char *ks = calloc(len, 1);
    ck_assert(ks != NULL);
    ck_assert_int_eq(crypto_stream_chacha20_ietf_xor_ic(ks, ks, len, nonce, block, key), 0);
    for (size_t w = 0; w < k; w++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++)
            x |= (uint64_t)ks[8 * w + (size_t)i] << (8 * i);
        out[w] = x;
    }
    free(ks);
}

START_TEST(chacha_deterministic)
{
    em_rng a, b, c;
    uint64_t wa[100], wb[100], wc[100];
    ck_assert_int_eq(em_rng_init(&a, EM_RNG_CHACHA, &(uint64_t){1}, 1), EM_OK);
    ck_assert_int_eq(em_rng_init(&b, EM_RNG_CHACHA, &(uint64_t){1}, 1), EM_OK);
    ck_assert_int_eq(em_rng_init(&c, EM_RNG_CHACHA, &(uint64_t){2}, 1), EM_OK);
    draw(&a, wa, 100);
    draw(&b, wb, 100);
    draw(&c, wc, 100);
    int same = 0;
    for (int i = 0; i < 100; i++) {
        ck_assert_msg(wa[i] == wb[i], "word %d differs for the same seed", i);
        same += wa[i] == wc[i];
    }
    ck_assert_int_eq(same, 0);
    ck_assert_uint_eq(a.words_drawn, 100);
    ck_assert_uint_eq(c.words_drawn, 100);
    /* seeds that differ in one high bit, and seed 0, give different streams */
    const uint64_t seeds[] = {0, 1ULL << 63, UINT64_MAX, 256};
    for (size_t k = 0; k < N_OF(seeds); k++) {
        em_rng d;
        uint64_t wd[100];
        ck_assert_int_eq(em_rng_init(&d, EM_RNG_CHACHA, &(uint64_t){seeds[k]}, 1), EM_OK);
        draw(&d, wd, 100);
        int eq = 0;
        for (int i = 0; i < 100; i++)
            eq += wd[i] == wa[i];
        ck_assert_int_eq(eq, 0);
    }
}
END_TEST

START_TEST(chacha_matches_rfc8439_stream)
{
    /* 3.5 buffers' worth of words: crosses the EM_RNG_BUFSZ refill boundary three
       times, and the words after each refill continue the keystream */
    const size_t k = (EM_RNG_BUFSZ / 8) * 3 + 40;
    ck_assert_uint_eq(EM_RNG_BUFSZ % 64, 0);
    const uint64_t seeds[] = {0, 1, 20240601, UINT64_MAX};
    for (size_t s = 0; s < N_OF(seeds); s++) {
        em_rng rng;
        uint64_t *got = malloc(k * sizeof *got), *want = malloc(k * sizeof *want);
        ck_assert(got && want);
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){seeds[s]}, 1), EM_OK);
        draw(&rng, got, k);
        reference_words(seeds[s], 0, 0, want, k);
        for (size_t i = 0; i < k; i++)
            ck_assert_msg(got[i] == want[i], "seed %llu word %zu", (unsigned long long)seeds[s], i);
        ck_assert_uint_eq(rng.words_drawn, k);
        /* no buffer repeats */
        const size_t per = EM_RNG_BUFSZ / 8;
        ck_assert(memcmp(got, got + per, per * sizeof *got) != 0);
        ck_assert(memcmp(got + per, got + 2 * per, per * sizeof *got) != 0);
        free(got);
        free(want);
    }
}
END_TEST

START_TEST(chacha_refill_boundary_words)
{
    /* the last word of a buffer and the first of the next, one call at a time */
    em_rng rng;
    const size_t per = EM_RNG_BUFSZ / 8;
    uint64_t want[2 * (EM_RNG_BUFSZ / 8) + 1];
    reference_words(5, 0, 0, want, N_OF(want));
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){5}, 1), EM_OK);
    uint64_t x;
    for (size_t i = 0; i < per - 1; i++)
        ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    ck_assert(x == want[per - 1]);
    ck_assert_uint_eq(rng.pos, EM_RNG_BUFSZ);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    ck_assert(x == want[per]);
    ck_assert_uint_eq(rng.pos, 8);
    ck_assert_uint_eq(rng.words_drawn, per + 1);
}
END_TEST

START_TEST(chacha_stream_rollover)
{
    /* near the end of a 2^32-block stream the next buffer comes from the next
       nonce, counter 0 (never a reused block) */
    const uint32_t blocks = EM_RNG_BUFSZ / 64;
    em_rng rng;
    uint64_t x, want[1];
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){9}, 1), EM_OK);
    rng.block = UINT32_MAX - blocks; /* the last buffer that still fits */
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    reference_words(9, 0, UINT32_MAX - blocks, want, 1);
    ck_assert(x == want[0]);
    ck_assert_uint_eq(rng.nonce, 0);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){9}, 1), EM_OK);
    rng.block = UINT32_MAX - blocks + 1; /* does not fit: next stream */
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    reference_words(9, 1, 0, want, 1);
    ck_assert(x == want[0]);
    ck_assert_uint_eq(rng.nonce, 1);
    ck_assert_uint_eq(rng.block, blocks);
}
END_TEST

START_TEST(os_source)
{
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_OS, NULL, 0), EM_OK);
    ck_assert_int_eq(rng.kind, EM_RNG_OS);
    const size_t k = (EM_RNG_BUFSZ / 8) * 2 + 3; /* crosses two refills */
    uint64_t w[(EM_RNG_BUFSZ / 8) * 2 + 3];
    draw(&rng, w, k);
    ck_assert_uint_eq(rng.words_drawn, k);
    /* non-constant; a repeated 64-bit word among 131 would be a 2^-50 event */
    size_t distinct = 0;
    for (size_t i = 0; i < k; i++) {
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= w[j] == w[i];
        distinct += !dup;
    }
    ck_assert_uint_eq(distinct, k);
    /* handed-out bytes are wiped from the buffer */
    for (size_t i = 0; i < rng.pos; i++)
        ck_assert_msg(rng.buf[i] == 0, "buf[%zu] not wiped", i);
    /* two OS generators do not share a stream */
    em_rng r2;
    uint64_t w2[4];
    ck_assert_int_eq(em_rng_init(&r2, EM_RNG_OS, NULL, 0), EM_OK);
    draw(&r2, w2, 4);
    ck_assert(memcmp(w2, w, sizeof w2) != 0);
}
END_TEST

START_TEST(script_source)
{
    em_rng rng;
    const uint64_t words[] = {0, UINT64_MAX, 0x0123456789ABCDEFULL};
    uint64_t x = 7;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 3), EM_OK);
    ck_assert_int_eq(rng.kind, EM_RNG_SCRIPT);
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
        ck_assert(x == words[i]);
        ck_assert_uint_eq(rng.words_drawn, i + 1);
    }
    /* exhausted: an error every time, never a wrap-around, out untouched */
    x = 7;
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(em_rng_u64(&rng, &x), EM_ERR_RNG);
    ck_assert_uint_eq(x, 7);
    ck_assert_uint_eq(rng.words_drawn, 3);
    /* len counts: a length-2 view of the same array stops after 2 */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 2), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_ERR_RNG);
    /* NULL words: allowed only with len 0 (an empty script) */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 0), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_ERR_RNG);
    ck_assert_uint_eq(rng.words_drawn, 0);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, NULL, 5), EM_ERR_NULL);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 0), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_ERR_RNG);
    /* re-initialising resets position and count */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words + 1, 1), EM_OK);
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
    ck_assert(x == UINT64_MAX && rng.words_drawn == 1);
}
END_TEST

START_TEST(null_and_bad_kind)
{
    ck_assert_int_eq(em_rng_init(NULL, EM_RNG_OS, NULL, 0), EM_ERR_NULL);
    ck_assert_int_eq(em_rng_init(NULL, EM_RNG_CHACHA, &(uint64_t){1}, 1), EM_ERR_NULL);
    ck_assert_int_eq(em_rng_init(NULL, EM_RNG_SCRIPT, NULL, 0), EM_ERR_NULL);
    const uint64_t w[] = {1};
    ck_assert_int_eq(em_rng_init(NULL, EM_RNG_SCRIPT, w, 1), EM_ERR_NULL);
    em_rng rng;
    /* each kind takes its own count of words; no other kind exists */
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_OS, w, 1), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, NULL, 0), EM_ERR_DOMAIN);
    const uint64_t two[] = {1, 2};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, two, 2), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, NULL, 1), EM_ERR_NULL);
    ck_assert_int_eq(em_rng_init(&rng, (em_rng_kind)3, NULL, 0), EM_ERR_DOMAIN);
    uint64_t x = 5;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1), EM_OK);
    ck_assert_int_eq(em_rng_u64(NULL, &x), EM_ERR_RNG);
    ck_assert_int_eq(em_rng_u64(&rng, NULL), EM_ERR_RNG);
    rng.kind = 99; /* not a source: an error, not a value */
    ck_assert_int_eq(em_rng_u64(&rng, &x), EM_ERR_RNG);
    ck_assert_uint_eq(x, 5);
    ck_assert_uint_eq(rng.words_drawn, 0);
}
END_TEST

START_TEST(chacha_fill_equals_words)
{
    /* em_rng_fill after s single words, k words at once: libsodium's keystream words
       s .. s + k - 1 (the reference), and the same state after as k em_rng_u64 calls
       (the next single word is word s + k).  The (s, k) cover a run inside the buffer,
       its exact end, a refill, whole buffers written straight to out, and a tail. */
    const size_t per = EM_RNG_BUFSZ / 8;
    const size_t cases[][2] = {{0, 1}, {0, per}, {0, per + 1}, {3, 5}, {per - 1, 1},
                               {per - 1, 2}, {5, per - 5}, {5, 3 * per + 7}, {0, 4 * per},
                               {per, 2 * per}, {17, 1000}};
    enum { MAXW = 2000 };
    static uint64_t want[MAXW + 1], got[MAXW];
    reference_words(11, 0, 0, want, MAXW + 1);
    for (size_t c = 0; c < N_OF(cases); c++) {
        size_t s0 = cases[c][0], k = cases[c][1];
        ck_assert(s0 + k < MAXW);
        em_rng rng;
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){11}, 1), EM_OK);
        uint64_t x;
        for (size_t i = 0; i < s0; i++)
            ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
        ck_assert_int_eq(em_rng_fill(&rng, k, got), EM_OK);
        for (size_t i = 0; i < k; i++)
            EM_T_REQUIRE(got[i] == want[s0 + i], "s %zu k %zu: word %zu differs", s0, k, i);
        ck_assert_uint_eq(rng.words_drawn, s0 + k);
        ck_assert_int_eq(em_rng_u64(&rng, &x), EM_OK);
        EM_T_REQUIRE(x == want[s0 + k], "s %zu k %zu: the next word differs", s0, k);
        /* handed-out bytes of the buffer are wiped, as by em_rng_u64 */
        for (size_t i = 0; i < rng.pos; i++)
            EM_T_REQUIRE(rng.buf[i] == 0, "s %zu k %zu: buf[%zu] not wiped", s0, k, i);
    }
    /* at the end of a stream: the next nonce, as em_rng_u64 (whole buffers too) */
    const uint32_t blocks = EM_RNG_BUFSZ / 64;
    em_rng rng;
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){9}, 1), EM_OK);
    rng.block = UINT32_MAX - blocks + 1;
    ck_assert_int_eq(em_rng_fill(&rng, 2 * per, got), EM_OK);
    reference_words(9, 1, 0, want, 2 * per);
    ck_assert(memcmp(got, want, 2 * per * sizeof got[0]) == 0);
    ck_assert_uint_eq(rng.nonce, 1);
    ck_assert_uint_eq(rng.block, 2 * blocks);
}
END_TEST

START_TEST(fill_os_and_script)
{
    em_rng rng;
    const size_t per = EM_RNG_BUFSZ / 8;
    static uint64_t w[3 * (EM_RNG_BUFSZ / 8)];
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_OS, NULL, 0), EM_OK);
    ck_assert_int_eq(em_rng_fill(&rng, 3, w), EM_OK);
    ck_assert_int_eq(em_rng_fill(&rng, 3 * per - 3, w + 3), EM_OK);
    ck_assert_uint_eq(rng.words_drawn, 3 * per);
    size_t zeros = 0; /* a zero word among 192 uniform ones: a 2^-57 event */
    for (size_t i = 0; i < 3 * per; i++)
        zeros += w[i] == 0;
    ck_assert_uint_eq(zeros, 0);
    /* a script: its words in order; more than are left is an error */
    const uint64_t words[] = {4, 5, 6, 7};
    uint64_t out[4] = {0};
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_SCRIPT, words, 4), EM_OK);
    ck_assert_int_eq(em_rng_fill(&rng, 3, out), EM_OK);
    ck_assert(out[0] == 4 && out[1] == 5 && out[2] == 6);
    ck_assert_uint_eq(rng.words_drawn, 3);
    ck_assert_int_eq(em_rng_fill(&rng, 2, out), EM_ERR_RNG);
    ck_assert_uint_eq(rng.words_drawn, 3);
    ck_assert_int_eq(em_rng_fill(&rng, 1, out), EM_OK);
    ck_assert(out[0] == 7);
    /* NULL, and a source of no kind */
    ck_assert_int_eq(em_rng_fill(NULL, 1, out), EM_ERR_RNG);
    ck_assert_int_eq(em_rng_fill(&rng, 1, NULL), EM_ERR_RNG);
    ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1), EM_OK);
    rng.kind = 99;
    ck_assert_int_eq(em_rng_fill(&rng, 1, out), EM_ERR_RNG);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("rng");
    tcase_add_test(tc, chacha_deterministic);
    tcase_add_test(tc, chacha_matches_rfc8439_stream);
    tcase_add_test(tc, chacha_refill_boundary_words);
    tcase_add_test(tc, chacha_stream_rollover);
    tcase_add_test(tc, os_source);
    tcase_add_test(tc, script_source);
    tcase_add_test(tc, null_and_bad_kind);
    tcase_add_test(tc, chacha_fill_equals_words);
    tcase_add_test(tc, fill_os_and_script);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
