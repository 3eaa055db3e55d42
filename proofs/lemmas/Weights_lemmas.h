/* Ghost lemma functions about the fixed-point weights (spec/Weights.acsl);
   proofs in Weights_lemmas.c (integer WP step).  Called by src/core/em_fixed.c,
   whose goals carry the float step's large context: a fact proved here, in a
   context of its own, costs the caller one instance (cvc5 and z3 took 2-5 s
   on the same facts in place, or timed out on the product). */
#ifndef EM_WEIGHTS_LEMMAS_H
#define EM_WEIGHTS_LEMMAS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Weights.acsl"

/* The bound (a + 1) * s of a prefix sum stays under n * s: the one nonlinear
   step of every overflow check of a running sum of weights in [0, s]. */
/*@ ghost
  /@ requires range: a < b;
     assigns \nothing;
     ensures monotone: (a + 1) * s <= b * s;
  @/
  void Weights_ScaleMonotone(size_t a, size_t b, uint64_t s);
*/

/*@ ghost
  /@ requires scale: 1 <= s && n * s <= 9223372036854775808;
     requires bounded: \forall integer i; 0 <= i < n ==> w[i] <= s;
     assigns \nothing;
     ensures fixed: FixedWeights(w, n, s);
  @/
  void Weights_FixedIntro(uint64_t *w, size_t n, uint64_t s);
*/
#endif
