#include "em_base.h"
#include "core/em_score_rank.h"
#include "core/em_rank_of.h"
#include "core/em_rank_counts.h"
#include "core/em_rows.h"
#include "proofs/lemmas/ScoreRank_lemmas.h"

/* Which score rank_scores computes (plain macros: ACSL reads them too). */
#define RANK_MEDIAN 0
#define RANK_QUANTILE 1

/* u[j] = the score of cand[j], for every j < m. */
/*@ requires kind: kind == RANK_MEDIAN || kind == RANK_QUANTILE;
    requires median: kind == RANK_MEDIAN ==> 1 <= n <= INT64_MAX / 2;
    requires quantile: kind == RANK_QUANTILE ==> 0 < qa < qb && n <= INT64_MAX / qb;
    requires valid_u: \valid(u + (0 .. m - 1));
    requires valid_data: \valid_read(data + (0 .. n - 1));
    requires valid_cand: \valid_read(cand + (0 .. m - 1));
    requires separated: \separated(u + (0 .. m - 1), data + (0 .. n - 1), cand + (0 .. m - 1));
    assigns u[0 .. m - 1];
    ensures median: kind == RANK_MEDIAN ==> \forall integer j; 0 <= j < m ==>
      u[j] == MedianScore(data, n, cand[j]) && -2 * n <= u[j] <= 0;
    ensures quantile: kind == RANK_QUANTILE ==> \forall integer j; 0 <= j < m ==>
      u[j] == QuantileScore(data, n, cand[j], qa, qb) && -qb * n <= u[j] <= 0;
 */
static void rank_scores(int kind, size_t n, const int64_t *data, size_t m, const int64_t *cand,
                        int64_t qa, int64_t qb, int64_t *u)
{
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant frame: \forall integer c;
          CountLt(data, n, c) == CountLt{Pre}(data, n, c) && CountGt(data, n, c) == CountGt{Pre}(data, n, c);
        loop invariant median: kind == RANK_MEDIAN ==> \forall integer t; 0 <= t < j ==>
          u[t] == MedianScore{Pre}(data, n, cand[t]) && -2 * n <= u[t] <= 0;
        loop invariant quantile: kind == RANK_QUANTILE ==> \forall integer t; 0 <= t < j ==>
          u[t] == QuantileScore{Pre}(data, n, cand[t], qa, qb) && -qb * n <= u[t] <= 0;
        loop assigns j, u[0 .. m - 1];
        loop variant m - j; */
    for (size_t j = 0; j < m; j++) {
        int64_t c = cand[j];
        uint64_t lt, gt;
        em_rank_counts(n, data, c, &lt, &gt);
        //@ assert counts: lt == CountLt{Pre}(data, n, c) && gt == CountGt{Pre}(data, n, c);
        int64_t v = kind == RANK_MEDIAN ? em_median_of(lt, gt, n) : em_quantile_of(lt, gt, n, qa, qb);
        //@ assert median: kind == RANK_MEDIAN ==> v == MedianScore{Pre}(data, n, c);
        //@ assert quantile: kind == RANK_QUANTILE ==> v == QuantileScore{Pre}(data, n, c, qa, qb);
        em_rows_put(u + j, v, data, n);
    }
}

int em_score_median(size_t n, const int64_t *data, size_t m, const int64_t *cand, int64_t *u)
{
    if (u == NULL || data == NULL || cand == NULL)
        return EM_ERR_NULL;
    if (n == 0 || m == 0)
        return EM_ERR_EMPTY;
    if (n > (size_t)(INT64_MAX / 2))
        return EM_ERR_OVERFLOW;
    rank_scores(RANK_MEDIAN, n, data, m, cand, 0, 1, u);
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
    rank_scores(RANK_QUANTILE, n, data, m, cand, qa, qb, u);
    return EM_OK;
}
