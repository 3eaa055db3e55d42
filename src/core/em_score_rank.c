#include "em_base.h"
#include "core/em_score_rank.h"
#include "proofs/lemmas/ScoreRank_lemmas.h"

/* *lt = #{i < n : data[i] < c}, *gt = #{i < n : data[i] > c}. */
/*@ requires valid_data: \valid_read(data + (0 .. n - 1));
    requires valid_out: \valid(lt) && \valid(gt);
    requires separated: \separated(lt, gt, data + (0 .. n - 1));
    assigns *lt, *gt;
    ensures lt: *lt == CountLt(data, n, c);
    ensures gt: *gt == CountGt(data, n, c);
    ensures bounded: *lt + *gt <= n;
 */
static void rank_counts(size_t n, const int64_t *data, int64_t c, uint64_t *lt, uint64_t *gt)
{
    uint64_t l = 0, g = 0;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant lt: l == CountLt(data, i, c);
        loop invariant gt: g == CountGt(data, i, c);
        loop invariant bounded: l + g <= i;
        loop assigns i, l, g;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        if (data[i] < c)
            l++;
        else if (data[i] > c)
            g++;
    }
    *lt = l;
    *gt = g;
}

/* u[j] = v, with the fact WP cannot see on its own (u and data share the
   int64_t memory): the counts over data do not change.  The ghost loop is the
   induction over the rows. */
/*@ requires valid_u: \valid(u + j);
    requires valid_data: \valid_read(data + (0 .. n - 1));
    requires separated: \separated(u + j, data + (0 .. n - 1));
    assigns u[j];
    ensures written: u[j] == v;
    ensures lt: \forall integer c; CountLt(data, n, c) == CountLt{Pre}(data, n, c);
    ensures gt: \forall integer c; CountGt(data, n, c) == CountGt{Pre}(data, n, c);
 */
static void put_score(int64_t *u, size_t j, int64_t v, const int64_t *data, size_t n)
{
    (void)data; /* used by the ghost induction only */
    (void)n;
    u[j] = v;
    /*@ ghost
      /@ loop invariant range: 0 <= i <= n;
         loop invariant lt: \forall integer c; CountLt(data, i, c) == CountLt{Pre}(data, i, c);
         loop invariant gt: \forall integer c; CountGt(data, i, c) == CountGt{Pre}(data, i, c);
         loop assigns i;
         loop variant n - i; @/
      for (size_t i = 0; i < n; i++) { }
    */
}

/* The quantile score from the two counts, without overflow. */
/*@ requires alpha: 0 < qa < qb;
    requires counts: lt + gt <= n;
    requires fits: n <= INT64_MAX / qb;
    assigns \nothing;
    ensures score: \result == QuantileOf(lt, gt, qa, qb);
    ensures range: -qb * n <= \result <= 0;
 */
static int64_t quantile_of(uint64_t lt, uint64_t gt, size_t n, int64_t qa, int64_t qb)
{
    (void)n; /* used by the contract only */
    //@ assert fits: n * qb <= INT64_MAX;
    //@ assert below: (qb - qa) * lt <= (qb - qa) * n <= qb * n;
    //@ assert above: qa * gt <= qa * n <= qb * n;
    int64_t below = (qb - qa) * (int64_t)lt;   /* (1 - alpha) #{x < c}, times qb */
    int64_t above = qa * (int64_t)gt;          /* alpha #{x > c}, times qb */
    //@ assert sum: below + above <= qb * n;
    int64_t v = below - above;
    return v < 0 ? v : -v;
}

int em_score_median(size_t n, const int64_t *data, size_t m, const int64_t *cand, int64_t *u)
{
    if (u == NULL || data == NULL || cand == NULL)
        return EM_ERR_NULL;
    if (n == 0 || m == 0)
        return EM_ERR_EMPTY;
    if (n > (size_t)(INT64_MAX / 2))
        return EM_ERR_OVERFLOW;
    const size_t q = (n - 1) / 2;      /* index of the lower median */
    const size_t hi = n - 1 - q;       /* rows above it */
    //@ assert index: q == MedianIndex(n) && hi == n - 1 - MedianIndex(n);
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant frame: \forall integer c;
          CountLt(data, n, c) == CountLt{Pre}(data, n, c) && CountGt(data, n, c) == CountGt{Pre}(data, n, c);
        loop invariant score: \forall integer t; 0 <= t < j ==> u[t] == MedianScore{Pre}(data, n, cand[t]);
        loop invariant bounded: \forall integer t; 0 <= t < j ==> -2 * n <= u[t] <= 0;
        loop assigns j, u[0 .. m - 1];
        loop variant m - j; */
    for (size_t j = 0; j < m; j++) {
        int64_t c = cand[j];
        uint64_t lt, gt;
        rank_counts(n, data, c, &lt, &gt);
        //@ assert counts: lt == CountLt{Pre}(data, n, c) && gt == CountGt{Pre}(data, n, c);
        uint64_t r = 0;
        if (lt > q)
            r = lt - q;
        if (gt > hi && gt - hi > r)
            r = gt - hi;
        //@ assert closed_form: r == MedianOf(n, lt, gt) && r <= n;
        //@ assert score: -2 * r == MedianScore{Pre}(data, n, c);
        put_score(u, j, -2 * (int64_t)r, data, n);
    }
    return EM_OK;
}

int em_score_quantile(size_t n, const int64_t *data, size_t m, const int64_t *cand,
                      int64_t qa, int64_t qb, int64_t *u)
{
    if (u == NULL || data == NULL || cand == NULL)
        return EM_ERR_NULL;
    if (n == 0 || m == 0)
        return EM_ERR_EMPTY;
    if (!(0 < qa && qa < qb))
        return EM_ERR_DOMAIN;
    if (n > (uint64_t)(INT64_MAX / qb))
        return EM_ERR_OVERFLOW;
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant frame: \forall integer c;
          CountLt(data, n, c) == CountLt{Pre}(data, n, c) && CountGt(data, n, c) == CountGt{Pre}(data, n, c);
        loop invariant score: \forall integer t; 0 <= t < j ==>
          u[t] == QuantileScore{Pre}(data, n, cand[t], qa, qb);
        loop invariant bounded: \forall integer t; 0 <= t < j ==> -qb * n <= u[t] <= 0;
        loop assigns j, u[0 .. m - 1];
        loop variant m - j; */
    for (size_t j = 0; j < m; j++) {
        int64_t c = cand[j];
        uint64_t lt, gt;
        rank_counts(n, data, c, &lt, &gt);
        //@ assert counts: lt == CountLt{Pre}(data, n, c) && gt == CountGt{Pre}(data, n, c);
        int64_t v = quantile_of(lt, gt, n, qa, qb);
        //@ assert score: v == QuantileScore{Pre}(data, n, c, qa, qb);
        put_score(u, j, v, data, n);
    }
    return EM_OK;
}
