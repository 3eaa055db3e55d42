/* Ghost lemma functions for the scores over a range (spec/ScoreRange.acsl):
   between two consecutive distinct rows every rank count is constant.  Proofs
   in ScoreRange_lemmas.c.  The sensitivities are those of the finite scores
   (ScoreRank_lemmas.h, ScoreRevenue_lemmas.h, ScoreMisc_lemmas.h): the pieces
   give the same score at every point, so nothing new is needed there. */
#ifndef EM_SCORERANGE_LEMMAS_H
#define EM_SCORERANGE_LEMMAS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"
#include "spec/Revenue.acsl"
#include "spec/ScoreRange.acsl"

/*@
  // diffprivlib's quantile utility -|i - alpha n| (times qb) is ours wherever
  // no row equals the candidate (lt + gt = n): the two conventions give the
  // same pieces and differ only in the sensitivity declared.
  lemma QuantileOf_Diffprivlib: \forall integer lt, gt, n, qa, qb;
    lt + gt == n ==> QuantileOf(lt, gt, qa, qb) == - \abs(qb * lt - qa * n);
*/

/* i rows at or below lo, the other n - i at or above hi: for every r in
   (lo, hi), i rows are below r and n - i above (and at or above) it. */
/*@ ghost
  /@ requires index: i <= n;
     requires below: \forall integer t; 0 <= t < i ==> a[t] <= lo;
     requires above: \forall integer t; i <= t < n ==> a[t] >= hi;
     assigns \nothing;
     ensures lt: \forall integer r; lo < r < hi ==> CountLt(a, n, r) == i;
     ensures gt: \forall integer r; lo < r < hi ==> CountGt(a, n, r) == n - i;
     ensures ge: \forall integer r; lo < r < hi ==> CountGe(a, n, r) == n - i;
  @/
  void Range_Counts(const int64_t *a, size_t n, size_t i, int64_t lo, int64_t hi);
*/
/* A constant piece is linear with slope 0, in a context free of the products
   (qb * n) of the caller that send the solvers into nonlinear arithmetic. */
/*@ ghost
  /@ requires flat: \forall integer j; 0 <= j < m ==> p[j].b == 0;
     requires score: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
       QuantileScore(a, n, r, qa, qb) == p[j].a;
     assigns \nothing;
     ensures pieces: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
       QuantileScore(a, n, r, qa, qb) == p[j].a + p[j].b * r;
  @/
  void Quantile_Pieces(const em_piece *p, size_t m, const int64_t *a, size_t n, int64_t qa, int64_t qb);
*/
/* The same for the median, and the revenue's pieces r * b from the buyers'
   counts: in the caller's context (after pieces_of) they took 3-4 s. */
/*@ ghost
  /@ requires flat: \forall integer j; 0 <= j < m ==> p[j].b == 0;
     requires score: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
       MedianScore(a, n, r) == p[j].a;
     assigns \nothing;
     ensures pieces: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
       MedianScore(a, n, r) == p[j].a + p[j].b * r;
  @/
  void Median_Pieces(const em_piece *p, size_t m, const int64_t *a, size_t n);
*/
/*@ ghost
  /@ requires buyers: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
       CountGe(a, n, r) == p[j].b;
     assigns \nothing;
     ensures revenue: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
       Revenue(a, n, r) == r * p[j].b;
  @/
  void Revenue_Pieces(const em_piece *p, size_t m, const int64_t *a, size_t n);
*/
/* Laplace's one or two pieces (em_range_laplace): what its stores give at
   indices 0 and 1 is the score on every piece.  Proved in a memory state of
   its own, apart from the caller's chain of stores, through which the same
   clause over a symbolic index took a prover 7-12 s (issue 16). */
/*@ ghost
  /@ requires count: k == 1 || k == 2;
     requires split: k == 2 ==> p[0].hi == f && p[0].a == -f && p[0].b == 1 &&
                                p[1].lo == f && p[1].a == f && p[1].b == -1;
     requires whole: k == 1 ==> (p[0].b == 1 && p[0].a == -f && (hi_inf == 0 && p[0].hi <= f)) ||
                                (p[0].b == -1 && p[0].a == f && (lo_inf == 0 && f <= p[0].lo));
     assigns \nothing;
     ensures pieces: LaplacePieces(p, k, f, lo_inf, hi_inf);
  @/
  void Laplace_Pieces(const em_piece *p, size_t k, int64_t f, int lo_inf, int hi_inf);
*/
#endif
