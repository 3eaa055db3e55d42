/* em_cont.c: the exact oracle for weighted finite and continuous (piecewise-linear utility)
 * laws.  The method and its exactness argument: spec/Continuous.md; API: em_cont.h.
 *
 * Notation.  c = eps/(2 delta) or eps/delta; every exponent is shifted by T = the largest
 * c u over the finite ends (atoms: over the candidates), so the exponents used are <= 0
 * and nothing overflows.  For piece j, k_j = c b_j, tl_j = c u(lo_j) - T, th_j = c u(hi_j)
 * - T, ca_j = c a_j - T (so c u(x) - T = ca_j + k_j x).  The mass of a segment [s, e] of a
 * piece is (exp(te) - exp(ts)) / k (k != 0, a missing term at an infinite end) or
 * (e - s) exp(ts) (k == 0); for computing it is written exp(ts) expm1(k (e - s)) / k, or
 * with -inf as s, exp(te) / k.  An atom's mass is m exp(t). */
#include "oracle/em_cont.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
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

#define NLEV 12                /* precision levels p0 * 2^k cached */
#define SAMPLE_STEP 8          /* bits drawn per refinement of a draw */

struct level {
    mpfr_prec_t p;
    mpfr_t *Mlo, *Mhi;         /* masses (T-shifted) */
    mpfr_t *Clo, *Chi;         /* prefix sums C_0 = 0 .. C_n = Z */
    mpfr_t *Elo, *Ehi;         /* exp(tl_j) (pieces with a finite lo; atoms: exp(t_j)) */
    int done;
};

struct em_cont {
    int kind;
    size_t n;
    int K;
    mpq_t c, T;
    mpq_t *lo, *hi, *a, *b, *k, *tl, *th, *ca, *len;
    int lo_inf, hi_inf;
    unsigned char *zero;       /* mass exactly 0 */
    unsigned char *excl;       /* atoms: excluded */
    size_t npos, onlypos;
    unsigned long *line;
    mpfr_prec_t p0;
    struct level lev[NLEV];
    struct level slev;         /* the sampling level: 64 bits */
    mpfr_t *flo, *fhi, *fk, *fca; /* 64-bit bounds, two per piece (lo, hi): lo_j, hi_j,
                                     k_j, ca_j, for the sampler's fast comparison */
    unsigned first_chunk;      /* bits of the first read (63 by default) */
    int test_bug;              /* test hook: 1 = round X down instead of to nearest */
    /* sampling */
    uint64_t *lo64, *hi64;
    double *Fd;                /* approximate F at the cell starts (float path) */
    double *Ed, *kd, *lod;     /* approximate exp(tl - tlmax), k, lo (float path) */
    long double *Fl, *El, *kl, *lol; /* the same in long double: the exact sampler's first
                                        guess (any guess is corrected; a good one saves
                                        comparisons) */
    mpq_t scratch_q[4];
};


static double dnext(double y, int dir)
{
    return nextafter(y, dir > 0 ? INFINITY : -INFINITY);
}

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

/* ------------------------------------------------------------ construction */

static void cont_free_arrays(em_cont *C)
{
    mpq_t **arrs[] = {&C->lo, &C->hi, &C->a, &C->b, &C->k, &C->tl, &C->th, &C->ca, &C->len};
    for (size_t a = 0; a < sizeof arrs / sizeof arrs[0]; a++) {
        if (*arrs[a]) {
            for (size_t j = 0; j < C->n; j++)
                mpq_clear((*arrs[a])[j]);
            free(*arrs[a]);
            *arrs[a] = NULL;
        }
    }
}

static void level_clear(em_cont *C, struct level *L)
{
    if (!L->done)
        return;
    for (size_t j = 0; j <= C->n; j++) {
        mpfr_clear(L->Clo[j]);
        mpfr_clear(L->Chi[j]);
    }
    for (size_t j = 0; j < C->n; j++) {
        mpfr_clear(L->Mlo[j]);
        mpfr_clear(L->Mhi[j]);
        mpfr_clear(L->Elo[j]);
        mpfr_clear(L->Ehi[j]);
    }
    free(L->Clo);
    free(L->Chi);
    free(L->Mlo);
    free(L->Mhi);
    free(L->Elo);
    free(L->Ehi);
    L->done = 0;
}

void em_cont_free(em_cont *C)
{
    if (!C)
        return;
    for (int l = 0; l < NLEV; l++)
        level_clear(C, &C->lev[l]);
    level_clear(C, &C->slev);
    if (C->flo) {
        for (size_t j = 0; j < 2 * C->n; j++)
            mpfr_clears(C->flo[j], C->fhi[j], C->fk[j], C->fca[j], (mpfr_ptr)0);
        free(C->flo);
        free(C->fhi);
        free(C->fk);
        free(C->fca);
    }
    cont_free_arrays(C);
    mpq_clear(C->c);
    mpq_clear(C->T);
    for (int i = 0; i < 4; i++)
        mpq_clear(C->scratch_q[i]);
    free(C->zero);
    free(C->excl);
    free(C->line);
    free(C->lo64);
    free(C->hi64);
    free(C->Fd);
    free(C->Fl);
    free(C->El);
    free(C->kl);
    free(C->lol);
    free(C->Ed);
    free(C->kd);
    free(C->lod);
    free(C);
}

static int alloc_q(mpq_t **p, size_t n)
{
    *p = malloc((n ? n : 1) * sizeof **p);
    if (!*p)
        return 0;
    for (size_t j = 0; j < n; j++)
        mpq_init((*p)[j]);
    return 1;
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
    for (int i = 0; i < 4; i++)
        mpq_init(C->scratch_q[i]);
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

static int finite_lo(const em_cont *C, size_t j) { return !(j == 0 && C->lo_inf); }
static int finite_hi(const em_cont *C, size_t j) { return !(j == C->n - 1 && C->hi_inf); }

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

static long qbits(const mpq_t q)
{
    if (mpq_sgn(q) == 0)
        return 0;
    long b = (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2) + 1;
    return b < 0 ? 0 : b;
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
             * one there would push every real weight below MPFR's range; found by fuzzing) */
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
    /* every weight exp(c u - T) of a piece with mass must lie inside MPFR's exponent range
     * (its widest: about 2^-4.6e18), or no precision decides anything about it */
    for (size_t j = 0; j < n; j++) {
        if (C->zero[j])
            continue;
        int bad = (finite_lo(C, j) && mpq_cmp_si(C->tl[j], EM_CONT_MIN_EXPONENT, 1) < 0) ||
                  (finite_hi(C, j) && mpq_cmp_si(C->th[j], EM_CONT_MIN_EXPONENT, 1) < 0);
        if (bad) {
            em_cont_free(C);
            return em_err(err, EM_ERR_UNDECIDED,
                          "%s:%lu: piece %zu: its density relative to the largest is below "
                          "exp(%ld), outside MPFR's exponent range: the continuous oracle "
                          "cannot decide anything about it (rescale the utilities, or use a "
                          "finite scenario)",
                          name, LINE(j), j + 1, (long)EM_CONT_MIN_EXPONENT);
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
        long b1 = qbits(C->tl[j]), b2 = qbits(C->th[j]);
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
        long b1 = qbits(C->tl[j]);
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
static void seg_b(const em_cont *C, size_t j, const struct level *L, const mpq_t te,
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

static int level_fill(em_cont *C, struct level *L, mpfr_prec_t p);

static int level_get(em_cont *C, int l, struct level **out)
{
    struct level *L = &C->lev[l];
    if (!L->done) {
        int st = level_fill(C, L, C->p0 << l);
        if (st != EM_OK)
            return st;
    }
    *out = L;
    return EM_OK;
}

static int level_fill(em_cont *C, struct level *L, mpfr_prec_t p)
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
        free(L->Mlo);
        free(L->Mhi);
        free(L->Elo);
        free(L->Ehi);
        free(L->Clo);
        free(L->Chi);
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
            seg_b(C, j, L, C->th[j], d, L->Mlo[j], L->Mhi[j], s1, s2, s3, s4);
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

/* ------------------------------------------------------------ exact terms */

/* append coef * exp(shift) * (mass of segment [lo_j, x] of piece j) (T-shifted exponents);
 * x_end: NULL = the whole piece */
static int append_seg(const em_cont *C, em_expoly *P, size_t j, const mpq_t x, const mpq_t coef,
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

static int append_z_shifted(const em_cont *C, em_expoly *P, const mpq_t coef, const mpq_t shift)
{
    for (size_t j = 0; j < C->n; j++) {
        int st = append_seg(C, P, j, NULL, coef, shift);
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
    int st = append_z_shifted(C, P, coef, s);
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

size_t em_cont_piece_right(const em_cont *C, const mpq_t x)
{
    if (C->kind != EM_CONT_PIECES)
        return C->n;
    size_t j = last_start_le(C, x);
    if (j == C->n)
        return C->n;
    /* pieces of length 0 starting at x: the piece at x on the right is the last one with
     * lo <= x whose interval [lo, hi) contains x and has positive length */
    for (size_t i = j + 1; i-- > 0;) {
        if (C->zero[i]) {
            if (i == 0)
                break;
            continue;
        }
        if (!finite_hi(C, i) || mpq_cmp(x, C->hi[i]) < 0)
            return i;
        break;
    }
    return C->n;
}

size_t em_cont_piece_left(const em_cont *C, const mpq_t x)
{
    if (C->kind != EM_CONT_PIECES)
        return C->n;
    size_t j = last_start_le(C, x);
    if (j == C->n)
        return C->n;
    for (size_t i = j + 1; i-- > 0;) {
        if (C->zero[i] || (finite_lo(C, i) && mpq_cmp(C->lo[i], x) >= 0)) {
            if (i == 0)
                break;
            continue;
        }
        if (!finite_hi(C, i) || mpq_cmp(x, C->hi[i]) <= 0)
            return i;
        break;
    }
    return C->n;
}

/* F(x) = N(x) / Z: where x is.  *where: -1 left of R (F = 0), +1 right of R (F = 1), 0
 * inside; *j the piece with lo_j <= x (inside); *partial whether x lies strictly inside
 * piece j (else N = C_{j+1} when x >= hi_j, or C_j when x == lo_j). */
static void locate(const em_cont *C, const mpq_t x, int *where, size_t *j, int *partial,
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
static void n_bounds(const em_cont *C, const struct level *L, const mpq_t x, mpfr_t lo, mpfr_t hi)
{
    int where, partial;
    size_t j = 0, ci;
    locate(C, x, &where, &j, &partial, &ci);
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
    seg_b(C, j, L, te, d, a, b, s1, s2, s3, s4);
    mpfr_add(lo, lo, a, MPFR_RNDD);
    mpfr_add(hi, hi, b, MPFR_RNDU);
    mpq_clears(te, d, (mpq_ptr)0);
    mpfr_clears(a, b, s1, s2, s3, s4, (mpfr_ptr)0);
}

static int append_n(const em_cont *C, em_expoly *P, const mpq_t x, const mpq_t coef, const mpq_t shift)
{
    int where, partial;
    size_t j = 0, ci;
    locate(C, x, &where, &j, &partial, &ci);
    for (size_t i = 0; i < ci; i++) {
        int st = append_seg(C, P, i, NULL, coef, shift);
        if (st != EM_OK)
            return st;
    }
    if (partial)
        return append_seg(C, P, j, x, coef, shift);
    return EM_OK;
}

/* ---------------------------------------------------------- value kinds */

enum { V_PROB, V_LOGPROB, V_CDF, V_DENS, V_LOGDENS, V_RATIONAL };

struct vctx {
    em_cont *C;
    int kind;
    size_t j;
    const mpq_t *x;       /* the point (CDF, density) or the rational value */
    mpq_t te;             /* density: exponent c u(x) - T */
};

static int level_for(em_cont *C, mpfr_prec_t prec, struct level **L)
{
    int l = 0;
    while (l + 1 < NLEV && (C->p0 << l) < prec)
        l++;
    return level_get(C, l, L);
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
    if (V->kind == V_RATIONAL) {
        mpfr_set_prec(lo, prec);
        mpfr_set_prec(hi, prec);
        em_q_bounds(lo, hi, *V->x);
        return EM_OK;
    }
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
        n_bounds(C, L, *V->x, a, b);
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
    if (V->kind == V_RATIONAL) {
        int c = mpq_cmp(*V->x, B);
        *sign = (c > 0) - (c < 0);
        return EM_OK;
    }
    em_expoly P;
    em_expoly_init(&P);
    mpq_t one, mB, zero;
    mpq_inits(one, mB, zero, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpq_neg(mB, B);
    int st = EM_OK;
    switch (V->kind) {
    case V_PROB: /* M_j - B Z */
        st = append_seg(C, &P, V->j, NULL, one, zero);
        if (st == EM_OK)
            st = append_z_shifted(C, &P, mB, zero);
        break;
    case V_LOGPROB: /* M_j - e^B Z */
        st = append_seg(C, &P, V->j, NULL, one, zero);
        mpq_neg(one, one);
        if (st == EM_OK)
            st = append_z_shifted(C, &P, one, B);
        break;
    case V_CDF: /* N(x) - B Z */
        st = append_n(C, &P, *V->x, one, zero);
        if (st == EM_OK)
            st = append_z_shifted(C, &P, mB, zero);
        break;
    case V_DENS: /* e^te - B Z */
        st = em_expoly_add(&P, one, V->te);
        if (st == EM_OK)
            st = append_z_shifted(C, &P, mB, zero);
        break;
    case V_LOGDENS: /* e^te - e^B Z */
        st = em_expoly_add(&P, one, V->te);
        mpq_neg(one, one);
        if (st == EM_OK)
            st = append_z_shifted(C, &P, one, B);
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

static int em_cont_prob_impl(em_cont *C, size_t j, em_cval *p, em_cval *logp)
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
    if (st == EM_OK) /* below 1: another piece has mass */
        st = em_cval_below_one(p, C->K);
    if (st == EM_OK) {
        V.kind = V_LOGPROB;
        st = round_value(C, &V, logp);
    }
    return st;
}

static int em_cont_cdf_impl(em_cont *C, const mpq_t x, em_cval *out)
{
    if (!C || !x || !out)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    int where, partial;
    size_t j = 0, ci;
    locate(C, x, &where, &j, &partial, &ci);
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
    return round_value(C, &V, out);
}

static int em_cont_density_impl(em_cont *C, const mpq_t x, em_cval *dens, em_cval *logdens)
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
    if (st == EM_OK) {
        V.kind = V_LOGDENS;
        st = round_value(C, &V, logdens);
    }
    mpq_clear(V.te);
    return st;
}

static int round_rational(em_cont *C, const mpq_t q, em_cval *out)
{
    if (mpq_sgn(q) == 0)
        return em_cval_exact(out, "0", 0.0);
    struct vctx V = {.C = C, .kind = V_RATIONAL, .j = 0, .x = (const mpq_t *)q};
    int st = round_value(C, &V, out);
    if (st == EM_OK) {
        /* exact if the decimal is the value */
        mpq_t r;
        mpq_init(r);
        int kind;
        if (em_q_parse_str(out->str, 0, r, &kind, NULL) == EM_OK && mpq_equal(r, q))
            out->flags |= EM_CV_EXACT;
        mpq_clear(r);
    }
    return st;
}

static int em_cont_round_q_impl(em_cont *C, const mpq_t q, em_cval *out)
{
    if (!C || !q || !out)
        return EM_ERR_NULL;
    return round_rational(C, q, out);
}

const char *em_cont_strerror(int st)
{
    if (st == EM_ERR_UNDECIDED)
        return "the correctly rounded value could not be decided within 2^20 bits "
               "(an internal limit; please report the input)";
    return em_strerror(st);
}

/* --------------------------------------------------------------- CDF API */

static int em_cont_cdf_bounds_impl(em_cont *C, const mpq_t x, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    if (!C || !x)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    struct vctx V = {.C = C, .kind = V_CDF, .j = 0, .x = (const mpq_t *)x};
    int where, partial;
    size_t j, ci;
    locate(C, x, &where, &j, &partial, &ci);
    if (where != 0) {
        mpfr_set_prec(lo, prec < 64 ? 64 : prec);
        mpfr_set_prec(hi, prec < 64 ? 64 : prec);
        mpfr_set_ui(lo, where > 0, MPFR_RNDN);
        mpfr_set_ui(hi, where > 0, MPFR_RNDN);
        return EM_OK;
    }
    return v_bounds(&V, prec, lo, hi);
}

/* sign(F(x) - q) */
static int em_cont_cdf_cmp_impl(em_cont *C, const mpq_t x, const mpq_t q, int *sign)
{
    if (!C || !x || !q || !sign)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    int where, partial;
    size_t j, ci;
    locate(C, x, &where, &j, &partial, &ci);
    if (where != 0) {
        int c = mpq_cmp_ui(q, where > 0, 1);
        *sign = -((c > 0) - (c < 0));
        return EM_OK;
    }
    struct vctx V = {.C = C, .kind = V_CDF, .j = 0, .x = (const mpq_t *)x};
    em_rval rv = {v_bounds, v_cmp, &V};
    return em_round_cmp(&rv, C->p0, q, sign);
}

static int em_cont_logz_bounds_impl(em_cont *C, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
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

/* ------------------------------------------------------- expected utility */

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

/* sum over pieces of the integral of (u - m) exp(c u - T), as terms (m = NULL: 0) */
static int append_uint(const em_cont *C, em_expoly *P, const mpq_t m)
{
    mpq_t q, u, ic, ic2;
    mpq_inits(q, u, ic, ic2, (mpq_ptr)0);
    mpq_inv(ic, C->c);
    mpq_mul(ic2, ic, ic);
    int st = EM_OK;
    for (size_t j = 0; j < C->n && st == EM_OK; j++) {
        if (C->zero[j])
            continue;
        if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) {
            /* m u exp(t) (atoms), or a len exp(tl) */
            mpq_set(u, C->a[j]);
            if (m)
                mpq_sub(u, u, m);
            mpq_mul(q, u, C->len[j]);
            st = em_expoly_add(P, q, C->tl[j]);
            continue;
        }
        /* (1/b) [exp(c u - T) (u/c - 1/c^2)] from u(lo) to u(hi) */
        for (int e = 0; e < 2 && st == EM_OK; e++) {
            if (e == 0 ? !finite_lo(C, j) : !finite_hi(C, j))
                continue;
            mpq_mul(u, C->b[j], e == 0 ? C->lo[j] : C->hi[j]);
            mpq_add(u, u, C->a[j]);
            if (m)
                mpq_sub(u, u, m); /* the same slope b: the antiderivative keeps its form */
            mpq_mul(q, u, ic);
            mpq_sub(q, q, ic2);
            mpq_div(q, q, C->b[j]);
            if (e == 0)
                mpq_neg(q, q);
            st = em_expoly_add(P, q, e == 0 ? C->tl[j] : C->th[j]);
        }
    }
    mpq_clears(q, u, ic, ic2, (mpq_ptr)0);
    return st;
}

/* the largest utility over the support (exact) */
static void opt_of(const em_cont *C, mpq_t opt)
{
    int have = 0;
    mpq_t u;
    mpq_init(u);
    for (size_t j = 0; j < C->n; j++) {
        if (C->zero[j])
            continue;
        for (int e = 0; e < 2; e++) {
            if (C->kind == EM_CONT_ATOMS) {
                if (e)
                    continue;
                mpq_set(u, C->a[j]);
            } else {
                if (e == 0 ? !finite_lo(C, j) : !finite_hi(C, j))
                    continue;
                mpq_mul(u, C->b[j], e == 0 ? C->lo[j] : C->hi[j]);
                mpq_add(u, u, C->a[j]);
            }
            if (!have || mpq_cmp(u, opt) > 0)
                mpq_set(opt, u);
            have = 1;
        }
    }
    mpq_clear(u);
}

static int em_cont_utility_impl(em_cont *C, em_cval *eu, em_cval *loss, em_cval *opt)
{
    if (!C || !eu || !loss || !opt)
        return EM_ERR_NULL;
    struct ratio R;
    em_expoly N0, D0;
    em_expoly_init(&N0);
    em_expoly_init(&D0);
    mpq_init(R.zero);
    mpq_t one, mopt;
    mpq_inits(one, mopt, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    int st = append_uint(C, &N0, NULL);
    if (st == EM_OK)
        st = append_z_shifted(C, &D0, one, R.zero);
    em_expoly_init(&R.N);
    em_expoly_init(&R.D);
    if (st == EM_OK)
        st = em_expoly_merged(&D0, &R.D);
    if (st == EM_OK)
        st = em_expoly_merged(&N0, &R.N);
    em_rval rv = {ratio_bounds, ratio_cmp, &R};
    if (st == EM_OK)
        st = em_round(&rv, C->K, C->p0, eu);
    /* loss = OPT - N/D = (OPT D - N) / D */
    opt_of(C, mopt);
    if (st == EM_OK)
        st = round_rational(C, mopt, opt);
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
    }
    em_expoly_clear(&N0);
    em_expoly_clear(&D0);
    em_expoly_clear(&R.N);
    em_expoly_clear(&R.D);
    mpq_clears(R.zero, one, mopt, (mpq_ptr)0);
    return st;
}

static int em_cont_interval_prob_impl(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out)
{
    if (!C || !a || !b || !out)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES || mpq_cmp(a, b) > 0)
        return EM_ERR_DOMAIN;
    struct ratio R;
    em_expoly N0, D0;
    em_expoly_init(&N0);
    em_expoly_init(&D0);
    em_expoly_init(&R.N);
    em_expoly_init(&R.D);
    mpq_init(R.zero);
    mpq_t one, mone;
    mpq_inits(one, mone, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpq_set_si(mone, -1, 1);
    int st = append_n(C, &N0, b, one, R.zero);
    if (st == EM_OK)
        st = append_n(C, &N0, a, mone, R.zero);
    if (st == EM_OK)
        st = append_z_shifted(C, &D0, one, R.zero);
    if (st == EM_OK)
        st = em_expoly_merged(&N0, &R.N);
    if (st == EM_OK)
        st = em_expoly_merged(&D0, &R.D);
    if (st == EM_OK) {
        if (R.N.n == 0) {
            st = em_cval_exact(out, "0", 0.0);
        } else if (R.N.n == R.D.n) {
            /* exactly 1 when N and D are the same polynomial */
            int same = 1;
            for (size_t i = 0; i < R.N.n && same; i++)
                same = mpq_equal(R.N.q[i], R.D.q[i]) && mpq_equal(R.N.t[i], R.D.t[i]);
            if (same)
                st = em_cval_exact(out, "1", 1.0);
            else
                goto general;
        } else {
        general:;
            em_rval rv = {ratio_bounds, ratio_cmp, &R};
            st = em_round(&rv, C->K, C->p0, out);
        }
    }
    em_expoly_clear(&N0);
    em_expoly_clear(&D0);
    em_expoly_clear(&R.N);
    em_expoly_clear(&R.D);
    mpq_clears(R.zero, one, mone, (mpq_ptr)0);
    return st;
}

/* round N / D for merged exponential polynomials (D > 0); "0" exactly when N is empty */
static int round_ratio(em_cont *C, em_expoly *N0, em_expoly *D0, em_cval *out)
{
    struct ratio R;
    em_expoly_init(&R.N);
    em_expoly_init(&R.D);
    mpq_init(R.zero);
    int st = em_expoly_merged(N0, &R.N);
    if (st == EM_OK)
        st = em_expoly_merged(D0, &R.D);
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
        }
    }
    em_expoly_clear(&R.N);
    em_expoly_clear(&R.D);
    mpq_clear(R.zero);
    return st;
}

/* the mass of {r in piece j : a + b r < v} (strict), or <= v when le, as terms */
static int append_below(const em_cont *C, em_expoly *P, size_t j, const mpq_t v, int le)
{
    if (C->zero[j])
        return EM_OK;
    mpq_t one, mone, zero, x;
    mpq_inits(one, mone, zero, x, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpq_set_si(mone, -1, 1);
    int st = EM_OK;
    if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) {
        int c = mpq_cmp(C->a[j], v);
        if (c < 0 || (le && c == 0))
            st = append_seg(C, P, j, NULL, one, zero);
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
            st = append_seg(C, P, j, NULL, one, zero);
        else if (!below_lo)
            st = append_seg(C, P, j, x, one, zero);
    } else {
        /* u < v on (x, hi]: the whole piece minus [lo, x] */
        if (below_lo)
            st = append_seg(C, P, j, NULL, one, zero);
        else if (!above_hi) {
            st = append_seg(C, P, j, NULL, one, zero);
            if (st == EM_OK)
                st = append_seg(C, P, j, x, mone, zero);
        }
    }
out:
    mpq_clears(one, mone, zero, x, (mpq_ptr)0);
    return st;
}

static int em_cont_loss_tail_impl(em_cont *C, const mpq_t t, em_cval *out)
{
    if (!C || !t || !out)
        return EM_ERR_NULL;
    if (mpq_sgn(t) < 0)
        return EM_ERR_DOMAIN;
    mpq_t v, one, zero;
    mpq_inits(v, one, zero, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    opt_of(C, v);
    mpq_sub(v, v, t);
    em_expoly N, D;
    em_expoly_init(&N);
    em_expoly_init(&D);
    int st = EM_OK;
    for (size_t j = 0; j < C->n && st == EM_OK; j++)
        st = append_below(C, &N, j, v, 0);
    if (st == EM_OK)
        st = append_z_shifted(C, &D, one, zero);
    if (st == EM_OK)
        st = round_ratio(C, &N, &D, out);
    em_expoly_clear(&N);
    em_expoly_clear(&D);
    mpq_clears(v, one, zero, (mpq_ptr)0);
    return st;
}

static int em_cont_p_best_impl(em_cont *C, em_cval *out)
{
    if (!C || !out)
        return EM_ERR_NULL;
    mpq_t v, one, zero;
    mpq_inits(v, one, zero, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    opt_of(C, v);
    em_expoly N, D;
    em_expoly_init(&N);
    em_expoly_init(&D);
    int st = EM_OK;
    /* u = OPT on a set of positive mass: an atom at OPT, or a constant piece at OPT */
    for (size_t j = 0; j < C->n && st == EM_OK; j++)
        if (!C->zero[j] && (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) &&
            mpq_equal(C->a[j], v))
            st = append_seg(C, &N, j, NULL, one, zero);
    if (st == EM_OK)
        st = append_z_shifted(C, &D, one, zero);
    if (st == EM_OK)
        st = round_ratio(C, &N, &D, out);
    em_expoly_clear(&N);
    em_expoly_clear(&D);
    mpq_clears(v, one, zero, (mpq_ptr)0);
    return st;
}

/* the integral of (u - m)^2 exp(c u - T) over each piece (atoms: mass (u - m)^2 exp(t)),
 * as terms: with v = u - m (slope b as u), (1/b) [exp(c u - T) (v^2/c - 2v/c^2 + 2/c^3)]
 * between the ends (b != 0) */
static int append_u2int(const em_cont *C, em_expoly *P, const mpq_t m)
{
    mpq_t q, u, ic, w;
    mpq_inits(q, u, ic, w, (mpq_ptr)0);
    mpq_inv(ic, C->c);
    int st = EM_OK;
    for (size_t j = 0; j < C->n && st == EM_OK; j++) {
        if (C->zero[j])
            continue;
        if (C->kind == EM_CONT_ATOMS || mpq_sgn(C->b[j]) == 0) {
            mpq_sub(u, C->a[j], m);
            mpq_mul(q, u, u);
            mpq_mul(q, q, C->len[j]);
            st = em_expoly_add(P, q, C->tl[j]);
            continue;
        }
        for (int e = 0; e < 2 && st == EM_OK; e++) {
            if (e == 0 ? !finite_lo(C, j) : !finite_hi(C, j))
                continue;
            mpq_mul(u, C->b[j], e == 0 ? C->lo[j] : C->hi[j]);
            mpq_add(u, u, C->a[j]);
            mpq_sub(u, u, m);
            /* w = u^2/c - 2u/c^2 + 2/c^3 = ((u/c - 1/c^2)... ) computed directly */
            mpq_mul(w, u, ic);         /* u/c */
            mpq_mul(q, w, u);          /* u^2/c */
            mpq_mul(w, w, ic);         /* u/c^2 */
            mpz_mul_ui(mpq_numref(w), mpq_numref(w), 2);
            mpq_canonicalize(w);
            mpq_sub(q, q, w);
            mpq_mul(w, ic, ic);
            mpq_mul(w, w, ic);
            mpz_mul_ui(mpq_numref(w), mpq_numref(w), 2);
            mpq_canonicalize(w);
            mpq_add(q, q, w);
            mpq_div(q, q, C->b[j]);
            if (e == 0)
                mpq_neg(q, q);
            st = em_expoly_add(P, q, e == 0 ? C->tl[j] : C->th[j]);
        }
    }
    mpq_clears(q, u, ic, w, (mpq_ptr)0);
    return st;
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
            if (up ? !finite_hi(C, j) : !finite_lo(C, j))
                continue; /* not integrable that way: cannot happen for a valid law */
            mpq_mul(u, C->b[j], up ? C->hi[j] : C->lo[j]);
            mpq_add(u, u, C->a[j]);
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
    mpq_t one, mone, mb2;
    mpq_inits(one, mone, mb2, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    mpq_set_si(mone, -1, 1);
    mpq_mul(mb2, B, B);
    mpq_neg(mb2, mb2);
    int st = expoly_addmul(&P, &S->N2, &S->Z, one);
    if (st == EM_OK)
        st = expoly_addmul(&P, &S->N1, &S->N1, mone);
    if (st == EM_OK)
        st = expoly_addmul(&P, &S->Z, &S->Z, mb2);
    if (st == EM_OK)
        st = em_expoly_sign(&P, sign);
    mpq_clears(one, mone, mb2, (mpq_ptr)0);
    em_expoly_clear(&P);
    return st;
}

static int em_cont_sd_impl(em_cont *C, em_cval *out)
{
    if (!C || !out)
        return EM_ERR_NULL;
    struct sdctx S;
    em_expoly a, b, z;
    em_expoly_init(&a);
    em_expoly_init(&b);
    em_expoly_init(&z);
    mpq_t one, zero, m;
    mpq_inits(one, zero, m, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    /* Var u = E[(u - m)^2] - E[u - m]^2 for every m; with m where the mass concentrates
       the subtraction cancels little (a law within e^-1e8 of one atom: the raw moments
       agree to 1e8 digits, the shifted ones by a factor p).  Correct for any m. */
    mass_center(C, m);
    int st = append_uint(C, &a, m);
    if (st == EM_OK)
        st = append_u2int(C, &b, m);
    if (st == EM_OK)
        st = append_z_shifted(C, &z, one, zero);
    em_expoly_init(&S.N1);
    em_expoly_init(&S.N2);
    em_expoly_init(&S.Z);
    if (st == EM_OK)
        st = em_expoly_merged(&a, &S.N1);
    if (st == EM_OK)
        st = em_expoly_merged(&b, &S.N2);
    if (st == EM_OK)
        st = em_expoly_merged(&z, &S.Z);
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
        }
    }
    em_expoly_clear(&a);
    em_expoly_clear(&b);
    em_expoly_clear(&z);
    em_expoly_clear(&S.N1);
    em_expoly_clear(&S.N2);
    em_expoly_clear(&S.Z);
    mpq_clears(one, zero, m, (mpq_ptr)0);
    return st;
}

/* -------------------------------------------------------------- quantile */

struct qctx {
    em_cont *C;
    const mpq_t *p;
};

/* sign(Q(p) - B) */
static int q_cmp(void *ctx, const mpq_t B, int *sign)
{
    struct qctx *Q = ctx;
    int s;
    int st = em_cont_cdf_cmp(Q->C, B, *Q->p, &s);
    if (st != EM_OK)
        return st;
    if (s < 0)
        *sign = 1;
    else if (s > 0)
        *sign = -1;
    else
        *sign = em_cont_piece_left(Q->C, B) < Q->C->n ? 0 : -1;
    return EM_OK;
}

/* approximate inverse of F inside piece j for the target partial mass v (MPFR, RNDN) */
static void invert_in_piece(const em_cont *C, size_t j, const mpfr_t v, const struct level *L,
                            mpfr_t x)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t t, e, kk;
    mpfr_inits2(p, t, e, kk, (mpfr_ptr)0);
    mpfr_set_q(kk, C->k[j], MPFR_RNDN);
    if (!finite_lo(C, j)) {
        /* exp(c u(x) - T) / k = v: ca + k x = log(v k) */
        mpfr_mul(t, v, kk, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_set_q(e, C->ca[j], MPFR_RNDN);
        mpfr_sub(t, t, e, MPFR_RNDN);
        mpfr_div(x, t, kk, MPFR_RNDN);
    } else {
        mpfr_set(e, L->Elo[j], MPFR_RNDN);
        mpfr_div(t, v, e, MPFR_RNDN);     /* v / exp(tl) */
        if (mpq_sgn(C->k[j]) == 0) {
            mpfr_add_q(x, t, C->lo[j], MPFR_RNDN);
        } else {
            mpfr_mul(t, t, kk, MPFR_RNDN);
            if (mpfr_cmp_si(t, -1) <= 0)
                mpfr_set_si(t, -1, MPFR_RNDN), mpfr_nextabove(t);
            mpfr_log1p(t, t, MPFR_RNDN);
            mpfr_div(t, t, kk, MPFR_RNDN);
            mpfr_add_q(x, t, C->lo[j], MPFR_RNDN);
        }
    }
    /* clamp into the piece */
    if (finite_lo(C, j) && mpfr_cmp_q(x, C->lo[j]) < 0)
        mpfr_set_q(x, C->lo[j], MPFR_RNDN);
    if (finite_hi(C, j) && mpfr_cmp_q(x, C->hi[j]) > 0)
        mpfr_set_q(x, C->hi[j], MPFR_RNDN);
    mpfr_clears(t, e, kk, (mpfr_ptr)0);
}

/* the piece j with F(lo_j) < p <= F(hi_j), p in (0, 1), pieces of positive mass; exact */
static int quantile_piece(em_cont *C, const mpq_t p, size_t *out)
{
    /* binary search on F(hi_j) >= p over positive pieces */
    size_t lo = 0, hi = C->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int s;
        if (!finite_hi(C, mid)) {
            hi = mid;
            continue;
        }
        int st = em_cont_cdf_cmp(C, C->hi[mid], p, &s);
        if (st != EM_OK)
            return st;
        if (s >= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    /* skip back over zero pieces is unnecessary: F(hi_j) >= p > F(hi_{j-1}) = F(lo_j)
     * means piece j has mass */
    *out = lo;
    return EM_OK;
}

static int em_cont_quantile_impl(em_cont *C, const mpq_t p, em_cval *out)
{
    if (!C || !p || !out)
        return EM_ERR_NULL;
    if (C->kind != EM_CONT_PIECES)
        return EM_ERR_DOMAIN;
    if (mpq_sgn(p) < 0 || mpq_cmp_ui(p, 1, 1) > 0)
        return EM_ERR_DOMAIN;
    const size_t n = C->n;
    if (mpq_sgn(p) == 0) {
        /* the left end of R: the first piece with mass */
        size_t j = 0;
        while (C->zero[j])
            j++;
        if (!finite_lo(C, j))
            return em_cval_exact(out, "-inf", -INFINITY);
        return round_rational(C, C->lo[j], out);
    }
    if (mpq_cmp_ui(p, 1, 1) == 0) {
        size_t j = n - 1;
        while (C->zero[j])
            j--;
        if (!finite_hi(C, j))
            return em_cval_exact(out, "inf", INFINITY);
        return round_rational(C, C->hi[j], out);
    }
    size_t j;
    int st = quantile_piece(C, p, &j);
    if (st != EM_OK)
        return st;
    /* exactly at the piece's right end (F(hi_j) == p): Q = hi_j unless the density is 0
     * just left of it, impossible inside a piece of positive mass */
    if (finite_hi(C, j)) {
        int s;
        if ((st = em_cont_cdf_cmp(C, C->hi[j], p, &s)) != EM_OK)
            return st;
        if (s == 0)
            return round_rational(C, C->hi[j], out);
    }
    struct level *L;
    if ((st = level_get(C, 1, &L)) != EM_OK)
        return st;
    mpfr_prec_t pr = L->p;
    mpfr_t v, x, z;
    mpfr_inits2(pr, v, x, z, (mpfr_ptr)0);
    mpfr_set_q(z, p, MPFR_RNDN);
    mpfr_mul(v, z, L->Clo[n], MPFR_RNDN);
    mpfr_sub(v, v, L->Clo[j], MPFR_RNDN);
    if (mpfr_sgn(v) < 0)
        mpfr_set_zero(v, 1);
    invert_in_piece(C, j, v, L, x);
    struct qctx Q = {C, (const mpq_t *)p};
    if (mpfr_zero_p(x)) {
        mpq_t zq;
        mpq_init(zq);
        int s;
        st = q_cmp(&Q, zq, &s);
        mpq_clear(zq);
        if (st == EM_OK && s == 0) {
            st = em_cval_exact(out, "0", 0.0);
            goto done;
        }
        if (st == EM_OK)
            mpfr_set_si_2exp(x, s, -1074, MPFR_RNDN);
    }
    if (st == EM_OK)
        st = em_round_walk(q_cmp, &Q, x, C->K, out);
done:
    mpfr_clears(v, x, z, (mpfr_ptr)0);
    return st;
}

/* ------------------------------------------------------------- sampling */

static int sample_setup(em_cont *C)
{
    if (C->lo64)
        return EM_OK;
    const size_t n = C->n;
    struct level *L;
    int st = level_get(C, 0, &L);
    if (st == EM_OK && C->kind == EM_CONT_PIECES)
        st = level_fill(C, &C->slev, 64);
    if (st != EM_OK)
        return st;
    if (C->kind == EM_CONT_PIECES) {
        C->flo = malloc(2 * n * sizeof(mpfr_t));
        C->fhi = malloc(2 * n * sizeof(mpfr_t));
        C->fk = malloc(2 * n * sizeof(mpfr_t));
        C->fca = malloc(2 * n * sizeof(mpfr_t));
        if (!C->flo || !C->fhi || !C->fk || !C->fca)
            return EM_ERR_NOMEM;
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

/* the rounding boundary between double y and its neighbour in direction dir, as a rational */
static void dbound(mpq_t B, double y, int dir)
{
    double yn = dnext(y, dir);
    mpq_t t;
    mpq_init(t);
    if (isinf(yn)) {
        mpq_set_d(B, dir > 0 ? DBL_MAX : -DBL_MAX);
        mpq_set_d(t, ldexp(dir > 0 ? 1.0 : -1.0, 970));
        mpq_add(B, B, t);
    } else {
        mpq_set_d(B, y);
        mpq_set_d(t, yn);
        mpq_add(B, B, t);
        mpz_mul_ui(mpq_denref(B), mpq_denref(B), 2);
        mpq_canonicalize(B);
    }
    mpq_clear(t);
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
    dbound(B, y, dir);
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
            st = append_seg(C, &P, i_, NULL, z, mz);                                     \
        mpq_neg(z, q);                                                                   \
        if (st == EM_OK)                                                                 \
            st = append_z_shifted(C, &P, z, mz);                                         \
        if (st == EM_OK)                                                                 \
            st = em_expoly_sign(&P, &(s));                                               \
    } while (0)
    struct level *L = NULL;
    st = level_get(C, 0, &L);
    mpfr_t f1, f2;
    mpfr_inits2(st == EM_OK ? L->p : 64, f1, f2, (mpfr_ptr)0);
    while (st == EM_OK && hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        /* F(start_mid) vs A, fast */
        mpfr_div(f1, L->Clo[mid], L->Chi[n], MPFR_RNDD);
        mpfr_div(f2, L->Chi[mid], L->Clo[n], MPFR_RNDU);
        int s;
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
        int s;
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

static int em_cont_double_mass_bounds_impl(em_cont *C, double y, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
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
        dbound(Bm, y > 0 ? DBL_MAX : -DBL_MAX, y > 0 ? 1 : -1);
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
        dbound(Bm, y, -1);
        dbound(Bp, y, +1);
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

static int em_cont_sample_impl(em_cont *C, em_bits *b, size_t *index, double *x)
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
        uint64_t klo = dkey(-DBL_MAX), khi = dkey(DBL_MAX); /* answer in [klo, khi] */
        int haslo = 0, hashi = 0;
        uint64_t jump = 1;
        for (;;) {
            int s1, s2, s3;
            /* gallop away from a bad approximation, then bisect the bracket */
            if (haslo && hashi)
                y = dunkey(klo + (khi - klo) / 2);
            if ((st = bound_cmp(C, y, -1, A, &s1)) != EM_OK)
                break;
            if (s1 > 0) {
                if ((st = bound_cmp(C, y, -1, Aw, &s3)) != EM_OK)
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
            if ((st = bound_cmp(C, y, +1, Aw, &s2)) != EM_OK)
                break;
            if (s2 < 0) {
                if ((st = bound_cmp(C, y, +1, A, &s3)) != EM_OK)
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

/* ------------------------------------------- public entries: MPFR's widest range */
int em_cont_prob(em_cont *C, size_t j, em_cval *p, em_cval *logp)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_prob_impl(C, j, p, logp);
    em_range_leave(r_);
    return st_;
}

int em_cont_cdf(em_cont *C, const mpq_t x, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_cdf_impl(C, x, out);
    em_range_leave(r_);
    return st_;
}

int em_cont_density(em_cont *C, const mpq_t x, em_cval *dens, em_cval *logdens)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_density_impl(C, x, dens, logdens);
    em_range_leave(r_);
    return st_;
}

int em_cont_quantile(em_cont *C, const mpq_t p, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_quantile_impl(C, p, out);
    em_range_leave(r_);
    return st_;
}

int em_cont_interval_prob(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_interval_prob_impl(C, a, b, out);
    em_range_leave(r_);
    return st_;
}

int em_cont_utility(em_cont *C, em_cval *eu, em_cval *loss, em_cval *opt)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_utility_impl(C, eu, loss, opt);
    em_range_leave(r_);
    return st_;
}

int em_cont_round_q(em_cont *C, const mpq_t q, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_round_q_impl(C, q, out);
    em_range_leave(r_);
    return st_;
}

int em_cont_cdf_bounds(em_cont *C, const mpq_t x, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_cdf_bounds_impl(C, x, prec, lo, hi);
    em_range_leave(r_);
    return st_;
}

int em_cont_cdf_cmp(em_cont *C, const mpq_t x, const mpq_t q, int *sign)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_cdf_cmp_impl(C, x, q, sign);
    em_range_leave(r_);
    return st_;
}

int em_cont_logz_bounds(em_cont *C, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_logz_bounds_impl(C, prec, lo, hi);
    em_range_leave(r_);
    return st_;
}

int em_cont_sample(em_cont *C, em_bits *b, size_t *index, double *x)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_sample_impl(C, b, index, x);
    em_range_leave(r_);
    return st_;
}

int em_cont_double_mass_bounds(em_cont *C, double y, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_double_mass_bounds_impl(C, y, prec, lo, hi);
    em_range_leave(r_);
    return st_;
}

int em_cont_loss_tail(em_cont *C, const mpq_t t, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_loss_tail_impl(C, t, out);
    em_range_leave(r_);
    return st_;
}

void em_cont_opt(const em_cont *C, mpq_t opt) { opt_of(C, opt); }

int em_cont_p_best(em_cont *C, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_p_best_impl(C, out);
    em_range_leave(r_);
    return st_;
}

int em_cont_sd(em_cont *C, em_cval *out)
{
    em_range r_ = em_range_enter();
    int st_ = em_cont_sd_impl(C, out);
    em_range_leave(r_);
    return st_;
}
