/* em_wbound.h: certified integer bounds of exp(-x) for the exact sampler's fast bounds
 * (em_exact_new_d, spec/ExactSampling.md "Cheap bounds").  Internal to src/oracle/.
 *
 * No libm: x >= 0 is put in fixed point, X = x 2^64 rounded down or up (exact bit
 * manipulation of the double), split as X = k 2^64 + j1 2^54 + j2 2^44 + j3 2^34 + R with
 * R < 2^34 (r = R 2^-64 < 2^-30), and
 *     exp(-x) = exp(-k) exp(-j1 2^-10) exp(-j2 2^-20) exp(-j3 2^-30) exp(-r),
 *     1 - r <= exp(-r) <= 1 - r + r^2/2     (alternating series, 0 <= r <= 1).
 * The four factors come from tables of directed roundings computed by MPFR
 * (tools/gen_wbound.c, generated into em_wbound_tab.c, each entry rechecked by
 * tests/test_exact_d.c); the products are 64 x 64 -> 128-bit integer products, floored on
 * the lower path and ceiled on the upper one, every factor <= 1.  So each result is a
 * valid bound by induction; the only trusted parts are MPFR's correct rounding (T3(c) of
 * proofs/TRUSTED.md) and IEEE binary64 round-to-nearest for the few double operations
 * (T3(a)).  x >= EM_WB_XCUT: exp(-x) < 2^-184, handled by the
 * caller (lower bound 0, upper bound 2^-184). */
#ifndef EM_WBOUND_H
#define EM_WBOUND_H

#include <stdint.h>
#include <string.h>

#define EM_WB_XCUT 128      /* integer parts tabulated: exp(-128) < 2^-184 */
#define EM_WB_TINY_EXP 184  /* 2^-184 >= exp(-x) for x >= EM_WB_XCUT */

__extension__ typedef unsigned __int128 em_u128;

/* a positive number m 2^-e (m < 2^64) */
typedef struct em_wb_sig {
    uint64_t m;
    int e;
} em_wb_sig;

/* exp(-k), k < EM_WB_XCUT: 64-bit significands rounded down / up (m in [2^63, 2^64)) */
extern const em_wb_sig em_wb_exp_int_lo[EM_WB_XCUT], em_wb_exp_int_hi[EM_WB_XCUT];
/* floor / ceil of exp(-j 2^-10) 2^63, exp(-j 2^-20) 2^63, exp(-j 2^-30) 2^63, j < 1024 */
extern const uint64_t em_wb_exp_a_lo[1024], em_wb_exp_a_hi[1024];
extern const uint64_t em_wb_exp_b_lo[1024], em_wb_exp_b_hi[1024];
extern const uint64_t em_wb_exp_c_lo[1024], em_wb_exp_c_hi[1024];

/* The neighbours of a double (x not NaN): em_next_up(+inf) = +inf, em_next_up(-0) is
 * the smallest subnormal, em_next_down(+inf) = DBL_MAX.  The exact result z of one IEEE
 * binary64 operation rounded to nearest (r = RN(z), T3(a) of the trusted base) lies in
 * [em_next_down(r), em_next_up(r)], also when r overflowed to +-inf or underflowed to 0. */
static inline double em_next_up(double x)
{
    if (x == 0.0)
        return 0x1p-1074;
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    if (x > 0.0) {
        if (x > 0x1.fffffffffffffp1023)
            return x; /* +inf */
        b++;
    } else {
        b--; /* -inf: to -DBL_MAX */
    }
    memcpy(&x, &b, sizeof b);
    return x;
}

static inline double em_next_down(double x)
{
    return -em_next_up(-x);
}

/* Branch-free neighbours on the bits, for the hot loop: em_bits_up(x) is the next double
 * above x for finite x >= +0 (+0 gives the smallest subnormal, DBL_MAX gives +inf) and a
 * NaN for +inf or NaN; em_bits_down(x) is the next double below x for x > 0 (+inf gives
 * DBL_MAX). */
static inline double em_bits_up(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    b++;
    memcpy(&x, &b, sizeof b);
    return x;
}

static inline double em_bits_down(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    b--;
    memcpy(&x, &b, sizeof b);
    return x;
}

/* x 2^64 rounded down (up = 0) or up (up = 1), for 0 <= x (not NaN), saturated:
 * EM_WB_XCUT 2^64 when x >= EM_WB_XCUT (and for +inf).  Exact: for x < 2^7 the integer
 * part k = trunc(x) and x - k (< 1, no more significant bits than x) are exact doubles,
 * (x - k) 2^64 is an exact power-of-two scaling, and its conversion to uint64_t truncates
 * (C11 6.3.1.4), i.e. floors; it is an integer already when >= 2^52. */
static inline em_u128 em_wb_fix(double x, int up)
{
    if (!(x < (double)EM_WB_XCUT))
        return (em_u128)EM_WB_XCUT << 64;
    unsigned k = (unsigned)x;
    double f = (x - (double)k) * 0x1p64;
    uint64_t F = (uint64_t)f;
    if (up && (double)F != f)
        F++; /* f < 2^52 here: F is exact as a double */
    return ((em_u128)k << 64) | F;
}

/* floor / ceil of a b 2^-63 */
static inline uint64_t em_wb_mul_lo(uint64_t a, uint64_t b)
{
    return (uint64_t)(((em_u128)a * b) >> 63);
}

static inline uint64_t em_wb_mul_hi(uint64_t a, uint64_t b)
{
    em_u128 p = (em_u128)a * b;
    return (uint64_t)(p >> 63) + ((p & (((em_u128)1 << 63) - 1)) != 0);
}

/* A bound of exp(-X 2^-64), X < EM_WB_XCUT 2^64: *m 2^-*e <= exp(-X 2^-64) (up = 0) or
 * >= (up = 1), with *m < 2^64 and *m 2^-*e <= 1. */
static inline void em_wb_exp(em_u128 X, int up, uint64_t *m, int *e)
{
    unsigned k = (unsigned)(X >> 64);
    uint64_t f = (uint64_t)X;
    unsigned j1 = (unsigned)(f >> 54), j2 = (unsigned)(f >> 44) & 1023u;
    unsigned j3 = (unsigned)(f >> 34) & 1023u;
    uint64_t R = f & (((uint64_t)1 << 34) - 1); /* r = R 2^-64 < 2^-30 */
    const uint64_t one = (uint64_t)1 << 63;
    if (!up) {
        /* (1 - r) 2^63 = 2^63 - R/2, rounded down */
        uint64_t fr = one - ((R + 1) >> 1);
        /* a tree of depth 3 (independent products overlap) */
        uint64_t p = em_wb_mul_lo(em_wb_exp_int_lo[k].m, em_wb_exp_a_lo[j1]);
        uint64_t q = em_wb_mul_lo(em_wb_mul_lo(em_wb_exp_b_lo[j2], em_wb_exp_c_lo[j3]), fr);
        *m = em_wb_mul_lo(p, q);
        *e = em_wb_exp_int_lo[k].e;
    } else {
        /* (1 - r + r^2/2) 2^63 = 2^63 - R/2 + R^2 2^-66, rounded up; <= 2^63 since
         * exp(-r) <= 1 */
        uint64_t sq = (uint64_t)(((em_u128)R * R + (((em_u128)1 << 66) - 1)) >> 66);
        uint64_t fr = one - (R >> 1) + sq;
        if (fr > one)
            fr = one;
        uint64_t p = em_wb_mul_hi(em_wb_exp_int_hi[k].m, em_wb_exp_a_hi[j1]);
        uint64_t q = em_wb_mul_hi(em_wb_mul_hi(em_wb_exp_b_hi[j2], em_wb_exp_c_hi[j3]), fr);
        *m = em_wb_mul_hi(p, q);
        *e = em_wb_exp_int_hi[k].e;
    }
}

/* The lower bound of exp(-x) for a double 0 <= x < EM_WB_XCUT, as em_wb_exp(X, 0) with
 * X = ceil(x 2^64) but without 128-bit shifts: t = x 2^30 (exact scaling), T = floor(t)
 * (conversion truncates; T < 2^37 is exact as a double), r = x - T 2^-30 (exact: the bits
 * of x below 2^-30) < 2^-30, R = ceil(r 2^64) < 2^34 (an exact scaling, then the ceiling
 * by the same truncation rule); X = T 2^34 + R. */
static inline void em_wb_exp_lo_d(double x, uint64_t *m, int *e)
{
    double t = x * 0x1p30;
    uint64_t T = (uint64_t)(int64_t)t; /* through int64_t: one instruction, t < 2^37 */
    double rd = (x - (double)(int64_t)T * 0x1p-30) * 0x1p64;
    uint64_t R = (uint64_t)(int64_t)rd;
    R += (double)(int64_t)R != rd;
    unsigned k = (unsigned)(T >> 30), j1 = (unsigned)(T >> 20) & 1023u;
    unsigned j2 = (unsigned)(T >> 10) & 1023u, j3 = (unsigned)T & 1023u;
    uint64_t fr = ((uint64_t)1 << 63) - ((R + 1) >> 1);
    uint64_t p = em_wb_mul_lo(em_wb_exp_int_lo[k].m, em_wb_exp_a_lo[j1]);
    uint64_t q = em_wb_mul_lo(em_wb_mul_lo(em_wb_exp_b_lo[j2], em_wb_exp_c_lo[j3]), fr);
    *m = em_wb_mul_lo(p, q);
    *e = em_wb_exp_int_lo[k].e;
}

/* Both bounds for x in [xlo, xhi] (doubles, 0 <= xlo <= xhi < EM_WB_XCUT) from one
 * chain: mlo 2^-elo <= exp(-xhi) and exp(-xlo) <= mhi 2^-ehi.  The lower chain's value
 * L is within a factor (1 - eta) of exp(-xhi), eta < 2^-58 (five table entries and four
 * floors, each of relative error <= 2^-61 except exp(-k)'s 2^-63, the remainder's
 * (r^2/2 + 2^-63) / exp(-r) <= 2^-60.6, and X >= xhi 2^64 by less than one unit, a
 * factor exp(-2^-64); spec/ExactSampling.md), so
 *   exp(-xhi) <= L / (1 - eta) <= L (1 + 2^-57) <= U0 = L + floor(L 2^-57) + 1,
 *   exp(-xlo) = exp(-xhi) exp(D) <= U0 (1 + 2 D) for D >= xhi - xlo, D <= 1/8
 * (exp(D) <= 1 + 2D for 0 <= D <= 1), D = next-up of RN(xhi - xlo), 2D 2^64 rounded up.
 * Wider enclosures (D > 1/8) take the upper chain from floor(xlo 2^64). */
static inline void em_wb_exp2_d(double xlo, double xhi, uint64_t *mlo, int *elo,
                                uint64_t *mhi, int *ehi)
{
    em_wb_exp_lo_d(xhi, mlo, elo);
    double D = em_bits_up(xhi - xlo); /* xhi - xlo >= 0, finite */
    if (!(D <= 0.125)) {
        em_wb_exp(em_wb_fix(xlo, 0), 1, mhi, ehi);
        return;
    }
    double d2 = D * 0x1p65; /* <= 2^62 */
    uint64_t D2 = (uint64_t)(int64_t)d2;
    D2 += (double)(int64_t)D2 != d2;
    em_u128 U = (em_u128)*mlo + (*mlo >> 57) + 1;                 /* < 2^65 */
    em_u128 t = U * D2;                                           /* < 2^127 */
    U += (t >> 64) + (((uint64_t)t) != 0);                        /* < 1.25 U0 < 2^65 */
    int e = *elo;
    if (U >> 64) {
        U = (U >> 1) + (U & 1);
        e--;
    }
    *mhi = (uint64_t)U;
    *ehi = e;
}

/* m 2^-e at scale 2^P (P <= 127), rounded down (up = 0) or up. */
static inline em_u128 em_wb_scale(uint64_t m, int e, unsigned P, int up)
{
    int s = (int)P - e;
    if (s >= 0)
        return (em_u128)m << s;
    if (-s >= 64)
        return (em_u128)(up && m != 0);
    uint64_t q = m >> -s;
    if (up && (m & (((uint64_t)1 << -s) - 1)) != 0)
        q++;
    return q;
}

/* Bounds of exp(-x) at scale 2^P (P <= 127) for every x in [xlo, xhi] (0 <= xlo <= xhi,
 * not NaN; xhi may be +inf): *lo <= exp(-x) 2^P <= *hi <= 2^P. */
static inline void em_wb_weight(double xlo, double xhi, unsigned P, em_u128 *lo, em_u128 *hi)
{
    uint64_t m, m2;
    int e, e2;
    if (xhi < (double)EM_WB_XCUT) {
        em_wb_exp2_d(xlo, xhi, &m, &e, &m2, &e2);
        *lo = em_wb_scale(m, e, P, 0);
        *hi = em_wb_scale(m2, e2, P, 1);
    } else {
        *lo = 0;
        if (!(xlo < (double)EM_WB_XCUT)) {
            *hi = em_wb_scale(1, EM_WB_TINY_EXP, P, 1);
        } else {
            em_wb_exp(em_wb_fix(xlo, 0), 1, &m, &e);
            *hi = em_wb_scale(m, e, P, 1);
        }
    }
    if (*hi > (em_u128)1 << P)
        *hi = (em_u128)1 << P;
}

#endif
