/* em_pf_law_priv.h: the parts of permute-and-flip's law at scale (em_pf_law.h), internal
 * to em_pf_law_*.c: the product h (em_pf_law_h.c), its quadrature (em_pf_law_quad.c), the
 * precision levels and one candidate's bounds (em_pf_law_level.c), construction
 * (em_pf_law_new.c) and correct rounding (em_pf_law_round.c), each calling only those
 * listed before it.
 *
 * Notation: mm modes (p = 1), the others s with p_s = exp(t_s) < 1, T = 2^-jT the end of
 * the integration range (past it h is negligible and bounded by monotonicity), a
 * candidate is heavy when p T > 1/4 (a direct factor of h and a direct integral), light
 * otherwise (through the power sums Q_k = sum (p_s T)^k and the moment series). */
#ifndef EM_PF_LAW_PRIV_H
#define EM_PF_LAW_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>

#include "oracle/em_exponents.h"
#include "oracle/em_pf_law.h"

#define THETA_LOG2 2          /* light: p T <= 2^-THETA_LOG2 */
#define DISC_LOG2 2           /* Cauchy disc radius = 2^DISC_LOG2 half-lengths: q = 1/4 */
#define NCAP 1024             /* largest Clenshaw-Curtis degree */
#define MAX_SUB 100000        /* largest number of subintervals */
#define EXACT_M 96            /* up to this many candidates: the exact rule (level_build) */

/* One precision level: everything shared by the candidates. */
typedef struct em_pfl_level {
    long B;                 /* target: every I within 2^-B relatively */
    mpfr_prec_t w;          /* working precision */
    int jT;                 /* T = 2^-jT */
    int D;                  /* power sums Q_1..Q_D */
    mpfr_t *Qlo, *Qhi;      /* Q_k / k at [k-1]; Qhi with the truncated parts */
    mpfr_t Q1hi;            /* Q_1 upper, for the series beyond D */
    mpfr_t Shi;             /* mm + sum of p (upper) */
    size_t nh, caph;        /* heavy candidates */
    size_t *hidx;           /* their indices, increasing */
    mpfr_t *sp;             /* pass A: their p bounds, [2h] lo, [2h+1] hi (caph slots) */
    size_t *hgrp;           /* their group: equal bounds (ties) form one factor */
    size_t ng;              /* groups */
    unsigned long *gm;      /* multiplicities */
    mpfr_t *hp;             /* [2g] p lo, [2g+1] p hi */
    mpfr_t *hI;             /* [2g] I lo, [2g+1] I hi */
    int K;                  /* M_0..M_K, R_0..R_(K+1) */
    mpfr_t *Mlo, *Mhi, *Rhi;
    mpfr_t R0lo;
    mpfr_t LM0lo, LM0hi;    /* log M_0 bounds */
    double *lR;             /* log2 R_k (upper) */
    double lM0;             /* log2 M_0 (lower) */
    int exact;              /* m <= EXACT_M: every other heavy, one exact rule */
    int qinit, built;
} em_pfl_level;

struct em_pfl {
    size_t n, m, mm, nother;
    em_utility_reader src;
    mpq_t *own;             /* the utilities when the problem gave them as an array */
    unsigned char *cls;
    int32_t *tex;           /* the binary exponent of |t| (0 for |t| < 1): its precision */
    mpq_t c, umax;
    em_tfast tf;
    int have_tf;
    double Sd;              /* mm + sum p, a double estimate (the plan only) */
    long tbits;             /* the largest of tex */
    int nbits;              /* bits of n */
    em_pfl_level lv;
    /* scratch */
    mpfr_t tlo, thi, plo, phi, x, y, z;
    mpfr_t hx, hs, hu;      /* h_eval's argument and scratch (working precision) */
    mpfr_t pw_lo, pw_hi;    /* p at the working precision */
    mpfr_t ua, ub, ta, tb;  /* log1p's series */
    mpfr_t Ilo, Ihi, Plo, Phi, llo, lhi;
};

/* A subinterval [a, a + 2 hh] of the quadrature: multiples of 2^-50 T, exact in a double. */
typedef struct em_pfl_sub {
    double a, hh;
} em_pfl_sub;

/* ---- em_pf_law_h.c: the exponentials and the product h */

/* tlo <= t_i <= thi at tlo's precision, plo <= p_i <= phi at plo's. */
void em_pfl_p_bounds(em_pfl *F, size_t i, mpfr_t tlo, mpfr_t thi, mpfr_t plo, mpfr_t phi);
/* A bound of h(x) at an exact x in [0, T]: upper when up, else lower. */
void em_pfl_h_eval(em_pfl *F, const em_pfl_level *L, mpfr_srcptr x, int up, mpfr_t out);
/* Hd >= max |h(z)| over the disc |z - x0 - r| <= r. */
void em_pfl_disc_bound(em_pfl *F, const em_pfl_level *L, mpfr_srcptr x0, mpfr_t Hd);
/* log2 of x as a double (-inf for 0). */
double em_pfl_lg2(mpfr_srcptr x);
/* n numbers at prec bits, all 0 (NULL when out of memory; em_mpfr_array_free). */
mpfr_t *em_pfl_zeros(size_t n, mpfr_prec_t prec);

/* ---- em_pf_law_quad.c: the certified quadrature */

/* The (N+1)-point Clenshaw-Curtis rule's enclosures (0; -1: a weight not certainly
 * positive; -2: out of memory). */
int em_pfl_cc_rule(int N, mpfr_prec_t w, mpfr_t *xi, mpfr_t *wt);
/* (1 - a) h(a) <= tol, certified (the bound in out). */
int em_pfl_rest_negligible(em_pfl *F, const em_pfl_level *L, double a, mpfr_srcptr tol,
                           mpfr_t out);
/* The subintervals of [0, Tend] (count; 0 when out of memory or past MAX_SUB). */
size_t em_pfl_plan(em_pfl *F, const em_pfl_level *L, double shrink, mpfr_srcptr tol,
                   em_pfl_sub **out, double *Tend, mpfr_t scr);
/* A subinterval's Cauchy factor C, and its disc's left end in x0. */
void em_pfl_sub_factor(em_pfl *F, const em_pfl_level *L, const em_pfl_sub *S, mpfr_t x0,
                       mpfr_t C);
/* The moments, R_k and the heavy integrals with their errors, by the rule of degree N. */
void em_pfl_integrate(em_pfl *F, em_pfl_level *L, const em_pfl_sub *S, size_t ns, double Tend,
                      int N, mpfr_t *xi, mpfr_t *wt, mpfr_t *Rlo, mpfr_t *EM, mpfr_t *ER,
                      mpfr_t *EH);

/* ---- em_pf_law_level.c: levels and one candidate */

void em_pfl_level_clear(em_pfl_level *L);
/* The level for target B (kept when the current one is at least as precise). */
int em_pfl_level_for(em_pfl *F, long B);
/* The candidate precision of a |t| below 2^e. */
mpfr_prec_t em_pfl_cand_prec(const em_pfl_level *L, long e);
/* Another candidate i: t, p, I, P bounds in F->tlo..F->Phi. */
void em_pfl_other_bounds(em_pfl *F, size_t i);
/* A mode, from y = the others' total in [ylo, yhi]: P bounds in F->Plo, F->Phi. */
void em_pfl_mode_bounds(em_pfl *F, mpfr_srcptr ylo, mpfr_srcptr yhi);
/* llo <= log P <= lhi for the other candidate just bounded. */
void em_pfl_other_logs(em_pfl *F);
/* ylo <= sum of the others' P <= yhi at the current level (the scratch of one candidate
 * is overwritten). */
void em_pfl_others_sum(em_pfl *F, mpfr_t ylo, mpfr_t yhi);

#endif
