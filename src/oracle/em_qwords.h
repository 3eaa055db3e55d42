/* em_qwords.h: a finite problem's utilities copied for a reader that outlives the problem,
 * as two words each (numerator, denominator) when every one fits.
 *
 * em_q_array_copy keeps an mpq_t per candidate: two limb allocations each, the copy and
 * the clearing a large part of building an oracle over 10^6 decimals.  Utilities that fit
 * a long over an unsigned long (every decimal of up to 18 digits) are kept as those two
 * words instead, copied exactly (no canonicalisation: the reader gives back the very
 * numerator and denominator it was given); the others as rationals, as before. */
#ifndef EM_ORACLE_QWORDS_H
#define EM_ORACLE_QWORDS_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "oracle/em_problem.h"

typedef struct em_qcopy {
    int64_t *w;   /* numerator and denominator of u_i at w[2i], w[2i+1]; or NULL */
    mpq_t *q;     /* otherwise the rationals (em_q_array_copy) */
} em_qcopy;

/* A copy of P's utilities (an excluded candidate's is not read, and reads as 0) and its
 * reader into *src.  Returns 0, or EM_ERR_NOMEM with nothing to free. */
int em_qcopy_new(const em_problem *P, em_qcopy *c, em_utility_reader *src);

/* Frees the copy of n utilities (a zeroed em_qcopy is harmless). */
void em_qcopy_free(em_qcopy *c, size_t n);

#endif
