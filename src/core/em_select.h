/* em_select: the integer decision of the sampler.  Logic: spec/Selection.acsl,
   spec/Sum.acsl.  Tests: tests/test_select.c (every cell boundary). */
#ifndef EM_SELECT_H
#define EM_SELECT_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Sum.acsl"
#include "spec/Selection.acsl"

/* The unique cell i with Sum(W, i) <= t < Sum(W, i + 1), for t < Sum(W, n).
   Reads all n weights and does the same work whatever cell it returns. */
/*@ requires nonempty: n >= 1;
    requires valid: \valid_read(W + (0 .. n - 1));
    requires no_overflow: Sum(W, n) <= UINT64_MAX;
    requires in_range: t < Sum(W, n);
    assigns \nothing;
    ensures index: \result < n;
    ensures in_cell: InCell(W, \result, t);
    ensures unique: \forall integer j; 0 <= j < n && InCell(W, j, t) ==> j == \result;
    ensures positive: W[\result] > 0;
 */
size_t em_select(size_t n, const uint64_t *W, uint64_t t);

#endif
