/* em_cont_deep.c: the values of a continuous or weighted law that lie below MPFR's exponent
 * range (a piece whose weight relative to the largest is exp(-5e399)), decided from their
 * logarithms, which are ordinary numbers (em_cont_priv.h, "Beyond the range").
 *
 * Every mass is kept as its logarithm: log M = base + rel with base an exact rational
 * exponent (the larger end's c u - T of the segment) and rel = log(-expm1(-d) / |k|),
 * log(length) or log(m) a small number known by MPFR bounds, so that no exp of a huge
 * negative exponent is ever taken where its value matters: a log-sum of masses is
 * s + log sum exp(L_i - s) with s the largest lower bound, whose terms far below lie in
 * [0, tiny], a valid enclosure. */
#include "oracle/em_cont_priv.h"

#include <stdlib.h>

#include "num/em_bounds.h"
#include "num/em_expoly.h"
#include "num/em_fromlog.h"
#include "num/em_rational.h"
#include "num/em_round.h"

/* A segment [s, e] of piece (or atom) j; s, e NULL: the piece's own ends. */
struct seg {
    size_t j;
    const mpq_t *s, *e;
};

/* bounds of log(-expm1(-d)) for a rational d > 0 (increasing in d) */
static void log_g(mpfr_t r1, mpfr_t r2, const mpq_t d)
{
    mpfr_prec_t p = mpfr_get_prec(r1);
    mpfr_t a, b;
    mpfr_inits2(p, a, b, (mpfr_ptr)0);
    em_q_bounds(a, b, d);
    mpfr_neg(a, a, MPFR_RNDU); /* -dlo, rounded towards 0: >= -d */
    mpfr_neg(b, b, MPFR_RNDD); /* <= -d */
    mpfr_expm1(r1, a, MPFR_RNDU);
    mpfr_neg(r1, r1, MPFR_RNDD);
    mpfr_expm1(r2, b, MPFR_RNDD);
    mpfr_neg(r2, r2, MPFR_RNDU);
    mpfr_log(r1, r1, MPFR_RNDD);
    mpfr_log(r2, r2, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* r1 -= log hi(q), r2 -= log lo(q), q > 0 */
static void sub_log_q(mpfr_t r1, mpfr_t r2, const mpq_t q)
{
    mpfr_t a, b;
    mpfr_inits2(mpfr_get_prec(r1), a, b, (mpfr_ptr)0);
    em_q_bounds(a, b, q);
    mpfr_log(a, a, MPFR_RNDD);
    mpfr_log(b, b, MPFR_RNDU);
    mpfr_sub(r1, r1, b, MPFR_RNDD);
    mpfr_sub(r2, r2, a, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* The base of segment g (exact) and whether it has mass. */
static int seg_base(const em_cont *C, const struct seg *g, mpq_t base)
{
    size_t j = g->j;
    if (C->zero[j])
        return 0;
    if (C->kind == EM_CONT_ATOMS) {
        mpq_set(base, C->tl[j]);
        return 1;
    }
    int sinf = !g->s && !finite_lo(C, j), einf = !g->e && !finite_hi(C, j);
    mpq_t ts, te;
    mpq_inits(ts, te, (mpq_ptr)0);
    if (!sinf) {
        mpq_mul(ts, C->k[j], g->s ? *g->s : C->lo[j]);
        mpq_add(ts, ts, C->ca[j]);
    }
    if (!einf) {
        mpq_mul(te, C->k[j], g->e ? *g->e : C->hi[j]);
        mpq_add(te, te, C->ca[j]);
    }
    int pos = 1;
    if (!sinf && !einf)
        pos = mpq_cmp(g->s ? *g->s : C->lo[j], g->e ? *g->e : C->hi[j]) < 0;
    /* the larger end: e when k > 0 (s may be -inf), s when k < 0 (e may be +inf) */
    mpq_set(base, mpq_sgn(C->k[j]) > 0 ? te : ts);
    mpq_clears(ts, te, (mpq_ptr)0);
    return pos;
}

/* bounds of rel = log M - base of segment g (with mass), at the precision of r1, r2 */
static void seg_rel(const em_cont *C, const struct seg *g, mpfr_t r1, mpfr_t r2)
{
    size_t j = g->j;
    mpq_t d;
    mpq_init(d);
    if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->k[j]) == 0) {
        if (C->kind == EM_CONT_ATOMS)
            mpq_set(d, C->len[j]);
        else
            mpq_sub(d, g->e ? *g->e : C->hi[j], g->s ? *g->s : C->lo[j]);
        mpfr_set_zero(r1, 1);
        mpfr_set_zero(r2, 1);
        mpfr_t a, b;
        mpfr_inits2(mpfr_get_prec(r1), a, b, (mpfr_ptr)0);
        em_q_bounds(a, b, d);
        mpfr_log(r1, a, MPFR_RNDD);
        mpfr_log(r2, b, MPFR_RNDU);
        mpfr_clears(a, b, (mpfr_ptr)0);
        mpq_clear(d);
        return;
    }
    int sinf = !g->s && !finite_lo(C, j), einf = !g->e && !finite_hi(C, j);
    mpq_t ak;
    mpq_init(ak);
    mpq_abs(ak, C->k[j]);
    if (sinf || einf) { /* exp(base) / |k| */
        mpfr_set_zero(r1, 1);
        mpfr_set_zero(r2, 1);
    } else { /* exp(base) (-expm1(-|k| (e - s))) / |k| */
        mpq_sub(d, g->e ? *g->e : C->hi[j], g->s ? *g->s : C->lo[j]);
        mpq_mul(d, d, ak);
        log_g(r1, r2, d);
    }
    sub_log_q(r1, r2, ak);
    mpq_clears(ak, d, (mpq_ptr)0);
}

/* lo <= log sum of the masses of the segments g[0..n) <= hi (shifted by T), at about prec
 * bits besides the exponents' integer parts; EM_ERR_DOMAIN when none has mass */
static int logsum_b(const em_cont *C, const struct seg *g, size_t n, mpfr_prec_t prec,
                    mpfr_t lo, mpfr_t hi)
{
    mpq_t *base = em_q_array_new(n);
    unsigned char *has = calloc(n ? n : 1, 1);
    if (!base || !has) {
        em_q_array_free(base, n);
        free(has);
        return EM_ERR_NOMEM;
    }
    long bits = 0;
    size_t m = n;
    for (size_t i = 0; i < n; i++) {
        has[i] = (unsigned char)seg_base(C, &g[i], base[i]);
        if (has[i] && em_q_bits(base[i]) > bits)
            bits = em_q_bits(base[i]);
        if (has[i] && m == n)
            m = i;
    }
    if (m == n) {
        em_q_array_free(base, n);
        free(has);
        return EM_ERR_DOMAIN;
    }
    const mpfr_prec_t w = prec + bits + 64;
    mpfr_t *L1 = em_mpfr_array_new(n, w), *L2 = em_mpfr_array_new(n, w);
    if (!L1 || !L2) {
        em_mpfr_array_free(L1, n);
        em_mpfr_array_free(L2, n);
        em_q_array_free(base, n);
        free(has);
        return EM_ERR_NOMEM;
    }
    mpfr_t b1, b2, s, t, sum1, sum2;
    mpfr_inits2(w, b1, b2, s, t, sum1, sum2, (mpfr_ptr)0);
    for (size_t i = 0; i < n; i++) {
        if (!has[i])
            continue;
        seg_rel(C, &g[i], L1[i], L2[i]);
        em_q_bounds(b1, b2, base[i]);
        mpfr_add(L1[i], L1[i], b1, MPFR_RNDD);
        mpfr_add(L2[i], L2[i], b2, MPFR_RNDU);
        if (mpfr_cmp(L1[i], L1[m]) > 0)
            m = i;
    }
    mpfr_set(s, L1[m], MPFR_RNDN); /* exact: same precision */
    mpfr_set_zero(sum1, 1);
    mpfr_set_zero(sum2, 1);
    for (size_t i = 0; i < n; i++) {
        if (!has[i])
            continue;
        mpfr_sub(t, L1[i], s, MPFR_RNDD);
        mpfr_exp(t, t, MPFR_RNDD);
        mpfr_add(sum1, sum1, t, MPFR_RNDD);
        mpfr_sub(t, L2[i], s, MPFR_RNDU);
        mpfr_exp(t, t, MPFR_RNDU);
        mpfr_add(sum2, sum2, t, MPFR_RNDU);
    }
    /* sum1 >= 1 (the term m): its log is an ordinary number */
    mpfr_set_prec(lo, w);
    mpfr_set_prec(hi, w);
    mpfr_log(sum1, sum1, MPFR_RNDD);
    mpfr_log(sum2, sum2, MPFR_RNDU);
    mpfr_add(lo, s, sum1, MPFR_RNDD);
    mpfr_add(hi, s, sum2, MPFR_RNDU);
    mpfr_clears(b1, b2, s, t, sum1, sum2, (mpfr_ptr)0);
    em_mpfr_array_free(L1, n);
    em_mpfr_array_free(L2, n);
    em_q_array_free(base, n);
    free(has);
    return EM_OK;
}

/* What a log-domain value is: */
enum {
    D_LOGP,     /* log P(piece j) */
    D_LOGQ,     /* log(R / M_j), R the other masses: log(-log P) up to [-q, 0] */
    D_LOGN,     /* log F(x) = log N(x) - log Z */
    D_LOGI      /* log P(x < X <= y) */
};

struct dctx {
    em_cont *C;
    int kind;
    size_t j;
    const mpq_t *x, *y;
};

/* the segments of (x, y] (x NULL: from the left end of R), into g (n + 1 entries) */
static size_t segs_between(const em_cont *C, const mpq_t *x, const mpq_t *y, struct seg *g)
{
    size_t k = 0;
    for (size_t j = 0; j < C->n; j++) {
        if (C->zero[j])
            continue;
        const mpq_t *s = NULL, *e = NULL;
        if (x && finite_hi(C, j) && mpq_cmp(C->hi[j], *x) <= 0)
            continue; /* wholly left of x */
        if (y && finite_lo(C, j) && mpq_cmp(C->lo[j], *y) >= 0)
            continue; /* wholly right of y */
        if (x && (!finite_lo(C, j) || mpq_cmp(C->lo[j], *x) < 0))
            s = x;
        if (y && (!finite_hi(C, j) || mpq_cmp(C->hi[j], *y) > 0))
            e = y;
        g[k++] = (struct seg){j, s, e};
    }
    return k;
}

static int d_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    struct dctx *D = ctx;
    em_cont *C = D->C;
    const size_t n = C->n;
    struct seg *g = malloc((n + 1) * sizeof *g);
    if (!g)
        return EM_ERR_NOMEM;
    size_t ng = 0, nz = 0;
    for (size_t j = 0; j < n; j++)
        g[nz++] = (struct seg){j, NULL, NULL};
    mpfr_t z1, z2, a1, a2;
    mpfr_inits2(64, z1, z2, a1, a2, (mpfr_ptr)0);
    int st = EM_OK;
    switch (D->kind) {
    case D_LOGP:
        st = logsum_b(C, &g[D->j], 1, prec, a1, a2);
        if (st == EM_OK)
            st = logsum_b(C, g, nz, prec, z1, z2);
        break;
    case D_LOGQ: /* log R - log M_j */
        st = logsum_b(C, &g[D->j], 1, prec, z1, z2);
        g[D->j] = g[n - 1];
        if (st == EM_OK)
            st = logsum_b(C, g, n - 1, prec, a1, a2);
        break;
    case D_LOGN:
    case D_LOGI:
        ng = segs_between(C, D->kind == D_LOGI ? D->x : NULL, D->kind == D_LOGI ? D->y : D->x,
                          g);
        st = logsum_b(C, g, ng, prec, a1, a2);
        for (size_t j = 0; st == EM_OK && j < n; j++)
            g[j] = (struct seg){j, NULL, NULL};
        if (st == EM_OK)
            st = logsum_b(C, g, nz, prec, z1, z2);
        break;
    }
    free(g);
    if (st == EM_OK) {
        mpfr_prec_t w = mpfr_get_prec(a1) > mpfr_get_prec(z1) ? mpfr_get_prec(a1)
                                                             : mpfr_get_prec(z1);
        mpfr_set_prec(lo, w);
        mpfr_set_prec(hi, w);
        mpfr_sub(lo, a1, z2, MPFR_RNDD);
        mpfr_sub(hi, a2, z1, MPFR_RNDU);
        if (D->kind == D_LOGQ) {
            /* log q with q = R / M_j; -log P = log1p(q), and log log1p(q) lies in
             * [log q - q, log q] for 0 < q <= 1 (log1p(q) / q >= 1 - q/2 >= exp(-q)) */
            if (mpfr_sgn(hi) > 0) {
                st = EM_ERR_UNDECIDED; /* q > 1: not a value near 1 */
            } else {
                mpfr_exp(a1, hi, MPFR_RNDU); /* q's upper bound, maybe [0, tiny] */
                mpfr_sub(lo, lo, a1, MPFR_RNDD);
            }
        }
    }
    mpfr_clears(z1, z2, a1, a2, (mpfr_ptr)0);
    return st;
}

static int round_log(struct dctx *D, int neg, em_cval *out, unsigned flag)
{
    em_rval rv = {d_bounds, NULL, D};
    int st = em_round_exp(&rv, neg, D->C->K, 64, out);
    if (st == EM_OK)
        out->flags |= flag;
    return st;
}

int em_cont_deep_prob(em_cont *C, size_t j, em_cval *p)
{
    struct dctx D = {C, D_LOGP, j, NULL, NULL};
    return round_log(&D, 0, p, EM_CV_FROM_LOG);
}

int em_cont_deep_logprob(em_cont *C, size_t j, em_cval *logp)
{
    struct dctx D = {C, D_LOGP, j, NULL, NULL};
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    int st = d_bounds(&D, 64, lo, hi);
    int small = st == EM_OK && mpfr_cmp_si(hi, -1) < 0; /* P < 1/e: log P ordinary */
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    if (st != EM_OK)
        return st;
    if (small) {
        em_rval rv = {d_bounds, NULL, &D};
        return em_round(&rv, C->K, 64, logp);
    }
    D.kind = D_LOGQ; /* log P = -log1p(q), q = R / M_j below the range */
    return round_log(&D, 1, logp, EM_CV_LOG_FROM_LOG);
}

int em_cont_deep_cdf(em_cont *C, const mpq_t x, em_cval *out)
{
    struct dctx D = {C, D_LOGN, 0, (const mpq_t *)x, NULL};
    return round_log(&D, 0, out, EM_CV_FROM_LOG);
}

int em_cont_deep_interval(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out)
{
    struct dctx D = {C, D_LOGI, 0, (const mpq_t *)a, (const mpq_t *)b};
    return round_log(&D, 0, out, EM_CV_FROM_LOG);
}

int em_cont_deep_logdens(em_cont *C, size_t j, const mpq_t te, em_cval *out)
{
    /* log f = te - log Z is below the range only when exp(te) is exactly the mass of one
     * piece (base te, rel 0: length 1, or |k| = 1 with an infinite end) and the others are
     * below it by more than the range: then log f = -log1p(R / M_i) */
    struct seg g = {j, NULL, NULL};
    mpq_t base;
    mpq_init(base);
    int ok = seg_base(C, &g, base) && mpq_equal(base, te);
    mpq_clear(base);
    if (ok && C->kind == EM_CONT_PIECES) {
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        if (mpq_sgn(C->k[j]) == 0)
            ok = mpq_equal(C->len[j], one);
        else {
            mpq_t ak;
            mpq_init(ak);
            mpq_abs(ak, C->k[j]);
            ok = (!finite_lo(C, j) || !finite_hi(C, j)) && mpq_equal(ak, one);
            mpq_clear(ak);
        }
        mpq_clear(one);
    }
    if (!ok)
        return EM_ERR_UNDECIDED;
    struct dctx D = {C, D_LOGQ, j, NULL, NULL};
    return round_log(&D, 1, out, EM_CV_LOG_FROM_LOG);
}

/* ------------------------------------------------- ratios of exponential polynomials */

/* log |N / D| (halved when half: a square root), N and D merged, D > 0, sign(N) = sn */
struct rl {
    const em_expoly *N, *D;
    int sn, half;
};

static int rl_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    const struct rl *R = ctx;
    const mpq_srcptr tn = R->N->t[R->N->n - 1], td = R->D->t[R->D->n - 1];
    long bits = em_q_bits(tn) > em_q_bits(td) ? em_q_bits(tn) : em_q_bits(td);
    const mpfr_prec_t w = prec + bits + 64;
    mpfr_t n1, n2, d1, d2, e1, e2;
    mpfr_inits2(w, n1, n2, d1, d2, e1, e2, (mpfr_ptr)0);
    /* each sum shifted by its own largest exponent: an ordinary number, the terms far
       below it in [0, tiny] */
    em_expoly_eval(R->N, tn, w, n1, n2);
    em_expoly_eval(R->D, td, w, d1, d2);
    if (R->sn < 0) {
        mpfr_swap(n1, n2);
        mpfr_neg(n1, n1, MPFR_RNDD);
        mpfr_neg(n2, n2, MPFR_RNDU);
    }
    int st = EM_OK;
    if (mpfr_sgn(n1) <= 0 || mpfr_sgn(d1) <= 0) {
        st = EM_ERR_UNDECIDED; /* cancellation: more bits */
    } else {
        mpq_t dt;
        mpq_init(dt);
        mpq_sub(dt, tn, td);
        em_q_bounds(e1, e2, dt);
        mpq_clear(dt);
        mpfr_set_prec(lo, w);
        mpfr_set_prec(hi, w);
        mpfr_log(n1, n1, MPFR_RNDD);
        mpfr_log(n2, n2, MPFR_RNDU);
        mpfr_log(d1, d1, MPFR_RNDD);
        mpfr_log(d2, d2, MPFR_RNDU);
        mpfr_add(lo, e1, n1, MPFR_RNDD);
        mpfr_sub(lo, lo, d2, MPFR_RNDD);
        mpfr_add(hi, e2, n2, MPFR_RNDU);
        mpfr_sub(hi, hi, d1, MPFR_RNDU);
        if (R->half) {
            mpfr_div_2ui(lo, lo, 1, MPFR_RNDD);
            mpfr_div_2ui(hi, hi, 1, MPFR_RNDU);
        }
    }
    mpfr_clears(n1, n2, d1, d2, e1, e2, (mpfr_ptr)0);
    return st;
}

int em_cont_ratio_from_log(em_cont *C, const em_expoly *N, const em_expoly *D, int half,
                           em_cval *out)
{
    em_expoly MN, MD;
    int st = em_expoly_merged(N, &MN);
    if (st != EM_OK)
        return st;
    if ((st = em_expoly_merged(D, &MD)) != EM_OK) {
        em_expoly_clear(&MN);
        return st;
    }
    int sn = 0, sd = 0;
    if (MN.n == 0)
        st = em_cval_exact(out, "0", 0.0);
    else if (MD.n == 0 || (st = em_expoly_sign(&MD, &sd)) != EM_OK || sd <= 0)
        st = st != EM_OK ? st : EM_ERR_DOMAIN;
    else if ((st = em_expoly_sign(&MN, &sn)) == EM_OK) {
        if (half && sn < 0)
            st = EM_ERR_DOMAIN;
        else {
            struct rl R = {&MN, &MD, sn, half};
            em_rval rv = {rl_bounds, NULL, &R};
            st = em_round_exp(&rv, sn < 0, C->K, 64, out);
            if (st == EM_OK)
                out->flags |= EM_CV_FROM_LOG;
        }
    }
    em_expoly_clear(&MN);
    em_expoly_clear(&MD);
    return st;
}
