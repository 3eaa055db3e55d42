/* Sensitivity of the randomized-response score (spec/ScoreRR.acsl) and of the
   Laplace score (spec/ScoreLaplace.acsl).  No induction is involved: these are
   plain lemmas, each a proof obligation discharged by WP (the file
   ScoreMisc_lemmas.c only includes this header so that the gate proves them). */
#ifndef EM_SCOREMISC_LEMMAS_H
#define EM_SCOREMISC_LEMMAS_H
#include "spec/ScoreRR.acsl"
#include "spec/ScoreLaplace.acsl"

/*@
  // Randomized response: the one relation is x vs x' (both bits).  Delta = |beta - gamma|.
  lemma RR_Sensitivity: \forall integer x, x2, r, beta, gamma;
    0 <= x <= 1 && 0 <= x2 <= 1 && 0 <= r <= 1 ==>
    \abs(RRScore(x2, r, beta, gamma) - RRScore(x, r, beta, gamma)) <= \abs(beta - gamma);
  // ... attained at r = 1 between x = 0 and x = 1,
  lemma RR_Tight: \forall integer beta, gamma;
    \abs(RRScore(1, 1, beta, gamma) - RRScore(0, 1, beta, gamma)) == \abs(beta - gamma);
  // ... and monotone: only u(., 1) moves, so all scores move the same way.
  lemma RR_Monotone: \forall integer x, x2, beta, gamma;
    0 <= x <= 1 && 0 <= x2 <= 1 ==>
    (\forall integer r; 0 <= r <= 1 ==> RRScore(x2, r, beta, gamma) >= RRScore(x, r, beta, gamma)) ||
    (\forall integer r; 0 <= r <= 1 ==> RRScore(x2, r, beta, gamma) <= RRScore(x, r, beta, gamma));

  // Laplace score: if the query moves by at most df, every score moves by at most df.
  lemma Laplace_Sensitivity: \forall integer f, f2, r, df;
    \abs(f2 - f) <= df ==> \abs(LaplaceScore(f2, r) - LaplaceScore(f, r)) <= df;
  // ... attained (r on the far side of both f and f2),
  lemma Laplace_Tight: \forall integer f, df; df >= 0 ==>
    \abs(LaplaceScore(f + df, f + df + 1) - LaplaceScore(f, f + df + 1)) == df;
  // ... and not monotone: f -> f + 1 raises the score of r = f + 1 and
  // lowers that of r = f - 1.
  lemma Laplace_Not_Monotone: \forall integer f;
    LaplaceScore(f + 1, f + 1) > LaplaceScore(f, f + 1) &&
    LaplaceScore(f + 1, f - 1) < LaplaceScore(f, f - 1);
*/
#endif
