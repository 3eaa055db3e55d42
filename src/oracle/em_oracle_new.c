/* em_oracle_new.c: the finite oracle's construction (em_oracle.h): exponents and
 * classes, the exponent tables of a common denominator, the accessors. */
#include "core/em_params.h"
#include "oracle/em_oracle_priv.h"

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "base/em_mem.h"
#include "num/em_bounds.h"
#include "num/em_dec10.h"
#include "num/em_format.h"
#include "num/em_qcmp.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_cont.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

/* ------------------------------------------------------------------ helpers */

/* Upper bound of exp(t) for t in [tlo, thi], given elo = RNDD(exp(tlo)): 
 * exp(t) <= exp(tlo) exp(thi - tlo) <= nextabove(elo) (1 + 2 (thi - tlo)) for
 * 0 <= thi - tlo <= 1. */
void em_oracle_exp_hi_from_lo(mpfr_t ehi, const mpfr_t elo, const mpfr_t tlo, const mpfr_t thi,
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
int em_oracle_tab_m(em_oracle *o, size_t j, unsigned long *m)
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

/* tlo <= t_j = -m / D <= thi at tlo's precision (thi's the same): m times 1/D rounded
 * outwards, RNDD(1/D) <= 1/D <= RNDU(1/D), each reciprocal once per precision, then
 *   tlo = -RNDU(m RNDU(1/D)) <= -m/D <= -RNDD(m RNDD(1/D)) = thi    (m > 0),
 * two multiplications by a word instead of a division by D.  Both are exact, tlo = thi,
 * when D is a power of two. */
void em_oracle_tab_t_bounds(em_oracle *o, unsigned long m, mpfr_t tlo, mpfr_t thi)
{
    const mpfr_prec_t p = mpfr_get_prec(tlo);
    if (o->rD_p != p) {
        mpfr_set_prec(o->rD_lo, p);
        mpfr_set_prec(o->rD_hi, p);
        mpfr_set_ui(o->rD_lo, 1, MPFR_RNDN);
        mpfr_div_z(o->rD_lo, o->rD_lo, o->tabD, MPFR_RNDD);
        mpfr_set_ui(o->rD_hi, 1, MPFR_RNDN);
        mpfr_div_z(o->rD_hi, o->rD_hi, o->tabD, MPFR_RNDU);
        o->rD_p = p;
    }
    mpfr_mul_ui(tlo, o->rD_hi, m, MPFR_RNDU);
    mpfr_neg(tlo, tlo, MPFR_RNDN);
    mpfr_mul_ui(thi, o->rD_lo, m, MPFR_RNDD);
    mpfr_neg(thi, thi, MPFR_RNDN);
}

/* The TL tables at precision p: tab[l 2^TB + d] = RNDD(exp(-d 2^(TB l) / D)).  NULL when
 * out of memory (the tables are an optimisation only). */
mpfr_t *em_oracle_tab_build(em_oracle *o, mpfr_prec_t p)
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

void em_oracle_tab_free(em_oracle *o, mpfr_t *tab)
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
mpfr_srcptr em_oracle_tab_exp_lo(const em_oracle *o, mpfr_t *tab, unsigned long m, mpfr_t et)
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

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* The parts of umax and c as words, for t = c (u - umax) in word arithmetic (t_bits_w) */
typedef struct tw {
    int ok;
    int64_t A;      /* num(umax) */
    uint64_t B;     /* den(umax) */
    uint64_t Cn, Cd;
} tw;

static u128 gcd_u128(u128 a, u128 b)
{
    while (b) {
        u128 r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static int bits_u128(u128 x)
{
    uint64_t h = (uint64_t)(x >> 64);
    if (h)
        return 128 - __builtin_clzll(h);
    uint64_t l = (uint64_t)x;
    return l ? 64 - __builtin_clzll(l) : 0;
}

/* em_q_bits(c (u - umax)) of u = un / ud (lowest terms) in words: the canonical numerator
 * and denominator are the cross products over their gcd, as mpq_sub and mpq_mul would
 * leave them.  0 when a product does not fit (then the caller takes the rationals). */
static int t_bits_w(const tw *w, const mpq_t u, long *b)
{
    if (!w->ok || !mpz_fits_slong_p(mpq_numref(u)) || !mpz_fits_ulong_p(mpq_denref(u)))
        return 0;
    i128 un = mpz_get_si(mpq_numref(u));
    u128 ud = mpz_get_ui(mpq_denref(u));
    i128 num;
    u128 den, an;
    if (__builtin_sub_overflow(un * (i128)w->B, (i128)w->A * (i128)ud, &num) || num == 0 ||
        __builtin_mul_overflow(ud, (u128)w->B, &den) ||
        __builtin_mul_overflow(den, (u128)w->Cd, &den))
        return 0;
    an = num < 0 ? (u128)0 - (u128)num : (u128)num;
    if (__builtin_mul_overflow(an, (u128)w->Cn, &an))
        return 0;
    u128 g = gcd_u128(an, den);
    long x = (long)bits_u128(an / g) - (long)bits_u128(den / g) + 1;
    *b = x < 0 ? 0 : x;
    return 1;
}

static int oracle_init(const em_problem *P, const em_utility_reader *src, em_qcopy *own,
                       int digits, em_oracle **out)
{
    const size_t n = P->n;
    em_oracle *o = calloc(1, sizeof *o);
    if (!o) {
        if (own)
            em_qcopy_free(own, n);
        return EM_ERR_NOMEM;
    }
    o->n = n;
    o->K = digits;
    o->src = *src;
    if (own)
        o->own = *own;
    mpq_inits(o->c, o->umax, o->tq, (mpq_ptr)0);
    o->dig1 = malloc((size_t)digits + 24);
    o->dig2 = malloc((size_t)digits + 24);
    o->pbuf = malloc((size_t)digits + EM_FORMAT_EXTRA);
    o->lbuf = malloc((size_t)digits + EM_FORMAT_EXTRA);
    mpfr_init2(o->tabhi, 64);
    mpfr_inits2(64, o->rS_lo, o->rS_hi, o->rS_tab, o->rD_lo, o->rD_hi, (mpfr_ptr)0);
    o->recip_k = -1;
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
    if (!o->dig1 || !o->dig2 || !o->pbuf || !o->lbuf || !o->cls || !o->have_d10) {
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
    mpq_t tmin, umin, uhi;
    mpq_inits(tmin, umin, uhi, (mpq_ptr)0);
    size_t imin = 0, ihi = 0;
    tw w = {0, 0, 0, 0, 0};
    w.ok = mpz_fits_slong_p(mpq_numref(o->umax)) && mpz_fits_ulong_p(mpq_denref(o->umax)) &&
           mpz_fits_ulong_p(mpq_numref(o->c)) && mpz_fits_ulong_p(mpq_denref(o->c));
    if (w.ok) {
        w.A = mpz_get_si(mpq_numref(o->umax));
        w.B = mpz_get_ui(mpq_denref(o->umax));
        w.Cn = mpz_get_ui(mpq_numref(o->c));
        w.Cd = mpz_get_ui(mpq_denref(o->c));
    }
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
        /* c > 0: t orders as u, so the least and largest t are those of the least and
         * largest u, compared as given */
        if (!have_tau || em_qcmp(o->tq, umin) < 0) {
            mpq_set(umin, o->tq);
            imin = i;
        }
        if (!have_tau || em_qcmp(o->tq, uhi) > 0) {
            mpq_set(uhi, o->tq);
            ihi = i;
        }
        have_tau = 1;
        long b;
        if (!t_bits_w(&w, o->tq, &b)) {
            mpq_sub(o->tq, o->tq, o->umax);
            mpq_mul(o->tq, o->tq, o->c);
            b = em_q_bits(o->tq);
        }
        if (b > 64)
            b = 64; /* beyond, exp(t) leaves MPFR's range: handled through logarithms */
        if (b > o->tbits)
            o->tbits = b;
    }
    if (have_tau) {
        em_exponent_t(src, imin, o->c, o->umax, tmin);
        em_exponent_t(src, ihi, o->c, o->umax, o->tau);
    }
    if (have_tau && lcm_ok)
        tab_setup(o, lcm, tmin);
    mpq_clears(tmin, umin, uhi, (mpq_ptr)0);
    *out = o;
    return EM_OK;
}

/* t_i into o->tq */
mpq_ptr em_oracle_t_of(em_oracle *o, size_t i)
{
    em_exponent_t(&o->src, i, o->c, o->umax, o->tq);
    return o->tq;
}

int em_oracle_new(const em_problem *P, int digits, em_oracle **out, em_error *err)
{
    int st = em_problem_check_new(P, out, "em_oracle_new", err);
    if (st != EM_OK)
        return st;
    if (digits < 1 || digits > EM_ROUND_MAX_DIGITS)
        return em_err(err, EM_ERR_DOMAIN, "digits %d: expected 1 to %d", digits,
                      EM_ROUND_MAX_DIGITS);
    if (P->reader.get) {
        st = oracle_init(P, &P->reader, NULL, digits, out);
    } else {
        em_qcopy own;
        em_utility_reader src;
        if (em_qcopy_new(P, &own, &src) != EM_OK)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        st = oracle_init(P, &src, &own, digits, out);
    }
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    return EM_OK;
}

void em_oracle_level_storage_free(struct level *L)
{
    EM_FREE_NULL_ALL(&L->Eexp, &L->Elimbs, &L->Etab);
}

static void level_clear(struct level *L)
{
    if (!L->ready)
        return;
    mpfr_clears(L->S_lo, L->S_hi, L->lnS_lo, L->lnS_hi, L->ly_lo, L->ly_hi, (mpfr_ptr)0);
    em_oracle_level_storage_free(L);
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
    em_qcopy_free(&o->own, o->n);
    mpq_clears(o->c, o->umax, o->tq, (mpq_ptr)0);
    if (o->have_tf)
        em_tfast_clear(&o->tf);
    mpq_clear(o->tau);
    mpz_clear(o->rat_e);
    mpfr_clear(o->scr_w);
    mpfr_clear(o->tabhi);
    mpfr_clears(o->rS_lo, o->rS_hi, o->rS_tab, o->rD_lo, o->rD_hi, (mpfr_ptr)0);
    mpfr_clear(o->pow10KG);
    for (int k = 0; k < 9; k++)
        mpfr_clear(o->scr[k]);
    mpz_clear(o->scr_e);
    mpz_clears(o->q1, o->q2, o->tabD, (mpz_ptr)0);
    mpq_clear(o->uq);
    if (o->have_d10)
        em_dec10_clear(&o->d10);
    EM_FREE_ALL(o->pstr, o->lstr, o->pbuf, o->lbuf, o->dig1, o->dig2, o->ratdigits, o);
}

long em_oracle_max_prec(const em_oracle *o)
{
    return o ? o->maxprec : 0;
}

int em_oracle_passes(const em_oracle *o)
{
    return o ? o->passes : 0;
}
