/* em_audit.c: em_audit and friends (em_judge.h): the privacy loss between two neighbouring
 * mechanisms, exactly (judge/em_privacy_loss.h) and in 320-bit interval arithmetic for the ideal
 * finite law and the float sampler as implemented, and a Clopper-Pearson lower bound on
 * epsilon from draws. */
#include "em_base.h"
#include "em_judge.h"
#include "api/em_judge_priv.h"
#include "base/em_error.h"
#include "core/em_fixed.h"
#include "core/em_logweights.h"
#include "core/em_params.h"
#include "io/em_label.h"
#include "judge/em_privacy_loss.h"
#include "num/em_rational.h"
#include "oracle/em_pf.h"
#include "base/em_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>
#define MPFR_USE_INTMAX_T 1
#include <mpfr.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "api/em_obj.h"


#define PREC 320

/* ------------------------------------------------------ laws as intervals */

typedef struct dist {
    size_t n;
    mpfr_t *lo, *hi;
} dist;

static int dist_init(dist *d, size_t n)
{
    d->n = n;
    d->lo = malloc(n * sizeof *d->lo);
    d->hi = malloc(n * sizeof *d->hi);
    if (!d->lo || !d->hi)
        return EM_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        mpfr_inits2(PREC, d->lo[i], d->hi[i], (mpfr_ptr)0);
    return EM_OK;
}

static void dist_free(dist *d)
{
    if (d->lo && d->hi)
        for (size_t i = 0; i < d->n; i++)
            mpfr_clears(d->lo[i], d->hi[i], (mpfr_ptr)0);
    free(d->lo);
    free(d->hi);
}

/* The utilities, exclusions, measures (all 1 without the column) and doubles of one side,
 * in X's candidate order, and the problem over them. */
typedef struct side {
    size_t n;
    mpq_t *u, *m;
    unsigned char *ex;
    double *ud;
    em_problem prob;
} side;

static void side_free(side *s)
{
    for (size_t i = 0; s->u && s->m && i < s->n; i++) {
        mpq_clear(s->u[i]);
        mpq_clear(s->m[i]);
    }
    free(s->u);
    free(s->m);
    free(s->ex);
    free(s->ud);
    if (s->n) /* side_new ran */
        em_problem_clear(&s->prob);
}

/* map[i]: candidate of sc for X's candidate i (NULL: the identity); the parameters of the
 * mechanism's problem P */
static int side_new(side *s, const em_scn *sc, const size_t *map, size_t n,
                    const em_problem *P)
{
    s->n = n;
    em_problem_init(&s->prob);
    em_problem_params(&s->prob, P->eps, P->delta, P->variant, NULL);
    s->u = malloc(n * sizeof *s->u);
    s->m = malloc(n * sizeof *s->m);
    s->ex = malloc(n);
    s->ud = malloc(n * sizeof *s->ud);
    if (!s->u || !s->m || !s->ex || !s->ud) {
        free(s->u), free(s->m), s->u = s->m = NULL;
        return EM_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        size_t j = map ? map[i] : i;
        mpq_init(s->u[i]);
        mpq_init(s->m[i]);
        mpq_set(s->u[i], sc->u[j]);
        if (sc->has_measure)
            mpq_set(s->m[i], sc->measure[j]);
        else
            mpq_set_ui(s->m[i], 1, 1);
        s->ex[i] = sc->excluded[j];
        s->ud[i] = sc->ud[j];
    }
    s->prob.n = n;
    s->prob.u = s->u;
    s->prob.excluded = s->ex;
    s->prob.measure = s->m;
    return EM_OK;
}

/* Ideal exponential mechanism: p_i = m_i exp(t_i) / sum_j m_j exp(t_j), t = c (u - u*), in
 * interval arithmetic. */
static int ideal_em(dist *d, const side *s, int measure)
{
    size_t n = d->n, imax = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (!s->ex[i] && (imax == SIZE_MAX || mpq_cmp(s->u[i], s->u[imax]) > 0))
            imax = i;
    if (imax == SIZE_MAX)
        return EM_ERR_ALL_EXCLUDED;
    mpq_srcptr c = s->prob.c;
    mpq_t t;
    mpq_init(t);
    mpfr_t x, Slo, Shi;
    mpfr_inits2(PREC, x, Slo, Shi, (mpfr_ptr)0);
    mpfr_set_ui(Slo, 0, MPFR_RNDN);
    mpfr_set_ui(Shi, 0, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        if (s->ex[i]) {
            mpfr_set_ui(d->lo[i], 0, MPFR_RNDN);
            mpfr_set_ui(d->hi[i], 0, MPFR_RNDN);
            continue;
        }
        mpq_sub(t, s->u[i], s->u[imax]);
        mpq_mul(t, t, c);
        mpfr_set_q(x, t, MPFR_RNDD);
        mpfr_exp(d->lo[i], x, MPFR_RNDD);
        mpfr_set_q(x, t, MPFR_RNDU);
        mpfr_exp(d->hi[i], x, MPFR_RNDU);
        if (measure) {
            mpfr_mul_q(d->lo[i], d->lo[i], s->m[i], MPFR_RNDD);
            mpfr_mul_q(d->hi[i], d->hi[i], s->m[i], MPFR_RNDU);
        }
        mpfr_add(Slo, Slo, d->lo[i], MPFR_RNDD);
        mpfr_add(Shi, Shi, d->hi[i], MPFR_RNDU);
    }
    for (size_t i = 0; i < n; i++) {
        mpfr_div(d->lo[i], d->lo[i], Shi, MPFR_RNDD);
        mpfr_div(d->hi[i], d->hi[i], Slo, MPFR_RNDU);
    }
    mpfr_clears(x, Slo, Shi, (mpfr_ptr)0);
    mpq_clear(t);
    return EM_OK;
}

/* The float sampler as implemented: W / total exactly (rounded to PREC outwards). */
static int float_em(dist *d, const double *ud, double eps, double del, int variant, uint64_t *W,
                    uint64_t *totalp)
{
    size_t n = d->n, argmax;
    double *lw = malloc(n * sizeof *lw);
    uint64_t total, scale;
    int st = lw ? EM_OK : EM_ERR_NOMEM;
    if (st == EM_OK)
        st = em_logweights(n, ud, eps, del, variant, lw, &argmax);
    if (st == EM_OK)
        st = em_weights_fixed(n, lw, W, &total, &scale);
    if (st == EM_OK) {
        mpfr_t T;
        mpfr_init2(T, 64);
        mpfr_set_uj(T, total, MPFR_RNDN); /* exact: 64 bits */
        for (size_t i = 0; i < n; i++) {
            mpfr_set_uj(d->lo[i], W[i], MPFR_RNDN);
            mpfr_set(d->hi[i], d->lo[i], MPFR_RNDN);
            mpfr_div(d->lo[i], d->lo[i], T, MPFR_RNDD);
            mpfr_div(d->hi[i], d->hi[i], T, MPFR_RNDU);
        }
        mpfr_clear(T);
        *totalp = total;
    }
    free(lw);
    return st;
}

/* The float sampler's two laws are equal exactly when W_X[i] T_Y = W_Y[i] T_X for all i
 * (128-bit products, exact). */
static int float_equal(size_t n, const uint64_t *WX, uint64_t TX, const uint64_t *WY, uint64_t TY)
{
    __extension__ typedef unsigned __int128 u128;
    for (size_t i = 0; i < n; i++)
        if ((u128)WX[i] * TY != (u128)WY[i] * TX)
            return 0;
    return 1;
}

/* The ideal laws (standard, monotone and permute-and-flip alike: each depends on the
 * utilities only through c (u - max u), and on the base measure up to a factor) are equal
 * exactly when the supports agree, u_X - u_Y is one constant on it, and m_X / m_Y is one
 * constant: decided on the exact rationals, so that auditing X against X says 0, not 1e-95. */
static int ideal_equal(const side *X, const side *Y)
{
    mpq_t d0, d, a, b;
    mpq_inits(d0, d, a, b, NULL);
    long f = -1;
    int eq = 1;
    for (size_t i = 0; i < X->n && eq; i++) {
        if (X->ex[i] != Y->ex[i]) {
            eq = 0;
            break;
        }
        if (X->ex[i])
            continue;
        if ((mpq_sgn(X->m[i]) == 0) != (mpq_sgn(Y->m[i]) == 0)) {
            eq = 0;
            break;
        }
        mpq_sub(d, X->u[i], Y->u[i]);
        if (f < 0) {
            f = (long)i;
            mpq_set(d0, d);
            continue;
        }
        eq = mpq_equal(d, d0);
        if (eq) {
            mpq_mul(a, X->m[i], Y->m[f]);
            mpq_mul(b, Y->m[i], X->m[f]);
            eq = mpq_equal(a, b);
        }
    }
    mpq_clears(d0, d, a, b, NULL);
    return eq;
}

/* ------------------------------------------------------------- one block */

static int fmt(char **dst, const char *spec, mpfr_t x)
{
    return mpfr_asprintf(dst, spec, x) < 0 ? (*dst = NULL, EM_ERR_NOMEM) : EM_OK;
}

static int block_equal(em_audit_block *b)
{
    b->computed = b->equal = 1;
    b->verdict = EM_VERDICT_PASS;
    b->where = EM_JUDGE_NONE;
    char **z[] = {&b->loss, &b->delta_xy, &b->delta_yx, &b->width};
    for (int k = 0; k < 4; k++)
        if (!(*z[k] = strdup("0")))
            return EM_ERR_NOMEM;
    return EM_OK;
}

/* delta(eps) = sum_i max(0, P_i - e^eps Q_i) enclosed in [lo, hi] */
static void delta_eps(const dist *P, const dist *Q, const mpfr_t elo, const mpfr_t ehi, mpfr_t lo,
                      mpfr_t hi, mpfr_t a)
{
    mpfr_set_ui(lo, 0, MPFR_RNDN);
    mpfr_set_ui(hi, 0, MPFR_RNDN);
    for (size_t i = 0; i < P->n; i++) {
        mpfr_mul(a, ehi, Q->hi[i], MPFR_RNDU);
        mpfr_sub(a, P->lo[i], a, MPFR_RNDD);
        if (mpfr_sgn(a) > 0)
            mpfr_add(lo, lo, a, MPFR_RNDD);
        mpfr_mul(a, elo, Q->lo[i], MPFR_RNDD);
        mpfr_sub(a, P->hi[i], a, MPFR_RNDU);
        if (mpfr_sgn(a) > 0)
            mpfr_add(hi, hi, a, MPFR_RNDU);
    }
}

/* Privacy loss and delta(eps) between X and Y, as intervals. */
static int block(em_audit_block *B, const dist *X, const dist *Y, const mpq_t epsq, int equal)
{
    if (equal)
        return block_equal(B);
    size_t n = X->n, where = SIZE_MAX;
    int inf = 0;
    mpfr_t a, b, Llo, Lhi, best_lo, best_hi, elo, ehi, dlo[2], dhi[2], mx[2], mn[2];
    mpfr_inits2(PREC, a, b, Llo, Lhi, best_lo, best_hi, elo, ehi, dlo[0], dlo[1], dhi[0], dhi[1],
                mx[0], mx[1], mn[0], mn[1], (mpfr_ptr)0);
    mpfr_set_ui(best_lo, 0, MPFR_RNDN);
    mpfr_set_ui(best_hi, 0, MPFR_RNDN);
    /* the largest and the smallest log-ratio L, each as [lower, upper] */
    mpfr_set_inf(mx[0], -1), mpfr_set_inf(mx[1], -1);
    mpfr_set_inf(mn[0], 1), mpfr_set_inf(mn[1], 1);
    for (size_t i = 0; i < n; i++) {
        int zx = mpfr_zero_p(X->hi[i]), zy = mpfr_zero_p(Y->hi[i]);
        if (zx && zy)
            continue;
        if (zx || zy || mpfr_zero_p(X->lo[i]) || mpfr_zero_p(Y->lo[i])) {
            if (zx != zy) { /* one is exactly 0, the other positive: infinite loss */
                if (!inf)
                    where = i;
                inf = 1;
            }
            continue;
        }
        /* ln pX - ln pY in [ln lo_X - ln hi_Y, ln hi_X - ln lo_Y]; |.| */
        mpfr_log(a, X->lo[i], MPFR_RNDD);
        mpfr_log(b, Y->hi[i], MPFR_RNDU);
        mpfr_sub(Llo, a, b, MPFR_RNDD);
        mpfr_log(a, X->hi[i], MPFR_RNDU);
        mpfr_log(b, Y->lo[i], MPFR_RNDD);
        mpfr_sub(Lhi, a, b, MPFR_RNDU);
        mpfr_max(mx[0], mx[0], Llo, MPFR_RNDD);
        mpfr_max(mx[1], mx[1], Lhi, MPFR_RNDU);
        mpfr_min(mn[0], mn[0], Llo, MPFR_RNDD);
        mpfr_min(mn[1], mn[1], Lhi, MPFR_RNDU);
        /* |L| in [max(0, Llo, -Lhi), max(|Llo|, |Lhi|)] */
        mpfr_abs(a, Llo, MPFR_RNDU);
        mpfr_abs(b, Lhi, MPFR_RNDU);
        mpfr_max(b, a, b, MPFR_RNDU);
        mpfr_neg(a, Lhi, MPFR_RNDD);
        mpfr_max(a, a, Llo, MPFR_RNDD);
        if (mpfr_sgn(a) < 0)
            mpfr_set_ui(a, 0, MPFR_RNDN);
        if (where == SIZE_MAX || mpfr_cmp(b, best_hi) > 0) {
            if (!inf)
                where = i;
            mpfr_set(best_hi, b, MPFR_RNDU);
        }
        if (mpfr_cmp(a, best_lo) > 0)
            mpfr_set(best_lo, a, MPFR_RNDD);
    }
    mpfr_set_q(a, epsq, MPFR_RNDD);
    mpfr_exp(elo, a, MPFR_RNDD);
    mpfr_set_q(a, epsq, MPFR_RNDU);
    mpfr_exp(ehi, a, MPFR_RNDU);
    delta_eps(X, Y, elo, ehi, dlo[0], dhi[0], a);
    delta_eps(Y, X, elo, ehi, dlo[1], dhi[1], a);
    mpfr_set_q(elo, epsq, MPFR_RNDD);
    mpfr_set_q(ehi, epsq, MPFR_RNDU);
    B->computed = 1;
    B->infinite = inf;
    B->where = where == SIZE_MAX ? EM_JUDGE_NONE : where;
    B->verdict = inf                          ? EM_VERDICT_REJECT
                 : mpfr_cmp(best_lo, ehi) > 0 ? EM_VERDICT_REJECT
                 : mpfr_cmp(best_hi, elo) <= 0 ? EM_VERDICT_PASS
                                               : EM_VERDICT_UNDECIDED;
    int st = inf ? ((B->loss = strdup("inf")) ? EM_OK : EM_ERR_NOMEM)
                 : fmt(&B->loss, "%.17Rg", best_hi);
    if (st == EM_OK && !inf)
        st = fmt(&B->loss_lo, "%.6Re", best_lo) | fmt(&B->loss_hi, "%.6Re", best_hi);
    /* width = max L - min L in [mx_lo - mn_hi, mx_hi - mn_lo] (0 with one common output) */
    if (st == EM_OK && inf) {
        st = (B->width = strdup("inf")) ? EM_OK : EM_ERR_NOMEM;
    } else if (st == EM_OK) {
        if (mpfr_inf_p(mx[0])) { /* no common output: impossible between laws; no span */
            mpfr_set_zero(a, 1), mpfr_set_zero(b, 1);
        } else {
            mpfr_sub(a, mx[0], mn[1], MPFR_RNDD);
            mpfr_sub(b, mx[1], mn[0], MPFR_RNDU);
        }
        if (mpfr_sgn(a) < 0)
            mpfr_set_zero(a, 1);
        st = fmt(&B->width, "%.17Rg", b) | fmt(&B->width_lo, "%.6Re", a) |
             fmt(&B->width_hi, "%.6Re", b);
    }
    if (st == EM_OK)
        st = fmt(&B->delta_xy, "%.6Rg", dhi[0]) | fmt(&B->delta_xy_lo, "%.3Re", dlo[0]) |
             fmt(&B->delta_xy_hi, "%.3Re", dhi[0]) | fmt(&B->delta_yx, "%.6Rg", dhi[1]) |
             fmt(&B->delta_yx_lo, "%.3Re", dlo[1]) | fmt(&B->delta_yx_hi, "%.3Re", dhi[1]);
    mpfr_clears(a, b, Llo, Lhi, best_lo, best_hi, elo, ehi, dlo[0], dlo[1], dhi[0], dhi[1],
                mx[0], mx[1], mn[0], mn[1], (mpfr_ptr)0);
    return st ? EM_ERR_NOMEM : EM_OK;
}

static void block_free(em_audit_block *b)
{
    char *s[] = {b->loss, b->loss_lo, b->loss_hi, b->delta_xy, b->delta_xy_lo, b->delta_xy_hi,
                 b->delta_yx, b->delta_yx_lo, b->delta_yx_hi, b->width, b->width_lo, b->width_hi};
    for (size_t k = 0; k < sizeof s / sizeof s[0]; k++)
        free(s[k]);
}

/* ------------------------------------------------------------- exact loss */

/* q as exact text, and 17 digits beside when it has no short decimal */
static int q_texts(const mpq_t q, char **text, char **approx)
{
    *text = em_q_to_string(q, 17);
    if (!*text)
        return EM_ERR_NOMEM;
    if (!strchr(*text, '/'))
        return EM_OK;
    mpfr_t x;
    mpfr_init2(x, 128);
    mpfr_set_q(x, q, MPFR_RNDN);
    int st = fmt(approx, "%.17Rg", x);
    mpfr_clear(x);
    return st;
}

static int dir_from(em_audit_dir *o, const em_privacy_loss_dir *d, int continuous)
{
    o->infinite = d->infinite;
    o->reason = !d->infinite ? 0 : d->reason == EM_PRIVACY_LOSS_SUPPORT ? EM_AUDIT_SUPPORT
                                                                  : EM_AUDIT_SLOPE;
    o->atom = continuous ? EM_JUDGE_NONE : d->atom;
    o->at_inf = d->at_inf;
    o->side = d->side;
    o->everywhere = d->everywhere;
    o->lo_inf = d->lo_inf;
    o->hi_inf = d->hi_inf;
    int st = EM_OK;
    if (!d->infinite && !(o->value = strdup(d->value.str)))
        st = EM_ERR_NOMEM;
    if (st == EM_OK && continuous && !d->infinite && !d->everywhere)
        st = q_texts(d->at, &o->at, &o->at_approx);
    if (st == EM_OK && continuous && d->infinite && !d->lo_inf)
        st = q_texts(d->lo, &o->lo, &o->lo_approx);
    if (st == EM_OK && continuous && d->infinite && !d->hi_inf)
        st = q_texts(d->hi, &o->hi, &o->hi_approx);
    return st;
}

static void dir_free(em_audit_dir *d)
{
    EM_FREE_ALL(d->value, d->at, d->at_approx, d->lo, d->lo_approx, d->hi, d->hi_approx);
}

/* an infinite width: no zCDP parameter follows from it */
static int width_inf(em_audit_result *r)
{
    r->width_d = INFINITY;
    return (r->width = strdup("inf")) ? EM_OK : EM_ERR_NOMEM;
}

static int exact_from(em_audit_result *r, const em_privacy_loss *L, int pf)
{
    r->exact = 1;
    r->worst = L->worst;
    for (int k = 0; k < 2; k++)
        if (dir_from(&r->d[k], &L->d[k], r->continuous) != EM_OK)
            return EM_ERR_NOMEM;
    const em_privacy_loss_dir *w = &L->d[L->worst];
    r->loss = strdup(w->infinite ? "inf" : w->value.str);
    r->loss_d = w->infinite ? INFINITY : w->value.d;
    r->within = L->cmp_eps <= 0;
    if (!r->loss)
        return EM_ERR_NOMEM;
    r->width_exact = 1;
    if (!L->has_width)
        return width_inf(r);
    r->width = strdup(L->width.str);
    r->width_d = L->width.d;
    if (!pf) {
        r->rho = strdup(L->width_sq8.str);
        r->rho_d = L->width_sq8.d;
    }
    return r->width && (pf || r->rho) ? EM_OK : EM_ERR_NOMEM;
}

/* the width from the ideal block's enclosure (no exact loss): its upper end, and the upper
 * end of width^2 / 8 for the EM */
static int width_from_block(em_audit_result *r, int pf)
{
    const em_audit_block *b = &r->ideal;
    if (!strcmp(b->width, "inf"))
        return width_inf(r);
    if (!(r->width = strdup(b->width)))
        return EM_ERR_NOMEM;
    r->width_d = strtod(b->width, NULL);
    r->width_exact = 0;
    if (pf)
        return EM_OK;
    mpfr_t w;
    mpfr_init2(w, PREC);
    mpfr_set_str(w, b->width, 10, MPFR_RNDU);
    mpfr_sqr(w, w, MPFR_RNDU);
    mpfr_div_2ui(w, w, 3, MPFR_RNDU);
    int st = fmt(&r->rho, "%.17Rg", w);
    r->rho_d = mpfr_get_d(w, MPFR_RNDU);
    mpfr_clear(w);
    return st;
}

static void audit_result_destroy(void *obj)
{
    em_audit_result *r = obj;
    free(r->loss);
    free(r->width);
    free(r->rho);
    dir_free(&r->d[0]);
    dir_free(&r->d[1]);
    block_free(&r->ideal);
    block_free(&r->fp);
    em_obj_release(r);
}

/* ------------------------------------------------------------ the audits */

static int check_pair(em_mech *x, em_mech *y, em_error *err)
{
    const em_scn *sx = x->scn, *sy = y->scn;
    if (sx->continuous != sy->continuous)
        return em_err(err, EM_ERR_DOMAIN,
                      "%s is continuous and %s is not: neighbours need the same kind of output",
                      sx->continuous ? sx->name : sy->name, sx->continuous ? sy->name : sx->name);
    if (!mpq_equal(x->eps, y->eps) || !mpq_equal(x->delta, y->delta) || x->variant != y->variant)
        return em_err(err, EM_ERR_DOMAIN, "the two mechanisms need the same epsilon, "
                      "sensitivity and variant");
    if (!sx->continuous && sy->n != sx->n)
        return em_err(err, EM_ERR_DOMAIN, "X has %zu candidates, Y %zu: neighbours need the "
                      "same labels", sx->n, sy->n);
    if (x->variant == EM_PF && (sx->has_measure || sy->has_measure))
        return em_err(err, EM_ERR_VARIANT, "variant pf is not available for scenarios with a "
                      "measure column");
    return EM_OK;
}

static int audit_cont(em_mech *x, em_mech *y, em_audit_result *r, em_error *err)
{
    em_cont *C[2] = {NULL, NULL};
    int st = em_judge_law(x, x->digits, &C[0], err);
    if (st == EM_OK)
        st = em_judge_law(y, x->digits, &C[1], err);
    if (st == EM_OK) {
        em_privacy_loss L;
        em_privacy_loss_init(&L);
        st = em_privacy_loss_pieces(C[0], C[1], x->eps, x->digits, &L);
        if (st != EM_OK)
            em_judge_fail(err, st, "exact privacy loss");
        else if (exact_from(r, &L, 0) != EM_OK)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        em_privacy_loss_clear(&L);
        r->verdict = r->within ? EM_VERDICT_PASS : EM_VERDICT_REJECT;
    }
    em_cont_free(C[0]);
    em_cont_free(C[1]);
    return st;
}

/* Y's candidates in X's order */
static int label_map(const em_scn *sx, const em_scn *sy, size_t *map, em_error *err)
{
    for (size_t i = 0; i < sx->n; i++) {
        long j = em_scn_lookup(sy, sx->labels[i], strlen(sx->labels[i]));
        if (j < 0) {
            char h[EM_ERRLEN / 2];
            return em_err(err, EM_ERR_DOMAIN, "label '%s' of X is not in Y",
                          em_label_human_str(h, sizeof h, sx->labels[i], 128));
        }
        map[i] = (size_t)j;
    }
    return EM_OK;
}

/* The exact loss of two finite laws (weighted oracle), measures all 1 without the column. */
static int exact_finite(em_mech *x, const side *X, const side *Y, em_audit_result *r,
                        em_error *err)
{
    em_cont *law[2] = {NULL, NULL};
    int st = EM_OK;
    for (int k = 0; k < 2 && st == EM_OK; k++)
        st = em_cont_new(&(k ? Y : X)->prob, x->digits, &law[k], err);
    if (st == EM_OK) {
        em_privacy_loss L;
        em_privacy_loss_init(&L);
        st = em_privacy_loss_atoms(law[0], law[1], &X->prob, &Y->prob, x->digits, &L);
        if (st != EM_OK)
            em_judge_fail(err, st, "exact privacy loss");
        else if (exact_from(r, &L, x->variant == EM_PF) != EM_OK)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        em_privacy_loss_clear(&L);
    }
    em_cont_free(law[0]);
    em_cont_free(law[1]);
    return st;
}

/* The float sampler's block; not computed when the inputs are beyond double's range. */
static int float_block(em_mech *x, const side *X, const side *Y, em_audit_result *r)
{
    size_t n = X->n;
    double e = em_q_get_d(x->eps, NULL), d = em_q_get_d(x->delta, NULL);
    int ok = em_check_params(e, d, x->variant) == EM_OK;
    for (size_t i = 0; i < n && ok; i++)
        if ((!X->ex[i] && isinf(X->ud[i])) || (!Y->ex[i] && isinf(Y->ud[i])))
            ok = 0;
    uint64_t *WX = malloc(n * sizeof *WX), *WY = malloc(n * sizeof *WY), TX = 0, TY = 0;
    dist D[2] = {{0, NULL, NULL}, {0, NULL, NULL}};
    int st = WX && WY && dist_init(&D[0], n) == EM_OK && dist_init(&D[1], n) == EM_OK
                 ? EM_OK : EM_ERR_NOMEM;
    if (st == EM_OK && ok && float_em(&D[0], X->ud, e, d, x->variant, WX, &TX) == EM_OK &&
        float_em(&D[1], Y->ud, e, d, x->variant, WY, &TY) == EM_OK)
        st = block(&r->fp, &D[0], &D[1], x->eps, float_equal(n, WX, TX, WY, TY));
    else
        r->fp.beyond_range = 1;
    dist_free(&D[0]);
    dist_free(&D[1]);
    free(WX);
    free(WY);
    return st;
}

/* ------------------------------------------------- Clopper-Pearson bounds */

/* x with P(Beta(a, b) <= x) = q (upper: P(Beta(a, b) > x) = q).  GSL's inverse first; it
 * returns NaN where its iteration fails to converge (e.g. a = 500, b = 999501), and
 * bisection on GSL's CDF takes over there. */
static double beta_inv(double q, double a, double b, int upper)
{
    double x = upper ? gsl_cdf_beta_Qinv(q, a, b) : gsl_cdf_beta_Pinv(q, a, b);
    if (isfinite(x))
        return x;
    double lo = 0, hi = 1;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (upper ? gsl_cdf_beta_Q(mid, a, b) > q : gsl_cdf_beta_P(mid, a, b) < q)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* one-sided bounds at level a */
static double cp_lower(uint64_t k, uint64_t n, double a)
{
    return k == 0 ? 0.0 : beta_inv(a, (double)k, (double)(n - k + 1), 0);
}

static double cp_upper(uint64_t k, uint64_t n, double a)
{
    return k == n ? 1.0 : beta_inv(a, (double)(k + 1), (double)(n - k), 1);
}

int em_clopper_pearson(uint64_t k, uint64_t n, double confidence, double *lo, double *hi,
                       em_error *err)
{
    if (!lo || !hi)
        return em_err(err, EM_ERR_NULL, "em_clopper_pearson: lo or hi NULL");
    if (n == 0 || k > n)
        return em_err(err, EM_ERR_DOMAIN, "k = %llu of n = %llu: expected 0 <= k <= n, n > 0",
                      (unsigned long long)k, (unsigned long long)n);
    if (!(confidence > 0 && confidence < 1))
        return em_err(err, EM_ERR_DOMAIN, "confidence %g: expected a number in (0, 1)",
                      confidence);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double a = (1 - confidence) / 2;
    *lo = cp_lower(k, n, a);
    *hi = cp_upper(k, n, a);
    gsl_set_error_handler(old);
    em_err_ok(err);
    return EM_OK;
}

static double ratio(double x, double y)
{
    return y > 0 ? x / y : INFINITY;
}

/* The largest number of prefixes of the exact order tried per direction: spaced evenly
 * (chosen before the draws are seen, so the correction below counts them exactly). */
#define EM_AUDIT_MAX_PREFIXES 1024

/* Clopper-Pearson lower bound on eps, searched over events: every single outcome and the
 * prefixes of the outcomes sorted by the exact p_X/p_Y (at most EM_AUDIT_MAX_PREFIXES,
 * evenly spaced), K events in all, each fixed before the draws are read.  Searching the
 * draws over K events is paid for with Bonferroni: each of the bound's two Clopper-Pearson
 * statements at level a/K, so the largest of the K bounds holds at level 2a.  (One event
 * fixed in advance could be fooled: a sampler that always returns b on X and a on Y.)
 * *evsize: the outcomes in the event that gives the bound. */
static double cp_bound(size_t n, const double *px, const double *py, const uint64_t *cx,
                       const uint64_t *cy, uint64_t Nx, uint64_t Ny, double a, size_t *evsize)
{
    size_t *ord = malloc((n ? n : 1) * sizeof *ord);
    if (!ord)
        return NAN;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (px[i] > 0 || cx[i] > 0)
            ord[m++] = i;
    for (size_t i = 1; i < m; i++) /* insertion sort by ratio, descending (stable) */
        for (size_t j = i; j > 0 && ratio(px[ord[j]], py[ord[j]]) >
                                        ratio(px[ord[j - 1]], py[ord[j - 1]]); j--) {
            size_t t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    /* the proper prefixes 1..m-1 (the whole support says nothing) */
    size_t npre = m > 1 ? m - 1 : 0, step = 1;
    if (npre > EM_AUDIT_MAX_PREFIXES) {
        step = (npre + EM_AUDIT_MAX_PREFIXES - 1) / EM_AUDIT_MAX_PREFIXES;
        npre = (m - 1 + step - 1) / step;
    }
    const double K = (double)n + (double)npre, ak = a / (K > 0 ? K : 1);
    double best = -INFINITY;
    *evsize = 0;
    for (size_t i = 0; i < n; i++) {
        if (cx[i] == 0)
            continue; /* no draw of X in it: the lower bound is 0 */
        double v = log(cp_lower(cx[i], Nx, ak)) - log(cp_upper(cy[i], Ny, ak));
        if (v > best) {
            best = v;
            *evsize = 1;
        }
    }
    uint64_t kx = 0, ky = 0;
    for (size_t k = 0, next = step; k + 1 < m; k++) {
        kx += cx[ord[k]];
        ky += cy[ord[k]];
        if (k + 1 != next)
            continue;
        next += step;
        if (kx == 0)
            continue;
        double v = log(cp_lower(kx, Nx, ak)) - log(cp_upper(ky, Ny, ak));
        if (v > best) {
            best = v;
            *evsize = k + 1;
        }
    }
    free(ord);
    return best;
}

static int empirical(em_audit_result *r, const dist *D, const size_t *map, const uint64_t *cx,
                     const uint64_t *cy_own, double conf, const mpq_t eps)
{
    size_t n = D[0].n;
    double *px = malloc(n * sizeof *px), *py = malloc(n * sizeof *py);
    uint64_t *cy = malloc(n * sizeof *cy);
    if (!px || !py || !cy) {
        free(px), free(py), free(cy);
        return EM_ERR_NOMEM;
    }
    r->nx = r->ny = 0;
    for (size_t i = 0; i < n; i++) {
        px[i] = mpfr_get_d(D[0].hi[i], MPFR_RNDN);
        py[i] = mpfr_get_d(D[1].hi[i], MPFR_RNDN);
        cy[i] = cy_own[map[i]];
        r->nx += cx[i];
        r->ny += cy[i];
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double a = (1 - conf) / 2;
    r->empirical = 1;
    r->confidence = conf;
    /* two directions, each a maximum over its events: each at half the level, so that
     * the larger of the two holds at the confidence asked */
    r->eps_lower_xy = cp_bound(n, px, py, cx, cy, r->nx, r->ny, a / 2, &r->event_xy);
    r->eps_lower_yx = cp_bound(n, py, px, cy, cx, r->ny, r->nx, a / 2, &r->event_yx);
    gsl_set_error_handler(old);
    r->eps_lower = r->eps_lower_xy > r->eps_lower_yx ? r->eps_lower_xy : r->eps_lower_yx;
    r->empirical_violation = r->eps_lower > em_q_get_d(eps, NULL);
    free(px);
    free(py);
    free(cy);
    return EM_OK;
}

static int audit_finite(em_mech *x, em_mech *y, const uint64_t *cx, const uint64_t *cy,
                        double conf, em_audit_result *r, em_error *err)
{
    em_scn *sx = x->scn, *sy = y->scn;
    size_t n = sx->n;
    const int pf = x->variant == EM_PF, measure = sx->has_measure || sy->has_measure;
    int st = em_judge_finite(x, 1, err);
    if (st == EM_OK)
        st = em_judge_finite(y, 1, err);
    if (st == EM_OK && pf)
        st = em_judge_pf_limit(x, err);
    if (st != EM_OK)
        return st;
    size_t *map = malloc(n * sizeof *map);
    side X = {0}, Y = {0};
    dist D[2] = {{0, NULL, NULL}, {0, NULL, NULL}};
    if (!map)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    st = label_map(sx, sy, map, err);
    if (st == EM_OK && (side_new(&X, sx, NULL, n, &x->prob) != EM_OK ||
                        side_new(&Y, sy, map, n, &x->prob) != EM_OK ||
                        dist_init(&D[0], n) != EM_OK || dist_init(&D[1], n) != EM_OK))
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 2 && st == EM_OK; k++) {
        const side *s = k ? &Y : &X;
        st = pf ? em_pf_pmf_bounds(&s->prob, PREC, D[k].lo, D[k].hi)
                : ideal_em(&D[k], s, measure);
        if (st != EM_OK)
            em_err(err, st, "%s", em_strerror(st));
    }
    if (st == EM_OK && block(&r->ideal, &D[0], &D[1], x->eps, ideal_equal(&X, &Y)) != EM_OK)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK && !pf) {
        st = exact_finite(x, &X, &Y, r, err);
        /* a weight beyond the weighted oracle's exponent range: only the enclosure (the
           finite oracle's intervals take any exact utility) */
        if (st == EM_ERR_UNDECIDED && !measure)
            st = EM_OK;
    }
    if (st == EM_OK && !pf && !measure && float_block(x, &X, &Y, r) != EM_OK)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK && cx && empirical(r, D, map, cx, cy, conf, x->eps) != EM_OK)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK && !r->exact) { /* no exact loss: the enclosure's */
        const em_audit_block *b = &r->ideal;
        r->loss = strdup(b->loss);
        r->loss_d = b->infinite ? INFINITY : strtod(b->loss, NULL);
        r->within = b->verdict == EM_VERDICT_PASS;
        if (!r->loss || width_from_block(r, pf) != EM_OK)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (st == EM_OK) {
        /* the exact verdict replaces the ideal block's where it exists (measure) */
        int vi = measure ? (r->within ? EM_VERDICT_PASS : EM_VERDICT_REJECT) : r->ideal.verdict;
        int vf = r->fp.computed ? r->fp.verdict : EM_VERDICT_PASS;
        r->verdict = vi == EM_VERDICT_REJECT || vf == EM_VERDICT_REJECT || r->empirical_violation
                         ? EM_VERDICT_REJECT
                     : vi == EM_VERDICT_UNDECIDED || vf == EM_VERDICT_UNDECIDED
                         ? EM_VERDICT_UNDECIDED
                         : EM_VERDICT_PASS;
    }
    dist_free(&D[0]);
    dist_free(&D[1]);
    side_free(&X);
    side_free(&Y);
    free(map);
    return st;
}

int em_audit_laws(em_mech *x, em_mech *y, const em_draws *dx, const em_draws *dy,
                  double confidence, em_audit_result **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_audit: out is NULL");
    *out = NULL;
    if (!x || !y || !dx != !dy)
        return em_err(err, EM_ERR_NULL, "em_audit: a mechanism NULL, or draws of one side only");
    if (dx && (x->scn->continuous || y->scn->continuous))
        return em_err(err, EM_ERR_DOMAIN, "draws are not available for continuous scenarios");
    /* the draws first, as they were read before the pair was judged */
    uint64_t *c[2] = {NULL, NULL}, total;
    int st = EM_OK;
    for (int k = 0; dx && k < 2 && st == EM_OK; k++) {
        const em_draws *d = k ? dy : dx;
        st = em_judge_draws_form(d, "em_audit", err);
        if (st == EM_OK)
            st = em_judge_counts((k ? y : x)->scn, d, &c[k], &total, err);
    }
    if (st == EM_OK)
        st = check_pair(x, y, err);
    if (st == EM_OK && dx && !(confidence > 0 && confidence < 1))
        st = em_err(err, EM_ERR_DOMAIN, "confidence %g: expected a number in (0, 1)",
                    confidence);
    em_audit_result *r = NULL;
    if (st == EM_OK && !(r = em_obj_new(sizeof *r, audit_result_destroy)))
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK) {
        r->ideal.where = r->fp.where = EM_JUDGE_NONE;
        r->continuous = x->scn->continuous;
        st = r->continuous ? audit_cont(x, y, r, err)
                           : audit_finite(x, y, c[0], c[1], confidence, r, err);
    }
    free(c[0]);
    free(c[1]);
    if (!r)
        return st;
    return EM_HAND_OUT(st, r, em_free, out, err);
}
