/* em_exact_select: the integer decision of the exact (lazy inverse-CDF) sampler.
   Logic: spec/ExactSelection.acsl.  Tests: tests/test_exact.c (bit-level
   enumeration), used by src/oracle/em_exact_*.c.

   Fixed-point bounds of one scale (2^63 in em_exact_*.c): lo[i] <= F(i) <= hi[i] for the
   n + 1 cumulative probabilities F(0) = 0 <= F(1) <= ... <= F(n) = 1, lo nondecreasing.
   The uniform draw U is known to lie in the dyadic interval [a, a + w).  Cell i,
   [F(i), F(i+1)), certainly contains the whole interval when hi[i] <= a and
   a + w <= lo[i+1]; then U is in cell i whatever its undrawn bits are. */
#ifndef EM_EXACT_SELECT_H
#define EM_EXACT_SELECT_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>

#include "spec/ExactSelection.acsl"

/* The unique cell i < n that certainly contains [a, a + w), or n ("undecided": draw more
   bits or tighten the bounds).  Reads all n + 1 bounds whatever it returns. */
/*@ requires nonempty: n >= 1;
    requires n_fits: n < SIZE_MAX;
    requires valid_lo: \valid_read(lo + (0 .. n));
    requires valid_hi: \valid_read(hi + (0 .. n));
    requires ordered: \forall integer i; 0 <= i <= n ==> lo[i] <= hi[i];
    requires monotone: \forall integer i, j; 0 <= i <= j <= n ==> lo[i] <= lo[j];
    requires width: w >= 1;
    requires fits: a + w <= UINT64_MAX;
    assigns \nothing;
    ensures range: \result <= n;
    behavior decided:
      assumes \exists integer i; 0 <= i < n && ExactCertain((uint64_t *)lo, (uint64_t *)hi, i, a, w);
      ensures index: \result < n;
      ensures certain: ExactCertain((uint64_t *)lo, (uint64_t *)hi, \result, a, w);
      ensures unique: \forall integer j; 0 <= j < n &&
        ExactCertain((uint64_t *)lo, (uint64_t *)hi, j, a, w) ==> j == \result;
    behavior undecided:
      assumes \forall integer i; 0 <= i < n ==> !ExactCertain((uint64_t *)lo, (uint64_t *)hi, i, a, w);
      ensures none: \result == n;
    complete behaviors;
    disjoint behaviors;
 */
size_t em_exact_select(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a, uint64_t w);

#endif
