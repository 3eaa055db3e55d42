/* em_uniform: uniform integers by rejection, and one fixed-point draw.
   Logic: spec/Sum.acsl, spec/Selection.acsl.  Tests: tests/test_uniform.c
   (scripted words: rejection, never modulo). */
#ifndef EM_UNIFORM_H
#define EM_UNIFORM_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/Sum.acsl"
#include "spec/Selection.acsl"

/* At most this many words per uniform draw; failing after them has probability
   below 2^-EM_UNIFORM_TRIES and is reported, never replaced by a biased value. */
#define EM_UNIFORM_TRIES 256

/* *out uniform on [0, m): each word's top b bits (b = bit length of m - 1) are
   taken and rejected when >= m, so each accepted value has probability exactly
   1/m.  m == 1 gives 0 without drawing.
   Errors: EM_ERR_NULL, EM_ERR_DOMAIN (m == 0), EM_ERR_RNG (source failed or
   EM_UNIFORM_TRIES rejections). */
/*@ requires valid_rng: rng == \null || \valid(rng);
    requires valid_out: out == \null || \valid(out);
    requires separated: rng == \null || out == \null || \separated(rng, out);
    assigns *rng, *out;
    behavior null:
      assumes rng == \null || out == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior zero:
      assumes rng != \null && out != \null && m == 0;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior draw:
      assumes rng != \null && out != \null && m >= 1;
      assigns *rng, *out;
      ensures status: \result == EM_OK || \result == EM_ERR_RNG;
      ensures below: \result == EM_OK ==> *out < m;
    complete behaviors;
    disjoint behaviors;
 */
int em_uniform_below(em_rng *rng, uint64_t m, uint64_t *out);

/* One draw: *out = i with probability W[i] / total, never a zero weight.
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (n == 0), EM_ERR_DOMAIN (total == 0),
   EM_ERR_RNG. */
/*@ requires valid_W: W == \null || \valid_read(W + (0 .. n - 1));
    requires valid_rng: rng == \null || \valid(rng);
    requires valid_out: out == \null || \valid(out);
    requires separated: rng == \null || out == \null || W == \null ||
      \separated(rng, out, W + (0 .. n - 1));
    requires total: W != \null && n >= 1 ==> total == Sum(W, n);
    assigns *rng, *out;
    behavior null:
      assumes W == \null || rng == \null || out == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes W != \null && rng != \null && out != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior zero:
      assumes W != \null && rng != \null && out != \null && n >= 1 && total == 0;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior draw:
      assumes W != \null && rng != \null && out != \null && n >= 1 && total >= 1;
      assigns *rng, *out;
      ensures status: \result == EM_OK || \result == EM_ERR_RNG;
      ensures index: \result == EM_OK ==> *out < n;
      ensures support: \result == EM_OK ==> W[*out] > 0;
    complete behaviors;
    disjoint behaviors;
 */
int em_sample_fixed(size_t n, const uint64_t *W, uint64_t total, em_rng *rng, size_t *out);

/* Words drawn per call of the random source by em_sample_cumulative_many (a stack
   buffer of this many words). */
#define EM_UNIFORM_BATCH 256

/* k draws from the cumulative table C of em_cumulative (C[i] = Sum(W, i + 1)):
   out[j] = i with probability (C[i] - C[i - 1]) / C[n - 1] (C[-1] = 0), never an
   empty cell.  The same draws, from the same words, as k calls of em_uniform_below
   on [0, C[n - 1]) each followed by em_select_cumulative (so as k calls of
   em_sample_fixed on W): the bit length of the rejection is found once and the
   words come in runs of up to EM_UNIFORM_BATCH from em_rng_fill, never more words
   than the draws still missing, so no word is drawn that k single draws would not
   draw.  Fails as they would after EM_UNIFORM_TRIES rejections in a row.
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (n == 0 or k == 0), EM_ERR_DOMAIN
   (C[n - 1] == 0), EM_ERR_RNG (then out[] is partly written). */
/*@ requires valid_C: C == \null || \valid_read(C + (0 .. n - 1));
    requires valid_rng: rng == \null || \valid(rng);
    requires valid_out: out == \null || \valid(out + (0 .. k - 1));
    requires separated: C == \null || rng == \null || out == \null ||
      \separated(rng, out + (0 .. k - 1), C + (0 .. n - 1));
    requires sorted: C != \null && n >= 1 ==>
      \forall integer i, j; 0 <= i <= j < n ==> C[i] <= C[j];
    assigns *rng, out[0 .. k - 1];
    behavior null:
      assumes C == \null || rng == \null || out == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes C != \null && rng != \null && out != \null && (n == 0 || k == 0);
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior zero:
      assumes C != \null && rng != \null && out != \null && n >= 1 && k >= 1 &&
        C[n - 1] == 0;
      assigns \nothing;
      ensures domain: \result == EM_ERR_DOMAIN;
    behavior draw:
      assumes C != \null && rng != \null && out != \null && n >= 1 && k >= 1 &&
        C[n - 1] >= 1;
      assigns *rng, out[0 .. k - 1];
      ensures status: \result == EM_OK || \result == EM_ERR_RNG;
      ensures index: \result == EM_OK ==> \forall integer j; 0 <= j < k ==> out[j] < n;
      ensures support: \result == EM_OK ==> \forall integer j; 0 <= j < k ==>
        (out[j] == 0 ? C[0] > 0 : C[out[j] - 1] < C[out[j]]);
    complete behaviors;
    disjoint behaviors;
 */
int em_sample_cumulative_many(size_t n, const uint64_t *C, em_rng *rng, size_t k, size_t *out);

#endif
