/* em_logweights_priv: the two halves of em_logweights, shared with
   em_weights_fixed_u (src/core/em_fixed.c), which computes the log-weights a
   block at a time on the stack instead of into an array.  Internal: expmech.h
   does not include this header and mk/libexpmech.map does not export them.
   Logic: spec/Weights.acsl (proof: the float step).  Tests: tests/test_logweights.c. */
#ifndef EM_LOGWEIGHTS_PRIV_H
#define EM_LOGWEIGHTS_PRIV_H
#include "em_base.h"
#include <stddef.h>

/* The log-weight of u is c (u - umax) with c = ratio * 2^k, ratio in (0.5, 1];
   direct: every finite difference is taken without halving and c is the
   double 2^k (em_logweights.c). */
typedef struct em_lw_scale {
    double umax, ratio, c;
    int k, direct;
} em_lw_scale;

/* em_logweights's checks after its pointers' (size, parameters, NaN, +inf,
   all excluded, in its order) and its first pass: *best = the first maximal
   utility's index, *sc the scale for em_lw_run. */
/*@ requires valid_u: \valid_read(u + (0 .. n - 1));
    requires valid_out: \valid(best) && \valid(sc);
    requires separated: \separated(best, sc, u + (0 .. n - 1));
    assigns *best, *sc;
    ensures empty: n == 0 ==> \result == EM_ERR_EMPTY;
    ensures too_many: n > EM_N_MAX ==> \result == EM_ERR_TOO_MANY;
    ensures status: 1 <= n <= EM_N_MAX ==> (\result == EM_OK || \result == EM_ERR_EPSILON ||
      \result == EM_ERR_SENSITIVITY || \result == EM_ERR_VARIANT ||
      \result == EM_ERR_NAN || \result == EM_ERR_POS_INF || \result == EM_ERR_ALL_EXCLUDED);
    ensures best: \result == EM_OK ==> *best < n;
    ensures scale: \result == EM_OK ==> -2200 <= sc->k <= 2200;
 */
int em_lw_setup(size_t n, const double *u, double eps, double delta, int variant,
                size_t *best, em_lw_scale *sc);

/* out[j] = the log-weight of u[j] on the scale sc, for a run u[0 .. len-1]
   of the utilities; the arg-max's is +0 here, which the caller sets to 0. */
/*@ requires valid_u: \valid_read(u + (0 .. len - 1));
    requires valid_out: \valid(out + (0 .. len - 1));
    requires valid_sc: \valid_read(sc);
    requires separated: \separated(out + (0 .. len - 1), u + (0 .. len - 1), sc);
    requires scale: -2200 <= sc->k <= 2200;
    assigns out[0 .. len - 1];
    ensures shifted: \forall integer j; 0 <= j < len ==> \le_double(out[j], (double)0.0);
 */
void em_lw_run(size_t len, const double *u, const em_lw_scale *sc, double *out);

#endif
