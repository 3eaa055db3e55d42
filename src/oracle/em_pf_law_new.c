/* em_pf_law_new.c: permute-and-flip's law at scale (em_pf_law.h): construction, and every
 * candidate's bounds at once (em_pf_law_priv.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <mpfr.h>

#include "em_base.h"
#include "base/em_error.h"
#include "core/em_params.h"
#include "num/em_bounds.h"
#include "num/em_rational.h"
#include "oracle/em_exponents.h"
#include "oracle/em_pf_law_priv.h"
#include "oracle/em_problem.h"

/* the classes, each |t|'s binary exponent, and the plan's double estimates */
static int pfl_init(em_pfl *F, const em_problem *P)
{
    int st = em_exponents_classes(P, &F->src, F->umax, F->cls, &F->m);
    if (st != EM_OK)
        return st;
    em_tfast_init(&F->tf, F->c, F->umax);
    F->have_tf = 1;
    F->nbits = 64 - __builtin_clzll((unsigned long long)F->n); /* n >= 1 */
    double S = 0;
    long tb = 0;
    mpfr_set_prec(F->tlo, 53);
    for (size_t i = 0; i < F->n; i++) {
        if (F->cls[i] == CL_MODE)
            F->mm++;
        if (F->cls[i] != CL_OTHER)
            continue;
        F->nother++;
        em_exponent_t_lo(&F->tf, &F->src, i, F->tlo);
        mpfr_exp_t e = mpfr_get_exp(F->tlo); /* RNDD of t < 0: |t| below 2^e, or equal */
        F->tex[i] = e <= 0 ? 0 : e >= INT32_MAX ? INT32_MAX : (int32_t)e;
        if (F->tex[i] > tb)
            tb = F->tex[i];
        S += exp(mpfr_get_d(F->tlo, MPFR_RNDN));
    }
    F->Sd = (double)F->mm + S;
    F->tbits = tb;
    return EM_OK;
}

static int pfl_new(const em_problem *P, em_pfl **out, em_error *err)
{
    const size_t n = P->n;
    em_pfl *F = calloc(1, sizeof *F);
    if (!F)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    F->n = n;
    mpq_inits(F->c, F->umax, (mpq_ptr)0);
    mpq_set(F->c, P->c);
    mpfr_inits2(64, F->tlo, F->thi, F->plo, F->phi, F->x, F->y, F->z, F->hx, F->hs, F->hu,
                F->pw_lo, F->pw_hi, F->Ilo, F->Ihi, F->Plo, F->Phi, F->llo, F->lhi, F->ua, F->ub,
                F->ta, F->tb, (mpfr_ptr)0);
    F->cls = malloc(n);
    F->tex = calloc(n, sizeof *F->tex);
    if (P->reader.get) {
        F->src = P->reader;
    } else {
        F->own = em_q_array_copy(P);
        F->src = (em_utility_reader){em_utility_array_get, F->own};
    }
    int st = F->cls && F->tex && (P->reader.get || F->own) ? pfl_init(F, P) : EM_ERR_NOMEM;
    if (st != EM_OK) {
        em_pfl_free(F);
        return em_err(err, st, "%s", em_strerror(st));
    }
    *out = F;
    return EM_OK;
}

int em_pfl_new(const em_problem *P, em_pfl **out, em_error *err)
{
    int st = em_problem_check_new(P, out, "em_pfl_new", err);
    if (st != EM_OK)
        return st;
    EM_WIDEST(pfl_new(P, out, err));
}

void em_pfl_free(em_pfl *F)
{
    if (!F)
        return;
    em_pfl_level_clear(&F->lv);
    if (F->have_tf)
        em_tfast_clear(&F->tf);
    mpfr_clears(F->tlo, F->thi, F->plo, F->phi, F->x, F->y, F->z, F->hx, F->hs, F->hu,
                F->pw_lo, F->pw_hi, F->Ilo, F->Ihi, F->Plo, F->Phi, F->llo, F->lhi, F->ua, F->ub,
                F->ta, F->tb, (mpfr_ptr)0);
    mpq_clears(F->c, F->umax, (mpq_ptr)0);
    em_q_array_free(F->own, F->n);
    free(F->cls);
    free(F->tex);
    free(F);
}

/* ---------------------------------------------------------------- bounds */

/* lo <= 1/m <= hi: each of m modes' probability when nothing else has mass */
static void inv_bounds(mpfr_t lo, mpfr_t hi, size_t m)
{
    mpfr_set_ui(lo, 1, MPFR_RNDN);
    mpfr_div_ui(lo, lo, (unsigned long)m, MPFR_RNDD);
    mpfr_set_ui(hi, 1, MPFR_RNDN);
    mpfr_div_ui(hi, hi, (unsigned long)m, MPFR_RNDU);
}

typedef int (*pfl_fill)(em_pfl *F, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi);

/* The entries em_pfl_bounds and em_pfl_log_bounds: the arguments checked, then fill in the
 * widest exponent range */
static int pfl_widest(pfl_fill fill, em_pfl *F, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    if (!F || !lo || !hi)
        return EM_ERR_NULL;
    EM_WIDEST(fill(F, prec, lo, hi));
}

static int pfl_bounds(em_pfl *F, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    const size_t n = F->n;
    if (F->m == 1 || F->nother == 0) {
        for (size_t i = 0; i < n; i++) {
            if (F->cls[i] == CL_EXCLUDED) {
                mpfr_set_zero(lo[i], 1);
                mpfr_set_zero(hi[i], 1);
            } else {
                inv_bounds(lo[i], hi[i], F->m);
            }
        }
        return EM_OK;
    }
    int st = em_pfl_level_for(F, (long)prec + 8);
    if (st != EM_OK)
        return st;
    mpfr_t ylo, yhi;
    mpfr_inits2(F->lv.w, ylo, yhi, (mpfr_ptr)0);
    mpfr_set_zero(ylo, 1);
    mpfr_set_zero(yhi, 1);
    for (size_t i = 0; i < n; i++) {
        if (F->cls[i] == CL_EXCLUDED) {
            mpfr_set_zero(lo[i], 1);
            mpfr_set_zero(hi[i], 1);
        } else if (F->cls[i] == CL_OTHER) {
            em_pfl_other_bounds(F, i);
            mpfr_add(ylo, ylo, F->Plo, MPFR_RNDD);
            mpfr_add(yhi, yhi, F->Phi, MPFR_RNDU);
            mpfr_set(lo[i], F->Plo, MPFR_RNDD);
            mpfr_set(hi[i], F->Phi, MPFR_RNDU);
        }
    }
    em_pfl_mode_bounds(F, ylo, yhi);
    for (size_t i = 0; i < n; i++)
        if (F->cls[i] == CL_MODE) {
            mpfr_set(lo[i], F->Plo, MPFR_RNDD);
            mpfr_set(hi[i], F->Phi, MPFR_RNDU);
        }
    mpfr_clears(ylo, yhi, (mpfr_ptr)0);
    return EM_OK;
}

int em_pfl_bounds(em_pfl *F, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    return pfl_widest(pfl_bounds, F, prec, lo, hi);
}

/* log P: another candidate's t + log I; a mode's the log of its bounds and, for one mode,
 * log1p(-y) (tight near P = 1, and [log1p(-tiny), 0] when every other P is below range) */
static int pfl_log_bounds(em_pfl *F, mpfr_prec_t prec, mpfr_t *llo, mpfr_t *lhi)
{
    const size_t n = F->n;
    int st = F->nother ? em_pfl_level_for(F, (long)prec + 8) : EM_OK;
    if (st != EM_OK)
        return st;
    const mpfr_prec_t w = F->nother ? F->lv.w : prec;
    mpfr_t ylo, yhi;
    mpfr_inits2(w, ylo, yhi, (mpfr_ptr)0);
    mpfr_set_zero(ylo, 1);
    mpfr_set_zero(yhi, 1);
    for (size_t i = 0; i < n; i++) {
        mpfr_set_prec(llo[i], w);
        mpfr_set_prec(lhi[i], w);
        if (F->cls[i] == CL_EXCLUDED) {
            mpfr_set_inf(llo[i], -1);
            mpfr_set_inf(lhi[i], -1);
        } else if (F->cls[i] == CL_OTHER) {
            em_pfl_other_bounds(F, i);
            em_pfl_other_logs(F);
            mpfr_add(ylo, ylo, F->Plo, MPFR_RNDD);
            mpfr_add(yhi, yhi, F->Phi, MPFR_RNDU);
            mpfr_set_prec(llo[i], mpfr_get_prec(F->llo));
            mpfr_set_prec(lhi[i], mpfr_get_prec(F->lhi));
            mpfr_set(llo[i], F->llo, MPFR_RNDD);
            mpfr_set(lhi[i], F->lhi, MPFR_RNDU);
        }
    }
    if (F->nother) {
        em_pfl_mode_bounds(F, ylo, yhi);
    } else {
        mpfr_set_prec(F->Plo, w);
        mpfr_set_prec(F->Phi, w);
        inv_bounds(F->Plo, F->Phi, F->mm);
    }
    for (size_t i = 0; i < n; i++) {
        if (F->cls[i] != CL_MODE)
            continue;
        mpfr_log(llo[i], F->Plo, MPFR_RNDD);
        mpfr_log(lhi[i], F->Phi, MPFR_RNDU);
        if (F->mm == 1 && F->nother) {
            mpfr_neg(ylo, ylo, MPFR_RNDU);
            mpfr_log1p(ylo, ylo, MPFR_RNDU);
            mpfr_min(lhi[i], lhi[i], ylo, MPFR_RNDU);
            mpfr_neg(yhi, yhi, MPFR_RNDD);
            mpfr_log1p(yhi, yhi, MPFR_RNDD);
            mpfr_max(llo[i], llo[i], yhi, MPFR_RNDD);
        }
    }
    mpfr_clears(ylo, yhi, (mpfr_ptr)0);
    return EM_OK;
}

int em_pfl_log_bounds(em_pfl *F, mpfr_prec_t prec, mpfr_t *llo, mpfr_t *lhi)
{
    return pfl_widest(pfl_log_bounds, F, prec, llo, lhi);
}
