/* em_exact_ref.h: the reference the exact sampler's tests (test_exact_d, test_exact_vec)
 * check its 63-bit words against, computed by MPFR at 256 bits, never by the sampler. */
#ifndef EM_EXACT_REF_H
#define EM_EXACT_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <gmp.h>
#include <mpfr.h>

#include "expmech.h"

/* F(i) 2^63 for the reals of (u, ex, eps, delta, var) from MPFR at 256 bits on the exact
 * rationals (relative error far below 2^-200): *fl = floor - 1, *fh = ceil + 1 */
static void ref_words(size_t n, const double *u, const unsigned char *ex, double eps,
                      double delta, int var, uint64_t *fl, uint64_t *fh)
{
    mpq_t c, d, um;
    mpq_inits(c, d, um, NULL);
    mpq_set_d(c, eps);
    mpq_set_d(d, delta);
    mpq_div(c, c, d);
    if (var == EM_STANDARD)
        mpq_div_2exp(c, c, 1);
    int have = 0;
    double umax = 0;
    for (size_t i = 0; i < n; i++)
        if (!(ex && ex[i]) && u[i] > -HUGE_VAL && (!have || u[i] > umax)) {
            umax = u[i];
            have = 1;
        }
    mpq_set_d(um, umax);
    mpfr_t *C = malloc((n + 1) * sizeof *C);
    mpfr_t t;
    mpfr_init2(t, 256);
    for (size_t i = 0; i <= n; i++)
        mpfr_init2(C[i], 256);
    mpfr_set_ui(C[0], 0, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        if ((ex && ex[i]) || u[i] == -HUGE_VAL) {
            mpfr_set(C[i + 1], C[i], MPFR_RNDN);
            continue;
        }
        mpq_set_d(d, u[i]);
        mpq_sub(d, d, um);
        mpq_mul(d, d, c);
        mpfr_set_q(t, d, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_add(C[i + 1], C[i], t, MPFR_RNDN);
    }
    mpz_t z;
    mpz_init(z);
    for (size_t i = 0; i <= n; i++) {
        mpfr_div(t, C[i], C[n], MPFR_RNDN);
        mpfr_mul_2ui(t, t, 63, MPFR_RNDN);
        mpfr_get_z(z, t, MPFR_RNDD);
        fl[i] = mpz_get_ui(z) ? mpz_get_ui(z) - 1 : 0;
        mpfr_get_z(z, t, MPFR_RNDU);
        fh[i] = mpz_get_ui(z) + 1;
        mpfr_clear(C[i]);
    }
    mpz_clear(z);
    free(C);
    mpfr_clear(t);
    mpq_clears(c, d, um, NULL);
}

#endif
