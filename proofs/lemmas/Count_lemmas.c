/* Proofs (by WP) of the ghost lemma functions declared in Count_lemmas.h. */
#include "proofs/lemmas/Count_lemmas.h"

/*@ ghost
  void Count_Bounded(int *a, size_t n)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant bounded: \forall integer m, v; 0 <= m <= i ==> 0 <= Count(a, m, v) <= m;
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
  }
*/
