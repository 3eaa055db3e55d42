/* em_params: status messages, (epsilon, delta, variant) validated.  Logic: IEEE comparisons, no spec file.  Tests: tests/test_params.c. */
#ifndef EM_PARAMS_H
#define EM_PARAMS_H
#include "em_base.h"

/* A static message for every status code, and for unknown codes; never NULL. */
/*@ assigns \result \from status;
    ensures non_null: \result != \null;
 */
const char *em_strerror(int status);

/* EM_OK iff 0 < eps <= DBL_MAX, 0 < delta <= DBL_MAX and variant is EM_STANDARD
   or EM_MONOTONE.  Comparisons are written so that NaN fails every test. */
/*@ assigns \nothing;
    behavior bad_variant:
      assumes variant != EM_STANDARD && variant != EM_MONOTONE;
      ensures bad_variant: \result == EM_ERR_VARIANT || \result == EM_ERR_EPSILON
                           || \result == EM_ERR_SENSITIVITY;
    behavior ok:
      assumes \gt_double(eps, (double)0.0) && \le_double(eps, (double)0x1.fffffffffffffp1023);
      assumes \gt_double(delta, (double)0.0) && \le_double(delta, (double)0x1.fffffffffffffp1023);
      assumes variant == EM_STANDARD || variant == EM_MONOTONE;
      ensures ok: \result == EM_OK;
    behavior bad_epsilon:
      assumes !(\gt_double(eps, (double)0.0) && \le_double(eps, (double)0x1.fffffffffffffp1023));
      ensures bad_epsilon: \result == EM_ERR_EPSILON;
    behavior bad_delta:
      assumes \gt_double(eps, (double)0.0) && \le_double(eps, (double)0x1.fffffffffffffp1023);
      assumes !(\gt_double(delta, (double)0.0) && \le_double(delta, (double)0x1.fffffffffffffp1023));
      ensures bad_delta: \result == EM_ERR_SENSITIVITY;
    complete behaviors ok, bad_epsilon, bad_delta, bad_variant;
 */
int em_check_params(double eps, double delta, int variant);

#endif
