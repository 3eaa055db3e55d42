/* em_pf_law.c: permute-and-flip's exact law at scale (em_pf_law.h; the error analysis is
 * spec/PermuteAndFlip.md, "Exact pmf at scale").
 *
 * Notation: mm modes (p = 1), the others s with p_s = exp(t_s) < 1, T = 2^-jT the end of
 * the integration range (past it h is negligible and bounded by monotonicity), a
 * candidate is heavy when p T > 1/4 (a direct factor of h and a direct integral), light
 * otherwise (through the power sums Q_k = sum (p_s T)^k and the moment series). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "expmech.h"
#include "oracle/em_dec10.h"
#include "oracle/em_exponents.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf_law.h"

#define THETA_LOG2 2          /* light: p T <= 2^-THETA_LOG2 */
#define DISC_LOG2 2           /* Cauchy disc radius = 2^DISC_LOG2 half-lengths: q = 1/4 */
#define MAX_PREC (1L << 20)   /* Ziv's last working precision (as em_pf_pmf) */
#define NCAP 1024             /* largest Clenshaw-Curtis degree */
#define MAX_SUB 100000        /* largest number of subintervals */
#define EXACT_M 96            /* up to this many candidates: the exact rule (level_build) */

/* One precision level: everything shared by the candidates. */
typedef struct level {
    long B;                 /* target: every I within 2^-B relatively */
    mpfr_prec_t w;          /* working precision */
    int jT;                 /* T = 2^-jT */
    int D;                  /* power sums Q_1..Q_D */
    mpfr_t *Qlo, *Qhi;      /* Q_k / k at [k-1]; Qhi with the truncated parts */
    mpfr_t Q1hi;            /* Q_1 upper, for the series beyond D */
    mpfr_t Shi;             /* mm + sum of p (upper) */
    size_t nh, caph;        /* heavy candidates */
    size_t *hidx;           /* their indices, increasing */
    mpfr_t *sp;             /* pass A: their p bounds, [2h] lo, [2h+1] hi (caph slots) */
    size_t *hgrp;           /* their group: equal bounds (ties) form one factor */
    size_t ng;              /* groups */
    unsigned long *gm;      /* multiplicities */
    mpfr_t *hp;             /* [2g] p lo, [2g+1] p hi */
    mpfr_t *hI;             /* [2g] I lo, [2g+1] I hi */
    int K;                  /* M_0..M_K, R_0..R_(K+1) */
    mpfr_t *Mlo, *Mhi, *Rhi;
    mpfr_t R0lo;
    mpfr_t LM0lo, LM0hi;    /* log M_0 bounds */
    double *lR;             /* log2 R_k (upper) */
    double lM0;             /* log2 M_0 (lower) */
    int exact;              /* m <= EXACT_M: every other heavy, one exact rule */
    int qinit, built;
} level;

struct em_pfl {
    size_t n, m, mm, nother;
    em_usrc src;
    unsigned char *cls;
    int32_t *tex;           /* the binary exponent of |t| (0 for |t| < 1): its precision */
    mpq_t c, umax;
    em_tfast tf;
    double Sd;              /* mm + sum p, a double estimate (the plan only) */
    long tbits;             /* the largest of tex */
    int nbits;              /* bits of n */
    level lv;
    /* scratch */
    mpfr_t tlo, thi, plo, phi, x, y, z;
    mpfr_t hx, hs, hu;      /* h_eval's argument and scratch (working precision) */
    mpfr_t pw_lo, pw_hi;    /* p at the working precision */
    mpfr_t ua, ub, ta, tb;  /* log1p's series */
    mpfr_t Ilo, Ihi, Plo, Phi, llo, lhi;
    /* decimals */
    int K;
    em_dec10 d10;
    int have_d10;
    mpz_t q1, q2, e1, e2;
    char *s1, *s2, *dg;
};

static int bitlen_sz(size_t n)
{
    int b = 0;
    while (n) {
        b++;
        n >>= 1;
    }
    return b;
}

/* --------------------------------------------------------------- construction */

int em_pfl_new(size_t n, const em_usrc *src, const unsigned char *excluded, const mpq_t eps,
               const mpq_t delta, int variant, em_pfl **out)
{
    if (!out || !src || !src->get || !eps || !delta)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (n > EM_N_MAX)
        return EM_ERR_TOO_MANY;
    if (mpq_sgn(eps) <= 0)
        return EM_ERR_EPSILON;
    if (mpq_sgn(delta) <= 0)
        return EM_ERR_SENSITIVITY;
    if (variant != EM_STANDARD && variant != EM_MONOTONE)
        return EM_ERR_VARIANT;
    em_mpfr_widest_range();
    em_pfl *F = calloc(1, sizeof *F);
    if (!F)
        return EM_ERR_NOMEM;
    F->cls = malloc(n);
    F->tex = calloc(n, sizeof *F->tex);
    if (!F->cls || !F->tex) {
        free(F->cls);
        free(F->tex);
        free(F);
        return EM_ERR_NOMEM;
    }
    F->n = n;
    F->src = *src;
    mpq_inits(F->c, F->umax, (mpq_ptr)0);
    int st = em_exponents_src(n, src, excluded, eps, delta, variant, F->c, F->umax, F->cls,
                              &F->m);
    if (st != EM_OK) {
        mpq_clears(F->c, F->umax, (mpq_ptr)0);
        free(F->cls);
        free(F->tex);
        free(F);
        return st;
    }
    em_tfast_init(&F->tf, F->c, F->umax);
    mpfr_inits2(64, F->tlo, F->thi, F->plo, F->phi, F->x, F->y, F->z, F->hx, F->hs, F->hu,
                F->pw_lo, F->pw_hi, F->Ilo, F->Ihi, F->Plo, F->Phi, F->llo, F->lhi, F->ua, F->ub,
                F->ta, F->tb, (mpfr_ptr)0);
    mpz_inits(F->q1, F->q2, F->e1, F->e2, (mpz_ptr)0);
    F->nbits = bitlen_sz(n);
    /* the plan's estimates: p in double from t at 53 bits; the largest |t| */
    double S = 0;
    long tb = 0;
    mpfr_set_prec(F->tlo, 53);
    for (size_t i = 0; i < n; i++) {
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
    *out = F;
    return EM_OK;
}

static mpfr_t *mpfr_array(size_t n, mpfr_prec_t p)
{
    mpfr_t *v = malloc((n ? n : 1) * sizeof *v);
    if (v)
        for (size_t i = 0; i < n; i++) {
            mpfr_init2(v[i], p);
            mpfr_set_zero(v[i], 1);
        }
    return v;
}

static void mpfr_array_free(mpfr_t *v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        mpfr_clear(v[i]);
    free(v);
}

static void level_clear(level *L)
{
    if (L->Qlo) {
        for (int k = 0; k < L->D; k++)
            mpfr_clears(L->Qlo[k], L->Qhi[k], (mpfr_ptr)0);
    }
    free(L->Qlo);
    free(L->Qhi);
    if (L->qinit)
        mpfr_clears(L->Q1hi, L->Shi, L->R0lo, L->LM0lo, L->LM0hi, (mpfr_ptr)0);
    mpfr_array_free(L->sp, 2 * L->caph);
    mpfr_array_free(L->hp, 2 * L->ng);
    mpfr_array_free(L->hI, 2 * L->ng);
    free(L->hidx);
    free(L->hgrp);
    free(L->gm);
    mpfr_array_free(L->Mlo, (size_t)L->K + 2);
    mpfr_array_free(L->Mhi, (size_t)L->K + 2);
    mpfr_array_free(L->Rhi, (size_t)L->K + 2);
    free(L->lR);
    memset(L, 0, sizeof *L);
}

void em_pfl_free(em_pfl *F)
{
    if (!F)
        return;
    level_clear(&F->lv);
    em_tfast_clear(&F->tf);
    mpfr_clears(F->tlo, F->thi, F->plo, F->phi, F->x, F->y, F->z, F->hx, F->hs, F->hu,
                F->pw_lo, F->pw_hi, F->Ilo, F->Ihi, F->Plo, F->Phi, F->llo, F->lhi, F->ua, F->ub,
                F->ta, F->tb, (mpfr_ptr)0);
    mpz_clears(F->q1, F->q2, F->e1, F->e2, (mpz_ptr)0);
    if (F->have_d10)
        em_dec10_clear(&F->d10);
    free(F->s1);
    free(F->s2);
    free(F->dg);
    mpq_clears(F->c, F->umax, (mpq_ptr)0);
    free(F->cls);
    free(F->tex);
    free(F);
}

/* ------------------------------------------------------------- exponentials */

/* Bounds tlo <= t_i <= thi at tlo's precision and plo <= p_i <= phi at plo's.
 * exp(thi) = exp(tlo) exp(thi - tlo) <= nextabove(RNDD exp(tlo)) (1 + 2 (thi - tlo)) for
 * thi - tlo <= 1 (exp(d) <= 1 + 2d on [0, 1]; exp(tlo) is irrational, tlo != 0 being a
 * non-zero dyadic, so strictly below nextabove), which saves the second exponential. */
static void p_bounds(em_pfl *F, size_t i, mpfr_t tlo, mpfr_t thi, mpfr_t plo, mpfr_t phi)
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

static int heavy_find(const level *L, size_t i, size_t *h)
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

/* ------------------------------------------------------------------ h(x) */

/* A bound of h(x) = (1 - x)^(mm-1) prod_heavy (1 - p x) exp(-A(x)) at an exact x in
 * [0, T]: upper when up, else lower.  A(x) = -sum_light log(1 - p x) = sum_k y^k Q_k / k,
 * y = x / T <= 1; the terms beyond D are below y^(D+1) th^D Q_1 / ((D+1)(1 - y th)),
 * th = 2^-THETA_LOG2, since Q_k <= th^(k-1) Q_1. */
static void h_eval(em_pfl *F, const level *L, mpfr_srcptr x, int up, mpfr_t out)
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
    for (size_t g = 0; g < L->ng; g++) {
        mpfr_mul(u, L->hp[2 * g + (up ? 0 : 1)], x, Rn);
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

/* Hd >= max |h(z)| over the disc |z - x0 - r| <= r: each factor |1 - p z| is largest at
 * the disc's leftmost point x0 (1/p >= 1 lies right of the centre), so the product of
 * the maxima is h(x0) for x0 >= 0 and, for x0 < 0, at most
 * (1 - x0)^(mm-1) prod_heavy (1 + p |x0|) exp(|x0| sum_light p). */
static void disc_bound(em_pfl *F, const level *L, mpfr_srcptr x0, mpfr_t Hd)
{
    mpfr_ptr s = F->hs, u = F->hu;
    if (mpfr_sgn(x0) >= 0) {
        h_eval(F, L, x0, 1, Hd);
        return;
    }
    mpfr_mul_2si(s, L->Q1hi, L->jT, MPFR_RNDU); /* sum of light p, upper */
    mpfr_mul(s, s, x0, MPFR_RNDD);
    mpfr_neg(s, s, MPFR_RNDU);
    mpfr_exp(Hd, s, MPFR_RNDU);
    for (size_t g = 0; g < L->ng; g++) {
        mpfr_mul(u, L->hp[2 * g + 1], x0, MPFR_RNDD);
        mpfr_ui_sub(u, 1, u, MPFR_RNDU);
        if (L->gm[g] > 1)
            mpfr_pow_ui(u, u, L->gm[g], MPFR_RNDU);
        mpfr_mul(Hd, Hd, u, MPFR_RNDU);
    }
    if (F->mm > 1) {
        mpfr_ui_sub(u, 1, x0, MPFR_RNDU);
        mpfr_pow_ui(u, u, (unsigned long)(F->mm - 1), MPFR_RNDU);
        mpfr_mul(Hd, Hd, u, MPFR_RNDU);
    }
}

/* -------------------------------------------------------- Clenshaw-Curtis */

/* The (N+1)-point Clenshaw-Curtis rule on [-1, 1] (N even): nodes cos(j pi / N) and
 * weights w_j = (c_j / N) (1 - sum_{k=1}^{N/2} b_k cos(2 k j pi / N) / (4 k^2 - 1)),
 * c_0 = c_N = 1, else 2; b_(N/2) = 1, else 2.  Exact for polynomials of degree N, weights
 * positive (Imhof 1963; checked here on the enclosures).  Enclosures: xi[2j], xi[2j+1]
 * and wt[2j], wt[2j+1].  Returns 0, or -1 when a weight is not certainly positive. */
static int cc_rule(int N, mpfr_prec_t w, mpfr_t *xi, mpfr_t *wt)
{
    mpfr_t *cl = malloc(2 * ((size_t)N + 1) * sizeof *cl);
    if (!cl)
        return -2;
    mpfr_t pl, ph, t, s_lo, s_hi, v;
    mpfr_inits2(w + 16, pl, ph, t, s_lo, s_hi, v, (mpfr_ptr)0);
    mpfr_const_pi(pl, MPFR_RNDD);
    mpfr_const_pi(ph, MPFR_RNDU);
    for (int i = 0; i <= N; i++)
        mpfr_inits2(w, cl[2 * i], cl[2 * i + 1], (mpfr_ptr)0);
    /* cos(i pi / N) for i <= N/2 (angle in [0, pi/2], cos decreasing), then by symmetry */
    for (int i = 0; i <= N / 2; i++) {
        if (i == 0) {
            mpfr_set_ui(cl[0], 1, MPFR_RNDN);
            mpfr_set_ui(cl[1], 1, MPFR_RNDN);
        } else if (2 * i == N) {
            mpfr_set_zero(cl[2 * i], 1);
            mpfr_set_zero(cl[2 * i + 1], 1);
        } else {
            mpfr_mul_ui(t, ph, (unsigned long)i, MPFR_RNDU);
            mpfr_div_ui(t, t, (unsigned long)N, MPFR_RNDU);
            mpfr_cos(cl[2 * i], t, MPFR_RNDD);
            mpfr_mul_ui(t, pl, (unsigned long)i, MPFR_RNDD);
            mpfr_div_ui(t, t, (unsigned long)N, MPFR_RNDD);
            mpfr_cos(cl[2 * i + 1], t, MPFR_RNDU);
        }
        mpfr_neg(cl[2 * (N - i)], cl[2 * i + 1], MPFR_RNDN);
        mpfr_neg(cl[2 * (N - i) + 1], cl[2 * i], MPFR_RNDN);
    }
    int bad = 0;
    for (int j = 0; j <= N; j++) {
        mpfr_set(xi[2 * j], cl[2 * j], MPFR_RNDD);
        mpfr_set(xi[2 * j + 1], cl[2 * j + 1], MPFR_RNDU);
        if (2 * j > N) { /* w_j = w_(N-j) */
            mpfr_set(wt[2 * j], wt[2 * (N - j)], MPFR_RNDN);
            mpfr_set(wt[2 * j + 1], wt[2 * (N - j) + 1], MPFR_RNDN);
            continue;
        }
        mpfr_set_ui(s_lo, 1, MPFR_RNDN);
        mpfr_set_ui(s_hi, 1, MPFR_RNDN);
        for (int k = 1; k <= N / 2; k++) {
            long idx = (2L * k * j) % (2L * N);
            if (idx > N)
                idx = 2L * N - idx;
            unsigned long bk = 2 * k == N ? 1 : 2, den = 4UL * (unsigned long)k * k - 1;
            mpfr_mul_ui(v, cl[2 * idx + 1], bk, MPFR_RNDU);
            mpfr_div_ui(v, v, den, MPFR_RNDU);
            mpfr_sub(s_lo, s_lo, v, MPFR_RNDD);
            mpfr_mul_ui(v, cl[2 * idx], bk, MPFR_RNDD);
            mpfr_div_ui(v, v, den, MPFR_RNDD);
            mpfr_sub(s_hi, s_hi, v, MPFR_RNDU);
        }
        unsigned long cj = (j == 0 || j == N) ? 1 : 2;
        mpfr_mul_ui(s_lo, s_lo, cj, MPFR_RNDD);
        mpfr_div_ui(wt[2 * j], s_lo, (unsigned long)N, MPFR_RNDD);
        mpfr_mul_ui(s_hi, s_hi, cj, MPFR_RNDU);
        mpfr_div_ui(wt[2 * j + 1], s_hi, (unsigned long)N, MPFR_RNDU);
        if (mpfr_sgn(wt[2 * j]) <= 0)
            bad = 1;
    }
    for (int i = 0; i <= N; i++)
        mpfr_clears(cl[2 * i], cl[2 * i + 1], (mpfr_ptr)0);
    free(cl);
    mpfr_clears(pl, ph, t, s_lo, s_hi, v, (mpfr_ptr)0);
    return bad ? -1 : 0;
}

/* ------------------------------------------------------------------ levels */

/* Local decay rate of h at a (double, for the plan only): -(log h)'(a) <=
 * (mm - 1)/(1 - a) + sum_heavy p/(1 - p a) + sum_light p / (1 - th a / T). */
static double rate(const em_pfl *F, const level *L, const double *hpd, double P1d, double a)
{
    double one = 1 - a > 1e-300 ? 1 - a : 1e-300;
    double r = (double)(F->mm - 1) / one;
    for (size_t g = 0; g < L->ng; g++) {
        double d = 1 - hpd[g] * a;
        r += (double)L->gm[g] * hpd[g] / (d > 1e-300 ? d : 1e-300);
    }
    return r + P1d / (1 - ldexp(a, L->jT - THETA_LOG2));
}

typedef struct sub {
    double a, hh;           /* [a, a + 2 hh]: multiples of 2^-50 T, so exact in a double */
} sub;

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
static int group_heavy(level *L)
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
    L->hp = mpfr_array(2 * ng, L->w);
    L->hI = mpfr_array(2 * ng, L->w);
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
    mpfr_array_free(L->sp, 2 * L->caph);
    L->sp = NULL;
    L->caph = 0;
    return EM_OK;
}

/* Pass A at jT: the power sums, the heavy list, Shi and Q1hi.  EM_OK or EM_ERR_NOMEM. */
static int pass_A(em_pfl *F, level *L)
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
        p_bounds(F, i, F->tlo, F->thi, F->plo, F->phi);
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

/* (1 - a) h(a) <= tol, certified (a exact in F->hx) */
static int rest_negligible(em_pfl *F, const level *L, double a, mpfr_srcptr tol, mpfr_t out)
{
    mpfr_set_d(F->hx, a, MPFR_RNDN);
    h_eval(F, L, F->hx, 1, out);
    mpfr_ui_sub(F->hx, 1, F->hx, MPFR_RNDU);
    mpfr_mul(out, out, F->hx, MPFR_RNDU);
    return mpfr_cmp(out, tol) <= 0;
}

/* The subintervals of [0, Tend]: lengths powers of two (at least 2^-50 T, so that every
 * end is exact in a double), each about 2 shrink / rate, so that h changes by a bounded
 * factor over its Cauchy disc; the plan ends at T, or earlier where (1 - a) h(a) is
 * certainly below tol (then [a, 1] is a tail bounded by monotonicity).  Returns the
 * count, or 0 when out of memory or past MAX_SUB. */
static size_t plan(em_pfl *F, const level *L, double shrink, mpfr_srcptr tol, sub **out,
                   double *Tend, mpfr_t scr)
{
    double *hpd = malloc((L->ng ? L->ng : 1) * sizeof *hpd);
    size_t cap = 64, ns = 0;
    sub *S = malloc(cap * sizeof *S);
    if (!hpd || !S) {
        free(hpd);
        free(S);
        return 0;
    }
    for (size_t g = 0; g < L->ng; g++)
        hpd[g] = mpfr_get_d(L->hp[2 * g + 1], MPFR_RNDN);
    const double T = ldexp(1.0, -L->jT), lmin = ldexp(T, -50);
    const double P1d = ldexp(mpfr_get_d(L->Q1hi, MPFR_RNDN), L->jT);
    const double stop = -((double)L->B + 20) * 0.6931 - log(F->Sd + 1);
    double a = 0, len = T;
    int checks = 0;
    while (a < T) {
        double r = rate(F, L, hpd, P1d, a), want = shrink * 2 / (r > 0 ? r : 1e-300);
        while (len > want && len > lmin)
            len /= 2;
        if (a > 0 && checks < 64) {
            /* a negligible rest?  A double estimate first, then certified */
            double est = (F->mm > 1 ? (double)(F->mm - 1) * log1p(-a) : 0) - a * (F->Sd - (double)F->mm);
            if (est < stop) {
                checks++;
                if (rest_negligible(F, L, a, tol, scr))
                    break;
            }
        }
        if (ns == cap) {
            sub *nS = cap < MAX_SUB ? realloc(S, 2 * cap * sizeof *S) : NULL;
            if (!nS) {
                free(hpd);
                free(S);
                return 0;
            }
            S = nS;
            cap *= 2;
        }
        S[ns].a = a;
        S[ns].hh = len / 2;
        ns++;
        a += len; /* exact: both multiples of lmin, below T */
    }
    free(hpd);
    *Tend = a < T ? a : T;
    *out = S;
    return ns;
}

/* mpfr value -> log2 as a double (-inf for 0) */
static double lg2(mpfr_srcptr x)
{
    if (mpfr_zero_p(x))
        return -INFINITY;
    long e;
    double d = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return (double)e + log2(fabs(d));
}

/* The subinterval's Cauchy factor C = 4 hh Hd / (1 - q) (q = 1/4) and, in x0, the left
 * end of its disc (radius 4 hh) */
static void sub_factor(em_pfl *F, const level *L, const sub *S, mpfr_t x0, mpfr_t C)
{
    mpfr_set_d(x0, S->a - 3 * S->hh, MPFR_RNDN); /* exact */
    disc_bound(F, L, x0, C);
    mpfr_mul_d(C, C, S->hh * 16, MPFR_RNDU);
    mpfr_div_ui(C, C, 3, MPFR_RNDU);
}

/* The errors of the rule of degree N on subinterval S (spec/PermuteAndFlip.md): exact to
 * degree N with positive weights summing to 2 hh, it leaves of an integrand P g (P a
 * polynomial of degree d, g analytic with |g| <= G on the disc of radius 4 hh) at most
 * 2 (2 hh) max|P| G q^(N-d+1) / (1 - q), q = 1/4 (Cauchy's estimate on g's Taylor
 * series).  Added to EM (M_k), ER (R_k) and EH (the heavy groups' integrals). */
static void sub_errors(em_pfl *F, const level *L, const sub *S, int N, mpfr_t x0, mpfr_t C,
                       mpfr_t *EM, mpfr_t *ER, mpfr_t *EH)
{
    const int K = L->K;
    mpfr_t bk, oma, qp, fr, b;
    mpfr_inits2(64, bk, oma, qp, fr, b, (mpfr_ptr)0);
    sub_factor(F, L, S, x0, C);
    mpfr_set_d(oma, S->a, MPFR_RNDN);
    mpfr_ui_sub(oma, 1, oma, MPFR_RNDU);  /* max (1 - x) */
    mpfr_set_d(bk, S->a + 2 * S->hh, MPFR_RNDN); /* b, exact */
    mpfr_set(b, bk, MPFR_RNDN);
    mpfr_set_ui(bk, 1, MPFR_RNDN);
    for (int k = 0; k <= K + 1; k++) {
        mpfr_mul(qp, C, bk, MPFR_RNDU); /* R_k: P = x^k, max b^k */
        mpfr_div_2ui(qp, qp, 2 * (unsigned long)(N - k + 1), MPFR_RNDU);
        mpfr_add(ER[k], ER[k], qp, MPFR_RNDU);
        if (k <= K) { /* M_k: P = x^k (1 - x) */
            mpfr_mul(qp, C, bk, MPFR_RNDU);
            mpfr_mul(qp, qp, oma, MPFR_RNDU);
            mpfr_div_2ui(qp, qp, 2 * (unsigned long)(N - k), MPFR_RNDU);
            mpfr_add(EM[k], EM[k], qp, MPFR_RNDU);
        }
        mpfr_mul(bk, bk, b, MPFR_RNDU);
    }
    for (size_t h = 0; h < L->ng; h++) {
        /* (1 - x) times h / (1 - p x), whose factors' maxima are Hd / (1 - p x0) */
        mpfr_mul(fr, L->hp[2 * h + (mpfr_sgn(x0) >= 0)], x0, MPFR_RNDU);
        mpfr_ui_sub(fr, 1, fr, MPFR_RNDD);
        mpfr_div(qp, C, fr, MPFR_RNDU);
        mpfr_mul(qp, qp, oma, MPFR_RNDU);
        mpfr_div_2ui(qp, qp, 2 * (unsigned long)N, MPFR_RNDU);
        mpfr_add(EH[h], EH[h], qp, MPFR_RNDU);
    }
    mpfr_clears(bk, oma, qp, fr, b, (mpfr_ptr)0);
}

/* The moments M_k (k <= K), R_k (k <= K + 1) and the heavy candidates' I with their
 * errors, by the rule (xi, wt) of degree N on the ns subintervals, and the tail past
 * Tend.  EM_OK. */
static void integrate(em_pfl *F, level *L, const sub *S, size_t ns, double Tend, int N,
                      mpfr_t *xi, mpfr_t *wt, mpfr_t *Rlo, mpfr_t *EM, mpfr_t *ER, mpfr_t *EH)
{
    const int K = L->K;
    const mpfr_prec_t w = L->w;
    mpfr_t xl, xu, Wl, Wu, hl, hu, pl, pu, al, au, cc, hh, s;
    mpfr_inits2(w, xl, xu, Wl, Wu, hl, hu, pl, pu, al, au, cc, hh, s, (mpfr_ptr)0);
    mpfr_t x0, C, tR, tM;
    mpfr_inits2(64, C, tR, tM, (mpfr_ptr)0);
    mpfr_init2(x0, w);
    for (size_t i = 0; i < ns; i++) {
        mpfr_set_d(hh, S[i].hh, MPFR_RNDN);
        mpfr_set_d(cc, S[i].a + S[i].hh, MPFR_RNDN);
        if (!L->exact) /* else polynomials of degree <= N: the rule is exact */
            sub_errors(F, L, &S[i], N, x0, C, EM, ER, EH);
        /* the rule: nodes in [xl, xu], weights in [Wl, Wu]; h is non-increasing, so
         * h(node) is in [h(xu), h(xl)]; every factor is >= 0 */
        for (int j = 0; j <= N; j++) {
            mpfr_mul(xl, hh, xi[2 * j], MPFR_RNDD);
            mpfr_add(xl, xl, cc, MPFR_RNDD);
            mpfr_mul(xu, hh, xi[2 * j + 1], MPFR_RNDU);
            mpfr_add(xu, xu, cc, MPFR_RNDU);
            if (mpfr_sgn(xl) < 0)
                mpfr_set_zero(xl, 1);
            mpfr_mul(Wl, hh, wt[2 * j], MPFR_RNDD);
            mpfr_mul(Wu, hh, wt[2 * j + 1], MPFR_RNDU);
            h_eval(F, L, xu, 0, hl);
            h_eval(F, L, xl, 1, hu);
            mpfr_mul(hl, hl, Wl, MPFR_RNDD);
            mpfr_mul(hu, hu, Wu, MPFR_RNDU);
            mpfr_set(al, hl, MPFR_RNDD);
            mpfr_set(au, hu, MPFR_RNDU);
            mpfr_ui_sub(pl, 1, xu, MPFR_RNDD);
            mpfr_ui_sub(pu, 1, xl, MPFR_RNDU);
            for (int k = 0; k <= K + 1; k++) {
                if (k == 0)
                    mpfr_add(Rlo[0], Rlo[0], al, MPFR_RNDD);
                mpfr_add(L->Rhi[k], L->Rhi[k], au, MPFR_RNDU);
                if (k <= K) {
                    mpfr_mul(s, al, pl, MPFR_RNDD);
                    mpfr_add(L->Mlo[k], L->Mlo[k], s, MPFR_RNDD);
                    mpfr_mul(s, au, pu, MPFR_RNDU);
                    mpfr_add(L->Mhi[k], L->Mhi[k], s, MPFR_RNDU);
                }
                mpfr_mul(al, al, xl, MPFR_RNDD);
                mpfr_mul(au, au, xu, MPFR_RNDU);
            }
            mpfr_mul(hl, hl, pl, MPFR_RNDD);
            mpfr_mul(hu, hu, pu, MPFR_RNDU);
            for (size_t h = 0; h < L->ng; h++) { /* (1 - x) h(x) / (1 - p x) */
                mpfr_mul(s, L->hp[2 * h], xl, MPFR_RNDD);
                mpfr_ui_sub(s, 1, s, MPFR_RNDU);
                mpfr_div(s, hl, s, MPFR_RNDD);
                mpfr_add(L->hI[2 * h], L->hI[2 * h], s, MPFR_RNDD);
                mpfr_mul(s, L->hp[2 * h + 1], xu, MPFR_RNDU);
                mpfr_ui_sub(s, 1, s, MPFR_RNDD);
                if (mpfr_sgn(s) <= 0)
                    mpfr_set_inf(L->hI[2 * h + 1], 1);
                else {
                    mpfr_div(s, hu, s, MPFR_RNDU);
                    mpfr_add(L->hI[2 * h + 1], L->hI[2 * h + 1], s, MPFR_RNDU);
                }
            }
        }
    }
    /* past Tend: x^k <= 1, (1 - x) h(x) <= (1 - Tend) h(Tend), (1 - x)/(1 - p x) <= 1 */
    mpfr_set_zero(tR, 1);
    mpfr_set_zero(tM, 1);
    if (Tend < 1) {
        rest_negligible(F, L, Tend, tR, tR);
        mpfr_set_d(x0, Tend, MPFR_RNDN);
        mpfr_ui_sub(x0, 1, x0, MPFR_RNDU);
        mpfr_mul(tM, tR, x0, MPFR_RNDU);
    }
    for (int k = 0; k <= K + 1; k++) {
        mpfr_add(L->Rhi[k], L->Rhi[k], ER[k], MPFR_RNDU);
        mpfr_add(L->Rhi[k], L->Rhi[k], tR, MPFR_RNDU);
        L->lR[k] = lg2(L->Rhi[k]);
        if (k <= K) {
            mpfr_sub(L->Mlo[k], L->Mlo[k], EM[k], MPFR_RNDD);
            if (mpfr_sgn(L->Mlo[k]) < 0)
                mpfr_set_zero(L->Mlo[k], 1);
            mpfr_add(L->Mhi[k], L->Mhi[k], EM[k], MPFR_RNDU);
            mpfr_add(L->Mhi[k], L->Mhi[k], tM, MPFR_RNDU);
        }
    }
    mpfr_sub(L->R0lo, Rlo[0], ER[0], MPFR_RNDD);
    if (mpfr_sgn(L->R0lo) < 0)
        mpfr_set_zero(L->R0lo, 1);
    /* M_0 = E[1/(1 + K_all)] >= 1/(1 + S) (Jensen) in any case */
    mpfr_add_ui(s, L->Shi, 1, MPFR_RNDU);
    mpfr_ui_div(s, 1, s, MPFR_RNDD);
    if (mpfr_cmp(L->Mlo[0], s) < 0)
        mpfr_set(L->Mlo[0], s, MPFR_RNDD);
    L->lM0 = lg2(L->Mlo[0]);
    mpfr_log(L->LM0lo, L->Mlo[0], MPFR_RNDD);
    mpfr_log(L->LM0hi, L->Mhi[0], MPFR_RNDU);
    for (size_t h = 0; h < L->ng; h++) {
        mpfr_sub(L->hI[2 * h], L->hI[2 * h], EH[h], MPFR_RNDD);
        if (mpfr_cmp(L->hI[2 * h], L->Mlo[0]) < 0) /* 1/(1 - p x) >= 1 */
            mpfr_set(L->hI[2 * h], L->Mlo[0], MPFR_RNDD);
        mpfr_add(L->hI[2 * h + 1], L->hI[2 * h + 1], EH[h], MPFR_RNDU);
        mpfr_add(L->hI[2 * h + 1], L->hI[2 * h + 1], tR, MPFR_RNDU);
        if (mpfr_cmp(L->hI[2 * h + 1], L->Rhi[0]) > 0) /* (1 - x)/(1 - p x) <= 1 */
            mpfr_set(L->hI[2 * h + 1], L->Rhi[0], MPFR_RNDU);
    }
    mpfr_clears(xl, xu, Wl, Wu, hl, hu, pl, pu, al, au, cc, hh, s, x0, (mpfr_ptr)0);
    mpfr_clears(C, tR, tM, (mpfr_ptr)0);
}

/* Build the level for target B: pass A, the plan, the rule, the moments and the heavy
 * integrals, each with its certified error.  EM_OK or an error. */
static int level_build(em_pfl *F, level *L, long B)
{
    level_clear(L);
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
    sub *S = NULL;
    size_t ns = 0;
    double Tend = 1;
    int N = 0, st = EM_OK;
    for (;;) {
        level_clear(L);
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
            ns = plan(F, L, shrink, tol_tail, &S, &Tend, C);
            if (ns == 0) {
                st = EM_ERR_NOMEM;
                break;
            }
            if (Tend < 1 && !(tail_ok = rest_negligible(F, L, Tend, tol_tail, C)))
                break;
            /* N: sum_i C_i (1 - a_i) 4^-N <= tol / (8 (K + 2)), so that each moment's
             * error weighted by p^k <= (1/(4T))^k stays below tol / (8 (K + 2)) */
            mpfr_set_zero(E, 1);
            for (size_t i = 0; i < ns; i++) {
                sub_factor(F, L, &S[i], x0, C);
                mpfr_add(E, E, C, MPFR_RNDU);
            }
            double bits = lg2(E) - lg2(tol) + 3 + log2((double)L->K + 2);
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
        L->Mlo = mpfr_array(nm, w);
        L->Mhi = mpfr_array(nm, w);
        L->Rhi = mpfr_array(nm, w);
        L->lR = malloc(nm * sizeof *L->lR);
        mpfr_t *Rlo = mpfr_array(nm, w), *EM = mpfr_array(nm, 64), *ER = mpfr_array(nm, 64);
        mpfr_t *EH = mpfr_array(L->ng, 64), *xi = mpfr_array(nr, w), *wt = mpfr_array(nr, w);
        if (!L->Mlo || !L->Mhi || !L->Rhi || !L->lR || !Rlo || !EM || !ER || !EH || !xi || !wt) {
            st = EM_ERR_NOMEM;
        } else {
            for (size_t h = 0; h < 2 * L->ng; h++)
                mpfr_set_zero(L->hI[h], 1);
            int rc = cc_rule(N, w, xi, wt);
            if (rc != 0)
                st = rc == -2 ? EM_ERR_NOMEM : EM_ERR_UNDECIDED;
            else
                integrate(F, L, S, ns, Tend, N, xi, wt, Rlo, EM, ER, EH);
        }
        mpfr_array_free(Rlo, nm);
        mpfr_array_free(EM, nm);
        mpfr_array_free(ER, nm);
        mpfr_array_free(EH, L->ng);
        mpfr_array_free(xi, nr);
        mpfr_array_free(wt, nr);
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
static mpfr_prec_t cand_prec(const level *L, long e)
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
static void other_bounds(em_pfl *F, size_t i)
{
    const level *L = &F->lv;
    set_prec_all(F, cand_prec(L, F->tex[i]));
    p_bounds(F, i, F->tlo, F->thi, F->plo, F->phi);
    size_t h;
    if (L->nh && heavy_find(L, i, &h)) {
        h = L->hgrp[h];
        mpfr_set(F->Ilo, L->hI[2 * h], MPFR_RNDD);
        mpfr_set(F->Ihi, L->hI[2 * h + 1], MPFR_RNDU);
    } else {
        mpfr_set(F->pw_lo, F->plo, MPFR_RNDD);
        mpfr_set(F->pw_hi, F->phi, MPFR_RNDU);
        /* the shortest series whose remainder p^(K+1) R_(K+1) is below 2^-(B+2) M_0 */
        double lp = lg2(F->pw_hi), goal = L->lM0 - (double)L->B - 2;
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
static void mode_bounds(em_pfl *F, mpfr_srcptr ylo, mpfr_srcptr yhi)
{
    const level *L = &F->lv;
    set_prec_all(F, cand_prec(L, 0));
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
static void other_logs(em_pfl *F)
{
    const level *L = &F->lv;
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

static int level_for(em_pfl *F, long B)
{
    if (F->lv.built && F->lv.B >= B)
        return EM_OK;
    return level_build(F, &F->lv, B);
}

/* ---------------------------------------------------------------- bounds */

int em_pfl_bounds(em_pfl *F, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    if (!F || !lo || !hi)
        return EM_ERR_NULL;
    em_mpfr_widest_range();
    const size_t n = F->n;
    if (F->m == 1 || F->nother == 0) {
        for (size_t i = 0; i < n; i++) {
            if (F->cls[i] == CL_EXCLUDED) {
                mpfr_set_zero(lo[i], 1);
                mpfr_set_zero(hi[i], 1);
            } else {
                mpfr_set_ui(lo[i], 1, MPFR_RNDN);
                mpfr_div_ui(lo[i], lo[i], (unsigned long)F->m, MPFR_RNDD);
                mpfr_set_ui(hi[i], 1, MPFR_RNDN);
                mpfr_div_ui(hi[i], hi[i], (unsigned long)F->m, MPFR_RNDU);
            }
        }
        return EM_OK;
    }
    int st = level_for(F, (long)prec + 8);
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
            other_bounds(F, i);
            mpfr_add(ylo, ylo, F->Plo, MPFR_RNDD);
            mpfr_add(yhi, yhi, F->Phi, MPFR_RNDU);
            mpfr_set(lo[i], F->Plo, MPFR_RNDD);
            mpfr_set(hi[i], F->Phi, MPFR_RNDU);
        }
    }
    mode_bounds(F, ylo, yhi);
    for (size_t i = 0; i < n; i++)
        if (F->cls[i] == CL_MODE) {
            mpfr_set(lo[i], F->Plo, MPFR_RNDD);
            mpfr_set(hi[i], F->Phi, MPFR_RNDU);
        }
    mpfr_clears(ylo, yhi, (mpfr_ptr)0);
    return EM_OK;
}

/* ------------------------------------------------------------- decimals */

/* The K-digit decimal of |v|, v in [lo, hi] (non-zero, finite, one sign): 1 when both
 * ends round alike (then so does v: rounding is monotone), the digits into F->dg and
 * the exponent (value 0.d 10^e) into e. */
static int dec_pair(em_pfl *F, mpfr_srcptr lo, mpfr_srcptr hi, mpz_t e)
{
    if (!mpfr_regular_p(lo) || !mpfr_regular_p(hi) || mpfr_sgn(lo) != mpfr_sgn(hi))
        return 0;
    long x1, x2;
    if (em_dec10_round(&F->d10, lo, F->q1, &x1) && em_dec10_round(&F->d10, hi, F->q2, &x2)) {
        if (x1 != x2 || mpz_cmp(F->q1, F->q2) != 0)
            return 0;
        em_dec10_digits(&F->d10, F->q1, F->dg);
        mpz_set_si(e, x1);
        return 1;
    }
    mpfr_exp_t y1, y2;
    mpfr_get_str(F->s1, &y1, 10, (size_t)F->K, lo, MPFR_RNDN);
    mpfr_get_str(F->s2, &y2, 10, (size_t)F->K, hi, MPFR_RNDN);
    if (y1 != y2 || strcmp(F->s1, F->s2) != 0)
        return 0;
    strcpy(F->dg, F->s1[0] == '-' ? F->s1 + 1 : F->s1);
    mpz_set_si(e, (long)y1);
    return 1;
}

/* Decimal of 10^x, x one end of an interval: floor(x) exactly, 10^frac(x) by MPFR
 * rounded in direction up; digits into d, exponent into e. */
static void dec_pow10(mpfr_srcptr x, int up, int K, char *d, mpz_t e)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t fl, f, M;
    mpfr_inits2(p, fl, f, M, (mpfr_ptr)0);
    mpfr_floor(fl, x);
    mpfr_sub(f, x, fl, MPFR_RNDN); /* exact */
    mpfr_exp10(M, f, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_get_z(e, fl, MPFR_RNDN);
    mpfr_exp_t em;
    mpfr_get_str(d, &em, 10, (size_t)K, M, MPFR_RNDN);
    if (em >= 0)
        mpz_add_ui(e, e, (unsigned long)em);
    else
        mpz_sub_ui(e, e, (unsigned long)(-em));
    mpfr_clears(fl, f, M, (mpfr_ptr)0);
}

/* Decimal of exp(a), a in [alo, ahi] (any size): 1 when both ends agree (F->dg, e). */
static int dec_from_log(em_pfl *F, mpfr_srcptr alo, mpfr_srcptr ahi, mpz_t e)
{
    mpfr_prec_t p = mpfr_get_prec(alo) > mpfr_get_prec(ahi) ? mpfr_get_prec(alo) : mpfr_get_prec(ahi);
    mpfr_t l10lo, l10hi, xlo, xhi;
    mpfr_inits2(p, l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
    mpfr_log_ui(l10lo, 10, MPFR_RNDD);
    mpfr_log_ui(l10hi, 10, MPFR_RNDU);
    mpfr_div(xlo, alo, mpfr_sgn(alo) < 0 ? l10lo : l10hi, MPFR_RNDD);
    mpfr_div(xhi, ahi, mpfr_sgn(ahi) < 0 ? l10hi : l10lo, MPFR_RNDU);
    dec_pow10(xlo, 0, F->K, F->s1, e);
    dec_pow10(xhi, 1, F->K, F->s2, F->e2);
    int same = mpz_cmp(e, F->e2) == 0 && strcmp(F->s1, F->s2) == 0;
    if (same)
        strcpy(F->dg, F->s1);
    mpfr_clears(l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
    return same;
}

/* The exact K-digit rounding of 1/mm: ties to even (tie 0) or down (tie -1: the value is
 * 1/mm minus an infinitesimal); digits into d, exponent into e. */
static void dec_recip(unsigned long mm, int K, int tie, char *d, mpz_t e)
{
    mpz_t a, q, r, t;
    mpz_inits(a, q, r, t, (mpz_ptr)0);
    /* 1/mm = 0.d 10^E: E = 1 for mm = 1, else 1 - (digits of mm - 1) or so: search */
    long E = mm == 1 ? 1 : -(long)(bitlen_sz(mm) * 0.30103) + 1;
    for (;;) {
        /* q = floor(10^(K - E) / mm) */
        long s = K - E;
        mpz_ui_pow_ui(a, 10, (unsigned long)(s >= 0 ? s : 0));
        mpz_fdiv_qr_ui(q, r, a, mm);
        mpz_ui_pow_ui(t, 10, (unsigned long)K);
        if (mpz_cmp(q, t) >= 0) {
            E++;
            continue;
        }
        mpz_ui_pow_ui(t, 10, (unsigned long)(K - 1));
        if (mpz_cmp(q, t) < 0) {
            E--;
            continue;
        }
        break;
    }
    mpz_mul_2exp(r, r, 1);
    int c = mpz_cmp_ui(r, mm);
    int up = c > 0 || (c == 0 && (tie < 0 ? 0 : mpz_odd_p(q)));
    if (up) {
        mpz_add_ui(q, q, 1);
        mpz_ui_pow_ui(t, 10, (unsigned long)K);
        if (mpz_cmp(q, t) == 0) {
            mpz_ui_pow_ui(q, 10, (unsigned long)(K - 1));
            E++;
        }
    }
    mpz_get_str(d, 10, q);
    mpz_set_si(e, E);
    mpz_clears(a, q, r, t, (mpz_ptr)0);
}

/* ------------------------------------------------------------ correct rounding */

enum { D_P = 1, D_L = 2, D_COUNTED = 4 }; /* per candidate: decided P, log P; counted */

static int set_str(char **slot, char *s)
{
    free(*slot);
    *slot = s;
    return s ? EM_OK : EM_ERR_NOMEM;
}

/* log(|log P|) of the only mode when every other probability is below MPFR's range:
 * y = sum_others P_s, ln y from the others' log P bounds (t + log I) by a log-sum-exp;
 * |log(1 - y)| in [y, y / (1 - y)], so ln|log P| in [ln y, ln y + 2 y]. */
static int lny_bounds(em_pfl *F, mpfr_t lo, mpfr_t hi)
{
    const mpfr_prec_t p = mpfr_get_prec(lo);
    mpfr_t tau, slo, shi, v;
    mpfr_inits2(p, tau, slo, shi, v, (mpfr_ptr)0);
    int have = 0;
    /* tau: the largest upper bound */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            mpfr_set_zero(slo, 1);
            mpfr_set_zero(shi, 1);
        }
        for (size_t i = 0; i < F->n; i++) {
            if (F->cls[i] != CL_OTHER)
                continue;
            other_bounds(F, i);
            other_logs(F);
            if (pass == 0) {
                if (!have || mpfr_cmp(F->lhi, tau) > 0)
                    mpfr_set(tau, F->lhi, MPFR_RNDU);
                have = 1;
            } else {
                mpfr_sub(v, F->llo, tau, MPFR_RNDD);
                mpfr_exp(v, v, MPFR_RNDD);
                mpfr_add(slo, slo, v, MPFR_RNDD);
                mpfr_sub(v, F->lhi, tau, MPFR_RNDU);
                mpfr_exp(v, v, MPFR_RNDU);
                mpfr_add(shi, shi, v, MPFR_RNDU);
            }
        }
    }
    mpfr_log(lo, slo, MPFR_RNDD);
    mpfr_add(lo, lo, tau, MPFR_RNDD);
    mpfr_log(hi, shi, MPFR_RNDU);
    mpfr_add(hi, hi, tau, MPFR_RNDU);
    mpfr_exp(v, hi, MPFR_RNDU);
    mpfr_mul_2ui(v, v, 1, MPFR_RNDU);
    mpfr_add(hi, hi, v, MPFR_RNDU);
    mpfr_clears(tau, slo, shi, v, (mpfr_ptr)0);
    return mpfr_regular_p(slo) ? EM_OK : EM_ERR_UNDECIDED;
}

/* Decide what is left of candidate i from [Plo, Phi] (P) and [llo, lhi] (log P) in F. */
static int decide(em_pfl *F, size_t i, const em_pfl_out *o, unsigned char *done, int dec,
                  int from_log_p, mpfr_srcptr alo, mpfr_srcptr ahi)
{
    int st = EM_OK;
    mpz_ptr e = F->e1;
    if (!(done[i] & D_P)) {
        if (from_log_p) {
            /* P below MPFR's range: decimal from log P, the double 0 */
            if (!dec || dec_from_log(F, alo, ahi, e)) {
                if (dec && o->dec)
                    st = set_str(&o->dec[i], em_format_decimal(0, F->dg, e));
                if (o->pd)
                    o->pd[i] = 0.0;
                if (o->flags)
                    o->flags[i] |= EM_OF_FROM_LOG;
                done[i] |= D_P;
            }
        } else {
            double d1 = mpfr_get_d(F->Plo, MPFR_RNDN), d2 = mpfr_get_d(F->Phi, MPFR_RNDN);
            if (d1 == d2 && (!dec || dec_pair(F, F->Plo, F->Phi, e))) {
                if (dec && o->dec)
                    st = set_str(&o->dec[i], em_format_decimal(0, F->dg, e));
                if (o->pd)
                    o->pd[i] = d1;
                done[i] |= D_P;
            }
        }
    }
    if (st == EM_OK && !(done[i] & D_L) && (o->log || o->ld)) {
        double d1 = mpfr_get_d(F->llo, MPFR_RNDN), d2 = mpfr_get_d(F->lhi, MPFR_RNDN);
        if (mpfr_sgn(F->lhi) < 0 && d1 == d2 && (!dec || !o->log || dec_pair(F, F->llo, F->lhi, e))) {
            if (dec && o->log)
                st = set_str(&o->log[i], em_format_decimal(1, F->dg, e));
            if (o->ld)
                o->ld[i] = d1;
            done[i] |= D_L;
        }
    } else if (!(o->log || o->ld)) {
        done[i] |= D_L;
    }
    return st;
}

/* The K-digit decimal of P_lo (non-zero) into F->dg / F->e1 */
static void dec_one(em_pfl *F, mpfr_srcptr x)
{
    long x1;
    if (em_dec10_round(&F->d10, x, F->q1, &x1)) {
        em_dec10_digits(&F->d10, F->q1, F->dg);
        mpz_set_si(F->e1, x1);
    } else {
        mpfr_exp_t y1;
        mpfr_get_str(F->dg, &y1, 10, (size_t)F->K, x, MPFR_RNDN);
        mpz_set_si(F->e1, (long)y1);
    }
}

/* The modes, from y = sum of the others' P in [ylo, yhi]: P = (1 - y) / mm < 1/mm, so the
 * upper end rounds as 1/mm approached from below. */
static int decide_modes(em_pfl *F, const em_pfl_out *o, unsigned char *done, int dec,
                        mpfr_srcptr ylo, mpfr_srcptr yhi)
{
    const int want_log = o->log || o->ld;
    int st = EM_OK, llog = 0;
    mpfr_t a, b;
    mpfr_inits2(cand_prec(&F->lv, F->tbits), a, b, (mpfr_ptr)0);
    if (F->mm == 1 && mpfr_zero_p(ylo) && want_log) {
        /* every other P below MPFR's range: ln|log P| from the others' logarithms (this
         * pass uses the candidate scratch, so it comes first) */
        st = lny_bounds(F, a, b);
        if (st == EM_OK)
            llog = 1;
        else if (st == EM_ERR_UNDECIDED)
            st = EM_OK;
    }
    mode_bounds(F, ylo, yhi);
    /* log P: the log of the bounds, and for one mode log1p(-y) (tight near P = 1) */
    mpfr_log(F->llo, F->Plo, MPFR_RNDD);
    mpfr_log(F->lhi, F->Phi, MPFR_RNDU);
    if (F->mm == 1 && !mpfr_zero_p(ylo)) {
        mpfr_neg(F->x, yhi, MPFR_RNDU);
        mpfr_log1p(F->x, F->x, MPFR_RNDD);
        if (mpfr_cmp(F->x, F->llo) > 0)
            mpfr_set(F->llo, F->x, MPFR_RNDD);
        mpfr_neg(F->x, ylo, MPFR_RNDD);
        mpfr_log1p(F->x, F->x, MPFR_RNDU);
        if (mpfr_cmp(F->x, F->lhi) < 0)
            mpfr_set(F->lhi, F->x, MPFR_RNDU);
    }
    /* P's upper end: 1/mm from below when the bound reaches 1/mm */
    mpfr_mul_ui(F->x, F->Phi, (unsigned long)F->mm, MPFR_RNDD);
    const int at_top = mpfr_cmp_ui(F->x, 1) >= 0;
    int pok = 0, lok = 0;
    double pd = 0, ld = 0;
    char *ps = NULL, *ls = NULL;
    if (!mpfr_zero_p(F->Plo)) {
        double d1 = mpfr_get_d(F->Plo, MPFR_RNDN), d2;
        if (at_top) {
            mpfr_set_ui(F->y, 1, MPFR_RNDN);
            mpfr_div_ui(F->y, F->y, (unsigned long)F->mm, MPFR_RNDN);
            d2 = mpfr_get_d(F->y, MPFR_RNDN); /* 1/mm is never a midpoint of doubles */
            pok = d1 == d2;
            if (pok && dec) {
                dec_recip((unsigned long)F->mm, F->K, -1, F->s2, F->e2);
                dec_one(F, F->Plo);
                pok = mpz_cmp(F->e1, F->e2) == 0 && strcmp(F->dg, F->s2) == 0;
            }
        } else {
            d2 = mpfr_get_d(F->Phi, MPFR_RNDN);
            pok = d1 == d2 && (!dec || dec_pair(F, F->Plo, F->Phi, F->e1));
        }
        pd = d1;
        if (pok && dec && o->dec && !(ps = em_format_decimal(0, F->dg, F->e1)))
            st = EM_ERR_NOMEM;
    }
    if (st == EM_OK && want_log) {
        if (llog) {
            if (!dec || !o->log || dec_from_log(F, a, b, F->e1)) {
                lok = 2;
                ld = -0.0;
            }
        } else {
            double d1 = mpfr_get_d(F->llo, MPFR_RNDN), d2 = mpfr_get_d(F->lhi, MPFR_RNDN);
            if (mpfr_sgn(F->lhi) < 0 && d1 == d2 &&
                (!dec || !o->log || dec_pair(F, F->llo, F->lhi, F->e1))) {
                lok = 1;
                ld = d1;
            }
        }
        if (lok && dec && o->log && !(ls = em_format_decimal(1, F->dg, F->e1)))
            st = EM_ERR_NOMEM;
    }
    for (size_t i = 0; i < F->n && st == EM_OK; i++) {
        if (F->cls[i] != CL_MODE)
            continue;
        if (pok && !(done[i] & D_P)) {
            if (ps && (o->dec[i] = strdup(ps)) == NULL)
                st = EM_ERR_NOMEM;
            if (o->pd)
                o->pd[i] = pd;
            done[i] |= D_P;
        }
        if (!want_log) {
            done[i] |= D_L;
        } else if (lok && !(done[i] & D_L)) {
            if (ls && (o->log[i] = strdup(ls)) == NULL)
                st = EM_ERR_NOMEM;
            if (o->ld)
                o->ld[i] = ld;
            if (o->flags && lok == 2)
                o->flags[i] |= EM_OF_LOG_FROM_LOG;
            done[i] |= D_L;
        }
    }
    free(ps);
    free(ls);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return st;
}

/* Every candidate tied (no others): P = 1/mm exactly, log P = -ln mm by Ziv. */
static int round_tied(em_pfl *F, int dec, const em_pfl_out *o)
{
    if (dec)
        dec_recip((unsigned long)F->mm, F->K, 0, F->s2, F->e2);
    mpfr_set_prec(F->y, 53);
    mpfr_set_ui(F->y, 1, MPFR_RNDN);
    mpfr_div_ui(F->y, F->y, (unsigned long)F->mm, MPFR_RNDN);
    const double pd = mpfr_get_d(F->y, MPFR_RNDN);
    char *ps = NULL, *ls = NULL;
    double ld = F->mm == 1 ? 0.0 : NAN;
    int ldone = !(o->log || o->ld) || F->mm == 1;
    for (mpfr_prec_t p = 64 + 4 * (mpfr_prec_t)F->K; !ldone && p <= MAX_PREC; p *= 2) {
        mpfr_set_prec(F->llo, p);
        mpfr_set_prec(F->lhi, p);
        mpfr_log_ui(F->llo, (unsigned long)F->mm, MPFR_RNDU);
        mpfr_neg(F->llo, F->llo, MPFR_RNDD);
        mpfr_log_ui(F->lhi, (unsigned long)F->mm, MPFR_RNDD);
        mpfr_neg(F->lhi, F->lhi, MPFR_RNDU);
        double d1 = mpfr_get_d(F->llo, MPFR_RNDN), d2 = mpfr_get_d(F->lhi, MPFR_RNDN);
        if (d1 == d2 && (!dec || !o->log || dec_pair(F, F->llo, F->lhi, F->e1))) {
            ld = d1;
            if (dec && o->log && !(ls = em_format_decimal(1, F->dg, F->e1)))
                return EM_ERR_NOMEM;
            ldone = 1;
        }
    }
    int st = EM_OK;
    if (dec && F->mm > 1 && !(ps = em_format_decimal(0, F->s2, F->e2)))
        st = EM_ERR_NOMEM;
    for (size_t i = 0; i < F->n && st == EM_OK; i++) {
        const int x = F->cls[i] == CL_EXCLUDED;
        const char *p = x ? "0" : F->mm == 1 ? "1" : ps, *l = x ? "-inf" : F->mm == 1 ? "0" : ls;
        if (dec && o->dec && (o->dec[i] = strdup(p)) == NULL)
            st = EM_ERR_NOMEM;
        if (dec && o->log && l && (o->log[i] = strdup(l)) == NULL)
            st = EM_ERR_NOMEM;
        if (o->pd)
            o->pd[i] = x ? 0.0 : pd;
        if (o->ld)
            o->ld[i] = x ? -INFINITY : ld;
    }
    free(ps);
    free(ls);
    return st;
}

int em_pfl_round(em_pfl *F, int digits, em_pfl_out *o)
{
    if (!F || !o)
        return EM_ERR_NULL;
    if (digits < 0 || digits > EM_ORACLE_MAX_DIGITS)
        return EM_ERR_DOMAIN;
    em_mpfr_widest_range();
    const size_t n = F->n;
    const int dec = digits > 0;
    if (dec && F->K != digits) {
        if (F->have_d10)
            em_dec10_clear(&F->d10);
        F->have_d10 = 0;
        free(F->s1);
        free(F->s2);
        free(F->dg);
        F->s1 = malloc((size_t)digits + 8);
        F->s2 = malloc((size_t)digits + 8);
        F->dg = malloc((size_t)digits + 8);
        if (!F->s1 || !F->s2 || !F->dg || em_dec10_init(&F->d10, digits) != 0)
            return EM_ERR_NOMEM;
        F->have_d10 = 1;
        F->K = digits;
    }
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
    if (F->nother == 0)
        return round_tied(F, dec, o);
    unsigned char *done = calloc(n, 1);
    if (!done)
        return EM_ERR_NOMEM;
    int st = EM_OK;
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        if (F->cls[i] == CL_EXCLUDED || F->m == 1) {
            int x = F->cls[i] == CL_EXCLUDED;
            if (dec && o->dec && (o->dec[i] = strdup(x ? "0" : "1")) == NULL)
                st = EM_ERR_NOMEM;
            if (dec && o->log && (o->log[i] = strdup(x ? "-inf" : "0")) == NULL)
                st = EM_ERR_NOMEM;
            if (o->pd)
                o->pd[i] = x ? 0.0 : 1.0;
            if (o->ld)
                o->ld[i] = x ? -INFINITY : 0.0;
            done[i] = D_P | D_L;
        } else {
            left++;
        }
    }
    long B = (long)ceil(3.33 * (dec ? digits : 17)) + 24;
    mpfr_t ylo, yhi;
    mpfr_inits2(64, ylo, yhi, (mpfr_ptr)0);
    while (st == EM_OK && left > 0) {
        if (B + F->nbits + 40 > MAX_PREC) {
            /* a probability not decided: an error; undecided logs stay NULL */
            for (size_t i = 0; i < n; i++)
                if (!(done[i] & D_P))
                    st = EM_ERR_UNDECIDED;
            break;
        }
        st = level_for(F, B);
        if (st != EM_OK)
            break;
        const level *L = &F->lv;
        mpfr_set_prec(ylo, L->w);
        mpfr_set_prec(yhi, L->w);
        mpfr_set_zero(ylo, 1);
        mpfr_set_zero(yhi, 1);
        int modes_left = 0;
        for (size_t i = 0; i < n; i++)
            if (F->cls[i] == CL_MODE && (done[i] & (D_P | D_L)) != (D_P | D_L))
                modes_left = 1;
        for (size_t i = 0; i < n && st == EM_OK; i++) {
            if (F->cls[i] != CL_OTHER || ((done[i] & (D_P | D_L)) == (D_P | D_L) && !modes_left))
                continue;
            other_bounds(F, i);
            mpfr_add(ylo, ylo, F->Plo, MPFR_RNDD);
            mpfr_add(yhi, yhi, F->Phi, MPFR_RNDU);
            if ((done[i] & (D_P | D_L)) == (D_P | D_L))
                continue;
            other_logs(F);
            int below = mpfr_zero_p(F->Plo);
            st = decide(F, i, o, done, dec, below, F->llo, F->lhi);
            if ((done[i] & (D_P | D_L)) == (D_P | D_L))
                left--;
        }
        if (st == EM_OK && modes_left) {
            st = decide_modes(F, o, done, dec, ylo, yhi);
            for (size_t i = 0; i < n; i++)
                if (F->cls[i] == CL_MODE && (done[i] & (D_P | D_L)) == (D_P | D_L) &&
                    !(done[i] & D_COUNTED)) {
                    done[i] |= D_COUNTED;
                    left--;
                }
        }
        B *= 2;
    }
    mpfr_clears(ylo, yhi, (mpfr_ptr)0);
    free(done);
    return st;
}
