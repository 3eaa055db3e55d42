/* em_fromlog.h: a positive value too small for MPFR's exponent range (below about
 * 2^-(2^62)), correctly rounded to K significant decimal digits from bounds on its natural
 * logarithm, which is an ordinary number: v = 10^x with x = ln v / ln 10, the digits from
 * 10^frac(x), the exponent from floor(x). */
#ifndef EM_NUM_FROMLOG_H
#define EM_NUM_FROMLOG_H

#include "num/em_round.h"

/* lnb(ctx, prec, lo, hi): bounds on ln v at precision prec.  p0: bits the integer part of
 * ln v needs (its magnitude's bit length).  The value must not be a K-digit decimal
 * boundary (a transcendental one never is): else EM_ERR_UNDECIDED at EM_ROUND_MAX_PREC.
 * out->d is 0 (v is far below the least double).  EM_OK, EM_ERR_UNDECIDED, EM_ERR_NOMEM,
 * or lnb's error. */
int em_round_from_log(em_round_bounds_fn lnb, void *ctx, int K, mpfr_prec_t p0, em_cval *out);

#endif
