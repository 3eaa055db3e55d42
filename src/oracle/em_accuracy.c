/* em_accuracy.c: permute-and-flip's utility report and the accuracy theorem's bounds,
 * correctly rounded by em_round over interval bounds (em_accuracy.h). */
#include <stdlib.h>

#include <mpfr.h>

#include "expmech.h"
#include "oracle/em_accuracy.h"
#include "oracle/em_exponents.h"
#include "oracle/em_pf_law.h"

/* ------------------------------------------------ rounding without an exact comparison */

typedef int (*bounds_fn)(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi);

/* Every context below starts with its bounds, so that one comparison serves them all. */
struct head {
    bounds_fn bounds;
};

/* sign(v - B) from bounds at rising precision: a value equal to B is never decided
 * (EM_ERR_UNDECIDED), and em_accuracy.h says which values are rational */
static int refine_cmp(void *ctx, const mpq_t B, int *sign)
{
    const struct head *h = ctx;
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    int st = EM_ERR_UNDECIDED;
    for (mpfr_prec_t p = 64; p <= EM_CONT_MAX_PREC; p *= 2) {
        mpfr_set_prec(lo, p);
        mpfr_set_prec(hi, p);
        int s = h->bounds(ctx, p, lo, hi);
        if (s != EM_OK) {
            st = s;
            break;
        }
        if (mpfr_cmp_q(lo, B) > 0 || mpfr_cmp_q(hi, B) < 0) {
            *sign = mpfr_cmp_q(lo, B) > 0 ? 1 : -1;
            st = EM_OK;
            break;
        }
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return st;
}

/* [0, tiny] with tiny at the bottom of MPFR's widest range: no precision separates the
 * value from 0 (these sums have no logarithmic fallback) */
static int below_range(const mpfr_t lo, const mpfr_t hi)
{
    return mpfr_zero_p(lo) && !mpfr_zero_p(hi) && mpfr_get_exp(hi) <= mpfr_get_emin_min() + 64;
}

/* the first precision tried: K digits and a margin (em_round raises it as needed) */
static mpfr_prec_t prec0(int K) { return (mpfr_prec_t)(K * 3.33) + 40; }

static int round_ziv(void *ctx, int K, em_cval *out)
{
    em_rval rv = {((struct head *)ctx)->bounds, refine_cmp, ctx};
    return em_round(&rv, K, prec0(K), out);
}

struct rat {
    struct head h;
    mpq_srcptr q;
};

static int rat_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    (void)prec;
    const struct rat *r = ctx;
    mpfr_set_q(lo, r->q, MPFR_RNDD);
    mpfr_set_q(hi, r->q, MPFR_RNDU);
    return EM_OK;
}

static int rat_cmp(void *ctx, const mpq_t B, int *sign)
{
    int c = mpq_cmp(((const struct rat *)ctx)->q, B);
    *sign = (c > 0) - (c < 0);
    return EM_OK;
}

/* an exact rational, correctly rounded (ties to even) */
static int round_rat(const mpq_t q, int K, em_cval *out)
{
    struct rat r = {{rat_bounds}, q};
    em_rval rv = {rat_bounds, rat_cmp, &r};
    return em_round(&rv, K, prec0(K), out);
}

/* ------------------------------------------------------------ permute-and-flip */

struct em_pfu {
    size_t n, left, modes;  /* candidates; not excluded; at opt */
    mpq_t *u;
    const unsigned char *excluded;
    mpq_srcptr eps, delta;
    int K;
    mpq_t opt;
    mpq_t *loss;            /* opt - u_i (0 where excluded) */
    mpfr_prec_t prec;       /* of lo and hi; 0 before the first pass */
    mpfr_t *lo, *hi;        /* the pmf's bounds */
    em_usrc src;
    em_pfl *law;            /* built on the first pass */
    int stuck;              /* a probability below MPFR's range: its lower bound stays 0 */
};

int em_pfu_new(size_t n, mpq_t *u, const unsigned char *excluded, const mpq_t eps,
               const mpq_t delta, int digits, em_pfu **out)
{
    em_pfu *P = calloc(1, sizeof *P);
    if (!P)
        return EM_ERR_NOMEM;
    P->loss = malloc(n * sizeof *P->loss);
    P->lo = malloc(n * sizeof *P->lo);
    P->hi = malloc(n * sizeof *P->hi);
    if (!P->loss || !P->lo || !P->hi) {
        free(P->loss);
        free(P->lo);
        free(P->hi);
        free(P);
        return EM_ERR_NOMEM;
    }
    P->n = n;
    P->u = u;
    P->src.get = em_usrc_array_get;
    P->src.ctx = u;
    P->excluded = excluded;
    P->eps = eps;
    P->delta = delta;
    P->K = digits;
    mpq_init(P->opt);
    for (size_t i = 0; i < n; i++) {
        mpq_init(P->loss[i]);
        mpfr_inits2(64, P->lo[i], P->hi[i], (mpfr_ptr)0);
        if (!excluded[i] && (P->left++ == 0 || mpq_cmp(u[i], P->opt) > 0))
            mpq_set(P->opt, u[i]);
    }
    for (size_t i = 0; i < n; i++)
        if (!excluded[i]) {
            mpq_sub(P->loss[i], P->opt, u[i]);
            P->modes += mpq_sgn(P->loss[i]) == 0;
        }
    *out = P;
    return EM_OK;
}

void em_pfu_free(em_pfu *P)
{
    if (!P)
        return;
    for (size_t i = 0; i < P->n; i++) {
        mpq_clear(P->loss[i]);
        mpfr_clears(P->lo[i], P->hi[i], (mpfr_ptr)0);
    }
    mpq_clear(P->opt);
    em_pfl_free(P->law);
    free(P->loss);
    free(P->lo);
    free(P->hi);
    free(P);
}

/* the pmf's bounds at prec bits at least */
static int pmf(em_pfu *P, mpfr_prec_t prec)
{
    if (P->prec >= prec)
        return EM_OK;
    for (size_t i = 0; i < P->n; i++) {
        mpfr_set_prec(P->lo[i], prec);
        mpfr_set_prec(P->hi[i], prec);
    }
    P->prec = 0;
    int st = P->law ? EM_OK
                    : em_pfl_new(P->n, &P->src, P->excluded, P->eps, P->delta, EM_STANDARD,
                                 &P->law);
    if (st == EM_OK)
        st = em_pfl_bounds(P->law, prec, P->lo, P->hi);
    P->stuck = 0;
    for (size_t i = 0; i < P->n && st == EM_OK; i++)
        P->stuck |= !P->excluded[i] && mpfr_zero_p(P->lo[i]);
    if (st == EM_OK)
        P->prec = prec;
    return st;
}

enum { Q_LOSS, Q_EU, Q_SD, Q_BEST, Q_TAIL };

struct pfq {
    struct head h;
    em_pfu *P;
    int kind;
    mpq_srcptr t;           /* Q_TAIL */
};

/* E[loss] in [lo, hi] */
static void loss_mean(const em_pfu *P, mpfr_t lo, mpfr_t hi, mpfr_t a)
{
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    for (size_t i = 0; i < P->n; i++) {
        if (P->excluded[i] || mpq_sgn(P->loss[i]) == 0)
            continue;
        mpfr_set_q(a, P->loss[i], MPFR_RNDD);
        mpfr_mul(a, a, P->lo[i], MPFR_RNDD);
        mpfr_add(lo, lo, a, MPFR_RNDD);
        mpfr_set_q(a, P->loss[i], MPFR_RNDU);
        mpfr_mul(a, a, P->hi[i], MPFR_RNDU);
        mpfr_add(hi, hi, a, MPFR_RNDU);
    }
}

/* Var(loss) = sum P_i (l_i - mean)^2: non-negative terms, no cancellation */
static void loss_var(const em_pfu *P, mpfr_t lo, mpfr_t hi, mpfr_t a, mpfr_t b, mpfr_t mlo,
                     mpfr_t mhi)
{
    loss_mean(P, mlo, mhi, a);
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    for (size_t i = 0; i < P->n; i++) {
        if (P->excluded[i])
            continue;
        mpfr_set_q(a, P->loss[i], MPFR_RNDD);
        mpfr_sub(a, a, mhi, MPFR_RNDD); /* l_i - mean in [a, b] */
        mpfr_set_q(b, P->loss[i], MPFR_RNDU);
        mpfr_sub(b, b, mlo, MPFR_RNDU);
        if (mpfr_sgn(b) <= 0) { /* [b^2, a^2] */
            mpfr_swap(a, b);
            mpfr_neg(a, a, MPFR_RNDN);
            mpfr_neg(b, b, MPFR_RNDN);
        }
        if (mpfr_sgn(a) < 0) { /* 0 inside: [0, max(a^2, b^2)] */
            mpfr_neg(a, a, MPFR_RNDN);
            mpfr_max(b, a, b, MPFR_RNDU);
            mpfr_set_zero(a, 1);
        }
        mpfr_sqr(a, a, MPFR_RNDD);
        mpfr_mul(a, a, P->lo[i], MPFR_RNDD);
        mpfr_add(lo, lo, a, MPFR_RNDD);
        mpfr_sqr(b, b, MPFR_RNDU);
        mpfr_mul(b, b, P->hi[i], MPFR_RNDU);
        mpfr_add(hi, hi, b, MPFR_RNDU);
    }
}

static int pfq_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    const struct pfq *q = ctx;
    em_pfu *P = q->P;
    int st = pmf(P, prec);
    if (st != EM_OK)
        return st;
    mpfr_prec_t p = mpfr_get_prec(lo) > mpfr_get_prec(hi) ? mpfr_get_prec(lo) : mpfr_get_prec(hi);
    mpfr_t a, b, c, d;
    mpfr_inits2(p + 16, a, b, c, d, (mpfr_ptr)0);
    switch (q->kind) {
    case Q_LOSS:
        loss_mean(P, lo, hi, a);
        break;
    case Q_EU: /* opt - E[loss] */
        loss_mean(P, b, c, a);
        mpfr_set_q(a, P->opt, MPFR_RNDD);
        mpfr_sub(lo, a, c, MPFR_RNDD);
        mpfr_set_q(a, P->opt, MPFR_RNDU);
        mpfr_sub(hi, a, b, MPFR_RNDU);
        break;
    case Q_SD:
        loss_var(P, lo, hi, a, b, c, d);
        if (below_range(lo, hi)) /* sqrt would lift it into the range: still undecidable */
            break;
        mpfr_sqrt(lo, lo, MPFR_RNDD);
        mpfr_sqrt(hi, hi, MPFR_RNDU);
        break;
    default: /* a sum of probabilities: those at opt, or those losing more than t */
        mpfr_set_zero(lo, 1);
        mpfr_set_zero(hi, 1);
        for (size_t i = 0; i < P->n; i++)
            if (!P->excluded[i] && (q->kind == Q_BEST ? mpq_sgn(P->loss[i]) == 0
                                                      : mpq_cmp(P->loss[i], q->t) > 0)) {
                mpfr_add(lo, lo, P->lo[i], MPFR_RNDD);
                mpfr_add(hi, hi, P->hi[i], MPFR_RNDU);
            }
        if (mpfr_cmp_ui(hi, 1) > 0)
            mpfr_set_ui(hi, 1, MPFR_RNDN);
        break;
    }
    mpfr_clears(a, b, c, d, (mpfr_ptr)0);
    /* A sum whose lower bound is 0 with a probability below the range: every term that could
     * make it positive has that probability's lower bound 0 at any precision (the others'
     * are positive), so no precision decides it */
    if (q->kind != Q_EU && P->stuck && mpfr_sgn(lo) <= 0)
        return EM_ERR_UNDECIDED;
    return below_range(lo, hi) ? EM_ERR_UNDECIDED : EM_OK;
}

static int pf_round(em_pfu *P, int kind, mpq_srcptr t, em_cval *out)
{
    struct pfq q = {{pfq_bounds}, P, kind, t};
    return round_ziv(&q, P->K, out);
}

int em_pfu_utility(em_pfu *P, em_cval *opt, em_cval *eu, em_cval *loss, em_cval *sd,
                   em_cval *p_best)
{
    if (!P || !opt || !eu || !loss || !sd || !p_best)
        return EM_ERR_NULL;
    int st = round_rat(P->opt, P->K, opt);
    if (st == EM_OK && P->modes == P->left) { /* every output at opt: no loss, exactly */
        st = round_rat(P->opt, P->K, eu);
        if (st == EM_OK)
            st = em_cval_exact(loss, "0", 0.0);
        if (st == EM_OK)
            st = em_cval_exact(sd, "0", 0.0);
        return st == EM_OK ? em_cval_exact(p_best, "1", 1.0) : st;
    }
    if (st == EM_OK)
        st = pf_round(P, Q_EU, NULL, eu);
    if (st == EM_OK)
        st = pf_round(P, Q_LOSS, NULL, loss);
    if (st == EM_OK)
        st = pf_round(P, Q_SD, NULL, sd);
    return st == EM_OK ? pf_round(P, Q_BEST, NULL, p_best) : st;
}

int em_pfu_loss_tail(em_pfu *P, const mpq_t t, em_cval *out)
{
    if (!P || !t || !out)
        return EM_ERR_NULL;
    if (mpq_sgn(t) < 0)
        return EM_ERR_DOMAIN;
    size_t k = 0;
    for (size_t i = 0; i < P->n; i++)
        k += !P->excluded[i] && mpq_cmp(P->loss[i], t) > 0;
    /* none: exactly 0; some: a sum of probabilities below 1 (a mode has mass) */
    return k == 0 ? em_cval_exact(out, "0", 0.0) : pf_round(P, Q_TAIL, t, out);
}

/* ------------------------------------------------------------- the theorem */

struct thm {
    struct head h;
    mpq_srcptr ratio, c;
    mpq_t x;                /* -c t (the tail bound) */
    int tail;
};

static int thm_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    const struct thm *T = ctx;
    mpfr_t a;
    mpfr_init2(a, prec + 16);
    for (int up = 0; up < 2; up++) {
        mpfr_rnd_t r = up ? MPFR_RNDU : MPFR_RNDD;
        mpfr_ptr v = up ? hi : lo;
        if (T->tail) { /* ratio exp(-c t) */
            mpfr_set_q(a, T->x, r);
            mpfr_exp(a, a, r);
            mpfr_mul_q(v, a, T->ratio, r);
        } else { /* (ln ratio + 1) / c, ratio >= 1 */
            mpfr_set_q(a, T->ratio, r);
            mpfr_log(a, a, r);
            mpfr_add_ui(a, a, 1, r);
            mpfr_div_q(v, a, T->c, r);
        }
    }
    mpfr_clear(a);
    return below_range(lo, hi) ? EM_ERR_UNDECIDED : EM_OK;
}

int em_theorem_bounds(const mpq_t ratio, const mpq_t c, const mpq_t t, int digits,
                      em_cval *eb, em_cval *pb)
{
    if (!ratio || !c || (t && !pb))
        return EM_ERR_NULL;
    if (mpq_cmp_ui(ratio, 1, 1) < 0 || mpq_sgn(c) <= 0 || (t && mpq_sgn(t) < 0))
        return EM_ERR_DOMAIN;
    struct thm T;
    T.h.bounds = thm_bounds;
    T.ratio = ratio;
    T.c = c;
    T.tail = 0;
    mpq_init(T.x);
    int st = EM_OK;
    if (eb && mpq_cmp_ui(ratio, 1, 1) == 0) { /* ln 1 = 0: 1/c, rational */
        mpq_inv(T.x, c);
        st = round_rat(T.x, digits, eb);
    } else if (eb) { /* ln of a rational other than 1: transcendental (Lindemann) */
        st = round_ziv(&T, digits, eb);
    }
    if (st == EM_OK && t) {
        mpq_mul(T.x, c, t);
        mpq_neg(T.x, T.x);
        T.tail = 1;
        int s = 1;
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        /* t > 0: ratio exp(-c t) is transcendental, never exactly 1 */
        if (mpq_sgn(t) > 0)
            st = refine_cmp(&T, one, &s);
        mpq_clear(one);
        if (st == EM_OK)
            st = s >= 0 ? em_cval_exact(pb, "1", 1.0) : round_ziv(&T, digits, pb);
    }
    mpq_clear(T.x);
    return st;
}
