#include "em_base.h"
#include "core/em_select.h"
#include "proofs/lemmas/Sum_lemmas.h"

size_t em_select(size_t n, const uint64_t *W, uint64_t t)
{
    //@ ghost Sum_Monotone((uint64_t *)W, n);
    size_t idx = 0;
    uint64_t acc = 0;
    /* No early exit: the scan length does not depend on the answer. */
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant acc: acc == Sum(W, i);
        loop invariant idx_range: idx <= i;
        loop invariant below: Sum(W, idx) <= t;
        loop invariant above: idx < i ==> t < Sum(W, idx + 1);
        loop assigns i, idx, acc;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        //@ assert fits: Sum(W, i + 1) <= Sum(W, n);
        acc += W[i];
        idx = (t >= acc) ? i + 1 : idx;
    }
    return idx;
}

void em_cumulative(size_t n, const uint64_t *W, uint64_t *C)
{
    //@ ghost Sum_Monotone((uint64_t *)W, n);
    uint64_t acc = 0;
    /* The writes to C share WP's memory model with W: the invariants speak of the
       sums at entry (Pre), which no write can disturb. */
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant acc: acc == Sum{Pre}(W, i);
        loop invariant cumulative: \forall integer j; 0 <= j < i ==> C[j] == Sum{Pre}(W, j + 1);
        loop assigns i, acc, C[0 .. n - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        //@ assert fits: Sum{Pre}(W, i + 1) <= Sum{Pre}(W, n);
        acc += W[i];
        C[i] = acc;
    }
    /* W itself is unchanged: Sum(W, k) is the sum at entry, by induction over k. */
    /*@ ghost
      /@ loop invariant range: 0 <= k <= n;
         loop invariant frame: \forall integer j; 0 <= j <= k ==> Sum(W, j) == Sum{Pre}(W, j);
         loop assigns k;
         loop variant n - k; @/
      for (size_t k = 0; k < n; k++) { }
    */
}

/* em_select_cumulative is in em_uniform.c, beside em_sample_cumulative_many, which
   inlines its search (a few instructions per draw). */
