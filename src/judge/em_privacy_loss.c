/* em_privacy_loss.c: the exact privacy loss between two weighted / continuous laws (em_privacy_loss.h). */
#include "judge/em_privacy_loss.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_mem.h"

/* ------------------------------------------------------------- candidates */

typedef struct cand {
    mpq_t mu, alpha;   /* beta = log mu + alpha */
    double approx;     /* beta to about 60 bits, for screening */
    size_t atom;
    mpq_t at;
    int side;
    int everywhere;
} cand;

typedef struct cands {
    size_t n, cap;
    cand *v;
} cands;

static void cands_free(cands *C)
{
    for (size_t i = 0; i < C->n; i++) {
        mpq_clears(C->v[i].mu, C->v[i].alpha, C->v[i].at, (mpq_ptr)0);
    }
    free(C->v);
    C->v = NULL;
    C->n = C->cap = 0;
}

static double approx_beta(const mpq_t mu, const mpq_t alpha)
{
    mpfr_t a, b;
    mpfr_inits2(64, a, b, (mpfr_ptr)0);
    mpfr_set_q(a, mu, MPFR_RNDN);
    mpfr_log(a, a, MPFR_RNDN);
    mpfr_set_q(b, alpha, MPFR_RNDN);
    mpfr_add(a, a, b, MPFR_RNDN);
    double d = mpfr_get_d(a, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return d;
}

/* r = a b - c d exactly (t: scratch) */
static void q_cross(mpq_t r, const mpq_t a, const mpq_t b, const mpq_t c, const mpq_t d, mpq_t t)
{
    mpq_mul(r, a, b);
    mpq_mul(t, c, d);
    mpq_sub(r, r, t);
}

static int cands_push(cands *C, const mpq_t mu, const mpq_t alpha, size_t atom, const mpq_t at,
                      int side, int everywhere)
{
    if (C->n == C->cap) {
        size_t nc = C->cap ? 2 * C->cap : 16;
        if (!em_realloc_array(&C->v, nc, sizeof *C->v))
            return EM_ERR_NOMEM;
        C->cap = nc;
    }
    cand *c = &C->v[C->n++];
    mpq_inits(c->mu, c->alpha, c->at, (mpq_ptr)0);
    mpq_set(c->mu, mu);
    mpq_set(c->alpha, alpha);
    if (at)
        mpq_set(c->at, at);
    c->approx = approx_beta(mu, alpha);
    c->atom = atom;
    c->side = side;
    c->everywhere = everywhere;
    return EM_OK;
}

/* exact sign of mu_i exp(alpha_i) - mu_j exp(alpha_j) */
static int beta_cmp(const cand *i, const cand *j, int *sign)
{
    em_expoly P;
    em_expoly_init(&P);
    mpq_t m;
    mpq_init(m);
    mpq_neg(m, j->mu);
    int st = em_expoly_add(&P, i->mu, i->alpha);
    if (st == EM_OK)
        st = em_expoly_add(&P, m, j->alpha);
    if (st == EM_OK)
        st = em_expoly_sign(&P, sign);
    mpq_clear(m);
    em_expoly_clear(&P);
    return st;
}

/* index of the largest (dir > 0) or smallest (dir < 0) beta, exactly */
static int best_of(const cands *C, int dir, size_t *best)
{
    size_t b = 0;
    for (size_t i = 1; i < C->n; i++)
        if (dir * C->v[i].approx > dir * C->v[b].approx)
            b = i;
    const double ab = C->v[b].approx, tol = 1e-9 * (1 + fabs(ab));
    for (size_t i = 0; i < C->n; i++) {
        if (i == b || !(fabs(C->v[i].approx - ab) <= tol || isinf(ab) || isnan(ab)))
            continue;
        int s;
        int st = beta_cmp(&C->v[i], &C->v[b], &s);
        if (st != EM_OK)
            return st;
        if (dir * s > 0)
            b = i;
    }
    *best = b;
    return EM_OK;
}

/* ------------------------------------------------------- the rounded values */

typedef struct vctx {
    em_cont *X, *Y;
    const cand *c;
    int dir; /* 0: beta - L; 1: L - beta */
} vctx;

static int v_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    vctx *V = ctx;
    mpfr_t xl, xh, yl, yh, bl, bh, t;
    mpfr_inits2(prec, xl, xh, yl, yh, bl, bh, t, (mpfr_ptr)0);
    int st = em_cont_logz_bounds(V->X, prec, xl, xh);
    if (st == EM_OK)
        st = em_cont_logz_bounds(V->Y, prec, yl, yh);
    if (st == EM_OK) {
        mpfr_set_prec(lo, prec);
        mpfr_set_prec(hi, prec);
        /* beta */
        mpfr_set_q(bl, V->c->mu, MPFR_RNDD);
        mpfr_log(bl, bl, MPFR_RNDD);
        mpfr_set_q(t, V->c->alpha, MPFR_RNDD);
        mpfr_add(bl, bl, t, MPFR_RNDD);
        mpfr_set_q(bh, V->c->mu, MPFR_RNDU);
        mpfr_log(bh, bh, MPFR_RNDU);
        mpfr_set_q(t, V->c->alpha, MPFR_RNDU);
        mpfr_add(bh, bh, t, MPFR_RNDU);
        /* L = log Z_X - log Z_Y in [xl - yh, xh - yl] */
        mpfr_sub(xl, xl, yh, MPFR_RNDD);
        mpfr_sub(xh, xh, yl, MPFR_RNDU);
        if (V->dir == 0) {
            mpfr_sub(lo, bl, xh, MPFR_RNDD);
            mpfr_sub(hi, bh, xl, MPFR_RNDU);
        } else {
            mpfr_sub(lo, xl, bh, MPFR_RNDD);
            mpfr_sub(hi, xh, bl, MPFR_RNDU);
        }
    }
    mpfr_clears(xl, xh, yl, yh, bl, bh, t, (mpfr_ptr)0);
    return st;
}

static int v_cmp(void *ctx, const mpq_t B, int *sign)
{
    vctx *V = ctx;
    em_expoly P;
    em_expoly_init(&P);
    mpq_t one, q, t, zero;
    mpq_inits(one, q, t, zero, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    int st;
    if (V->dir == 0) { /* sign(mu exp(alpha - B) Z_Y - Z_X) */
        mpq_sub(t, V->c->alpha, B);
        st = em_cont_append_z(V->Y, &P, V->c->mu, t);
        mpq_neg(q, one);
        if (st == EM_OK)
            st = em_cont_append_z(V->X, &P, q, zero);
    } else { /* sign(Z_X - mu exp(alpha + B) Z_Y) */
        st = em_cont_append_z(V->X, &P, one, zero);
        mpq_add(t, V->c->alpha, B);
        mpq_neg(q, V->c->mu);
        if (st == EM_OK)
            st = em_cont_append_z(V->Y, &P, q, t);
    }
    if (st == EM_OK)
        st = em_expoly_sign(&P, sign);
    mpq_clears(one, q, t, zero, (mpq_ptr)0);
    em_expoly_clear(&P);
    return st;
}

/* --------------------------------------------------------------- common */

void em_privacy_loss_init(em_privacy_loss *L)
{
    memset(L, 0, sizeof *L);
    em_cval_init(&L->width);
    em_cval_init(&L->width_sq8);
    for (int k = 0; k < 2; k++) {
        em_cval_init(&L->d[k].value);
        mpq_inits(L->d[k].at, L->d[k].lo, L->d[k].hi, (mpq_ptr)0);
    }
}

void em_privacy_loss_clear(em_privacy_loss *L)
{
    em_cval_clear(&L->width);
    em_cval_clear(&L->width_sq8);
    for (int k = 0; k < 2; k++) {
        em_cval_clear(&L->d[k].value);
        mpq_clears(L->d[k].at, L->d[k].lo, L->d[k].hi, (mpq_ptr)0);
    }
}

static void reset(em_privacy_loss *L)
{
    for (int k = 0; k < 2; k++) {
        em_privacy_loss_dir *d = &L->d[k];
        d->infinite = 0;
        d->reason = EM_PRIVACY_LOSS_FINITE;
        d->cmp_eps = 0;
        d->atom = 0;
        d->at_inf = d->side = d->everywhere = 0;
        d->lo_inf = d->hi_inf = 0;
        mpq_set_ui(d->at, 0, 1);
        mpq_set_ui(d->lo, 0, 1);
        mpq_set_ui(d->hi, 0, 1);
    }
    L->worst = 0;
    L->cmp_eps = 0;
    L->has_width = 0;
}

/* ------------------------------------------------- the bounded-range width */

/* w = beta_hi - beta_lo = log(mu_hi / mu_lo) + (alpha_hi - alpha_lo) of the candidates of
 * the largest and the smallest beta: the log-ratio's span, Z_X and Z_Y cancelled */
typedef struct wctx {
    const cand *hi, *lo;
    int sq8; /* bounds of w^2 / 8 instead */
} wctx;

static int w_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    wctx *W = ctx;
    mpfr_t a, b, t;
    mpfr_inits2(prec + 16, a, b, t, (mpfr_ptr)0);
    mpfr_set_prec(lo, prec);
    mpfr_set_prec(hi, prec);
    mpq_t r, d;
    mpq_inits(r, d, (mpq_ptr)0);
    mpq_div(r, W->hi->mu, W->lo->mu);
    mpq_sub(d, W->hi->alpha, W->lo->alpha);
    mpfr_set_q(a, r, MPFR_RNDD);
    mpfr_log(a, a, MPFR_RNDD);
    mpfr_set_q(t, d, MPFR_RNDD);
    mpfr_add(a, a, t, MPFR_RNDD);
    mpfr_set_q(b, r, MPFR_RNDU);
    mpfr_log(b, b, MPFR_RNDU);
    mpfr_set_q(t, d, MPFR_RNDU);
    mpfr_add(b, b, t, MPFR_RNDU);
    if (mpfr_sgn(a) < 0) /* w >= 0: beta_hi is the largest */
        mpfr_set_zero(a, 1);
    if (W->sq8) {
        mpfr_sqr(a, a, MPFR_RNDD);
        mpfr_div_2ui(a, a, 3, MPFR_RNDD);
        mpfr_sqr(b, b, MPFR_RNDU);
        mpfr_div_2ui(b, b, 3, MPFR_RNDU);
    }
    mpfr_set(lo, a, MPFR_RNDD);
    mpfr_set(hi, b, MPFR_RNDU);
    mpq_clears(r, d, (mpq_ptr)0);
    mpfr_clears(a, b, t, (mpfr_ptr)0);
    return EM_OK;
}

/* sign(w - B) = sign(mu_hi exp(alpha_hi) - mu_lo exp(alpha_lo + B)), exactly */
static int w_cmp(void *ctx, const mpq_t B, int *sign)
{
    wctx *W = ctx;
    cand c = *W->lo;
    mpq_init(c.alpha);
    mpq_add(c.alpha, W->lo->alpha, B);
    int st = beta_cmp(W->hi, &c, sign);
    mpq_clear(c.alpha);
    return st;
}

/* Rational when mu_hi = mu_lo (every unnormalised ratio a pure exponential: no measure, or
 * the same on both sides): w and w^2/8 rounded as rationals.  Otherwise w is ln of a
 * rational other than 1 plus a rational, transcendental (Lindemann), and so is w^2: never
 * at a rounding boundary, so bounds alone decide w^2/8. */
static int width_of(const cand *hi, const cand *lo, int K, em_privacy_loss *L)
{
    int st;
    if (mpq_equal(hi->mu, lo->mu)) {
        mpq_t w;
        mpq_init(w);
        mpq_sub(w, hi->alpha, lo->alpha);
        st = em_round_q(w, K, &L->width);
        mpq_mul(w, w, w);
        mpq_div_2exp(w, w, 3);
        if (st == EM_OK)
            st = em_round_q(w, K, &L->width_sq8);
        mpq_clear(w);
    } else {
        wctx W = {hi, lo, 0};
        em_rval R = {w_bounds, w_cmp, &W};
        st = em_round(&R, K, 128, &L->width);
        wctx W8 = {hi, lo, 1};
        em_rval R8 = {w_bounds, NULL, &W8};
        if (st == EM_OK)
            st = em_round(&R8, K, 128, &L->width_sq8);
    }
    L->has_width = st == EM_OK;
    return st;
}

/* the finite directions from the candidates; then worst and cmp_eps */
static int finish(em_cont *X, em_cont *Y, const cands *C, const mpq_t eps, int K, em_privacy_loss *L)
{
    size_t bk[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        em_privacy_loss_dir *d = &L->d[k];
        if (d->infinite) {
            d->cmp_eps = 1;
            continue;
        }
        if (C->n == 0) /* no common support and nothing infinite: impossible for laws */
            return EM_ERR_DOMAIN;
        size_t b;
        int st = best_of(C, k == 0 ? 1 : -1, &b);
        if (st != EM_OK)
            return st;
        bk[k] = b;
        const cand *c = &C->v[b];
        d->atom = c->atom;
        mpq_set(d->at, c->at);
        d->side = c->side;
        d->everywhere = c->everywhere;
        /* the same value from the other side of the same point: continuous there */
        for (size_t i = 0; i < C->n && d->side != 0; i++)
            if (i != b && C->v[i].side == -c->side && !C->v[i].everywhere &&
                mpq_equal(C->v[i].at, c->at) && mpq_equal(C->v[i].alpha, c->alpha) &&
                mpq_equal(C->v[i].mu, c->mu))
                d->side = 0;
        vctx V = {X, Y, c, k};
        em_rval R = {v_bounds, v_cmp, &V};
        st = em_round(&R, K, 128, &d->value);
        if (st == EM_OK)
            st = v_cmp(&V, eps, &d->cmp_eps);
        if (st != EM_OK)
            return st;
    }
    if (L->d[0].infinite)
        L->worst = 0;
    else if (L->d[1].infinite)
        L->worst = 1;
    else if (L->d[1].value.d != L->d[0].value.d)
        L->worst = L->d[1].value.d > L->d[0].value.d;
    else {
        mpfr_t a, b;
        mpfr_inits2(4000, a, b, (mpfr_ptr)0);
        mpfr_set_str(a, L->d[0].value.str, 10, MPFR_RNDN);
        mpfr_set_str(b, L->d[1].value.str, 10, MPFR_RNDN);
        L->worst = mpfr_cmp(b, a) > 0;
        mpfr_clears(a, b, (mpfr_ptr)0);
    }
    L->cmp_eps = L->d[0].cmp_eps > L->d[1].cmp_eps ? L->d[0].cmp_eps : L->d[1].cmp_eps;
    if (!L->d[0].infinite && !L->d[1].infinite)
        return width_of(&C->v[bk[0]], &C->v[bk[1]], K, L);
    return EM_OK;
}

static void set_inf(em_privacy_loss *L, int k, int reason, size_t atom, const mpq_t lo, int lo_inf,
                    const mpq_t hi, int hi_inf, int at_inf)
{
    em_privacy_loss_dir *d = &L->d[k];
    if (d->infinite)
        return; /* keep the first cause */
    d->infinite = 1;
    d->reason = reason;
    d->atom = atom;
    d->at_inf = at_inf;
    d->lo_inf = lo_inf;
    d->hi_inf = hi_inf;
    if (lo)
        mpq_set(d->lo, lo);
    if (hi)
        mpq_set(d->hi, hi);
    if (!at_inf && lo)
        mpq_set(d->at, lo);
    else if (at_inf > 0 && lo)
        mpq_set(d->at, lo);
    else if (at_inf < 0 && hi)
        mpq_set(d->at, hi);
}

/* ----------------------------------------------------------------- atoms */

int em_privacy_loss_atoms(em_cont *X, em_cont *Y, const em_problem *PX, const em_problem *PY, int K,
                          em_privacy_loss *L)
{
    if (!X || !Y || !PX || !PY || !L)
        return EM_ERR_NULL;
    const size_t n = PX->n;
    if (em_cont_kind(X) != EM_CONT_ATOMS || em_cont_kind(Y) != EM_CONT_ATOMS ||
        em_cont_size(X) != n || em_cont_size(Y) != n || PY->n != n || K < 1 || K > 1000 ||
        mpq_sgn(PX->eps) <= 0)
        return EM_ERR_DOMAIN;
    mpq_t *mx = PX->measure, *my = PY->measure;
    reset(L);
    mpq_t cx, cy, mu, al, t;
    mpq_inits(cx, cy, mu, al, t, (mpq_ptr)0);
    em_cont_coef(X, cx);
    em_cont_coef(Y, cy);
    cands C = {0, 0, NULL};
    int st = EM_OK;
    mpq_t ux, uy;
    mpq_inits(ux, uy, (mpq_ptr)0);
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        int zx = em_problem_excluded(PX, i) || (mx && mpq_sgn(mx[i]) == 0);
        int zy = em_problem_excluded(PY, i) || (my && mpq_sgn(my[i]) == 0);
        if (zx && zy)
            continue;
        if (zx != zy) {
            set_inf(L, zx ? 1 : 0, EM_PRIVACY_LOSS_SUPPORT, i, NULL, 0, NULL, 0, 0);
            continue;
        }
        if (mx)
            mpq_set(mu, mx[i]);
        else
            mpq_set_ui(mu, 1, 1);
        if (my)
            mpq_div(mu, mu, my[i]);
        em_problem_get(PX, i, ux);
        em_problem_get(PY, i, uy);
        mpq_mul(al, cx, ux);
        mpq_mul(t, cy, uy);
        mpq_sub(al, al, t);
        st = cands_push(&C, mu, al, i, NULL, 0, 0);
    }
    mpq_clears(ux, uy, (mpq_ptr)0);
    if (st == EM_OK)
        st = finish(X, Y, &C, PX->eps, K, L);
    cands_free(&C);
    mpq_clears(cx, cy, mu, al, t, (mpq_ptr)0);
    return st;
}

/* ---------------------------------------------------------------- pieces */

static int qcmp(const void *a, const void *b)
{
    return mpq_cmp(*(const mpq_t *)a, *(const mpq_t *)b);
}

/* the finite ends of the pieces of positive length; *linf / *rinf: R unbounded there */
static int ends_of(em_cont *C, mpq_t **pts, size_t *np, size_t *cap, int *linf, int *rinf)
{
    size_t n = em_cont_size(C);
    mpq_t lo, hi;
    mpq_inits(lo, hi, (mpq_ptr)0);
    int st = EM_OK;
    for (size_t j = 0; j < n && st == EM_OK; j++) {
        int li = 0, hinf = 0;
        em_cont_piece(C, j, lo, hi, &li, &hinf, NULL, NULL);
        if (!li && !hinf && mpq_cmp(lo, hi) >= 0)
            continue;
        *linf |= li;
        *rinf |= hinf;
        for (int e = 0; e < 2; e++) {
            if (e == 0 ? li : hinf)
                continue;
            if (*np + 1 > *cap) {
                size_t nc = *cap ? 2 * *cap : 16;
                mpq_t *v = realloc(*pts, nc * sizeof *v);
                if (!v) {
                    st = EM_ERR_NOMEM;
                    break;
                }
                *pts = v;
                *cap = nc;
            }
            mpq_init((*pts)[*np]);
            mpq_set((*pts)[*np], e == 0 ? lo : hi);
            (*np)++;
        }
    }
    mpq_clears(lo, hi, (mpq_ptr)0);
    return st;
}

int em_privacy_loss_pieces(em_cont *X, em_cont *Y, const mpq_t eps, int K, em_privacy_loss *L)
{
    if (!X || !Y || !eps || !L)
        return EM_ERR_NULL;
    if (em_cont_kind(X) != EM_CONT_PIECES || em_cont_kind(Y) != EM_CONT_PIECES || K < 1 ||
        K > 1000 || mpq_sgn(eps) <= 0)
        return EM_ERR_DOMAIN;
    reset(L);
    mpq_t *pts = NULL;
    size_t np = 0, cap = 0;
    int linf = 0, rinf = 0;
    int st = ends_of(X, &pts, &np, &cap, &linf, &rinf);
    if (st == EM_OK)
        st = ends_of(Y, &pts, &np, &cap, &linf, &rinf);
    cands C = {0, 0, NULL};
    mpq_t cx, cy, ax, bx, ay, by, a0, s, m, l, h, v, t, one;
    mpq_inits(cx, cy, ax, bx, ay, by, a0, s, m, l, h, v, t, one, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    em_cont_coef(X, cx);
    em_cont_coef(Y, cy);
    if (st != EM_OK)
        goto out;
    /* sort, unique */
    qsort(pts, np, sizeof *pts, qcmp);
    size_t u = 0;
    for (size_t i = 0; i < np; i++) {
        if (u > 0 && mpq_equal(pts[u - 1], pts[i]))
            continue;
        mpq_set(pts[u], pts[i]);
        u++;
    }
    const size_t nX = em_cont_size(X), nY = em_cont_size(Y);
    /* elementary intervals: k = -1 (left of pts[0]), 0..u-2, u-1 (right of pts[u-1]) */
    for (long k = -1; k < (long)u && st == EM_OK; k++) {
        int l_inf = k < 0, h_inf = k + 1 >= (long)u;
        if ((l_inf && !linf) || (h_inf && !rinf))
            continue;
        if (u == 0) { /* both laws on the whole line */
            mpq_set_ui(m, 0, 1);
        } else if (l_inf) {
            mpq_set(h, pts[0]);
            mpq_sub(m, h, one);
        } else if (h_inf) {
            mpq_set(l, pts[k]);
            mpq_add(m, l, one);
        } else {
            mpq_set(l, pts[k]);
            mpq_set(h, pts[k + 1]);
            mpq_add(m, l, h);
            mpq_div_2exp(m, m, 1);
        }
        size_t jx = em_cont_piece_right(X, m), jy = em_cont_piece_right(Y, m);
        int inx = jx < nX, iny = jy < nY;
        if (!inx && !iny)
            continue;
        if (inx != iny) { /* one law only on this interval: infinite towards it */
            set_inf(L, inx ? 0 : 1, EM_PRIVACY_LOSS_SUPPORT, 0, l_inf ? NULL : l, l_inf,
                    h_inf ? NULL : h, h_inf, 0);
            continue;
        }
        em_cont_piece(X, jx, NULL, NULL, NULL, NULL, ax, bx);
        em_cont_piece(Y, jy, NULL, NULL, NULL, NULL, ay, by);
        /* alpha(r) = a0 + s r */
        q_cross(a0, cx, ax, cy, ay, t);
        q_cross(s, cx, bx, cy, by, t);
        int sg = mpq_sgn(s);
        if (l_inf && sg != 0) /* r -> -inf: alpha -> -sg inf */
            set_inf(L, sg > 0 ? 1 : 0, EM_PRIVACY_LOSS_SLOPE, 0, NULL, 1, h_inf ? NULL : h, h_inf, -1);
        if (h_inf && sg != 0)
            set_inf(L, sg > 0 ? 0 : 1, EM_PRIVACY_LOSS_SLOPE, 0, l_inf ? NULL : l, l_inf, NULL, 1, 1);
        if (u == 0) {
            if (sg == 0)
                st = cands_push(&C, one, a0, 0, m, 0, 1);
            continue;
        }
        if (!l_inf) {
            mpq_mul(v, s, l);
            mpq_add(v, v, a0);
            st = cands_push(&C, one, v, 0, l, +1, 0);
        }
        if (st == EM_OK && !h_inf) {
            mpq_mul(v, s, h);
            mpq_add(v, v, a0);
            st = cands_push(&C, one, v, 0, h, -1, 0);
        }
    }
    if (st == EM_OK)
        st = finish(X, Y, &C, eps, K, L);
out:
    for (size_t i = 0; i < np; i++)
        mpq_clear(pts[i]);
    free(pts);
    cands_free(&C);
    mpq_clears(cx, cy, ax, bx, ay, by, a0, s, m, l, h, v, t, one, (mpq_ptr)0);
    return st;
}
