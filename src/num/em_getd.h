/* em_getd.h: the double nearest an MPFR number, as mpfr_get_d(x, MPFR_RNDN), without
 * MPFR's call overhead in the common case (the oracle converts both ends of every
 * interval it decides). */
#ifndef EM_GETD_H
#define EM_GETD_H

#include <mpfr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mpfr_get_d(x, MPFR_RNDN), bit for bit: read from the significand's top limb when x is
 * regular and its double is normal, else by mpfr_get_d itself. */
double em_mpfr_get_d_rn(mpfr_srcptr x);

#ifdef __cplusplus
}
#endif
#endif
