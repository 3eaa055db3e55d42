/* em_cont_sample.c: the exact sampler of a weighted or continuous law (lazy inverse CDF
 * on fair bits, spec/Continuous.md) and the float sampler beside it. */
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

static double dnext(double y, int dir)
{
    return nextafter(y, dir > 0 ? INFINITY : -INFINITY);
}

static int sample_setup(em_cont *C)
{
    if (C->lo64)
        return EM_OK;
    const size_t n = C->n;
    struct level *L;
    int st = em_cont_level(C, 0, &L);
    if (st == EM_OK && C->kind == EM_CONT_PIECES)
        st = em_cont_level_fill(C, &C->slev, 64);
    if (st != EM_OK)
        return st;
    if (C->kind == EM_CONT_PIECES) {
        /* set on C only once all four exist and are initialised below: em_cont_free clears
         * the numbers of C->flo's arrays, and a failed setup may be tried again */
        mpfr_t *f[4];
        for (int a = 0; a < 4; a++)
            f[a] = malloc(2 * n * sizeof(mpfr_t));
        if (!f[0] || !f[1] || !f[2] || !f[3]) {
            for (int a = 0; a < 4; a++)
                free(f[a]);
            return EM_ERR_NOMEM;
        }
        C->flo = f[0], C->fhi = f[1], C->fk = f[2], C->fca = f[3];
        for (size_t j = 0; j < n; j++) {
            mpfr_inits2(64, C->flo[2 * j], C->flo[2 * j + 1], C->fhi[2 * j], C->fhi[2 * j + 1],
                        C->fk[2 * j], C->fk[2 * j + 1], C->fca[2 * j], C->fca[2 * j + 1],
                        (mpfr_ptr)0);
            if (finite_lo(C, j))
                em_q_bounds(C->flo[2 * j], C->flo[2 * j + 1], C->lo[j]);
            else
                mpfr_set_inf(C->flo[2 * j], -1), mpfr_set_inf(C->flo[2 * j + 1], -1);
            if (finite_hi(C, j))
                em_q_bounds(C->fhi[2 * j], C->fhi[2 * j + 1], C->hi[j]);
            else
                mpfr_set_inf(C->fhi[2 * j], 1), mpfr_set_inf(C->fhi[2 * j + 1], 1);
            em_q_bounds(C->fk[2 * j], C->fk[2 * j + 1], C->k[j]);
            em_q_bounds(C->fca[2 * j], C->fca[2 * j + 1], C->ca[j]);
        }
    }
    C->lo64 = malloc((n + 1) * sizeof *C->lo64);
    C->hi64 = malloc((n + 1) * sizeof *C->hi64);
    C->Fd = malloc((n + 1) * sizeof *C->Fd);
    C->Ed = malloc(n * sizeof *C->Ed);
    C->kd = malloc(n * sizeof *C->kd);
    C->lod = malloc(n * sizeof *C->lod);
    C->Fl = malloc((n + 1) * sizeof *C->Fl);
    C->El = malloc(n * sizeof *C->El);
    C->kl = malloc(n * sizeof *C->kl);
    C->lol = malloc(n * sizeof *C->lol);
    if (!C->lo64 || !C->hi64 || !C->Fd || !C->Ed || !C->kd || !C->lod || !C->Fl || !C->El ||
        !C->kl || !C->lol)
        return EM_ERR_NOMEM;
    mpfr_t f, s;
    mpfr_inits2(L->p, f, s, (mpfr_ptr)0);
    for (size_t j = 0; j <= n; j++) {
        uint64_t lo, hi;
        if (j == 0) {
            lo = hi = 0;
        } else if (j == n) {
            lo = hi = (uint64_t)1 << 63;
        } else {
            mpfr_div(f, L->Clo[j], L->Chi[n], MPFR_RNDD);
            mpfr_mul_2ui(f, f, 63, MPFR_RNDD);
            mpfr_floor(f, f);
            lo = mpfr_get_uj(f, MPFR_RNDD);
            mpfr_div(f, L->Chi[j], L->Clo[n], MPFR_RNDU);
            mpfr_mul_2ui(f, f, 63, MPFR_RNDU);
            mpfr_ceil(f, f);
            if (mpfr_cmp_ui_2exp(f, 1, 63) > 0)
                mpfr_set_ui_2exp(f, 1, 63, MPFR_RNDN);
            hi = mpfr_get_uj(f, MPFR_RNDU);
        }
        C->lo64[j] = lo;
        C->hi64[j] = hi;
        mpfr_div(f, L->Clo[j], L->Clo[n], MPFR_RNDN);
        C->Fd[j] = mpfr_get_d(f, MPFR_RNDN);
        C->Fl[j] = mpfr_get_ld(f, MPFR_RNDN);
    }
    for (size_t j = 1; j <= n; j++)
        if (C->lo64[j] < C->lo64[j - 1])
            C->lo64[j] = C->lo64[j - 1];
    for (size_t j = n; j-- > 0;)
        if (C->hi64[j] > C->hi64[j + 1])
            C->hi64[j] = C->hi64[j + 1];
    for (size_t j = 0; j <= n; j++)
        if (C->lo64[j] > C->hi64[j])
            C->lo64[j] = C->hi64[j];
    for (size_t j = 0; j < n; j++) {
        C->kd[j] = mpq_get_d(C->k[j]);
        mpfr_set_q(f, C->k[j], MPFR_RNDN);
        C->kl[j] = mpfr_get_ld(f, MPFR_RNDN);
        if (finite_lo(C, j)) {
            mpfr_set_q(f, C->lo[j], MPFR_RNDN);
            C->lol[j] = mpfr_get_ld(f, MPFR_RNDN);
        } else {
            C->lol[j] = -INFINITY;
        }
        C->lod[j] = finite_lo(C, j) ? mpq_get_d(C->lo[j]) : -INFINITY;
        /* exp(tl) relative to Z, for the float path: mass density at lo over Z */
        if (finite_lo(C, j) && !C->zero[j]) {
            mpfr_div(f, L->Elo[j], L->Clo[n], MPFR_RNDN);
            C->Ed[j] = mpfr_get_d(f, MPFR_RNDN);
            C->El[j] = mpfr_get_ld(f, MPFR_RNDN);
        } else if (!C->zero[j]) {
            /* lo = -inf: store exp(ca)/Z via log */
            mpfr_log(f, L->Clo[n], MPFR_RNDN);
            mpfr_set_q(s, C->ca[j], MPFR_RNDN);
            mpfr_sub(f, s, f, MPFR_RNDN);
            C->Ed[j] = mpfr_get_d(f, MPFR_RNDN); /* log(exp(ca)/Z) */
            C->El[j] = mpfr_get_ld(f, MPFR_RNDN);
        } else {
            C->Ed[j] = 0;
            C->El[j] = 0;
        }
    }
    mpfr_clears(f, s, (mpfr_ptr)0);
    return EM_OK;
}

/* The sampler's fast comparison: sign(F(B) - q) from 64-bit bounds only, for B and q exact
 * in MPFR (B a double or a midpoint of two: 54 bits).  Returns 1 with *sign when the
 * bounds decide, 0 when they cannot (then the rigorous path decides). */
static int fast_cmp(em_cont *C, const mpfr_t B, const mpfr_t q, int *sign)
{
    const size_t n = C->n;
    struct level *L = &C->slev;
    /* where B is: the last j with lo_j <= B certainly */
    if (finite_lo(C, 0) && mpfr_cmp(B, C->flo[1]) < 0) {
        if (mpfr_cmp(B, C->flo[0]) >= 0)
            return 0; /* B within the bounds of lo_0: the rigorous path */
        *sign = -mpfr_sgn(q); /* F(B) = 0 */
        return 1;
    }
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (mpfr_cmp(B, C->flo[2 * mid + 1]) >= 0)
            lo = mid;
        else if (mpfr_cmp(B, C->flo[2 * mid]) < 0)
            hi = mid;
        else
            return 0;
    }
    size_t j = lo;
    mpfr_t a, b, t1, t2, g1, g2;
    mpfr_inits2(64, a, b, t1, t2, g1, g2, (mpfr_ptr)0);
    int ok = 1;
    size_t ci;
    int partial = 0;
    if (mpfr_cmp(B, C->fhi[2 * j + 1]) >= 0) {
        ci = j + 1;
    } else if (mpfr_cmp(B, C->fhi[2 * j]) < 0) {
        ci = j;
        partial = !C->zero[j];
    } else {
        ok = 0;
        ci = j;
    }
    if (ok && ci == n) {
        mpfr_clears(a, b, t1, t2, g1, g2, (mpfr_ptr)0);
        *sign = mpfr_cmp_ui(q, 1) < 0 ? 1 : (mpfr_cmp_ui(q, 1) == 0 ? 0 : -1);
        return 1;
    }
    if (ok) {
        mpfr_set(a, L->Clo[ci], MPFR_RNDD);
        mpfr_set(b, L->Chi[ci], MPFR_RNDU);
    }
    if (ok && partial) {
        mpfr_srcptr kl = C->fk[2 * j], kh = C->fk[2 * j + 1];
        if (!finite_lo(C, j)) {
            /* exp(ca + k B) / k, k > 0 */
            if (mpfr_sgn(B) >= 0) {
                mpfr_mul(t1, kl, B, MPFR_RNDD);
                mpfr_mul(t2, kh, B, MPFR_RNDU);
            } else {
                mpfr_mul(t1, kh, B, MPFR_RNDD);
                mpfr_mul(t2, kl, B, MPFR_RNDU);
            }
            mpfr_add(t1, t1, C->fca[2 * j], MPFR_RNDD);
            mpfr_add(t2, t2, C->fca[2 * j + 1], MPFR_RNDU);
            mpfr_exp(g1, t1, MPFR_RNDD);
            mpfr_sub(t2, t2, t1, MPFR_RNDU);
            if (mpfr_cmp_ui(t2, 1) <= 0 && mpfr_regular_p(g1)) {
                /* exp(t) <= nextabove(RNDD(exp(t1))) (1 + 2 (t2 - t1)) */
                mpfr_set(g2, g1, MPFR_RNDU);
                mpfr_nextabove(g2);
                mpfr_mul_2ui(t2, t2, 1, MPFR_RNDU);
                mpfr_add_ui(t2, t2, 1, MPFR_RNDU);
                mpfr_mul(g2, g2, t2, MPFR_RNDU);
            } else {
                mpfr_add(t2, t2, t1, MPFR_RNDU);
                mpfr_exp(g2, t2, MPFR_RNDU);
            }
            mpfr_div(g1, g1, kh, MPFR_RNDD);
            mpfr_div(g2, g2, kl, MPFR_RNDU);
        } else {
            /* t = B - lo in [t1, t2], >= 0 */
            mpfr_sub(t1, B, C->flo[2 * j + 1], MPFR_RNDD);
            mpfr_sub(t2, B, C->flo[2 * j], MPFR_RNDU);
            if (mpfr_sgn(t1) < 0)
                mpfr_set_zero(t1, 1);
            int sk = mpq_sgn(C->k[j]);
            if (sk == 0) {
                mpfr_set(g1, t1, MPFR_RNDD);
                mpfr_set(g2, t2, MPFR_RNDU);
            } else if (sk > 0) {
                /* expm1(k t)/k: increasing in k and in t */
                /* one expm1: expm1(d2) <= expm1(d1) + exp(d1) 2 (d2 - d1) for
                 * 0 <= d2 - d1 <= 1 (exp(x) - 1 <= 2x on [0, 1]) */
                mpfr_mul(g1, kl, t1, MPFR_RNDD);   /* d1 */
                mpfr_mul(g2, kh, t2, MPFR_RNDU);   /* d2 */
                mpfr_sub(t2, g2, g1, MPFR_RNDU);   /* d2 - d1 >= 0 */
                mpfr_expm1(g1, g1, MPFR_RNDD);
                if (mpfr_cmp_ui(t2, 1) <= 0 && mpfr_number_p(g1)) {
                    mpfr_set(g2, g1, MPFR_RNDU);
                    mpfr_nextabove(g2);             /* >= expm1(d1) */
                    mpfr_add_ui(t1, g2, 1, MPFR_RNDU); /* >= exp(d1) */
                    mpfr_mul(t1, t1, t2, MPFR_RNDU);
                    mpfr_mul_2ui(t1, t1, 1, MPFR_RNDU);
                    mpfr_add(g2, g2, t1, MPFR_RNDU);
                } else {
                    mpfr_expm1(g2, g2, MPFR_RNDU);
                }
                mpfr_div(g1, g1, kl, MPFR_RNDD);
                mpfr_div(g2, g2, kh, MPFR_RNDU);
            } else {
                /* (1 - exp(-|k| t)) / |k|: increasing in t, decreasing in |k| */
                mpfr_mul(g1, kl, t1, MPFR_RNDU);     /* -|kl| t1, rounded up: x_lo */
                mpfr_expm1(g1, g1, MPFR_RNDU);
                mpfr_neg(g1, g1, MPFR_RNDD);
                mpfr_neg(t1, kl, MPFR_RNDU);         /* |kl| */
                mpfr_div(g1, g1, t1, MPFR_RNDD);
                mpfr_mul(g2, kh, t2, MPFR_RNDD);
                mpfr_expm1(g2, g2, MPFR_RNDD);
                mpfr_neg(g2, g2, MPFR_RNDU);
                mpfr_neg(t2, kh, MPFR_RNDD);         /* |kh| */
                mpfr_div(g2, g2, t2, MPFR_RNDU);
            }
            if (mpfr_sgn(g1) < 0)
                mpfr_set_zero(g1, 1);
            mpfr_mul(g1, g1, L->Elo[j], MPFR_RNDD);
            mpfr_mul(g2, g2, L->Ehi[j], MPFR_RNDU);
        }
        mpfr_add(a, a, g1, MPFR_RNDD);
        mpfr_add(b, b, g2, MPFR_RNDU);
    }
    int decided = 0;
    if (ok) {
        /* F in [a / Zhi, b / Zlo] */
        mpfr_t t;
        mpfr_init2(t, mpfr_get_prec(q) + 64);
        mpfr_mul(t, q, L->Chi[n], MPFR_RNDU);
        if (mpfr_cmp(a, t) > 0) {
            *sign = 1;
            decided = 1;
        } else {
            mpfr_mul(t, q, L->Clo[n], MPFR_RNDD);
            if (mpfr_cmp(b, t) < 0) {
                *sign = -1;
                decided = 1;
            }
        }
        mpfr_clear(t);
    }
    mpfr_clears(a, b, t1, t2, g1, g2, (mpfr_ptr)0);
    return decided;
}

/* sign(F(B) - q) for the rounding boundary B of the double y in direction dir (the
 * planted bug: B = y itself, or the next double): B is built in MPFR (exact at 64 bits)
 * for the fast comparison, and as a rational only when the rigorous path is needed. */
static int bound_cmp(em_cont *C, double y, int dir, const mpfr_t q, int *sign)
{
    int st = EM_OK;
    if (C->flo && !isinf(dnext(y, dir))) {
        mpfr_t Bf;
        mpfr_init2(Bf, 64);
        if (C->test_bug == 1) {
            mpfr_set_d(Bf, dir < 0 ? y : dnext(y, +1), MPFR_RNDN);
        } else {
            mpfr_set_d(Bf, y, MPFR_RNDN);
            mpfr_add_d(Bf, Bf, dnext(y, dir), MPFR_RNDN); /* exact: 54 bits */
            mpfr_div_2ui(Bf, Bf, 1, MPFR_RNDN);
        }
        int done = fast_cmp(C, Bf, q, sign);
        mpfr_clear(Bf);
        if (done)
            return EM_OK;
    }
    mpq_t B;
    mpq_init(B);
    em_d_boundary(B, y, dir);
    if (C->test_bug == 1)
        mpq_set_d(B, dir < 0 ? y : dnext(y, +1));
    /* the rigorous path (cdf_cmp_fr repeats the fast test only when B is exact in 64 bits) */
    mpq_t qq;
    mpq_init(qq);
    mpfr_get_q(qq, q);
    st = em_cont_cdf_cmp(C, B, qq, sign);
    mpq_clears(qq, B, (mpq_ptr)0);
    return st;
}

/* bound_cmp over the extended doubles: an ideal draw beyond the overflow boundary
 * (DBL_MAX + 2^970 in magnitude) rounds to +-inf under round-to-nearest, so +-inf are
 * answers like any double; their outer boundary is +-infinity itself (F = 1 or 0). */
static int ext_cmp(em_cont *C, double y, int dir, const mpfr_t q, int *sign)
{
    if (isinf(y) && (y > 0) == (dir > 0)) {
        /* F(+inf) = 1 >= q, F(-inf) = 0 <= q */
        if (y > 0)
            *sign = mpfr_cmp_ui(q, 1) < 0 ? 1 : (mpfr_cmp_ui(q, 1) == 0 ? 0 : -1);
        else
            *sign = -mpfr_sgn(q);
        return EM_OK;
    }
    if (isinf(y))
        return bound_cmp(C, y > 0 ? DBL_MAX : -DBL_MAX, y > 0 ? +1 : -1, q, sign);
    return bound_cmp(C, y, dir, q, sign);
}

/* the cell (piece/atom) holding the dyadic interval [A, A + 2^-k): *j, or n if it straddles
 * a cell boundary.  Exact comparisons of F(start_j) = C_j / Z with the ends. */
static int cell_of(em_cont *C, const mpfr_t A, const mpfr_t Aw, size_t *out)
{
    const size_t n = C->n;
    /* binary search: the last j with F(start_j) <= A (F(start_0) = 0) */
    size_t lo = 0, hi = n; /* F(start_lo) <= A; answer < hi */
    mpq_t qa, qw, z, mz;
    mpq_inits(qa, qw, z, mz, (mpq_ptr)0);
    mpfr_get_q(qa, A);
    mpfr_get_q(qw, Aw);
    int st = EM_OK;
    em_expoly P;
    em_expoly_init(&P);
    /* sign(C_j - q Z) */
#define CJ_CMP(jj, q, s)                                                                 \
    do {                                                                                 \
        em_expoly_reset(&P);                                                             \
        mpq_set_ui(z, 1, 1);                                                             \
        for (size_t i_ = 0; i_ < (jj) && st == EM_OK; i_++)                              \
            st = em_cont_append_seg(C, &P, i_, NULL, z, mz);                                     \
        mpq_neg(z, q);                                                                   \
        if (st == EM_OK)                                                                 \
            st = em_cont_append_z_shifted(C, &P, z, mz);                                         \
        if (st == EM_OK)                                                                 \
            st = em_expoly_sign(&P, &(s));                                               \
    } while (0)
    struct level *L = NULL;
    st = em_cont_level(C, 0, &L);
    mpfr_t f1, f2;
    mpfr_inits2(st == EM_OK ? L->p : 64, f1, f2, (mpfr_ptr)0);
    while (st == EM_OK && hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        /* F(start_mid) vs A, fast */
        mpfr_div(f1, L->Clo[mid], L->Chi[n], MPFR_RNDD);
        mpfr_div(f2, L->Chi[mid], L->Clo[n], MPFR_RNDU);
        int s = 0; /* read only when CJ_CMP succeeded; defined whatever happens */
        if (mpfr_cmp(f2, A) <= 0)
            s = -1;
        else if (mpfr_cmp(f1, A) > 0)
            s = 1;
        else {
            CJ_CMP(mid, qa, s);
            if (s == 0)
                s = -1; /* F == A: A is in cell mid or later */
        }
        if (s <= 0)
            lo = mid;
        else
            hi = mid;
    }
    /* cell lo: certain iff A + w <= F(start_{lo+1}) (and cell has mass) */
    *out = n;
    if (st == EM_OK) {
        size_t j = lo;
        /* skip zero-mass cells: F(start_j) == F(start_{j+1}); the search lands on the last
         * j with F(start_j) <= A, so j has positive mass unless A... j == n-1 edge */
        int s = 0;
        if (j + 1 == n) {
            s = 1;
        } else {
            mpfr_div(f1, L->Clo[j + 1], L->Chi[n], MPFR_RNDD);
            mpfr_div(f2, L->Chi[j + 1], L->Clo[n], MPFR_RNDU);
            if (mpfr_cmp(f1, Aw) >= 0)
                s = 1;
            else if (mpfr_cmp(f2, Aw) < 0)
                s = -1;
            else {
                CJ_CMP(j + 1, qw, s);
                s = s >= 0 ? 1 : -1;
            }
        }
        if (st == EM_OK && s > 0 && !C->zero[j])
            *out = j;
    }
#undef CJ_CMP
    mpfr_clears(f1, f2, (mpfr_ptr)0);
    em_expoly_clear(&P);
    mpq_clears(qa, qw, z, mz, (mpq_ptr)0);
    return st;
}

static int cont_double_mass_bounds(em_cont *C, double y, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    if (!C)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES || isnan(y))
        return EM_ERR_DOMAIN;
    mpq_t Bm, Bp;
    mpq_inits(Bm, Bp, (mpq_ptr)0);
    mpfr_t a1, a2, b1, b2;
    mpfr_inits2(prec < 64 ? 64 : prec, a1, a2, b1, b2, (mpfr_ptr)0);
    int st = EM_OK;
    if (isinf(y)) {
        mpfr_set_prec(lo, 64);
        mpfr_set_prec(hi, 64);
        mpfr_set_zero(a1, 1);
        mpfr_set_zero(a2, 1);
        /* P(X beyond the overflow boundary) */
        em_d_boundary(Bm, y > 0 ? DBL_MAX : -DBL_MAX, y > 0 ? 1 : -1);
        st = em_cont_cdf_bounds(C, Bm, prec, b1, b2);
        if (st == EM_OK) {
            mpfr_set_prec(lo, mpfr_get_prec(b1));
            mpfr_set_prec(hi, mpfr_get_prec(b1));
            if (y > 0) {
                mpfr_ui_sub(lo, 1, b2, MPFR_RNDD);
                mpfr_ui_sub(hi, 1, b1, MPFR_RNDU);
            } else {
                mpfr_set(lo, b1, MPFR_RNDD);
                mpfr_set(hi, b2, MPFR_RNDU);
            }
        }
    } else {
        em_d_boundary(Bm, y, -1);
        em_d_boundary(Bp, y, +1);
        st = em_cont_cdf_bounds(C, Bm, prec, a1, a2);
        if (st == EM_OK)
            st = em_cont_cdf_bounds(C, Bp, prec, b1, b2);
        if (st == EM_OK) {
            mpfr_prec_t p = mpfr_get_prec(b1) > mpfr_get_prec(a1) ? mpfr_get_prec(b1) : mpfr_get_prec(a1);
            mpfr_set_prec(lo, p);
            mpfr_set_prec(hi, p);
            mpfr_sub(lo, b1, a2, MPFR_RNDD);
            mpfr_sub(hi, b2, a1, MPFR_RNDU);
        }
    }
    if (st == EM_OK && mpfr_sgn(lo) < 0)
        mpfr_set_zero(lo, 1);
    mpfr_clears(a1, a2, b1, b2, (mpfr_ptr)0);
    mpq_clears(Bm, Bp, (mpq_ptr)0);
    return st;
}

int em_cont_double_mass_bounds(em_cont *C, double y, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    EM_WIDEST(cont_double_mass_bounds(C, y, prec, lo, hi));
}

/* approximate Q(u) for u in (0, 1) inside piece j, in double */
static double approx_in_piece(em_cont *C, size_t j, double u)
{
    double v = u - C->Fd[j]; /* mass / Z from the piece start */
    if (v < 0)
        v = 0;
    double k = C->kd[j], x;
    if (C->lod[j] == -INFINITY) {
        /* exp(ca + k x)/(k Z) = v: x = (log(v k) - log(exp(ca)/Z)) / k */
        x = (log(v * k) - C->Ed[j]) / k;
    } else if (k == 0) {
        x = C->lod[j] + v / C->Ed[j];
    } else {
        double t = v * k / C->Ed[j];
        if (t <= -1)
            t = -1 + 0x1p-53;
        x = C->lod[j] + log1p(t) / k;
    }
    if (isnan(x) || x < C->lod[j])
        x = isinf(C->lod[j]) ? (isnan(x) ? 0 : x) : C->lod[j];
    if (finite_hi(C, j)) {
        double h = mpq_get_d(C->hi[j]);
        if (x > h)
            x = h;
    }
    return x;
}

/* doubles in order as integers (finite values; -0 and +0 adjacent) */
static uint64_t dkey(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : (u | ((uint64_t)1 << 63));
}

static double dunkey(uint64_t k)
{
    uint64_t u = (k >> 63) ? (k & ~((uint64_t)1 << 63)) : ~k;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* U in [A, Aw): k more bits (A's precision grows as needed, exactly) */
static int draw_more(em_bits *b, long *k, mpfr_t A, mpfr_t Aw)
{
    if (*k + SAMPLE_STEP > EM_EXACT_MAX_BITS)
        return EM_ERR_DOMAIN;
    uint64_t more;
    int st = em_bits_get(b, SAMPLE_STEP, &more);
    if (st != EM_OK)
        return st;
    *k += SAMPLE_STEP;
    if (mpfr_get_prec(A) < *k + 2) {
        mpfr_prec_t np = 2 * mpfr_get_prec(A);
        while (np < *k + 2)
            np *= 2;
        mpfr_prec_round(A, np, MPFR_RNDN); /* exact: more bits */
        mpfr_set_prec(Aw, np);
    }
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_set_uj_2exp(t, more, -*k, MPFR_RNDN);
    mpfr_add(A, A, t, MPFR_RNDN); /* exact: A has k bits after the point */
    mpfr_set_ui_2exp(t, 1, -*k, MPFR_RNDN);
    mpfr_add(Aw, A, t, MPFR_RNDN);
    mpfr_clear(t);
    return EM_OK;
}

/* the same in long double, from U's leading bits */
static double approx_in_piece_l(em_cont *C, size_t j, const mpfr_t A)
{
    long double u = mpfr_get_ld(A, MPFR_RNDN);
    long double v = u - C->Fl[j], k = C->kl[j], x;
    if (v < 0)
        v = 0;
    if (C->lol[j] == -INFINITY)
        x = (logl(v * k) - C->El[j]) / k;
    else if (k == 0)
        x = C->lol[j] + v / C->El[j];
    else {
        long double t = v * k / C->El[j];
        if (t <= -1)
            t = -1 + 0x1p-64L;
        x = C->lol[j] + log1pl(t) / k;
    }
    double y = (double)x;
    if (isnan(y) || isinf(y))
        return approx_in_piece(C, j, mpfr_get_d(A, MPFR_RNDN));
    return y;
}

static int cont_sample(em_cont *C, em_bits *b, size_t *index, double *x)
{
    if (!C || !b || !index)
        return EM_ERR_NULL;
    int st = sample_setup(C);
    if (st != EM_OK)
        return st;
    const size_t n = C->n;
    uint64_t w64;
    const unsigned k1 = C->first_chunk ? C->first_chunk : 63;
    if ((st = em_bits_get(b, k1, &w64)) != EM_OK)
        return st;
    long k = k1;
    /* the cell, by the proven integer decision on the 63-bit bounds: U in
     * [w 2^(63-k1), (w + 1) 2^(63-k1)) / 2^63 */
    size_t j = em_exact_select(n, C->lo64, C->hi64, w64 << (63 - k1), (uint64_t)1 << (63 - k1));
    mpfr_t A, Aw;
    mpfr_inits2(128, A, Aw, (mpfr_ptr)0);
    mpfr_set_uj_2exp(A, w64, -(long)k1, MPFR_RNDN);
    mpfr_set_uj_2exp(Aw, w64 + 1, -(long)k1, MPFR_RNDN);
    while (j >= n) {
        if ((st = cell_of(C, A, Aw, &j)) != EM_OK)
            goto out;
        if (j < n)
            break;
        if ((st = draw_more(b, &k, A, Aw)) != EM_OK)
            goto out;
    }
    *index = j;
    if (C->kind == EM_CONT_ATOMS) {
        if (x)
            *x = 0;
        goto out;
    }
    /* the double y: F(B-) <= A and A + 2^-k <= F(B+), so X = Q(U) lies in y's rounding
     * interval whatever the undrawn bits are.  Walk from the approximation; after a few
     * steps, bisect on the doubles between the bounds learnt (at most 64 halvings). */
    {
        mpq_t Bm, Bp;
        mpq_inits(Bm, Bp, (mpq_ptr)0);
        double y = approx_in_piece_l(C, j, A);
        /* the answer in [klo, khi], +-inf included (an ideal draw beyond the largest double) */
        uint64_t klo = dkey(-INFINITY), khi = dkey(INFINITY);
        int haslo = 0, hashi = 0;
        uint64_t jump = 1;
        /* every pass either narrows [klo, khi] (at most 64 gallops up, 64 down and 64
         * halvings of a 64-bit key range) or draws SAMPLE_STEP more bits (bounded by
         * EM_EXACT_MAX_BITS in draw_more): past that bound the sampler is wrong, and says so */
        const long max_pass = 3 * 64 + EM_EXACT_MAX_BITS / SAMPLE_STEP + 8;
        for (long pass = 0;; pass++) {
            int s1, s2, s3;
            if (pass > max_pass || klo > khi) {
                st = EM_ERR_UNDECIDED;
                break;
            }
            /* gallop away from a bad approximation, then bisect the bracket */
            if (haslo && hashi)
                y = dunkey(klo + (khi - klo) / 2);
            if ((st = ext_cmp(C, y, -1, A, &s1)) != EM_OK)
                break;
            if (s1 > 0) {
                if ((st = ext_cmp(C, y, -1, Aw, &s3)) != EM_OK)
                    break;
                if (s3 >= 0) { /* X < B-: below y */
                    khi = dkey(y) - 1;
                    hashi = 1;
                    if (!haslo) {
                        uint64_t ky = dkey(y);
                        y = dunkey(ky - (jump < ky - klo ? jump : ky - klo));
                        jump *= 2;
                    }
                    continue;
                }
                if ((st = draw_more(b, &k, A, Aw)) != EM_OK)
                    break;
                continue;
            }
            if ((st = ext_cmp(C, y, +1, Aw, &s2)) != EM_OK)
                break;
            if (s2 < 0) {
                if ((st = ext_cmp(C, y, +1, A, &s3)) != EM_OK)
                    break;
                if (s3 <= 0) { /* X >= B+: above y */
                    klo = dkey(y) + 1;
                    haslo = 1;
                    if (!hashi) {
                        uint64_t ky = dkey(y);
                        y = dunkey(ky + (jump < khi - ky ? jump : khi - ky));
                        jump *= 2;
                    }
                    continue;
                }
                if ((st = draw_more(b, &k, A, Aw)) != EM_OK)
                    break;
                continue;
            }
            break; /* decided */
        }
        if (st == EM_OK && x)
            *x = y;
        mpq_clears(Bm, Bp, (mpq_ptr)0);
    }
out:
    mpfr_clears(A, Aw, (mpfr_ptr)0);
    return st;
}

int em_cont_sample(em_cont *C, em_bits *b, size_t *index, double *x)
{
    EM_WIDEST(cont_sample(C, b, index, x));
}

int em_cont_set_first_chunk(em_cont *C, unsigned k)
{
    if (!C)
        return EM_ERR_NULL;
    if (k < 1 || k > 63)
        return EM_ERR_DOMAIN;
    C->first_chunk = k;
    return EM_OK;
}

void em_cont_set_test_bug(em_cont *C, int bug)
{
    C->test_bug = bug;
}

int em_cont_sample_float(em_cont *C, em_rng *rng, size_t *index, double *x)
{
    if (!C || !rng || !index)
        return EM_ERR_NULL;
    int st = sample_setup(C);
    if (st != EM_OK)
        return st;
    uint64_t w1, w2;
    if (em_rng_u64(rng, &w1) != EM_OK)
        return EM_ERR_RNG;
    double u = (double)(w1 >> 11) * 0x1p-53;
    /* the cell: last j with Fd[j] <= u, among cells of positive mass */
    size_t lo = 0, hi = C->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (C->Fd[mid] <= u)
            lo = mid;
        else
            hi = mid;
    }
    while (C->zero[lo] && lo > 0)
        lo--;
    *index = lo;
    if (C->kind == EM_CONT_PIECES && x) {
        if (em_rng_u64(rng, &w2) != EM_OK)
            return EM_ERR_RNG;
        double v = (double)(w2 >> 11) * 0x1p-53;
        double u2 = C->Fd[lo] + v * (C->Fd[lo + 1] - C->Fd[lo]);
        *x = approx_in_piece(C, lo, u2);
    }
    return EM_OK;
}
