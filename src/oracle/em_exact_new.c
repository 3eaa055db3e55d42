/* em_exact_new.c: the exact sampler's construction (em_exact.h): the classes, the
 * first precision level or, cheaper, certified 63-bit words from double enclosures of the
 * inputs (oracle/em_wbound.h), and the accessors. */
#include "oracle/em_exact_priv.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "core/em_exact_select.h"
#include "core/em_params.h"
#include "num/em_bounds.h"
#include "num/em_rational.h"
#include "oracle/em_exact_vec.h"
#include "oracle/em_exponents.h"
#include "oracle/em_wbound.h"

/* The sampler with lo64, hi64 (n + 1 each) and cls (n), and extra bytes after them, in
 * one allocation (a small one-shot pays one malloc). */
static em_exact *exact_alloc(size_t n, size_t extra)
{
    size_t words = (n + 1) * sizeof(uint64_t);
    size_t head = (sizeof(em_exact) + 15) / 16 * 16;
    em_exact *s = malloc(head + 2 * words + extra + n);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->n = n;
    s->select = em_exact_select;
    s->lo64 = (uint64_t *)((char *)s + head);
    s->hi64 = s->lo64 + n + 1;
    s->cls = (unsigned char *)(s->hi64 + n + 1) + extra;
    long nb = em_exact_bitlen(n);
    s->first = (unsigned)(nb + 2 > FIX_BITS ? FIX_BITS : nb + 2);
    return s;
}

static int cheap_bounds_q(em_exact *s);

static int exact_init(const em_problem *P, const em_utility_reader *src, mpq_t *own,
                      em_exact **out)
{
    const size_t n = P->n;
    em_exact *s = exact_alloc(n, 0);
    if (!s) {
        em_q_array_free(own, n);
        return EM_ERR_NOMEM;
    }
    s->src = *src;
    s->own = own;
    s->variant = P->variant;
    int st = em_exact_mp_setup(s, P, -1);
    if (st == EM_OK && !cheap_bounds_q(s))
        st = em_exact_mp_level0(s->mp, 1);
    if (st != EM_OK) {
        em_exact_free(s);
        return st;
    }
    *out = s;
    return EM_OK;
}

int em_exact_new(const em_problem *P, em_exact **out, em_error *err)
{
    int st = em_problem_check_new(P, out, "em_exact_new", err);
    if (st != EM_OK)
        return st;
    if (P->reader.get) {
        st = exact_init(P, &P->reader, NULL, out);
    } else if (P->u) {
        mpq_t *own = em_q_array_copy(P);
        if (!own)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        em_utility_reader src = {em_utility_array_get, own};
        st = exact_init(P, &src, own, out);
    } else {
        return em_exact_new_d(P, out, err);
    }
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    return EM_OK;
}

/* ------------------------------------------------- double inputs: cheap bounds */

/* u_i of em_exact_new_d's copy, exactly (a double is a dyadic rational) */
static void double_get(const void *ctx, size_t i, mpq_t q)
{
    mpq_set_d(q, ((const double *)ctx)[i]);
}

/* A weight bound packed in one word: m 2^-e with m < 2^56 in the low 56 bits, e in the
 * high 8 (e <= 255); from a normal double L in [2^-186, 1] exactly: its 53-bit
 * significand M and L = M 2^-(1075 - biased exponent), 52 <= 1075 - biased <= 238. */
static inline uint64_t pack_d(double L)
{
    uint64_t b;
    memcpy(&b, &L, sizeof b);
    uint64_t be = b >> 52; /* L > 0: no sign bit */
    return ((1075u - be) << 56) | (b & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
}

/* the packed word at scale 2^P, rounded down (up = 0) or up */
static inline em_u128 unpack_w(uint64_t w, unsigned P, int up)
{
    return em_wb_scale(w & (((uint64_t)1 << 56) - 1), (int)(w >> 56), P, up);
}

static unsigned bitlen_u128(em_u128 x)
{
    uint64_t h = (uint64_t)(x >> 64);
    if (h)
        return 128u - (unsigned)__builtin_clzll(h);
    uint64_t l = (uint64_t)x;
    return l ? 64u - (unsigned)__builtin_clzll(l) : 0u;
}

/* The running sums of the first pass of cheap_bounds (and cheap_bounds_q), all at scale
 * 2^P.  modes: the candidates of weight 1 exactly.  zlo: the other lower bounds.  For the
 * k candidates of the chain (em_wb_exp_lo_dbl), the upper bounds are not formed one by
 * one; their sum is bounded at the end (wsum_bounds) from
 *     exp(-xlo) 2^P <= (l + 1)(1 + 2^-48)(1 + 2D),   D = next-up(RN(xhi - xlo)) <= 1/8,
 * where l = floor(L 2^P) is the lower bound added to zlo (exp(-xhi) <= L (1 + 2^-48), the
 * packing is exact, and exp(D) <= 1 + 2D for 0 <= D <= 1), so that their sum is at most
 * (1 + 2^-48)(sum l + k + 2 sum D l + k/4), and sum D l <= 2^P sum D L: dsum is that last
 * sum in double, each product and addition rounded to nearest.  zhi: the upper bounds of
 * the wide enclosures, one by one; tail: the candidates whose upper bound is one unit. */
typedef struct wsum {
    em_u128 zlo, zhi;
    uint64_t modes, k, tail; /* weights 1 exactly; the chain; upper bounds of one unit */
    double dsum;
} wsum;

/* The upper bound of exp(-x) for x in [xlo, xhi], 0 <= xlo < EM_WB_XCUT (a wide enclosure:
 * the integer chain at xlo), added to z->zhi. */
static void wupper(double xlo, unsigned P, wsum *z)
{
    uint64_t m;
    int e;
    em_wb_exp_up(em_wb_fix(xlo), &m, &e); /* <= 1 */
    em_u128 h = em_wb_scale(m, e, P, 1), one = (em_u128)1 << P;
    z->zhi += h < one ? h : one;
}

/* The lower bound L of a chain candidate i, x in [xlo, xhi] (xhi < EM_WB_XCUT): its bounds
 * added to the sums z, and l = floor(L 2^P) kept for the second pass in lo[i] (low 64 bits)
 * and hi[i] (high 64 bits). */
static inline __attribute__((always_inline)) void wchain(double L, double xlo, double xhi,
                                                         unsigned P, wsum *z, uint64_t *lo,
                                                         uint64_t *hi, size_t i)
{
    /* (always inline: the sums stay in registers, not a store-forwarded chain) */
    em_u128 l = unpack_w(pack_d(L), P, 0);
    z->zlo += l;
    lo[i] = (uint64_t)l;
    hi[i] = (uint64_t)(l >> 64);
    double D = em_bits_up(xhi - xlo); /* xhi - xlo >= 0, finite */
    if (D <= 0.125) {
        z->k++;
        z->dsum += D * L;
    } else {
        wupper(xlo, P, z); /* an enclosure wider than 1/8 */
    }
}

#define WB_BLOCK 64

/* The candidates waiting for the chain (cheap_bounds, cheap_bounds_q): up to a block of
 * them, run as one loop of independent iterations (the chain is a long dependency of
 * multiplications; one candidate at a time, its latency was the loop's cost). */
typedef struct wpend {
    unsigned n;
    size_t idx[WB_BLOCK];
    double xlo[WB_BLOCK], xhi[WB_BLOCK];
} wpend;

/* The chains of the waiting candidates: their lower bounds into lo and hi (wchain), their
 * bounds into z. */
static void wpend_flush(wpend *b, unsigned P, const em_wb_poly *pc, uint64_t *lo, uint64_t *hi,
                        wsum *z)
{
    double L[WB_BLOCK];
    em_wb_exp_lo_block(b->n, b->xhi, L, pc, 1);
    for (unsigned c = 0; c < b->n; c++)
        wchain(L[c], b->xlo[c], b->xhi[c], P, z, lo, hi, b->idx[c]);
    b->n = 0;
}

/* Candidate i, neither a mode nor excluded, with w = exp(-x), x in [xlo, xhi] (0 <= xlo
 * <= xhi; xhi may be NaN or +inf: lower bound 0): lower bound 0 (lo[i] = hi[i] = 0) and its
 * bounds into z now, or it waits in b for the chain (flushed when b is full); xcut >= P ln 2
 * (a double). */
static inline void wbound(size_t i, double xlo, double xhi, unsigned P, double xcut,
                          const em_wb_poly *pc, uint64_t *lo, uint64_t *hi, wsum *z, wpend *b)
{
    lo[i] = 0;
    hi[i] = 0;
    if (!(xlo < xcut)) {
        /* exp(-x) 2^P <= exp(-P ln 2) 2^P = 1: lower bound 0, upper bound one unit (most
         * candidates of a large set, whose weights are far below the sum's last bit) */
        z->tail++;
    } else if (!(xhi < (double)EM_WB_XCUT)) {
        wupper(xlo, P, z);
    } else {
        b->idx[b->n] = i;
        b->xlo[b->n] = xlo;
        b->xhi[b->n] = xhi;
        if (++b->n == WB_BLOCK)
            wpend_flush(b, P, pc, lo, hi, z);
    }
}

/* P ln 2 rounded up, with room: 0.6932 > ln 2 + 5e-5 (ln 2 = 0.693147...), and the
 * product's rounding (relative 2^-53) is far below P 5e-5 */
static inline double wcut(unsigned P)
{
    return (double)P * 0.6932;
}

/* trunc(x) for 0 <= x < 2^120, as (em_u128)x without libgcc's conversion (a call): h =
 * trunc(x 2^-64) (an exact scaling) < 2^56, and x - h 2^64 is exact (h 2^64 is a double; by
 * Sterbenz, as x / 2 <= h 2^64 <= x when h >= 1) and below 2^64. */
static inline em_u128 u128_trunc(double x)
{
    uint64_t h = (uint64_t)(x * 0x1p-64);
    return ((em_u128)h << 64) + (uint64_t)(x - (double)h * 0x1p64);
}

/* floor((2^125 + a) / d) for 2^62 <= d <= 2^63 and a < 2^63 (< 2^64: the quotient fits) */
static inline uint64_t div125(uint64_t a, uint64_t d)
{
#if defined(__x86_64__) && defined(__GNUC__)
    /* one divq of the 128-bit 2^125 + a by d (high word 2^61 < d: no overflow), instead of
     * libgcc's 128-bit division */
    uint64_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(a), "d"((uint64_t)1 << 61), "rm"(d) : "cc");
    (void)r;
    return q;
#else
    return (uint64_t)((((em_u128)1 << 125) + a) / d);
#endif
}

/* Z_lo <= Z <= Z_hi from the sums into *zlo, *zhi; 0 when the chain's upper excess is out
 * of range (then level 0 is computed in MPFR).
 *   sum D L <= dsum (1 + 2^-21) + k 2^-1074:
 * each term D L in double is at least (1 - 2^-53) of its exact value, less an underflow
 * below 2^-1074, and a sum of k <= 2^30 nonnegative terms rounded to nearest is below the
 * computed one over 1 - gamma(k), gamma(k) = k 2^-53 / (1 - k 2^-53) < 2^-22 (Higham,
 * Accuracy and Stability of Numerical Algorithms, section 4.2).  So
 * X = ceil(dsum 2^(P+1) (1 + 2^-19)) + 1 >= 2 sum D l, and the chain's upper bounds sum to
 * at most (1 + 2^-48) T, T = L_c + 2k + X, L_c their lower sum (k + k/4 <= 2k); and
 * Z_hi = modes 2^P + zhi + tail + T + floor(T 2^-48) + 1 (the modes' weights are exact),
 * clamped at n 2^P >= Z (every weight <= 1). */
static int wsum_bounds(const wsum *z, size_t n, unsigned P, em_u128 *zlo, em_u128 *zhi)
{
    em_u128 M = (em_u128)z->modes << P;
    *zlo = M + z->zlo;
    if (z->k == 0) {
        *zhi = *zlo + z->zhi + z->tail; /* exact when only modes and exclusions: Z_lo = Z */
        return 1;
    }
    double xd = z->dsum * em_wb_pow2((int)P + 1); /* exact: a power-of-two scaling */
    xd = xd * (1.0 + 0x1p-19);
    if (!(xd < 0x1p120))
        return 0;
    em_u128 X = u128_trunc(xd) + 2;
    em_u128 T = z->zlo + 2 * (em_u128)z->k + X;
    em_u128 H = M + z->zhi + z->tail + T + (T >> 48) + 1, cap = (em_u128)n << P;
    *zhi = H < cap ? H : cap;
    return 1;
}

static int cheap_words(em_exact *s, unsigned P, em_u128 zlo, em_u128 zhi);

/* Widest hi64 - lo64 accepted from the cheap bounds (units 2^-63) before level 0 is
 * computed in MPFR instead: beyond it the fast path would be undecided too often. */
#define CHEAP_MAX_WIDTH ((uint64_t)1 << 24)

/* lo64 / hi64 from the doubles in s->ud (excluded: -inf; s->cls set), umax the largest.
 * Returns 1 when the bounds are valid and tight, 0 when level 0 must be computed in MPFR
 * (then lo64 / hi64 hold nothing of use).
 *
 * x_i = c (umax - u_i) >= 0 is enclosed by doubles: each operation rounded to nearest, its
 * exact result within one ulp of it (em_next_down / em_next_up, em_wbound.h).  The weights
 * w_i = exp(-x_i) are bounded at scale 2^P, P = 127 - bitlen(n), so the sum of n bounds
 * (each <= 2^P) stays below 2^127.  The first pass sums them into
 * Z_lo <= Z <= Z_hi and keeps each lower bound at that scale, floor(L 2^P) < 2^127, in
 * lo64 and hi64 (its two halves; runs of alike candidates four at a time, em_exact_vec.h);
 * the second forms the prefix sums C_lo(i) <= C(i) and the words lo64[i] <= F(i) 2^63 with
 * F(i) = C(i) / Z from C_lo / Z_hi through one reciprocal rounded in the safe direction,
 * and hi64[i] = lo64[i] + W with one width W >= the largest possible gap, from
 * (Z_hi - Z_lo) / Z_lo (below). */
/* The lower end of the enclosure of x_i = c (umax - u_i) for a finite u_i < umax, as
 * cheap_bounds forms it (its comments). */
static inline double x_lower(double ui, double umax, double clo)
{
    double pl = clo * em_bits_down(umax - ui);
    return pl > 0.0 ? em_bits_down(pl) : 0.0;
}

/* A utility t < umax such that every finite u_i <= t has x_lower(u_i) >= xcut (a tail
 * candidate), or -inf.  x_lower is nonincreasing in u_i (each rounding to nearest, each
 * step to a neighbour and the product by clo >= 0 is monotone), so one test at t suffices;
 * t is a guess a little below umax - xcut / clo, checked by that test. */
static double tail_threshold(double umax, double clo, double xcut)
{
    if (!(clo > 0.0))
        return -HUGE_VAL;
    double t = umax - (xcut / clo) * (1.0 + 0x1p-20);
    if (!(t < umax && t >= -0x1.fffffffffffffp1023) || !(x_lower(t, umax, clo) >= xcut))
        return -HUGE_VAL;
    return t;
}

/* The one-by-one pass's view of cheap_bounds: its arrays, constants and sums. */
typedef struct wpass {
    const double *u;
    const unsigned char *excluded;
    double *ud;
    unsigned char *cls;
    uint64_t *lo, *hi;
    double umax, clo, chi, uthr, xcut;
    unsigned P;
    em_wb_poly pc;
    wsum z;
    wpend pend;
} wpass;

/* Candidates [i, e) of cheap_bounds one by one: the copy (excluded: -inf), the class, and
 * the bounds (lower bound l = floor(L 2^P) into lo / hi, 0 without one; or waiting in the
 * queue for the chain). */
static void wpass_one_by_one(wpass *w, size_t i, size_t e)
{
    uint64_t tail = 0; /* z.tail's share of the fast test below, kept in a register */
    for (; i < e; i++) {
        double ui = (w->excluded && w->excluded[i]) ? -HUGE_VAL : w->u[i];
        w->ud[i] = ui;
        if (ui <= w->uthr && ui >= -0x1.fffffffffffffp1023) {
            /* the tail, known from u_i alone (most of a large set) */
            w->cls[i] = CL_OTHER;
            w->lo[i] = 0;
            w->hi[i] = 0;
            tail++;
            continue;
        }
        if (ui < -0x1.fffffffffffffp1023) {
            w->cls[i] = CL_EXCLUDED;
            w->lo[i] = 0;
            w->hi[i] = 0;
            continue;
        }
        if (ui == w->umax) {
            /* weight 1 exactly: l = 2^P */
            w->cls[i] = CL_MODE;
            w->lo[i] = (uint64_t)((em_u128)1 << w->P);
            w->hi[i] = (uint64_t)(((em_u128)1 << w->P) >> 64);
            w->z.modes++;
            continue;
        }
        /* umax - u_i > 0 exactly; both finite */
        w->cls[i] = CL_OTHER;
        double d = w->umax - ui;
        /* d = RN(umax - u_i) >= 2^-1074 (the exact difference is a positive multiple of
         * 2^-1074), maybe +inf; the exact one lies in [dlo, dhi] (dhi NaN when d = +inf) */
        double ph = w->chi * em_bits_up(d);
        /* x in [xlo, xhi]: pl = clo dlo >= 0 (0 on underflow or clo = 0; +inf gives
         * DBL_MAX), and ph > 0 or +0 on underflow (next up: the smallest subnormal >=
         * the exact product); an infinite or NaN ph makes xhi NaN, which fails
         * xhi < EM_WB_XCUT in wbound: lower bound 0 */
        wbound(i, x_lower(ui, w->umax, w->clo), em_bits_up(ph), w->P, w->xcut, &w->pc, w->lo,
               w->hi, &w->z, &w->pend);
    }
    w->z.tail += tail;
}

/* The first pass four at a time (em_exact_vec.h), the same values as one by one; a four
 * it leaves (an enclosure too wide for the chain) one by one. */
static void wpass_runs(wpass *w, size_t n)
{
    em_xrun r = {.u = w->u, .excluded = w->excluded, .ud = w->ud, .cls = w->cls, .lo = w->lo,
                 .hi = w->hi, .umax = w->umax, .clo = w->clo, .chi = w->chi, .uthr = w->uthr,
                 .xcut = w->xcut, .P = w->P, .pc = w->pc};
    unsigned miss = 0; /* fours in a row left at once: one by one for longer */
    size_t i = 0;
    while (i < n) {
        /* dsum is one sum in index order: the queued candidates before i first */
        if (w->pend.n)
            wpend_flush(&w->pend, w->P, &w->pc, w->lo, w->hi, &w->z);
        r.dsum = w->z.dsum;
        size_t j = em_exact_vec_run(&r, i, n);
        w->z.dsum = r.dsum;
        if (r.why == EM_XRUN_END)
            break;
        miss = j == i ? (miss < 4 ? miss + 1 : 4) : 0;
        size_t e = n - j > ((size_t)4 << miss) ? j + ((size_t)4 << miss) : n;
        wpass_one_by_one(w, j, e);
        i = e;
    }
    w->z.zlo += r.zlo;
    w->z.k += r.k;
    w->z.tail += r.tail;
    w->z.modes += r.modes;
}

/* The constants of cheap_bounds's first pass for n candidates, umax the largest utility,
 * and its sums at zero; the arrays are the caller's to set. */
static void wpass_init(wpass *w, size_t n, double eps, double delta, int variant, double umax)
{
    w->umax = umax;
    w->P = 127u - (unsigned)em_exact_bitlen(n);
    /* c = eps / delta (monotone) or eps / (2 delta) (standard) */
    double q = eps / delta;
    double clo = em_next_down(q), chi = em_next_up(q);
    if (variant == EM_STANDARD) {
        clo = em_next_down(clo * 0.5);
        chi = em_next_up(chi * 0.5);
    }
    if (!(clo > 0.0))
        clo = 0.0;
    w->clo = clo;
    w->chi = chi;
    w->xcut = wcut(w->P);
    w->pc = em_wb_poly_init();
    w->z = (wsum){0, 0, 0, 0, 0, 0.0};
    w->pend.n = 0; /* (only the count: zeroing the arrays would cost more than a small set) */
    /* (a few candidates: no threshold, the tail found one by one from x_lo, the same
     * class and bounds without the division) */
    w->uthr = n < 8 ? -HUGE_VAL : tail_threshold(umax, clo, w->xcut);
}

/* four at a time from 8 candidates on (below, one by one, the candidates' chains overlap
 * more than two fours' can) */
static int wpass_vec(size_t n)
{
    return n >= 8 && em_exact_vec_ok();
}

static int cheap_bounds(em_exact *s, const double *u, const unsigned char *excluded, double umax)
{
    const size_t n = s->n;
    wpass w;
    wpass_init(&w, n, s->eps_d, s->delta_d, s->variant, umax);
    w.u = u;
    w.excluded = excluded;
    w.ud = s->ud;
    w.cls = s->cls;
    w.lo = s->lo64; /* lo64 / hi64: each lower bound until cheap_words writes the words */
    w.hi = s->hi64;
    if (wpass_vec(n))
        wpass_runs(&w, n);
    else
        wpass_one_by_one(&w, 0, n);
    wpend_flush(&w.pend, w.P, &w.pc, w.lo, w.hi, &w.z);
    em_u128 zlo, zhi;
    return wsum_bounds(&w.z, n, w.P, &zlo, &zhi) && cheap_words(s, w.P, zlo, zhi);
}

/* The state of the second pass of cheap_bounds: the words of each index in turn from the
 * lower bounds floor(L 2^P) and the sums (cheap_words; em_exact_sample_d, chunk by chunk). */
typedef struct wwords {
    int exact;       /* every candidate a mode or excluded: Z_lo = Z_hi = m 2^P */
    unsigned S;
    uint64_t m, cnt; /* exact: the modes, and those before the index */
    uint64_t Rlo, W, L, H;
    em_u128 clo_s;   /* C_lo(i), the sum of the lower bounds before the index */
} wwords;

/* The second pass's state at index 0 from Z_lo, Z_hi: 1, or 0 when the words would be too
 * wide (then level 0 is computed in MPFR). */
static int words_init(wwords *ww, unsigned P, em_u128 zlo, em_u128 zhi)
{
    /* Z_lo >= 2^P (a mode has weight 1 exactly), Z_hi < 2^127 (each upper bound is at
     * most 2^P).  Let C_lo(i), C_hi(i) be the prefix sums of the lower and upper
     * bounds (C_hi(n) = Z_hi: only C_lo is formed).
     * Lower words: F(i) >= C_lo / Z_hi >= C' / D_hi >= C' R_lo 2^-125 with
     *   S = bitlen(Z_hi) - 63, D_hi = ceil(Z_hi 2^-S) in [2^62, 2^63],
     *   C' = floor(C_lo 2^-S) < 2^63 (C_lo <= Z < 2^(S+63)), R_lo = floor(2^125 / D_hi);
     * so lo64 = floor(C' R_lo 2^-62) <= F 2^63; and lo64 >= (C_lo / Z_hi) 2^63 - 7 (C',
     * R_lo and the floor each lose less than 2 units, D_hi's ceiling a factor 1 - 2^-62).
     * Upper words, one width for all: F(i) 2^63 <= (C_hi(i) / Z_lo) 2^63
     *   <= lo64 + 7 + ((C_hi(i) - C_lo(i)) / Z_lo + C_lo(i) (1 / Z_lo - 1 / Z_hi)) 2^63
     *   <= lo64 + 7 + 2 ((Z_hi - Z_lo) / Z_lo) 2^63 <= lo64 + 7 + 2 W1
     * (C_hi(i) - C_lo(i) is nondecreasing up to Z_hi - Z_lo; C_lo(i) <= Z_hi) with
     *   W1 = ceil(N'' R_hi 2^-62) >= ((Z_hi - Z_lo) / Z_lo) 2^63, N'' = ceil((Z_hi - Z_lo)
     *   2^-S'), S' = bitlen(Z_lo) - 63, D_lo = floor(Z_lo 2^-S') in [2^62, 2^63),
     *   R_hi = ceil(2^125 / D_lo) <= 2^63;
     * hi64 = min(2^63, lo64 + W), W = 2 W1 + 8, nondecreasing with lo64; hi64[0] = 0. */
    const uint64_t ONE = (uint64_t)1 << FIX_BITS;
    memset(ww, 0, sizeof *ww);
    if (zlo == zhi) {
        /* every candidate a mode or excluded: F(i) = (modes before i) / m exactly, and
         * the words are its floor and ceiling (exact where F(i) 2^63 is an integer, e.g.
         * 4 ties) */
        ww->exact = 1;
        ww->m = (uint64_t)(zlo >> P);
        return 1;
    }
    unsigned S = bitlen_u128(zhi) - 63u, S2 = bitlen_u128(zlo) - 63u;
    uint64_t Dhi = (uint64_t)((zhi + (((em_u128)1 << S) - 1)) >> S);
    uint64_t Dlo = (uint64_t)(zlo >> S2);
    uint64_t Rlo = div125(0, Dhi);
    uint64_t Rhi = div125(Dlo - 1, Dlo);
    em_u128 N2 = ((zhi - zlo) + (((em_u128)1 << S2) - 1)) >> S2;
    if (N2 > (em_u128)1 << 40) /* (Z_hi - Z_lo) / Z_lo > 2^-22: far too wide */
        return 0;
    em_u128 pw = N2 * Rhi; /* < 2^103 */
    uint64_t W1 = (uint64_t)((pw >> 62) + ((pw & (((em_u128)1 << 62) - 1)) != 0));
    uint64_t W = 2 * W1 + 8;
    if (W > CHEAP_MAX_WIDTH)
        return 0;
    ww->S = S;
    ww->Rlo = Rlo;
    ww->W = W;
    ww->H = W < ONE ? W : ONE;
    return 1;
}

/* The words of the next m indices into lo, hi from their lower bounds floor(L 2^P) (low 64
 * bits in slo, high in shi; lo = slo and hi = shi writes them over the bounds); the state
 * moves past them.  A word is formed again only after a nonzero lower bound (the tail of a
 * large set, all zeros, only copies them). */
static void words_fill(wwords *ww, size_t m, const uint64_t *slo, const uint64_t *shi,
                       uint64_t *lo, uint64_t *hi)
{
    const uint64_t ONE = (uint64_t)1 << FIX_BITS;
    if (ww->exact) {
        uint64_t mm = ww->m, cnt = ww->cnt;
        for (size_t i = 0; i < m; i++) {
            em_u128 num = (em_u128)cnt << FIX_BITS;
            uint64_t fl = (uint64_t)(num / mm);
            /* (only modes and exclusions: a nonzero lower bound is a mode's, 2^P) */
            cnt += (slo[i] | shi[i]) != 0;
            lo[i] = fl;
            hi[i] = fl + ((em_u128)fl * mm != num);
        }
        ww->cnt = cnt;
        return;
    }
    const unsigned S = ww->S;
    const uint64_t Rlo = ww->Rlo, W = ww->W;
    em_u128 clo_s = ww->clo_s;
    uint64_t L = ww->L, H = ww->H;
    for (size_t i = 0; i < m; i++) {
        em_u128 l = ((em_u128)shi[i] << 64) | slo[i];
        lo[i] = L;
        hi[i] = H;
        if (l) {
            clo_s += l;
            L = (uint64_t)(((em_u128)(uint64_t)(clo_s >> S) * Rlo) >> 62);
            H = L + W < ONE ? L + W : ONE;
        }
    }
    ww->clo_s = clo_s;
    ww->L = L;
    ww->H = H;
}

/* The words from the lower bounds floor(L 2^P) in lo64 (low 64 bits) and hi64 (high 64
 * bits) and the sums (pass 2 of cheap_bounds): 1, or 0 when they are too wide. */
static int cheap_words(em_exact *s, unsigned P, em_u128 zlo, em_u128 zhi)
{
    const size_t n = s->n;
    wwords ww;
    if (!words_init(&ww, P, zlo, zhi))
        return 0;
    words_fill(&ww, n, s->lo64, s->hi64, s->lo64, s->hi64);
    s->hi64[0] = 0;
    s->lo64[n] = s->hi64[n] = (uint64_t)1 << FIX_BITS;
    return 1;
}

/* A double enclosure [*lo, *hi] of the rational q: f = q rounded to nearest at 53 bits
 * (MPFR, the widest exponent range), r = f rounded to nearest to a double; |q - r| is
 * below one ulp of r (a single rounding in double's normal range; two roundings of half
 * a unit each at most below it, and r = +-inf only beyond DBL_MAX), so q lies in
 * [next-down(r), next-up(r)]. */
static void q_enclose(mpfr_t f, const mpq_t q, double *lo, double *hi)
{
    mpfr_set_q(f, q, MPFR_RNDN);
    double r = mpfr_get_d(f, MPFR_RNDN);
    *lo = em_next_down(r);
    *hi = em_next_up(r);
}

/* cheap_bounds for the rational constructors: the classes, c and umax from em_exact_mp_setup
 * (exact), each u_i, c and umax enclosed by doubles (q_enclose), then as cheap_bounds. */
static int cheap_bounds_q(em_exact *s)
{
    const size_t n = s->n;
    struct xmp *mp = s->mp;
    uint64_t *lo = s->lo64, *hi = s->hi64; /* each lower bound until cheap_words */
    const unsigned char *cls = s->cls;
    const unsigned P = 127u - (unsigned)em_exact_bitlen(n);
    mpfr_t f;
    mpfr_init2(f, 53);
    double clo, chi, Ulo, Uhi;
    q_enclose(f, mp->c, &clo, &chi);
    q_enclose(f, mp->umax, &Ulo, &Uhi);
    if (!(clo > 0.0))
        clo = 0.0;
    mpq_t *own = s->src.get == em_utility_array_get ? (mpq_t *)s->src.ctx : NULL;
    const double xcut = wcut(P);
    const em_wb_poly pc = em_wb_poly_init();
    wsum z = {0, 0, 0, 0, 0, 0.0};
    wpend pend;
    pend.n = 0; /* (only the count: zeroing the arrays would cost more than a small set) */
    for (size_t i = 0; i < n; i++) {
        if (cls[i] == CL_EXCLUDED) {
            lo[i] = 0;
            hi[i] = 0;
            continue;
        }
        if (cls[i] == CL_MODE) {
            /* weight 1 exactly: l = 2^P */
            lo[i] = (uint64_t)((em_u128)1 << P);
            hi[i] = (uint64_t)(((em_u128)1 << P) >> 64);
            z.modes++;
            continue;
        }
        double ulo, uhi;
        if (own) {
            q_enclose(f, own[i], &ulo, &uhi);
        } else {
            s->src.get(s->src.ctx, i, mp->tq);
            q_enclose(f, mp->tq, &ulo, &uhi);
        }
        /* d = umax - u_i in [dlo, dhi] (inf - inf, NaN: 0 below, +inf above) */
        double a = Ulo - uhi, b = Uhi - ulo;
        double dlo = a > 0.0 ? em_next_down(a) : 0.0;
        double dhi = b == b ? em_next_up(b) : HUGE_VAL;
        double xlo = em_next_down(clo * dlo), xhi = em_next_up(chi * dhi);
        if (!(xlo > 0.0))
            xlo = 0.0;
        wbound(i, xlo, xhi, P, xcut, &pc, lo, hi, &z, &pend);
    }
    wpend_flush(&pend, P, &pc, lo, hi, &z);
    mpfr_clear(f);
    em_u128 zlo, zhi;
    return wsum_bounds(&z, n, P, &zlo, &zhi) && cheap_words(s, P, zlo, zhi);
}

/* em_exact_mp_setup for em_exact_new_d: eps, delta and the utilities are the exact rationals the
 * doubles denote. */
int em_exact_mp_setup_d(em_exact *s, int words)
{
    unsigned char *ex = em_excluded_flags(s->cls, s->n);
    if (!ex)
        return EM_ERR_NOMEM;
    mpq_t qe, qd;
    mpq_inits(qe, qd, (mpq_ptr)0);
    mpq_set_d(qe, s->eps_d);
    mpq_set_d(qd, s->delta_d);
    em_problem P;
    em_problem_init(&P);
    int st = em_problem_params(&P, qe, qd, s->variant, NULL);
    P.n = s->n;
    P.ud = s->ud;
    P.excluded = ex;
    if (st == EM_OK)
        st = em_exact_mp_setup(s, &P, words);
    em_problem_clear(&P);
    mpq_clears(qe, qd, (mpq_ptr)0);
    free(ex);
    return st;
}

/* The largest utility of the candidates not excluded (-inf counts as excluded), or the
 * first NaN or +inf in index order as the error. */
static int umax_d(size_t n, const double *u, const unsigned char *excluded, double *umax)
{
    if (!excluded) {
        /* The common case without a branch per element: four lanes whose max chains run
         * in parallel (x > m ? x : m skips a NaN), and one flag for NaN or +inf, after
         * which the ordered scan below finds the first to report. */
        double m0 = -HUGE_VAL, m1 = -HUGE_VAL, m2 = -HUGE_VAL, m3 = -HUGE_VAL;
        int bad = 0;
        size_t i = 0;
        if (n >= 64 && em_exact_vec_ok()) {
            double m4[4];
            bad = em_exact_vec_max4(n, u, m4);
            m0 = m4[0];
            m1 = m4[1];
            m2 = m4[2];
            m3 = m4[3];
            i = n & ~(size_t)3;
        }
        for (; n - i >= 4; i += 4) {
            double x0 = u[i], x1 = u[i + 1], x2 = u[i + 2], x3 = u[i + 3];
            bad |= !(x0 <= 0x1.fffffffffffffp1023) | !(x1 <= 0x1.fffffffffffffp1023) |
                   !(x2 <= 0x1.fffffffffffffp1023) | !(x3 <= 0x1.fffffffffffffp1023);
            m0 = x0 > m0 ? x0 : m0;
            m1 = x1 > m1 ? x1 : m1;
            m2 = x2 > m2 ? x2 : m2;
            m3 = x3 > m3 ? x3 : m3;
        }
        for (; i < n; i++) {
            bad |= !(u[i] <= 0x1.fffffffffffffp1023);
            m0 = u[i] > m0 ? u[i] : m0;
        }
        if (!bad) {
            m0 = m1 > m0 ? m1 : m0;
            m0 = m2 > m0 ? m2 : m0;
            m0 = m3 > m0 ? m3 : m0;
            if (!(m0 >= -0x1.fffffffffffffp1023))
                return EM_ERR_ALL_EXCLUDED;
            *umax = m0;
            return EM_OK;
        }
    }
    size_t imax = n;
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (excluded && excluded[i])
            continue;
        double x = u[i];
        if (!(x <= 0x1.fffffffffffffp1023)) /* one test for NaN and +inf */
            return x != x ? EM_ERR_NAN : EM_ERR_POS_INF;
        if (imax == n ? x >= -0x1.fffffffffffffp1023 : x > m) { /* -inf: excluded */
            imax = i;
            m = x;
        }
    }
    if (imax == n)
        return EM_ERR_ALL_EXCLUDED;
    *umax = m;
    return EM_OK;
}

/* em_exact_new_d's inputs checked (who names the function in the messages): epsilon and
 * the sensitivity as doubles, the largest utility. */
static int new_d_args(const em_problem *P, const char *who, double *eps, double *delta,
                      double *umax, em_error *err)
{
    int st = em_problem_check(P, err);
    if (st != EM_OK)
        return st;
    /* from em_problem_doubles: the doubles themselves; else the rationals must be doubles */
    const int given = P->eps_d > 0 && P->delta_d > 0;
    *eps = given ? P->eps_d : mpq_get_d(P->eps);
    *delta = given ? P->delta_d : mpq_get_d(P->delta);
    if (!given && (!em_q_is_d(P->eps, *eps) || !em_q_is_d(P->delta, *delta)))
        return em_err(err, EM_ERR_DOMAIN, "%s: epsilon or the sensitivity is not a double", who);
    st = umax_d(P->n, P->ud, P->excluded, umax);
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    return EM_OK;
}

int em_exact_new_d(const em_problem *P, em_exact **out, em_error *err)
{
    if (!out || !P || !P->ud)
        return em_err(err, EM_ERR_NULL, "em_exact_new_d: out or the doubles NULL");
    double eps, delta, umax;
    int st = new_d_args(P, "em_exact_new_d", &eps, &delta, &umax, err);
    if (st != EM_OK)
        return st;
    const size_t n = P->n;
    em_exact *s = exact_alloc(n, n * sizeof(double));
    if (!s)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    s->variant = P->variant;
    s->eps_d = eps;
    s->delta_d = delta;
    s->ud = (double *)(s->hi64 + n + 1);
    s->src.get = double_get;
    s->src.ctx = s->ud;
    if (!cheap_bounds(s, P->ud, P->excluded, umax)) {
        st = em_exact_mp_setup_d(s, 1);
        if (st != EM_OK) {
            em_exact_free(s);
            return em_err(err, st, "%s", em_strerror(st));
        }
    }
    *out = s;
    return EM_OK;
}

/* ------------------------------------------------- one draw, no sampler kept */

/* Candidates per chunk of em_exact_sample_d (a multiple of 4: the fours fall as in
 * cheap_bounds; the values do not depend on it), and the sizes whose state stays on the
 * stack. */
#define ONCE_CHUNK 256
#define ONCE_SMALL 64

/* em_exact_sample_d's state: one chunk's scratch, and the lower bounds of the chunks that
 * have a nonzero one, kept from the first pass, then their words from the first scan on
 * (keep: 2 (n + chunks) words reserved, written only as far as needed; a chunk of m
 * candidates holds m + 1 low halves, then m + 1 high halves: the words of its m cells'
 * ends, the last the next chunk's first). */
typedef struct once {
    const double *u;
    const unsigned char *excluded;
    size_t n;
    int vec;
    uint64_t *keep;
    unsigned char *nz; /* nz[c]: chunk c has a nonzero lower bound */
    double ud[ONCE_CHUNK];
    unsigned char cls[ONCE_CHUNK];
} once;

/* The first pass of cheap_bounds over candidates [s, e) (e - s <= ONCE_CHUNK) with w's
 * constants and sums: their lower bounds into lo / hi from index 0, their bounds added to
 * w->z in index order, as one pass over all of them adds them (the queue flushed at the
 * end: the chain's products still join dsum in index order).  Returns 1 when some lower
 * bound is nonzero. */
static int once_chunk(once *o, wpass *w, size_t s, size_t e, uint64_t *lo, uint64_t *hi)
{
    const size_t m = e - s;
    const em_u128 zlo0 = w->z.zlo;
    const uint64_t modes0 = w->z.modes;
    w->u = o->u + s;
    w->excluded = o->excluded ? o->excluded + s : NULL;
    w->ud = o->ud;
    w->cls = o->cls;
    w->lo = lo;
    w->hi = hi;
    if (o->vec)
        wpass_runs(w, m);
    else
        wpass_one_by_one(w, 0, m);
    wpend_flush(&w->pend, w->P, &w->pc, w->lo, w->hi, &w->z);
    /* every nonzero lower bound is a mode's (counted in modes) or joins zlo */
    return w->z.zlo != zlo0 || w->z.modes != modes0;
}

/* One scan: each chunk's cells decided by em_exact_select on [a, a + w), on its words,
 * formed over its kept lower bounds by the first scan (formed = 0; ww0: the words' state
 * at index 0).  A chunk whose lower bounds are all 0 is skipped: its words are all the
 * word before it, so no cell i there has hi[i] <= a < a + w <= lo[i + 1].  Every other
 * chunk is scanned whatever the answer (no early exit).  Returns the certain cell, or n. */
static size_t once_scan(once *o, const wwords *ww0, int formed, uint64_t a, uint64_t w)
{
    const size_t n = o->n;
    const uint64_t ONE = (uint64_t)1 << FIX_BITS;
    wwords ww = *ww0;
    uint64_t *kp = o->keep;
    size_t found = n;
    for (size_t s = 0, c = 0; s < n; s += ONCE_CHUNK, c++) {
        const size_t e = n - s < ONCE_CHUNK ? n : s + ONCE_CHUNK, m = e - s;
        if (!o->nz[c])
            continue;
        uint64_t *lo = kp, *hi = kp + m + 1;
        kp += 2 * (m + 1);
        if (!formed) {
            words_fill(&ww, m, lo, hi, lo, hi);
            if (e == n) {
                lo[m] = hi[m] = ONE;
            } else if (ww.exact) {
                em_u128 num = (em_u128)ww.cnt << FIX_BITS;
                uint64_t fl = (uint64_t)(num / ww.m);
                lo[m] = fl;
                hi[m] = fl + ((em_u128)fl * ww.m != num);
            } else {
                lo[m] = ww.L;
                hi[m] = ww.H;
            }
            if (s == 0)
                hi[0] = 0;
        }
        size_t r = em_exact_select(m, lo, hi, a, w);
        found = r < m ? s + r : found;
    }
    return found;
}

/* The first pass and the draw of em_exact_sample_d on o (its arrays set): EM_OK with *out,
 * or with *fb = 1 (no bits drawn) or 2 (*a: U's first 63 bits, undecided) when the sampler
 * must finish it, or the bit source's error. */
static int once_draw(once *o, const em_problem *P, double eps, double delta, double umax,
                     em_bits *b, size_t *out, int *fb, uint64_t *a)
{
    const size_t n = o->n;
    wpass w;
    wpass_init(&w, n, eps, delta, P->variant, umax);
    uint64_t *kp = o->keep;
    for (size_t s = 0, c = 0; s < n; s += ONCE_CHUNK, c++) {
        const size_t e = n - s < ONCE_CHUNK ? n : s + ONCE_CHUNK, m = e - s;
        /* written where they are kept; kept (kp moves on) only when one is nonzero */
        o->nz[c] = (unsigned char)once_chunk(o, &w, s, e, kp, kp + m + 1);
        kp += o->nz[c] ? 2 * (m + 1) : 0;
    }
    em_u128 zlo, zhi;
    wwords ww0;
    if (!wsum_bounds(&w.z, n, w.P, &zlo, &zhi) || !words_init(&ww0, w.P, zlo, zhi)) {
        *fb = 1;
        return EM_OK;
    }
    /* em_exact_sample's draw: the first chunk of bits, then STEP_BITS more while undecided */
    long nb = em_exact_bitlen(n);
    unsigned k = (unsigned)(nb + 2 > FIX_BITS ? FIX_BITS : nb + 2);
    int st = em_bits_get(b, k, a);
    for (int formed = 0; st == EM_OK; formed = 1) {
        size_t r = once_scan(o, &ww0, formed, *a << (FIX_BITS - k),
                             (uint64_t)1 << (FIX_BITS - k));
        if (r < n) {
            *out = r;
            return EM_OK;
        }
        if (k == FIX_BITS) {
            *fb = 2;
            return EM_OK;
        }
        st = em_bits_extend(b, STEP_BITS, FIX_BITS, a, &k);
    }
    return st;
}

int em_exact_once(const em_problem *P, em_bits *b, size_t *out, int *fb, uint64_t *a,
                  em_error *err)
{
    *fb = 0;
    double eps, delta, umax;
    int st = new_d_args(P, "em_exact_sample_d", &eps, &delta, &umax, err);
    if (st != EM_OK)
        return st;
    const size_t n = P->n, nc = (n + ONCE_CHUNK - 1) / ONCE_CHUNK;
    once o;
    uint64_t kbuf[2 * (ONCE_SMALL + 1)];
    unsigned char nzbuf[ONCE_SMALL];
    o.u = P->ud;
    o.excluded = P->excluded;
    o.n = n;
    o.vec = wpass_vec(n);
    /* (the kept bounds: 16 bytes a candidate reserved, written only for the chunks that
     * have a nonzero one) */
    o.keep = n <= ONCE_SMALL ? kbuf : malloc(2 * (n + nc) * sizeof *o.keep);
    o.nz = nc <= ONCE_SMALL ? nzbuf : malloc(nc);
    if (!o.keep || !o.nz)
        st = EM_ERR_NOMEM;
    else
        st = once_draw(&o, P, eps, delta, umax, b, out, fb, a);
    if (o.keep != kbuf)
        free(o.keep);
    if (o.nz != nzbuf)
        free(o.nz);
    if (st != EM_OK)
        return em_err(err, st, "%s", st == EM_ERR_NOMEM ? "out of memory" : em_strerror(st));
    return EM_OK;
}

void em_exact_free(em_exact *s)
{
    if (!s)
        return;
    em_exact_mp_free(s->mp);
    em_q_array_free(s->own, s->n);
    free(s);
}

void em_exact_set_select(em_exact *s, em_exact_select_fn f)
{
    if (s)
        s->select = f ? f : em_exact_select;
}

void em_exact_get_stats(const em_exact *s, em_exact_stats *st)
{
    if (s && st)
        *st = s->st;
}

unsigned em_exact_first_chunk(const em_exact *s)
{
    return s ? s->first : 0;
}

int em_exact_set_first_chunk(em_exact *s, unsigned k)
{
    if (!s)
        return EM_ERR_NULL;
    if (k < 1 || k > FIX_BITS)
        return EM_ERR_DOMAIN;
    s->first = k;
    return EM_OK;
}

const uint64_t *em_exact_lo64(const em_exact *s)
{
    return s ? s->lo64 : NULL;
}

const uint64_t *em_exact_hi64(const em_exact *s)
{
    return s ? s->hi64 : NULL;
}
