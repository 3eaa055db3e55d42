#include "core/em_exact_encl.h"

void em_encl_add(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr wlo, mpfr_srcptr whi)
{
    em_mpfr_add_rd(lo, lo, wlo);
    em_mpfr_add_ru(hi, hi, whi);
}

void em_encl_words(uint64_t *lo, uint64_t *hi, mpfr_ptr t, mpfr_srcptr flo, mpfr_srcptr fhi)
{
    uint64_t l = em_mpfr_word_rd(t, flo);
    uint64_t h = em_mpfr_word_ru(t, fhi);
    *lo = l;
    *hi = h;
}

void em_encl_monotone(size_t n, uint64_t *lo, uint64_t *hi)
{
    /*@ loop invariant range: 1 <= i <= n + 1;
        loop invariant sorted: \forall integer a; 0 < a < i ==> lo[a - 1] <= lo[a];
        loop invariant max: \forall integer k; 0 <= k < i ==> lo[k] == MaxUpTo{Pre}(lo, k);
        loop invariant rest: \forall integer k; i <= k <= n ==> lo[k] == \at(lo[k], Pre);
        loop assigns i, lo[1 .. n];
        loop variant n + 1 - i; */
    for (size_t i = 1; i <= n; i++) {
        if (lo[i] < lo[i - 1])
            lo[i] = lo[i - 1];
        //@ assert step: lo[i - 1] <= lo[i];
    }
    /*@ loop invariant range: 0 <= k <= n;
        loop invariant sorted: \forall integer a, b; k <= a <= b <= n ==> hi[a] <= hi[b];
        loop invariant min: \forall integer m; k <= m <= n ==> hi[m] == MinFrom{Pre}(hi, m, n);
        loop invariant rest: \forall integer m; 0 <= m < k ==> hi[m] == \at(hi[m], Pre);
        loop assigns k, hi[0 .. n - 1];
        loop variant k; */
    for (size_t k = n; k > 0; k--) {
        if (hi[k - 1] > hi[k])
            hi[k - 1] = hi[k];
        //@ assert step: hi[k - 1] <= hi[k];
    }
}
