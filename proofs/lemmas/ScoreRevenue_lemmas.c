/* Proofs (by WP) of the ghost lemma functions declared in ScoreRevenue_lemmas.h. */
#include "proofs/lemmas/ScoreRevenue_lemmas.h"

/*@ ghost
  void Count_GeLt(const int64_t *a, size_t n, int64_t p)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant ge_lt: CountGe(a, i, p) == i - CountLt(a, i, p);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
  }
*/

/*@ ghost
  void Revenue_Subst(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t pmax)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant before: i <= j ==> \forall integer p; CountGe(b, i, p) == CountGe(a, i, p);
       loop invariant after: i > j ==> \forall integer p;
         CountGe(b, i, p) == CountGe(a, i, p) - (a[j] >= p ? 1 : 0) + (b[j] >= p ? 1 : 0);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
    /@ assert counts: \forall integer p; CountGe(a, n, p) - 1 <= CountGe(b, n, p) <= CountGe(a, n, p) + 1; @/
  }
*/

/*@ ghost
  void Revenue_Insert(const int64_t *a, const int64_t *b, size_t n, size_t j, int64_t pmax)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant before: i <= j ==> \forall integer p; CountGe(b, i, p) == CountGe(a, i, p);
       loop invariant after: i >= j ==> \forall integer p;
         CountGe(b, i + 1, p) == CountGe(a, i, p) + (b[j] >= p ? 1 : 0);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) {
      /@ assert step_a: \forall integer p; CountGe(a, i + 1, p) == CountGe(a, i, p) + (a[i] >= p ? 1 : 0); @/
      /@ assert step_b: \forall integer p; CountGe(b, i + 2, p) == CountGe(b, i + 1, p) + (b[i + 1] >= p ? 1 : 0); @/
    }
  }
*/

/*@ ghost
  void Revenue_Tight(void)
  {
    int64_t x[1] = {0};
    int64_t y[1] = {5};
    /@ assert add_pair: InsertAt64(&x[0], 0, &y[0], 0); @/
    /@ assert add_jump: Revenue(&x[0], 0, 5) == 0 && Revenue(&y[0], 1, 5) == 5; @/
    /@ assert subst_pair: SubstAt64(&x[0], &y[0], 1, 0); @/
    /@ assert subst_jump: Revenue(&x[0], 1, 5) == 0 && Revenue(&y[0], 1, 5) == 5; @/
  }
*/
