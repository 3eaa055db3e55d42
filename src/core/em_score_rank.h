/* em_score_rank: rank scores of numeric rows over a finite candidate set:
   the median by rank distance (seed 002) and the alpha-quantile score.
   Both cost O(n) per candidate (no sorting), so O(n m) in all.
   Logic: spec/Rank.acsl.  Sensitivity lemmas: proofs/lemmas/ScoreRank_lemmas.h.
   Tests: tests/test_score.c. */
#ifndef EM_SCORE_RANK_H
#define EM_SCORE_RANK_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"

/* u[j] = MedianScore(data, n, cand[j]) = -min |A (+) B| over the multisets B
   of size n whose lower median is cand[j] (spec/Rank.acsl): 0 at the median,
   -2 per replaced row.  Sensitivity 2 under add/remove and substitution
   (Median_Insert, Median_Subst), attained; not monotone.
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (n == 0: no dataset of size 0 has a
   median; or m == 0), EM_ERR_OVERFLOW (n > INT64_MAX / 2, so -2n would not
   fit; u untouched). */
/*@ requires valid_u: u == \null || \valid(u + (0 .. m - 1));
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires valid_cand: cand == \null || \valid_read(cand + (0 .. m - 1));
    requires separated: u == \null || data == \null || cand == \null ||
                        \separated(u + (0 .. m - 1), data + (0 .. n - 1), cand + (0 .. m - 1));
    assigns u[0 .. m - 1];
    behavior null:
      assumes u == \null || data == \null || cand == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes u != \null && data != \null && cand != \null;
      assumes n == 0 || m == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior overflow:
      assumes u != \null && data != \null && cand != \null && n > 0 && m > 0;
      assumes n > INT64_MAX / 2;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior ok:
      assumes u != \null && data != \null && cand != \null && n > 0 && m > 0;
      assumes n <= INT64_MAX / 2;
      assigns u[0 .. m - 1];
      ensures ok: \result == EM_OK;
      ensures score: \forall integer j; 0 <= j < m ==> u[j] == MedianScore(data, n, cand[j]);
      ensures range: \forall integer j; 0 <= j < m ==> -2 * n <= u[j] <= 0;
    complete behaviors;
    disjoint behaviors;
 */
int em_score_median(size_t n, const int64_t *data, size_t m, const int64_t *cand, int64_t *u);

/* u[j] = QuantileScore(data, n, cand[j], qa, qb)
        = -|(qb - qa) #{x < c} - qa #{x > c}|,  c = cand[j],
   i.e. qb times the alpha-quantile score -|(1 - alpha) #{x < c} - alpha #{x > c}|
   with alpha = qa / qb: the real score is u[j] / qb exactly.
   Sensitivity (in the units of u): max(qa, qb - qa) under add/remove, qb under
   substitution (Quantile_Insert, Quantile_Subst); not monotone.
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (n == 0 or m == 0), EM_ERR_DOMAIN (alpha
   not in (0, 1): not 0 < qa < qb), EM_ERR_OVERFLOW (n > INT64_MAX / qb). */
/*@ requires valid_u: u == \null || \valid(u + (0 .. m - 1));
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires valid_cand: cand == \null || \valid_read(cand + (0 .. m - 1));
    requires separated: u == \null || data == \null || cand == \null ||
                        \separated(u + (0 .. m - 1), data + (0 .. n - 1), cand + (0 .. m - 1));
    assigns u[0 .. m - 1];
    behavior null:
      assumes u == \null || data == \null || cand == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes u != \null && data != \null && cand != \null;
      assumes n == 0 || m == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior bad_alpha:
      assumes u != \null && data != \null && cand != \null && n > 0 && m > 0;
      assumes !(0 < qa < qb);
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior overflow:
      assumes u != \null && data != \null && cand != \null && n > 0 && m > 0;
      assumes 0 < qa < qb && n > INT64_MAX / qb;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior ok:
      assumes u != \null && data != \null && cand != \null && n > 0 && m > 0;
      assumes 0 < qa < qb && n <= INT64_MAX / qb;
      assigns u[0 .. m - 1];
      ensures ok: \result == EM_OK;
      ensures score: \forall integer j; 0 <= j < m ==> u[j] == QuantileScore(data, n, cand[j], qa, qb);
      ensures range: \forall integer j; 0 <= j < m ==> -qb * n <= u[j] <= 0;
    complete behaviors;
    disjoint behaviors;
 */
int em_score_quantile(size_t n, const int64_t *data, size_t m, const int64_t *cand,
                      int64_t qa, int64_t qb, int64_t *u);

#endif
