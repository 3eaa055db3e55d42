/* em_cont_build.c: construction of the weighted and continuous laws (em_cont.h), their
 * accessors, and the precision levels: the masses and their prefix sums as intervals at
 * p0 2^k bits. */
#include "oracle/em_cont_priv.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/em_error.h"
#include "base/em_mem.h"
#include "core/em_exact_select.h"
#include "num/em_bounds.h"
#include "num/em_expoly.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

/* g = expm1(d) / k bounds for rational d = k (e - s) (same sign as k, k != 0): positive */
static void g_b(mpfr_t lo, mpfr_t hi, const mpq_t d, const mpq_t k, mpfr_t s1, mpfr_t s2)
{
    em_q_bounds(s1, s2, d);
    if (mpq_sgn(k) > 0) {
        mpfr_expm1(lo, s1, MPFR_RNDD);
        mpfr_expm1(hi, s2, MPFR_RNDU);
        mpfr_div_q(lo, lo, k, MPFR_RNDD);
        mpfr_div_q(hi, hi, k, MPFR_RNDU);
    } else {
        /* expm1(d) <= 0 increasing in d; divided by k < 0: decreasing in d, >= 0 */
        mpfr_expm1(lo, s2, MPFR_RNDU);     /* largest expm1 (closest to 0) */
        mpfr_expm1(hi, s1, MPFR_RNDD);     /* smallest (most negative) */
        mpfr_div_q(lo, lo, k, MPFR_RNDD);
        mpfr_div_q(hi, hi, k, MPFR_RNDU);
    }
    if (mpfr_sgn(lo) < 0)
        mpfr_set_zero(lo, 1);
}

static void cont_free_arrays(em_cont *C)
{
    mpq_t **arrs[] = {&C->lo, &C->hi, &C->a, &C->b, &C->k, &C->tl, &C->th, &C->ca, &C->len};
    for (size_t a = 0; a < sizeof arrs / sizeof arrs[0]; a++) {
        em_q_array_free(*arrs[a], C->n);
        *arrs[a] = NULL;
    }
}

static void level_clear(em_cont *C, struct level *L)
{
    if (!L->done)
        return;
    em_mpfr_arrays_free((mpfr_t *[]){L->Clo, L->Chi}, 2, C->n + 1); /* C_0 .. C_n */
    em_mpfr_arrays_free((mpfr_t *[]){L->Mlo, L->Mhi, L->Elo, L->Ehi}, 4, C->n);
    L->done = 0;
}

void em_cont_free(em_cont *C)
{
    if (!C)
        return;
    for (int l = 0; l < NLEV; l++)
        level_clear(C, &C->lev[l]);
    level_clear(C, &C->slev);
    if (C->flo) /* two bounds per piece */
        em_mpfr_arrays_free((mpfr_t *[]){C->flo, C->fhi, C->fk, C->fca}, 4, 2 * C->n);
    cont_free_arrays(C);
    mpq_clear(C->c);
    mpq_clear(C->T);
    mpq_clears(C->q_one, C->q_minus_one, C->q_zero, (mpq_ptr)0);
    EM_FREE_ALL(C->zero, C->excl, C->line, C->lo64, C->hi64, C->Fd, C->Fl, C->El, C->kl, C->lol,
                C->Ed, C->kd, C->lod, C);
}

static int alloc_q(mpq_t **p, size_t n)
{
    return (*p = em_q_array_new(n)) != NULL;
}

static em_cont *cont_alloc(size_t n, int kind, int digits)
{
    em_cont *C = calloc(1, sizeof *C);
    if (!C)
        return NULL;
    C->n = n;
    C->kind = kind;
    C->K = digits;
    mpq_init(C->c);
    mpq_init(C->T);
    mpq_inits(C->q_one, C->q_minus_one, C->q_zero, (mpq_ptr)0);
    mpq_set_ui(C->q_one, 1, 1);
    mpq_set_si(C->q_minus_one, -1, 1);
    int ok = alloc_q(&C->lo, n) && alloc_q(&C->hi, n) && alloc_q(&C->a, n) && alloc_q(&C->b, n) &&
             alloc_q(&C->k, n) && alloc_q(&C->tl, n) && alloc_q(&C->th, n) && alloc_q(&C->ca, n) &&
             alloc_q(&C->len, n);
    C->zero = calloc(n ? n : 1, 1);
    C->excl = calloc(n ? n : 1, 1);
    C->line = calloc(n ? n : 1, sizeof *C->line);
    if (!ok || !C->zero || !C->excl || !C->line) {
        C->n = ok ? n : 0;
        em_cont_free(C);
        return NULL;
    }
    return C;
}


/* The problem's parameters (em_problem_params validated them; a problem filled by hand
 * is checked again) and the digits. */
static int check_params(const em_problem *P, int digits, em_error *err)
{
    if (mpq_sgn(P->eps) <= 0)
        return em_err(err, EM_ERR_EPSILON, "epsilon must be > 0");
    if (mpq_sgn(P->delta) <= 0)
        return em_err(err, EM_ERR_SENSITIVITY, "the sensitivity must be > 0");
    if (P->variant != EM_STANDARD && P->variant != EM_MONOTONE)
        return em_err(err, EM_ERR_VARIANT, "unknown variant %d", P->variant);
    if (digits < 1 || digits > EM_ROUND_MAX_DIGITS)
        return em_err(err, EM_ERR_DOMAIN, "digits %d: expected 1 to %d", digits,
                      EM_ROUND_MAX_DIGITS);
    return EM_OK;
}

static void finish_common(em_cont *C)
{
    long lg = 0;
    while (((size_t)1 << lg) < C->n + 1)
        lg++;
    /* K digits, the rounding error of n-term sums, a margin; the exponents' size is
     * added by the callers (an absolute error in t is a relative error in exp(t)) */
    C->p0 = (mpfr_prec_t)((double)C->K * 3.3219280948873623) + 2 * lg + 24;
    C->npos = 0;
    for (size_t j = 0; j < C->n; j++)
        if (!C->zero[j]) {
            if (C->npos == 0)
                C->onlypos = j;
            C->npos++;
        }
}

static void add_exponent_bits(em_cont *C, long tb)
{
    C->p0 += tb;
    C->p0 = (C->p0 + 63) / 64 * 64;
}

static int new_pieces(const em_problem *P, int digits, em_cont **out, em_error *err)
{
    const em_pieces *ps = P->pieces;
    const char *name = ps->name ? ps->name : "<scenario>";
    int st = check_params(P, digits, err);
    if (st != EM_OK)
        return st;
    const size_t n = ps->n;
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "%s: no pieces", name);
    if (n > EM_PIECES_MAX)
        return em_err(err, EM_ERR_TOO_MANY, "%s: more than %zu pieces", name,
                      (size_t)EM_PIECES_MAX);
#define LINE(j) (ps->line ? ps->line[j] : (unsigned long)(j) + 1)
    for (size_t j = 0; j < n; j++) {
        int linf = j == 0 && ps->lo_inf, hinf = j == n - 1 && ps->hi_inf;
        if (!linf && !hinf && mpq_cmp(ps->lo[j], ps->hi[j]) > 0)
            return em_err(err, EM_ERR_DOMAIN, "%s:%lu: piece %zu: lo > hi", name, LINE(j),
                          j + 1);
        if (j + 1 < n && mpq_cmp(ps->lo[j + 1], ps->hi[j]) < 0)
            return em_err(err, EM_ERR_DOMAIN,
                          "%s:%lu: piece %zu starts before the end of piece %zu (pieces must "
                          "be in increasing order, interiors disjoint)",
                          name, LINE(j + 1), j + 2, j + 1);
    }
    if (ps->lo_inf && mpq_sgn(ps->b[0]) <= 0)
        return em_err(err, EM_ERR_DOMAIN,
                      "%s:%lu: piece 1 reaches -inf but its slope b is %s 0: the integral of "
                      "exp(c u) diverges (needs b > 0)",
                      name, LINE(0), mpq_sgn(ps->b[0]) == 0 ? "=" : "<");
    if (ps->hi_inf && mpq_sgn(ps->b[n - 1]) >= 0)
        return em_err(err, EM_ERR_DOMAIN,
                      "%s:%lu: piece %zu reaches +inf but its slope b is %s 0: the integral of "
                      "exp(c u) diverges (needs b < 0)",
                      name, LINE(n - 1), n, mpq_sgn(ps->b[n - 1]) == 0 ? "=" : ">");
    if (n == 1 && ps->lo_inf && ps->hi_inf)
        return em_err(err, EM_ERR_DOMAIN,
                      "%s:%lu: a single linear piece over (-inf, +inf) has no finite integral",
                      name, LINE(0));
    em_cont *C = cont_alloc(n, EM_CONT_PIECES, digits);
    if (!C)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    C->lo_inf = ps->lo_inf;
    C->hi_inf = ps->hi_inf;
    mpq_set(C->c, P->c);
    int haveT = 0;
    mpq_t u;
    mpq_init(u);
    for (size_t j = 0; j < n; j++) {
        C->line[j] = LINE(j);
        mpq_set(C->lo[j], ps->lo[j]);
        mpq_set(C->hi[j], ps->hi[j]);
        mpq_set(C->a[j], ps->a[j]);
        mpq_set(C->b[j], ps->b[j]);
        mpq_mul(C->k[j], C->c, ps->b[j]);
        int linf = j == 0 && C->lo_inf, hinf = j == n - 1 && C->hi_inf;
        for (int e = 0; e < 2; e++) {
            /* a piece of length 0 has no mass: its utility must not set the shift (a huge
             * one there would push every real weight below MPFR's range) */
            if ((e == 0 ? linf : hinf) || (!linf && !hinf && mpq_equal(ps->lo[j], ps->hi[j])))
                continue;
            mpq_mul(u, ps->b[j], e == 0 ? ps->lo[j] : ps->hi[j]);
            mpq_add(u, u, ps->a[j]);
            mpq_mul(u, u, C->c);
            if (!haveT || mpq_cmp(u, C->T) > 0) {
                mpq_set(C->T, u);
                haveT = 1;
            }
        }
        if (!linf && !hinf) {
            mpq_sub(C->len[j], C->hi[j], C->lo[j]);
            C->zero[j] = mpq_sgn(C->len[j]) == 0;
        }
    }
    for (size_t j = 0; j < n; j++) {
        int linf = j == 0 && C->lo_inf, hinf = j == n - 1 && C->hi_inf;
        mpq_mul(C->ca[j], C->c, C->a[j]);
        mpq_sub(C->ca[j], C->ca[j], C->T);
        if (!linf) {
            mpq_mul(u, C->k[j], C->lo[j]);
            mpq_add(C->tl[j], C->ca[j], u);
        }
        if (!hinf) {
            mpq_mul(u, C->k[j], C->hi[j]);
            mpq_add(C->th[j], C->ca[j], u);
        }
    }
    mpq_clear(u);
    /* a weight exp(c u - T) below MPFR's exponent range (about 2^-4.6e18) is decided from
     * its logarithm (em_cont_deep.c), which needs the exponent's integer part in a
     * mantissa: past EM_CONT_MAX_EXPONENT_BITS bits no precision of the rounding loops
     * could hold it */
    for (size_t j = 0; j < n; j++) {
        if (C->zero[j])
            continue;
        int bad = (finite_lo(C, j) && em_q_bits(C->tl[j]) > EM_CONT_MAX_EXPONENT_BITS) ||
                  (finite_hi(C, j) && em_q_bits(C->th[j]) > EM_CONT_MAX_EXPONENT_BITS);
        if (bad) {
            em_cont_free(C);
            return em_err(err, EM_ERR_UNDECIDED,
                          "%s:%lu: piece %zu: its density relative to the largest is below "
                          "exp(-2^%d), beyond the continuous oracle's precision limit "
                          "(rescale the utilities, or use a finite scenario)",
                          name, LINE(j), j + 1, EM_CONT_MAX_EXPONENT_BITS);
        }
    }
#undef LINE
    finish_common(C);
    if (C->npos == 0) {
        em_cont_free(C);
        return em_err(err, EM_ERR_DOMAIN, "%s: every piece has length 0: the total mass is 0",
                      name);
    }
    /* exponents enter the precision: |t| large needs more bits for exp's argument */
    long tb = 0;
    for (size_t j = 0; j < n; j++) {
        long b1 = em_q_bits(C->tl[j]), b2 = em_q_bits(C->th[j]);
        if (b1 > tb)
            tb = b1;
        if (b2 > tb)
            tb = b2;
    }
    add_exponent_bits(C, tb);
    *out = C;
    return EM_OK;
}

static int new_atoms(const em_problem *P, int digits, em_cont **out, em_error *err)
{
    const size_t n = P->n;
    const unsigned char *excluded = P->excluded;
    mpq_t *m = P->measure;
    int st = em_problem_check(P, err);
    if (st == EM_OK)
        st = check_params(P, digits, err);
    if (st != EM_OK)
        return st;
    for (size_t j = 0; m && j < n; j++)
        if (mpq_sgn(m[j]) < 0)
            return em_err(err, EM_ERR_DOMAIN, "candidate %zu: negative measure", j + 1);
    em_cont *C = cont_alloc(n, EM_CONT_ATOMS, digits);
    if (!C)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    mpq_set(C->c, P->c);
    int haveT = 0;
    mpq_t t;
    mpq_init(t);
    for (size_t j = 0; j < n; j++) {
        C->line[j] = (unsigned long)j + 1;
        if (m)
            mpq_set(C->len[j], m[j]);
        else
            mpq_set_ui(C->len[j], 1, 1);
        C->excl[j] = excluded && excluded[j];
        C->zero[j] = C->excl[j] || mpq_sgn(C->len[j]) == 0;
        if (C->excl[j])
            continue;
        em_problem_get(P, j, C->a[j]);
        mpq_mul(t, C->c, C->a[j]);
        if (!C->zero[j] && (!haveT || mpq_cmp(t, C->T) > 0)) {
            mpq_set(C->T, t);
            haveT = 1;
        }
    }
    for (size_t j = 0; j < n; j++)
        if (!C->excl[j]) {
            mpq_mul(C->tl[j], C->c, C->a[j]);
            mpq_sub(C->tl[j], C->tl[j], C->T);
            mpq_set(C->th[j], C->tl[j]);
            mpq_set(C->ca[j], C->tl[j]);
        }
    mpq_clear(t);
    for (size_t j = 0; j < n; j++)
        if (!C->zero[j] && mpq_cmp_si(C->tl[j], EM_CONT_MIN_EXPONENT, 1) < 0) {
            em_cont_free(C);
            return em_err(err, EM_ERR_UNDECIDED,
                          "candidate %zu: its weight relative to the largest is below "
                          "exp(%ld), outside MPFR's exponent range: the weighted oracle "
                          "cannot decide anything about it (without a measure column the "
                          "finite oracle can)",
                          j + 1, (long)EM_CONT_MIN_EXPONENT);
        }
    finish_common(C);
    if (C->npos == 0) {
        em_cont_free(C);
        return em_err(err, EM_ERR_ALL_EXCLUDED, "every candidate is excluded or has measure 0");
    }
    long tb = 0;
    for (size_t j = 0; j < n; j++) {
        long b1 = em_q_bits(C->tl[j]);
        if (b1 > tb)
            tb = b1;
    }
    add_exponent_bits(C, tb);
    *out = C;
    return EM_OK;
}

int em_cont_new(const em_problem *P, int digits, em_cont **out, em_error *err)
{
    if (!P || !out)
        return em_err(err, EM_ERR_NULL, "em_cont_new: problem or out NULL");
    *out = NULL;
    return P->pieces ? new_pieces(P, digits, out, err) : new_atoms(P, digits, out, err);
}

int em_cont_kind(const em_cont *C) { return C->kind; }
size_t em_cont_size(const em_cont *C) { return C->n; }
int em_cont_digits(const em_cont *C) { return C->K; }

int em_cont_set_digits(em_cont *C, int digits)
{
    if (digits < 1 || digits > EM_ROUND_MAX_DIGITS)
        return EM_ERR_DOMAIN;
    C->K = digits;
    return EM_OK;
}

void em_cont_coef(const em_cont *C, mpq_t c)
{
    mpq_set(c, C->c);
}

void em_cont_piece(const em_cont *C, size_t j, mpq_t lo, mpq_t hi, int *lo_inf, int *hi_inf,
                   mpq_t a, mpq_t b)
{
    if (lo)
        mpq_set(lo, C->lo[j]);
    if (hi)
        mpq_set(hi, C->hi[j]);
    if (lo_inf)
        *lo_inf = C->kind == EM_CONT_PIECES && !finite_lo(C, j);
    if (hi_inf)
        *hi_inf = C->kind == EM_CONT_PIECES && !finite_hi(C, j);
    if (a)
        mpq_set(a, C->a[j]);
    if (b)
        mpq_set(b, C->b[j]);
}

/* ------------------------------------------------------------------ levels */

/* mass of segment [s, e] of piece j, s = lo_j (or -inf), e given by its exponent te and
 * d = k (e - lo) (k != 0) or e - lo (k == 0); bounds at the precision of lo/hi */
void em_cont_seg_bounds(const em_cont *C, size_t j, const struct level *L, const mpq_t te,
                        const mpq_t d, mpfr_t lo, mpfr_t hi, mpfr_t s1, mpfr_t s2, mpfr_t s3, mpfr_t s4)
{
    if (C->kind == EM_CONT_ATOMS) {
        mpfr_mul_q(lo, L->Elo[j], C->len[j], MPFR_RNDD);
        mpfr_mul_q(hi, L->Ehi[j], C->len[j], MPFR_RNDU);
        return;
    }
    if (!finite_lo(C, j)) {
        /* exp(te) / k, k > 0 */
        em_exp_q_bounds(lo, hi, te, s1, s2);
        mpfr_div_q(lo, lo, C->k[j], MPFR_RNDD);
        mpfr_div_q(hi, hi, C->k[j], MPFR_RNDU);
        return;
    }
    if (mpq_sgn(d) == 0) {
        mpfr_set_zero(lo, 1);
        mpfr_set_zero(hi, 1);
        return;
    }
    if (mpq_sgn(C->k[j]) == 0) {
        em_q_bounds(s1, s2, d);
        mpfr_mul(lo, L->Elo[j], s1, MPFR_RNDD);
        mpfr_mul(hi, L->Ehi[j], s2, MPFR_RNDU);
        return;
    }
    if (mpq_sgn(C->k[j]) > 0 && mpfr_zero_p(L->Elo[j])) {
        /* exp(tl) below MPFR's range (a slope of 1e400): anchored at the top end instead,
         * exp(te) (-expm1(-d)) / k, where exp(tl) expm1(d) / k would multiply an
         * underflow by an overflow */
        mpq_t nd, nk;
        mpq_inits(nd, nk, (mpq_ptr)0);
        mpq_neg(nd, d);
        mpq_neg(nk, C->k[j]);
        g_b(s3, s4, nd, nk, s1, s2);
        mpq_clears(nd, nk, (mpq_ptr)0);
        em_exp_q_bounds(lo, hi, te, s1, s2);
        mpfr_mul(lo, lo, s3, MPFR_RNDD);
        mpfr_mul(hi, hi, s4, MPFR_RNDU);
        return;
    }
    g_b(s3, s4, d, C->k[j], s1, s2);
    mpfr_mul(lo, L->Elo[j], s3, MPFR_RNDD);
    mpfr_mul(hi, L->Ehi[j], s4, MPFR_RNDU);
}

/* whole-piece mass when the right end is +inf: exp(tl) / (-k) */
static void seg_hi_inf_b(const em_cont *C, size_t j, const struct level *L, mpfr_t lo, mpfr_t hi)
{
    mpq_t mk;
    mpq_init(mk);
    mpq_neg(mk, C->k[j]);
    mpfr_div_q(lo, L->Elo[j], mk, MPFR_RNDD);
    mpfr_div_q(hi, L->Ehi[j], mk, MPFR_RNDU);
    mpq_clear(mk);
}

/* d of the whole piece j: k (hi - lo), or hi - lo when k == 0 */
static void piece_d(const em_cont *C, size_t j, mpq_t d)
{
    if (mpq_sgn(C->k[j]) == 0)
        mpq_set(d, C->len[j]);
    else
        mpq_sub(d, C->th[j], C->tl[j]);
}

int em_cont_level(em_cont *C, int l, struct level **out)
{
    struct level *L = &C->lev[l];
    if (!L->done) {
        int st = em_cont_level_fill(C, L, C->p0 << l);
        if (st != EM_OK)
            return st;
    }
    *out = L;
    return EM_OK;
}

int em_cont_level_fill(em_cont *C, struct level *L, mpfr_prec_t p)
{
    const size_t n = C->n;
    L->p = p;
    L->Mlo = malloc(n * sizeof(mpfr_t));
    L->Mhi = malloc(n * sizeof(mpfr_t));
    L->Elo = malloc(n * sizeof(mpfr_t));
    L->Ehi = malloc(n * sizeof(mpfr_t));
    L->Clo = malloc((n + 1) * sizeof(mpfr_t));
    L->Chi = malloc((n + 1) * sizeof(mpfr_t));
    if (!L->Mlo || !L->Mhi || !L->Elo || !L->Ehi || !L->Clo || !L->Chi) {
        EM_FREE_ALL(L->Mlo, L->Mhi, L->Elo, L->Ehi, L->Clo, L->Chi);
        return EM_ERR_NOMEM;
    }
    mpfr_t s1, s2, s3, s4;
    mpfr_inits2(p, s1, s2, s3, s4, (mpfr_ptr)0);
    mpq_t d;
    mpq_init(d);
    for (size_t j = 0; j < n; j++) {
        mpfr_inits2(p, L->Mlo[j], L->Mhi[j], L->Elo[j], L->Ehi[j], (mpfr_ptr)0);
        if (C->zero[j]) {
            mpfr_set_zero(L->Elo[j], 1);
            mpfr_set_zero(L->Ehi[j], 1);
            mpfr_set_zero(L->Mlo[j], 1);
            mpfr_set_zero(L->Mhi[j], 1);
            continue;
        }
        if (finite_lo(C, j))
            em_exp_q_bounds(L->Elo[j], L->Ehi[j], C->tl[j], s1, s2);
        else
            mpfr_set_zero(L->Elo[j], 1), mpfr_set_zero(L->Ehi[j], 1);
        if (C->kind == EM_CONT_PIECES && !finite_hi(C, j) && finite_lo(C, j)) {
            seg_hi_inf_b(C, j, L, L->Mlo[j], L->Mhi[j]);
        } else {
            piece_d(C, j, d);
            em_cont_seg_bounds(C, j, L, C->th[j], d, L->Mlo[j], L->Mhi[j], s1, s2, s3, s4);
        }
    }
    for (size_t j = 0; j <= n; j++)
        mpfr_inits2(p, L->Clo[j], L->Chi[j], (mpfr_ptr)0);
    mpfr_set_zero(L->Clo[0], 1);
    mpfr_set_zero(L->Chi[0], 1);
    for (size_t j = 0; j < n; j++) {
        mpfr_add(L->Clo[j + 1], L->Clo[j], L->Mlo[j], MPFR_RNDD);
        mpfr_add(L->Chi[j + 1], L->Chi[j], L->Mhi[j], MPFR_RNDU);
    }
    mpq_clear(d);
    mpfr_clears(s1, s2, s3, s4, (mpfr_ptr)0);
    L->done = 1;
    return EM_OK;
}
