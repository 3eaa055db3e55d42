#include "em_base.h"
#include "core/em_params.h"

const char *em_strerror(int status)
{
    switch (status) {
    case EM_OK: return "success";
    case EM_ERR_NULL: return "a required pointer argument is NULL";
    case EM_ERR_EMPTY: return "the output set is empty (n = 0)";
    case EM_ERR_TOO_MANY: return "too many candidates (n > 2^30)";
    case EM_ERR_NAN: return "a utility is NaN";
    case EM_ERR_POS_INF: return "a utility is +infinity (only -infinity, meaning excluded, is allowed)";
    case EM_ERR_ALL_EXCLUDED: return "every candidate is excluded (all utilities are -infinity)";
    case EM_ERR_EPSILON: return "epsilon must be a finite number > 0";
    case EM_ERR_SENSITIVITY: return "the sensitivity must be a finite number > 0";
    case EM_ERR_VARIANT: return "unknown variant (expected standard or monotone)";
    case EM_ERR_RNG: return "the random source failed";
    case EM_ERR_NOMEM: return "out of memory";
    case EM_ERR_DOMAIN: return "an argument is outside its documented range";
    case EM_ERR_PARSE: return "malformed input";
    case EM_ERR_OVERFLOW: return "an exact integer result does not fit its type";
    default: return "unknown error code";
    }
}

int em_check_params(double eps, double delta, int variant)
{
    /* Written as !(in range) so that NaN, which fails every comparison, is rejected. */
    if (!(eps > 0.0 && eps <= 0x1.fffffffffffffp1023))
        return EM_ERR_EPSILON;
    if (!(delta > 0.0 && delta <= 0x1.fffffffffffffp1023))
        return EM_ERR_SENSITIVITY;
    if (variant != EM_STANDARD && variant != EM_MONOTONE)
        return EM_ERR_VARIANT;
    return EM_OK;
}
