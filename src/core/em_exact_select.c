#include "em_base.h"
#include "core/em_exact_select.h"
#include "core/em_vec.h"

EM_VECTOR_CLONES size_t em_exact_select(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a, uint64_t w)
{
    size_t idx = n;
    uint64_t end = a + w;
    /* No early exit: the scan length does not depend on the answer. */
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant none: idx == n ==> \forall integer j; 0 <= j < i ==>
          !ExactCertain((uint64_t *)lo, (uint64_t *)hi, j, a, w);
        loop invariant found: idx != n ==> idx < i &&
          ExactCertain((uint64_t *)lo, (uint64_t *)hi, idx, a, w);
        loop assigns i, idx;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        /* branch-free conjunction (&& would short-circuit) */
        unsigned c = (unsigned)(hi[i] <= a) * (unsigned)(end <= lo[i + 1]);
        idx = c ? i : idx;
    }
    return idx;
}
