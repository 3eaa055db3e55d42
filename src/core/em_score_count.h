/* em_score_count: normalised counts of categorical rows (codes 0 .. k-1) as
   exact rationals num[r] / den.  The count score itself (the mode query,
   u(x, r) = Count(x, r)) is em_histogram (src/core/em_count.h).
   Logic: spec/Count.acsl, spec/Frequency.acsl.  Sensitivity lemmas:
   proofs/lemmas/ScoreCount_lemmas.h.  Tests: tests/test_score.c. */
#ifndef EM_SCORE_COUNT_H
#define EM_SCORE_COUNT_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Count.acsl"
#include "spec/Frequency.acsl"

/* Frequency (seed 001): u(x, r) = Count(x, r) / n with n = |x| public, as the
   exact fraction num[r] / *den with *den = n (not reduced; no rounding: the
   real score is exactly RatioOf(num[r], *den)).  Sensitivity 1/n under
   substitution (Frequency_Subst).
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (n == 0 or k == 0), EM_ERR_DOMAIN (a row
   outside [0, k); num is then zeroed and *den untouched). */
/*@ requires valid_num: num == \null || \valid(num + (0 .. k - 1));
    requires valid_den: den == \null || \valid(den);
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires separated: num == \null || den == \null || data == \null ||
                        \separated(num + (0 .. k - 1), den, data + (0 .. n - 1));
    assigns num[0 .. k - 1], *den;
    behavior null:
      assumes num == \null || den == \null || data == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes num != \null && den != \null && data != \null;
      assumes n == 0 || k == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior out_of_range:
      assumes num != \null && den != \null && data != \null && n > 0 && k > 0;
      assumes \exists integer i; 0 <= i < n && !(0 <= data[i] < k);
      assigns num[0 .. k - 1];
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes num != \null && den != \null && data != \null && n > 0 && k > 0;
      assumes \forall integer i; 0 <= i < n ==> 0 <= data[i] < k;
      assigns num[0 .. k - 1], *den;
      ensures ok: \result == EM_OK;
      ensures numerator: \forall integer r; 0 <= r < k ==> num[r] == Count(data, n, r);
      ensures denominator: *den == n;
      ensures exact: \forall integer r; 0 <= r < k ==> Frequency(data, n, r) == RatioOf(num[r], *den);
    complete behaviors;
    disjoint behaviors;
 */
int em_score_frequency(size_t n, const int *data, size_t k, uint64_t *num, uint64_t *den);

/* Max-normalised count (seed 004): u(x, r) = Count(x, r) / max_s Count(x, s),
   as the exact fraction num[r] / *den with *den = MaxCount(x) >= 1.
   Sensitivity 1 under both relations, attained; monotone under add/remove
   (MaxNorm_Sensitivity, MaxNorm_Tight, MaxNorm_Insert).
   Errors: as em_score_frequency. */
/*@ requires valid_num: num == \null || \valid(num + (0 .. k - 1));
    requires valid_den: den == \null || \valid(den);
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires separated: num == \null || den == \null || data == \null ||
                        \separated(num + (0 .. k - 1), den, data + (0 .. n - 1));
    assigns num[0 .. k - 1], *den;
    behavior null:
      assumes num == \null || den == \null || data == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes num != \null && den != \null && data != \null;
      assumes n == 0 || k == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior out_of_range:
      assumes num != \null && den != \null && data != \null && n > 0 && k > 0;
      assumes \exists integer i; 0 <= i < n && !(0 <= data[i] < k);
      assigns num[0 .. k - 1];
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes num != \null && den != \null && data != \null && n > 0 && k > 0;
      assumes \forall integer i; 0 <= i < n ==> 0 <= data[i] < k;
      assigns num[0 .. k - 1], *den;
      ensures ok: \result == EM_OK;
      ensures numerator: \forall integer r; 0 <= r < k ==> num[r] == Count(data, n, r);
      ensures denominator: *den == MaxCount(data, n, k);
      ensures positive: 1 <= *den <= n;
      ensures exact: \forall integer r; 0 <= r < k ==> MaxNorm(data, n, k, r) == RatioOf(num[r], *den);
    complete behaviors;
    disjoint behaviors;
 */
int em_score_maxnorm(size_t n, const int *data, size_t k, uint64_t *num, uint64_t *den);

#endif
