/* em_pf_law_h.c: permute-and-flip's law at scale (em_pf_law.h): the exponentials p_i and
 * the shared product h(x) = (1 - x)^(mm-1) prod (1 - p_s x), bounded at a point and on a
 * disc (em_pf_law_priv.h). */
#include <math.h>

#include <mpfr.h>

#include "num/em_bounds.h"
#include "oracle/em_exponents.h"
#include "oracle/em_pf_law_priv.h"


/* Bounds tlo <= t_i <= thi at tlo's precision and plo <= p_i <= phi at plo's.
 * exp(thi) = exp(tlo) exp(thi - tlo) <= nextabove(RNDD exp(tlo)) (1 + 2 (thi - tlo)) for
 * thi - tlo <= 1 (exp(d) <= 1 + 2d on [0, 1]; exp(tlo) is irrational, tlo != 0 being a
 * non-zero dyadic, so strictly below nextabove), which saves the second exponential. */
void em_pfl_p_bounds(em_pfl *F, size_t i, mpfr_t tlo, mpfr_t thi, mpfr_t plo, mpfr_t phi)
{
    int inexact = em_exponent_t_lo(&F->tf, &F->src, i, tlo) != 0;
    if (mpfr_get_prec(thi) != mpfr_get_prec(tlo))
        mpfr_set_prec(thi, mpfr_get_prec(tlo));
    mpfr_set(thi, tlo, MPFR_RNDN);
    if (inexact)
        mpfr_nextabove(thi);
    mpfr_exp(plo, tlo, MPFR_RNDD);
    mpfr_set(phi, plo, MPFR_RNDN);
    mpfr_nextabove(phi);
    if (inexact) {
        /* 1 + 2 ulp(tlo), exact at the precision of z */
        if (mpfr_get_prec(F->z) < mpfr_get_prec(tlo) + 8)
            mpfr_set_prec(F->z, mpfr_get_prec(tlo) + 8);
        mpfr_sub(F->z, thi, tlo, MPFR_RNDU);
        mpfr_mul_2ui(F->z, F->z, 1, MPFR_RNDU);
        mpfr_add_ui(F->z, F->z, 1, MPFR_RNDU);
        mpfr_mul(phi, phi, F->z, MPFR_RNDU);
    }
    if (mpfr_cmp_ui(phi, 1) > 0)
        mpfr_set_ui(phi, 1, MPFR_RNDN);
}

/* ------------------------------------------------------------------ h(x) */

/* out times the direct factors of h at x, (1 - x)^(mm-1) prod_heavy (1 - p x)^mult, each
 * rounded in direction R with the bound of p that moves it that way (hi: the upper one);
 * a factor below 0 (x past 1/p, only for a lower bound) counts as 0 */
static void mul_factors(em_pfl *F, const em_pfl_level *L, mpfr_srcptr x, int hi, mpfr_rnd_t R,
                        mpfr_t out)
{
    mpfr_ptr u = F->hu;
    const mpfr_rnd_t Rn = R == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
    for (size_t g = 0; g < L->ng; g++) {
        mpfr_mul(u, L->hp[2 * g + hi], x, Rn);
        mpfr_ui_sub(u, 1, u, R);
        if (mpfr_sgn(u) < 0)
            mpfr_set_zero(u, 1);
        if (L->gm[g] > 1)
            mpfr_pow_ui(u, u, L->gm[g], R);
        mpfr_mul(out, out, u, R);
    }
    if (F->mm > 1) {
        mpfr_ui_sub(u, 1, x, R);
        mpfr_pow_ui(u, u, (unsigned long)(F->mm - 1), R);
        mpfr_mul(out, out, u, R);
    }
}

/* A bound of h(x) = (1 - x)^(mm-1) prod_heavy (1 - p x) exp(-A(x)) at an exact x in
 * [0, T]: upper when up, else lower.  A(x) = -sum_light log(1 - p x) = sum_k y^k Q_k / k,
 * y = x / T <= 1; the terms beyond D are below y^(D+1) th^D Q_1 / ((D+1)(1 - y th)),
 * th = 2^-THETA_LOG2, since Q_k <= th^(k-1) Q_1. */
void em_pfl_h_eval(em_pfl *F, const em_pfl_level *L, mpfr_srcptr x, int up, mpfr_t out)
{
    mpfr_ptr s = F->hs, u = F->hu;
    const mpfr_rnd_t R = up ? MPFR_RNDU : MPFR_RNDD, Rn = up ? MPFR_RNDD : MPFR_RNDU;
    mpfr_mul_2si(u, x, L->jT, MPFR_RNDN); /* y, exact */
    mpfr_set(s, up ? L->Qlo[L->D - 1] : L->Qhi[L->D - 1], Rn);
    for (int k = L->D - 2; k >= 0; k--) {
        mpfr_mul(s, s, u, Rn);
        mpfr_add(s, s, up ? L->Qlo[k] : L->Qhi[k], Rn);
    }
    mpfr_mul(s, s, u, Rn); /* A, rounded against the bound */
    if (!up) {
        /* + y^(D+1) th^D Q_1 / ((D + 1)(1 - y th)) */
        mpfr_pow_ui(out, u, (unsigned long)L->D + 1, MPFR_RNDU);
        mpfr_mul(out, out, L->Q1hi, MPFR_RNDU);
        mpfr_div_2ui(out, out, (unsigned long)(THETA_LOG2 * L->D), MPFR_RNDU);
        mpfr_div_ui(out, out, (unsigned long)L->D + 1, MPFR_RNDU);
        mpfr_div_2ui(u, u, THETA_LOG2, MPFR_RNDU);
        mpfr_ui_sub(u, 1, u, MPFR_RNDD);
        mpfr_div(out, out, u, MPFR_RNDU);
        mpfr_add(s, s, out, MPFR_RNDU);
    }
    mpfr_neg(s, s, MPFR_RNDN);
    mpfr_exp(out, s, R);
    mul_factors(F, L, x, !up, R, out);
}

/* Hd >= max |h(z)| over the disc |z - x0 - r| <= r: each factor |1 - p z| is largest at
 * the disc's leftmost point x0 (1/p >= 1 lies right of the centre), so the product of
 * the maxima is h(x0) for x0 >= 0 and, for x0 < 0, at most
 * (1 - x0)^(mm-1) prod_heavy (1 + p |x0|) exp(|x0| sum_light p). */
void em_pfl_disc_bound(em_pfl *F, const em_pfl_level *L, mpfr_srcptr x0, mpfr_t Hd)
{
    mpfr_ptr s = F->hs;
    if (mpfr_sgn(x0) >= 0) {
        em_pfl_h_eval(F, L, x0, 1, Hd);
        return;
    }
    mpfr_mul_2si(s, L->Q1hi, L->jT, MPFR_RNDU); /* sum of light p, upper */
    mpfr_mul(s, s, x0, MPFR_RNDD);
    mpfr_neg(s, s, MPFR_RNDU);
    mpfr_exp(Hd, s, MPFR_RNDU);
    mul_factors(F, L, x0, 1, MPFR_RNDU, Hd);
}

/* mpfr value -> log2 as a double (-inf for 0) */
double em_pfl_lg2(mpfr_srcptr x)
{
    if (mpfr_zero_p(x))
        return -INFINITY;
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
}


mpfr_t *em_pfl_zeros(size_t n, mpfr_prec_t prec)
{
    mpfr_t *v = em_mpfr_array_new(n, prec);
    if (v)
        for (size_t i = 0; i < n; i++)
            mpfr_set_zero(v[i], 1);
    return v;
}
