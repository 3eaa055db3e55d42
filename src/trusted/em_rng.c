/* Random sources behind em_rng_u64 (contract in src/include/expmech.h).
   Trusted, not proven: proofs/TRUSTED.md, entry "random source".
   - EM_RNG_OS: getrandom(2), the kernel CSPRNG; never seeded by us.
   - EM_RNG_CHACHA: libsodium's ChaCha20-IETF keystream (RFC 8439) under a
     32-byte key derived from the seed, so a seed names one stream on every
     machine.  Used only when a seed is given explicitly.
   - EM_RNG_SCRIPT: the caller's words, in order; for exhaustive and boundary
     tests (a script that runs out is an error, never a wrap-around). */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <sodium.h>

#include "em_base.h"

static int fill_os(unsigned char *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = getrandom(buf + got, len - got, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return EM_ERR_RNG;
        }
        got += (size_t)r;
    }
    return EM_OK;
}

/* The next sizeof rng->buf bytes of the stream into dst (rng->buf, or a caller's
   buffer that em_rng_fill fills without the detour through rng->buf). */
static int generate(em_rng *rng, unsigned char *dst)
{
    if (rng->kind == EM_RNG_OS)
        return fill_os(dst, sizeof rng->buf);
    /* ChaCha20-IETF: 96-bit nonce (the stream number), 32-bit block counter. */
    unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};
    for (int i = 0; i < 8; i++)
        nonce[i] = (unsigned char)(rng->nonce >> (8 * i));
    const uint32_t blocks = sizeof rng->buf / 64;
    if (rng->block > UINT32_MAX - blocks) {
        rng->nonce++; /* next stream: 2^32 blocks (256 GiB) per stream */
        rng->block = 0;
        for (int i = 0; i < 8; i++)
            nonce[i] = (unsigned char)(rng->nonce >> (8 * i));
    }
    memset(dst, 0, sizeof rng->buf);
    if (crypto_stream_chacha20_ietf_xor_ic(dst, dst, sizeof rng->buf, nonce,
                                           rng->block, rng->key) != 0)
        return EM_ERR_RNG;
    rng->block += blocks;
    return EM_OK;
}

/* Out of line: the per-word path of em_rng_u64 then needs no saved registers. */
__attribute__((noinline, cold)) static int refill(em_rng *rng)
{
    return generate(rng, rng->buf);
}

int em_rng_u64(em_rng *rng, uint64_t *out)
{
    if (rng == NULL || out == NULL)
        return EM_ERR_RNG;
    if (rng->kind == EM_RNG_SCRIPT) {
        if (rng->script == NULL || rng->script_pos >= rng->script_len)
            return EM_ERR_RNG;
        *out = rng->script[rng->script_pos++];
        rng->words_drawn++;
        return EM_OK;
    }
    if (rng->kind != EM_RNG_OS && rng->kind != EM_RNG_CHACHA)
        return EM_ERR_RNG;
    if (rng->pos + 8 > sizeof rng->buf) {
        if (refill(rng) != EM_OK)
            return EM_ERR_RNG;
        rng->pos = 0;
    }
    /* One 8-byte load, read as little-endian on every host (le64toh is the
       identity on x86-64), so a seed names the same words everywhere. */
    uint64_t x;
    memcpy(&x, rng->buf + rng->pos, sizeof x);
    x = le64toh(x);
    /* Handed-out bytes are wiped (one 8-byte store) so that a later memory
       disclosure cannot reveal past draws of the OS source. */
    static const uint64_t zero = 0;
    memcpy(rng->buf + rng->pos, &zero, sizeof zero);
    rng->pos += 8;
    rng->words_drawn++;
    *out = x;
    return EM_OK;
}

int em_rng_fill(em_rng *rng, size_t k, uint64_t *out)
{
    if (rng == NULL || (out == NULL && k > 0))
        return EM_ERR_RNG;
    if (rng->kind == EM_RNG_SCRIPT) {
        if (rng->script == NULL || k > rng->script_len - rng->script_pos)
            return EM_ERR_RNG;
        memcpy(out, rng->script + rng->script_pos, k * sizeof *out);
        rng->script_pos += k;
        rng->words_drawn += k;
        return EM_OK;
    }
    if (rng->kind != EM_RNG_OS && rng->kind != EM_RNG_CHACHA)
        return EM_ERR_RNG;
    /* The same buffer, positions and refills as k calls of em_rng_u64, one run of
       the buffer at a time: the same words, the same state after. */
    size_t done = 0;
    const size_t per_buf = sizeof rng->buf / 8;
    while (done < k) {
        /* An empty buffer and a whole buffer's worth still wanted: the next
           buffer's bytes go straight to out, as little-endian words (the bytes a
           refill would have put in rng->buf and em_rng_u64 would have handed out). */
        if (rng->pos + 8 > sizeof rng->buf && k - done >= per_buf) {
            unsigned char *dst = (unsigned char *)(out + done);
            if (generate(rng, dst) != EM_OK)
                return EM_ERR_RNG;
            for (size_t j = 0; j < per_buf; j++)
                out[done + j] = le64toh(out[done + j]);
            rng->words_drawn += per_buf;
            done += per_buf;
            continue;
        }
        if (rng->pos + 8 > sizeof rng->buf) {
            if (refill(rng) != EM_OK)
                return EM_ERR_RNG;
            rng->pos = 0;
        }
        size_t take = (sizeof rng->buf - rng->pos) / 8;
        if (take > k - done)
            take = k - done;
        for (size_t j = 0; j < take; j++) {
            uint64_t x;
            memcpy(&x, rng->buf + rng->pos + 8 * j, sizeof x);
            out[done + j] = le64toh(x);
        }
        /* handed-out bytes are wiped, as em_rng_u64 does */
        memset(rng->buf + rng->pos, 0, 8 * take);
        rng->pos += 8 * take;
        rng->words_drawn += take;
        done += take;
    }
    return EM_OK;
}

static int rng_init_os(em_rng *rng)
{
    memset(rng, 0, sizeof *rng);
    rng->kind = EM_RNG_OS;
    rng->pos = sizeof rng->buf; /* empty: the first draw refills */
    return EM_OK;
}

static int rng_init_chacha(em_rng *rng, uint64_t seed)
{
    if (sodium_init() < 0)
        return EM_ERR_RNG;
    memset(rng, 0, sizeof *rng);
    rng->kind = EM_RNG_CHACHA;
    /* key = BLAKE2b-256("expmech-chacha20-seed-v1" || seed, little-endian). */
    unsigned char msg[24 + 8];
    memcpy(msg, "expmech-chacha20-seed-v1", 24);
    for (int i = 0; i < 8; i++)
        msg[24 + i] = (unsigned char)(seed >> (8 * i));
    if (crypto_generichash(rng->key, sizeof rng->key, msg, sizeof msg, NULL, 0) != 0)
        return EM_ERR_RNG;
    rng->pos = sizeof rng->buf;
    return EM_OK;
}

static int rng_init_script(em_rng *rng, const uint64_t *words, size_t len)
{
    memset(rng, 0, sizeof *rng);
    rng->kind = EM_RNG_SCRIPT;
    rng->script = words;
    rng->script_len = len;
    return EM_OK;
}

int em_rng_init(em_rng *rng, em_rng_kind kind, const uint64_t *words, size_t len)
{
    if (rng == NULL || (words == NULL && len > 0))
        return EM_ERR_NULL;
    switch (kind) {
    case EM_RNG_OS:
        return len == 0 ? rng_init_os(rng) : EM_ERR_DOMAIN;
    case EM_RNG_CHACHA:
        return len == 1 ? rng_init_chacha(rng, words[0]) : EM_ERR_DOMAIN;
    case EM_RNG_SCRIPT:
        return rng_init_script(rng, words, len);
    }
    return EM_ERR_DOMAIN;
}
