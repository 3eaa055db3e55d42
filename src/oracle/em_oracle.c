/* em_oracle.c: correctly rounded probabilities of the exponential mechanism (MPFR).
 *
 * Notation.  t_i = c (u_i - u_max) <= 0 exact rationals (GMP); the "modes" are the m
 * candidates with t_i = 0, the "others" those with t_i < 0.  S = m + R, R = sum over
 * others of exp(t_j); P_i = exp(t_i) / S and log P_i = t_i - ln S, with
 * ln S = ln m + log1p(R/m) (log1p keeps the relative accuracy of ln S when R << m, so the
 * log-probability of a mode near 1, e.g. -6.1e-933, comes out to full accuracy).
 *
 * Every real quantity is held as an interval [lo, hi] computed with directed rounding
 * (lower bounds rounded down, upper bounds rounded up), so the true value always lies
 * inside.  A result is printed only when both ends round to the same K-digit decimal (and
 * to the same double): then, rounding being monotone, so does the true value.  Otherwise
 * the working precision is doubled and everything is recomputed (Ziv's strategy).  This
 * terminates because no output is a rounding boundary: P_i is irrational unless all
 * candidates tie (Lindemann-Weierstrass: exp of distinct rationals are linearly independent
 * over the rationals), and that case, 1/m, is rounded exactly in integer arithmetic;
 * log P_i is irrational unless P_i = 1.  The details are in src/oracle/README.md.
 */
#include "oracle/em_oracle.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"
#include "base/em_error.h"
#include "num/em_bounds.h"
#include "num/em_dec10.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "oracle/em_cont.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

#define MAX_LEVELS 18          /* precision doubles per level: p0 * 2^17 > MAX_PREC */
#define MAX_PREC (1L << 20)    /* the documented limit (EM_ERR_UNDECIDED beyond it) */
#define EXACT_LEVEL 3          /* after p0 * 2^3 bits undecided: the exact comparison */
#define GUARD 9                /* guard digits of dec_direct */
#define GUARD_POW 1000000000L

struct level {
    mpfr_prec_t p;
    int ready;
    mpfr_t S_lo, S_hi;       /* S = m + R */
    mpfr_t lnS_lo, lnS_hi;
    int extreme;             /* R is below MPFR's exponent range */
    mpfr_t ly_lo, ly_hi;     /* ln(R/m), computed when extreme */
    /* level 0: lower bounds of exp(t_j) for others, or NULL: the significand's limbs and
     * the exponent (E_NONE: not kept) of each, 20 bytes at 128 bits rather than an
     * mpfr_t's 48 */
    mp_limb_t *Elimbs;
    int32_t *Eexp;
    size_t Enl;
    unsigned char *Etab;     /* 1 where Elimbs came from the exponent tables */
};

#define E_NONE INT32_MIN

struct em_oracle {
    size_t n;
    int K;
    em_utility_reader src;   /* the utilities; t_i = c (u_i - umax) is computed when needed */
    mpq_t *own;              /* em_oracle_new's copy of the utilities (src reads it) */
    mpq_t c, umax;
    mpq_t tq;                /* the current t_i */
    em_tfast tf;             /* RNDD(t_i) without gcds */
    int have_tf;
    unsigned char *cls;
    size_t m, nother;
    long tbits;              /* bits of max |t_j| over others (capped) */
    mpq_t tau;               /* max t over others */
    struct level lv[MAX_LEVELS];
    int passes;
    long maxprec;
    char *pstr, *lstr;       /* last results */
    char *dig1, *dig2;       /* K+GUARD+8 byte scratch */
    mpfr_t scr_w;            /* scratch for dec_direct */
    mpfr_t pow10KG;          /* 10^(K+GUARD), rounded up */
    mpfr_t scr[9];           /* attempt()'s variables, at scr_prec */
    mpfr_prec_t scr_prec;
    mpz_t scr_e;
    em_dec10 d10;            /* exact decimal rounding of dec_direct */
    int have_d10;
    mpz_t q1, q2;
    /* Exponent tables (see tab_m): t_j = -m_j / D with integers m_j < 2^(TB TL), so
     * exp(t_j) is a product of TL table entries exp(-d 2^(TB l) / D) */
    int tab_on, TB, TL;
    unsigned long tabL, tabnc; /* L: lcm of the utilities' denominators; nc: numerator of c */
    long tabA;                 /* numerator of umax times L / den(umax) */
    mpz_t tabD;                /* D = den(c) L */
    mpq_t uq;                  /* scratch: u_j */
    em_cont *exact;          /* the exact fallback (em_cont.h), built when first needed */
    char *ratdigits;         /* cached decimal of 1/m (or 1/m - infinitesimal) */
    mpz_t rat_e;
    double rat_d;
};

/* ------------------------------------------------------------------ helpers */

/* bits of |q| rounded up (0 for q == 0): an upper bound of log2|q| + 1 */
static long q_bits(const mpq_t q)
{
    if (mpq_sgn(q) == 0)
        return 0;
    long b = (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2) + 1;
    return b < 0 ? 0 : b;
}

/* [lo, hi] bounds of the exact rational q at lo's / hi's precision. */
static void q_bounds(mpfr_t lo, mpfr_t hi, const mpq_t q)
{
    int tern = mpfr_set_q(lo, q, MPFR_RNDD);
    if (mpfr_get_prec(hi) != mpfr_get_prec(lo)) {
        mpfr_set_q(hi, q, MPFR_RNDU);
    } else {
        mpfr_set(hi, lo, MPFR_RNDN);
        if (tern != 0)
            mpfr_nextabove(hi);
    }
}

/* Upper bound of exp(t) for t in [tlo, thi], given elo = RNDD(exp(tlo)): 
 * exp(t) <= exp(tlo) exp(thi - tlo) <= nextabove(elo) (1 + 2 (thi - tlo)) for
 * 0 <= thi - tlo <= 1. */
static void exp_hi_from_lo(mpfr_t ehi, const mpfr_t elo, const mpfr_t tlo, const mpfr_t thi,
                           mpfr_t tmp)
{
    mpfr_set(ehi, elo, MPFR_RNDU);
    mpfr_nextabove(ehi);
    if (mpfr_cmp(thi, tlo) != 0) {
        mpfr_sub(tmp, thi, tlo, MPFR_RNDU);
        mpfr_mul_2ui(tmp, tmp, 1, MPFR_RNDU);
        mpfr_add_ui(tmp, tmp, 1, MPFR_RNDU);
        mpfr_mul(ehi, ehi, tmp, MPFR_RNDU);
    }
}

/* ------------------------------------------------------------ exponent tables
 *
 * When the utilities have a common denominator L (decimals: a power of ten), every
 * exponent is t_j = c (u_j - umax) = -m_j / D with D = den(c) L and the integer
 * m_j = num(c) (num(umax) L/den(umax) - num(u_j) L/den(u_j)) >= 1.  Writing m_j in base
 * 2^TB with TL digits d_l, exp(t_j) = prod_l exp(-d_l 2^(TB l) / D): TL 2^TB exponentials
 * once, then TL - 1 multiplications per candidate instead of one exponential each.
 *
 * Error: the tables and products are at pt = p + TAB_EXTRA bits, dt = 2^(1-pt); the
 * normaliser sums these products at pt too, and stores them rounded down to the level's
 * precision p.  An entry RNDD(exp(x)) of x = RNDD(-d_l 2^(TB l) / D) at pt + 80 bits is
 * below the true exp and at least (1 - dt)^2 times it (|x| < 2^48, as m_max / D < 2^41 and
 * TB TL < bits(m_max) + TL: x's rounding moves exp by a factor of at least
 * 1 - 2^(-pt-31); the entry's rounding costs one dt); each RNDD product one more dt.  So
 * the product e satisfies e <= exp(t_j) <= e (1 - dt)^-k, k = 3 TL <= 24, and
 * (1 - dt)^-k <= exp(2 k dt) <= 1 + 4 k dt < 1 + 2^(TAB_HI_BITS - pt) (k dt <= 1/8).
 * The stored elo = RNDD_p(e) has e < nextabove(elo), hence
 * exp(t_j) <= nextabove(elo) (1 + 2^(TAB_HI_BITS - pt)): as tight as the exponential
 * path's nextabove(elo) (1 + 2 ulp(tlo)). */
#define TAB_EXTRA 64
#define TAB_HI_BITS 8
#define TAB_MAX_TL 8

static void tab_setup(em_oracle *o, unsigned long lcm, const mpq_t tmin)
{
    if (!mpz_fits_ulong_p(mpq_numref(o->c)))
        return;
    mpz_t t;
    mpz_init(t);
    /* A = num(umax) L / den(umax) */
    mpz_set_ui(t, lcm);
    mpz_divexact(t, t, mpq_denref(o->umax));
    mpz_mul(t, t, mpq_numref(o->umax));
    int ok = mpz_fits_slong_p(t);
    o->tabA = ok ? mpz_get_si(t) : 0;
    /* D = den(c) L; m_max = -tmin D, an integer; |t| < 2^40 keeps every entry in range */
    mpz_mul_ui(o->tabD, mpq_denref(o->c), lcm);
    mpq_t mm;
    mpq_init(mm);
    mpz_set(mpq_numref(mm), o->tabD);
    mpz_set_ui(mpq_denref(mm), 1);
    mpq_mul(mm, mm, tmin);
    mpq_neg(mm, mm);
    size_t mbits = mpz_sizeinbase(mpq_numref(mm), 2);
    ok = ok && mpz_cmp_ui(mpq_denref(mm), 1) == 0 && mbits <= 64 &&
         (long)mbits - (long)mpz_sizeinbase(o->tabD, 2) < 40;
    mpq_clear(mm);
    mpz_clear(t);
    if (!ok)
        return;
    for (int TL = 1; TL <= TAB_MAX_TL; TL++) {
        int TB = (int)((mbits + (size_t)TL - 1) / (size_t)TL);
        if (TB <= 16 && (double)TL * (double)(1UL << TB) * 4.0 <= (double)o->nother) {
            o->TB = TB;
            o->TL = TL;
            o->tab_on = 1;
            o->tabL = lcm;
            o->tabnc = mpz_get_ui(mpq_numref(o->c));
            return;
        }
    }
}

/* m_j of candidate j (an other) into *m; 0 when it does not fit the tables (then the
 * candidate takes the exponential path). */
static int tab_m(em_oracle *o, size_t j, unsigned long *m)
{
    o->src.get(o->src.ctx, j, o->uq);
    mpz_srcptr nu = mpq_numref(o->uq), du = mpq_denref(o->uq);
    if (!mpz_fits_slong_p(nu) || !mpz_fits_ulong_p(du))
        return 0;
    unsigned long d = mpz_get_ui(du);
    if (o->tabL % d != 0)
        return 0;
    long q = (long)(o->tabL / d), prod, a;
    unsigned long r;
    if (q < 0 || __builtin_mul_overflow(mpz_get_si(nu), q, &prod) ||
        __builtin_sub_overflow(o->tabA, prod, &a) || a <= 0 ||
        __builtin_mul_overflow((unsigned long)a, o->tabnc, &r))
        return 0;
    if (o->TB * o->TL < 64 && (r >> (o->TB * o->TL)) != 0)
        return 0;
    *m = r;
    return 1;
}

/* RNDD(t_j) = -RNDU(m / D) into tlo; returns the ternary value (0: exact) */
static int tab_t_lo(em_oracle *o, unsigned long m, mpfr_t tlo)
{
    mpfr_set_ui(tlo, m, MPFR_RNDN); /* exact: p >= 64 */
    int tern = mpz_fits_ulong_p(o->tabD) ? mpfr_div_ui(tlo, tlo, mpz_get_ui(o->tabD), MPFR_RNDU)
                                         : mpfr_div_z(tlo, tlo, o->tabD, MPFR_RNDU);
    mpfr_neg(tlo, tlo, MPFR_RNDN);
    return tern;
}

/* The TL tables at precision p: tab[l 2^TB + d] = RNDD(exp(-d 2^(TB l) / D)).  NULL when
 * out of memory (the tables are an optimisation only). */
static mpfr_t *tab_build(em_oracle *o, mpfr_prec_t p)
{
    size_t per = (size_t)1 << o->TB, N = per * (size_t)o->TL;
    mpfr_t *tab = malloc(N * sizeof *tab);
    if (!tab)
        return NULL;
    mpfr_t x;
    mpfr_init2(x, p + 80);
    for (int l = 0; l < o->TL; l++) {
        for (size_t d = 0; d < per; d++) {
            mpfr_ptr e = tab[(size_t)l * per + d];
            mpfr_init2(e, p);
            mpfr_set_ui_2exp(x, (unsigned long)d, (mpfr_exp_t)(o->TB * l), MPFR_RNDN); /* exact */
            mpfr_div_z(x, x, o->tabD, MPFR_RNDU);
            mpfr_neg(x, x, MPFR_RNDN);
            mpfr_exp(e, x, MPFR_RNDD);
        }
    }
    mpfr_clear(x);
    return tab;
}

static void tab_free(em_oracle *o, mpfr_t *tab)
{
    if (!tab)
        return;
    size_t N = ((size_t)1 << o->TB) * (size_t)o->TL;
    for (size_t k = 0; k < N; k++)
        mpfr_clear(tab[k]);
    free(tab);
}

/* RNDD(prod of the entries of m's digits) at the tables' precision, a lower bound of
 * exp(-m/D): a table entry or et (scratch at that precision) */
static mpfr_srcptr tab_exp_lo(const em_oracle *o, mpfr_t *tab, unsigned long m, mpfr_t et)
{
    const unsigned long mask = (1UL << o->TB) - 1;
    const size_t per = (size_t)1 << o->TB;
    mpfr_srcptr acc = tab[m & mask];
    for (int l = 1; l < o->TL; l++) {
        m >>= o->TB;
        if (m & mask) {
            mpfr_mul(et, acc, tab[(size_t)l * per + (m & mask)], MPFR_RNDD);
            acc = et;
        }
    }
    return acc;
}

/* ------------------------------------------------------------ construction */

static int oracle_init(const em_problem *P, const em_utility_reader *src, mpq_t *own,
                       int digits, em_oracle **out)
{
    const size_t n = P->n;
    em_oracle *o = calloc(1, sizeof *o);
    if (!o) {
        if (own) {
            for (size_t i = 0; i < n; i++)
                mpq_clear(own[i]);
            free(own);
        }
        return EM_ERR_NOMEM;
    }
    o->n = n;
    o->K = digits;
    o->src = *src;
    o->own = own;
    mpq_inits(o->c, o->umax, o->tq, (mpq_ptr)0);
    o->dig1 = malloc((size_t)digits + 24);
    o->dig2 = malloc((size_t)digits + 24);
    mpfr_init2(o->scr_w, 64);
    mpfr_init2(o->pow10KG, 64);
    for (int k = 0; k < 9; k++)
        mpfr_init2(o->scr[k], 64);
    o->scr_prec = 64;
    mpz_init(o->scr_e);
    mpz_inits(o->q1, o->q2, o->tabD, (mpz_ptr)0);
    mpq_init(o->uq);
    o->have_d10 = em_dec10_init(&o->d10, digits) == 0;
    mpfr_ui_pow_ui(o->pow10KG, 10, (unsigned long)digits + GUARD, MPFR_RNDU); /* < 10^1010 */
    mpq_init(o->tau);
    mpz_init(o->rat_e);
    o->cls = malloc(n);
    if (!o->dig1 || !o->dig2 || !o->cls || !o->have_d10) {
        em_oracle_free(o);
        return EM_ERR_NOMEM;
    }
    size_t live;
    mpq_set(o->c, P->c);
    int st = em_exponents_classes(P, src, o->umax, o->cls, &live);
    if (st != EM_OK) {
        em_oracle_free(o);
        return st;
    }
    em_tfast_init(&o->tf, o->c, o->umax);
    o->have_tf = 1;
    int have_tau = 0;
    /* the least common denominator of the utilities, while it fits a word */
    int lcm_ok = mpz_fits_ulong_p(mpq_denref(o->umax));
    unsigned long lcm = lcm_ok ? mpz_get_ui(mpq_denref(o->umax)) : 0;
    mpq_t tmin;
    mpq_init(tmin);
    for (size_t i = 0; i < n; i++) {
        if (o->cls[i] == CL_MODE)
            o->m++;
        if (o->cls[i] != CL_OTHER)
            continue;
        o->nother++;
        src->get(src->ctx, i, o->tq); /* em_exponent_t, with the denominator of u_i */
        if (lcm_ok) {
            if (!mpz_fits_ulong_p(mpq_denref(o->tq))) {
                lcm_ok = 0;
            } else {
                unsigned long d = mpz_get_ui(mpq_denref(o->tq));
                if (d != lcm && lcm % d != 0) {
                    unsigned long g = lcm, h = d;
                    while (h) {
                        unsigned long r = g % h;
                        g = h;
                        h = r;
                    }
                    lcm_ok = !__builtin_mul_overflow(lcm / g, d, &lcm);
                }
            }
        }
        mpq_sub(o->tq, o->tq, o->umax);
        mpq_mul(o->tq, o->tq, o->c);
        if (!have_tau || mpq_cmp(o->tq, tmin) < 0)
            mpq_set(tmin, o->tq);
        if (!have_tau || mpq_cmp(o->tq, o->tau) > 0) {
            mpq_set(o->tau, o->tq);
            have_tau = 1;
        }
        long b = q_bits(o->tq);
        if (b > 64)
            b = 64; /* beyond, exp(t) leaves MPFR's range: handled through logarithms */
        if (b > o->tbits)
            o->tbits = b;
    }
    if (have_tau && lcm_ok)
        tab_setup(o, lcm, tmin);
    mpq_clear(tmin);
    *out = o;
    return EM_OK;
}

/* t_i into o->tq */
static mpq_ptr t_of(em_oracle *o, size_t i)
{
    em_exponent_t(&o->src, i, o->c, o->umax, o->tq);
    return o->tq;
}

int em_oracle_new(const em_problem *P, int digits, em_oracle **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_oracle_new: out is NULL");
    int st = em_problem_check(P, err);
    if (st != EM_OK)
        return st;
    if (digits < 1 || digits > EM_ROUND_MAX_DIGITS)
        return em_err(err, EM_ERR_DOMAIN, "digits %d: expected 1 to %d", digits,
                      EM_ROUND_MAX_DIGITS);
    if (P->reader.get) {
        st = oracle_init(P, &P->reader, NULL, digits, out);
    } else {
        mpq_t *own = em_q_array_copy(P);
        if (!own)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        em_utility_reader src = {em_utility_array_get, own};
        st = oracle_init(P, &src, own, digits, out);
    }
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    return EM_OK;
}

static void level_clear(struct level *L)
{
    if (!L->ready)
        return;
    mpfr_clears(L->S_lo, L->S_hi, L->lnS_lo, L->lnS_hi, L->ly_lo, L->ly_hi, (mpfr_ptr)0);
    free(L->Eexp);
    free(L->Elimbs);
    free(L->Etab);
    L->Eexp = NULL;
    L->Elimbs = NULL;
    L->Etab = NULL;
    L->ready = 0;
}

void em_oracle_free(em_oracle *o)
{
    if (!o)
        return;
    em_cont_free(o->exact);
    for (int k = 0; k < MAX_LEVELS; k++)
        level_clear(&o->lv[k]);
    free(o->cls);
    if (o->own) {
        for (size_t i = 0; i < o->n; i++)
            mpq_clear(o->own[i]);
        free(o->own);
    }
    mpq_clears(o->c, o->umax, o->tq, (mpq_ptr)0);
    if (o->have_tf)
        em_tfast_clear(&o->tf);
    mpq_clear(o->tau);
    mpz_clear(o->rat_e);
    mpfr_clear(o->scr_w);
    mpfr_clear(o->pow10KG);
    for (int k = 0; k < 9; k++)
        mpfr_clear(o->scr[k]);
    mpz_clear(o->scr_e);
    mpz_clears(o->q1, o->q2, o->tabD, (mpz_ptr)0);
    mpq_clear(o->uq);
    if (o->have_d10)
        em_dec10_clear(&o->d10);
    free(o->pstr);
    free(o->lstr);
    free(o->dig1);
    free(o->dig2);
    free(o->ratdigits);
    free(o);
}

long em_oracle_max_prec(const em_oracle *o)
{
    return o ? o->maxprec : 0;
}

int em_oracle_passes(const em_oracle *o)
{
    return o ? o->passes : 0;
}

static long log2_ceil_sz(size_t n)
{
    long b = 0;
    while (b < 64 && ((size_t)1 << b) < n)
        b++;
    return b;
}

/* The normaliser at level k: one pass over the others. */
static int level_ensure(em_oracle *o, int k)
{
    struct level *L = &o->lv[k];
    if (L->ready)
        return EM_OK;
    mpfr_prec_t p;
    if (k == 0)
        p = (mpfr_prec_t)ceil((o->K + 2) * 3.3219280948873623) + log2_ceil_sz(o->n + 1) +
            o->tbits + 16;
    else
        p = o->lv[k - 1].p * 2;
    p = (p + 63) / 64 * 64; /* whole limbs: the spare bits are free */
    if (p > MAX_PREC)
        return EM_ERR_UNDECIDED; /* the precision limit: exit 3 */
    em_mpfr_widest_range();
    L->p = p;
    mpfr_inits2(p, L->S_lo, L->S_hi, L->lnS_lo, L->lnS_hi, L->ly_lo, L->ly_hi, (mpfr_ptr)0);
    L->ready = 1;
    L->extreme = 0;
    o->passes++;
    if (p > o->maxprec)
        o->maxprec = p;

    mpfr_t tlo, thi, elo, ehi, tmp, Rlo, Rhi;
    mpfr_inits2(p, tlo, thi, elo, ehi, tmp, Rlo, Rhi, (mpfr_ptr)0);
    mpfr_set_ui(Rlo, 0, MPFR_RNDN);
    mpfr_set_ui(Rhi, 0, MPFR_RNDN);
    mpfr_t *tab = NULL;
    if (k == 0 && o->nother > 0) {
        L->Enl = mpfr_custom_get_size(p) / sizeof(mp_limb_t);
        L->Eexp = malloc(o->n * sizeof *L->Eexp);
        L->Elimbs = malloc(o->n * L->Enl * sizeof(mp_limb_t));
        L->Etab = o->tab_on ? calloc(o->n, 1) : NULL;
        if (!L->Eexp || !L->Elimbs || (o->tab_on && !L->Etab)) {
            /* storage is an optimisation only */
            free(L->Eexp);
            free(L->Elimbs);
            free(L->Etab);
            L->Eexp = NULL;
            L->Elimbs = NULL;
            L->Etab = NULL;
        }
        if (o->tab_on)
            tab = tab_build(o, p + TAB_EXTRA);
    }
    /* the terms from the tables, summed at their precision: down, and up (then times
     * 1 + 2^(TAB_HI_BITS - pt)) */
    mpfr_t Rtlo, Rtup, et;
    mpfr_inits2(p + TAB_EXTRA, Rtlo, Rtup, et, (mpfr_ptr)0);
    mpfr_set_ui(Rtlo, 0, MPFR_RNDN);
    mpfr_set_ui(Rtup, 0, MPFR_RNDN);
    int any_tab = 0;
    /* Upper bound without a second exponential per term: with tlo = RNDD(t_j) and
     * elo = RNDD(exp(tlo)) > 0,
     *   exp(t_j) <= exp(tlo) exp(ulp(tlo)) <= nextabove(elo) (1 + 2 ulp(tlo))
     *            <= elo (1 + 2^(1-p)) (1 + 2 u),   u = max ulp(tlo) over such terms,
     * (exp(d) <= 1 + 2d for 0 <= d <= 1; here |t_j| < 2^62 < 2^(p-16), so u < 2^-16),
     * so R <= RNDU(sum elo) (1 + 2^(1-p)) (1 + 2u) + sum over underflowed terms of
     * RNDU(exp(RNDU(t_j))), the latter computed directly (rare). */
    mpfr_t Rup, Ruf;
    mpfr_inits2(p, Rup, Ruf, (mpfr_ptr)0);
    mpfr_set_ui(Rup, 0, MPFR_RNDN);
    mpfr_set_ui(Ruf, 0, MPFR_RNDN);
    mpfr_exp_t ue = mpfr_get_emin(); /* exponent of u */
    int any_inexact = 0;
    for (size_t j = 0; j < o->n; j++) {
        if (o->cls[j] != CL_OTHER)
            continue;
        unsigned long mj;
        if (tab && tab_m(o, j, &mj)) {
            mpfr_srcptr ej = tab_exp_lo(o, tab, mj, et); /* > 0: |t_j| < 2^40 */
            mpfr_add(Rtlo, Rtlo, ej, MPFR_RNDD);
            mpfr_add(Rtup, Rtup, ej, MPFR_RNDU);
            mpfr_set(elo, ej, MPFR_RNDD);
            any_tab = 1;
            if (L->Eexp) {
                mpfr_exp_t ee = mpfr_get_exp(elo);
                if (ee <= E_NONE || ee > INT32_MAX) {
                    L->Eexp[j] = E_NONE; /* attempt() recomputes it by mpfr_exp */
                } else {
                    L->Etab[j] = 1;
                    L->Eexp[j] = (int32_t)ee;
                    memcpy(L->Elimbs + j * L->Enl, mpfr_custom_get_significand(elo),
                           L->Enl * sizeof(mp_limb_t));
                }
            }
            continue;
        }
        int tern = em_exponent_t_lo(&o->tf, &o->src, j, tlo);
        mpfr_exp(elo, tlo, MPFR_RNDD);
        if (mpfr_zero_p(elo)) {
            mpfr_set(thi, tlo, MPFR_RNDN);
            if (tern != 0)
                mpfr_nextabove(thi); /* RNDU(t_j) */
            mpfr_exp(ehi, thi, MPFR_RNDU);
            mpfr_add(Ruf, Ruf, ehi, MPFR_RNDU);
        } else {
            mpfr_add(Rlo, Rlo, elo, MPFR_RNDD);
            mpfr_add(Rup, Rup, elo, MPFR_RNDU);
            if (tern != 0) {
                any_inexact = 1;
                mpfr_exp_t e = mpfr_get_exp(tlo) - (mpfr_exp_t)p; /* ulp(tlo) = 2^e */
                if (e > ue)
                    ue = e;
            }
        }
        if (L->Eexp) {
            /* elo has precision p: exactly Enl limbs */
            mpfr_exp_t ee = mpfr_zero_p(elo) ? 0 : mpfr_get_exp(elo);
            if (mpfr_zero_p(elo) || ee <= E_NONE || ee > INT32_MAX) {
                L->Eexp[j] = E_NONE;
            } else {
                L->Eexp[j] = (int32_t)ee;
                memcpy(L->Elimbs + j * L->Enl, mpfr_custom_get_significand(elo),
                       L->Enl * sizeof(mp_limb_t));
            }
        }
    }
    /* Rhi = Rup (1 + 2^(1-p)) (1 + 2u) + Ruf */
    mpfr_set_ui_2exp(tmp, 1, 1 - (long)p, MPFR_RNDU);
    mpfr_add_ui(tmp, tmp, 1, MPFR_RNDU);
    mpfr_mul(Rhi, Rup, tmp, MPFR_RNDU);
    if (any_inexact) {
        mpfr_set_ui_2exp(tmp, 1, ue + 1, MPFR_RNDU);
        mpfr_add_ui(tmp, tmp, 1, MPFR_RNDU);
        mpfr_mul(Rhi, Rhi, tmp, MPFR_RNDU);
    }
    mpfr_add(Rhi, Rhi, Ruf, MPFR_RNDU);
    if (any_tab) {
        mpfr_set_ui_2exp(et, 1, TAB_HI_BITS - (long)(p + TAB_EXTRA), MPFR_RNDU);
        mpfr_add_ui(et, et, 1, MPFR_RNDU); /* exact */
        mpfr_mul(Rtup, Rtup, et, MPFR_RNDU);
        mpfr_add(Rhi, Rhi, Rtup, MPFR_RNDU);
        mpfr_add(Rlo, Rlo, Rtlo, MPFR_RNDD);
    }
    mpfr_clears(Rtlo, Rtup, et, (mpfr_ptr)0);
    tab_free(o, tab);
    mpfr_clears(Rup, Ruf, (mpfr_ptr)0);
    mpfr_add_ui(L->S_lo, Rlo, o->m, MPFR_RNDD);
    mpfr_add_ui(L->S_hi, Rhi, o->m, MPFR_RNDU);

    /* ln S = ln m + log1p(R/m) */
    mpfr_t lm_lo, lm_hi;
    mpfr_inits2(p, lm_lo, lm_hi, (mpfr_ptr)0);
    mpfr_log_ui(lm_lo, o->m, MPFR_RNDD);
    mpfr_log_ui(lm_hi, o->m, MPFR_RNDU);
    if (o->nother == 0) {
        mpfr_set(L->lnS_lo, lm_lo, MPFR_RNDD);
        mpfr_set(L->lnS_hi, lm_hi, MPFR_RNDU);
    } else if (mpfr_zero_p(Rlo)) {
        /* R > 0 but below the exponent range: ln S in [ln m, ln m + tiny] */
        L->extreme = 1;
        mpfr_set(L->lnS_lo, lm_lo, MPFR_RNDD);
        mpfr_set(L->lnS_hi, lm_hi, MPFR_RNDU);
        mpfr_nextabove(L->lnS_hi);
        /* ln(R/m) = tau + ln Q - ln m, Q = sum exp(t_j - tau) in [1, n] */
        mpq_t d;
        mpq_init(d);
        mpfr_t Qlo, Qhi;
        mpfr_inits2(p, Qlo, Qhi, (mpfr_ptr)0);
        mpfr_set_ui(Qlo, 0, MPFR_RNDN);
        mpfr_set_ui(Qhi, 0, MPFR_RNDN);
        for (size_t j = 0; j < o->n; j++) {
            if (o->cls[j] != CL_OTHER)
                continue;
            mpq_sub(d, t_of(o, j), o->tau);
            q_bounds(tlo, thi, d);
            mpfr_exp(elo, tlo, MPFR_RNDD);
            exp_hi_from_lo(ehi, elo, tlo, thi, tmp);
            mpfr_add(Qlo, Qlo, elo, MPFR_RNDD);
            mpfr_add(Qhi, Qhi, ehi, MPFR_RNDU);
        }
        mpfr_log(Qlo, Qlo, MPFR_RNDD);
        mpfr_log(Qhi, Qhi, MPFR_RNDU);
        mpfr_prec_t pt = p + q_bits(o->tau);
        mpfr_set_prec(tlo, pt);
        mpfr_set_prec(thi, pt);
        mpfr_set_prec(L->ly_lo, pt);
        mpfr_set_prec(L->ly_hi, pt);
        q_bounds(tlo, thi, o->tau);
        mpfr_add(L->ly_lo, tlo, Qlo, MPFR_RNDD);
        mpfr_sub(L->ly_lo, L->ly_lo, lm_hi, MPFR_RNDD);
        mpfr_add(L->ly_hi, thi, Qhi, MPFR_RNDU);
        mpfr_sub(L->ly_hi, L->ly_hi, lm_lo, MPFR_RNDU);
        mpfr_clears(Qlo, Qhi, (mpfr_ptr)0);
        mpq_clear(d);
    } else {
        mpfr_div_ui(tmp, Rlo, o->m, MPFR_RNDD);
        mpfr_log1p(tmp, tmp, MPFR_RNDD);
        mpfr_add(L->lnS_lo, lm_lo, tmp, MPFR_RNDD);
        mpfr_div_ui(tmp, Rhi, o->m, MPFR_RNDU);
        mpfr_log1p(tmp, tmp, MPFR_RNDU);
        mpfr_add(L->lnS_hi, lm_hi, tmp, MPFR_RNDU);
    }
    mpfr_clears(lm_lo, lm_hi, tlo, thi, elo, ehi, tmp, Rlo, Rhi, (mpfr_ptr)0);
    return EM_OK;
}

/* ------------------------------------------------------------- decimals */

/* K-digit round-to-nearest decimal of x: digits (no sign) into d, exponent into *e,
 * sign into *neg.  MPFR's RNDN for mpfr_get_str: ties to even. */
static void dec_of(const mpfr_t x, int K, char *d, mpfr_exp_t *e, int *neg)
{
    mpfr_get_str(d, e, 10, (size_t)K, x, MPFR_RNDN);
    *neg = d[0] == '-';
    if (*neg)
        memmove(d, d + 1, strlen(d));
}

/* Both ends of a direct interval [lo, hi] (same sign, non-zero) round to the same K-digit
 * decimal?  Then write it to o->dig1 / e / *neg and return 1.
 *
 * One conversion instead of two: x0, the end of smaller magnitude, is converted to K+G
 * digits (D, round-to-nearest, so |x0 - D U| <= U/2 with U the unit of the last digit), and
 * the interval's width w is bounded in units of U: w/U <= (w/x0) (D + 1/2) < (w/x0) 10^(K+G).
 * With T the last G digits of D and h = 5 10^(G-1), every magnitude v in the interval
 * satisfies D - 1/2 <= v/U <= D + 1/2 + W, so v rounds to the first K digits of D when
 * T + 1/2 + W < h, and to those plus one unit when T - 1/2 > h (and T + 1/2 + W < 10^G + h).
 * Crossing into the next decade is harmless: the rounding is then 10^e in both readings. */
static int dec_direct_str(em_oracle *o, const mpfr_t lo, const mpfr_t hi, mpz_t e, int *neg)
{
    if (mpfr_zero_p(lo) || mpfr_zero_p(hi) || !mpfr_number_p(lo) || !mpfr_number_p(hi) ||
        mpfr_sgn(lo) != mpfr_sgn(hi))
        return 0;
    const int K = o->K;
    const mpfr_srcptr x0 = mpfr_sgn(lo) > 0 ? lo : hi;
    mpfr_t *w = &o->scr_w;
    mpfr_sub(*w, hi, lo, MPFR_RNDU);
    mpfr_div(*w, *w, x0, MPFR_RNDU);
    mpfr_abs(*w, *w, MPFR_RNDU);
    mpfr_mul(*w, *w, o->pow10KG, MPFR_RNDU);
    double W = mpfr_get_d(*w, MPFR_RNDU);
    if (!(W < 1e8))
        return 0;
    mpfr_exp_t ex;
    char *d = o->dig1;
    mpfr_get_str(d, &ex, 10, (size_t)(K + GUARD), x0, MPFR_RNDN);
    *neg = d[0] == '-';
    if (*neg)
        memmove(d, d + 1, strlen(d));
    long T = 0;
    for (int k = K; k < K + GUARD; k++)
        T = T * 10 + (d[k] - '0');
    d[K] = 0;
    const double h = GUARD_POW / 2, Td = (double)T;
    if (Td + 0.5 + W < h) {
        /* the first K digits */
    } else if (Td - 0.5 > h && Td + 0.5 + W < GUARD_POW + h) {
        int k = K - 1;
        while (k >= 0 && d[k] == '9')
            d[k--] = '0';
        if (k >= 0) {
            d[k]++;
        } else {
            d[0] = '1';
            ex++;
        }
    } else {
        /* The value lies within 10^-(K+G) (relative) of a rounding boundary, where the
         * guard digits cannot tell the sides apart at any precision: convert both ends to
         * K digits instead.  Both give the same decimal once the interval excludes the
         * boundary, which it does at a finite precision (the value is never exactly a
         * boundary: src/oracle/README.md, "Termination"). */
        mpfr_exp_t e1, e2;
        char *d2 = o->dig2;
        mpfr_get_str(d, &e1, 10, (size_t)K, lo, MPFR_RNDN);
        mpfr_get_str(d2, &e2, 10, (size_t)K, hi, MPFR_RNDN);
        if (e1 != e2 || strcmp(d, d2) != 0)
            return 0;
        *neg = d[0] == '-';
        if (*neg)
            memmove(d, d + 1, strlen(d));
        ex = e1;
    }
    mpz_set_si(e, (long)ex);
    return 1;
}

/* Both ends of a direct interval [lo, hi] (same sign, non-zero) round to the same K-digit
 * decimal?  Then write it to o->dig1 / e / *neg and return 1.  Each end is rounded exactly
 * in integer arithmetic (em_dec10.h); rounding being monotone, every value between them
 * rounds alike.  This decides whenever dec_direct_str does (its guard-digit shortcut
 * implies that both ends round alike, and its other branch is this same comparison), with
 * the same digits; dec_direct_str stays for decimal exponents beyond em_dec10's cache. */
static int dec_direct(em_oracle *o, const mpfr_t lo, const mpfr_t hi, mpz_t e, int *neg)
{
    if (mpfr_zero_p(lo) || mpfr_zero_p(hi) || !mpfr_number_p(lo) || !mpfr_number_p(hi) ||
        mpfr_sgn(lo) != mpfr_sgn(hi))
        return 0;
    long e1, e2;
    if (!em_dec10_round(&o->d10, lo, o->q1, &e1) || !em_dec10_round(&o->d10, hi, o->q2, &e2))
        return dec_direct_str(o, lo, hi, e, neg);
    if (e1 != e2 || mpz_cmp(o->q1, o->q2) != 0)
        return 0;
    *neg = mpfr_sgn(lo) < 0;
    em_dec10_digits(&o->d10, o->q1, o->dig1);
    mpz_set_si(e, e1);
    return 1;
}

/* Decimal of v = 10^x, x in [xlo, xhi]: floor(x) as an exact integer, 10^frac(x) by MPFR.
 * d: digits out, e: exponent out (value 0.d * 10^e). */
static void dec_pow10(const mpfr_t x, int up, int K, char *d, mpz_t e)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t fl, f, M;
    mpfr_inits2(p, fl, f, M, (mpfr_ptr)0);
    mpfr_floor(fl, x);                 /* exact: same precision */
    mpfr_sub(f, x, fl, MPFR_RNDN);     /* exact: 0 <= f < 1 */
    mpfr_exp10(M, f, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_get_z(e, fl, MPFR_RNDN);
    mpfr_exp_t em;
    int neg;
    dec_of(M, K, d, &em, &neg);        /* M in [1, 10]: em is 1 or 2 */
    if (em >= 0)
        mpz_add_ui(e, e, (unsigned long)em);
    else
        mpz_sub_ui(e, e, (unsigned long)(-em));
    mpfr_clears(fl, f, M, (mpfr_ptr)0);
}

/* Decimal of exp(a) for a in [alo, ahi] (any size): via x = a / ln 10. */
static int dec_from_log(em_oracle *o, const mpfr_t alo, const mpfr_t ahi, mpz_t e)
{
    mpfr_prec_t p = mpfr_get_prec(alo) > mpfr_get_prec(ahi) ? mpfr_get_prec(alo) : mpfr_get_prec(ahi);
    mpfr_t l10lo, l10hi, xlo, xhi;
    mpfr_inits2(p, l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
    mpfr_log_ui(l10lo, 10, MPFR_RNDD);
    mpfr_log_ui(l10hi, 10, MPFR_RNDU);
    mpfr_div(xlo, alo, mpfr_sgn(alo) < 0 ? l10lo : l10hi, MPFR_RNDD);
    mpfr_div(xhi, ahi, mpfr_sgn(ahi) < 0 ? l10hi : l10lo, MPFR_RNDU);
    mpz_t e2;
    mpz_init(e2);
    dec_pow10(xlo, 0, o->K, o->dig1, e);
    dec_pow10(xhi, 1, o->K, o->dig2, e2);
    int same = mpz_cmp(e, e2) == 0 && strcmp(o->dig1, o->dig2) == 0;
    mpz_clear(e2);
    mpfr_clears(l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
    return same;
}

/* Exact K-digit rounding of a positive rational v; tie: 0 = to even, -1 = down (v is
 * infinitesimally below the given value), +1 = up (infinitesimally above). */
static void dec_rational(const mpq_t v, int K, int tie, char *d, mpz_t e)
{
    mpz_t a, b, q, r, t;
    mpz_inits(a, b, q, r, t, (mpz_ptr)0);
    long E = (long)mpz_sizeinbase(mpq_numref(v), 10) - (long)mpz_sizeinbase(mpq_denref(v), 10);
    for (;;) {
        /* q = floor(v * 10^(K - E)) */
        mpz_set(a, mpq_numref(v));
        mpz_set(b, mpq_denref(v));
        long s = K - E;
        mpz_ui_pow_ui(t, 10, (unsigned long)(s >= 0 ? s : -s));
        if (s >= 0)
            mpz_mul(a, a, t);
        else
            mpz_mul(b, b, t);
        mpz_fdiv_qr(q, r, a, b);
        /* the estimate of E may be off by one: check against 10^(K-1), 10^K exactly */
        mpz_ui_pow_ui(t, 10, (unsigned long)K);
        if (mpz_cmp(q, t) >= 0) { E++; continue; }
        mpz_ui_pow_ui(t, 10, (unsigned long)(K - 1));
        if (mpz_cmp(q, t) < 0) { E--; continue; }
        break;
    }
    mpz_mul_2exp(r, r, 1);
    int c = mpz_cmp(r, b);
    int up = c > 0 || (c == 0 && tie == 0 && mpz_odd_p(q)) ;
    if (c == 0 && tie != 0)
        up = tie > 0;
    if (up) {
        mpz_add_ui(q, q, 1);
        mpz_ui_pow_ui(t, 10, (unsigned long)K);
        if (mpz_cmp(q, t) == 0) {
            mpz_ui_pow_ui(q, 10, (unsigned long)(K - 1));
            E++;
        }
    }
    /* exact value below a K-digit decimal by an infinitesimal, with r == 0: the decimal
     * itself is the correct rounding (the infinitesimal is far below half a unit). */
    mpz_get_str(d, 10, q);
    mpz_set_si(e, E);
    mpz_clears(a, b, q, r, t, (mpz_ptr)0);
}

/* The double nearest a positive rational a plus an infinitesimal (a tie goes up; +inf
 * beyond the doubles, as IEEE rounds after 53 bits), or 0 when a may be below the normal
 * doubles (double rounding; the caller then keeps its interval method).  MPFR's exponent
 * range is the widest here (em_oracle_get). */
static double q_get_d_above(const mpq_t a)
{
    if (mpz_sizeinbase(mpq_denref(a), 2) > 1000 + mpz_sizeinbase(mpq_numref(a), 2))
        return 0.0;
    mpfr_t x, y;
    mpfr_inits2(53, x, (mpfr_ptr)0);
    mpfr_init2(y, 54);
    int tern = mpfr_set_q(x, a, MPFR_RNDN);
    /* a midpoint of two doubles is exact at 54 bits: the infinitesimal breaks the tie up */
    if (tern != 0 && mpfr_set_q(y, a, MPFR_RNDN) == 0)
        mpfr_set(x, y, MPFR_RNDU);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clears(x, y, (mpfr_ptr)0);
    return d;
}

/* log P = t_i - ln S of an other candidate i, decided from exact rationals.  Needed when
 * t_i sits on a K-digit rounding boundary (or a double's midpoint) and ln S is far smaller
 * than the boundary spacing: then no precision separates the MPFR bounds (a 6-digit
 * -1716865 with ln S ~ 1e-745625 needed 2^22 bits; with ln S below MPFR's range the ladder
 * ran to its limit and gave up).  Here ln S > 0 strictly (i itself is in S), so
 * |log P| = a + ln S lies in (a, a + w] with a = -t_i and w an upper bound of ln S, and
 * K-digit rounding is monotone: equal biased roundings at both ends decide it.  When w is
 * below 2^-B, the least distance from a to any rounding boundary other than a itself,
 * a plus an infinitesimal decides it alone.  Returns 1 with o->dig1 / e / *ld set. */
static int log_other_exact(em_oracle *o, const struct level *L, mpq_srcptr ti, mpz_t e,
                           double *ld)
{
    if (L->extreme && o->m != 1)
        return 0; /* ln S = ln m + tiny: irrational, the ladder resolves it */
    mpq_t a;
    mpq_init(a);
    mpq_neg(a, ti);
    /* decimal boundaries are (2q+1)/2 10^(E'-K) with E' >= E - 2, E the estimated decimal
     * exponent of a; midpoints of doubles in [2^-1000, 2^1000] have denominators below
     * 2^1100; two distinct rationals differ by at least 1/(den den') */
    long E = (long)mpz_sizeinbase(mpq_numref(a), 10) - (long)mpz_sizeinbase(mpq_denref(a), 10);
    double span = 4.0 * (double)(o->K - E + 2);
    double B = (double)mpz_sizeinbase(mpq_denref(a), 2) + 2.0 + (span > 1100.0 ? span : 1100.0);
    int ok = 0;
    if (B < 1.0e9) {
        int tiny;
        if (L->extreme) /* m == 1: ln S = log1p(R) < R <= exp(ly_hi); ln 2^-B > -0.7 B */
            tiny = mpfr_cmp_d(L->ly_hi, -0.7 * B) < 0;
        else
            tiny = mpfr_cmp_ui_2exp(L->lnS_hi, 1, -(mpfr_exp_t)B) < 0;
        double d1 = q_get_d_above(a);
        if (d1 != 0.0) {
            dec_rational(a, o->K, +1, o->dig1, e);
            if (tiny) {
                ok = 1;
            } else if (!L->extreme && mpfr_regular_p(L->lnS_hi) &&
                       mpfr_get_exp(L->lnS_hi) > -(mpfr_exp_t)B) {
                mpq_t b;
                mpz_t e2;
                mpq_init(b);
                mpz_init(e2);
                mpfr_get_q(b, L->lnS_hi);
                mpq_add(b, b, a);
                dec_rational(b, o->K, +1, o->dig2, e2);
                ok = mpz_cmp(e, e2) == 0 && strcmp(o->dig1, o->dig2) == 0 &&
                     q_get_d_above(b) == d1;
                mpz_clear(e2);
                mpq_clear(b);
            }
        }
        *ld = -d1;
    }
    mpq_clear(a);
    return ok;
}

static int is_one(const char *d, const mpz_t e)
{
    if (d[0] != '1' || mpz_cmp_ui(e, 1) != 0)
        return 0;
    for (const char *p = d + 1; *p; p++)
        if (*p != '0')
            return 0;
    return 1;
}

/* Both bounds [lo, hi] round to the same double (*d) and the same K-digit decimal
 * (o->dig1, *e, *neg): then so does the value between them. */
static int decided(em_oracle *o, const mpfr_t lo, const mpfr_t hi, mpz_t e, int *neg, double *d)
{
    double d1 = mpfr_get_d(lo, MPFR_RNDN), d2 = mpfr_get_d(hi, MPFR_RNDN);
    if (d1 != d2 || !dec_direct(o, lo, hi, e, neg))
        return 0;
    *d = d1;
    return 1;
}

static int set_out(char **slot, char *s)
{
    free(*slot);
    *slot = s;
    return s ? EM_OK : EM_ERR_NOMEM;
}

static int emit_prob(em_oracle *o, const char *d, const mpz_t e, unsigned *flags)
{
    if (is_one(d, e)) {
        /* P < 1 (exact 1 is handled by the caller): the largest K-digit decimal below 1 */
        char *s = em_format_nines(o->K);
        if (!s)
            return EM_ERR_NOMEM;
        *flags |= EM_OF_NEAR_ONE;
        return set_out(&o->pstr, s);
    }
    return set_out(&o->pstr, em_format_decimal(0, d, e));
}

/* ------------------------------------------------------------ candidates */

static int attempt(em_oracle *o, size_t i, int k, em_oracle_cand *c, int *done)
{
    struct level *L = &o->lv[k];
    const mpfr_prec_t p = L->p;
    const int K = o->K;
    int st = EM_OK;
    int pdone = 0, ldone = 0;
    unsigned flags = 0;
    double pd = 0, ld = 0;
    mpz_ptr e = o->scr_e;
    if (o->scr_prec != p) {
        for (int v = 0; v < 9; v++)
            mpfr_set_prec(o->scr[v], p);
        o->scr_prec = p;
    } else {
        /* llo / lhi may have been widened for a log-domain bound */
        if (mpfr_get_prec(o->scr[2]) != p) mpfr_set_prec(o->scr[2], p);
        if (mpfr_get_prec(o->scr[3]) != p) mpfr_set_prec(o->scr[3], p);
    }
    mpfr_ptr plo = o->scr[0], phi = o->scr[1], llo = o->scr[2], lhi = o->scr[3], tlo = o->scr[4],
             thi = o->scr[5], tmp = o->scr[6], elo = o->scr[7], ehi = o->scr[8];
    int neg;

    if (o->cls[i] == CL_MODE) {
        /* log P = -ln S */
        if (L->extreme && o->m == 1) {
            /* -log1p(y), y below the range: |log P| in [y (1 - y/2), y], so
             * ln|log P| in [ln y - y, ln y] within [nextbelow(ly_lo), ly_hi] */
            mpfr_set_prec(llo, mpfr_get_prec(L->ly_lo));
            mpfr_set_prec(lhi, mpfr_get_prec(L->ly_hi));
            mpfr_set(llo, L->ly_lo, MPFR_RNDD);
            mpfr_nextbelow(llo);
            mpfr_set(lhi, L->ly_hi, MPFR_RNDU);
            if (dec_from_log(o, llo, lhi, e)) {
                ldone = 1;
                flags |= EM_OF_LOG_FROM_LOG;
                st = set_out(&o->lstr, em_format_decimal(1, o->dig1, e));
                ld = -0.0;
            }
        } else {
            mpfr_neg(llo, L->lnS_hi, MPFR_RNDD);
            mpfr_neg(lhi, L->lnS_lo, MPFR_RNDU);
            if (decided(o, llo, lhi, e, &neg, &ld)) {
                ldone = 1;
                st = set_out(&o->lstr, em_format_decimal(neg, o->dig1, e));
            }
        }
        if (st)
            goto out;
        if (o->nother == 0 || L->extreme) {
            /* P = 1/m exactly (all tied), or 1/m minus an infinitesimal (others below range) */
            if (!o->ratdigits) {
                mpq_t v;
                mpq_init(v);
                mpq_set_ui(v, 1, o->m);
                o->ratdigits = malloc((size_t)K + 8);
                if (!o->ratdigits) {
                    mpq_clear(v);
                    st = EM_ERR_NOMEM;
                    goto out;
                }
                dec_rational(v, K, o->nother == 0 ? 0 : -1, o->ratdigits, o->rat_e);
                o->rat_d = em_q_get_d(v, NULL);
                mpq_clear(v);
            }
            pd = o->rat_d;
            if (o->nother == 0)
                flags |= EM_OF_RATIONAL;
            st = emit_prob(o, o->ratdigits, o->rat_e, &flags);
            pdone = 1;
        } else {
            mpfr_ui_div(plo, 1, L->S_hi, MPFR_RNDD);
            mpfr_ui_div(phi, 1, L->S_lo, MPFR_RNDU);
            if (decided(o, plo, phi, e, &neg, &pd)) {
                pdone = 1;
                st = emit_prob(o, o->dig1, e, &flags);
            }
        }
        goto out;
    }

    /* an other candidate: t < 0 */
    /* q_bounds of t_i, from one division without gcds (em_exponent_t_lo), or from m_i
     * when its exp bound came from the tables */
    const int from_tab = k == 0 && L->Eexp && L->Etab && L->Etab[i];
    unsigned long mi = 0;
    if (from_tab && !tab_m(o, i, &mi))
        return EM_ERR_DOMAIN; /* the utility source changed between calls */
    if (from_tab ? tab_t_lo(o, mi, tlo) != 0 : em_exponent_t_lo(&o->tf, &o->src, i, tlo) != 0) {
        mpfr_set(thi, tlo, MPFR_RNDN);
        mpfr_nextabove(thi);
    } else {
        mpfr_set(thi, tlo, MPFR_RNDN);
    }
    mpfr_sub(llo, tlo, L->lnS_hi, MPFR_RNDD);
    mpfr_sub(lhi, thi, L->lnS_lo, MPFR_RNDU);
    if (decided(o, llo, lhi, e, &neg, &ld)) {
        ldone = 1;
        st = set_out(&o->lstr, em_format_decimal(neg, o->dig1, e));
        if (st)
            goto out;
    } else if (k >= 1 && log_other_exact(o, L, t_of(o, i), e, &ld)) {
        ldone = 1;
        st = set_out(&o->lstr, em_format_decimal(1, o->dig1, e));
        if (st)
            goto out;
    }
    int have_elo = 0;
    if (from_tab) {
        /* the stored product of table entries, with the tables' bound (TAB_HI_BITS) */
        mpfr_t ev;
        mpfr_custom_init_set(ev, MPFR_REGULAR_KIND, L->Eexp[i], p, L->Elimbs + i * L->Enl);
        mpfr_set(elo, ev, MPFR_RNDN); /* same precision: exact */
        mpfr_set(ehi, elo, MPFR_RNDN);
        mpfr_nextabove(ehi);
        mpfr_set_prec(tmp, p + TAB_EXTRA);
        mpfr_set_ui_2exp(tmp, 1, TAB_HI_BITS - (long)(p + TAB_EXTRA), MPFR_RNDU);
        mpfr_add_ui(tmp, tmp, 1, MPFR_RNDU); /* exact */
        mpfr_mul(ehi, ehi, tmp, MPFR_RNDU);
        mpfr_set_prec(tmp, p);
        mpfr_div(plo, elo, L->S_hi, MPFR_RNDD);
        mpfr_div(phi, ehi, L->S_lo, MPFR_RNDU);
        if (decided(o, plo, phi, e, &neg, &pd)) {
            pdone = 1;
            st = emit_prob(o, o->dig1, e, &flags);
            goto out;
        }
        /* the exponential's own bound is a hair narrower when t_i is a dyadic: try it
         * before the next level's pass */
        mpfr_exp(elo, tlo, MPFR_RNDD);
        have_elo = 1;
    }
    if (have_elo) {
        /* elo is set */
    } else if (k == 0 && L->Eexp && L->Eexp[i] != E_NONE) {
        mpfr_t ev;
        mpfr_custom_init_set(ev, MPFR_REGULAR_KIND, L->Eexp[i], p, L->Elimbs + i * L->Enl);
        mpfr_set(elo, ev, MPFR_RNDN); /* same precision: exact */
    } else
        mpfr_exp(elo, tlo, MPFR_RNDD);
    if (!mpfr_zero_p(elo)) {
        exp_hi_from_lo(ehi, elo, tlo, thi, tmp);
        mpfr_div(plo, elo, L->S_hi, MPFR_RNDD);
        mpfr_div(phi, ehi, L->S_lo, MPFR_RNDU);
    }
    if (!mpfr_zero_p(elo) && !mpfr_zero_p(plo)) {
        if (decided(o, plo, phi, e, &neg, &pd)) {
            pdone = 1;
            st = emit_prob(o, o->dig1, e, &flags);
        }
    } else {
        /* P below MPFR's exponent range: from log P at a precision covering the
         * integer part of log10 P as well */
        mpq_srcptr ti = t_of(o, i); /* canonical, for q_bits */
        mpfr_prec_t pp = p + q_bits(ti) + 8;
        mpfr_t a_lo, a_hi, ulo, uhi;
        mpfr_inits2(pp, a_lo, a_hi, ulo, uhi, (mpfr_ptr)0);
        q_bounds(ulo, uhi, ti);
        mpfr_sub(a_lo, ulo, L->lnS_hi, MPFR_RNDD);
        mpfr_sub(a_hi, uhi, L->lnS_lo, MPFR_RNDU);
        if (pp > o->maxprec)
            o->maxprec = pp;
        if (dec_from_log(o, a_lo, a_hi, e)) {
            pdone = 1;
            pd = 0.0; /* far below 2^-1075 */
            flags |= EM_OF_FROM_LOG;
            st = set_out(&o->pstr, em_format_decimal(0, o->dig1, e));
        }
        mpfr_clears(a_lo, a_hi, ulo, uhi, (mpfr_ptr)0);
    }
out:
    if (st == EM_OK && pdone && ldone) {
        *done = 1;
        c->prob = o->pstr;
        c->logprob = o->lstr;
        c->prob_d = pd;
        c->logprob_d = ld;
        c->flags = flags;
        c->prec = p;
    }
    return st;
}

/* A result the intervals cannot decide: the value is within the interval's width of a
 * rounding boundary, or exactly on one of double's (log P = t - ln S with t a double
 * midpoint and ln S below any precision).  The same probability as a weighted law with
 * weights exp(t_j) (em_cont: utilities t_j, c = 1) is rounded with exact comparisons of
 * exponential polynomials (spec/Continuous.md), which terminate. */
static int exact_fallback(em_oracle *o, size_t i, em_oracle_cand *c)
{
    int st = EM_OK;
    if (!o->exact) {
        unsigned char *ex = malloc(o->n ? o->n : 1);
        if (!ex)
            return EM_ERR_NOMEM;
        for (size_t j = 0; j < o->n; j++)
            ex[j] = o->cls[j] == CL_EXCLUDED;
        mpq_t two, one;
        mpq_inits(two, one, (mpq_ptr)0);
        mpq_set_ui(two, 2, 1);
        mpq_set_ui(one, 1, 1);
        /* every t_j at once, for this rare case only (em_cont keeps its own copy) */
        mpq_t *t = malloc(o->n * sizeof *t);
        if (!t) {
            mpq_clears(two, one, (mpq_ptr)0);
            free(ex);
            return EM_ERR_NOMEM;
        }
        for (size_t j = 0; j < o->n; j++) {
            mpq_init(t[j]);
            if (o->cls[j] == CL_OTHER)
                em_exponent_t(&o->src, j, o->c, o->umax, t[j]);
        }
        em_problem W; /* utilities t_j, c = 2 / (2 * 1) = 1 */
        em_problem_init(&W);
        st = em_problem_finite(&W, o->n, t, ex, two, one, EM_STANDARD, NULL);
        if (st == EM_OK)
            st = em_cont_new(&W, o->K, &o->exact, NULL);
        em_problem_clear(&W);
        for (size_t j = 0; j < o->n; j++)
            mpq_clear(t[j]);
        free(t);
        mpq_clears(two, one, (mpq_ptr)0);
        free(ex);
        if (st != EM_OK)
            return st;
    }
    em_cval p, lp;
    em_cval_init(&p);
    em_cval_init(&lp);
    st = em_cont_prob(o->exact, i, &p, &lp);
    if (st == EM_OK) {
        unsigned flags = 0;
        /* below 1 but rounding to 1 (there is another candidate): K nines, as emit_prob */
        const char *q = p.str;
        int one = q[0] == '1';
        for (const char *r = q + 1; *r && one; r++)
            one = *r == '.' || *r == '0';
        if (one) {
            char *nines = em_format_nines(o->K);
            if (!nines) {
                st = EM_ERR_NOMEM;
            } else {
                free(p.str);
                p.str = nines;
                flags |= EM_OF_NEAR_ONE;
            }
        }
        if (st == EM_OK) {
            free(o->pstr);
            o->pstr = p.str;
            p.str = NULL;
            free(o->lstr);
            o->lstr = lp.str;
            lp.str = NULL;
            c->prob = o->pstr;
            c->logprob = o->lstr;
            c->prob_d = p.d;
            c->logprob_d = lp.d;
            c->flags = flags;
            c->prec = -1;
        }
    }
    em_cval_clear(&p);
    em_cval_clear(&lp);
    return st;
}

int em_oracle_get(em_oracle *o, size_t i, em_oracle_cand *c)
{
    if (!o || !c)
        return EM_ERR_NULL;
    if (i >= o->n)
        return EM_ERR_DOMAIN;
    memset(c, 0, sizeof *c);
    if (o->cls[i] == CL_EXCLUDED) {
        int st = set_out(&o->pstr, strdup("0"));
        if (!st)
            st = set_out(&o->lstr, strdup("-inf"));
        if (st)
            return st;
        c->prob = o->pstr;
        c->logprob = o->lstr;
        c->prob_d = 0.0;
        c->logprob_d = -INFINITY;
        c->flags = EM_OF_ZERO;
        return EM_OK;
    }
    if (o->m == 1 && o->nother == 0) {
        int st = set_out(&o->pstr, strdup("1"));
        if (!st)
            st = set_out(&o->lstr, strdup("0"));
        if (st)
            return st;
        c->prob = o->pstr;
        c->logprob = o->lstr;
        c->prob_d = 1.0;
        c->logprob_d = 0.0;
        c->flags = EM_OF_ONE;
        return EM_OK;
    }
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    em_mpfr_widest_range();
    int st = EM_OK;
    for (int k = 0; k < MAX_LEVELS; k++) {
        st = level_ensure(o, k);
        if (st)
            break;
        int done = 0;
        st = attempt(o, i, k, c, &done);
        if (st || done)
            break;
        if (k == EXACT_LEVEL && !o->lv[k].extreme) {
            /* an undecided result goes to the exact comparison; if that cannot decide
             * either (values beyond MPFR's range), the levels go on */
            int st2 = exact_fallback(o, i, c);
            if (st2 == EM_OK)
                break;
            if (st2 == EM_ERR_NOMEM) {
                st = st2;
                break;
            }
        }
        if (k == MAX_LEVELS - 1)
            st = EM_ERR_UNDECIDED; /* the precision limit: exit 3, never "bad input" */
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return st;
}

int em_oracle_doubles(const em_problem *P, double *p, double *logp, em_error *err)
{
    em_oracle *o;
    int st = em_oracle_new(P, 17, &o, err);
    if (st)
        return st;
    for (size_t i = 0; i < P->n && !st; i++) {
        em_oracle_cand c;
        st = em_oracle_get(o, i, &c);
        if (!st) {
            if (p) p[i] = c.prob_d;
            if (logp) logp[i] = c.logprob_d;
        }
    }
    em_oracle_free(o);
    if (st)
        return em_err(err, st, "%s", em_strerror(st));
    return st;
}
