/* em_pf.h: permute-and-flip (McKenna & Sheldon, NeurIPS 2020): exact sampler and exact pmf.
 *
 * Visit the candidates in a uniformly random order; accept candidate r with probability
 * p_r = exp(c (u_r - u*)), c = eps/(2 delta) (standard) or eps/delta (monotone), u* the
 * largest utility; output the first accepted.  A mode (p = 1) is always accepted, so one
 * pass suffices; an excluded candidate (u = -inf) has p = 0.  Exact rational inputs as the
 * oracle (em_oracle.h).
 *
 * Sampler: the order is drawn lazily (the next candidate uniform among those not yet
 * visited: em_bits_uniform_below, rejection, never modulo), and each coin
 * Bernoulli(p_r) is decided exactly by comparing a lazily drawn uniform with MPFR interval
 * bounds of p_r (the same proven decision em_exact_select, on two cells).
 *
 * pmf: P(r) = p_r * integral_0^1 prod_{j != r} (1 - p_j x) dx, correctly rounded by
 * em_pf_pmf through the law at scale (em_pf_law.h: one shared product, a certified
 * quadrature, O(n) per precision level, logarithms beyond MPFR's range).  The brute force
 * em_pf_pmf_brute_bounds expands it in the Bernstein basis with the elementary symmetric
 * polynomials (O(n^2) operations, at most EM_PF_PMF_MAX_N candidates): the tests'
 * independent cross-check and the benchmark's baseline.  Details: spec/PermuteAndFlip.md.
 */
#ifndef EM_PF_H
#define EM_PF_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>

#include "em_base.h"
#include "oracle/em_exact.h"
#include "oracle/em_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_PF_PMF_MAX_N 4096

typedef struct em_pf em_pf;

/* The uniform integer draw (em_bits_uniform_below's signature); replaceable for tests. */
typedef int (*em_pf_uniform_fn)(em_bits *b, uint64_t m, uint64_t *out);

/* The sampler of the finite problem P (its exponents are copied).  Errors as
 * em_exact_new. */
int em_pf_new(const em_problem *P, em_pf **out, em_error *err);

/* One exact draw.  Errors: EM_ERR_NULL, EM_ERR_RNG (bit source failed or ran out),
 * EM_ERR_DOMAIN (more than EM_EXACT_MAX_BITS bits for one coin), EM_ERR_NOMEM. */
int em_pf_sample(em_pf *s, em_bits *b, size_t *out);

/* Test hook: replace the uniform integer draw (NULL restores em_bits_uniform_below). */
void em_pf_set_uniform(em_pf *s, em_pf_uniform_fn f);

void em_pf_free(em_pf *s);

/* Exact pmf as intervals: lo[i] <= P(i) <= hi[i], about 2^-prec wide relatively (lo, hi
 * initialised by the caller, any precision; em_pfl_bounds, any n; a probability below
 * MPFR's range is [0, tiny]).  Errors: those of em_pfl_new. */
int em_pf_pmf_bounds(const em_problem *P, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi);

/* The same by the brute force, computed at working precision prec.  Errors: as
 * em_exact_new, and EM_ERR_TOO_MANY when n > EM_PF_PMF_MAX_N. */
int em_pf_pmf_brute_bounds(const em_problem *P, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi);

/* The pmf's bounds kept at the highest precision asked so far (em_pfl_bounds: one O(n)
 * pass per precision), for quantities of the pmf rounded by em_round at rising precision.
 * P must outlive it.  Errors: those of em_pfl_new. */
typedef struct em_pf_bounds em_pf_bounds;
int em_pf_bounds_new(const em_problem *P, em_pf_bounds **out);
/* *lo, *hi: the n bounds at prec bits at least, valid until the next call or the free. */
int em_pf_bounds_at(em_pf_bounds *B, mpfr_prec_t prec, mpfr_t **lo, mpfr_t **hi);
/* *llo, *hi: the n log-probabilities' bounds at prec bits at least (em_pfl_log_bounds: any
 * magnitude), valid until the next call or the free. */
int em_pf_bounds_logs_at(em_pf_bounds *B, mpfr_prec_t prec, mpfr_t **llo, mpfr_t **lhi);
void em_pf_bounds_free(em_pf_bounds *B);

/* The pmf correctly rounded to doubles (p) and, if digits > 0 and dec is not NULL, to
 * `digits` significant decimals (malloc'd strings in the oracle's style, caller frees;
 * none left on error): em_pfl_round, any n.  P(i) = 0 exactly only for an excluded
 * candidate; a probability below MPFR's exponent range gets the double 0 and its decimal
 * from its logarithm; one no precision up to 2^20 bits decides is EM_ERR_UNDECIDED. */
int em_pf_pmf(const em_problem *P, double *p, int digits, char **dec);

#ifdef __cplusplus
}
#endif
#endif
