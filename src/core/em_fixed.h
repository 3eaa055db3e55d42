/* em_fixed: fixed-point weights for the integer sampler, from max-shifted
   log-weights.  Logic: spec/Weights.acsl, spec/Sum.acsl.
   Tests: tests/test_fixed.c. */
#ifndef EM_FIXED_H
#define EM_FIXED_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Sum.acsl"
#include "spec/Weights.acsl"

/* W[i] = ceil(exp(lw[i]) * 2^k) clamped to [0, 2^k], where k = 63 - ceil(log2 n):
   the arg-max (lw == 0) gets exactly 2^k, every candidate whose weight is
   positive in double gets W[i] >= 1 (rounding up never drops a candidate from
   the support), and *total = sum W <= 2^63, so every prefix sum fits.
   *scale receives 2^k.  The draw then has probability W[i] / *total, within
   n / *total <= n / 2^k of the real-valued weights' distribution.
   Errors: EM_ERR_NULL, EM_ERR_EMPTY, EM_ERR_TOO_MANY. */
/*@ requires valid_lw: lw == \null || \valid_read(lw + (0 .. n - 1));
    requires valid_W: W == \null || \valid(W + (0 .. n - 1));
    requires valid_total: total == \null || \valid(total);
    requires valid_scale: scale == \null || \valid(scale);
    requires separated: W == \null || total == \null || scale == \null || lw == \null ||
      \separated(W + (0 .. n - 1), total, scale, lw + (0 .. n - 1));
    assigns W[0 .. n - 1], *total, *scale;
    behavior null:
      assumes lw == \null || W == \null || total == \null || scale == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes lw != \null && W != \null && total != \null && scale != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior too_many:
      assumes lw != \null && W != \null && total != \null && scale != \null && n > EM_N_MAX;
      assigns \nothing;
      ensures too_many: \result == EM_ERR_TOO_MANY;
    behavior ok:
      assumes lw != \null && W != \null && total != \null && scale != \null && 1 <= n <= EM_N_MAX;
      assigns W[0 .. n - 1], *total, *scale;
      ensures ok: \result == EM_OK;
      ensures fixed: FixedWeights(W, n, *scale);
      ensures argmax: \forall integer i; 0 <= i < n && \eq_double(lw[i], (double)0.0) ==> W[i] == *scale;
      ensures sum: *total == Sum(W, n);
      ensures bounded: *total <= 9223372036854775808;
      ensures positive: (\exists integer i; 0 <= i < n && \eq_double(lw[i], (double)0.0)) ==> *total >= 1;
    complete behaviors;
    disjoint behaviors;
 */
int em_weights_fixed(size_t n, const double *lw, uint64_t *W, uint64_t *total, uint64_t *scale);

/* em_logweights then em_weights_fixed in one call, without the log-weight
   array: the same W, *total and *scale (bit for bit: the same code computes
   them, block by block; tests/test_fixed.c compares), and *argmax = the first
   maximal utility.  The float sampler's preparation: one pass over u fewer and
   no n-double array written and read back.  Errors: em_logweights's, in its
   order (EM_ERR_NULL also for a NULL W, total, scale or argmax); on error the
   outputs are unspecified. */
/*@ requires valid_u: u == \null || \valid_read(u + (0 .. n - 1));
    requires valid_W: W == \null || \valid(W + (0 .. n - 1));
    requires valid_total: total == \null || \valid(total);
    requires valid_scale: scale == \null || \valid(scale);
    requires valid_argmax: argmax == \null || \valid(argmax);
    requires separated: u == \null || W == \null || total == \null || scale == \null ||
      argmax == \null || \separated(W + (0 .. n - 1), total, scale, argmax, u + (0 .. n - 1));
    assigns W[0 .. n - 1], *total, *scale, *argmax;
    behavior null:
      assumes u == \null || W == \null || total == \null || scale == \null || argmax == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes u != \null && W != \null && total != \null && scale != \null && argmax != \null &&
        n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior too_many:
      assumes u != \null && W != \null && total != \null && scale != \null && argmax != \null &&
        n > EM_N_MAX;
      assigns \nothing;
      ensures too_many: \result == EM_ERR_TOO_MANY;
    behavior in_range:
      assumes u != \null && W != \null && total != \null && scale != \null && argmax != \null &&
        1 <= n <= EM_N_MAX;
      assigns W[0 .. n - 1], *total, *scale, *argmax;
      ensures status: \result == EM_OK || \result == EM_ERR_EPSILON ||
        \result == EM_ERR_SENSITIVITY || \result == EM_ERR_VARIANT ||
        \result == EM_ERR_NAN || \result == EM_ERR_POS_INF || \result == EM_ERR_ALL_EXCLUDED;
      ensures fixed: \result == EM_OK ==> FixedWeights(W, n, *scale);
      ensures argmax: \result == EM_OK ==> *argmax < n && W[*argmax] == *scale;
      ensures sum: \result == EM_OK ==> *total == Sum(W, n);
      ensures bounded: \result == EM_OK ==> *total <= 9223372036854775808;
      ensures positive: \result == EM_OK ==> *total >= 1;
    complete behaviors;
    disjoint behaviors;
 */
int em_weights_fixed_u(size_t n, const double *u, double eps, double delta, int variant,
                       uint64_t *W, uint64_t *total, uint64_t *scale, size_t *argmax);

#endif
