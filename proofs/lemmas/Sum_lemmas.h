/* Ghost lemma functions about Sum (spec/Sum.acsl).  Each contract is a lemma;
   the loop in proofs/lemmas/Sum_lemmas.c is its proof by induction, checked by
   WP like any other function.  Call a lemma where its fact is needed:
     //@ ghost Sum_Monotone(w, n);                                         */
#ifndef EM_SUM_LEMMAS_H
#define EM_SUM_LEMMAS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Sum.acsl"

/*@ ghost
  /@ requires valid: \valid_read(a + (0 .. n - 1));
     assigns \nothing;
     ensures monotone: \forall integer i, j; 0 <= i <= j <= n ==> Sum(a, i) <= Sum(a, j);
  @/
  void Sum_Monotone(uint64_t *a, size_t n);
*/

#endif
