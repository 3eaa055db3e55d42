/* em_privacy_loss.h: the exact privacy loss between two laws of the weighted / continuous oracle
 * (oracle/em_cont.h) on neighbouring datasets X and Y.
 *
 * Part of the judges (outside the verified core).  The loss is
 *   sup_r |log f_X(r) - log f_Y(r)|
 * (densities for continuous laws, taken as an essential supremum: single points and sets of
 * length 0 do not count; probabilities for finite laws), reported in both directions,
 * sup log(f_X/f_Y) and sup log(f_Y/f_X).
 *
 * Continuous laws (pieces).  log f(r) = c u(r) - log Z with u linear on each piece.  After
 * merging the two partitions (every finite end of a piece of positive length of X or Y),
 * on each elementary interval both utilities are linear, so
 *   g(r) = log f_X(r) - log f_Y(r) = alpha(r) - L,   alpha(r) = (c_X a_X - c_Y a_Y) +
 *   (c_X b_X - c_Y b_Y) r  (exact rational),  L = log Z_X - log Z_Y  (one real number),
 * and the supremum of a linear function on an interval is at an end: the candidates are the
 * one-sided limits of alpha at the ends of the elementary intervals (right limit at the left
 * end, left limit at the right end).  The loss is infinite when a set of positive length
 * carries one law and not the other (different supports), or when alpha has a non-zero
 * slope on an unbounded elementary interval.
 *
 * Finite laws (atoms with a base measure m).  log P(r) = log m_r + c u_r - log Z; the
 * candidates are beta_r = log(m_X,r / m_Y,r) + alpha_r for every r with positive mass on
 * both sides; the loss is infinite when some r has positive mass under one law only.
 *
 * Exactness.  sup log(f_X/f_Y) = beta_max - L and sup log(f_Y/f_X) = L - beta_min.  The
 * largest and smallest beta are found exactly (interval screening, then the sign of
 * mu_1 exp(alpha_1) - mu_2 exp(alpha_2) by em_expoly_sign for close candidates).  Each
 * value is correctly rounded by em_round: bounds from em_cont_logz_bounds, and the exact
 * comparison with a rational B as the sign of an exponential polynomial,
 *   beta - L - B  has the sign of  mu exp(alpha - B) Z_Y - Z_X,
 *   L - beta - B  has the sign of  Z_X - mu exp(alpha + B) Z_Y
 * (em_cont_append_z), and the same comparison with B = eps gives the verdict exactly.
 */
#ifndef EM_JUDGE_PRIVACY_LOSS_H
#define EM_JUDGE_PRIVACY_LOSS_H

#include <stddef.h>
#include <gmp.h>

#include "oracle/em_cont.h"
#include "oracle/em_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { EM_PRIVACY_LOSS_FINITE = 0, EM_PRIVACY_LOSS_SUPPORT = 1, EM_PRIVACY_LOSS_SLOPE = 2 };

typedef struct em_privacy_loss_dir {
    int infinite;       /* this supremum is +inf */
    int reason;         /* EM_PRIVACY_LOSS_*: why it is infinite */
    em_cval value;      /* finite: the supremum, correctly rounded (K digits and double) */
    int cmp_eps;        /* exact sign of (supremum - eps); +1 when infinite */
    /* where it is attained (or, when infinite, where it goes to infinity): */
    size_t atom;        /* atoms: the candidate (index in X's order) */
    mpq_t at;           /* pieces: the point (finite), or the finite end of the interval */
    int at_inf;         /* pieces: -1 / +1 when approached as r -> -inf / +inf, else 0 */
    int side;           /* pieces: -1 the limit from the left, +1 from the right, 0 both
                         * (alpha continuous there) */
    int everywhere;     /* pieces: alpha constant on the whole common support */
    mpq_t lo, hi;       /* pieces, infinite: the interval of the cause (lo_inf/hi_inf) */
    int lo_inf, hi_inf;
} em_privacy_loss_dir;

typedef struct em_privacy_loss {
    em_privacy_loss_dir d[2];  /* [0]: sup log(f_X / f_Y); [1]: sup log(f_Y / f_X) */
    int worst;          /* the direction of the privacy loss (the larger; 0 on a tie) */
    int cmp_eps;        /* exact sign of (loss - eps) */
    /* both directions finite: the bounded-range width sup ln(f_X/f_Y) + sup ln(f_Y/f_X) (the
     * span of the log-ratio; the normalisers cancel) and width^2 / 8, correctly rounded */
    int has_width;
    em_cval width, width_sq8;
} em_privacy_loss;

void em_privacy_loss_init(em_privacy_loss *L);
void em_privacy_loss_clear(em_privacy_loss *L);

/* Two continuous laws (EM_CONT_PIECES); K digits (1..1000).  EM_OK, or EM_ERR_NULL,
 * EM_ERR_DOMAIN (not both pieces, K out of range, eps <= 0), EM_ERR_UNDECIDED,
 * EM_ERR_NOMEM. */
int em_privacy_loss_pieces(em_cont *X, em_cont *Y, const mpq_t eps, int K, em_privacy_loss *L);

/* Two finite laws (EM_CONT_ATOMS) over the same n candidates, in the same order, and the
 * problems they were built from (em_cont_new: utilities, exclusions, measures); the loss
 * is compared with PX's epsilon.  Errors as above. */
int em_privacy_loss_atoms(em_cont *X, em_cont *Y, const em_problem *PX, const em_problem *PY, int K,
                          em_privacy_loss *L);

#ifdef __cplusplus
}
#endif
#endif
