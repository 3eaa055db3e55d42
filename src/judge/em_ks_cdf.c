/* em_ks_cdf.c: a fast enclosure of a continuous law's CDF at doubles (see em_ks_cdf.h).
 *
 * Error bounds (u = 2^-53, rounding to nearest; exp faithful: 2u relative).  Inside piece j,
 * lo finite, the exact F(x) = F(lo) + e^{lf} (e^{k (x - lo)} - 1) / k, lf the log-density at
 * lo, k = c b.  The argument lf + k (x - lo) is computed from lfa = lf (1 rounding), k (1),
 * lo_n = lo rounded, x - lo_n (its error dd = |lo_n - lo|, computed exactly, plus u |x -
 * lo_n| unless the subtraction is exact by Sterbenz's lemma), the product and the sum (1
 * each): its error is at most u (2 |lfa| + 3 |t|) + |k| dd (1 + u) <= eta = 2^-50 (|lfa| +
 * |t| + 1) + 2 |k| dd, so exp of it is within a relative 2 eta + 2^-51 of the exact
 * e^{lf + k (x - lo)} (eta <= 1/2); e^{lf} is MPFR's, rounded once; the difference, the
 * division by k (rounded) and the sum with F(lo) add at most 2^-49 |M| and 2^-52 F.  For
 * |k| len < 2^-10 (and k = 0) M = e^{lf} d phi(t), phi(t) = (e^t - 1) / t = 1 + t/2 + t^2/6
 * + t^3/24 + t^4/120 + ..., the rest below |t|^5 / 700 < 2^-50: no cancellation, the only
 * amplified error is that of d = x - lo_n (dd absolute).  On a first piece from
 * -inf (k > 0), F(x) = e^{lf(hi) + k (x - hi)} / k, relative error 2 eta + 2^-49.  F at the
 * ends comes from em_cont_cdf_bounds at 64 bits: the midpoint, within half the width plus
 * one rounding.  Every bound is doubled or more over the sum of its terms. */
#include "judge/em_ks_cdf.h"

#include <math.h>
#include <stdlib.h>

#include "base/em_mem.h"
#include "num/em_rational.h"

#define END_PREC 64
#define LOG_PREC 128
#define TAYLOR_MAX 0x1p-10

typedef struct kpiece {
    double lo_dn, lo_up, hi_dn, hi_up; /* the ends rounded down and up (+-inf if infinite) */
    double lo_n, hi_n;                 /* rounded to nearest */
    double elo, ehi;                   /* |lo - lo_n|, |hi - hi_n| rounded up */
    int lo_inf;
    int taylor;                        /* |k| len < 2^-10 (or k = 0) */
    double F0, F1, eF0, eF1;           /* F at the ends and their error bounds */
    double k, lfa, Ea;                 /* slope, log-density at the anchor (lo, or hi when lo
                                          is -inf), e^lfa */
} kpiece;

struct em_ks_cdf {
    size_t n;
    kpiece *p;
};

void em_ks_cdf_free(em_ks_cdf *K)
{
    if (K)
        EM_FREE_ALL(K->p, K);
}

/* F(q) as a double and a bound on its error */
static int end_cdf(em_cont *C, const mpq_t q, mpfr_t lo, mpfr_t hi, mpfr_t s, double *F,
                   double *e)
{
    int st = em_cont_cdf_bounds(C, q, END_PREC, lo, hi);
    if (st != EM_OK)
        return st;
    mpfr_prec_t p = mpfr_get_prec(lo) > mpfr_get_prec(hi) ? mpfr_get_prec(lo) : mpfr_get_prec(hi);
    mpfr_set_prec(s, p + 2);
    mpfr_add(s, lo, hi, MPFR_RNDN); /* exact at p + 2 bits */
    mpfr_div_2ui(s, s, 1, MPFR_RNDN);
    *F = mpfr_get_d(s, MPFR_RNDN);
    mpfr_sub(s, hi, lo, MPFR_RNDU);
    *e = mpfr_get_d(s, MPFR_RNDU) + 0x1p-52;
    return EM_OK;
}

/* |q - d| rounded up (t: scratch) */
static double end_err(const mpq_t q, double d, mpq_t t)
{
    if (!isfinite(d))
        return INFINITY; /* an end beyond the doubles: no fast value near it */
    mpq_set_d(t, d);
    mpq_sub(t, t, q);
    mpq_abs(t, t);
    return em_q_to_d_dir(t, 1);
}

/* the error of x - e as a difference from the exact end (e = the end rounded, within ee):
 * ee, plus one rounding unless the subtraction is exact (Sterbenz: e/2 <= x <= 2e) */
static double diff_err(double x, double e, double ee)
{
    int exact = e == 0 || (e > 0 ? x >= e / 2 && x <= 2 * e : x <= e / 2 && x >= 2 * e);
    return ee + (exact ? 0 : 0x1p-53 * fabs(x - e));
}

int em_ks_cdf_new(em_cont *C, em_ks_cdf **out)
{
    *out = NULL;
    if (em_cont_kind(C) != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    const size_t np = em_cont_size(C);
    em_ks_cdf *K = calloc(1, sizeof *K);
    if (!K || !(K->p = calloc(np ? np : 1, sizeof *K->p))) {
        em_ks_cdf_free(K);
        return EM_ERR_NOMEM;
    }
    mpq_t lo, hi, a, b, c, t;
    mpq_inits(lo, hi, a, b, c, t, (mpq_ptr)0);
    mpfr_t zl, zh, u, v, s;
    mpfr_inits2(LOG_PREC, zl, zh, u, v, s, (mpfr_ptr)0);
    em_cont_coef(C, c);
    int st = em_cont_logz_bounds(C, LOG_PREC, zl, zh);
    if (st == EM_OK) {
        mpfr_set_prec(u, mpfr_get_prec(zl) + 2);
        mpfr_add(u, zl, zh, MPFR_RNDN);
        mpfr_div_2ui(u, u, 1, MPFR_RNDN); /* log Z, within 2^-LOG_PREC relative */
        mpfr_swap(u, zl);
        mpfr_set_prec(u, LOG_PREC);
    }
    for (size_t j = 0; j < np && st == EM_OK; j++) {
        int li = 0, hinf = 0;
        em_cont_piece(C, j, lo, hi, &li, &hinf, a, b);
        if (!li && !hinf && mpq_cmp(lo, hi) >= 0)
            continue; /* no mass */
        kpiece *P = &K->p[K->n];
        P->lo_inf = li;
        P->lo_dn = li ? -INFINITY : em_q_to_d_dir(lo, -1);
        P->lo_up = li ? -INFINITY : em_q_to_d_dir(lo, 1);
        P->lo_n = li ? -INFINITY : em_q_to_d_dir(lo, 0);
        P->hi_dn = hinf ? INFINITY : em_q_to_d_dir(hi, -1);
        P->hi_up = hinf ? INFINITY : em_q_to_d_dir(hi, 1);
        P->hi_n = hinf ? INFINITY : em_q_to_d_dir(hi, 0);
        P->elo = li ? 0 : end_err(lo, P->lo_n, t);
        P->ehi = hinf ? 0 : end_err(hi, P->hi_n, t);
        P->F0 = 0, P->eF0 = 0, P->F1 = 1, P->eF1 = 0;
        if (!li && (st = end_cdf(C, lo, v, s, zh, &P->F0, &P->eF0)) != EM_OK)
            break;
        if (!hinf && (st = end_cdf(C, hi, v, s, zh, &P->F1, &P->eF1)) != EM_OK)
            break;
        mpfr_set_prec(v, LOG_PREC);
        mpfr_set_prec(s, LOG_PREC);
        mpfr_set_prec(zh, LOG_PREC);
        mpq_mul(t, c, b);
        mpfr_set_q(v, t, MPFR_RNDN);
        P->k = mpfr_get_d(v, MPFR_RNDN);
        /* the log-density at the anchor: c (a + b anchor) - log Z */
        mpq_mul(t, b, li ? hi : lo);
        mpq_add(t, t, a);
        mpq_mul(t, t, c);
        mpfr_set_q(v, t, MPFR_RNDN);
        mpfr_sub(v, v, zl, MPFR_RNDN);
        P->lfa = mpfr_get_d(v, MPFR_RNDN);
        mpfr_exp(v, v, MPFR_RNDN);
        P->Ea = mpfr_get_d(v, MPFR_RNDN);
        const double len = P->hi_n - P->lo_n;
        P->taylor = !li && (mpq_sgn(b) == 0 || (isfinite(len) && fabs(P->k) * len < TAYLOR_MAX));
        K->n++;
    }
    mpfr_clears(zl, zh, u, v, s, (mpfr_ptr)0);
    mpq_clears(lo, hi, a, b, c, t, (mpq_ptr)0);
    if (st != EM_OK) {
        em_ks_cdf_free(K);
        return st;
    }
    *out = K;
    return EM_OK;
}

int em_ks_cdf_eval(const em_ks_cdf *K, double x, double *F, double *err)
{
    if (!isfinite(x))
        return 0;
    size_t lo = 0, hi = K->n; /* the pieces with lo_dn <= x: [0, lo) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (K->p[mid].lo_dn <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) { /* left of R */
        *F = 0, *err = 0;
        return 1;
    }
    const kpiece *P = &K->p[lo - 1];
    if (x <= P->lo_up || (x >= P->hi_dn && x <= P->hi_up))
        return 0; /* at an end: which side is for the exact path */
    if (x > P->hi_up) { /* past the piece: in the gap after it, or right of R */
        *F = P->F1, *err = P->eF1;
        return 1;
    }
    double f, e;
    if (P->lo_inf) {
        const double t = P->k * (x - P->hi_n);
        const double eta = 0x1p-50 * (fabs(P->lfa) + fabs(t) + 1) +
                           2 * fabs(P->k) * diff_err(x, P->hi_n, P->ehi);
        f = exp(P->lfa + t) / P->k;
        e = f * (2 * eta + 0x1p-49);
        if (!(eta <= 0.5))
            return 0;
    } else if (P->taylor) {
        const double d = x - P->lo_n, t = P->k * d;
        const double phi = 1 + t * (0.5 + t * (1.0 / 6 + t * (1.0 / 24 + t * (1.0 / 120))));
        f = P->F0 + P->Ea * d * phi;
        e = P->eF0 + P->Ea * 1.01 * (2 * diff_err(x, P->lo_n, P->elo) + fabs(d) * 0x1p-48) +
            f * 0x1p-52;
    } else {
        const double t = P->k * (x - P->lo_n);
        const double eta = 0x1p-50 * (fabs(P->lfa) + fabs(t) + 1) +
                           2 * fabs(P->k) * diff_err(x, P->lo_n, P->elo);
        const double E1 = exp(P->lfa + t), M = (E1 - P->Ea) / P->k;
        f = P->F0 + M;
        e = P->eF0 + (E1 * (2 * eta + 0x1p-50) + P->Ea * 0x1p-50) / fabs(P->k) + fabs(M) * 0x1p-49 +
            fabs(f) * 0x1p-52;
        if (!(eta <= 0.5))
            return 0;
    }
    if (!isfinite(f) || !(e <= EM_KS_CDF_MAX_ERR))
        return 0;
    *F = f, *err = e;
    return 1;
}
