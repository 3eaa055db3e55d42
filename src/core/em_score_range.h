/* em_score_range: the revenue, rank and Laplace scores over a whole range of
   outputs [lo, hi], as pieces on which the score is linear, for the
   continuous mechanism (spec/Continuous.md).  Integer units as the finite
   scores (src/core/em_score_revenue.h, em_score_rank.h, em_score_laplace.h),
   against the same logic definitions.  The rows must be sorted (ascending):
   the caller sorts, the core checks (EM_ERR_DOMAIN) and relies on it to cut
   the range at each distinct row in one pass, O(n).
   Logic: spec/ScoreRange.acsl.  Lemmas: proofs/lemmas/ScoreRange_lemmas.h.
   Tests: tests/test_score_range.c. */
#ifndef EM_SCORE_RANGE_H
#define EM_SCORE_RANGE_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"
#include "spec/Revenue.acsl"
#include "spec/ScoreLaplace.acsl"
#include "spec/ScoreRange.acsl"

/* Largest |f|, |lo|, |hi| of em_range_laplace: 2^62 - 1, so that |f - r| < 2^63
   (the same bound as em_score_laplace's EM_SCORE_ABS_MAX). */
#define EM_RANGE_ABS_MAX 4611686018427387903LL

/* Revenue over the prices [lo, hi], 0 <= lo < hi: u(r) = r * b_j on piece j,
   with b_j = CountGe(bids, r) = the number of bids >= every price strictly
   inside the piece (a_j = 0).  Pieces end at every distinct bid in (lo, hi);
   a bid equal to a breakpoint counts for the prices at and below it, which no
   open piece above it contains.  Sensitivity hi (= p_max) under both
   relations, monotone under add/remove (Revenue_Insert, Revenue_Subst): the
   score is the finite one at every price.  p must hold n + 1 pieces.
   Errors: EM_ERR_NULL; EM_ERR_EMPTY (n == 0); EM_ERR_DOMAIN (lo < 0, lo >= hi,
   or bids not sorted); EM_ERR_OVERFLOW (n > INT64_MAX: a count must fit b).
   p and *k are written only on EM_OK. */
/*@ requires valid_p: p == \null || \valid(p + (0 .. n));
    requires valid_k: k == \null || \valid(k);
    requires valid_bids: bids == \null || \valid_read(bids + (0 .. n - 1));
    requires separated: p == \null || k == \null || bids == \null ||
                        \separated(p + (0 .. n), k, bids + (0 .. n - 1));
    assigns p[0 .. n], *k;
    behavior null:
      assumes p == \null || k == \null || bids == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes p != \null && k != \null && bids != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior bad_range:
      assumes p != \null && k != \null && bids != \null && n > 0;
      assumes lo < 0 || lo >= hi;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior overflow:
      assumes p != \null && k != \null && bids != \null && n > 0;
      assumes 0 <= lo < hi && n > INT64_MAX;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior unsorted:
      assumes p != \null && k != \null && bids != \null && n > 0;
      assumes 0 <= lo < hi && n <= INT64_MAX && !SortedUp(bids, n);
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes p != \null && k != \null && bids != \null && n > 0;
      assumes 0 <= lo < hi && n <= INT64_MAX && SortedUp(bids, n);
      assigns p[0 .. n], *k;
      ensures ok: \result == EM_OK;
      ensures count: 1 <= *k <= n + 1;
      ensures tiling: Tiling(p, *k, lo, hi);
      ensures cut: CutAtData(p, *k, bids, n);
      ensures linear: \forall integer j; 0 <= j < *k ==> p[j].a == 0 && 0 <= p[j].b <= n;
      ensures buyers: \forall integer j, r; 0 <= j < *k && p[j].lo < r < p[j].hi ==>
                        CountGe(bids, n, r) == p[j].b;
      ensures pieces: \forall integer j, r; 0 <= j < *k && p[j].lo < r < p[j].hi ==>
                        Revenue(bids, n, r) == p[j].a + p[j].b * r;
    complete behaviors;
    disjoint behaviors;
 */
int em_range_revenue(size_t n, const int64_t *bids, int64_t lo, int64_t hi, em_piece *p, size_t *k);

/* The median by rank distance over [lo, hi], lo < hi: constant on each piece,
   a_j = MedianScore(data, r) for every r strictly inside piece j, b_j = 0.
   Sensitivity 2 (Median_Insert, Median_Subst), as the finite score.
   Errors: EM_ERR_NULL; EM_ERR_EMPTY (n == 0); EM_ERR_DOMAIN (lo >= hi, or data
   not sorted); EM_ERR_OVERFLOW (n > INT64_MAX / 2). */
/*@ requires valid_p: p == \null || \valid(p + (0 .. n));
    requires valid_k: k == \null || \valid(k);
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires separated: p == \null || k == \null || data == \null ||
                        \separated(p + (0 .. n), k, data + (0 .. n - 1));
    assigns p[0 .. n], *k;
    behavior null:
      assumes p == \null || k == \null || data == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes p != \null && k != \null && data != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior bad_range:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo >= hi;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior overflow:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo < hi && n > INT64_MAX / 2;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior unsorted:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo < hi && n <= INT64_MAX / 2 && !SortedUp(data, n);
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo < hi && n <= INT64_MAX / 2 && SortedUp(data, n);
      assigns p[0 .. n], *k;
      ensures ok: \result == EM_OK;
      ensures count: 1 <= *k <= n + 1;
      ensures tiling: Tiling(p, *k, lo, hi);
      ensures cut: CutAtData(p, *k, data, n);
      ensures constant: \forall integer j; 0 <= j < *k ==> p[j].b == 0 && -2 * n <= p[j].a <= 0;
      ensures pieces: \forall integer j, r; 0 <= j < *k && p[j].lo < r < p[j].hi ==>
                        MedianScore(data, n, r) == p[j].a + p[j].b * r;
    complete behaviors;
    disjoint behaviors;
 */
int em_range_median(size_t n, const int64_t *data, int64_t lo, int64_t hi, em_piece *p, size_t *k);

/* The alpha-quantile score (alpha = qa/qb) over [lo, hi], lo < hi, times qb
   as em_score_quantile: a_j = QuantileScore(data, r, qa, qb) for every r
   strictly inside piece j, b_j = 0.  On an open piece no row equals r, so
   a_j = -|qb * i - qa * n| with i the rows below the piece: diffprivlib's
   -|i - alpha n| times qb (QuantileOf_Diffprivlib).  Sensitivity (units of u)
   max(qa, qb - qa) under add/remove, qb under substitution, as the finite score.
   Errors: EM_ERR_NULL; EM_ERR_EMPTY (n == 0); EM_ERR_DOMAIN (lo >= hi, not
   0 < qa < qb, or data not sorted); EM_ERR_OVERFLOW (n > INT64_MAX / qb). */
/*@ requires valid_p: p == \null || \valid(p + (0 .. n));
    requires valid_k: k == \null || \valid(k);
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires separated: p == \null || k == \null || data == \null ||
                        \separated(p + (0 .. n), k, data + (0 .. n - 1));
    assigns p[0 .. n], *k;
    behavior null:
      assumes p == \null || k == \null || data == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes p != \null && k != \null && data != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior bad_range:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo >= hi || !(0 < qa < qb);
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior overflow:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo < hi && 0 < qa < qb && n > INT64_MAX / qb;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior unsorted:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo < hi && 0 < qa < qb && n <= INT64_MAX / qb && !SortedUp(data, n);
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes p != \null && k != \null && data != \null && n > 0;
      assumes lo < hi && 0 < qa < qb && n <= INT64_MAX / qb && SortedUp(data, n);
      assigns p[0 .. n], *k;
      ensures ok: \result == EM_OK;
      ensures count: 1 <= *k <= n + 1;
      ensures tiling: Tiling(p, *k, lo, hi);
      ensures cut: CutAtData(p, *k, data, n);
      ensures constant: \forall integer j; 0 <= j < *k ==> p[j].b == 0 && -qb * n <= p[j].a <= 0;
      ensures pieces: \forall integer j, r; 0 <= j < *k && p[j].lo < r < p[j].hi ==>
                        QuantileScore(data, n, r, qa, qb) == p[j].a + p[j].b * r;
    complete behaviors;
    disjoint behaviors;
 */
int em_range_quantile(size_t n, const int64_t *data, int64_t lo, int64_t hi, int64_t qa, int64_t qb,
                      em_piece *p, size_t *k);

/* Laplace as an exponential mechanism over [lo, hi], either end possibly
   infinite (lo_inf: -inf, hi_inf: +inf; lo or hi is then ignored and written
   as given): u(r) = -|f - r|, one piece, or two split at f when f is strictly
   inside.  A piece reaching -inf has slope +1 and one reaching +inf slope -1,
   so the density exp(c u) is integrable.  p must hold 2 pieces.
   Errors: EM_ERR_NULL; EM_ERR_OVERFLOW (|f|, or a finite |lo| or |hi|, above
   EM_RANGE_ABS_MAX); EM_ERR_DOMAIN (both ends finite and lo >= hi). */
/*@ requires valid_p: p == \null || \valid(p + (0 .. 1));
    requires valid_k: k == \null || \valid(k);
    requires separated: p == \null || k == \null || \separated(p + (0 .. 1), k);
    assigns p[0 .. 1], *k;
    behavior null:
      assumes p == \null || k == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior overflow:
      assumes p != \null && k != \null;
      assumes \abs(f) > EM_RANGE_ABS_MAX || (!lo_inf && \abs(lo) > EM_RANGE_ABS_MAX) ||
              (!hi_inf && \abs(hi) > EM_RANGE_ABS_MAX);
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior bad_range:
      assumes p != \null && k != \null;
      assumes \abs(f) <= EM_RANGE_ABS_MAX && (lo_inf || \abs(lo) <= EM_RANGE_ABS_MAX) &&
              (hi_inf || \abs(hi) <= EM_RANGE_ABS_MAX);
      assumes !lo_inf && !hi_inf && lo >= hi;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes p != \null && k != \null;
      assumes \abs(f) <= EM_RANGE_ABS_MAX && (lo_inf || \abs(lo) <= EM_RANGE_ABS_MAX) &&
              (hi_inf || \abs(hi) <= EM_RANGE_ABS_MAX);
      assumes lo_inf || hi_inf || lo < hi;
      assigns p[0 .. 1], *k;
      ensures ok: \result == EM_OK;
      ensures count: *k == ((lo_inf || lo < f) && (hi_inf || f < hi) ? 2 : 1);
      ensures ends: (!lo_inf ==> p[0].lo == lo) && (!hi_inf ==> p[*k - 1].hi == hi);
      ensures split: *k == 2 ==> p[0].hi == f && p[1].lo == f;
      ensures nonempty: \forall integer j; 0 <= j < *k && (j > 0 || !lo_inf) && (j < *k - 1 || !hi_inf) ==>
                          p[j].lo < p[j].hi;
      ensures converges: (lo_inf ==> p[0].b == 1) && (hi_inf ==> p[*k - 1].b == -1);
      ensures pieces: LaplacePieces(p, *k, f, lo_inf, hi_inf);
    complete behaviors;
    disjoint behaviors;
 */
int em_range_laplace(int64_t f, int lo_inf, int64_t lo, int hi_inf, int64_t hi, em_piece *p, size_t *k);

#endif
