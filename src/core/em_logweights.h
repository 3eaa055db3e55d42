/* em_logweights: the float module.  Max-shifted log-weights and normalised
   probabilities, computed so that no input can produce NaN or overflow.
   Logic: spec/Weights.acsl.  Proof: proofs/verify.sh, float step (see
   proofs/TRUSTED.md, "special floats").  Tests: tests/test_logweights.c. */
#ifndef EM_LOGWEIGHTS_H
#define EM_LOGWEIGHTS_H
#include "em_base.h"
#include <stddef.h>
#include "spec/Weights.acsl"

/* lw[i] = c * (u[i] - max u), c = eps/(2 delta) (standard) or eps/delta
   (monotone), so lw[i] <= 0 and lw[*argmax] == 0 at the first maximal utility.
   -inf marks an excluded candidate (u[i] == -inf) or a log-weight below -DBL_MAX.
   Utilities may be any finite double or -inf.  Evaluated as
   ((u[i]/2 - umax/2) op eps) op delta, ordered so that no intermediate
   overflows unless the result itself is below -DBL_MAX.
   Errors, first that applies: EM_ERR_NULL, EM_ERR_EMPTY (n == 0),
   EM_ERR_TOO_MANY (n > EM_N_MAX), EM_ERR_EPSILON, EM_ERR_SENSITIVITY,
   EM_ERR_VARIANT, EM_ERR_NAN, EM_ERR_POS_INF, EM_ERR_ALL_EXCLUDED;
   on error lw and *argmax are unspecified. */
/*@ requires valid_u: u == \null || \valid_read(u + (0 .. n - 1));
    requires valid_lw: lw == \null || \valid(lw + (0 .. n - 1));
    requires valid_argmax: argmax == \null || \valid(argmax);
    requires separated: lw == \null || argmax == \null || \separated(lw + (0 .. n - 1), argmax);
    requires separated_u: lw == \null || u == \null || \separated(lw + (0 .. n - 1), u + (0 .. n - 1));
    assigns lw[0 .. n - 1], *argmax;
    behavior null:
      assumes u == \null || lw == \null || argmax == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes u != \null && lw != \null && argmax != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior too_many:
      assumes u != \null && lw != \null && argmax != \null && n > EM_N_MAX;
      assigns \nothing;
      ensures too_many: \result == EM_ERR_TOO_MANY;
    behavior in_range:
      assumes u != \null && lw != \null && argmax != \null && 1 <= n <= EM_N_MAX;
      assigns lw[0 .. n - 1], *argmax;
      ensures status: \result == EM_OK || \result == EM_ERR_EPSILON ||
        \result == EM_ERR_SENSITIVITY || \result == EM_ERR_VARIANT ||
        \result == EM_ERR_NAN || \result == EM_ERR_POS_INF || \result == EM_ERR_ALL_EXCLUDED;
      ensures max_shifted: \result == EM_OK ==> MaxShifted(lw, n, *argmax);
    complete behaviors;
    disjoint behaviors;
 */
int em_logweights(size_t n, const double *u, double eps, double delta, int variant,
                  double *lw, size_t *argmax);

/* From max-shifted log-weights: logp[i] = lw[i] - log(sum_j exp(lw[j])) and
   p[i] = exp(logp[i]), so p[i] in [0, 1] and logp[i] <= 0; p[i] == 0 when the
   probability underflows double (logp[i] stays finite), -inf marks excluded.
   Either output may be NULL (not computed).  Errors: EM_ERR_NULL (lw NULL),
   EM_ERR_EMPTY, EM_ERR_TOO_MANY. */
/*@ requires valid_lw: lw == \null || \valid_read(lw + (0 .. n - 1));
    requires valid_logp: logp == \null || \valid(logp + (0 .. n - 1));
    requires valid_p: p == \null || \valid(p + (0 .. n - 1));
    requires separated: logp == \null || p == \null || \separated(logp + (0 .. n - 1), p + (0 .. n - 1));
    requires separated_lw: lw == \null || ((logp == \null || \separated(lw + (0 .. n - 1), logp + (0 .. n - 1)))
                                        && (p == \null || \separated(lw + (0 .. n - 1), p + (0 .. n - 1))));
    requires shifted: lw != \null && 1 <= n <= EM_N_MAX ==>
      \forall integer i; 0 <= i < n ==> \le_double(lw[i], (double)0.0);
    assigns logp[0 .. n - 1], p[0 .. n - 1];
    behavior null:
      assumes lw == \null;
      assigns \nothing;
      ensures null: \result == EM_ERR_NULL;
    behavior empty:
      assumes lw != \null && n == 0;
      assigns \nothing;
      ensures empty: \result == EM_ERR_EMPTY;
    behavior too_many:
      assumes lw != \null && n > EM_N_MAX;
      assigns \nothing;
      ensures too_many: \result == EM_ERR_TOO_MANY;
    behavior ok:
      assumes lw != \null && 1 <= n <= EM_N_MAX;
      assigns logp[0 .. n - 1], p[0 .. n - 1];
      ensures ok: \result == EM_OK;
      ensures logp: logp != \null ==> \forall integer i; 0 <= i < n ==> \le_double(logp[i], (double)0.0);
      ensures p: p != \null ==> \forall integer i; 0 <= i < n ==>
        \le_double((double)0.0, p[i]) && \le_double(p[i], (double)1.0);
    complete behaviors;
    disjoint behaviors;
 */
int em_normalize(size_t n, const double *lw, double *logp, double *p);

#endif
