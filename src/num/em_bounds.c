/* em_bounds.c: interval bounds of rationals and their exponentials, MPFR's widest
 * exponent range (em_bounds.h). */
#include "num/em_bounds.h"
#include "num/em_objs.h"

#include <stdlib.h>

void em_mpfr_widest_range(void)
{
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
}

em_range em_range_enter(void)
{
    em_range r = {mpfr_get_emin(), mpfr_get_emax()};
    em_mpfr_widest_range();
    return r;
}

void em_range_leave(em_range r)
{
    mpfr_set_emin(r.emin);
    mpfr_set_emax(r.emax);
}

/* [lo, hi] around the rational q at their precisions */
void em_q_bounds(mpfr_t lo, mpfr_t hi, const mpq_t q)
{
    int tern = mpfr_set_q(lo, q, MPFR_RNDD);
    if (mpfr_get_prec(hi) != mpfr_get_prec(lo)) {
        mpfr_set_q(hi, q, MPFR_RNDU);
    } else { /* one conversion: RNDU(q) is the number after RNDD(q) when q is inexact */
        mpfr_set(hi, lo, MPFR_RNDN);
        if (tern != 0)
            mpfr_nextabove(hi);
    }
}

/* exp(t) bounds for rational t.  One exponential: exp(t) <= exp(t1) exp(t2 - t1) <=
 * nextabove(RNDD(exp(t1))) (1 + 2 (t2 - t1)) for 0 <= t2 - t1 <= 1 (exp(d) <= 1 + 2d there),
 * with [t1, t2] the bounds of t (t2 - t1 is one ulp). */
void em_exp_q_bounds(mpfr_t lo, mpfr_t hi, const mpq_t t, mpfr_t s1, mpfr_t s2)
{
    em_q_bounds(s1, s2, t);
    mpfr_exp(lo, s1, MPFR_RNDD);
    if (mpfr_zero_p(lo) || mpfr_inf_p(lo)) {
        mpfr_exp(hi, s2, MPFR_RNDU);
        return;
    }
    mpfr_set(hi, lo, MPFR_RNDU);
    mpfr_nextabove(hi);
    if (mpfr_cmp(s1, s2) != 0) {
        mpfr_sub(s2, s2, s1, MPFR_RNDU);
        if (mpfr_cmp_ui(s2, 1) > 0) {
            em_q_bounds(s1, s2, t);
            mpfr_exp(hi, s2, MPFR_RNDU);
            return;
        }
        mpfr_mul_2ui(s2, s2, 1, MPFR_RNDU);
        mpfr_add_ui(s2, s2, 1, MPFR_RNDU);
        mpfr_mul(hi, hi, s2, MPFR_RNDU);
    }
}

int em_bounds_below_range(mpfr_srcptr lo, mpfr_srcptr hi)
{
    return mpfr_zero_p(lo) && !mpfr_zero_p(hi) && mpfr_get_exp(hi) <= mpfr_get_emin_min() + 64;
}

static void fr_init(void *x, long prec)
{
    mpfr_init2(x, (mpfr_prec_t)prec);
}

static void fr_clear(void *x)
{
    mpfr_clear(x);
}

mpfr_t *em_mpfr_array_new(size_t n, mpfr_prec_t prec)
{
    return em_objs_new(n, sizeof(mpfr_t), fr_init, prec);
}

void em_mpfr_array_free(mpfr_t *a, size_t n)
{
    em_objs_free(a, n, sizeof(mpfr_t), fr_clear);
}

void em_mpfr_arrays_free(mpfr_t *const *v, size_t k, size_t n)
{
    for (size_t j = 0; j < k; j++)
        em_mpfr_array_free(v[j], n);
}
