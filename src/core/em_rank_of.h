/* em_rank_of: the median and quantile scores from the two counts of a candidate
   (MedianOf, QuantileOf of spec/Rank.acsl), without overflow: the finite scores
   over candidates (em_score_rank.c) and their pieces over a range
   (em_score_range.c, where a piece has i rows below it and n - i above).
   Internal; not installed.  Logic: spec/Rank.acsl.  Tests: tests/test_score.c
   and tests/test_score_range.c, through the scores. */
#ifndef EM_RANK_OF_H
#define EM_RANK_OF_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"

/* -2 times the rows to replace so that the lower median is the candidate, of n
   rows with lt below it and gt above. */
/*@ requires rows: 1 <= n <= INT64_MAX / 2;
    requires counts: lt + gt <= n;
    assigns \nothing;
    ensures score: \result == -2 * MedianOf(n, lt, gt);
    ensures range: -2 * n <= \result <= 0;
 */
static inline int64_t em_median_of(uint64_t lt, uint64_t gt, size_t n)
{
    const size_t q = (n - 1) / 2;      /* index of the lower median */
    const size_t hi = n - 1 - q;       /* rows above it */
    //@ assert index: q == MedianIndex(n) && hi == n - 1 - MedianIndex(n);
    uint64_t r = 0;
    if (lt > q)
        r = lt - q;
    if (gt > hi && gt - hi > r)
        r = gt - hi;
    //@ assert closed_form: r == MedianOf(n, lt, gt) && r <= n;
    return -2 * (int64_t)r;
}

/* The quantile score alpha = qa / qb (times qb) of n rows with lt below the
   candidate and gt above. */
/*@ requires alpha: 0 < qa < qb;
    requires counts: lt + gt <= n;
    requires fits: n <= INT64_MAX / qb;
    assigns \nothing;
    ensures score: \result == QuantileOf(lt, gt, qa, qb);
    ensures range: -qb * n <= \result <= 0;
 */
static inline int64_t em_quantile_of(uint64_t lt, uint64_t gt, size_t n, int64_t qa, int64_t qb)
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

#endif
