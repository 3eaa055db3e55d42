/* Proofs (by WP) of the ghost lemma functions declared in Sum_lemmas.h. */
#include "proofs/lemmas/Sum_lemmas.h"

/*@ ghost
  void Sum_Monotone(uint64_t *a, size_t n)
  {
    /@ loop invariant range: 0 <= m <= n;
       loop invariant monotone: \forall integer i, j; 0 <= i <= j <= m ==> Sum(a, i) <= Sum(a, j);
       loop assigns m;
       loop variant n - m; @/
    for (size_t m = 0; m < n; m++) {
      /@ assert step: Sum(a, m) <= Sum(a, m + 1); @/
    }
  }
*/
