/* em_cont_quantile.c: the quantile function, correctly rounded. */
#include "oracle/em_cont_priv.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/em_error.h"
#include "core/em_exact_select.h"
#include "num/em_bounds.h"
#include "num/em_expoly.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

struct qctx {
    em_cont *C;
    const mpq_t *p;
};

/* sign(Q(p) - B) */
static int q_cmp(void *ctx, const mpq_t B, int *sign)
{
    struct qctx *Q = ctx;
    int s;
    int st = em_cont_cdf_cmp(Q->C, B, *Q->p, &s);
    if (st != EM_OK)
        return st;
    if (s < 0)
        *sign = 1;
    else if (s > 0)
        *sign = -1;
    else
        *sign = em_cont_piece_left(Q->C, B) < Q->C->n ? 0 : -1;
    return EM_OK;
}

/* approximate inverse of F inside piece j for the target partial mass v (MPFR, RNDN) */
static void invert_in_piece(const em_cont *C, size_t j, const mpfr_t v, const struct level *L,
                            mpfr_t x)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t t, e, kk;
    mpfr_inits2(p, t, e, kk, (mpfr_ptr)0);
    mpfr_set_q(kk, C->k[j], MPFR_RNDN);
    if (!finite_lo(C, j)) {
        /* exp(c u(x) - T) / k = v: ca + k x = log(v k) */
        mpfr_mul(t, v, kk, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_set_q(e, C->ca[j], MPFR_RNDN);
        mpfr_sub(t, t, e, MPFR_RNDN);
        mpfr_div(x, t, kk, MPFR_RNDN);
    } else {
        mpfr_set(e, L->Elo[j], MPFR_RNDN);
        mpfr_div(t, v, e, MPFR_RNDN);     /* v / exp(tl) */
        if (mpq_sgn(C->k[j]) == 0) {
            mpfr_add_q(x, t, C->lo[j], MPFR_RNDN);
        } else {
            mpfr_mul(t, t, kk, MPFR_RNDN);
            if (mpfr_cmp_si(t, -1) <= 0)
                mpfr_set_si(t, -1, MPFR_RNDN), mpfr_nextabove(t);
            mpfr_log1p(t, t, MPFR_RNDN);
            mpfr_div(t, t, kk, MPFR_RNDN);
            mpfr_add_q(x, t, C->lo[j], MPFR_RNDN);
        }
    }
    /* clamp into the piece */
    if (finite_lo(C, j) && mpfr_cmp_q(x, C->lo[j]) < 0)
        mpfr_set_q(x, C->lo[j], MPFR_RNDN);
    if (finite_hi(C, j) && mpfr_cmp_q(x, C->hi[j]) > 0)
        mpfr_set_q(x, C->hi[j], MPFR_RNDN);
    mpfr_clears(t, e, kk, (mpfr_ptr)0);
}

/* the piece j with F(lo_j) < p <= F(hi_j), p in (0, 1), pieces of positive mass; exact */
static int quantile_piece(em_cont *C, const mpq_t p, size_t *out)
{
    /* binary search on F(hi_j) >= p over positive pieces */
    size_t lo = 0, hi = C->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int s;
        if (!finite_hi(C, mid)) {
            hi = mid;
            continue;
        }
        int st = em_cont_cdf_cmp(C, C->hi[mid], p, &s);
        if (st != EM_OK)
            return st;
        if (s >= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    /* skip back over zero pieces is unnecessary: F(hi_j) >= p > F(hi_{j-1}) = F(lo_j)
     * means piece j has mass */
    *out = lo;
    return EM_OK;
}

static int cont_quantile(em_cont *C, const mpq_t p, em_cval *out)
{
    if (!C || !p || !out)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    if (mpq_sgn(p) < 0 || mpq_cmp_ui(p, 1, 1) > 0)
        return EM_ERR_DOMAIN;
    const size_t n = C->n;
    if (mpq_sgn(p) == 0) {
        /* the left end of R: the first piece with mass */
        size_t j = 0;
        while (C->zero[j])
            j++;
        if (!finite_lo(C, j))
            return em_cval_exact(out, "-inf", -INFINITY);
        return em_round_q(C->lo[j], C->K, out);
    }
    if (mpq_cmp_ui(p, 1, 1) == 0) {
        size_t j = n - 1;
        while (C->zero[j])
            j--;
        if (!finite_hi(C, j))
            return em_cval_exact(out, "inf", INFINITY);
        return em_round_q(C->hi[j], C->K, out);
    }
    size_t j;
    int st = quantile_piece(C, p, &j);
    if (st != EM_OK)
        return st;
    /* exactly at the piece's right end (F(hi_j) == p): Q = hi_j unless the density is 0
     * just left of it, impossible inside a piece of positive mass */
    if (finite_hi(C, j)) {
        int s;
        if ((st = em_cont_cdf_cmp(C, C->hi[j], p, &s)) != EM_OK)
            return st;
        if (s == 0)
            return em_round_q(C->hi[j], C->K, out);
    }
    struct level *L;
    if ((st = em_cont_level(C, 1, &L)) != EM_OK)
        return st;
    mpfr_prec_t pr = L->p;
    mpfr_t v, x, z;
    mpfr_inits2(pr, v, x, z, (mpfr_ptr)0);
    mpfr_set_q(z, p, MPFR_RNDN);
    mpfr_mul(v, z, L->Clo[n], MPFR_RNDN);
    mpfr_sub(v, v, L->Clo[j], MPFR_RNDN);
    if (mpfr_sgn(v) < 0)
        mpfr_set_zero(v, 1);
    invert_in_piece(C, j, v, L, x);
    struct qctx Q = {C, (const mpq_t *)p};
    if (mpfr_zero_p(x)) {
        mpq_t zq;
        mpq_init(zq);
        int s;
        st = q_cmp(&Q, zq, &s);
        mpq_clear(zq);
        if (st == EM_OK && s == 0) {
            st = em_cval_exact(out, "0", 0.0);
            goto done;
        }
        if (st == EM_OK)
            mpfr_set_si_2exp(x, s, -1074, MPFR_RNDN);
    }
    if (st == EM_OK)
        st = em_round_walk(q_cmp, &Q, x, C->K, out);
done:
    mpfr_clears(v, x, z, (mpfr_ptr)0);
    return st;
}

int em_cont_quantile(em_cont *C, const mpq_t p, em_cval *out)
{
    EM_WIDEST(cont_quantile(C, p, out));
}
