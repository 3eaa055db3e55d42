/* em_cont_terms.c: the exact terms of the masses up to a point: exponential polynomials
 * (num/em_expoly.h) of the mass of [lo, x] and of the normaliser, and locating a point among
 * the pieces. */
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

/* append coef * exp(shift) * (mass of segment [lo_j, x] of piece j) (T-shifted exponents);
 * x_end: NULL = the whole piece */
int em_cont_append_seg(const em_cont *C, em_expoly *P, size_t j, const mpq_t x, const mpq_t coef,
                       const mpq_t shift)
{
    if (C->zero[j])
        return EM_OK;
    mpq_t q, t, d;
    mpq_inits(q, t, d, (mpq_ptr)0);
    int st = EM_OK;
    if (C->kind == EM_CONT_ATOMS) {
        mpq_mul(q, coef, C->len[j]);
        mpq_add(t, C->tl[j], shift);
        st = em_expoly_add(P, q, t);
        goto out;
    }
    int whole = x == NULL;
    int hinf = whole && !finite_hi(C, j), linf = !finite_lo(C, j);
    /* te = exponent at the end */
    mpq_t te;
    mpq_init(te);
    if (!whole) {
        mpq_mul(te, C->k[j], x);
        mpq_add(te, te, C->ca[j]);
    } else if (!hinf) {
        mpq_set(te, C->th[j]);
    }
    if (mpq_sgn(C->k[j]) == 0) {
        /* (e - lo) exp(tl) */
        if (whole)
            mpq_set(d, C->len[j]);
        else
            mpq_sub(d, x, C->lo[j]);
        mpq_mul(q, coef, d);
        mpq_add(t, C->tl[j], shift);
        st = em_expoly_add(P, q, t);
    } else {
        /* (exp(te) - exp(tl)) / k */
        if (!hinf) {
            mpq_div(q, coef, C->k[j]);
            mpq_add(t, te, shift);
            st = em_expoly_add(P, q, t);
        }
        if (st == EM_OK && !linf) {
            mpq_div(q, coef, C->k[j]);
            mpq_neg(q, q);
            mpq_add(t, C->tl[j], shift);
            st = em_expoly_add(P, q, t);
        }
    }
    mpq_clear(te);
out:
    mpq_clears(q, t, d, (mpq_ptr)0);
    return st;
}

int em_cont_append_z_shifted(const em_cont *C, em_expoly *P, const mpq_t coef, const mpq_t shift)
{
    for (size_t j = 0; j < C->n; j++) {
        int st = em_cont_append_seg(C, P, j, NULL, coef, shift);
        if (st != EM_OK)
            return st;
    }
    return EM_OK;
}

int em_cont_append_z(const em_cont *C, em_expoly *P, const mpq_t coef, const mpq_t shift)
{
    mpq_t s;
    mpq_init(s);
    mpq_add(s, shift, C->T);
    int st = em_cont_append_z_shifted(C, P, coef, s);
    mpq_clear(s);
    return st;
}

/* ------------------------------------------------------------- locating x */

/* largest j with lo_j <= x (pieces with lo = -inf count as <= every x); n if none */
static size_t last_start_le(const em_cont *C, const mpq_t x)
{
    size_t lo = 0, hi = C->n; /* answer in [lo-1, hi-1] */
    if (finite_lo(C, 0) && mpq_cmp(C->lo[0], x) > 0)
        return C->n;
    /* invariant: lo_{lo} <= x (or lo == 0 with -inf), answer >= lo */
    lo = 0;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (mpq_cmp(C->lo[mid], x) <= 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The piece holding x on the right (left = 0: lo_j <= x < hi_j) or on the left (lo_j < x
 * <= hi_j), pieces of length 0 skipped (several may start at x: on the right, the last one
 * with lo <= x whose interval contains x and has positive length), or n. */
static size_t piece_at(const em_cont *C, const mpq_t x, int left)
{
    if (C->kind != EM_CONT_PIECES)
        return C->n;
    size_t j = last_start_le(C, x);
    if (j == C->n)
        return C->n;
    for (size_t i = j + 1; i-- > 0;) {
        if (C->zero[i] || (left && finite_lo(C, i) && mpq_cmp(C->lo[i], x) >= 0)) {
            if (i == 0)
                break;
            continue;
        }
        int c = finite_hi(C, i) ? mpq_cmp(x, C->hi[i]) : -1;
        if (left ? c <= 0 : c < 0)
            return i;
        break;
    }
    return C->n;
}

size_t em_cont_piece_right(const em_cont *C, const mpq_t x) { return piece_at(C, x, 0); }
size_t em_cont_piece_left(const em_cont *C, const mpq_t x) { return piece_at(C, x, 1); }

/* F(x) = N(x) / Z: where x is.  *where: -1 left of R (F = 0), +1 right of R (F = 1), 0
 * inside; *j the piece with lo_j <= x (inside); *partial whether x lies strictly inside
 * piece j (else N = C_{j+1} when x >= hi_j, or C_j when x == lo_j). */
void em_cont_locate(const em_cont *C, const mpq_t x, int *where, size_t *j, int *partial,
                    size_t *cidx)
{
    size_t n = C->n;
    *partial = 0;
    if (finite_lo(C, 0) && mpq_cmp(x, C->lo[0]) <= 0) {
        *where = -1;
        *cidx = 0;
        return;
    }
    if (finite_hi(C, n - 1) && mpq_cmp(x, C->hi[n - 1]) >= 0) {
        *where = 1;
        *cidx = n;
        return;
    }
    *where = 0;
    size_t i = last_start_le(C, x);
    *j = i;
    if (finite_hi(C, i) && mpq_cmp(x, C->hi[i]) >= 0) {
        *cidx = i + 1;
    } else if (finite_lo(C, i) && mpq_cmp(x, C->lo[i]) == 0) {
        *cidx = i;
    } else {
        *cidx = i;
        *partial = 1;
    }
}

/* N(x) bounds at level L */
void em_cont_n_bounds(const em_cont *C, const struct level *L, const mpq_t x, mpfr_t lo, mpfr_t hi)
{
    int where, partial;
    size_t j = 0, ci;
    em_cont_locate(C, x, &where, &j, &partial, &ci);
    mpfr_set(lo, L->Clo[ci], MPFR_RNDD);
    mpfr_set(hi, L->Chi[ci], MPFR_RNDU);
    if (!partial)
        return;
    mpfr_prec_t p = L->p;
    mpfr_t a, b, s1, s2, s3, s4;
    mpfr_inits2(p, a, b, s1, s2, s3, s4, (mpfr_ptr)0);
    mpq_t te, d;
    mpq_inits(te, d, (mpq_ptr)0);
    mpq_mul(te, C->k[j], x);
    mpq_add(te, te, C->ca[j]);
    if (finite_lo(C, j)) {
        if (mpq_sgn(C->k[j]) == 0)
            mpq_sub(d, x, C->lo[j]);
        else
            mpq_sub(d, te, C->tl[j]);
    }
    em_cont_seg_bounds(C, j, L, te, d, a, b, s1, s2, s3, s4);
    mpfr_add(lo, lo, a, MPFR_RNDD);
    mpfr_add(hi, hi, b, MPFR_RNDU);
    mpq_clears(te, d, (mpq_ptr)0);
    mpfr_clears(a, b, s1, s2, s3, s4, (mpfr_ptr)0);
}

int em_cont_append_n(const em_cont *C, em_expoly *P, const mpq_t x, const mpq_t coef, const mpq_t shift)
{
    int where, partial;
    size_t j = 0, ci;
    em_cont_locate(C, x, &where, &j, &partial, &ci);
    for (size_t i = 0; i < ci; i++) {
        int st = em_cont_append_seg(C, P, i, NULL, coef, shift);
        if (st != EM_OK)
            return st;
    }
    if (partial)
        return em_cont_append_seg(C, P, j, x, coef, shift);
    return EM_OK;
}
