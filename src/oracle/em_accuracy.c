/* em_accuracy.c: permute-and-flip's utility report and the accuracy theorem's bounds,
 * correctly rounded by em_round over interval bounds (em_accuracy.h). */
#include "oracle/em_accuracy.h"

#include <stdlib.h>

#include <mpfr.h>

#include "em_base.h"
#include "base/em_error.h"
#include "core/em_params.h"
#include "num/em_bounds.h"
#include "num/em_fromlog.h"
#include "oracle/em_exponents.h"
#include "oracle/em_pf.h"
#include "oracle/em_problem.h"

/* ------------------------------------------------ rounding without an exact comparison */

static mpfr_prec_t prec0(int K) { return 128 + (mpfr_prec_t)(K * 3.33) + 64; }

/* A value known by its bounds alone (em_round refines them; em_accuracy.h says which
 * values are rational and are rounded exactly instead). */
static int round_ziv(em_round_bounds_fn bounds, void *ctx, int K, em_cval *out)
{
    em_rval rv = {bounds, NULL, ctx};
    return em_round(&rv, K, prec0(K), out);
}

/* ------------------------------------------------------------ permute-and-flip */

struct em_pf_utility {
    size_t n, left, modes;  /* candidates; not excluded; at opt */
    em_problem prob;        /* the problem, over the copies below */
    mpq_t *u;               /* its utilities (0 where excluded) */
    unsigned char *excluded;
    int K;
    mpq_t opt;
    mpq_t *loss;            /* opt - u_i (0 where excluded) */
    em_pf_bounds *B;        /* the pmf's bounds at the highest precision asked */
    mpfr_t *lo, *hi;        /* in B, after pmf() */
    int stuck;              /* a probability lies below MPFR's range (its lower bound 0) */
};

int em_pf_utility_new(const em_problem *Q, int digits, em_pf_utility **out, em_error *err)
{
    int st = em_problem_check(Q, err);
    if (st != EM_OK)
        return st;
    const size_t n = Q->n;
    em_pf_utility *P = calloc(1, sizeof *P);
    if (!P)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_problem_init(&P->prob);
    mpq_init(P->opt);
    P->n = n;
    P->K = digits;
    P->u = em_q_array_copy(Q);
    P->excluded = calloc(n, 1);
    P->loss = malloc(n * sizeof *P->loss);
    em_problem_params(&P->prob, Q->eps, Q->delta, Q->variant, NULL);
    P->prob.n = n;
    P->prob.u = P->u;
    P->prob.excluded = P->excluded;
    if (!P->u || !P->excluded || !P->loss) {
        free(P->loss);
        P->loss = NULL;
        em_pf_utility_free(P);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        P->excluded[i] = em_problem_excluded(Q, i);
        mpq_init(P->loss[i]);
        if (!P->excluded[i] && (P->left++ == 0 || mpq_cmp(P->u[i], P->opt) > 0))
            mpq_set(P->opt, P->u[i]);
    }
    /* the law reads the problem at once: after its exclusions are copied */
    if ((st = em_pf_bounds_new(&P->prob, &P->B)) != EM_OK) {
        em_pf_utility_free(P);
        return em_err(err, st, "%s", em_strerror(st));
    }
    for (size_t i = 0; i < n; i++)
        if (!P->excluded[i]) {
            mpq_sub(P->loss[i], P->opt, P->u[i]);
            P->modes += mpq_sgn(P->loss[i]) == 0;
        }
    *out = P;
    return EM_OK;
}

void em_pf_utility_free(em_pf_utility *P)
{
    if (!P)
        return;
    if (P->loss)
        for (size_t i = 0; i < P->n; i++)
            mpq_clear(P->loss[i]);
    em_pf_bounds_free(P->B);
    if (P->u)
        for (size_t i = 0; i < P->n; i++)
            mpq_clear(P->u[i]);
    em_problem_clear(&P->prob);
    mpq_clear(P->opt);
    free(P->u);
    free(P->excluded);
    free(P->loss);
    free(P);
}

/* The most bits a value of the report is refined to: one within 2^-8192 (relatively) of a
 * rounding boundary is undecided, an error.  The law costs memory in the square of the bits:
 * an expected utility of 8763055 - 10^-634285 at 6 digits (a hair below the tie 8.763055e6)
 * asked for 108 000 bits and gigabytes before the limit of em_round. */

/* the pmf's bounds at prec bits at least into P->lo, P->hi */
static int pmf(em_pf_utility *P, mpfr_prec_t prec)
{
    if (prec > EM_PF_REPORT_MAX_PREC)
        return EM_ERR_UNDECIDED;
    return em_pf_bounds_at(P->B, prec, &P->lo, &P->hi);
}

enum { Q_LOSS, Q_EU, Q_SD, Q_BEST, Q_TAIL };

struct pfq {
    em_pf_utility *P;
    int kind;
    mpq_srcptr t;           /* Q_TAIL */
};

/* E[loss] in [lo, hi] */
static void loss_mean(const em_pf_utility *P, mpfr_t lo, mpfr_t hi, mpfr_t a)
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
static void loss_var(const em_pf_utility *P, mpfr_t lo, mpfr_t hi, mpfr_t a, mpfr_t b, mpfr_t mlo,
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
    em_pf_utility *P = q->P;
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
        if (em_bounds_below_range(lo, hi)) /* sqrt would lift it into the range */
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
    /* A sum whose lower bound is 0 while a probability lies below MPFR's range: every term
     * that could make it positive has that probability's lower bound 0 at any precision
     * (the others' are positive), so no precision decides it */
    P->stuck = 0;
    for (size_t i = 0; i < P->n && !P->stuck; i++)
        P->stuck = !P->excluded[i] && mpfr_zero_p(P->lo[i]);
    if (P->stuck && (q->kind != Q_EU ? mpfr_sgn(lo) <= 0 : mpq_sgn(P->opt) == 0))
        return EM_ERR_UNDECIDED; /* pf_round goes to the logarithms */
    return em_bounds_below_range(lo, hi) ? EM_ERR_UNDECIDED : EM_OK;
}

/* ------------------------------------------------ the sums from the logarithms */

/* Term i of a sum in the log domain, a <= ln(w_i P_i) <= b (0: no term): the loss
 * l_i P_i (l_i > 0), a tail's P_i (l_i > t), the variance's P_i (l_i - mean)^2 with
 * ln|l_i - mean| in [c1, c2] given (mean's linear bounds m1, m2 and logarithm's M1, M2). */
struct lterm {
    const struct pfq *q;
    mpfr_t *L, *H;          /* log P bounds */
    mpfr_srcptr m1, m2, M1, M2;
    mpfr_t x, y;            /* scratch */
};

static int term(struct lterm *T, size_t i, mpfr_t a, mpfr_t b)
{
    const em_pf_utility *P = T->q->P;
    mpq_srcptr l = P->loss[i];
    if (P->excluded[i])
        return 0;
    switch (T->q->kind) {
    case Q_TAIL:
        if (mpq_cmp(l, T->q->t) <= 0)
            return 0;
        mpfr_set(a, T->L[i], MPFR_RNDD);
        mpfr_set(b, T->H[i], MPFR_RNDU);
        return 1;
    case Q_SD:
        if (mpq_sgn(l) == 0) { /* |0 - mean| = mean */
            mpfr_set(a, T->M1, MPFR_RNDD);
            mpfr_set(b, T->M2, MPFR_RNDU);
        } else {
            mpfr_set_q(T->x, l, MPFR_RNDD);
            mpfr_sub(T->x, T->x, T->m2, MPFR_RNDD); /* l - mean in [x, y] */
            mpfr_set_q(T->y, l, MPFR_RNDU);
            mpfr_sub(T->y, T->y, T->m1, MPFR_RNDU);
            if (mpfr_sgn(T->y) < 0) { /* |l - mean| in [-y, -x] */
                mpfr_swap(T->x, T->y);
                mpfr_neg(T->x, T->x, MPFR_RNDN);
                mpfr_neg(T->y, T->y, MPFR_RNDN);
            } else if (mpfr_sgn(T->x) < 0) { /* 0 inside */
                mpfr_neg(T->x, T->x, MPFR_RNDN);
                mpfr_max(T->y, T->x, T->y, MPFR_RNDU);
                mpfr_set_zero(T->x, 1);
            }
            mpfr_log(a, T->x, MPFR_RNDD);
            mpfr_log(b, T->y, MPFR_RNDU);
        }
        mpfr_mul_2ui(a, a, 1, MPFR_RNDD);
        mpfr_add(a, a, T->L[i], MPFR_RNDD);
        mpfr_mul_2ui(b, b, 1, MPFR_RNDU);
        mpfr_add(b, b, T->H[i], MPFR_RNDU);
        return 1;
    default: /* the loss */
        if (mpq_sgn(l) == 0)
            return 0;
        mpfr_set_q(T->x, l, MPFR_RNDD);
        mpfr_log(a, T->x, MPFR_RNDD);
        mpfr_add(a, a, T->L[i], MPFR_RNDD);
        mpfr_set_q(T->y, l, MPFR_RNDU);
        mpfr_log(b, T->y, MPFR_RNDU);
        mpfr_add(b, b, T->H[i], MPFR_RNDU);
        return 1;
    }
}

/* lo <= ln sum_i exp(term i) <= hi, at lo's precision: each end shifted by its largest
 * term, so that no exponential leaves the range (a sum without terms: -inf) */
static void log_sum(struct lterm *T, mpfr_t lo, mpfr_t hi)
{
    const mpfr_prec_t p = mpfr_get_prec(lo);
    mpfr_t a, b, s1, s2;
    mpfr_inits2(p, a, b, s1, s2, (mpfr_ptr)0);
    mpfr_set_inf(lo, -1);
    mpfr_set_inf(hi, -1);
    for (size_t i = 0; i < T->q->P->n; i++)
        if (term(T, i, a, b)) {
            mpfr_max(lo, lo, a, MPFR_RNDD);
            mpfr_max(hi, hi, b, MPFR_RNDU);
        }
    mpfr_set_zero(s1, 1);
    mpfr_set_zero(s2, 1);
    for (size_t i = 0; mpfr_number_p(hi) && i < T->q->P->n; i++)
        if (term(T, i, a, b)) {
            if (mpfr_number_p(lo) && mpfr_number_p(a)) {
                mpfr_sub(a, a, lo, MPFR_RNDD);
                mpfr_exp(a, a, MPFR_RNDD);
                mpfr_add(s1, s1, a, MPFR_RNDD);
            }
            mpfr_sub(b, b, hi, MPFR_RNDU);
            mpfr_exp(b, b, MPFR_RNDU);
            mpfr_add(s2, s2, b, MPFR_RNDU);
        }
    if (mpfr_number_p(lo)) {
        mpfr_log(s1, s1, MPFR_RNDD);
        mpfr_add(lo, lo, s1, MPFR_RNDD);
    }
    if (mpfr_number_p(hi)) {
        mpfr_log(s2, s2, MPFR_RNDU);
        mpfr_add(hi, hi, s2, MPFR_RNDU);
    }
    mpfr_clears(a, b, s1, s2, (mpfr_ptr)0);
}

/* The logarithm of a sum whose terms lie below MPFR's range (E[loss], also for E[u] =
 * -E[loss] when opt = 0; a tail; the sd, half the variance's) */
static int pfq_log_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    const struct pfq *q = ctx;
    em_pf_utility *P = q->P;
    struct lterm T = {q, NULL, NULL, NULL, NULL, NULL, NULL, {{0}}, {{0}}};
    int st = em_pf_bounds_logs_at(P->B, prec, &T.L, &T.H);
    if (st == EM_OK && q->kind == Q_SD)
        st = pmf(P, prec);
    if (st != EM_OK)
        return st;
    mpfr_prec_t p = prec;
    for (size_t i = 0; i < P->n; i++) {
        if (mpfr_get_prec(T.L[i]) > p)
            p = mpfr_get_prec(T.L[i]);
        if (mpfr_get_prec(T.H[i]) > p)
            p = mpfr_get_prec(T.H[i]);
    }
    p += 16;
    mpfr_set_prec(lo, p);
    mpfr_set_prec(hi, p);
    mpfr_t m1, m2, M1, M2;
    mpfr_inits2(p, m1, m2, M1, M2, T.x, T.y, (mpfr_ptr)0);
    if (q->kind == Q_SD) { /* the mean, linear and logarithmic */
        struct pfq qm = {P, Q_LOSS, NULL};
        struct lterm Tm = T;
        Tm.q = &qm;
        loss_mean(P, m1, m2, T.x);
        log_sum(&Tm, M1, M2);
        T.m1 = m1;
        T.m2 = m2;
        T.M1 = M1;
        T.M2 = M2;
    }
    log_sum(&T, lo, hi);
    if (q->kind == Q_SD) {
        mpfr_div_2ui(lo, lo, 1, MPFR_RNDD);
        mpfr_div_2ui(hi, hi, 1, MPFR_RNDU);
    }
    mpfr_clears(m1, m2, M1, M2, T.x, T.y, (mpfr_ptr)0);
    return mpfr_number_p(lo) && mpfr_number_p(hi) ? EM_OK : EM_ERR_UNDECIDED;
}

static int pf_round(em_pf_utility *P, int kind, mpq_srcptr t, em_cval *out)
{
    struct pfq q = {P, kind, t};
    int st = round_ziv(pfq_bounds, &q, P->K, out);
    if (st == EM_ERR_UNDECIDED && P->stuck && kind != Q_BEST &&
        (kind != Q_EU || mpq_sgn(P->opt) == 0)) {
        /* a sum below MPFR's range: decided from its logarithm (E[u] = -E[loss] here) */
        em_rval rv = {pfq_log_bounds, NULL, &q};
        st = em_round_exp(&rv, kind == Q_EU, P->K, prec0(P->K), out);
    }
    return st;
}

int em_pf_utility_moments(em_pf_utility *P, em_cval *opt, em_cval *eu, em_cval *loss, em_cval *sd,
                          em_cval *p_best)
{
    if (!P || !opt || !eu || !loss || !sd || !p_best)
        return EM_ERR_NULL;
    int st = em_round_q(P->opt, P->K, opt);
    if (st == EM_OK && P->modes == P->left) { /* every output at opt: no loss, exactly */
        st = em_round_q(P->opt, P->K, eu);
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

int em_pf_utility_loss_tail(em_pf_utility *P, const mpq_t t, em_cval *out)
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
    mpq_srcptr ratio, c;
    mpq_t x;                /* -c t (the tail bound) */
    int tail;
};

/* The bounds of the theorem's quantity (in_log: of the logarithm of the tail bound) in one
 * pass per rounding direction */
static int thm_encl(const struct thm *T, int in_log, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    mpfr_t a;
    mpfr_init2(a, prec + 16);
    for (int up = 0; up < 2; up++) {
        mpfr_rnd_t r = up ? MPFR_RNDU : MPFR_RNDD;
        mpfr_ptr v = up ? hi : lo;
        if (in_log) { /* ln(ratio exp(-c t)) = ln ratio - c t */
            mpfr_set_q(a, T->ratio, r);
            mpfr_log(a, a, r);
            mpfr_set_prec(v, prec);
            mpfr_set_q(v, T->x, r);
            mpfr_add(v, v, a, r);
        } else if (T->tail) { /* ratio exp(-c t) */
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
    return !in_log && em_bounds_below_range(lo, hi) ? EM_ERR_UNDECIDED : EM_OK;
}

static int thm_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    return thm_encl(ctx, 0, prec, lo, hi);
}

/* The logarithm: an ordinary number when the bound itself lies below MPFR's exponent range
 * (t = 1e400) */
static int thm_log_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    return thm_encl(ctx, 1, prec, lo, hi);
}

int em_theorem_bounds(const mpq_t ratio, const mpq_t c, const mpq_t t, int digits,
                      em_cval *eb, em_cval *pb)
{
    if (!ratio || !c || (t && !pb))
        return EM_ERR_NULL;
    if (mpq_cmp_ui(ratio, 1, 1) < 0 || mpq_sgn(c) <= 0 || (t && mpq_sgn(t) < 0))
        return EM_ERR_DOMAIN;
    struct thm T;
    T.ratio = ratio;
    T.c = c;
    T.tail = 0;
    mpq_init(T.x);
    int st = EM_OK;
    if (eb && mpq_cmp_ui(ratio, 1, 1) == 0) { /* ln 1 = 0: 1/c, rational */
        mpq_inv(T.x, c);
        st = em_round_q(T.x, digits, eb);
    } else if (eb) { /* ln of a rational other than 1: transcendental (Lindemann) */
        st = round_ziv(thm_bounds, &T, digits, eb);
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
        int tiny = 0;
        if (mpq_sgn(t) > 0) {
            /* ln of the bound first: far below 0, the bound is decided from it (below
             * MPFR's exponent range it has no other bits) */
            mpfr_t llo, lhi;
            mpfr_inits2(64, llo, lhi, (mpfr_ptr)0);
            thm_log_bounds(&T, 64, llo, lhi);
            tiny = mpfr_cmp_si(lhi, -1000000) < 0;
            mpfr_clears(llo, lhi, (mpfr_ptr)0);
            if (!tiny) {
                em_rval rv = {thm_bounds, NULL, &T};
                st = em_round_cmp(&rv, 64, one, &s);
            } else {
                s = -1;
            }
        }
        mpq_clear(one);
        if (st == EM_OK && tiny)
            st = em_round_from_log(thm_log_bounds, &T, digits,
                                   (mpfr_prec_t)mpz_sizeinbase(mpq_numref(T.x), 2) + 2, pb);
        else if (st == EM_OK)
            st = s >= 0 ? em_cval_exact(pb, "1", 1.0) : round_ziv(thm_bounds, &T, digits, pb);
    }
    mpq_clear(T.x);
    return st;
}
