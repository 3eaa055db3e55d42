/* em_accuracy.h: the utility report of permute-and-flip from its exact pmf, and the
 * exponential mechanism's accuracy theorem, correctly rounded (em_law.h's em_utility over
 * them: its loss tails and bounds).
 *
 * Neither has an exact comparison to fall back on: PF's pmf is a polynomial in the
 * exp(t_j) with exponentially many terms, and the theorem's values are ln and exp of
 * rationals.  So em_round (num/em_round.h) runs with a comparison that refines the interval
 * bounds up to EM_ROUND_MAX_PREC bits (Ziv's strategy, as em_pf_pmf decides PF's
 * probabilities): a value that is exactly a rounding boundary is EM_ERR_UNDECIDED, never a
 * guess.  The values that are rational (ties, a single candidate, no tail) are recognised
 * beforehand and rounded exactly.
 */
#ifndef EM_ACCURACY_H
#define EM_ACCURACY_H

#include <stddef.h>
#include <gmp.h>

#include "em_base.h"
#include "num/em_round.h"
#include "oracle/em_problem.h"

/* The precision the permute-and-flip utility report refines its law to at most (its memory
 * grows with the square of the bits); beyond it a result is EM_ERR_UNDECIDED. */
#define EM_PF_REPORT_MAX_PREC 8192

/* The pmf bounds of one PF mechanism (em_pf_law.h), kept at the highest precision
 * computed so far (each quantity asks at rising precisions; the O(n) pass is paid once
 * per level). */
typedef struct em_pf_utility em_pf_utility;

/* The report of permute-and-flip over the finite problem P (copied), at K = digits
 * significant digits.  Errors: those of em_problem_check, EM_ERR_NOMEM. */
int em_pf_utility_new(const em_problem *P, int digits, em_pf_utility **out, em_error *err);
void em_pf_utility_free(em_pf_utility *P);

/* opt, E[u], opt - E[u], the sd of the loss, P(u = opt), as em_cont_utility does. */
int em_pf_utility_moments(em_pf_utility *P, em_cval *opt, em_cval *eu, em_cval *loss, em_cval *sd,
                          em_cval *p_best);
/* P(opt - u(X) > t), t >= 0. */
int em_pf_utility_loss_tail(em_pf_utility *P, const mpq_t t, em_cval *out);

/* The accuracy theorem with c the exponent's coefficient and ratio = |R| / |R_OPT| >= 1:
 * (ln ratio + 1) / c into eb (when not NULL) and, when t is not NULL, min(1, ratio
 * exp(-c t)) into pb. */
int em_theorem_bounds(const mpq_t ratio, const mpq_t c, const mpq_t t, int digits,
                      em_cval *eb, em_cval *pb);

#endif
