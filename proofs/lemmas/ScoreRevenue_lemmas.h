/* Ghost lemma functions: sensitivity of the revenue score of spec/Revenue.acsl
   under the two neighbour relations of spec/Neighbours.acsl.  Proofs in
   ScoreRevenue_lemmas.c.  Summary: for every price p >= 0 the revenue moves
   by at most p, so Delta = p_max (in price units) under both relations; under
   add/remove it only rises (adding a bid), so the score is monotone there. */
#ifndef EM_SCOREREVENUE_LEMMAS_H
#define EM_SCOREREVENUE_LEMMAS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Revenue.acsl"
#include "spec/Rank.acsl"
#include "spec/Neighbours.acsl"

/*@
  lemma RevenueOf_Insert: \forall integer p, c, c2; p >= 0 && c <= c2 <= c + 1 ==>
    0 <= RevenueOf(p, c2) - RevenueOf(p, c) <= p;
  lemma RevenueOf_Subst: \forall integer p, c, c2; p >= 0 && c - 1 <= c2 <= c + 1 ==>
    \abs(RevenueOf(p, c2) - RevenueOf(p, c)) <= p;
*/

/* The buyers at a price are the rows not below it: em_score_revenue counts them with
   em_rank_counts (src/core/em_rank_counts.h), the rank scores' proven loop. */
/*@ ghost
  /@ assigns \nothing;
     ensures ge_lt: CountGe(a, n, p) == n - CountLt(a, n, p);
  @/
  void Count_GeLt(const int64_t *a, size_t n, int64_t p);
*/

/*@ ghost
  /@ requires subst: SubstAt64(a, b, n, j);
     assigns \nothing;
     ensures exact: \forall integer p;
       CountGe(b, n, p) == CountGe(a, n, p) - (a[j] >= p ? 1 : 0) + (b[j] >= p ? 1 : 0);
     ensures sensitivity: \forall integer p; p >= 0 ==> \abs(Revenue(b, n, p) - Revenue(a, n, p)) <= p;
     ensures global: \forall integer p; 0 <= p <= pmax ==> \abs(Revenue(b, n, p) - Revenue(a, n, p)) <= pmax;
  @/
  void Revenue_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t pmax);
*/

/*@ ghost
  /@ requires insert: InsertAt64(a, n, b, j);
     assigns \nothing;
     ensures exact: \forall integer p; CountGe(b, n + 1, p) == CountGe(a, n, p) + (b[j] >= p ? 1 : 0);
     ensures monotone: \forall integer p; p >= 0 ==> 0 <= Revenue(b, n + 1, p) - Revenue(a, n, p) <= p;
     ensures global: \forall integer p; 0 <= p <= pmax ==> 0 <= Revenue(b, n + 1, p) - Revenue(a, n, p) <= pmax;
  @/
  void Revenue_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t pmax);
*/

/* Delta = p_max is attained under both relations (p_max = 5 here):
   add/remove: {} -> {5}: Revenue(., 5) goes 0 -> 5;
   substitution: {0} -> {5}: Revenue(., 5) goes 0 -> 5. */
/*@ ghost
  /@ assigns \nothing; @/
  void Revenue_Tight(void);
*/
#endif
