/* em_pf_law.h: permute-and-flip's exact law at scale, correctly rounded.
 *
 * P(r) = p_r I_r,  I_r = integral_0^1 prod_{s != r, not excluded} (1 - p_s x) dx,
 * p_s = exp(t_s), t_s = c (u_s - u*) <= 0 (c = eps/(2 delta), or eps/delta monotone).
 * One shared product h(x) = (1 - x)^(m-1) prod_{others} (1 - p_s x) (m modes, p = 1) gives
 * every candidate: a mode has I = integral h, another candidate
 * I_r = integral (1 - x) h(x) / (1 - p_r x) = sum_k p_r^k M_k + [0, p_r^(K+1) R_(K+1)]
 * with the moments M_k = integral x^k (1 - x) h and R_k = integral x^k h (all terms >= 0).
 * The moments come from a certified quadrature (Clenshaw-Curtis on subintervals, error
 * bounded through Cauchy's estimate on discs where |h| is bounded exactly); the few
 * candidates whose series would be long are integrated directly.  Every quantity is an
 * interval in MPFR with directed rounding; each value is correctly rounded by em_round
 * (num/em_round.h), which raises the precision only where a rounding is not decided yet,
 * the shared level being rebuilt only then.  Probabilities beyond MPFR's exponent range
 * are decided from their logarithms, log P = t_r + log I_r (em_round_exp), as the
 * exponential mechanism's oracle does (em_oracle.h's flags).  Error analysis:
 * spec/PermuteAndFlip.md, "Exact pmf at scale".  Cost: O(n) per precision level (one
 * exponential and a few multiplications per candidate) plus a few thousand evaluations of h.
 */
#ifndef EM_PF_LAW_H
#define EM_PF_LAW_H

#include <stddef.h>
#include <gmp.h>
#include <mpfr.h>

#include "em_base.h"
#include "oracle/em_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct em_pfl em_pfl;

/* The law of the finite problem P (its coefficient c; utilities given as an array are
 * copied, a reader's context must outlive the object).  Errors, with a message in err:
 * those of em_problem_check, EM_ERR_ALL_EXCLUDED, EM_ERR_NOMEM. */
int em_pfl_new(const em_problem *P, em_pfl **out, em_error *err);
void em_pfl_free(em_pfl *L);

/* lo[i] <= P(i) <= hi[i] (lo, hi initialised by the caller, at any precision), the
 * intervals about 2^-prec wide relatively.  A probability below MPFR's range is [0, tiny].
 * EM_OK or EM_ERR_NOMEM. */
int em_pfl_bounds(em_pfl *L, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi);

/* llo[i] <= log P(i) <= lhi[i] at about prec bits, at any magnitude (-inf where excluded;
 * a probability below MPFR's range included): the callee sets each pair's precision, which
 * for another candidate carries its exponent's integer part.  EM_OK or EM_ERR_NOMEM. */
int em_pfl_log_bounds(em_pfl *L, mpfr_prec_t prec, mpfr_t *llo, mpfr_t *lhi);

/* What em_pfl_round fills; any pointer may be NULL (not computed).  Strings are malloc'd
 * (the caller frees); flags are em_oracle.h's EM_OF_FROM_LOG / EM_OF_LOG_FROM_LOG. */
typedef struct em_pfl_out {
    char **dec;      /* P(i) to `digits` significant digits: "0" excluded, "1" the only
                        candidate, else the oracle's style (a value below 1 that rounds to 1
                        reads "1.00..."; the caller prints nines) */
    char **log;      /* log P(i) likewise ("-inf", "0"); NULL where not decided */
    double *pd, *ld; /* correctly rounded doubles (ld NaN where not decided) */
    unsigned *flags;
} em_pfl_out;

/* Every candidate correctly rounded (digits in [1, EM_ROUND_MAX_DIGITS], or 0: doubles
 * only).  P is always decided (EM_ERR_UNDECIDED past 2^20 bits, which no known input
 * reaches); a log-probability not decided there is left NULL / NaN.  EM_OK,
 * EM_ERR_DOMAIN (digits), EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
int em_pfl_round(em_pfl *L, int digits, em_pfl_out *out);

#ifdef __cplusplus
}
#endif
#endif
