#include "em_base.h"
#include "core/em_uniform.h"
#include "core/em_select.h"

int em_uniform_below(em_rng *rng, uint64_t m, uint64_t *out)
{
    if (rng == NULL || out == NULL)
        return EM_ERR_NULL;
    if (m == 0)
        return EM_ERR_DOMAIN;
    if (m == 1) {
        *out = 0;
        return EM_OK;
    }
    /* b = bit length of m - 1 (m >= 2, so 1 <= b <= 64): the fewest bits that
       can express every value below m, which keeps the rejection rate < 1/2. */
    /* Binary search in six steps, each s = 32, 16, ..., 1: with L the bit
       length, b <= L < b + 2s holds before the step, and the test v >> (b+s-1)
       != 0 is L >= b + s.  The shift counts (at most 63) and b <= 64 follow
       from the steps alone, whatever v is. */
    uint64_t v = m - 1;
    unsigned b = 1;
    if ((v >> (b + 31)) != 0)
        b += 32;
    if ((v >> (b + 15)) != 0)
        b += 16;
    if ((v >> (b + 7)) != 0)
        b += 8;
    if ((v >> (b + 3)) != 0)
        b += 4;
    if ((v >> (b + 1)) != 0)
        b += 2;
    if ((v >> b) != 0)
        b += 1;
    //@ assert b_range: 1 <= b <= 64;
    /*@ loop invariant tries: 0 <= k <= EM_UNIFORM_TRIES;
        loop assigns k, *rng, *out;
        loop variant EM_UNIFORM_TRIES - k; */
    for (unsigned k = 0; k < EM_UNIFORM_TRIES; k++) {
        uint64_t x;
        int st = em_rng_u64(rng, &x);
        if (st != EM_OK)
            return EM_ERR_RNG;
        x >>= (64 - b);
        if (x < m) {
            *out = x;
            return EM_OK;
        }
    }
    return EM_ERR_RNG;
}

int em_sample_fixed(size_t n, const uint64_t *W, uint64_t total, em_rng *rng, size_t *out)
{
    if (W == NULL || rng == NULL || out == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (total == 0)
        return EM_ERR_DOMAIN;
    uint64_t t;
    int st = em_uniform_below(rng, total, &t);
    if (st != EM_OK)
        return st;
    /* The draw wrote the random source's state, which shares WP's memory model
       with W; this ghost induction re-establishes Sum(W, n) from W's frame. */
    /*@ ghost
      /@ loop invariant range: 0 <= j <= n;
         loop invariant frame: Sum(W, j) == Sum{Pre}(W, j);
         loop assigns j;
         loop variant n - j; @/
      for (size_t j = 0; j < n; j++) { }
    */
    *out = em_select(n, W, t);
    return EM_OK;
}
