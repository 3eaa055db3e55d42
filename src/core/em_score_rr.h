/* em_score_rr: randomized response as an exponential mechanism (seed 003).
   Logic: spec/ScoreRR.acsl.  Sensitivity lemmas: proofs/lemmas/ScoreMisc_lemmas.h.
   Tests: tests/test_score.c. */
#ifndef EM_SCORE_RR_H
#define EM_SCORE_RR_H
#include "em_base.h"
#include <stdint.h>
#include "spec/ScoreRR.acsl"

/* The two scores of the private bit x: u[0] = 0, u[1] = beta (x = 0) or gamma
   (x = 1); beta and gamma are the numerators of the real scores over one
   common denominator chosen by the caller.  Sensitivity |beta - gamma|, and
   the score is monotone (RR_Sensitivity, RR_Monotone).
   Errors: EM_ERR_NULL, EM_ERR_DOMAIN (x not 0 or 1). */
/*@ requires valid_u: u == \null || \valid(u + (0 .. 1));
    assigns u[0 .. 1];
    behavior null:
      assumes u == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior bad_bit:
      assumes u != \null && x != 0 && x != 1;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes u != \null && (x == 0 || x == 1);
      assigns u[0 .. 1];
      ensures ok: \result == EM_OK;
      ensures score: \forall integer r; 0 <= r <= 1 ==> u[r] == RRScore(x, r, beta, gamma);
    complete behaviors;
    disjoint behaviors;
 */
int em_score_rr(int x, int64_t beta, int64_t gamma, int64_t *u);

#endif
