/* The step from the selection contracts to the premises of the Why3 laws, proven by WP.

   Each function below calls a proven core function and states, as its one
   postcondition, the ACSL predicate that the Why3 theorem of its law takes as premise
   (spec/Selection.acsl `Selected`, spec/ExactSelection.acsl `ExactDecision`).  WP
   proves the postcondition from the callee's contract alone, exactly as it is written
   in the callee's header; the Why3 theorems (proofs/theorems/Bridge.mlw) read the same
   predicate as WP generates it (proofs/acsl/Acsl.mlw).  So no step from a contract to a
   theorem is read by hand.  These functions are never compiled into the library. */
#include "em_base.h"
#include "core/em_select.h"
#include "core/em_exact_select.h"

/* em_select returns the cell of t: the premise of em_select_law. */
/*@ requires nonempty: n >= 1;
    requires valid: \valid_read(W + (0 .. n - 1));
    requires no_overflow: Sum(W, n) <= UINT64_MAX;
    requires in_range: t < Sum(W, n);
    assigns \nothing;
    ensures selected: Selected((uint64_t *)W, n, t, \result);
 */
size_t em_select_law(size_t n, const uint64_t *W, uint64_t t)
{
    return em_select(n, W, t);
}

/* em_select_cumulative on the table of em_cumulative returns the same cell. */
/*@ requires nonempty: n >= 1;
    requires valid_W: \valid_read(W + (0 .. n - 1));
    requires valid_C: \valid(C + (0 .. n - 1));
    requires separated: \separated(W + (0 .. n - 1), C + (0 .. n - 1));
    requires no_overflow: Sum(W, n) <= UINT64_MAX;
    requires in_range: t < Sum(W, n);
    assigns C[0 .. n - 1];
    ensures selected: Selected((uint64_t *)W, n, t, \result);
 */
size_t em_select_cumulative_law(size_t n, const uint64_t *W, uint64_t *C, uint64_t t)
{
    em_cumulative(n, W, C);
    /* C shares WP's memory model with W: Sum(W, n) is carried across the writes by
       induction over the prefix, as in em_sample_fixed. */
    /*@ ghost
      /@ loop invariant range: 0 <= j <= n;
         loop invariant frame: Sum(W, j) == Sum{Pre}(W, j);
         loop assigns j;
         loop variant n - j; @/
      for (size_t j = 0; j < n; j++) { }
    */
    size_t r = em_select_cumulative(n, C, t);
    /*@ assert below: r == 0 ? Sum(W, r) == 0 : Sum(W, r) == C[r - 1]; */
    return r;
}

/* em_exact_select's answer is a certain cell, or n when none is certain: the premise
   of em_exact_law. */
/*@ requires nonempty: n >= 1;
    requires n_fits: n < SIZE_MAX;
    requires valid_lo: \valid_read(lo + (0 .. n));
    requires valid_hi: \valid_read(hi + (0 .. n));
    requires ordered: \forall integer i; 0 <= i <= n ==> lo[i] <= hi[i];
    requires monotone: \forall integer i, j; 0 <= i <= j <= n ==> lo[i] <= lo[j];
    requires width: w >= 1;
    requires fits: a + w <= UINT64_MAX;
    assigns \nothing;
    ensures decision: ExactDecision((uint64_t *)lo, (uint64_t *)hi, n, a, w, \result);
 */
size_t em_exact_select_law(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a,
                           uint64_t w)
{
    return em_exact_select(n, lo, hi, a, w);
}
