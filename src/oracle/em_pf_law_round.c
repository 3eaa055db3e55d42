/* em_pf_law_round.c: permute-and-flip's law at scale (em_pf_law.h): every candidate's
 * probability and log-probability correctly rounded by em_round over its bounds at the
 * shared level (em_pf_law_priv.h), which em_round's rising precisions rebuild only when a
 * rounding is not decided at the first; below MPFR's exponent range, from the logarithm
 * (em_round_exp). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"
#include "num/em_bounds.h"
#include "num/em_round.h"
#include "oracle/em_exponents.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf_law_priv.h"

/* What F's scratch holds, so that a candidate's probability and logarithm share one
 * evaluation, and the modes one sum of the others per level. */
typedef struct rctx {
    em_pfl *F;
    size_t i;               /* the candidate rounded now */
    size_t held;            /* whose bounds F->tlo..F->Phi hold (SIZE_MAX: none) */
    long heldB;             /* at the level of this target */
    int logs;               /* F->llo, F->lhi too */
    int below;              /* the last probability asked lies below MPFR's range */
    mpfr_prec_t p;          /* the last precision asked */
    mpfr_t ylo, yhi;        /* the others' total */
    long yB;                /* at the level of this target (0: none) */
    mpfr_t alo, ahi;        /* the others' P summed as they are rounded, */
    long aB;                /* at the level of this target, */
    size_t an;              /* over this many of them */
} rctx;

/* The level for prec bits and candidate c->i's bounds at it (logs: its logarithm's too). */
static int other_at(rctx *c, mpfr_prec_t prec, int logs)
{
    em_pfl *F = c->F;
    int st = em_pfl_level_for(F, (long)prec + 8);
    if (st != EM_OK)
        return st;
    c->p = prec;
    if (c->held != c->i || c->heldB != F->lv.B) {
        em_pfl_other_bounds(F, c->i);
        c->held = c->i;
        c->heldB = F->lv.B;
        c->logs = 0;
        /* the modes come last and take this sum when every other one is in it */
        if (c->aB != F->lv.B) {
            mpfr_set_prec(c->alo, F->lv.w);
            mpfr_set_prec(c->ahi, F->lv.w);
            mpfr_set_zero(c->alo, 1);
            mpfr_set_zero(c->ahi, 1);
            c->aB = F->lv.B;
            c->an = 0;
        }
        mpfr_add(c->alo, c->alo, F->Plo, MPFR_RNDD);
        mpfr_add(c->ahi, c->ahi, F->Phi, MPFR_RNDU);
        c->an++;
    }
    if (logs && !c->logs) {
        em_pfl_other_logs(F);
        c->logs = 1;
    }
    return EM_OK;
}

static int other_p(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    rctx *c = ctx;
    int st = other_at(c, prec, 0);
    if (st != EM_OK)
        return st;
    mpfr_set(lo, c->F->Plo, MPFR_RNDD);
    mpfr_set(hi, c->F->Phi, MPFR_RNDU);
    c->below = em_bounds_below_range(lo, hi);
    return c->below ? EM_ERR_UNDECIDED : EM_OK;
}

/* log P = t + log I, at the candidate's precision (which carries t's integer part) */
static int other_log(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    rctx *c = ctx;
    int st = other_at(c, prec, 1);
    if (st != EM_OK)
        return st;
    mpfr_set_prec(lo, mpfr_get_prec(c->F->llo));
    mpfr_set_prec(hi, mpfr_get_prec(c->F->lhi));
    mpfr_set(lo, c->F->llo, MPFR_RNDD);
    mpfr_set(hi, c->F->lhi, MPFR_RNDU);
    return EM_OK;
}

/* A mode's P bounds (every mode has the same) in F->Plo, F->Phi, from the others' total. */
static int mode_at(rctx *c, mpfr_prec_t prec)
{
    em_pfl *F = c->F;
    int st = em_pfl_level_for(F, (long)prec + 8);
    if (st != EM_OK)
        return st;
    c->p = prec;
    if (c->yB != F->lv.B) {
        mpfr_set_prec(c->ylo, F->lv.w);
        mpfr_set_prec(c->yhi, F->lv.w);
        if (c->aB == F->lv.B && c->an == F->nother) {
            mpfr_set(c->ylo, c->alo, MPFR_RNDD);
            mpfr_set(c->yhi, c->ahi, MPFR_RNDU);
        } else {
            em_pfl_others_sum(F, c->ylo, c->yhi);
        }
        c->yB = F->lv.B;
    }
    c->held = SIZE_MAX;
    em_pfl_mode_bounds(F, c->ylo, c->yhi);
    return EM_OK;
}

static int mode_p(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    rctx *c = ctx;
    int st = mode_at(c, prec);
    if (st == EM_OK) {
        mpfr_set(lo, c->F->Plo, MPFR_RNDD);
        mpfr_set(hi, c->F->Phi, MPFR_RNDU);
    }
    return st;
}

/* sign(P - B) for a mode: P < 1/mm strictly (the others have P > 0), so a boundary at or
 * above 1/mm is decided at once (1/mm itself may be one: P then rounds as 1/mm approached
 * from below, whose bounds straddle it at every precision); below it, the bounds decide */
static int mode_cmp(void *ctx, const mpq_t B, int *sign)
{
    rctx *c = ctx;
    mpq_t r;
    mpq_init(r);
    mpq_set_ui(r, 1, (unsigned long)c->F->mm);
    int above = mpq_cmp(B, r) >= 0;
    mpq_clear(r);
    if (above) {
        *sign = -1;
        return EM_OK;
    }
    em_rval v = {mode_p, NULL, c};
    return em_round_cmp(&v, c->p, B, sign);
}

/* log P of a mode: the log of its bounds and, for one mode, log1p(-y) (tight near P = 1) */
static int mode_log(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    rctx *c = ctx;
    em_pfl *F = c->F;
    int st = mode_at(c, prec);
    if (st != EM_OK)
        return st;
    mpfr_log(lo, F->Plo, MPFR_RNDD);
    mpfr_log(hi, F->Phi, MPFR_RNDU);
    if (F->mm == 1 && !mpfr_zero_p(c->ylo)) {
        mpfr_neg(F->x, c->yhi, MPFR_RNDU);
        mpfr_log1p(F->x, F->x, MPFR_RNDD);
        if (mpfr_cmp(F->x, lo) > 0)
            mpfr_set(lo, F->x, MPFR_RNDD);
        mpfr_neg(F->x, c->ylo, MPFR_RNDD);
        mpfr_log1p(F->x, F->x, MPFR_RNDU);
        if (mpfr_cmp(F->x, hi) < 0)
            mpfr_set(hi, F->x, MPFR_RNDU);
    }
    return EM_OK;
}

/* ln|log P| of the only mode when every other probability is below MPFR's range:
 * y = sum of the others' P, ln y from their log P bounds (t + log I) by a log-sum-exp;
 * |log(1 - y)| in [y, y / (1 - y)], so ln|log P| in [ln y, ln y + 2 y].  At the precision
 * of the largest |t| (its integer part) besides prec. */
static int mode_lnlog(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    rctx *c = ctx;
    em_pfl *F = c->F;
    int st = em_pfl_level_for(F, (long)prec + 8);
    if (st != EM_OK)
        return st;
    const mpfr_prec_t p = em_pfl_cand_prec(&F->lv, F->tbits);
    mpfr_set_prec(lo, p);
    mpfr_set_prec(hi, p);
    c->held = SIZE_MAX;
    mpfr_t tau, slo, shi, v;
    mpfr_inits2(p, tau, slo, shi, v, (mpfr_ptr)0);
    mpfr_set_zero(slo, 1);
    mpfr_set_zero(shi, 1);
    /* tau: the largest upper bound, then the sum of exp(log P - tau) */
    for (int pass = 0, have = 0; pass < 2; pass++)
        for (size_t i = 0; i < F->n; i++) {
            if (F->cls[i] != CL_OTHER)
                continue;
            em_pfl_other_bounds(F, i);
            em_pfl_other_logs(F);
            if (pass == 0) {
                if (!have || mpfr_cmp(F->lhi, tau) > 0)
                    mpfr_set(tau, F->lhi, MPFR_RNDU);
                have = 1;
                continue;
            }
            mpfr_sub(v, F->llo, tau, MPFR_RNDD);
            mpfr_exp(v, v, MPFR_RNDD);
            mpfr_add(slo, slo, v, MPFR_RNDD);
            mpfr_sub(v, F->lhi, tau, MPFR_RNDU);
            mpfr_exp(v, v, MPFR_RNDU);
            mpfr_add(shi, shi, v, MPFR_RNDU);
        }
    if (!mpfr_regular_p(slo))
        st = EM_ERR_UNDECIDED;
    mpfr_log(lo, slo, MPFR_RNDD);
    mpfr_add(lo, lo, tau, MPFR_RNDD);
    mpfr_log(hi, shi, MPFR_RNDU);
    mpfr_add(hi, hi, tau, MPFR_RNDU);
    mpfr_exp(v, hi, MPFR_RNDU);
    mpfr_mul_2ui(v, v, 1, MPFR_RNDU);
    mpfr_add(hi, hi, v, MPFR_RNDU);
    mpfr_clears(tau, slo, shi, v, (mpfr_ptr)0);
    return st;
}

/* -ln mm, every candidate tied */
static int tied_log(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    (void)prec;
    const em_pfl *F = ((rctx *)ctx)->F;
    mpfr_log_ui(lo, (unsigned long)F->mm, MPFR_RNDU);
    mpfr_neg(lo, lo, MPFR_RNDD);
    mpfr_log_ui(hi, (unsigned long)F->mm, MPFR_RNDD);
    mpfr_neg(hi, hi, MPFR_RNDU);
    return EM_OK;
}

/* ---------------------------------------------------------------- the results */

/* v's decimal (taken over) and double into slot i of dec / d (either may be NULL) */
static void put(em_cval *v, char **dec, double *d, size_t i)
{
    if (dec) {
        free(dec[i]);
        dec[i] = v->str;
        v->str = NULL;
    }
    if (d)
        d[i] = v->d;
}

/* an exact result: decimal s, double d */
static int put_exact(const char *s, double d, char **dec, double *dd, size_t i)
{
    if (dd)
        dd[i] = d;
    return dec && !(dec[i] = strdup(s)) ? EM_ERR_NOMEM : EM_OK;
}

/* The first precision: the K digits or the double, and a margin that leaves the first
 * level's bounds undecided about once in 2^30 roundings (spec/PermuteAndFlip.md). */
static mpfr_prec_t prec0(int K)
{
    double b = 3.33 * K > 53 ? 3.33 * K : 53;
    return (mpfr_prec_t)b + 24;
}

/* Candidate c->i (another one): P (from its logarithm below MPFR's range) and log P. */
static int round_other(rctx *c, int K, const em_pfl_out *o, int dec, em_cval *v)
{
    const size_t i = c->i;
    int st = EM_OK;
    if (o->pd || (dec && o->dec)) {
        em_rval rp = {other_p, NULL, c};
        st = em_round(&rp, K, prec0(K), v);
        if (st == EM_ERR_UNDECIDED && c->below) {
            em_rval rl = {other_log, NULL, c};
            st = em_round_exp(&rl, 0, K, prec0(K), v);
            if (st == EM_OK && o->flags)
                o->flags[i] |= EM_OF_FROM_LOG;
        }
        if (st == EM_OK)
            put(v, dec ? o->dec : NULL, o->pd, i);
    }
    if (st == EM_OK && (o->ld || (dec && o->log))) {
        em_rval rl = {other_log, NULL, c};
        int sl = em_round(&rl, K, prec0(K), v);
        if (sl == EM_OK)
            put(v, dec ? o->log : NULL, o->ld, i);
        else if (sl != EM_ERR_UNDECIDED) /* undecided: left NULL / NaN */
            st = sl;
    }
    return st;
}

/* The modes' P and log P, rounded once (every mode has the same) into slot i. */
static int round_mode(rctx *c, int K, const em_pfl_out *o, int dec, em_cval *v)
{
    const size_t i = c->i;
    em_pfl *F = c->F;
    int st = EM_OK;
    if (o->pd || (dec && o->dec)) {
        em_rval rp = {mode_p, mode_cmp, c};
        if ((st = em_round(&rp, K, prec0(K), v)) == EM_OK)
            put(v, dec ? o->dec : NULL, o->pd, i);
    }
    if (st != EM_OK || !(o->ld || (dec && o->log)))
        return st;
    int sl = mode_at(c, prec0(K));
    if (sl == EM_OK && F->mm == 1 && mpfr_zero_p(c->ylo)) {
        /* |log P| = y below MPFR's range too: from ln|log P| */
        em_rval rl = {mode_lnlog, NULL, c};
        if ((sl = em_round_exp(&rl, 1, K, prec0(K), v)) == EM_OK && o->flags)
            o->flags[i] |= EM_OF_LOG_FROM_LOG;
    } else if (sl == EM_OK) {
        em_rval rl = {mode_log, NULL, c};
        sl = em_round(&rl, K, prec0(K), v);
    }
    if (sl == EM_OK)
        put(v, dec ? o->log : NULL, o->ld, i);
    return sl == EM_OK || sl == EM_ERR_UNDECIDED ? EM_OK : sl;
}

/* slot i's results copied from slot j's */
static int copy_slot(const em_pfl_out *o, int dec, size_t i, size_t j)
{
    int st = EM_OK;
    if (dec && o->dec && o->dec[j] && !(o->dec[i] = strdup(o->dec[j])))
        st = EM_ERR_NOMEM;
    if (dec && o->log && o->log[j] && !(o->log[i] = strdup(o->log[j])))
        st = EM_ERR_NOMEM;
    if (o->pd)
        o->pd[i] = o->pd[j];
    if (o->ld)
        o->ld[i] = o->ld[j];
    if (o->flags)
        o->flags[i] = o->flags[j];
    return st;
}

static int pfl_round(em_pfl *F, int digits, const em_pfl_out *o)
{
    const size_t n = F->n;
    const int dec = digits > 0, K = dec ? digits : 1;
    for (size_t i = 0; i < n; i++) {
        if (o->dec && dec)
            o->dec[i] = NULL;
        if (o->log && dec)
            o->log[i] = NULL;
        if (o->ld)
            o->ld[i] = NAN;
        if (o->flags)
            o->flags[i] = 0;
    }
    rctx c = {F, 0, SIZE_MAX, 0, 0, 0, 0, {{0}}, {{0}}, 0, {{0}}, {{0}}, 0, 0};
    mpfr_inits2(64, c.ylo, c.yhi, c.alo, c.ahi, (mpfr_ptr)0);
    em_cval v;
    em_cval_init(&v);
    int st = EM_OK;
    size_t first_mode = SIZE_MAX;
    /* the others first, then the modes from the others' sum */
    for (size_t k = 0; k < 2 * n && st == EM_OK; k++) {
        const size_t i = k % n;
        const int x = F->cls[i] == CL_EXCLUDED;
        if ((k < n) == (F->cls[i] == CL_MODE && F->m > 1))
            continue;
        c.i = i;
        if (x || F->m == 1) { /* exactly 0, or exactly 1 for the only candidate */
            st = put_exact(x ? "0" : "1", x ? 0.0 : 1.0, dec ? o->dec : NULL, o->pd, i);
            if (st == EM_OK)
                st = put_exact(x ? "-inf" : "0", x ? -INFINITY : 0.0, dec ? o->log : NULL,
                               o->ld, i);
        } else if (F->cls[i] == CL_OTHER) {
            st = round_other(&c, K, o, dec, &v);
        } else if (first_mode != SIZE_MAX) {
            st = copy_slot(o, dec, i, first_mode);
        } else if (F->nother == 0) { /* every candidate tied: P = 1/mm exactly */
            mpq_t q;
            mpq_init(q);
            mpq_set_ui(q, 1, (unsigned long)F->mm);
            st = em_round_q(q, K, &v);
            mpq_clear(q);
            if (st == EM_OK)
                put(&v, dec ? o->dec : NULL, o->pd, i);
            em_rval rl = {tied_log, NULL, &c};
            if (st == EM_OK && (st = em_round(&rl, K, prec0(K), &v)) == EM_OK)
                put(&v, dec ? o->log : NULL, o->ld, i);
            first_mode = i;
        } else {
            st = round_mode(&c, K, o, dec, &v);
            first_mode = i;
        }
    }
    em_cval_clear(&v);
    mpfr_clears(c.ylo, c.yhi, c.alo, c.ahi, (mpfr_ptr)0);
    return st;
}

int em_pfl_round(em_pfl *F, int digits, em_pfl_out *o)
{
    if (!F || !o)
        return EM_ERR_NULL;
    if (digits < 0 || digits > EM_ROUND_MAX_DIGITS)
        return EM_ERR_DOMAIN;
    EM_WIDEST(pfl_round(F, digits, o));
}
