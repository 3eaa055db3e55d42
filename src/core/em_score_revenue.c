#include "em_base.h"
#include "core/em_score_revenue.h"
#include "core/em_rows.h"
#include "core/em_rank_counts.h"
#include "proofs/lemmas/ScoreRevenue_lemmas.h"

/* #{i < n : bids[i] >= p}: the bids not below p (Count_GeLt) */
/*@ requires valid_bids: \valid_read(bids + (0 .. n - 1));
    assigns \nothing;
    ensures count: \result == CountGe(bids, n, p);
    ensures bounded: \result <= n;
 */
static size_t count_ge(size_t n, const int64_t *bids, int64_t p)
{
    uint64_t lt, gt;
    em_rank_counts(n, bids, p, &lt, &gt);
    //@ ghost Count_GeLt(bids, n, p);
    return n - lt;
}

/* p * c without overflow. */
/*@ requires price: 0 <= p <= pmax;
    requires buyers: c <= n;
    requires fits: pmax > 0 && n <= INT64_MAX / pmax;
    assigns \nothing;
    ensures revenue: \result == RevenueOf(p, c);
    ensures range: 0 <= \result <= pmax * n;
 */
static int64_t revenue_of(int64_t p, size_t c, size_t n, int64_t pmax)
{
    (void)n; /* used by the contract only */
    (void)pmax;
    //@ assert fits: n * pmax <= INT64_MAX;
    //@ assert product: 0 <= p * c <= p * n <= pmax * n;
    return p * (int64_t)c;
}

int em_score_revenue(size_t n, const int64_t *bids, size_t m, const int64_t *prices,
                     int64_t pmax, int64_t *u)
{
    if (u == NULL || bids == NULL || prices == NULL)
        return EM_ERR_NULL;
    if (n == 0 || m == 0)
        return EM_ERR_EMPTY;
    if (pmax <= 0)
        return EM_ERR_DOMAIN;
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant in_range: \forall integer t; 0 <= t < j ==> 0 <= prices[t] <= pmax;
        loop assigns j;
        loop variant m - j; */
    for (size_t j = 0; j < m; j++)
        if (prices[j] < 0 || prices[j] > pmax)
            return EM_ERR_DOMAIN;
    if (n > (uint64_t)(INT64_MAX / pmax))
        return EM_ERR_OVERFLOW;
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant checked: \forall integer t; 0 <= t < m ==> 0 <= prices[t] <= pmax;
        loop invariant frame: \forall integer p; CountGe(bids, n, p) == CountGe{Pre}(bids, n, p);
        loop invariant score: \forall integer t; 0 <= t < j ==> u[t] == Revenue{Pre}(bids, n, prices[t]);
        loop invariant bounded: \forall integer t; 0 <= t < j ==> 0 <= u[t] <= pmax * n;
        loop assigns j, u[0 .. m - 1];
        loop variant m - j; */
    for (size_t j = 0; j < m; j++) {
        int64_t p = prices[j];
        size_t c = count_ge(n, bids, p);
        //@ assert count: c == CountGe{Pre}(bids, n, p);
        int64_t v = revenue_of(p, c, n, pmax);
        //@ assert value: v == Revenue{Pre}(bids, n, p);
        em_rows_put(u + j, v, bids, n);
    }
    /* the score in the final state, here rather than in the ensures (3 s there) */
    /*@ assert same: \forall integer t; 0 <= t < m ==>
          Revenue(bids, n, prices[t]) == Revenue{Pre}(bids, n, prices[t]); */
    //@ assert score: \forall integer t; 0 <= t < m ==> u[t] == Revenue(bids, n, prices[t]);
    return EM_OK;
}
