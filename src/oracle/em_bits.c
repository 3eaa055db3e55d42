/* em_bits.c: fair bits for the exact samplers (em_bits.h). */
#include "oracle/em_bits.h"

#include <string.h>

void em_bits_init_rng(em_bits *b, em_rng *rng)
{
    memset(b, 0, sizeof *b);
    b->kind = EM_BITS_RNG;
    b->rng = rng;
}

void em_bits_init_script(em_bits *b, const unsigned char *bits, size_t len)
{
    memset(b, 0, sizeof *b);
    b->kind = EM_BITS_SCRIPT;
    b->script = bits;
    b->script_len = len;
}

int em_bits_get(em_bits *b, unsigned nbits, uint64_t *out)
{
    if (!b || !out)
        return EM_ERR_NULL;
    if (nbits < 1 || nbits > 64)
        return EM_ERR_DOMAIN;
    uint64_t r = 0;
    if (b->kind == EM_BITS_SCRIPT) {
        if (b->used + nbits > b->script_len) {
            b->wanted = b->used + nbits;
            return EM_ERR_RNG;
        }
        for (unsigned k = 0; k < nbits; k++)
            r = (r << 1) | (b->script[b->used + k] & 1u);
        b->used += nbits;
        *out = r;
        return EM_OK;
    }
    unsigned need = nbits;
    while (need > 0) {
        if (b->avail == 0) {
            if (!b->rng || em_rng_u64(b->rng, &b->buf) != EM_OK)
                return EM_ERR_RNG;
            b->avail = 64;
        }
        unsigned take = need < b->avail ? need : b->avail;
        if (take == 64) {
            r = b->buf;
            b->buf = 0;
        } else {
            r = (r << take) | (b->buf >> (64 - take));
            b->buf <<= take;
        }
        b->avail -= take;
        need -= take;
    }
    b->used += nbits;
    *out = r;
    return EM_OK;
}

int em_bits_uniform_below(em_bits *b, uint64_t m, uint64_t *out)
{
    if (!b || !out)
        return EM_ERR_NULL;
    if (m == 0)
        return EM_ERR_DOMAIN;
    if (m == 1) {
        *out = 0;
        return EM_OK;
    }
    unsigned nb = 1;
    while (nb < 64 && ((m - 1) >> nb) != 0)
        nb++;
    /* each try succeeds with probability above 1/2: 2000 failures in a row (probability
     * below 2^-2000) mean a broken bit source, not bad luck */
    for (int tries = 0; tries < 2000; tries++) {
        uint64_t x;
        int st = em_bits_get(b, nb, &x);
        if (st != EM_OK)
            return st;
        if (x < m) {
            *out = x;
            return EM_OK;
        }
    }
    return EM_ERR_RNG;
}

int em_bits_extend(em_bits *b, unsigned step, unsigned max, uint64_t *a, unsigned *k)
{
    unsigned m = *k + step > max ? max - *k : step;
    uint64_t more;
    int st = em_bits_get(b, m, &more);
    if (st != EM_OK)
        return st;
    *a = (*a << m) | more;
    *k += m;
    return EM_OK;
}
