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

/* The cumulative table of W: C[i] = Sum(W, i + 1), non-decreasing, prepared
   once for many draws by em_select_cumulative.  Requires the total to fit. */
/*@ requires nonempty: n >= 1;
    requires valid_W: \valid_read(W + (0 .. n - 1));
    requires valid_C: \valid(C + (0 .. n - 1));
    requires separated: \separated(W + (0 .. n - 1), C + (0 .. n - 1));
    requires no_overflow: Sum(W, n) <= UINT64_MAX;
    assigns C[0 .. n - 1];
    ensures cumulative: \forall integer i; 0 <= i < n ==> C[i] == Sum(W, i + 1);
    ensures sorted: \forall integer i, j; 0 <= i <= j < n ==> C[i] <= C[j];
 */
void em_cumulative(size_t n, const uint64_t *W, uint64_t *C);

/* The smallest i with t < C[i], by binary search in O(log n): on the table of
   em_cumulative (C[i] == Sum(W, i + 1)) it is the cell em_select(n, W, t)
   returns, Sum(W, i) <= t < Sum(W, i + 1).  Requires t < C[n - 1].  Unlike
   em_select, its memory accesses depend on the answer.  Defined in em_uniform.c,
   whose batch draw em_sample_cumulative_many shares its search. */
/*@ requires nonempty: n >= 1;
    requires valid: \valid_read(C + (0 .. n - 1));
    requires sorted: \forall integer i, j; 0 <= i <= j < n ==> C[i] <= C[j];
    requires in_range: t < C[n - 1];
    assigns \nothing;
    ensures index: \result < n;
    ensures above: t < C[\result];
    ensures smallest: \forall integer j; 0 <= j < \result ==> C[j] <= t;
 */
size_t em_select_cumulative(size_t n, const uint64_t *C, uint64_t t);

#endif
