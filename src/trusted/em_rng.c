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

#include "expmech.h"

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

/* Out of line: the per-word path of em_rng_u64 then needs no saved registers. */
__attribute__((noinline, cold)) static int refill(em_rng *rng)
{
    if (rng->kind == EM_RNG_OS)
        return fill_os(rng->buf, sizeof rng->buf);
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
    memset(rng->buf, 0, sizeof rng->buf);
    if (crypto_stream_chacha20_ietf_xor_ic(rng->buf, rng->buf, sizeof rng->buf, nonce,
                                           rng->block, rng->key) != 0)
        return EM_ERR_RNG;
    rng->block += blocks;
    return EM_OK;
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

int em_rng_init_os(em_rng *rng)
{
    if (rng == NULL)
        return EM_ERR_NULL;
    memset(rng, 0, sizeof *rng);
    rng->kind = EM_RNG_OS;
    rng->pos = sizeof rng->buf; /* empty: the first draw refills */
    return EM_OK;
}

int em_rng_init_chacha(em_rng *rng, uint64_t seed)
{
    if (rng == NULL)
        return EM_ERR_NULL;
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

int em_rng_init_script(em_rng *rng, const uint64_t *words, size_t len)
{
    if (rng == NULL || (words == NULL && len > 0))
        return EM_ERR_NULL;
    memset(rng, 0, sizeof *rng);
    rng->kind = EM_RNG_SCRIPT;
    rng->script = words;
    rng->script_len = len;
    return EM_OK;
}
