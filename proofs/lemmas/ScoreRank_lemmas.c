/* Proofs (by WP) of the ghost lemma functions declared in ScoreRank_lemmas.h. */
#include "proofs/lemmas/ScoreRank_lemmas.h"

/*@ ghost
  void Rank_Range(const int64_t *a, size_t n)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant bounded: \forall integer m, c; 0 <= m <= i ==>
         0 <= CountLt(a, m, c) && 0 <= CountGt(a, m, c) && CountLt(a, m, c) + CountGt(a, m, c) <= m;
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
  }
*/

/*@ ghost
  void Rank_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant before: i <= j ==> \forall integer c;
         CountLt(b, i, c) == CountLt(a, i, c) && CountGt(b, i, c) == CountGt(a, i, c);
       loop invariant after_lt: i > j ==> \forall integer c;
         CountLt(b, i, c) == CountLt(a, i, c) - (a[j] < c ? 1 : 0) + (b[j] < c ? 1 : 0);
       loop invariant after_gt: i > j ==> \forall integer c;
         CountGt(b, i, c) == CountGt(a, i, c) - (a[j] > c ? 1 : 0) + (b[j] > c ? 1 : 0);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
  }
*/

/*@ ghost
  void Rank_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant before: i <= j ==> \forall integer c;
         CountLt(b, i, c) == CountLt(a, i, c) && CountGt(b, i, c) == CountGt(a, i, c);
       loop invariant after_lt: i >= j ==> \forall integer c;
         CountLt(b, i + 1, c) == CountLt(a, i, c) + (b[j] < c ? 1 : 0);
       loop invariant after_gt: i >= j ==> \forall integer c;
         CountGt(b, i + 1, c) == CountGt(a, i, c) + (b[j] > c ? 1 : 0);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) {
      /@ assert step_a: \forall integer c; CountLt(a, i + 1, c) == CountLt(a, i, c) + (a[i] < c ? 1 : 0) &&
           CountGt(a, i + 1, c) == CountGt(a, i, c) + (a[i] > c ? 1 : 0); @/
      /@ assert step_b: \forall integer c; CountLt(b, i + 2, c) == CountLt(b, i + 1, c) + (b[i + 1] < c ? 1 : 0) &&
           CountGt(b, i + 2, c) == CountGt(b, i + 1, c) + (b[i + 1] > c ? 1 : 0); @/
    }
  }
*/

/*@ ghost
  void Median_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j)
  {
    Rank_Subst(a, b, n, j);
    /@ assert counts: \forall integer c;
         -1 <= CountLt(b, n, c) - CountLt(a, n, c) <= 1 && -1 <= CountGt(b, n, c) - CountGt(a, n, c) <= 1; @/
  }
*/

/*@ ghost
  void Median_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j)
  {
    Rank_Insert(a, b, n, j);
    Rank_Range(a, n);
    /@ assert counts: \forall integer c;
         0 <= CountLt(b, n + 1, c) - CountLt(a, n, c) <= 1 && 0 <= CountGt(b, n + 1, c) - CountGt(a, n, c) <= 1; @/
    /@ assert empty: n == 0 ==> \forall integer c; CountLt(a, n, c) == 0 && CountGt(a, n, c) == 0; @/
  }
*/

/*@ ghost
  void Median_Tight(void)
  {
    int64_t x[1] = {0};
    int64_t y[2] = {-1, 0};
    int64_t s[2] = {0, 5};
    int64_t t[2] = {1, 5};
    int64_t u[3] = {0, 10, 20};
    int64_t w[4] = {-5, 0, 10, 20};
    /@ assert add_pair: InsertAt64(&x[0], 1, &y[0], 0); @/
    /@ assert add_jump: MedianScore(&x[0], 1, -1) == -2 && MedianScore(&y[0], 2, -1) == 0; @/
    /@ assert subst_pair: SubstAt64(&s[0], &t[0], 2, 0); @/
    /@ assert subst_jump: MedianScore(&s[0], 2, 1) == -2 && MedianScore(&t[0], 2, 1) == 0; @/
    /@ assert mono_pair: InsertAt64(&u[0], 3, &w[0], 0); @/
    /@ assert counts_u: CountLt(&u[0], 3, 0) == 0 && CountGt(&u[0], 3, 0) == 2 &&
                        CountLt(&u[0], 3, 20) == 2 && CountGt(&u[0], 3, 20) == 0; @/
    /@ assert counts_w: CountLt(&w[0], 4, 0) == 1 && CountGt(&w[0], 4, 0) == 2 &&
                        CountLt(&w[0], 4, 20) == 3 && CountGt(&w[0], 4, 20) == 0; @/
    /@ assert mono_up: MedianScore(&u[0], 3, 0) == -2 && MedianScore(&w[0], 4, 0) == 0; @/
    /@ assert mono_down: MedianScore(&u[0], 3, 20) == -2 && MedianScore(&w[0], 4, 20) == -4; @/
  }
*/

/*@ ghost
  void Quantile_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t qa, int64_t qb)
  {
    Rank_Subst(a, b, n, j);
    /@ assert counts: \forall integer c;
         -1 <= CountLt(b, n, c) - CountLt(a, n, c) <= 1 && -1 <= CountGt(b, n, c) - CountGt(a, n, c) <= 1; @/
  }
*/

/*@ ghost
  void Quantile_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t qa, int64_t qb)
  {
    Rank_Insert(a, b, n, j);
    /@ assert counts: \forall integer c;
         0 <= CountLt(b, n + 1, c) - CountLt(a, n, c) <= 1 && 0 <= CountGt(b, n + 1, c) - CountGt(a, n, c) <= 1; @/
  }
*/
