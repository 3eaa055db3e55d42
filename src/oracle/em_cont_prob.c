/* em_cont_prob.c: probabilities, CDF, density and their logarithms, correctly rounded
 * (em_round over the levels' bounds and exact comparisons of exponential polynomials). */
#include "core/em_params.h"
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
#include "num/em_fromlog.h"
#include "oracle/em_problem.h"

enum { V_PROB, V_LOGPROB, V_CDF, V_DENS, V_LOGDENS };

struct vctx {
    em_cont *C;
    int kind;
    size_t j;
    const mpq_t *x;       /* the point (CDF, density) */
    mpq_t te;             /* density: exponent c u(x) - T */
};

static int level_for(em_cont *C, mpfr_prec_t prec, struct level **L)
{
    int l = 0;
    while (l + 1 < NLEV && (C->p0 << l) < prec)
        l++;
    return em_cont_level(C, l, L);
}

/* log f(x) = te - log Z without cancellation: with j the piece of largest mass,
 * log Z = log M_j + log1p(R / M_j) (R the other masses summed directly) and
 * log M_j = base + rel, base an exact rational exponent of the piece (its largest finite
 * end's c u - T, or c a - T) and rel = log(g / |k|), log(length) or log(m): so
 * te - base is exact, and a density within exp(-3e6) of 1 (log f = -1e-1447742) is as
 * easy as any other. */
static void logdens_b(const em_cont *C, const struct level *L, const mpq_t te, mpfr_t lo, mpfr_t hi)
{
    const size_t n = C->n;
    const mpfr_prec_t p = L->p;
    size_t jm = 0;
    for (size_t j = 1; j < n; j++)
        if (mpfr_cmp(L->Mlo[j], L->Mlo[jm]) > 0)
            jm = j;
    mpfr_t rlo, rhi, a, b, c1, c2;
    mpfr_inits2(p, rlo, rhi, a, b, c1, c2, (mpfr_ptr)0);
    mpq_t base, d;
    mpq_inits(base, d, (mpq_ptr)0);
    /* rel = log M_jm - base, as [c1, c2] */
    if (C->kind == EM_CONT_ATOMS) {
        mpq_set(base, C->tl[jm]);
        em_q_bounds(a, b, C->len[jm]);
        mpfr_log(c1, a, MPFR_RNDD);
        mpfr_log(c2, b, MPFR_RNDU);
    } else if (mpq_sgn(C->k[jm]) == 0) {
        mpq_set(base, C->tl[jm]);
        em_q_bounds(a, b, C->len[jm]);
        mpfr_log(c1, a, MPFR_RNDD);
        mpfr_log(c2, b, MPFR_RNDU);
    } else {
        /* M = exp(t*) g / |k|, g = -expm1(-|th - tl|) (1 with an infinite end) */
        int kpos = mpq_sgn(C->k[jm]) > 0;
        int inf_end = kpos ? !finite_lo(C, jm) : !finite_hi(C, jm);
        mpq_set(base, kpos ? C->th[jm] : C->tl[jm]);
        if (inf_end) {
            mpfr_set_ui(c1, 0, MPFR_RNDN);
            mpfr_set_ui(c2, 0, MPFR_RNDN);
        } else {
            mpq_sub(d, C->th[jm], C->tl[jm]);
            mpq_abs(d, d);
            mpq_neg(d, d);
            em_q_bounds(a, b, d);                     /* -|dt| */
            mpfr_expm1(c1, a, MPFR_RNDU);    /* g_lo = -expm1(a) at the smaller -|dt| */
            mpfr_neg(c1, c1, MPFR_RNDD);
            mpfr_expm1(c2, b, MPFR_RNDD);
            mpfr_neg(c2, c2, MPFR_RNDU);
            mpfr_log(c1, c1, MPFR_RNDD);
            mpfr_log(c2, c2, MPFR_RNDU);
        }
        mpq_abs(d, C->k[jm]);
        em_q_bounds(a, b, d);
        mpfr_log(a, a, MPFR_RNDD);
        mpfr_log(b, b, MPFR_RNDU);
        mpfr_sub(c1, c1, b, MPFR_RNDD);
        mpfr_sub(c2, c2, a, MPFR_RNDU);
    }
    /* R = the other masses */
    mpfr_set_zero(rlo, 1);
    mpfr_set_zero(rhi, 1);
    for (size_t i = 0; i < n; i++)
        if (i != jm) {
            mpfr_add(rlo, rlo, L->Mlo[i], MPFR_RNDD);
            mpfr_add(rhi, rhi, L->Mhi[i], MPFR_RNDU);
        }
    /* log1p(R / M) in [log1p(rlo / Mhi), log1p(rhi / Mlo)] */
    mpfr_div(a, rlo, L->Mhi[jm], MPFR_RNDD);
    mpfr_log1p(a, a, MPFR_RNDD);
    mpfr_div(b, rhi, L->Mlo[jm], MPFR_RNDU);
    mpfr_log1p(b, b, MPFR_RNDU);
    /* log f = (te - base) - rel - log1p(R/M) */
    mpq_sub(d, te, base);
    mpfr_t e1, e2;
    mpfr_inits2(p, e1, e2, (mpfr_ptr)0);
    em_q_bounds(e1, e2, d);
    mpfr_sub(lo, e1, c2, MPFR_RNDD);
    mpfr_sub(lo, lo, b, MPFR_RNDD);
    mpfr_sub(hi, e2, c1, MPFR_RNDU);
    mpfr_sub(hi, hi, a, MPFR_RNDU);
    mpfr_clears(rlo, rhi, a, b, c1, c2, e1, e2, (mpfr_ptr)0);
    mpq_clears(base, d, (mpq_ptr)0);
}

static int v_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    struct vctx *V = ctx;
    em_cont *C = V->C;
    struct level *L;
    int st = level_for(C, prec, &L);
    if (st != EM_OK)
        return st;
    mpfr_prec_t p = L->p;
    mpfr_set_prec(lo, p);
    mpfr_set_prec(hi, p);
    const size_t n = C->n;
    mpfr_t a, b, s1, s2;
    mpfr_inits2(p, a, b, s1, s2, (mpfr_ptr)0);
    switch (V->kind) {
    case V_PROB:
        mpfr_div(lo, L->Mlo[V->j], L->Chi[n], MPFR_RNDD);
        mpfr_div(hi, L->Mhi[V->j], L->Clo[n], MPFR_RNDU);
        break;
    case V_LOGPROB:
        mpfr_mul_2ui(a, L->Mlo[V->j], 1, MPFR_RNDD);
        if (mpfr_cmp(a, L->Chi[n]) > 0) {
            /* P > 1/2: log P = log1p(-R / Z) with R = the other masses summed directly
             * (no cancellation: log P may be -1e-213614, far below the precision of Z) */
            mpfr_t rlo, rhi;
            mpfr_inits2(p, rlo, rhi, (mpfr_ptr)0);
            mpfr_set_zero(rlo, 1);
            mpfr_set_zero(rhi, 1);
            for (size_t i = 0; i < n; i++)
                if (i != V->j) {
                    mpfr_add(rlo, rlo, L->Mlo[i], MPFR_RNDD);
                    mpfr_add(rhi, rhi, L->Mhi[i], MPFR_RNDU);
                }
            /* q = R / Z in [rlo / Zhi, rhi / Zlo]; log P in [log1p(-qhi), log1p(-qlo)] */
            mpfr_div(a, rhi, L->Clo[n], MPFR_RNDU);
            if (mpfr_cmp_ui(a, 1) >= 0)
                mpfr_set_inf(lo, -1);
            else {
                mpfr_neg(a, a, MPFR_RNDD);
                mpfr_log1p(lo, a, MPFR_RNDD);
            }
            mpfr_div(b, rlo, L->Chi[n], MPFR_RNDD);
            mpfr_neg(b, b, MPFR_RNDU);
            mpfr_log1p(hi, b, MPFR_RNDU);
            mpfr_clears(rlo, rhi, (mpfr_ptr)0);
            break;
        }
        mpfr_log(a, L->Mlo[V->j], MPFR_RNDD);
        mpfr_log(b, L->Chi[n], MPFR_RNDU);
        mpfr_sub(lo, a, b, MPFR_RNDD);
        mpfr_log(a, L->Mhi[V->j], MPFR_RNDU);
        mpfr_log(b, L->Clo[n], MPFR_RNDD);
        mpfr_sub(hi, a, b, MPFR_RNDU);
        break;
    case V_CDF:
        em_cont_n_bounds(C, L, *V->x, a, b);
        mpfr_div(lo, a, L->Chi[n], MPFR_RNDD);
        mpfr_div(hi, b, L->Clo[n], MPFR_RNDU);
        if (mpfr_cmp_ui(hi, 1) > 0)
            mpfr_set_ui(hi, 1, MPFR_RNDU);
        break;
    case V_DENS:
        em_exp_q_bounds(a, b, V->te, s1, s2);
        mpfr_div(lo, a, L->Chi[n], MPFR_RNDD);
        mpfr_div(hi, b, L->Clo[n], MPFR_RNDU);
        break;
    case V_LOGDENS:
        logdens_b(C, L, V->te, lo, hi);
        break;
    }
    mpfr_clears(a, b, s1, s2, (mpfr_ptr)0);
    return EM_OK;
}

static int v_cmp(void *ctx, const mpq_t B, int *sign)
{
    struct vctx *V = ctx;
    em_cont *C = V->C;
    em_expoly P;
    em_expoly_init(&P);
    mpq_t one, mB, zero;
    mpq_inits(one, mB, zero, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpq_neg(mB, B);
    int st = EM_OK;
    switch (V->kind) {
    case V_PROB: /* M_j - B Z */
        st = em_cont_append_seg(C, &P, V->j, NULL, one, zero);
        if (st == EM_OK)
            st = em_cont_append_z_shifted(C, &P, mB, zero);
        break;
    case V_LOGPROB: /* M_j - e^B Z */
        st = em_cont_append_seg(C, &P, V->j, NULL, one, zero);
        mpq_neg(one, one);
        if (st == EM_OK)
            st = em_cont_append_z_shifted(C, &P, one, B);
        break;
    case V_CDF: /* N(x) - B Z */
        st = em_cont_append_n(C, &P, *V->x, one, zero);
        if (st == EM_OK)
            st = em_cont_append_z_shifted(C, &P, mB, zero);
        break;
    case V_DENS: /* e^te - B Z */
        st = em_expoly_add(&P, one, V->te);
        if (st == EM_OK)
            st = em_cont_append_z_shifted(C, &P, mB, zero);
        break;
    case V_LOGDENS: /* e^te - e^B Z */
        st = em_expoly_add(&P, one, V->te);
        mpq_neg(one, one);
        if (st == EM_OK)
            st = em_cont_append_z_shifted(C, &P, one, B);
        break;
    }
    if (st == EM_OK)
        st = em_expoly_sign(&P, sign);
    mpq_clears(one, mB, zero, (mpq_ptr)0);
    em_expoly_clear(&P);
    return st;
}

static int round_value(em_cont *C, struct vctx *V, em_cval *out)
{
    em_rval rv = {v_bounds, v_cmp, V};
    return em_round(&rv, C->K, C->p0, out);
}

/* ln F(x) for x in the first piece when it starts at -inf: F = e^te / (k Z), so ln F =
 * ln(density) - ln k, an ordinary number when F lies below MPFR's exponent range */
static int logcdf_tail_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    struct vctx *V = ctx;
    int st = v_bounds(ctx, prec, lo, hi); /* V_LOGDENS */
    if (st != EM_OK)
        return st;
    mpfr_t a, b;
    mpfr_inits2(mpfr_get_prec(lo) + 16, a, b, (mpfr_ptr)0);
    em_q_bounds(a, b, V->C->k[V->j]);
    mpfr_log(a, a, MPFR_RNDD);
    mpfr_log(b, b, MPFR_RNDU);
    mpfr_sub(lo, lo, b, MPFR_RNDD);
    mpfr_sub(hi, hi, a, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return EM_OK;
}

/* the bits ln of a value needs in its integer part: |te| + 64 */
static mpfr_prec_t te_bits(const mpq_t te)
{
    return (mpfr_prec_t)(mpz_sizeinbase(mpq_numref(te), 2) > mpz_sizeinbase(mpq_denref(te), 2)
                             ? mpz_sizeinbase(mpq_numref(te), 2) - mpz_sizeinbase(mpq_denref(te), 2)
                             : 0) + 64;
}

static int cont_prob(em_cont *C, size_t j, em_cval *p, em_cval *logp)
{
    if (!C || !p || !logp)
        return EM_ERR_NULL;
    if (j >= C->n)
        return EM_ERR_DOMAIN;
    if (C->zero[j]) {
        int st = em_cval_exact(p, "0", 0.0);
        return st == EM_OK ? em_cval_exact(logp, "-inf", -INFINITY) : st;
    }
    if (C->npos == 1) {
        int st = em_cval_exact(p, "1", 1.0);
        return st == EM_OK ? em_cval_exact(logp, "0", 0.0) : st;
    }
    struct vctx V = {.C = C, .kind = V_PROB, .j = j, .x = NULL};
    int st = round_value(C, &V, p);
    if (st == EM_ERR_UNDECIDED) /* below MPFR's range: from its logarithm */
        st = em_cont_deep_prob(C, j, p);
    if (st == EM_OK) /* below 1: another piece has mass */
        st = em_cval_below_one(p, C->K);
    if (st == EM_OK) {
        V.kind = V_LOGPROB;
        st = round_value(C, &V, logp);
        if (st == EM_ERR_UNDECIDED)
            st = em_cont_deep_logprob(C, j, logp);
    }
    return st;
}

int em_cont_prob(em_cont *C, size_t j, em_cval *p, em_cval *logp)
{
    EM_WIDEST(cont_prob(C, j, p, logp));
}

static int cont_cdf(em_cont *C, const mpq_t x, em_cval *out)
{
    if (!C || !x || !out)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    int where, partial;
    size_t j = 0, ci;
    em_cont_locate(C, x, &where, &j, &partial, &ci);
    if (where < 0 || (where == 0 && ci == 0 && !partial))
        return em_cval_exact(out, "0", 0.0);
    if (where > 0)
        return em_cval_exact(out, "1", 1.0);
    /* every piece after the point has mass 0: F = 1 exactly */
    int rest = 0;
    for (size_t i = partial ? j : ci; i < C->n; i++)
        if (!C->zero[i])
            rest = 1;
    if (!rest)
        return em_cval_exact(out, "1", 1.0);
    int before = partial;
    for (size_t i = 0; i < ci && !before; i++)
        if (!C->zero[i])
            before = 1;
    if (!before)
        return em_cval_exact(out, "0", 0.0);
    struct vctx V = {.C = C, .kind = V_CDF, .j = 0, .x = (const mpq_t *)x};
    int st = round_value(C, &V, out);
    if (st == EM_ERR_UNDECIDED && partial && j == 0 && !finite_lo(C, 0) && mpq_sgn(C->k[0]) > 0) {
        /* far in the left tail: F below MPFR's range, decided from ln F (no bits of F) */
        mpq_init(V.te);
        mpq_mul(V.te, C->k[0], x);
        mpq_add(V.te, V.te, C->ca[0]);
        V.kind = V_LOGDENS;
        st = em_round_from_log(logcdf_tail_bounds, &V, C->K, te_bits(V.te), out);
        mpq_clear(V.te);
    }
    if (st == EM_ERR_UNDECIDED) /* the mass below x lies below MPFR's range */
        st = em_cont_deep_cdf(C, x, out);
    return st;
}

int em_cont_cdf(em_cont *C, const mpq_t x, em_cval *out)
{
    EM_WIDEST(cont_cdf(C, x, out));
}

static int cont_density(em_cont *C, const mpq_t x, em_cval *dens, em_cval *logdens)
{
    if (!C || !x || !dens || !logdens)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    size_t j = em_cont_piece_right(C, x);
    if (j >= C->n) {
        int st = em_cval_exact(dens, "0", 0.0);
        return st == EM_OK ? em_cval_exact(logdens, "-inf", -INFINITY) : st;
    }
    struct vctx V = {.C = C, .kind = V_DENS, .j = j, .x = (const mpq_t *)x};
    mpq_init(V.te);
    mpq_mul(V.te, C->k[j], x);
    mpq_add(V.te, V.te, C->ca[j]);
    int st = round_value(C, &V, dens);
    if (st == EM_ERR_UNDECIDED) {
        /* a density below MPFR's range: from its log, which is an ordinary number */
        V.kind = V_LOGDENS;
        st = em_round_from_log(v_bounds, &V, C->K, te_bits(V.te), dens);
        V.kind = V_DENS;
    }
    if (st == EM_OK) {
        V.kind = V_LOGDENS;
        st = round_value(C, &V, logdens);
        if (st == EM_ERR_UNDECIDED) /* log f within the range's bottom of 0 */
            st = em_cont_deep_logdens(C, j, V.te, logdens);
    }
    mpq_clear(V.te);
    return st;
}

int em_cont_density(em_cont *C, const mpq_t x, em_cval *dens, em_cval *logdens)
{
    EM_WIDEST(cont_density(C, x, dens, logdens));
}

static int cont_round_q(em_cont *C, const mpq_t q, em_cval *out)
{
    if (!C || !q || !out)
        return EM_ERR_NULL;
    return em_round_q(q, C->K, out);
}

int em_cont_round_q(em_cont *C, const mpq_t q, em_cval *out)
{
    EM_WIDEST(cont_round_q(C, q, out));
}

const char *em_cont_strerror(int st)
{
    if (st == EM_ERR_UNDECIDED)
        return "the correctly rounded value could not be decided within 2^20 bits "
               "(an internal limit; please report the input)";
    return em_strerror(st);
}

/* --------------------------------------------------------------- CDF API */

static int cont_cdf_bounds(em_cont *C, const mpq_t x, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    if (!C || !x)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    struct vctx V = {.C = C, .kind = V_CDF, .j = 0, .x = (const mpq_t *)x};
    int where, partial;
    size_t j, ci;
    em_cont_locate(C, x, &where, &j, &partial, &ci);
    if (where != 0) {
        mpfr_set_prec(lo, prec < 64 ? 64 : prec);
        mpfr_set_prec(hi, prec < 64 ? 64 : prec);
        mpfr_set_ui(lo, where > 0, MPFR_RNDN);
        mpfr_set_ui(hi, where > 0, MPFR_RNDN);
        return EM_OK;
    }
    return v_bounds(&V, prec, lo, hi);
}

int em_cont_cdf_bounds(em_cont *C, const mpq_t x, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    EM_WIDEST(cont_cdf_bounds(C, x, prec, lo, hi));
}

/* sign(F(x) - q) */
static int cont_cdf_cmp(em_cont *C, const mpq_t x, const mpq_t q, int *sign)
{
    if (!C || !x || !q || !sign)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    int where, partial;
    size_t j, ci;
    em_cont_locate(C, x, &where, &j, &partial, &ci);
    if (where != 0) {
        int c = mpq_cmp_ui(q, where > 0, 1);
        *sign = -((c > 0) - (c < 0));
        return EM_OK;
    }
    struct vctx V = {.C = C, .kind = V_CDF, .j = 0, .x = (const mpq_t *)x};
    em_rval rv = {v_bounds, v_cmp, &V};
    return em_round_cmp(&rv, C->p0, q, sign);
}

int em_cont_cdf_cmp(em_cont *C, const mpq_t x, const mpq_t q, int *sign)
{
    EM_WIDEST(cont_cdf_cmp(C, x, q, sign));
}

static int cont_logz_bounds(em_cont *C, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    struct level *L;
    int st = level_for(C, prec, &L);
    if (st != EM_OK)
        return st;
    mpfr_set_prec(lo, L->p);
    mpfr_set_prec(hi, L->p);
    mpfr_t a, b;
    mpfr_inits2(L->p, a, b, (mpfr_ptr)0);
    em_q_bounds(a, b, C->T);
    mpfr_log(lo, L->Clo[C->n], MPFR_RNDD);
    mpfr_log(hi, L->Chi[C->n], MPFR_RNDU);
    mpfr_add(lo, lo, a, MPFR_RNDD);
    mpfr_add(hi, hi, b, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return EM_OK;
}

int em_cont_logz_bounds(em_cont *C, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    EM_WIDEST(cont_logz_bounds(C, prec, lo, hi));
}

int em_cont_doubles(em_cont *C, double *p)
{
    if (!C || !p)
        return EM_ERR_NULL;
    size_t n = em_cont_size(C);
    em_cval v, lv;
    em_cval_init(&v);
    em_cval_init(&lv);
    int st = EM_OK;
    for (size_t j = 0; j < n && st == EM_OK; j++) {
        st = em_cont_prob(C, j, &v, &lv);
        if (st == EM_OK)
            p[j] = v.d;
        em_cval_clear(&v);
        em_cval_clear(&lv);
        em_cval_init(&v);
        em_cval_init(&lv);
    }
    em_cval_clear(&v);
    em_cval_clear(&lv);
    return st;
}
