/* em_rank_counts: the rows below and above a value, in one pass: the rank
   scores of a candidate (em_score_rank.c) and the buyers at a price
   (em_score_revenue.c: CountGe is n - CountLt, proofs/lemmas/ScoreRevenue_lemmas.h,
   Count_GeLt), one proven loop for both.  Internal; not installed.
   Logic: spec/Rank.acsl.  Tests: tests/test_score.c, through the scores. */
#ifndef EM_RANK_COUNTS_H
#define EM_RANK_COUNTS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"

/* *lt = #{i < n : data[i] < c}, *gt = #{i < n : data[i] > c}. */
/*@ requires valid_data: \valid_read(data + (0 .. n - 1));
    requires valid_out: \valid(lt) && \valid(gt);
    requires separated: \separated(lt, gt, data + (0 .. n - 1));
    assigns *lt, *gt;
    ensures lt: *lt == CountLt(data, n, c);
    ensures gt: *gt == CountGt(data, n, c);
    ensures bounded: *lt + *gt <= n;
 */
static inline void em_rank_counts(size_t n, const int64_t *data, int64_t c, uint64_t *lt,
                                  uint64_t *gt)
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

#endif
