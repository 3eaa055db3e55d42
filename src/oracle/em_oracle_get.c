/* em_oracle_get.c: a candidate's probability and log-probability correctly rounded:
 * both ends of their intervals to K-digit decimals in integer arithmetic (em_dec10.h) and
 * to doubles, a level up when they differ, the exact comparison of em_cont past
 * EXACT_LEVEL. */
#include "core/em_params.h"
#include "oracle/em_oracle_priv.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "num/em_bounds.h"
#include "num/em_dec10.h"
#include "num/em_format.h"
#include "num/em_getd.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_cont.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

/* ------------------------------------------------------------- decimals */

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
 * decimal?  Then write it to o->dig1 / e / *neg and return 1.  The decision is
 * em_dec10_decide's: both ends scaled exactly to the K-digit grid in integer arithmetic
 * (em_dec10.h) and decided by the WP-proven em_round_decide (rounding being monotone,
 * every value between them rounds alike).  This decides whenever dec_direct_str does (its guard-digit shortcut
 * implies that both ends round alike, and its other branch is this same comparison), with
 * the same digits; dec_direct_str stays for decimal exponents beyond em_dec10's cache. */
static int dec_direct(em_oracle *o, const mpfr_t lo, const mpfr_t hi, mpz_t e, int *neg)
{
    if (mpfr_zero_p(lo) || mpfr_zero_p(hi) || !mpfr_number_p(lo) || !mpfr_number_p(hi) ||
        mpfr_sgn(lo) != mpfr_sgn(hi))
        return 0;
    long e1;
    int d = em_dec10_decide(&o->d10, lo, hi, o->q1, &e1);
    if (d < 0)
        return dec_direct_str(o, lo, hi, e, neg);
    if (d == 0)
        return 0;
    *neg = mpfr_sgn(lo) < 0;
    em_dec10_digits(&o->d10, o->q1, o->dig1);
    mpz_set_si(e, e1);
    return 1;
}

/* Decimal of exp(a) for a in [alo, ahi] (any size): via x = a / ln 10. */
static int dec_from_log(em_oracle *o, const mpfr_t alo, const mpfr_t ahi, mpz_t e)
{
    mpz_t e2;
    mpz_init(e2);
    int same = em_round_exp_digits(alo, ahi, o->K, o->dig1, o->dig2, e, e2);
    mpz_clear(e2);
    return same;
}

/* Exact K-digit rounding of a positive rational v; tie: 0 = to even, -1 = down (v is
 * infinitesimally below the given value), +1 = up (infinitesimally above). */
static int dec_rational(const mpq_t v, int K, int tie, char *d, mpz_t e)
{
    mpz_t a, b, q, r, t;
    mpz_inits(a, b, q, r, t, (mpz_ptr)0);
    long E = (long)mpz_sizeinbase(mpq_numref(v), 10) - (long)mpz_sizeinbase(mpq_denref(v), 10);
    /* sizeinbase is exact or one too large for each part: E is off by at most two, so two
     * corrections suffice; a third means a bug, reported (-1), not looped on */
    int fixed = 0;
    for (int fix = 0; fix < 3 && !fixed; fix++) {
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
        fixed = 1;
    }
    if (!fixed) {
        mpz_clears(a, b, q, r, t, (mpz_ptr)0);
        return -1;
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
    return 0;
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
            if (dec_rational(a, o->K, +1, o->dig1, e) != 0) {
                ok = 0;
            } else if (tiny) {
                ok = 1;
            } else if (!L->extreme && mpfr_regular_p(L->lnS_hi) &&
                       mpfr_get_exp(L->lnS_hi) > -(mpfr_exp_t)B) {
                mpq_t b;
                mpz_t e2;
                mpq_init(b);
                mpz_init(e2);
                mpfr_get_q(b, L->lnS_hi);
                mpq_add(b, b, a);
                ok = dec_rational(b, o->K, +1, o->dig2, e2) == 0 && mpz_cmp(e, e2) == 0 && strcmp(o->dig1, o->dig2) == 0 &&
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
    double d1 = em_mpfr_get_d_rn(lo), d2 = em_mpfr_get_d_rn(hi);
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

/* The decimal (neg, d, e) as the probability (log = 0) or log-probability (log = 1) into
 * *out: in the oracle's own buffer when e is a long (every result but those far beyond
 * MPFR's range), else in a malloc'd string kept in pstr / lstr. */
static int put_decimal(em_oracle *o, int log, int neg, const char *d, const mpz_t e,
                       const char **out)
{
    if (mpz_fits_slong_p(e) && mpz_cmp_si(e, LONG_MIN + 2) >= 0) {
        char *buf = log ? o->lbuf : o->pbuf;
        em_format_decimal_l(buf, neg, d, mpz_get_si(e));
        *out = buf;
        return EM_OK;
    }
    char **slot = log ? &o->lstr : &o->pstr;
    int st = set_out(slot, em_format_decimal(neg, d, e));
    *out = *slot;
    return st;
}

static int emit_prob(em_oracle *o, const char *d, const mpz_t e, unsigned *flags,
                     const char **out)
{
    if (is_one(d, e)) {
        /* P < 1 (exact 1 is handled by the caller): the largest K-digit decimal below 1 */
        memcpy(o->pbuf, "0.", 2);
        memset(o->pbuf + 2, '9', (size_t)o->K);
        o->pbuf[o->K + 2] = 0;
        *flags |= EM_OF_NEAR_ONE;
        *out = o->pbuf;
        return EM_OK;
    }
    return put_decimal(o, 0, 0, d, e, out);
}

/* ------------------------------------------------------------ candidates */

/* The multipliers of level k (o->rS_*), once per level: a candidate's probability bounds
 * then cost a multiplication each instead of a division.  Directed rounding keeps the
 * enclosure: S_lo <= S <= S_hi with S_lo >= m >= 1 > 0, so
 *   rS_lo = RNDD(1/S_hi) <= 1/S_hi <= 1/S <= 1/S_lo <= RNDU(1/S_lo) = rS_hi,
 * and for e > 0, RNDD(elo rS_lo) <= elo / S and RNDU(ehi rS_hi) >= ehi / S.  The tables'
 * factor tabhi = 1 + 2^(TAB_HI_BITS - pt) (exact at pt = p + TAB_EXTRA bits) is folded in:
 * rS_tab = RNDU(tabhi rS_hi) >= tabhi / S.  Each multiplier costs at most one ulp at p
 * over the quotient it replaces, a few ulps of width that the level's precision (K digits
 * plus more than 16 bits) absorbs; a result is printed only when decided, so a wider
 * interval can only send a candidate to the next level, never change its digits. */
static void recips(em_oracle *o, int k)
{
    if (o->recip_k == k)
        return;
    const struct level *L = &o->lv[k];
    const mpfr_prec_t p = L->p;
    mpfr_set_prec(o->rS_lo, p);
    mpfr_set_prec(o->rS_hi, p);
    mpfr_set_prec(o->rS_tab, p);
    mpfr_ui_div(o->rS_lo, 1, L->S_hi, MPFR_RNDD);
    mpfr_ui_div(o->rS_hi, 1, L->S_lo, MPFR_RNDU);
    mpfr_set_prec(o->tabhi, p + TAB_EXTRA);
    mpfr_set_ui_2exp(o->tabhi, 1, TAB_HI_BITS - (long)(p + TAB_EXTRA), MPFR_RNDU);
    mpfr_add_ui(o->tabhi, o->tabhi, 1, MPFR_RNDU); /* exact at p + TAB_EXTRA bits */
    mpfr_mul(o->rS_tab, o->tabhi, o->rS_hi, MPFR_RNDU);
    o->recip_k = k;
}

static int attempt(em_oracle *o, size_t i, int k, em_oracle_cand *c, int *done)
{
    struct level *L = &o->lv[k];
    const mpfr_prec_t p = L->p;
    const int K = o->K;
    int st = EM_OK;
    int pdone = 0, ldone = 0;
    unsigned flags = 0;
    double pd = 0, ld = 0;
    const char *ps = NULL, *ls = NULL;
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
    recips(o, k);
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
                st = put_decimal(o, 1, 1, o->dig1, e, &ls);
                ld = -0.0;
            }
        } else {
            mpfr_neg(llo, L->lnS_hi, MPFR_RNDD);
            mpfr_neg(lhi, L->lnS_lo, MPFR_RNDU);
            if (decided(o, llo, lhi, e, &neg, &ld)) {
                ldone = 1;
                st = put_decimal(o, 1, neg, o->dig1, e, &ls);
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
                if (dec_rational(v, K, o->nother == 0 ? 0 : -1, o->ratdigits, o->rat_e) != 0) {
                    mpq_clear(v);
                    st = EM_ERR_UNDECIDED;
                    goto out;
                }
                o->rat_d = em_q_get_d(v, NULL);
                mpq_clear(v);
            }
            pd = o->rat_d;
            if (o->nother == 0)
                flags |= EM_OF_RATIONAL;
            st = emit_prob(o, o->ratdigits, o->rat_e, &flags, &ps);
            pdone = 1;
        } else {
            mpfr_set(plo, o->rS_lo, MPFR_RNDD); /* same precision: exact */
            mpfr_set(phi, o->rS_hi, MPFR_RNDU);
            if (decided(o, plo, phi, e, &neg, &pd)) {
                pdone = 1;
                st = emit_prob(o, o->dig1, e, &flags, &ps);
            }
        }
        goto out;
    }

    /* an other candidate: t < 0 */
    /* bounds of t_i, from one division without gcds (em_exponent_t_lo), or from m_i times the
     * bounds of 1/D when its exp bound came from the tables */
    const int from_tab = k == 0 && L->Eexp && L->Etab && L->Etab[i];
    unsigned long mi = 0;
    if (from_tab && !em_oracle_tab_m(o, i, &mi))
        return EM_ERR_DOMAIN; /* the utility source changed between calls */
    if (from_tab) {
        em_oracle_tab_t_bounds(o, mi, tlo, thi);
    } else if (em_exponent_t_lo(&o->tf, &o->src, i, tlo) != 0) {
        mpfr_set(thi, tlo, MPFR_RNDN);
        mpfr_nextabove(thi);
    } else {
        mpfr_set(thi, tlo, MPFR_RNDN);
    }
    mpfr_sub(llo, tlo, L->lnS_hi, MPFR_RNDD);
    mpfr_sub(lhi, thi, L->lnS_lo, MPFR_RNDU);
    if (decided(o, llo, lhi, e, &neg, &ld)) {
        ldone = 1;
        st = put_decimal(o, 1, neg, o->dig1, e, &ls);
        if (st)
            goto out;
    } else if (k >= 1 && log_other_exact(o, L, em_oracle_t_of(o, i), e, &ld)) {
        ldone = 1;
        st = put_decimal(o, 1, 1, o->dig1, e, &ls);
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
        /* exp(t_i) <= ehi tabhi and rS_tab >= tabhi / S_lo (recips), so
         * P_i <= ehi rS_tab <= phi; plo <= elo / S_hi <= P_i */
        mpfr_mul(plo, elo, o->rS_lo, MPFR_RNDD);
        mpfr_mul(phi, ehi, o->rS_tab, MPFR_RNDU);
        if (decided(o, plo, phi, e, &neg, &pd)) {
            pdone = 1;
            st = emit_prob(o, o->dig1, e, &flags, &ps);
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
        em_oracle_exp_hi_from_lo(ehi, elo, tlo, thi, tmp);
        /* all positive: plo <= elo / S_hi <= P_i <= ehi / S_lo <= phi (recips) */
        mpfr_mul(plo, elo, o->rS_lo, MPFR_RNDD);
        mpfr_mul(phi, ehi, o->rS_hi, MPFR_RNDU);
    }
    if (!mpfr_zero_p(elo) && !mpfr_zero_p(plo)) {
        if (decided(o, plo, phi, e, &neg, &pd)) {
            pdone = 1;
            st = emit_prob(o, o->dig1, e, &flags, &ps);
        }
    } else {
        /* P below MPFR's exponent range: from log P at a precision covering the
         * integer part of log10 P as well */
        mpq_srcptr ti = em_oracle_t_of(o, i); /* canonical, for q_bits */
        mpfr_prec_t pp = p + em_q_bits(ti) + 8;
        mpfr_t a_lo, a_hi, ulo, uhi;
        mpfr_inits2(pp, a_lo, a_hi, ulo, uhi, (mpfr_ptr)0);
        em_q_bounds(ulo, uhi, ti);
        mpfr_sub(a_lo, ulo, L->lnS_hi, MPFR_RNDD);
        mpfr_sub(a_hi, uhi, L->lnS_lo, MPFR_RNDU);
        if (pp > o->maxprec)
            o->maxprec = pp;
        if (dec_from_log(o, a_lo, a_hi, e)) {
            pdone = 1;
            pd = 0.0; /* far below 2^-1075 */
            flags |= EM_OF_FROM_LOG;
            st = put_decimal(o, 0, 0, o->dig1, e, &ps);
        }
        mpfr_clears(a_lo, a_hi, ulo, uhi, (mpfr_ptr)0);
    }
out:
    if (st == EM_OK && pdone && ldone) {
        *done = 1;
        *c = (em_oracle_cand){.prob = ps, .logprob = ls, .prob_d = pd, .logprob_d = ld,
                              .flags = flags, .prec = p};
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
        unsigned char *ex = em_excluded_flags(o->cls, o->n);
        if (!ex)
            return EM_ERR_NOMEM;
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

/* The probability 0 (excluded) or 1 (the only candidate with mass), exactly. */
static int exact_cand(em_oracle *o, em_oracle_cand *c, int one)
{
    int st = set_out(&o->pstr, strdup(one ? "1" : "0"));
    if (!st)
        st = set_out(&o->lstr, strdup(one ? "0" : "-inf"));
    if (st)
        return st;
    c->prob = o->pstr;
    c->logprob = o->lstr;
    c->prob_d = one ? 1.0 : 0.0;
    c->logprob_d = one ? 0.0 : -INFINITY;
    c->flags = one ? EM_OF_ONE : EM_OF_ZERO;
    return EM_OK;
}

int em_oracle_get(em_oracle *o, size_t i, em_oracle_cand *c)
{
    if (!o || !c)
        return EM_ERR_NULL;
    if (i >= o->n)
        return EM_ERR_DOMAIN;
    memset(c, 0, sizeof *c);
    if (o->cls[i] == CL_EXCLUDED)
        return exact_cand(o, c, 0);
    if (o->m == 1 && o->nother == 0)
        return exact_cand(o, c, 1);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    em_mpfr_widest_range();
    int st = EM_OK;
    for (int k = 0; k < MAX_LEVELS; k++) {
        st = em_oracle_level(o, k);
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
