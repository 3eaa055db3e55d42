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
