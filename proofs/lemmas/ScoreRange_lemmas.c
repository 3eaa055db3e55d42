/* Proofs (by WP) of the ghost lemma functions declared in ScoreRange_lemmas.h. */
#include "proofs/lemmas/ScoreRange_lemmas.h"

/*@ ghost
  void Range_Counts(const int64_t *a, size_t n, size_t i, int64_t lo, int64_t hi)
  {
    /@ loop invariant range: 0 <= t <= n;
       loop invariant lt: \forall integer r; lo < r < hi ==> CountLt(a, t, r) == (t <= i ? t : i);
       loop invariant gt: \forall integer r; lo < r < hi ==> CountGt(a, t, r) == (t <= i ? 0 : t - i);
       loop invariant ge: \forall integer r; lo < r < hi ==> CountGe(a, t, r) == (t <= i ? 0 : t - i);
       loop assigns t;
       loop variant n - t; @/
    for (size_t t = 0; t < n; t++) { }
  }
*/

/*@ ghost
  void Quantile_Pieces(const em_piece *p, size_t m, const int64_t *a, size_t n, int64_t qa, int64_t qb)
  {
    /@ assert zero: \forall integer j, r; 0 <= j < m ==> p[j].a + p[j].b * r == p[j].a; @/
  }
*/

/*@ ghost
  void Median_Pieces(const em_piece *p, size_t m, const int64_t *a, size_t n)
  {
    /@ assert zero: \forall integer j, r; 0 <= j < m ==> p[j].a + p[j].b * r == p[j].a; @/
  }
*/

/*@ ghost
  void Revenue_Pieces(const em_piece *p, size_t m, const int64_t *a, size_t n)
  {
  }
*/

/*@ ghost
  void Laplace_Pieces(const em_piece *p, size_t k, int64_t f, int lo_inf, int hi_inf)
  {
  }
*/
