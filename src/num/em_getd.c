/* em_getd.c: the double nearest an MPFR number (em_getd.h). */
#include "num/em_getd.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

double em_mpfr_get_d_rn(mpfr_srcptr x)
{
    if (!mpfr_regular_p(x) || GMP_NUMB_BITS != 64)
        return mpfr_get_d(x, MPFR_RNDN);
    const mpfr_exp_t eb = mpfr_get_exp(x); /* 2^(eb-1) <= |x| < 2^eb */
    /* normal doubles, rounding up included: 2^-1022 <= 2^(eb-1) and 2^eb <= 2^1023 */
    if (eb < -1021 + 1 || eb > 1023)
        return mpfr_get_d(x, MPFR_RNDN);
    const mp_size_t nl = (mp_size_t)((mpfr_get_prec(x) - 1) / GMP_NUMB_BITS + 1);
    const mp_limb_t *m = (const mp_limb_t *)mpfr_custom_get_significand(x);
    const uint64_t top = (uint64_t)m[nl - 1]; /* bit 63 set */
    uint64_t keep = top >> 11;                /* the 53 leading bits */
    const uint64_t rest = top & 0x7FF;        /* bit 10: the half; below it, and the lower
                                                 limbs: above or exactly half */
    int up = 0;
    if (rest & 0x400) {
        up = (rest & 0x3FF) != 0 || (keep & 1) != 0;
        for (mp_size_t i = 0; i < nl - 1 && !up; i++)
            up = m[i] != 0;
    }
    keep += (uint64_t)up;
    int e = (int)eb - 53;
    if (keep >> 53) { /* rounded up to 2^53: the next binade, still exact */
        keep >>= 1;
        e++;
    }
    /* keep 2^e, normal (biased exponent e + 1075 in [2, 2046]): its binary64 fields
     * directly, as ldexp((double)keep, e) would give them exactly, without its call */
    const uint64_t bits = (mpfr_sgn(x) < 0 ? (uint64_t)1 << 63 : 0) |
                          ((uint64_t)(e + 1075) << 52) | (keep & (((uint64_t)1 << 52) - 1));
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}
