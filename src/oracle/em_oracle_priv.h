/* em_oracle_priv.h: the insides of the finite oracle (em_oracle.h), shared by its files:
 * em_oracle_new.c (construction, exponent tables), em_oracle_levels.c (the normaliser
 * S as an interval at a precision level), em_oracle_get.c (a candidate's correctly
 * rounded results: decimals in integer arithmetic, Ziv's test, the exact fallback).
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
#ifndef EM_ORACLE_ORACLE_PRIV_H
#define EM_ORACLE_ORACLE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>

#include "num/em_dec10.h"
#include "oracle/em_cont.h"
#include "oracle/em_exponents.h"
#include "oracle/em_oracle.h"
#include "oracle/em_problem.h"
#include "oracle/em_qwords.h"

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
    em_qcopy own;            /* em_oracle_new's copy of the utilities (src reads it) */
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
    char *pstr, *lstr;       /* last results, when malloc'd (exponents beyond a long) */
    char *pbuf, *lbuf;       /* last results otherwise: K + EM_FORMAT_EXTRA bytes */
    mpfr_t tabhi;            /* 1 + 2^(TAB_HI_BITS - pt) at pt = p + TAB_EXTRA bits (recips) */
    /* 1/S as multipliers at the level recip_k (-1: none yet), so that a candidate costs
     * multiplications, not divisions: RNDD(1/S_hi) <= 1/S <= RNDU(1/S_lo), and
     * rS_tab = RNDU(tabhi rS_hi) for the tables' upper bound */
    mpfr_t rS_lo, rS_hi, rS_tab;
    int recip_k;
    char *dig1, *dig2;       /* K+GUARD+8 byte scratch */
    mpfr_t scr_w;            /* scratch for dec_direct */
    mpfr_t pow10KG;          /* 10^(K+GUARD), rounded up */
    mpfr_t scr[9];           /* attempt()'s variables, at scr_prec */
    mpfr_prec_t scr_prec;
    mpz_t scr_e;
    em_dec10 d10;            /* exact decimal rounding of dec_direct */
    int have_d10;
    mpz_t q1, q2;
    /* Exponent tables (see em_oracle_tab_m): t_j = -m_j / D with integers m_j < 2^(TB TL), so
     * exp(t_j) is a product of TL table entries exp(-d 2^(TB l) / D) */
    int tab_on, TB, TL;
    unsigned long tabL, tabnc; /* L: lcm of the utilities' denominators; nc: numerator of c */
    long tabA;                 /* numerator of umax times L / den(umax) */
    mpz_t tabD;                /* D = den(c) L */
    mpfr_t rD_lo, rD_hi;       /* RNDD(1/D), RNDU(1/D) at precision rD_p (0: none yet) */
    mpfr_prec_t rD_p;
    mpq_t uq;                  /* scratch: u_j */
    em_cont *exact;          /* the exact fallback (em_cont.h), built when first needed */
    char *ratdigits;         /* cached decimal of 1/m (or 1/m - infinitesimal) */
    mpz_t rat_e;
    double rat_d;
};

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

/* ------------------------------------------------ shared by the parts */

/* The exp bounds kept at level 0 (Eexp, Elimbs, Etab) freed and set to NULL. */
void em_oracle_level_storage_free(struct level *L);


/* Upper bound of exp(t) for t in [tlo, thi], given elo = RNDD(exp(tlo)): 
 * exp(t) <= exp(tlo) exp(thi - tlo) <= nextabove(elo) (1 + 2 (thi - tlo)) for
 * 0 <= thi - tlo <= 1. */
void em_oracle_exp_hi_from_lo(mpfr_t ehi, const mpfr_t elo, const mpfr_t tlo, const mpfr_t thi,
                           mpfr_t tmp);

/* m_j of candidate j (an other) into *m; 0 when it does not fit the tables (then the
 * candidate takes the exponential path). */
int em_oracle_tab_m(em_oracle *o, size_t j, unsigned long *m);

/* tlo <= t_j = -m / D <= thi, a few ulps apart (equal when exact); thi at tlo's precision */
void em_oracle_tab_t_bounds(em_oracle *o, unsigned long m, mpfr_t tlo, mpfr_t thi);

/* The TL tables at precision p: tab[l 2^TB + d] = RNDD(exp(-d 2^(TB l) / D)).  NULL when
 * out of memory (the tables are an optimisation only). */
mpfr_t *em_oracle_tab_build(em_oracle *o, mpfr_prec_t p);

void em_oracle_tab_free(em_oracle *o, mpfr_t *tab);

/* RNDD(prod of the entries of m's digits) at the tables' precision, a lower bound of
 * exp(-m/D): a table entry or et (scratch at that precision) */
mpfr_srcptr em_oracle_tab_exp_lo(const em_oracle *o, mpfr_t *tab, unsigned long m, mpfr_t et);

/* t_i into o->tq */
mpq_ptr em_oracle_t_of(em_oracle *o, size_t i);

/* The normaliser at level k: one pass over the others. */
int em_oracle_level(em_oracle *o, int k);

#endif
