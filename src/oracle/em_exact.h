/* em_exact.h: the exact sampler of the exponential mechanism (lazy inverse CDF).
 *
 * For exact rational utilities (or -inf: excluded), epsilon and delta, as the oracle
 * (em_oracle.h) takes them, em_exact_sample outputs r with probability exactly
 * P(r) = exp(c u_r) / sum_j exp(c u_j), given independent fair bits: no approximation
 * enters the decision.  Method (spec/ExactSampling.md):
 *   - the cumulative probabilities F(i) = (w_0 + ... + w_{i-1}) / Z are bounded by
 *     fixed-point words of scale 2^63, from certified integer bounds of exp
 *     (oracle/em_wbound.h) on double enclosures of the inputs, or, when those are too
 *     wide, from MPFR intervals with directed rounding;
 *   - the uniform U in [0, 1) is drawn lazily, a few bits at a time, from a bit source;
 *     after k bits U lies in the dyadic interval [a, a + 2^-k);
 *   - r is returned only when that interval certainly lies inside cell r,
 *     [F(r), F(r+1)): the integer decision em_exact_select (src/core/, proven by WP);
 *   - past 63 bits the same decision is made in MPFR at a precision that grows with the
 *     number of bits drawn (Ziv-style), so every draw terminates with probability 1; the
 *     MPFR state is created by the first such draw.
 * The output is a function of the bits only (not of cached state), so enumerating all bit
 * strings gives its exact distribution (tests/test_exact.c).
 */
#ifndef EM_EXACT_H
#define EM_EXACT_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "em_base.h"
#include "oracle/em_bits.h"
#include "oracle/em_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- exact sampler */

typedef struct em_exact em_exact;

/* The integer decision (em_exact_select's signature); replaceable for tests only. */
typedef size_t (*em_exact_select_fn)(size_t n, const uint64_t *lo, const uint64_t *hi,
                                     uint64_t a, uint64_t w);

/* Prepare the sampler of the finite problem P (em_problem.h).  The utilities are copied
 * when given as rationals; through P's reader they are never all held as rationals: 17
 * bytes per candidate (the 63-bit words and the classes) besides the reader's storage
 * (which must stay valid until em_exact_free), and the bounds of higher precisions are
 * recomputed block by block from checkpoints (two exponentials per candidate per
 * precision level, the same draws).  Given as doubles only (P->ud), em_exact_new_d.
 * Errors (with a message in err): EM_ERR_NULL, EM_ERR_EMPTY, EM_ERR_TOO_MANY,
 * EM_ERR_EPSILON, EM_ERR_SENSITIVITY, EM_ERR_ALL_EXCLUDED, EM_ERR_NOMEM. */
int em_exact_new(const em_problem *P, em_exact **out, em_error *err);

/* The same for the real numbers that doubles denote (P->ud, every double an exact dyadic
 * rational; P built by em_problem_doubles): u[i] = -inf or excluded[i] excludes candidate
 * i (u[i] is not read then).  u is copied.  The bounds of the fast path come from
 * certified integer bounds of exp (oracle/em_wbound.h), no MPFR; MPFR is set up only on
 * the first draw that needs more than 63 bits (or here, when those bounds are too wide).
 * Errors: those of em_exact_new, EM_ERR_NAN, EM_ERR_POS_INF, and EM_ERR_DOMAIN (epsilon or
 * the sensitivity not a double). */
int em_exact_new_d(const em_problem *P, em_exact **out, em_error *err);

/* One draw of the problem P given as doubles (as em_exact_new_d takes it) without keeping
 * a sampler: the same output, from the same bits, as em_exact_new_d + em_exact_sample +
 * em_exact_free, without the sampler's arrays (P->ud is read in place, never copied).  The
 * first pass over the candidates, chunk by chunk, forms the sums and keeps the lower bounds
 * of the chunks that have a nonzero one (at most 16 bytes a candidate, only those chunks
 * written); the first scan forms their words, and each chunk is decided by em_exact_select;
 * the chunks whose lower bounds are all 0 are skipped (no cell there can be certain), so a
 * scan's time depends on the utilities, not on where U falls.  When the cheap bounds are
 * too wide, or the 63-bit words leave the draw undecided, the sampler is built after all
 * and finishes it.  Errors: those of em_exact_new_d and em_exact_sample. */
int em_exact_sample_d(const em_problem *P, em_bits *b, size_t *out, em_error *err);

/* One exact draw.  Errors: EM_ERR_NULL, EM_ERR_RNG (the bit source failed or ran out),
 * EM_ERR_DOMAIN (more than EM_EXACT_MAX_BITS bits for one draw: probability below
 * 2^-(2^20 - 64) times n), EM_ERR_NOMEM. */
int em_exact_sample(em_exact *s, em_bits *b, size_t *out);

#define EM_EXACT_MAX_BITS (1L << 20)

/* Test hook: replace the integer decision (NULL restores em_exact_select). */
void em_exact_set_select(em_exact *s, em_exact_select_fn f);

/* Counters since em_exact_new: draws, bits drawn, draws that needed more than 63 bits,
 * precision levels computed, the largest precision (bits). */
typedef struct em_exact_stats {
    uint64_t draws, bits, slow, scans;
    int levels;
    long maxprec;
} em_exact_stats;
void em_exact_get_stats(const em_exact *s, em_exact_stats *st);

/* Bits of the first chunk (default bitlen(n) + 2, at most 63). */
unsigned em_exact_first_chunk(const em_exact *s);

/* Set the first chunk to k bits (1..63; EM_ERR_DOMAIN otherwise).  Exactness does not
 * depend on it.  k = 63 makes almost every draw one word and one scan (the timing
 * mitigation of spec/ExactSampling.md), at the cost of more random bits. */
int em_exact_set_first_chunk(em_exact *s, unsigned k);

/* The fixed-point bounds of scale 2^63 used by the integer decision (n + 1 each). */
const uint64_t *em_exact_lo64(const em_exact *s);
const uint64_t *em_exact_hi64(const em_exact *s);

void em_exact_free(em_exact *s);

#ifdef __cplusplus
}
#endif
#endif
