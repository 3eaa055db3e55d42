/* em_usrc.h: exact utilities read one at a time.
 *
 * The oracle (em_oracle.h) and the exact sampler (em_exact.h) take the utilities either as
 * an array of n GMP rationals or through this reader, so that a caller holding them in a
 * compact form (src/io/em_scenario.h: an int64 mantissa and an exponent, about 10 bytes
 * each instead of about 100) never builds n rationals: at 10^7 candidates that array alone
 * is a gigabyte.  get(ctx, i, q) sets q to u_i exactly (canonical); it is not called for
 * an excluded candidate, and must give the same value every time.
 */
#ifndef EM_USRC_H
#define EM_USRC_H

#include <stddef.h>
#include <gmp.h>

typedef struct em_usrc {
    void (*get)(const void *ctx, size_t i, mpq_t q);
    const void *ctx;
} em_usrc;

#endif
