/* Proofs (by WP) of the ghost lemma functions declared in Weights_lemmas.h. */
#include "proofs/lemmas/Weights_lemmas.h"

/* By induction over b: each step adds s, so no prover meets a product of
   two unknowns (z3 took 0.8 s on (b - a - 1) * s >= 0 directly). */
/*@ ghost
  void Weights_ScaleMonotone(size_t a, size_t b, uint64_t s)
  {
    /@ loop invariant range: a + 1 <= k <= b;
       loop invariant monotone: (a + 1) * s <= k * s;
       loop assigns k;
       loop variant b - k; @/
    for (size_t k = a + 1; k < b; k++) {
      /@ assert step: (k + 1) * s == k * s + s; @/
    }
  }
*/

/*@ ghost
  void Weights_FixedIntro(uint64_t *w, size_t n, uint64_t s)
  {
  }
*/
