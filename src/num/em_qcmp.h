/* em_qcmp.h: mpq_cmp with a word path, for the passes over 10^6 utilities that compare
 * each with the current extreme (decimals of up to 18 digits fit a limb each). */
#ifndef EM_NUM_QCMP_H
#define EM_NUM_QCMP_H

#include <gmp.h>

/* The sign of a - b, as mpq_cmp's (denominators positive); when every part is at most one
 * limb, by the cross products in 128 bits (exact: each below 2^128), without mpq_cmp's
 * temporary products. */
static inline int em_qcmp(const mpq_t a, const mpq_t b)
{
    mpz_srcptr na = mpq_numref(a), da = mpq_denref(a), nb = mpq_numref(b), db = mpq_denref(b);
    if (GMP_NUMB_BITS != 64 || mpz_size(na) > 1 || mpz_size(nb) > 1 || mpz_size(da) != 1 ||
        mpz_size(db) != 1)
        return mpq_cmp(a, b);
    const int sa = mpz_sgn(na), sb = mpz_sgn(nb);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (sa == 0)
        return 0;
    __extension__ typedef unsigned __int128 u128;
    const u128 x = (u128)mpz_getlimbn(na, 0) * mpz_getlimbn(db, 0),
               y = (u128)mpz_getlimbn(nb, 0) * mpz_getlimbn(da, 0);
    const int r = (x > y) - (x < y); /* |a| against |b| */
    return sa > 0 ? r : -r;
}

#endif
