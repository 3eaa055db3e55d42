/* Ghost lemma functions: sensitivity of the rank scores of spec/Rank.acsl
   (median by rank distance, alpha-quantile) under the two neighbour relations
   of spec/Neighbours.acsl.  Proofs in ScoreRank_lemmas.c.
   Summary (spec/README.md, "Scoring functions"):
     median     (score -|A (+) B|, same-size B): Delta 2 under add/remove and
                under substitution, attained (Median_Tight); not monotone.
     quantile   (score scaled by qb, alpha = qa/qb): Delta max(qa, qb - qa)
                under add/remove, qb under substitution; not monotone. */
#ifndef EM_SCORERANK_LEMMAS_H
#define EM_SCORERANK_LEMMAS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"
#include "spec/Neighbours.acsl"

/* ---- the closed forms, as functions of the counts (no induction: plain
   lemmas, proven by the SMT solvers on their own) */
/*@
  lemma MedianOf_Subst: \forall integer n, l, g, l2, g2;
    -1 <= l2 - l <= 1 && -1 <= g2 - g <= 1 ==>
    -1 <= MedianOf(n, l2, g2) - MedianOf(n, l, g) <= 1;
  lemma MedianOf_Insert: \forall integer n, l, g, l2, g2;
    n >= 0 && 0 <= l2 - l <= 1 && 0 <= g2 - g <= 1 && (n == 0 ==> l == 0 && g == 0) ==>
    -1 <= MedianOf(n + 1, l2, g2) - MedianOf(n, l, g) <= 1;
  lemma QuantileOf_Subst: \forall integer l, g, l2, g2, qa, qb;
    0 <= qa <= qb && -1 <= l2 - l <= 1 && -1 <= g2 - g <= 1 ==>
    \abs(QuantileOf(l2, g2, qa, qb) - QuantileOf(l, g, qa, qb)) <= qb;
  lemma QuantileOf_Insert: \forall integer l, g, l2, g2, qa, qb;
    0 <= qa <= qb && 0 <= l2 - l <= 1 && 0 <= g2 - g <= 1 ==>
    \abs(QuantileOf(l2, g2, qa, qb) - QuantileOf(l, g, qa, qb)) <= (qa >= qb - qa ? qa : qb - qa);
*/

/* ---- the counts */

/*@ ghost
  /@ assigns \nothing;
     ensures bounded: \forall integer m, c; 0 <= m <= n ==>
       0 <= CountLt(a, m, c) && 0 <= CountGt(a, m, c) && CountLt(a, m, c) + CountGt(a, m, c) <= m;
  @/
  void Rank_Range(const int64_t *a, size_t n);
*/

/*@ ghost
  /@ requires subst: SubstAt64(a, b, n, j);
     assigns \nothing;
     ensures lt: \forall integer c;
       CountLt(b, n, c) == CountLt(a, n, c) - (a[j] < c ? 1 : 0) + (b[j] < c ? 1 : 0);
     ensures gt: \forall integer c;
       CountGt(b, n, c) == CountGt(a, n, c) - (a[j] > c ? 1 : 0) + (b[j] > c ? 1 : 0);
  @/
  void Rank_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j);
*/

/*@ ghost
  /@ requires insert: InsertAt64(a, n, b, j);
     assigns \nothing;
     ensures lt: \forall integer c; CountLt(b, n + 1, c) == CountLt(a, n, c) + (b[j] < c ? 1 : 0);
     ensures gt: \forall integer c; CountGt(b, n + 1, c) == CountGt(a, n, c) + (b[j] > c ? 1 : 0);
  @/
  void Rank_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j);
*/

/* ---- median by rank distance: Delta = 2 under both relations */

/*@ ghost
  /@ requires subst: SubstAt64(a, b, n, j);
     assigns \nothing;
     ensures replacements: \forall integer c;
       -1 <= MedianReplacements(b, n, c) - MedianReplacements(a, n, c) <= 1;
     ensures sensitivity: \forall integer c; \abs(MedianScore(b, n, c) - MedianScore(a, n, c)) <= 2;
  @/
  void Median_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j);
*/

/*@ ghost
  /@ requires insert: InsertAt64(a, n, b, j);
     assigns \nothing;
     ensures replacements: \forall integer c;
       -1 <= MedianReplacements(b, n + 1, c) - MedianReplacements(a, n, c) <= 1;
     ensures sensitivity: \forall integer c; \abs(MedianScore(b, n + 1, c) - MedianScore(a, n, c)) <= 2;
  @/
  void Median_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j);
*/

/* Delta = 2 is attained (so the seed's Delta = 1 is wrong for the same-size
   reading), and the score is not monotone:
   add/remove:   {0} -> {-1, 0}, c = -1: score -2 -> 0;
   substitution: {0, 5} -> {1, 5}, c = 1: score -2 -> 0;
   not monotone: {0, 10, 20} -> {-5, 0, 10, 20}: c = 0 rises (-2 -> 0),
                 c = 20 falls (-2 -> -4). */
/*@ ghost
  /@ assigns \nothing; @/
  void Median_Tight(void);
*/

/* ---- alpha-quantile, alpha = qa/qb: Delta (in units of 1/qb) */

/*@ ghost
  /@ requires subst: SubstAt64(a, b, n, j);
     requires alpha: 0 < qa < qb;
     assigns \nothing;
     ensures sensitivity: \forall integer c;
       \abs(QuantileScore(b, n, c, qa, qb) - QuantileScore(a, n, c, qa, qb)) <= qb;
  @/
  void Quantile_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t qa, int64_t qb);
*/

/*@ ghost
  /@ requires insert: InsertAt64(a, n, b, j);
     requires alpha: 0 < qa < qb;
     assigns \nothing;
     ensures sensitivity: \forall integer c;
       \abs(QuantileScore(b, n + 1, c, qa, qb) - QuantileScore(a, n, c, qa, qb)) <=
       (qa >= qb - qa ? qa : qb - qa);
  @/
  void Quantile_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t qa, int64_t qb);
*/
#endif
