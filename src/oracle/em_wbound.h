/* em_wbound.h: certified bounds of exp(-x) for the exact sampler's fast bounds
 * (em_exact_new_d, spec/ExactSampling.md "Cheap bounds").  Internal to src/oracle/.
 * No libm; the tables are directed roundings computed by MPFR (tools/gen_wbound.c,
 * generated into em_wbound_tab.c, each entry rechecked by tests/test_exact_d.c); the only
 * trusted parts are MPFR's correct rounding (T3(c) of proofs/TRUSTED.md) and IEEE binary64
 * round-to-nearest (T3(a)).
 *
 * Lower bounds, for every candidate: em_wb_exp_lo_dbl, in double arithmetic within a
 * factor 1 + 2^-48 (its comment has the error analysis).
 *
 * Upper bounds, for the rare wide enclosure: em_wb_exp_up, in integers.  x >= 0 is put in
 * fixed point, X = floor(x 2^64) (exact bit manipulation of the double), split as
 * X = k 2^64 + j1 2^54 + j2 2^44 + j3 2^34 + R with R < 2^34 (r = R 2^-64 < 2^-30), and
 *     exp(-x) <= exp(-k) exp(-j1 2^-10) exp(-j2 2^-20) exp(-j3 2^-30) exp(-r),
 *     exp(-r) <= 1 - r + r^2/2     (alternating series, 0 <= r <= 1),
 * from ceiling entries and 64 x 64 -> 128-bit products rounded up, every factor <= 1: a
 * valid bound by induction.  x >= EM_WB_XCUT: exp(-x) < 2^-184, handled by the caller
 * (lower bound 0, upper bound 2^-184). */
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

/* exp(-k), k < EM_WB_XCUT: 64-bit significands rounded up (m in [2^63, 2^64)) */
extern const em_wb_sig em_wb_exp_int_hi[EM_WB_XCUT];
/* ceil of exp(-j 2^-10) 2^63, exp(-j 2^-20) 2^63, exp(-j 2^-30) 2^63, j < 1024 */
extern const uint64_t em_wb_exp_a_hi[1024], em_wb_exp_b_hi[1024], em_wb_exp_c_hi[1024];
/* exp(-k), k < EM_WB_XCUT, and exp(-j 2^-10), j < 1024, rounded down to doubles */
extern const double em_wb_exp_int_d[EM_WB_XCUT], em_wb_exp_a_d[1024];

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

/* floor(x 2^64) for 0 <= x (not NaN), saturated: EM_WB_XCUT 2^64 when x >= EM_WB_XCUT
 * (and for +inf).  Exact: for x < 2^7 the integer part k = trunc(x) and x - k (< 1, no
 * more significant bits than x) are exact doubles, (x - k) 2^64 is an exact power-of-two
 * scaling, and its conversion to uint64_t truncates (C11 6.3.1.4), i.e. floors. */
static inline em_u128 em_wb_fix(double x)
{
    if (!(x < (double)EM_WB_XCUT))
        return (em_u128)EM_WB_XCUT << 64;
    unsigned k = (unsigned)x;
    uint64_t F = (uint64_t)((x - (double)k) * 0x1p64);
    return ((em_u128)k << 64) | F;
}

/* ceil(a b 2^-63) */
static inline uint64_t em_wb_mul_hi(uint64_t a, uint64_t b)
{
    em_u128 p = (em_u128)a * b;
    return (uint64_t)(p >> 63) + ((p & (((em_u128)1 << 63) - 1)) != 0);
}

/* An upper bound of exp(-X 2^-64), X < EM_WB_XCUT 2^64: exp(-X 2^-64) <= *m 2^-*e <= 1,
 * *m < 2^64 (hence of exp(-x) for every x >= X 2^-64). */
static inline void em_wb_exp_up(em_u128 X, uint64_t *m, int *e)
{
    unsigned k = (unsigned)(X >> 64);
    uint64_t f = (uint64_t)X;
    unsigned j1 = (unsigned)(f >> 54), j2 = (unsigned)(f >> 44) & 1023u;
    unsigned j3 = (unsigned)(f >> 34) & 1023u;
    uint64_t R = f & (((uint64_t)1 << 34) - 1); /* r = R 2^-64 < 2^-30 */
    const uint64_t one = (uint64_t)1 << 63;
    /* (1 - r + r^2/2) 2^63 = 2^63 - R/2 + R^2 2^-66, rounded up; <= 2^63 since
     * exp(-r) <= 1 */
    uint64_t sq = (uint64_t)(((em_u128)R * R + (((em_u128)1 << 66) - 1)) >> 66);
    uint64_t fr = one - (R >> 1) + sq;
    if (fr > one)
        fr = one;
    /* a tree of depth 3 (independent products overlap) */
    uint64_t p = em_wb_mul_hi(em_wb_exp_int_hi[k].m, em_wb_exp_a_hi[j1]);
    uint64_t q = em_wb_mul_hi(em_wb_mul_hi(em_wb_exp_b_hi[j2], em_wb_exp_c_hi[j3]), fr);
    *m = em_wb_mul_hi(p, q);
    *e = em_wb_exp_int_hi[k].e;
}

/* The constants of em_wb_exp_lo_dbl's polynomial, rounded to the side that keeps it a
 * lower bound: c3 >= 1/6, c4 <= 1/24, c5 >= 1/120 (each the neighbour of the quotient
 * rounded to nearest, which is within one ulp of it). */
typedef struct em_wb_poly {
    double c3, c4, c5;
} em_wb_poly;

static inline em_wb_poly em_wb_poly_init(void)
{
    em_wb_poly c = {em_next_up(1.0 / 6.0), em_next_down(1.0 / 24.0), em_next_up(1.0 / 120.0)};
    return c;
}

/* 2^k for an integer -1022 <= k <= 1023, exactly */
static inline double em_wb_pow2(int k)
{
    uint64_t b = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* A lower bound L of exp(-x) for a double 0 <= x < EM_WB_XCUT, in double arithmetic and
 * within a factor 1 + 2^-48: L <= exp(-x) <= L (1 + 2^-48), L >= 2^-186 (normal).  With
 * u = 2^-53 (IEEE binary64, rounded to nearest, T3(a) of proofs/TRUSTED.md):
 *  - k = trunc(x), x - k (Sterbenz), y = (x - k) 2^10, j = trunc(y), y - j and
 *    r = (y - j) 2^-10 in [0, 2^-10) are all exact, and x = k + j 2^-10 + r;
 *  - E1 = exp(-k) and E2 = exp(-j 2^-10) rounded down to doubles (MPFR's tables, normal
 *    numbers): E1 >= exp(-k)(1 - 2u), E2 >= exp(-j 2^-10)(1 - 2u);
 *  - p(r) = 1 - r + r^2/2 - c3 r^3 + c4 r^4 - c5 r^5 <= exp(-r) (a series that alternates
 *    with decreasing terms, cut after a negative one, its coefficients rounded to the
 *    lower side), and exp(-r) - p(r) <= r^6/720 + u r^3 < 0.07u; Horner in double is
 *    within 0.51u of p(r) (the last rounding, of a value in [0.99, 1], costs u/2; every
 *    earlier one is multiplied by r <= 2^-10 on its way out), so within 1.1u relative;
 *  - yh = RN(RN(E1 E2) p^) <= exp(-x)(1 + 1.1u)(1 + u)^2 < exp(-x)(1 + 3.2u) (E1, E2 and
 *    p(r) are at most their exact counterparts), and L = RN(yh (1 - 2^-49)) lies in
 *    [yh (1 - 17u), yh (1 - 15u)]: so L < exp(-x);
 *  - and L >= exp(-x)(1 - 2u)^2 (1 - 1.1u)(1 - u)^2 (1 - 17u) >= exp(-x)(1 - 24.2u),
 *    i.e. exp(-x) <= L (1 + 24.3u) <= L (1 + 2^-48) (2^-48 = 32u).
 * tests/test_exact_d.c checks both inequalities against MPFR on dense sweeps of x. */
static inline double em_wb_exp_lo_dbl(double x, const em_wb_poly *c)
{
    int k = (int)x;
    double y = (x - (double)k) * 0x1p10;
    int j = (int)y;
    double r = (y - (double)j) * 0x1p-10;
    double e1 = em_wb_exp_int_d[k], e2 = em_wb_exp_a_d[j];
    double p = 1.0 - r * (1.0 - r * (0.5 - r * (c->c3 - r * (c->c4 - r * c->c5))));
    return (e1 * e2) * p * (1.0 - 0x1p-49);
}

/* L[c] = em_wb_exp_lo_dbl(x[c], pc) for c < n (each 0 <= x[c] < EM_WB_XCUT), four at a
 * time with AVX2 where the CPU has it and vector != 0 (the same values bit for bit: the
 * same operations in the same order; em_wbound.c); vector = 0: the scalar loop. */
void em_wb_exp_lo_block(unsigned n, const double *x, double *L, const em_wb_poly *pc,
                        int vector);

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


#endif
