/* em_bits.h: fair bits for the exact samplers, from the random source (em_base.h) or from
 * a script (one bit per byte: the tests enumerate every bit string), and a uniform integer
 * below m from them by rejection. */
#ifndef EM_ORACLE_BITS_H
#define EM_ORACLE_BITS_H

#include <stddef.h>
#include <stdint.h>

#include "em_base.h"

enum { EM_BITS_RNG = 0, EM_BITS_SCRIPT = 1 };

typedef struct em_bits {
    int kind;
    em_rng *rng;                  /* EM_BITS_RNG: 64-bit words, handed out MSB first */
    uint64_t buf;
    unsigned avail;
    const unsigned char *script;  /* EM_BITS_SCRIPT: one bit (0 or 1) per byte */
    size_t script_len;
    uint64_t used;                /* bits handed out so far */
    uint64_t wanted;              /* a script ran out: bits it would have needed */
} em_bits;

void em_bits_init_rng(em_bits *b, em_rng *rng);
void em_bits_init_script(em_bits *b, const unsigned char *bits, size_t len);

/* *out = the next nbits bits (1 <= nbits <= 64), the first drawn most significant.
 * EM_ERR_RNG when the random source fails or the script runs out (then b->wanted is
 * the script length that would have sufficed and nothing is consumed);
 * EM_ERR_DOMAIN for nbits outside [1, 64]. */
int em_bits_get(em_bits *b, unsigned nbits, uint64_t *out);

/* The k bits a (k < max <= 64) extended by min(step, max - k) more: EM_OK, or the error of
 * em_bits_get. */
int em_bits_extend(em_bits *b, unsigned step, unsigned max, uint64_t *a, unsigned *k);

/* *out uniform on [0, m) from the bit source: b = bitlen(m - 1) bits per try, rejected
 * when >= m (never modulo); m == 1 draws nothing.  Errors: EM_ERR_DOMAIN (m == 0),
 * EM_ERR_RNG (source failed or ran out). */
int em_bits_uniform_below(em_bits *b, uint64_t m, uint64_t *out);

#endif
