#include "em_base.h"
#include "core/em_score_count.h"
#include "core/em_count.h"
#include "proofs/lemmas/ScoreCount_lemmas.h"

/* The checks of both scores before they count, in their contracts' order.  Apart
   from the counting: WP frames a call by the callee's assigns of all behaviours,
   so a count behind them would break the scores' `assigns \nothing` on errors. */
/*@ assigns \nothing;
    ensures null: num == \null || den == \null || data == \null ==> \result == EM_ERR_NULL;
    ensures empty: num != \null && den != \null && data != \null && (n == 0 || k == 0) ==>
      \result == EM_ERR_EMPTY;
    ensures ok: num != \null && den != \null && data != \null && n > 0 && k > 0 ==>
      \result == EM_OK;
 */
static int counts_args(size_t n, const int *data, size_t k, const uint64_t *num, const uint64_t *den)
{
    if (num == NULL || den == NULL || data == NULL)
        return EM_ERR_NULL;
    if (n == 0 || k == 0)
        return EM_ERR_EMPTY;
    return EM_OK;
}

int em_score_frequency(size_t n, const int *data, size_t k, uint64_t *num, uint64_t *den)
{
    int st = counts_args(n, data, k, num, den);
    if (st == EM_OK)
        st = em_histogram(n, data, k, num);
    if (st == EM_OK)
        *den = n;
    return st;
}

int em_score_maxnorm(size_t n, const int *data, size_t k, uint64_t *num, uint64_t *den)
{
    int st = counts_args(n, data, k, num, den);
    if (st == EM_OK)
        st = em_histogram(n, data, k, num);
    if (st != EM_OK)
        return st;
    //@ ghost Count_Range(data, n);
    //@ ghost Count_Own(data, n);
    //@ ghost MaxCount_Props(data, n, k);
    uint64_t m = 0;
    /*@ loop invariant range: 0 <= r <= k;
        loop invariant max: m == MaxCount(data, n, r);
        loop assigns r, m;
        loop variant k - r; */
    for (size_t r = 0; r < k; r++)
        if (num[r] > m)
            m = num[r];
    //@ assert own: 1 <= Count(data, n, data[0]) <= m;
    *den = m;
    return EM_OK;
}
