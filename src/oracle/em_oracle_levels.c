/* em_oracle_levels.c: the normaliser S = m + sum exp(t_j) and ln S as intervals at
 * precision level k (p0 2^k bits), computed once per level. */
#include "oracle/em_oracle_priv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "num/em_bounds.h"
#include "num/em_dec10.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_cont.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

static long log2_ceil_sz(size_t n)
{
    long b = 0;
    while (b < 64 && ((size_t)1 << b) < n)
        b++;
    return b;
}

/* The normaliser at level k: one pass over the others. */
int em_oracle_level(em_oracle *o, int k)
{
    struct level *L = &o->lv[k];
    if (L->ready)
        return EM_OK;
    mpfr_prec_t p;
    if (k == 0)
        p = (mpfr_prec_t)ceil((o->K + 2) * 3.3219280948873623) + log2_ceil_sz(o->n + 1) +
            o->tbits + 16;
    else
        p = o->lv[k - 1].p * 2;
    p = (p + 63) / 64 * 64; /* whole limbs: the spare bits are free */
    if (p > MAX_PREC)
        return EM_ERR_UNDECIDED; /* the precision limit: exit 3 */
    em_mpfr_widest_range();
    L->p = p;
    mpfr_inits2(p, L->S_lo, L->S_hi, L->lnS_lo, L->lnS_hi, L->ly_lo, L->ly_hi, (mpfr_ptr)0);
    L->ready = 1;
    L->extreme = 0;
    o->passes++;
    if (p > o->maxprec)
        o->maxprec = p;

    mpfr_t tlo, thi, elo, ehi, tmp, Rlo, Rhi;
    mpfr_inits2(p, tlo, thi, elo, ehi, tmp, Rlo, Rhi, (mpfr_ptr)0);
    mpfr_set_ui(Rlo, 0, MPFR_RNDN);
    mpfr_set_ui(Rhi, 0, MPFR_RNDN);
    mpfr_t *tab = NULL;
    if (k == 0 && o->nother > 0) {
        L->Enl = mpfr_custom_get_size(p) / sizeof(mp_limb_t);
        L->Eexp = malloc(o->n * sizeof *L->Eexp);
        L->Elimbs = malloc(o->n * L->Enl * sizeof(mp_limb_t));
        L->Etab = o->tab_on ? calloc(o->n, 1) : NULL;
        if (!L->Eexp || !L->Elimbs || (o->tab_on && !L->Etab))
            em_oracle_level_storage_free(L); /* storage is an optimisation only */
        if (o->tab_on)
            tab = em_oracle_tab_build(o, p + TAB_EXTRA);
    }
    /* the terms from the tables, summed down at their precision pt = p + TAB_EXTRA; the
     * upper bound from that sum (below, at the end), not a second sum */
    mpfr_t Rtlo, Rtup, et;
    mpfr_inits2(p + TAB_EXTRA, Rtlo, Rtup, et, (mpfr_ptr)0);
    mpfr_set_ui(Rtlo, 0, MPFR_RNDN);
    int any_tab = 0;
    unsigned long ntab = 0;
    /* Upper bound without a second exponential per term: with tlo = RNDD(t_j) and
     * elo = RNDD(exp(tlo)) > 0,
     *   exp(t_j) <= exp(tlo) exp(ulp(tlo)) <= nextabove(elo) (1 + 2 ulp(tlo))
     *            <= elo (1 + 2^(1-p)) (1 + 2 u),   u = max ulp(tlo) over such terms,
     * (exp(d) <= 1 + 2d for 0 <= d <= 1; here |t_j| < 2^62 < 2^(p-16), so u < 2^-16),
     * so R <= RNDU(sum elo) (1 + 2^(1-p)) (1 + 2u) + sum over underflowed terms of
     * RNDU(exp(RNDU(t_j))), the latter computed directly (rare). */
    mpfr_t Rup, Ruf;
    mpfr_inits2(p, Rup, Ruf, (mpfr_ptr)0);
    mpfr_set_ui(Rup, 0, MPFR_RNDN);
    mpfr_set_ui(Ruf, 0, MPFR_RNDN);
    mpfr_exp_t ue = mpfr_get_emin(); /* exponent of u */
    int any_inexact = 0;
    for (size_t j = 0; j < o->n; j++) {
        if (o->cls[j] != CL_OTHER)
            continue;
        unsigned long mj;
        if (tab && em_oracle_tab_m(o, j, &mj)) {
            mpfr_srcptr ej = em_oracle_tab_exp_lo(o, tab, mj, et); /* > 0: |t_j| < 2^40 */
            mpfr_add(Rtlo, Rtlo, ej, MPFR_RNDD);
            ntab++;
            mpfr_set(elo, ej, MPFR_RNDD);
            any_tab = 1;
            if (L->Eexp) {
                mpfr_exp_t ee = mpfr_get_exp(elo);
                if (ee <= E_NONE || ee > INT32_MAX) {
                    L->Eexp[j] = E_NONE; /* attempt() recomputes it by mpfr_exp */
                } else {
                    L->Etab[j] = 1;
                    L->Eexp[j] = (int32_t)ee;
                    memcpy(L->Elimbs + j * L->Enl, mpfr_custom_get_significand(elo),
                           L->Enl * sizeof(mp_limb_t));
                }
            }
            continue;
        }
        int tern = em_exponent_t_lo(&o->tf, &o->src, j, tlo);
        mpfr_exp(elo, tlo, MPFR_RNDD);
        if (mpfr_zero_p(elo)) {
            mpfr_set(thi, tlo, MPFR_RNDN);
            if (tern != 0)
                mpfr_nextabove(thi); /* RNDU(t_j) */
            mpfr_exp(ehi, thi, MPFR_RNDU);
            mpfr_add(Ruf, Ruf, ehi, MPFR_RNDU);
        } else {
            mpfr_add(Rlo, Rlo, elo, MPFR_RNDD);
            mpfr_add(Rup, Rup, elo, MPFR_RNDU);
            if (tern != 0) {
                any_inexact = 1;
                mpfr_exp_t e = mpfr_get_exp(tlo) - (mpfr_exp_t)p; /* ulp(tlo) = 2^e */
                if (e > ue)
                    ue = e;
            }
        }
        if (L->Eexp) {
            /* elo has precision p: exactly Enl limbs */
            mpfr_exp_t ee = mpfr_zero_p(elo) ? 0 : mpfr_get_exp(elo);
            if (mpfr_zero_p(elo) || ee <= E_NONE || ee > INT32_MAX) {
                L->Eexp[j] = E_NONE;
            } else {
                L->Eexp[j] = (int32_t)ee;
                memcpy(L->Elimbs + j * L->Enl, mpfr_custom_get_significand(elo),
                       L->Enl * sizeof(mp_limb_t));
            }
        }
    }
    /* Rhi = Rup (1 + 2^(1-p)) (1 + 2u) + Ruf */
    mpfr_set_ui_2exp(tmp, 1, 1 - (long)p, MPFR_RNDU);
    mpfr_add_ui(tmp, tmp, 1, MPFR_RNDU);
    mpfr_mul(Rhi, Rup, tmp, MPFR_RNDU);
    if (any_inexact) {
        mpfr_set_ui_2exp(tmp, 1, ue + 1, MPFR_RNDU);
        mpfr_add_ui(tmp, tmp, 1, MPFR_RNDU);
        mpfr_mul(Rhi, Rhi, tmp, MPFR_RNDU);
    }
    mpfr_add(Rhi, Rhi, Ruf, MPFR_RNDU);
    if (any_tab) {
        /* Each RNDD addition keeps at least (1 - d) of its exact sum, d = 2^(1-pt) (a sum
         * of positive terms is never decreased by more than an ulp, <= d of it), so the
         * exact sum E of the N = ntab products satisfies E <= Rtlo (1 - d)^-N
         * <= Rtlo (1 + 2 N d) (as N d <= 1/2: N <= n < 2^62, pt >= 128).  Each product is
         * below its exp(t_j) by at most the factor 1 + 2^(TAB_HI_BITS - pt) (the tables'
         * bound, em_oracle_priv.h), so R_tab <= Rtlo (1 + 2 N d)(1 + 2^(TAB_HI_BITS - pt)),
         * both factors rounded up. */
        const long pt = (long)(p + TAB_EXTRA);
        mpfr_set_ui_2exp(et, ntab, 2 - pt, MPFR_RNDU); /* 2 N d, exact (N < 2^64 <= pt bits) */
        mpfr_add_ui(et, et, 1, MPFR_RNDU);
        mpfr_mul(Rtup, Rtlo, et, MPFR_RNDU);
        mpfr_set_ui_2exp(et, 1, TAB_HI_BITS - pt, MPFR_RNDU);
        mpfr_add_ui(et, et, 1, MPFR_RNDU); /* exact */
        mpfr_mul(Rtup, Rtup, et, MPFR_RNDU);
        mpfr_add(Rhi, Rhi, Rtup, MPFR_RNDU);
        mpfr_add(Rlo, Rlo, Rtlo, MPFR_RNDD);
    }
    mpfr_clears(Rtlo, Rtup, et, (mpfr_ptr)0);
    em_oracle_tab_free(o, tab);
    mpfr_clears(Rup, Ruf, (mpfr_ptr)0);
    mpfr_add_ui(L->S_lo, Rlo, o->m, MPFR_RNDD);
    mpfr_add_ui(L->S_hi, Rhi, o->m, MPFR_RNDU);

    /* ln S = ln m + log1p(R/m) */
    mpfr_t lm_lo, lm_hi;
    mpfr_inits2(p, lm_lo, lm_hi, (mpfr_ptr)0);
    mpfr_log_ui(lm_lo, o->m, MPFR_RNDD);
    mpfr_log_ui(lm_hi, o->m, MPFR_RNDU);
    if (o->nother == 0) {
        mpfr_set(L->lnS_lo, lm_lo, MPFR_RNDD);
        mpfr_set(L->lnS_hi, lm_hi, MPFR_RNDU);
    } else if (mpfr_zero_p(Rlo)) {
        /* R > 0 but below the exponent range: ln S in [ln m, ln m + tiny] */
        L->extreme = 1;
        mpfr_set(L->lnS_lo, lm_lo, MPFR_RNDD);
        mpfr_set(L->lnS_hi, lm_hi, MPFR_RNDU);
        mpfr_nextabove(L->lnS_hi);
        /* ln(R/m) = tau + ln Q - ln m, Q = sum exp(t_j - tau) in [1, n] */
        mpq_t d;
        mpq_init(d);
        mpfr_t Qlo, Qhi;
        mpfr_inits2(p, Qlo, Qhi, (mpfr_ptr)0);
        mpfr_set_ui(Qlo, 0, MPFR_RNDN);
        mpfr_set_ui(Qhi, 0, MPFR_RNDN);
        for (size_t j = 0; j < o->n; j++) {
            if (o->cls[j] != CL_OTHER)
                continue;
            mpq_sub(d, em_oracle_t_of(o, j), o->tau);
            em_q_bounds(tlo, thi, d);
            mpfr_exp(elo, tlo, MPFR_RNDD);
            em_oracle_exp_hi_from_lo(ehi, elo, tlo, thi, tmp);
            mpfr_add(Qlo, Qlo, elo, MPFR_RNDD);
            mpfr_add(Qhi, Qhi, ehi, MPFR_RNDU);
        }
        mpfr_log(Qlo, Qlo, MPFR_RNDD);
        mpfr_log(Qhi, Qhi, MPFR_RNDU);
        mpfr_prec_t pt = p + em_q_bits(o->tau);
        mpfr_set_prec(tlo, pt);
        mpfr_set_prec(thi, pt);
        mpfr_set_prec(L->ly_lo, pt);
        mpfr_set_prec(L->ly_hi, pt);
        em_q_bounds(tlo, thi, o->tau);
        mpfr_add(L->ly_lo, tlo, Qlo, MPFR_RNDD);
        mpfr_sub(L->ly_lo, L->ly_lo, lm_hi, MPFR_RNDD);
        mpfr_add(L->ly_hi, thi, Qhi, MPFR_RNDU);
        mpfr_sub(L->ly_hi, L->ly_hi, lm_lo, MPFR_RNDU);
        mpfr_clears(Qlo, Qhi, (mpfr_ptr)0);
        mpq_clear(d);
    } else {
        mpfr_div_ui(tmp, Rlo, o->m, MPFR_RNDD);
        mpfr_log1p(tmp, tmp, MPFR_RNDD);
        mpfr_add(L->lnS_lo, lm_lo, tmp, MPFR_RNDD);
        mpfr_div_ui(tmp, Rhi, o->m, MPFR_RNDU);
        mpfr_log1p(tmp, tmp, MPFR_RNDU);
        mpfr_add(L->lnS_hi, lm_hi, tmp, MPFR_RNDU);
    }
    mpfr_clears(lm_lo, lm_hi, tlo, thi, elo, ehi, tmp, Rlo, Rhi, (mpfr_ptr)0);
    return EM_OK;
}
