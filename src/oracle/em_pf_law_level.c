/* em_pf_law_level.c: permute-and-flip's law at scale (em_pf_law.h): a precision level
 * (power sums, heavy candidates, the plan and the moments, each with its certified error)
 * and one candidate's bounds from it (em_pf_law_priv.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"
#include "num/em_bounds.h"
#include "oracle/em_exponents.h"
#include "oracle/em_pf_law_priv.h"

void em_pfl_level_clear(em_pfl_level *L)
{
    if (L->Qlo) {
        for (int k = 0; k < L->D; k++)
            mpfr_clears(L->Qlo[k], L->Qhi[k], (mpfr_ptr)0);
    }
    free(L->Qlo);
    free(L->Qhi);
    if (L->qinit)
        mpfr_clears(L->Q1hi, L->Shi, L->R0lo, L->LM0lo, L->LM0hi, (mpfr_ptr)0);
    em_mpfr_array_free(L->sp, 2 * L->caph);
    em_mpfr_array_free(L->hp, 2 * L->ng);
    em_mpfr_array_free(L->hI, 2 * L->ng);
    free(L->hidx);
    free(L->hgrp);
    free(L->gm);
    em_mpfr_array_free(L->Mlo, (size_t)L->K + 2);
    em_mpfr_array_free(L->Mhi, (size_t)L->K + 2);
    em_mpfr_array_free(L->Rhi, (size_t)L->K + 2);
    free(L->lR);
    memset(L, 0, sizeof *L);
}

static int heavy_find(const em_pfl_level *L, size_t i, size_t *h)
{
    size_t lo = 0, hi = L->nh;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->hidx[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    *h = lo;
    return lo < L->nh && L->hidx[lo] == i;
}

static int slot_cmp(const void *a, const void *b, void *ctx)
{
    mpfr_t *sp = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = mpfr_cmp(sp[2 * i], sp[2 * j]);
    if (c == 0)
        c = mpfr_cmp(sp[2 * i + 1], sp[2 * j + 1]);
    return c ? c : (i > j) - (i < j);
}

/* The heavy candidates with the same bounds (ties, mostly) become one factor
 * (1 - p x)^mult of h and one integral. */
static int group_heavy(em_pfl_level *L)
{
    const size_t nh = L->nh;
    size_t *ord = malloc((nh ? nh : 1) * sizeof *ord);
    L->hgrp = malloc((nh ? nh : 1) * sizeof *L->hgrp);
    L->gm = malloc((nh ? nh : 1) * sizeof *L->gm);
    if (!ord || !L->hgrp || !L->gm) {
        free(ord);
        return EM_ERR_NOMEM;
    }
    for (size_t h = 0; h < nh; h++)
        ord[h] = h;
    qsort_r(ord, nh, sizeof *ord, slot_cmp, L->sp);
    size_t ng = 0;
    for (size_t k = 0; k < nh; k++) {
        size_t h = ord[k];
        if (k == 0 || mpfr_cmp(L->sp[2 * h], L->sp[2 * ord[k - 1]]) != 0 ||
            mpfr_cmp(L->sp[2 * h + 1], L->sp[2 * ord[k - 1] + 1]) != 0)
            ord[ng++] = h; /* ord[0..ng): each group's first slot (k >= ng: already read) */
        L->hgrp[h] = ng - 1;
    }
    L->hp = em_pfl_zeros(2 * ng, L->w);
    L->hI = em_pfl_zeros(2 * ng, L->w);
    if (!L->hp || !L->hI) {
        free(ord);
        return EM_ERR_NOMEM;
    }
    L->ng = ng;
    for (size_t g = 0; g < ng; g++) {
        mpfr_set(L->hp[2 * g], L->sp[2 * ord[g]], MPFR_RNDN);
        mpfr_set(L->hp[2 * g + 1], L->sp[2 * ord[g] + 1], MPFR_RNDN);
        L->gm[g] = 0;
    }
    for (size_t h = 0; h < nh; h++)
        L->gm[L->hgrp[h]]++;
    free(ord);
    em_mpfr_array_free(L->sp, 2 * L->caph);
    L->sp = NULL;
    L->caph = 0;
    return EM_OK;
}

/* Pass A at jT: the power sums, the heavy list, Shi and Q1hi.  EM_OK or EM_ERR_NOMEM. */
static int pass_A(em_pfl *F, em_pfl_level *L)
{
    const mpfr_prec_t w = L->w;
    const long B = L->B;
    /* D: th^D Q_1 / (D + 1) below 2^-(B + 8), Q_1 <= S T */
    double q1 = ldexp(F->Sd, -L->jT) + 1;
    int D = (int)ceil((B + 8 + log2(q1)) / THETA_LOG2);
    if (D < 1)
        D = 1;
    L->D = D;
    L->Qlo = malloc((size_t)D * sizeof *L->Qlo);
    L->Qhi = malloc((size_t)D * sizeof *L->Qhi);
    if (!L->Qlo || !L->Qhi) {
        free(L->Qlo);
        free(L->Qhi);
        L->Qlo = L->Qhi = NULL;
        return EM_ERR_NOMEM;
    }
    for (int k = 0; k < D; k++) {
        mpfr_inits2(w, L->Qlo[k], L->Qhi[k], (mpfr_ptr)0);
        mpfr_set_zero(L->Qlo[k], 1);
        mpfr_set_zero(L->Qhi[k], 1);
    }
    mpfr_inits2(w, L->Q1hi, L->Shi, L->R0lo, L->LM0lo, L->LM0hi, (mpfr_ptr)0);
    L->qinit = 1;
    mpfr_set_ui(L->Shi, (unsigned long)F->mm, MPFR_RNDU);
    mpfr_t etail, eps, xl, xh, yl, yh;
    mpfr_inits2(w, etail, eps, xl, xh, yl, yh, (mpfr_ptr)0);
    mpfr_set_zero(etail, 1);
    /* a light candidate's powers stop below eps: the rest of its series, at most
     * (p T)^k / (1 - th), goes to etail, which is added to every Q_k's upper bound */
    mpfr_set_ui_2exp(eps, 1, -(B + 16 + F->nbits), MPFR_RNDN);
    mpfr_set_prec(F->tlo, w);
    mpfr_set_prec(F->plo, w);
    mpfr_set_prec(F->phi, w);
    int st = EM_OK;
    for (size_t i = 0; i < F->n && st == EM_OK; i++) {
        if (F->cls[i] != CL_OTHER)
            continue;
        em_pfl_p_bounds(F, i, F->tlo, F->thi, F->plo, F->phi);
        mpfr_add(L->Shi, L->Shi, F->phi, MPFR_RNDU);
        if (L->exact || mpfr_cmp_ui_2exp(F->phi, 1, L->jT - THETA_LOG2) > 0) {
            if (L->nh == L->caph) {
                size_t nc = L->caph ? 2 * L->caph : 64;
                size_t *ni = realloc(L->hidx, nc * sizeof *ni);
                if (ni)
                    L->hidx = ni;
                mpfr_t *np = ni ? realloc(L->sp, 2 * nc * sizeof *np) : NULL;
                if (!np) {
                    st = EM_ERR_NOMEM;
                    break;
                }
                L->sp = np;
                for (size_t h = 2 * L->caph; h < 2 * nc; h++)
                    mpfr_init2(L->sp[h], w);
                L->caph = nc;
            }
            L->hidx[L->nh] = i;
            mpfr_set(L->sp[2 * L->nh], F->plo, MPFR_RNDD);
            mpfr_set(L->sp[2 * L->nh + 1], F->phi, MPFR_RNDU);
            L->nh++;
            continue;
        }
        mpfr_mul_2si(yl, F->plo, -L->jT, MPFR_RNDD);
        mpfr_mul_2si(yh, F->phi, -L->jT, MPFR_RNDU);
        mpfr_set(xl, yl, MPFR_RNDD);
        mpfr_set(xh, yh, MPFR_RNDU);
        int k = 1;
        for (; k <= D && mpfr_cmp(xh, eps) > 0; k++) {
            mpfr_add(L->Qlo[k - 1], L->Qlo[k - 1], xl, MPFR_RNDD);
            mpfr_add(L->Qhi[k - 1], L->Qhi[k - 1], xh, MPFR_RNDU);
            mpfr_mul(xl, xl, yl, MPFR_RNDD);
            mpfr_mul(xh, xh, yh, MPFR_RNDU);
        }
        if (k <= D) {
            mpfr_mul_ui(xh, xh, 4, MPFR_RNDU);
            mpfr_div_ui(xh, xh, 3, MPFR_RNDU);
            mpfr_add(etail, etail, xh, MPFR_RNDU);
        }
    }
    if (st == EM_OK) {
        for (int k = 0; k < D; k++) {
            mpfr_add(L->Qhi[k], L->Qhi[k], etail, MPFR_RNDU);
            if (k == 0) {
                mpfr_set(L->Q1hi, L->Qhi[0], MPFR_RNDU);
                mpfr_mul_2si(xh, L->Q1hi, L->jT, MPFR_RNDU);
                mpfr_add(L->Shi, L->Shi, xh, MPFR_RNDU);
            }
            mpfr_div_ui(L->Qlo[k], L->Qlo[k], (unsigned long)k + 1, MPFR_RNDD);
            mpfr_div_ui(L->Qhi[k], L->Qhi[k], (unsigned long)k + 1, MPFR_RNDU);
        }
    }
    mpfr_clears(etail, eps, xl, xh, yl, yh, (mpfr_ptr)0);
    return st == EM_OK ? group_heavy(L) : st;
}


/* Build the level for target B: pass A, the plan, the rule, the moments and the heavy
 * integrals, each with its certified error.  EM_OK or an error. */
static int level_build(em_pfl *F, em_pfl_level *L, long B)
{
    em_pfl_level_clear(L);
    mpfr_prec_t w = B + F->nbits + 40;
    w = (w + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS * GMP_NUMB_BITS;
    mpfr_set_prec(F->hx, w);
    mpfr_set_prec(F->hs, w);
    mpfr_set_prec(F->hu, w);
    /* T: h(x) <= exp(-x (S - 1)), so T past ((B + 12) ln 2 + ln(1 + S)) / (S - 1) leaves a
     * tail below 2^-(B+12) M_0 (checked below, with h's certified bound) */
    double Sm1 = F->Sd - 1;
    double need = Sm1 > 0 ? (((double)B + 12) * 0.6931 + log(F->Sd + 1)) / Sm1 : 2;
    int jT = 0;
    while (jT < 1000 && ldexp(1.0, -(jT + 1)) >= need)
        jT++;
    mpfr_t tol, tol_tail, E, C, x0;
    mpfr_inits2(64, tol, tol_tail, E, C, (mpfr_ptr)0);
    mpfr_init2(x0, w);
    em_pfl_sub *S = NULL;
    size_t ns = 0;
    double Tend = 1;
    int N = 0, st = EM_OK;
    for (;;) {
        em_pfl_level_clear(L);
        L->B = B;
        L->w = w;
        L->jT = jT;
        L->K = (int)((B + 5) / 2) + 2;
        if (F->m <= EXACT_M) {
            /* Few candidates: every integrand (1 - x)^a x^k prod_{s in some set} (1 - p_s x)
             * is a polynomial of degree <= m, which the Clenshaw-Curtis rule of degree
             * N >= m integrates exactly on [0, 1]: every other candidate a direct factor
             * and a direct integral, no series, no truncation, no tail. */
            L->exact = 1;
            L->jT = 0;
            L->K = 0;
            if ((st = pass_A(F, L)) != EM_OK)
                break;
            S = malloc(sizeof *S);
            if (!S) {
                st = EM_ERR_NOMEM;
                break;
            }
            S[0].a = 0;
            S[0].hh = 0.5;
            ns = 1;
            Tend = 1;
            N = (int)F->m + 2;
            N += N & 1;
            break;
        }
        if ((st = pass_A(F, L)) != EM_OK)
            break;
        /* tol = 2^-B / (1 + S) <= 2^-B M_0 */
        mpfr_add_ui(tol, L->Shi, 1, MPFR_RNDU);
        mpfr_ui_div(tol, 1, tol, MPFR_RNDD);
        mpfr_div_2ui(tol, tol, (unsigned long)B, MPFR_RNDD);
        mpfr_div_2ui(tol_tail, tol, 12, MPFR_RNDD);
        int tail_ok = 1;
        for (double shrink = 1; shrink > 1.0 / 64; shrink /= 2) {
            free(S);
            S = NULL;
            ns = em_pfl_plan(F, L, shrink, tol_tail, &S, &Tend, C);
            if (ns == 0) {
                st = EM_ERR_NOMEM;
                break;
            }
            if (Tend < 1 && !(tail_ok = em_pfl_rest_negligible(F, L, Tend, tol_tail, C)))
                break;
            /* N: sum_i C_i (1 - a_i) 4^-N <= tol / (8 (K + 2)), so that each moment's
             * error weighted by p^k <= (1/(4T))^k stays below tol / (8 (K + 2)) */
            mpfr_set_zero(E, 1);
            for (size_t i = 0; i < ns; i++) {
                em_pfl_sub_factor(F, L, &S[i], x0, C);
                mpfr_add(E, E, C, MPFR_RNDU);
            }
            double bits = em_pfl_lg2(E) - em_pfl_lg2(tol) + 3 + log2((double)L->K + 2);
            N = (int)ceil(bits / 2);
            if (N < L->K + 4)
                N = L->K + 4;
            N += N & 1;
            if (N <= NCAP)
                break;
        }
        if (st == EM_OK && !tail_ok && jT > 0) {
            jT--; /* T too short for this B: twice the range */
            continue;
        }
        break;
    }
    if (st == EM_OK) {
        if (N > NCAP)
            N = NCAP;
        const size_t nm = (size_t)L->K + 2, nr = 2 * ((size_t)N + 1);
        L->Mlo = em_pfl_zeros(nm, w);
        L->Mhi = em_pfl_zeros(nm, w);
        L->Rhi = em_pfl_zeros(nm, w);
        L->lR = malloc(nm * sizeof *L->lR);
        mpfr_t *Rlo = em_pfl_zeros(nm, w), *EM = em_pfl_zeros(nm, 64), *ER = em_pfl_zeros(nm, 64);
        mpfr_t *EH = em_pfl_zeros(L->ng, 64), *xi = em_pfl_zeros(nr, w), *wt = em_pfl_zeros(nr, w);
        if (!L->Mlo || !L->Mhi || !L->Rhi || !L->lR || !Rlo || !EM || !ER || !EH || !xi || !wt) {
            st = EM_ERR_NOMEM;
        } else {
            for (size_t h = 0; h < 2 * L->ng; h++)
                mpfr_set_zero(L->hI[h], 1);
            int rc = em_pfl_cc_rule(N, w, xi, wt);
            if (rc != 0)
                st = rc == -2 ? EM_ERR_NOMEM : EM_ERR_UNDECIDED;
            else
                em_pfl_integrate(F, L, S, ns, Tend, N, xi, wt, Rlo, EM, ER, EH);
        }
        em_mpfr_array_free(Rlo, nm);
        em_mpfr_array_free(EM, nm);
        em_mpfr_array_free(ER, nm);
        em_mpfr_array_free(EH, L->ng);
        em_mpfr_array_free(xi, nr);
        em_mpfr_array_free(wt, nr);
    }
    free(S);
    mpfr_clears(tol, tol_tail, E, C, x0, (mpfr_ptr)0);
    if (st == EM_OK)
        L->built = 1;
    return st;
}

/* ------------------------------------------------------------ a candidate */

/* A candidate's precision: the working precision after the binary point of t (|t| below
 * 2^e), so that exp(t) and t + log I keep it; whole limbs. */
mpfr_prec_t em_pfl_cand_prec(const em_pfl_level *L, long e)
{
    mpfr_prec_t p = L->w + (mpfr_prec_t)e + 8;
    return (p + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS * GMP_NUMB_BITS;
}

static void set_prec_all(em_pfl *F, mpfr_prec_t p)
{
    mpfr_ptr v[] = {F->tlo, F->thi, F->plo, F->phi, F->Ilo, F->Ihi, F->Plo, F->Phi, F->llo, F->lhi,
                    F->x, F->y, F->ua, F->ub, F->ta, F->tb};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++)
        if (mpfr_get_prec(v[k]) != p)
            mpfr_set_prec(v[k], p);
    if (mpfr_get_prec(F->pw_lo) != F->lv.w) {
        mpfr_set_prec(F->pw_lo, F->lv.w);
        mpfr_set_prec(F->pw_hi, F->lv.w);
    }
}

/* Another candidate i: t, p, I, P bounds in F->tlo..F->Phi, at the candidate's precision.
 * I = sum_{k<=K} p^k M_k + [0, p^(K+1) R_(K+1)]. */
void em_pfl_other_bounds(em_pfl *F, size_t i)
{
    const em_pfl_level *L = &F->lv;
    set_prec_all(F, em_pfl_cand_prec(L, F->tex[i]));
    em_pfl_p_bounds(F, i, F->tlo, F->thi, F->plo, F->phi);
    size_t h;
    if (L->nh && heavy_find(L, i, &h)) {
        h = L->hgrp[h];
        mpfr_set(F->Ilo, L->hI[2 * h], MPFR_RNDD);
        mpfr_set(F->Ihi, L->hI[2 * h + 1], MPFR_RNDU);
    } else {
        mpfr_set(F->pw_lo, F->plo, MPFR_RNDD);
        mpfr_set(F->pw_hi, F->phi, MPFR_RNDU);
        /* the shortest series whose remainder p^(K+1) R_(K+1) is below 2^-(B+2) M_0 */
        double lp = em_pfl_lg2(F->pw_hi), goal = L->lM0 - (double)L->B - 2;
        int K = 0;
        while (K < L->K && (double)(K + 1) * lp + L->lR[K + 1] > goal)
            K++;
        mpfr_set(F->Ilo, L->Mlo[K], MPFR_RNDD);
        mpfr_mul(F->Ihi, F->pw_hi, L->Rhi[K + 1], MPFR_RNDU);
        mpfr_add(F->Ihi, F->Ihi, L->Mhi[K], MPFR_RNDU);
        for (int k = K - 1; k >= 0; k--) {
            mpfr_mul(F->Ilo, F->Ilo, F->pw_lo, MPFR_RNDD);
            mpfr_add(F->Ilo, F->Ilo, L->Mlo[k], MPFR_RNDD);
            mpfr_mul(F->Ihi, F->Ihi, F->pw_hi, MPFR_RNDU);
            mpfr_add(F->Ihi, F->Ihi, L->Mhi[k], MPFR_RNDU);
        }
    }
    mpfr_mul(F->Plo, F->plo, F->Ilo, MPFR_RNDD);
    mpfr_mul(F->Phi, F->phi, F->Ihi, MPFR_RNDU);
}

/* A mode: P in [R_0] and in [(1 - y_hi)/mm, (1 - y_lo)/mm], y the others' total. */
void em_pfl_mode_bounds(em_pfl *F, mpfr_srcptr ylo, mpfr_srcptr yhi)
{
    const em_pfl_level *L = &F->lv;
    set_prec_all(F, em_pfl_cand_prec(L, 0));
    mpfr_ui_sub(F->Plo, 1, yhi, MPFR_RNDD);
    mpfr_div_ui(F->Plo, F->Plo, (unsigned long)F->mm, MPFR_RNDD);
    mpfr_ui_sub(F->Phi, 1, ylo, MPFR_RNDU);
    mpfr_div_ui(F->Phi, F->Phi, (unsigned long)F->mm, MPFR_RNDU);
    if (mpfr_cmp(F->Plo, L->R0lo) < 0)
        mpfr_set(F->Plo, L->R0lo, MPFR_RNDD);
    if (mpfr_cmp(F->Phi, L->Rhi[0]) > 0)
        mpfr_set(F->Phi, L->Rhi[0], MPFR_RNDU);
    if (mpfr_sgn(F->Plo) < 0)
        mpfr_set_zero(F->Plo, 1);
}

/* llo <= log P <= lhi for the other candidate just bounded (other_bounds): t + log I.
 * Mostly I = M_0 (1 + u) with u small: log I = log M_0 + log1p(u), log1p by its
 * alternating series (even partial sums below, odd ones above); else one logarithm, the
 * upper end by concavity, log I_hi <= log I_lo + (I_hi - I_lo) / I_lo. */
void em_pfl_other_logs(em_pfl *F)
{
    const em_pfl_level *L = &F->lv;
    mpfr_sub(F->ua, F->Ilo, L->Mlo[0], MPFR_RNDD);
    mpfr_div(F->ua, F->ua, L->Mlo[0], MPFR_RNDD);
    mpfr_sub(F->ub, F->Ihi, L->Mhi[0], MPFR_RNDU);
    mpfr_div(F->ub, F->ub, L->Mhi[0], MPFR_RNDU);
    if (!mpfr_number_p(F->ua) || !mpfr_number_p(F->ub) || mpfr_sgn(F->ua) < 0 ||
        mpfr_sgn(F->ub) < 0 || mpfr_cmp_ui_2exp(F->ua, 1, -4) > 0 ||
        mpfr_cmp_ui_2exp(F->ub, 1, -4) > 0) {
        mpfr_log(F->llo, F->Ilo, MPFR_RNDD);
        mpfr_sub(F->lhi, F->Ihi, F->Ilo, MPFR_RNDU);
        mpfr_div(F->lhi, F->lhi, F->Ilo, MPFR_RNDU);
        mpfr_set(F->ta, F->llo, MPFR_RNDN);
        mpfr_nextabove(F->ta);
        mpfr_add(F->lhi, F->lhi, F->ta, MPFR_RNDU);
    } else {
        /* u = ua (0 <= u <= 1/16): terms u^j / j, j = 1, 2, ... until below 2^-(B + 8);
         * ta / tb: u^j rounded down / up; llo, lhi: the partial sums' bounds */
        mpfr_set_zero(F->llo, 1);
        mpfr_set_zero(F->lhi, 1);
        mpfr_set(F->ta, F->ua, MPFR_RNDD);
        mpfr_set(F->tb, F->ua, MPFR_RNDU);
        for (unsigned long j = 1;; j++) {
            mpfr_div_ui(F->x, F->ta, j, MPFR_RNDD);
            mpfr_div_ui(F->y, F->tb, j, MPFR_RNDU);
            if (j & 1) {
                mpfr_add(F->llo, F->llo, F->x, MPFR_RNDD);
                mpfr_add(F->lhi, F->lhi, F->y, MPFR_RNDU);
            } else {
                mpfr_sub(F->llo, F->llo, F->y, MPFR_RNDD);
                mpfr_sub(F->lhi, F->lhi, F->x, MPFR_RNDU);
            }
            mpfr_mul(F->ta, F->ta, F->ua, MPFR_RNDD);
            mpfr_mul(F->tb, F->tb, F->ua, MPFR_RNDU);
            if (!(j & 1) && (mpfr_zero_p(F->tb) || mpfr_cmp_ui_2exp(F->tb, 1, -(L->B + 8)) < 0)) {
                /* S_j (j even) <= log1p(u) <= S_(j+1) = S_j + u^(j+1)/(j+1) */
                mpfr_div_ui(F->y, F->tb, j + 1, MPFR_RNDU);
                mpfr_add(F->lhi, F->lhi, F->y, MPFR_RNDU);
                break;
            }
        }
        mpfr_add(F->llo, F->llo, L->LM0lo, MPFR_RNDD);
        /* log1p(ub) <= log1p(ua) + max(0, ub - ua) */
        mpfr_sub(F->x, F->ub, F->ua, MPFR_RNDU);
        if (mpfr_sgn(F->x) > 0)
            mpfr_add(F->lhi, F->lhi, F->x, MPFR_RNDU);
        mpfr_add(F->lhi, F->lhi, L->LM0hi, MPFR_RNDU);
    }
    mpfr_add(F->llo, F->llo, F->tlo, MPFR_RNDD);
    mpfr_add(F->lhi, F->lhi, F->thi, MPFR_RNDU);
}

int em_pfl_level_for(em_pfl *F, long B)
{
    if (F->lv.built && F->lv.B >= B)
        return EM_OK;
    return level_build(F, &F->lv, B);
}

void em_pfl_others_sum(em_pfl *F, mpfr_t ylo, mpfr_t yhi)
{
    mpfr_set_zero(ylo, 1);
    mpfr_set_zero(yhi, 1);
    for (size_t i = 0; i < F->n; i++)
        if (F->cls[i] == CL_OTHER) {
            em_pfl_other_bounds(F, i);
            mpfr_add(ylo, ylo, F->Plo, MPFR_RNDD);
            mpfr_add(yhi, yhi, F->Phi, MPFR_RNDU);
        }
}
