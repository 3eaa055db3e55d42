/* em_cont_utility.c: expected utility, loss, its standard deviation, P(best), P(loss > t)
 * and interval probabilities, correctly rounded. */
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

/* v = N / D, N and D merged exponential polynomials (D > 0) */
struct ratio {
    em_expoly N, D;
    mpq_t zero;
};

static int ratio_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    struct ratio *R = ctx;
    mpfr_t nlo, nhi, dlo, dhi;
    mpfr_inits2(prec, nlo, nhi, dlo, dhi, (mpfr_ptr)0);
    em_expoly_eval(&R->N, R->zero, prec, nlo, nhi);
    em_expoly_eval(&R->D, R->zero, prec, dlo, dhi);
    mpfr_set_prec(lo, prec);
    mpfr_set_prec(hi, prec);
    if (mpfr_sgn(dlo) <= 0) {
        /* the denominator's interval reaches 0 (cancellation): no information yet */
        mpfr_set_inf(lo, -1);
        mpfr_set_inf(hi, 1);
    } else {
        mpfr_div(lo, nlo, mpfr_sgn(nlo) >= 0 ? dhi : dlo, MPFR_RNDD);
        mpfr_div(hi, nhi, mpfr_sgn(nhi) >= 0 ? dlo : dhi, MPFR_RNDU);
    }
    mpfr_clears(nlo, nhi, dlo, dhi, (mpfr_ptr)0);
    return EM_OK;
}

static int ratio_cmp(void *ctx, const mpq_t B, int *sign)
{
    struct ratio *R = ctx;
    em_expoly P;
    em_expoly_init(&P);
    mpq_t mb;
    mpq_init(mb);
    mpq_neg(mb, B);
    int st = EM_OK;
    for (size_t i = 0; i < R->N.n && st == EM_OK; i++)
        st = em_expoly_add(&P, R->N.q[i], R->N.t[i]);
    for (size_t i = 0; i < R->D.n && st == EM_OK; i++) {
        mpq_t q;
        mpq_init(q);
        mpq_mul(q, mb, R->D.q[i]);
        st = em_expoly_add(&P, q, R->D.t[i]);
        mpq_clear(q);
    }
    if (st == EM_OK)
        st = em_expoly_sign(&P, sign);
    mpq_clear(mb);
    em_expoly_clear(&P);
    return st;
}

/* sum over pieces of the integral of (u - m)^k exp(c u - T), k = 1 or 2, as terms (atoms:
 * mass (u - m)^k exp(t); m NULL: 0): with v = u - m (the same slope b as u), the
 * antiderivative (1/b) exp(c u - T) w(v) between the ends (b != 0), w = v/c - 1/c^2 (k = 1)
 * or v^2/c - 2v/c^2 + 2/c^3 (k = 2) */
static int append_moment(const em_cont *C, em_expoly *P, const mpq_t m, int k)
{
    mpq_t q, u, ic, w;
    mpq_inits(q, u, ic, w, (mpq_ptr)0);
    mpq_inv(ic, C->c);
    int st = EM_OK;
    for (size_t j = 0; j < C->n && st == EM_OK; j++) {
        if (C->zero[j])
            continue;
        if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) {
            /* atoms, or a flat piece: len v^k exp(tl) */
            mpq_set(u, C->a[j]);
            if (m)
                mpq_sub(u, u, m);
            mpq_mul(q, u, C->len[j]);
            if (k == 2)
                mpq_mul(q, q, u);
            st = em_expoly_add(P, q, C->tl[j]);
            continue;
        }
        for (int e = 0; e < 2 && st == EM_OK; e++) {
            if (e == 0 ? !finite_lo(C, j) : !finite_hi(C, j))
                continue;
            mpq_mul(u, C->b[j], e == 0 ? C->lo[j] : C->hi[j]);
            mpq_add(u, u, C->a[j]);
            if (m)
                mpq_sub(u, u, m);
            mpq_mul(w, u, ic);             /* v/c */
            if (k == 1) {
                mpq_mul(q, ic, ic);
                mpq_sub(q, w, q);          /* v/c - 1/c^2 */
            } else {
                mpq_mul(q, w, u);          /* v^2/c */
                mpq_mul(w, w, ic);         /* v/c^2 */
                mpz_mul_ui(mpq_numref(w), mpq_numref(w), 2);
                mpq_canonicalize(w);
                mpq_sub(q, q, w);
                mpq_mul(w, ic, ic);
                mpq_mul(w, w, ic);         /* 1/c^3 */
                mpz_mul_ui(mpq_numref(w), mpq_numref(w), 2);
                mpq_canonicalize(w);
                mpq_add(q, q, w);
            }
            mpq_div(q, q, C->b[j]);
            if (e == 0)
                mpq_neg(q, q);
            st = em_expoly_add(P, q, e == 0 ? C->tl[j] : C->th[j]);
        }
    }
    mpq_clears(q, u, ic, w, (mpq_ptr)0);
    return st;
}

/* u at the low (hi_end 0) or high end of piece j, or an atom's value (hi_end 0): 0 when
 * that end does not exist (infinite, or the high end of an atom) */
static int end_utility(const em_cont *C, size_t j, int hi_end, mpq_t u)
{
    if (C->kind == EM_CONT_ATOMS) {
        if (hi_end)
            return 0;
        mpq_set(u, C->a[j]);
        return 1;
    }
    if (hi_end ? !finite_hi(C, j) : !finite_lo(C, j))
        return 0;
    mpq_mul(u, C->b[j], hi_end ? C->hi[j] : C->lo[j]);
    mpq_add(u, u, C->a[j]);
    return 1;
}

/* the largest utility over the support (exact) */
static void opt_of(const em_cont *C, mpq_t opt)
{
    int have = 0;
    mpq_t u;
    mpq_init(u);
    for (size_t j = 0; j < C->n; j++)
        for (int e = 0; e < 2; e++)
            if (!C->zero[j] && end_utility(C, j, e, u) && (!have || mpq_cmp(u, opt) > 0)) {
                mpq_set(opt, u);
                have = 1;
            }
    mpq_clear(u);
}

/* to[i] = from[i] merged, in order, from a status st and until the first error; every to[i]
 * initialised, so that all are cleared alike whatever failed */
static int merge_each(int st, em_expoly *const *from, em_expoly *const *to, size_t k)
{
    for (size_t i = 0; i < k; i++)
        em_expoly_init(to[i]);
    for (size_t i = 0; i < k && st == EM_OK; i++)
        st = em_expoly_merged(from[i], to[i]);
    return st;
}

static int cont_utility(em_cont *C, em_cval *eu, em_cval *loss, em_cval *opt)
{
    if (!C || !eu || !loss || !opt)
        return EM_ERR_NULL;
    struct ratio R;
    em_expoly N0, D0;
    em_expoly_init(&N0);
    em_expoly_init(&D0);
    mpq_init(R.zero);
    mpq_t mopt;
    mpq_init(mopt);
    int st = append_moment(C, &N0, NULL, 1);
    if (st == EM_OK)
        st = em_cont_append_z_shifted(C, &D0, C->q_one, R.zero);
    st = merge_each(st, (em_expoly *[]){&D0, &N0}, (em_expoly *[]){&R.D, &R.N}, 2);
    em_rval rv = {ratio_bounds, ratio_cmp, &R};
    if (st == EM_OK)
        st = em_round(&rv, C->K, C->p0, eu);
    if (st == EM_ERR_UNDECIDED) /* below MPFR's range: from its logarithm */
        st = em_cont_ratio_from_log(C, &R.N, &R.D, 0, eu);
    /* loss = OPT - N/D = (OPT D - N) / D */
    opt_of(C, mopt);
    if (st == EM_OK)
        st = em_round_q(mopt, C->K, opt);
    if (st == EM_OK) {
        em_expoly L;
        em_expoly_init(&L);
        for (size_t i = 0; i < D0.n && st == EM_OK; i++) {
            mpq_t q;
            mpq_init(q);
            mpq_mul(q, mopt, D0.q[i]);
            st = em_expoly_add(&L, q, D0.t[i]);
            mpq_clear(q);
        }
        for (size_t i = 0; i < N0.n && st == EM_OK; i++) {
            mpq_t q;
            mpq_init(q);
            mpq_neg(q, N0.q[i]);
            st = em_expoly_add(&L, q, N0.t[i]);
            mpq_clear(q);
        }
        em_expoly_clear(&R.N);
        if (st == EM_OK)
            st = em_expoly_merged(&L, &R.N);
        em_expoly_clear(&L);
        if (st == EM_OK)
            st = em_round(&rv, C->K, C->p0, loss);
        if (st == EM_ERR_UNDECIDED)
            st = em_cont_ratio_from_log(C, &R.N, &R.D, 0, loss);
    }
    em_expoly_clear(&N0);
    em_expoly_clear(&D0);
    em_expoly_clear(&R.N);
    em_expoly_clear(&R.D);
    mpq_clears(R.zero, mopt, (mpq_ptr)0);
    return st;
}

int em_cont_utility(em_cont *C, em_cval *eu, em_cval *loss, em_cval *opt)
{
    EM_WIDEST(cont_utility(C, eu, loss, opt));
}

/* round N / D for merged exponential polynomials (D > 0); "0" exactly when N is empty */
static int round_ratio(em_cont *C, em_expoly *N0, em_expoly *D0, em_cval *out)
{
    struct ratio R;
    mpq_init(R.zero);
    int st = merge_each(EM_OK, (em_expoly *[]){N0, D0}, (em_expoly *[]){&R.N, &R.D}, 2);
    if (st == EM_OK) {
        int same = R.N.n == R.D.n;
        for (size_t i = 0; i < R.N.n && same; i++)
            same = mpq_equal(R.N.q[i], R.D.q[i]) && mpq_equal(R.N.t[i], R.D.t[i]);
        if (R.N.n == 0)
            st = em_cval_exact(out, "0", 0.0);
        else if (same)
            st = em_cval_exact(out, "1", 1.0);
        else {
            em_rval rv = {ratio_bounds, ratio_cmp, &R};
            st = em_round(&rv, C->K, C->p0, out);
            if (st == EM_ERR_UNDECIDED)
                st = em_cont_ratio_from_log(C, &R.N, &R.D, 0, out);
        }
    }
    em_expoly_clear(&R.N);
    em_expoly_clear(&R.D);
    mpq_clear(R.zero);
    return st;
}

/* round N / Z, Z the total mass of the law; "0" exactly when N is empty */
static int round_over_mass(em_cont *C, em_expoly *N, em_cval *out)
{
    em_expoly D;
    em_expoly_init(&D);
    int st = em_cont_append_z_shifted(C, &D, C->q_one, C->q_zero);
    if (st == EM_OK)
        st = round_ratio(C, N, &D, out);
    em_expoly_clear(&D);
    return st;
}

static int cont_interval_prob(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out)
{
    if (!C || !a || !b || !out)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES || mpq_cmp(a, b) > 0)
        return EM_ERR_DOMAIN;
    em_expoly N;
    em_expoly_init(&N);
    int st = em_cont_append_n(C, &N, b, C->q_one, C->q_zero);
    if (st == EM_OK)
        st = em_cont_append_n(C, &N, a, C->q_minus_one, C->q_zero);
    if (st == EM_OK)
        st = round_over_mass(C, &N, out);
    em_expoly_clear(&N);
    if (st == EM_ERR_UNDECIDED) /* below MPFR's range: from its logarithm */
        st = em_cont_deep_interval(C, a, b, out);
    return st;
}

int em_cont_interval_prob(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out)
{
    EM_WIDEST(cont_interval_prob(C, a, b, out));
}


/* the mass of {r in piece j : a + b r < v} (strict), or <= v when le, as terms */
static int append_below(const em_cont *C, em_expoly *P, size_t j, const mpq_t v, int le)
{
    if (C->zero[j])
        return EM_OK;
    const mpq_srcptr one = C->q_one, zero = C->q_zero;
    mpq_t x;
    mpq_init(x);
    int st = EM_OK;
    if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) {
        int c = mpq_cmp(C->a[j], v);
        if (c < 0 || (le && c == 0))
            st = em_cont_append_seg(C, P, j, NULL, one, zero);
        goto out;
    }
    /* the crossing point x = (v - a) / b */
    mpq_sub(x, v, C->a[j]);
    mpq_div(x, x, C->b[j]);
    int below_lo = finite_lo(C, j) && mpq_cmp(x, C->lo[j]) <= 0;
    int above_hi = finite_hi(C, j) && mpq_cmp(x, C->hi[j]) >= 0;
    if (mpq_sgn(C->b[j]) > 0) {
        /* u < v on [lo, x) */
        if (above_hi)
            st = em_cont_append_seg(C, P, j, NULL, one, zero);
        else if (!below_lo)
            st = em_cont_append_seg(C, P, j, x, one, zero);
    } else {
        /* u < v on (x, hi]: the whole piece minus [lo, x] */
        if (below_lo)
            st = em_cont_append_seg(C, P, j, NULL, one, zero);
        else if (!above_hi) {
            st = em_cont_append_seg(C, P, j, NULL, one, zero);
            if (st == EM_OK)
                st = em_cont_append_seg(C, P, j, x, C->q_minus_one, zero);
        }
    }
out:
    mpq_clear(x);
    return st;
}

static int cont_loss_tail(em_cont *C, const mpq_t t, em_cval *out)
{
    if (!C || !t || !out)
        return EM_ERR_NULL;
    if (mpq_sgn(t) < 0)
        return EM_ERR_DOMAIN;
    mpq_t v;
    mpq_init(v);
    opt_of(C, v);
    mpq_sub(v, v, t);
    em_expoly N;
    em_expoly_init(&N);
    int st = EM_OK;
    for (size_t j = 0; j < C->n && st == EM_OK; j++)
        st = append_below(C, &N, j, v, 0);
    if (st == EM_OK)
        st = round_over_mass(C, &N, out);
    em_expoly_clear(&N);
    mpq_clear(v);
    return st;
}

int em_cont_loss_tail(em_cont *C, const mpq_t t, em_cval *out)
{
    EM_WIDEST(cont_loss_tail(C, t, out));
}

static int cont_p_best(em_cont *C, em_cval *out)
{
    if (!C || !out)
        return EM_ERR_NULL;
    mpq_t v;
    mpq_init(v);
    opt_of(C, v);
    em_expoly N;
    em_expoly_init(&N);
    int st = EM_OK;
    /* u = OPT on a set of positive mass: an atom at OPT, or a constant piece at OPT */
    for (size_t j = 0; j < C->n && st == EM_OK; j++)
        if (!C->zero[j] && (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) &&
            mpq_equal(C->a[j], v))
            st = em_cont_append_seg(C, &N, j, NULL, C->q_one, C->q_zero);
    if (st == EM_OK)
        st = round_over_mass(C, &N, out);
    em_expoly_clear(&N);
    mpq_clear(v);
    return st;
}

int em_cont_p_best(em_cont *C, em_cval *out)
{
    EM_WIDEST(cont_p_best(C, out));
}

/* log q for q > 0, without overflow (a double estimate: only a heuristic uses it) */
static double log_q(const mpq_t q)
{
    long en, ed;
    double n = mpz_get_d_2exp(&en, mpq_numref(q)), d = mpz_get_d_2exp(&ed, mpq_denref(q));
    return log(n) - log(d) + (double)(en - ed) * M_LN2;
}

/* The utility where the law's mass is largest, by double estimates of each atom's or
 * piece's log-mass: an atom's (or constant piece's) value, or a sloped piece's value at
 * its denser end.  A heuristic for the variance's centre: any value gives the exact
 * variance, this one the least cancellation. */
static void mass_center(const em_cont *C, mpq_t m)
{
    double best = -INFINITY;
    int have = 0;
    mpq_t u;
    mpq_init(u);
    for (size_t j = 0; j < C->n; j++) {
        if (C->zero[j])
            continue;
        double w;
        if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) {
            mpq_set(u, C->a[j]);
            w = mpq_get_d(C->tl[j]) + (mpq_sgn(C->len[j]) > 0 ? log_q(C->len[j]) : -INFINITY);
        } else {
            int up = mpq_sgn(C->b[j]) * mpq_sgn(C->c) > 0; /* density grows towards hi */
            if (!end_utility(C, j, up, u))
                continue; /* not integrable that way: cannot happen for a valid law */
            w = mpq_get_d(up ? C->th[j] : C->tl[j]);
        }
        if (!have || w > best) {
            best = w;
            mpq_set(m, u);
            have = 1;
        }
    }
    if (!have)
        mpq_set_ui(m, 0, 1);
    mpq_clear(u);
}

/* sd = sqrt(Var u(X)), Var = (N2 Z - N1^2) / Z^2 */
struct sdctx {
    const em_cont *C;
    em_expoly N1, N2, Z;
};

static void expoly_bounds0(const em_expoly *P, mpfr_prec_t p, mpfr_t lo, mpfr_t hi)
{
    mpq_t z;
    mpq_init(z);
    em_expoly_eval(P, z, p, lo, hi);
    mpq_clear(z);
}

static int sd_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    struct sdctx *S = ctx;
    mpfr_t a1, b1, a2, b2, za, zb, x, y;
    mpfr_inits2(prec, a1, b1, a2, b2, za, zb, x, y, (mpfr_ptr)0);
    expoly_bounds0(&S->N1, prec, a1, b1);
    expoly_bounds0(&S->N2, prec, a2, b2);
    expoly_bounds0(&S->Z, prec, za, zb);
    mpfr_set_prec(lo, prec);
    mpfr_set_prec(hi, prec);
    if (mpfr_sgn(za) <= 0) {
        mpfr_set_zero(lo, 1);
        mpfr_set_inf(hi, 1);
    } else {
        /* E[u^2] in [a2/zb or a2/za by sign, ...], E[u] likewise; Var = E2 - E1^2 */
        mpfr_div(x, a2, mpfr_sgn(a2) >= 0 ? zb : za, MPFR_RNDD);   /* E2 lo */
        mpfr_div(y, b2, mpfr_sgn(b2) >= 0 ? za : zb, MPFR_RNDU);   /* E2 hi */
        mpfr_t e1l, e1h, sq;
        mpfr_inits2(prec, e1l, e1h, sq, (mpfr_ptr)0);
        mpfr_div(e1l, a1, mpfr_sgn(a1) >= 0 ? zb : za, MPFR_RNDD);
        mpfr_div(e1h, b1, mpfr_sgn(b1) >= 0 ? za : zb, MPFR_RNDU);
        /* E1^2 in [m, M]: m = 0 if the interval holds 0, else the smaller square */
        mpfr_t m, M;
        mpfr_inits2(prec, m, M, (mpfr_ptr)0);
        if (mpfr_sgn(e1l) <= 0 && mpfr_sgn(e1h) >= 0)
            mpfr_set_zero(m, 1);
        else if (mpfr_sgn(e1l) > 0)
            mpfr_sqr(m, e1l, MPFR_RNDD);
        else
            mpfr_sqr(m, e1h, MPFR_RNDD);
        mpfr_sqr(sq, e1l, MPFR_RNDU);
        mpfr_sqr(M, e1h, MPFR_RNDU);
        if (mpfr_cmp(sq, M) > 0)
            mpfr_set(M, sq, MPFR_RNDU);
        mpfr_sub(x, x, M, MPFR_RNDD);
        mpfr_sub(y, y, m, MPFR_RNDU);
        if (mpfr_sgn(x) < 0)
            mpfr_set_zero(x, 1);
        if (mpfr_sgn(y) < 0)
            mpfr_set_zero(y, 1);
        mpfr_sqrt(lo, x, MPFR_RNDD);
        mpfr_sqrt(hi, y, MPFR_RNDU);
        mpfr_clears(e1l, e1h, sq, m, M, (mpfr_ptr)0);
    }
    mpfr_clears(a1, b1, a2, b2, za, zb, x, y, (mpfr_ptr)0);
    return EM_OK;
}

/* P += coef * A * B */
static int expoly_addmul(em_expoly *P, const em_expoly *A, const em_expoly *B, const mpq_t coef)
{
    if (A->n * B->n > 4000000)
        return EM_ERR_UNDECIDED; /* the exact comparison of a variance: O(n^2) terms */
    mpq_t q, t;
    mpq_inits(q, t, (mpq_ptr)0);
    int st = EM_OK;
    for (size_t i = 0; i < A->n && st == EM_OK; i++)
        for (size_t j = 0; j < B->n && st == EM_OK; j++) {
            mpq_mul(q, A->q[i], B->q[j]);
            mpq_mul(q, q, coef);
            mpq_add(t, A->t[i], B->t[j]);
            st = em_expoly_add(P, q, t);
        }
    mpq_clears(q, t, (mpq_ptr)0);
    return st;
}

/* sign(sd - B) = sign(Var - B^2) for B >= 0: N2 Z - N1^2 - B^2 Z^2 */
static int sd_cmp(void *ctx, const mpq_t B, int *sign)
{
    struct sdctx *S = ctx;
    if (mpq_sgn(B) < 0) {
        *sign = 1;
        return EM_OK;
    }
    em_expoly P;
    em_expoly_init(&P);
    mpq_t mb2;
    mpq_init(mb2);
    mpq_mul(mb2, B, B);
    mpq_neg(mb2, mb2);
    int st = expoly_addmul(&P, &S->N2, &S->Z, S->C->q_one);
    if (st == EM_OK)
        st = expoly_addmul(&P, &S->N1, &S->N1, S->C->q_minus_one);
    if (st == EM_OK)
        st = expoly_addmul(&P, &S->Z, &S->Z, mb2);
    if (st == EM_OK)
        st = em_expoly_sign(&P, sign);
    mpq_clear(mb2);
    em_expoly_clear(&P);
    return st;
}

/* sd below MPFR's range: sqrt((N2 Z - N1^2) / Z^2) from the logarithms */
static int sd_from_log(struct sdctx *S, em_cval *out)
{
    em_expoly V, Q;
    em_expoly_init(&V);
    em_expoly_init(&Q);
    int st = expoly_addmul(&V, &S->N2, &S->Z, S->C->q_one);
    if (st == EM_OK)
        st = expoly_addmul(&V, &S->N1, &S->N1, S->C->q_minus_one);
    if (st == EM_OK)
        st = expoly_addmul(&Q, &S->Z, &S->Z, S->C->q_one);
    if (st == EM_OK)
        st = em_cont_ratio_from_log((em_cont *)S->C, &V, &Q, 1, out);
    em_expoly_clear(&V);
    em_expoly_clear(&Q);
    return st;
}

static int cont_sd(em_cont *C, em_cval *out)
{
    if (!C || !out)
        return EM_ERR_NULL;
    struct sdctx S = {.C = C};
    em_expoly a, b, z;
    em_expoly_init(&a);
    em_expoly_init(&b);
    em_expoly_init(&z);
    mpq_t m;
    mpq_init(m);
    /* Var u = E[(u - m)^2] - E[u - m]^2 for every m; with m where the mass concentrates
       the subtraction cancels little (a law within e^-1e8 of one atom: the raw moments
       agree to 1e8 digits, the shifted ones by a factor p).  Correct for any m. */
    mass_center(C, m);
    int st = append_moment(C, &a, m, 1);
    if (st == EM_OK)
        st = append_moment(C, &b, m, 2);
    if (st == EM_OK)
        st = em_cont_append_z_shifted(C, &z, C->q_one, C->q_zero);
    st = merge_each(st, (em_expoly *[]){&a, &b, &z}, (em_expoly *[]){&S.N1, &S.N2, &S.Z}, 3);
    if (st == EM_OK) {
        /* a single point of mass (or all mass at one utility): sd = 0 exactly */
        int zero_var = 0;
        if (C->kind == EM_CONT_ATOMS) {
            int have = 0;
            zero_var = 1;
            for (size_t j = 0; j < C->n; j++)
                if (!C->zero[j]) {
                    if (have && !mpq_equal(C->a[j], C->a[C->onlypos]))
                        zero_var = 0;
                    have = 1;
                }
        } else {
            zero_var = 1;
            for (size_t j = 0; j < C->n; j++)
                if (!C->zero[j] && (mpq_sgn(C->b[j]) != 0 || !mpq_equal(C->a[j], C->a[C->onlypos])))
                    zero_var = 0;
        }
        if (zero_var)
            st = em_cval_exact(out, "0", 0.0);
        else {
            em_rval rv = {sd_bounds, sd_cmp, &S};
            st = em_round(&rv, C->K, C->p0, out);
            if (st == EM_ERR_UNDECIDED)
                st = sd_from_log(&S, out);
        }
    }
    em_expoly_clear(&a);
    em_expoly_clear(&b);
    em_expoly_clear(&z);
    em_expoly_clear(&S.N1);
    em_expoly_clear(&S.N2);
    em_expoly_clear(&S.Z);
    mpq_clear(m);
    return st;
}

int em_cont_sd(em_cont *C, em_cval *out)
{
    EM_WIDEST(cont_sd(C, out));
}

void em_cont_opt(const em_cont *C, mpq_t opt) { opt_of(C, opt); }
