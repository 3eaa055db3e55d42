/* Ghost lemma functions about Count (spec/Count.acsl); proofs in Count_lemmas.c. */
#ifndef EM_COUNT_LEMMAS_H
#define EM_COUNT_LEMMAS_H
#include <stddef.h>
#include "spec/Count.acsl"

/*@ ghost
  /@ requires valid: \valid_read(a + (0 .. n - 1));
     assigns \nothing;
     ensures bounded: \forall integer m, v; 0 <= m <= n ==> 0 <= Count(a, m, v) <= m;
  @/
  void Count_Bounded(int *a, size_t n);
*/
#endif
