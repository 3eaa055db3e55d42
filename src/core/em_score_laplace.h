/* em_score_laplace: Laplace as an exponential mechanism (seeds 002, 003):
   u(x, r) = -|f(x) - r| over a finite grid, in integer units (the caller
   scales exact decimals by one common denominator).  Logic:
   spec/ScoreLaplace.acsl.  Sensitivity lemmas: proofs/lemmas/ScoreMisc_lemmas.h;
   the factor of 2: spec/Theorems.md section 6.  Tests: tests/test_score.c. */
#ifndef EM_SCORE_LAPLACE_H
#define EM_SCORE_LAPLACE_H
#include "em_base.h"
#include <stddef.h>
#include <stdint.h>
#include "spec/ScoreLaplace.acsl"

/* Largest |f| and |r| accepted: 2^62 - 1, so that |f - r| < 2^63. */
#define EM_SCORE_ABS_MAX 4611686018427387903LL

/* u[j] = LaplaceScore(f, grid[j]) = -|f - grid[j]|.  Sensitivity df when the
   query f has sensitivity df (Laplace_Sensitivity); not monotone.
   Errors: EM_ERR_NULL, EM_ERR_EMPTY (m == 0), EM_ERR_OVERFLOW (|f| or some
   |grid[j]| above EM_SCORE_ABS_MAX).  u is written only on EM_OK. */
/*@ requires valid_u: u == \null || \valid(u + (0 .. m - 1));
    requires valid_grid: grid == \null || \valid_read(grid + (0 .. m - 1));
    requires separated: u == \null || grid == \null ||
                        \separated(u + (0 .. m - 1), grid + (0 .. m - 1));
    assigns u[0 .. m - 1];
    behavior null:
      assumes u == \null || grid == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes u != \null && grid != \null && m == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior overflow:
      assumes u != \null && grid != \null && m > 0;
      assumes \abs(f) > EM_SCORE_ABS_MAX ||
              \exists integer j; 0 <= j < m && \abs(grid[j]) > EM_SCORE_ABS_MAX;
      assigns \nothing;
      ensures overflow: \result == EM_ERR_OVERFLOW;
    behavior ok:
      assumes u != \null && grid != \null && m > 0;
      assumes \abs(f) <= EM_SCORE_ABS_MAX;
      assumes \forall integer j; 0 <= j < m ==> \abs(grid[j]) <= EM_SCORE_ABS_MAX;
      assigns u[0 .. m - 1];
      ensures ok: \result == EM_OK;
      ensures score: \forall integer j; 0 <= j < m ==> u[j] == LaplaceScore(f, grid[j]);
    complete behaviors;
    disjoint behaviors;
 */
int em_score_laplace(int64_t f, size_t m, const int64_t *grid, int64_t *u);

#endif
