/* em_count: counting rows of categorical data (codes 0 .. k-1).
   Logic: spec/Count.acsl, spec/Sum.acsl.  Tests: tests/test_count.c. */
#ifndef EM_COUNT_H
#define EM_COUNT_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Count.acsl"
#include "spec/Sum.acsl"

/* The number of rows equal to v. */
/*@ requires valid: \valid_read(data + (0 .. n - 1));
    assigns \nothing;
    ensures count: \result == Count(data, n, v);
    ensures bounded: \result <= n;
 */
size_t em_count(size_t n, const int *data, int v);

/* hist[r] = number of rows equal to r, for r < k; the counts sum to n.
   Errors: EM_ERR_NULL (data or hist NULL), EM_ERR_EMPTY (k == 0),
   EM_ERR_DOMAIN (a row outside [0, k); hist is then left zeroed). */
/*@ requires valid_hist: hist == \null || \valid(hist + (0 .. k - 1));
    requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    requires separated: hist == \null || data == \null ||
                        \separated(hist + (0 .. k - 1), data + (0 .. n - 1));
    assigns hist[0 .. k - 1];
    behavior null:
      assumes hist == \null || data == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes hist != \null && data != \null && k == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior out_of_range:
      assumes hist != \null && data != \null && k > 0;
      assumes \exists integer i; 0 <= i < n && !(0 <= data[i] < k);
      assigns hist[0 .. k - 1];
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior ok:
      assumes hist != \null && data != \null && k > 0;
      assumes \forall integer i; 0 <= i < n ==> 0 <= data[i] < k;
      assigns hist[0 .. k - 1];
      ensures ok: \result == EM_OK;
      ensures count: \forall integer r; 0 <= r < k ==> hist[r] == Count(data, n, r);
      ensures sum: Sum(hist, k) == n;
    complete behaviors;
    disjoint behaviors;
 */
int em_histogram(size_t n, const int *data, size_t k, uint64_t *hist);

#endif
