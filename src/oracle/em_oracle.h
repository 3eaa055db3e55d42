/* em_oracle.h: exact probabilities of the exponential mechanism, correctly rounded.
 *
 * For exact rational utilities u_i (or -inf: excluded), epsilon and delta:
 *   P_i = exp(c u_i) / sum_j exp(c u_j),  c = eps/(2 delta) (standard) or eps/delta (monotone),
 * printed correctly rounded (round-to-nearest) to K significant digits, together with
 * log P_i, and both also correctly rounded to double.  The method (interval bounds with
 * directed rounding, Ziv's strategy) and the output conventions are documented in
 * src/oracle/README.md.  Summary of the conventions:
 *   - "0" / "1" (probability) and "-inf" / "0" (log) only when exactly so: an excluded
 *     candidate, or the only candidate that is not excluded;
 *   - a probability strictly below 1 whose correct rounding is 1 prints as K nines
 *     ("0.999...9", flag EM_OF_NEAR_ONE): the largest K-digit decimal below 1; its
 *     log-probability (e.g. -6.1e-933) carries the exact distance;
 *   - numbers print like C's "%#.Kg": K significant digits, trailing zeros kept,
 *     fixed notation for decimal exponents -5..K-1, else d.ddd...e-3247; the exponent can
 *     have any number of digits (a probability beyond MPFR's exponent range is obtained
 *     from its logarithm: flag EM_OF_FROM_LOG).
 */
#ifndef EM_ORACLE_H
#define EM_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "em_base.h"
#include "num/em_round.h"
#include "oracle/em_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* flags of one candidate's result */
#define EM_OF_ZERO 1u          /* excluded: P = 0 exactly */
#define EM_OF_ONE 2u           /* the only candidate: P = 1 exactly */
#define EM_OF_RATIONAL 4u      /* P = 1/m exactly (all candidates tied) */
#define EM_OF_NEAR_ONE 8u      /* P < 1 rounds to 1: printed as K nines */
#define EM_OF_FROM_LOG 16u     /* P below MPFR's exponent range: decimal from log P */
#define EM_OF_LOG_FROM_LOG 32u /* |log P| below MPFR's range: decimal from log |log P| */

typedef struct em_oracle em_oracle;

typedef struct em_oracle_cand {
    const char *prob;     /* valid until the next em_oracle_get on the same oracle */
    const char *logprob;
    double prob_d;        /* P correctly rounded to double (0 when P < 2^-1075) */
    double logprob_d;     /* log P correctly rounded to double (-inf when excluded) */
    unsigned flags;
    long prec;            /* working precision (bits) at which the result was decided */
} em_oracle_cand;

/* Prepare the oracle for the finite problem P (em_problem.h), whose coefficient it takes,
 * with results of K = digits significant digits in [1, EM_ROUND_MAX_DIGITS].  The
 * utilities are copied when given as an array; through P's reader they are read when
 * needed, never all held as rationals: about 21 bytes per candidate (classes, and exp
 * bounds kept at the first precision; one more when the exponent tables of em_oracle_*.c
 * are used) besides the reader's storage, which must stay valid until em_oracle_free.
 * Computes the normaliser lazily.  Errors (with a message in err): EM_ERR_NULL,
 * EM_ERR_EMPTY, EM_ERR_TOO_MANY, EM_ERR_EPSILON / EM_ERR_SENSITIVITY,
 * EM_ERR_ALL_EXCLUDED, EM_ERR_DOMAIN (digits), EM_ERR_NOMEM. */
int em_oracle_new(const em_problem *P, int digits, em_oracle **out, em_error *err);

/* Candidate i's correctly rounded results.  Errors: EM_ERR_DOMAIN (i >= n),
 * EM_ERR_UNDECIDED (em_cont.h: the precision limit of 2^24 bits reached, which no known
 * input does: a result the interval levels cannot decide by 8 times the first precision
 * goes to the exact comparison of em_cont, which terminates), EM_ERR_NOMEM. */
int em_oracle_get(em_oracle *o, size_t i, em_oracle_cand *c);

/* Largest precision (bits) used so far, and the number of normaliser passes. */
long em_oracle_max_prec(const em_oracle *o);
int em_oracle_passes(const em_oracle *o);

void em_oracle_free(em_oracle *o);

/* Convenience: all candidates' doubles (either array may be NULL). */
int em_oracle_doubles(const em_problem *P, double *p, double *logp, em_error *err);


#ifdef __cplusplus
}
#endif
#endif
