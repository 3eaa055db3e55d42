/* em_exact_vec.c: em_exact_new_d's first pass four candidates at a time (em_exact_vec.h).
 *
 * One by one (cheap_bounds in em_exact_new.c) a candidate costs a chain of tests, a queue
 * for the exp chain (em_wbound.c) and the packing of its lower bound; here every lane
 * takes the same operations as straight vector code, the classes as masks.  "avx2"
 * enables no FMA, so no product and sum are fused: every lane's doubles are those of the
 * scalar code. */
#include "oracle/em_exact_vec.h"

#include <math.h>
#include <string.h>

#include "oracle/em_exponents.h"

static int vec_off; /* em_exact_vec_set(0): the one-by-one pass everywhere (tests) */

void em_exact_vec_set(int on)
{
    vec_off = !on;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

int em_exact_vec_ok(void)
{
    return !vec_off && __builtin_cpu_supports("avx2");
}

/* floor(L 2^P) for a normal L in [2^-186, 1] with 53-bit significand M (implicit bit set)
 * and L = M 2^(be - 1075), be its biased exponent: M 2^s, s = P + be - 1075 <= P - 52 <= 74,
 * as two 64-bit halves.  A variable shift by a count above 63 (or a negative one, read as
 * unsigned) gives 0, so:
 *   low  = (M << s) | (M >> -s)            (s >= 0: the first; s < 0: the second, floor)
 *   high = (M >> (64 - s)) | (M << (s - 64)) (0 < s < 64: the first; s >= 64: the second).
 * The same integer as em_exact_new.c's unpack_w(pack_d(L), P, 0). */
__attribute__((target("avx2"))) static inline void fix_halves(__m256d L, __m256i pbias,
                                                              __m256i *lo, __m256i *hi)
{
    const __m256i mant = _mm256_set1_epi64x(((int64_t)1 << 52) - 1);
    const __m256i imp = _mm256_set1_epi64x((int64_t)1 << 52);
    const __m256i c64 = _mm256_set1_epi64x(64), zero = _mm256_setzero_si256();
    __m256i b = _mm256_castpd_si256(L);
    __m256i M = _mm256_or_si256(_mm256_and_si256(b, mant), imp);
    __m256i s = _mm256_add_epi64(_mm256_srli_epi64(b, 52), pbias);
    *lo = _mm256_or_si256(_mm256_sllv_epi64(M, s), _mm256_srlv_epi64(M, _mm256_sub_epi64(zero, s)));
    *hi = _mm256_or_si256(_mm256_srlv_epi64(M, _mm256_sub_epi64(c64, s)),
                          _mm256_sllv_epi64(M, _mm256_sub_epi64(s, c64)));
}

/* em_wb_exp_lo_dbl's constants, four lanes each */
typedef struct exp4c {
    __m256d one, half, c3, c4, c5, fac, s10, sm10;
} exp4c;

/* em_wb_exp_lo_dbl of four x in [0, EM_WB_XCUT): em_wbound.c's lo_block_avx2, lane for
 * lane the scalar operations */
__attribute__((target("avx2"))) static inline __m256d exp_lo4(__m256d xv, const exp4c *c)
{
    __m128i k = _mm256_cvttpd_epi32(xv);
    __m256d y = _mm256_mul_pd(_mm256_sub_pd(xv, _mm256_cvtepi32_pd(k)), c->s10);
    __m128i j = _mm256_cvttpd_epi32(y);
    __m256d r = _mm256_mul_pd(_mm256_sub_pd(y, _mm256_cvtepi32_pd(j)), c->sm10);
    __m256d e1 = _mm256_i32gather_pd(em_wb_exp_int_d, k, 8);
    __m256d e2 = _mm256_i32gather_pd(em_wb_exp_a_d, j, 8);
    __m256d t = _mm256_sub_pd(c->c4, _mm256_mul_pd(r, c->c5));
    t = _mm256_sub_pd(c->c3, _mm256_mul_pd(r, t));
    t = _mm256_sub_pd(c->half, _mm256_mul_pd(r, t));
    t = _mm256_sub_pd(c->one, _mm256_mul_pd(r, t));
    __m256d p = _mm256_sub_pd(c->one, _mm256_mul_pd(r, t));
    return _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(e1, e2), p), c->fac);
}

/* bit c of b (c < 4) to bit 8c: the four shifted copies b, b << 7, b << 14, b << 21 occupy
 * disjoint bits, so the product has no carries, and bit 8c comes from the copy shifted
 * by 7c alone */
static inline uint32_t spread4(unsigned b)
{
    return (b * 0x00204081u) & 0x01010101u;
}

/* the next double up / down on the bits (em_bits_up / em_bits_down, lane by lane) */
__attribute__((target("avx2"))) static inline __m256d bits_up4(__m256d x)
{
    return _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(x), _mm256_set1_epi64x(1)));
}

__attribute__((target("avx2"))) static inline __m256d bits_down4(__m256d x)
{
    return _mm256_castsi256_pd(_mm256_sub_epi64(_mm256_castpd_si256(x), _mm256_set1_epi64x(1)));
}

/* The constants of a run, four lanes each */
typedef struct run4c {
    __m256d umax, clo, chi, uthr, xcut, wcut, eighth, zero, one;
    __m256i pbias;
    exp4c e;
} run4c;

__attribute__((target("avx2"))) static inline void run4c_init(run4c *c, const em_xrun *r)
{
    c->umax = _mm256_set1_pd(r->umax);
    c->clo = _mm256_set1_pd(r->clo);
    c->chi = _mm256_set1_pd(r->chi);
    c->uthr = _mm256_set1_pd(r->uthr);
    c->xcut = _mm256_set1_pd(r->xcut);
    c->wcut = _mm256_set1_pd((double)EM_WB_XCUT);
    c->eighth = _mm256_set1_pd(0.125);
    c->zero = _mm256_setzero_pd();
    c->one = _mm256_set1_pd(1.0);
    c->pbias = _mm256_set1_epi64x((int64_t)r->P - 1075);
    c->e.one = c->one;
    c->e.half = _mm256_set1_pd(0.5);
    c->e.c3 = _mm256_set1_pd(r->pc.c3);
    c->e.c4 = _mm256_set1_pd(r->pc.c4);
    c->e.c5 = _mm256_set1_pd(r->pc.c5);
    c->e.fac = _mm256_set1_pd(1.0 - 0x1p-49);
    c->e.s10 = _mm256_set1_pd(0x1p10);
    c->e.sm10 = _mm256_set1_pd(0x1p-10);
}

/* The enclosure of four x = c (umax - u) from d = RN(umax - u) > 0, as cheap_bounds forms
 * it: xlo = x_lower(u) (next-down of RN(clo next-down(d)), 0 unless positive),
 * xhi = next-up(RN(chi next-up(d))), D = next-up(RN(xhi - xlo)). */
__attribute__((target("avx2"))) static inline void enclose4(__m256d d, const run4c *c,
                                                            __m256d *xlo, __m256d *xhi,
                                                            __m256d *D)
{
    __m256d pl = _mm256_mul_pd(c->clo, bits_down4(d));
    *xlo = _mm256_and_pd(_mm256_cmp_pd(pl, c->zero, _CMP_GT_OQ), bits_down4(pl));
    *xhi = bits_up4(_mm256_mul_pd(c->chi, bits_up4(d)));
    *D = bits_up4(_mm256_sub_pd(*xhi, *xlo));
}

/* The lanes of ch on the chain: L = em_wb_exp_lo_dbl(xhi) (0 off ch: the tables' first
 * entries), dsum += D L one lane after another in index order (+0 off ch), and
 * floor(L 2^P) into *lo / *hi (0 off ch). */
__attribute__((target("avx2"))) static inline void chain4(__m256d ch, __m256d xhi, __m256d D,
                                                          const run4c *c, double *dsum,
                                                          __m256i *lo, __m256i *hi, int all)
{
    /* (all: every lane on the chain, nothing to mask) */
    __m256d L = exp_lo4(all ? xhi : _mm256_and_pd(ch, xhi), &c->e);
    double p[4];
    _mm256_storeu_pd(p, all ? _mm256_mul_pd(D, L) : _mm256_and_pd(ch, _mm256_mul_pd(D, L)));
    double s = *dsum;
    s += p[0];
    s += p[1];
    s += p[2];
    s += p[3];
    *dsum = s;
    fix_halves(L, c->pbias, lo, hi);
    if (!all) {
        *lo = _mm256_and_si256(_mm256_castpd_si256(ch), *lo);
        *hi = _mm256_and_si256(_mm256_castpd_si256(ch), *hi);
    }
}

/* Four 128-bit sums, lane by lane: a carry out of the low half when it wrapped below its
 * old value (unsigned comparison through the flipped sign bit). */
__attribute__((target("avx2"))) static inline void acc4(__m256i *acc_lo, __m256i *acc_hi,
                                                        __m256i lo, __m256i hi)
{
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN);
    __m256i nl = _mm256_add_epi64(*acc_lo, lo);
    __m256i carry = _mm256_cmpgt_epi64(_mm256_xor_si256(*acc_lo, sign),
                                       _mm256_xor_si256(nl, sign));
    *acc_lo = nl;
    *acc_hi = _mm256_sub_epi64(_mm256_add_epi64(*acc_hi, hi), carry);
}

__attribute__((target("avx2"))) static void acc4_add(em_u128 *z, __m256i acc_lo, __m256i acc_hi)
{
    uint64_t a[4], b[4];
    _mm256_storeu_si256((__m256i *)a, acc_lo);
    _mm256_storeu_si256((__m256i *)b, acc_hi);
    for (int c = 0; c < 4; c++)
        *z += ((em_u128)b[c] << 64) | a[c];
}

/* Full fours of a set without excluded candidates while each is all in the tail, or all
 * on the chain (and no mode); returns where it stopped.  The bulk of a large set, with
 * the fewest operations. */
__attribute__((target("avx2"))) static size_t run_alike(em_xrun *r, size_t i, size_t n)
{
    run4c c;
    run4c_init(&c, r);
    const __m256d lowest = _mm256_set1_pd(-0x1.fffffffffffffp1023);
    const __m256i zi = _mm256_setzero_si256();
    const uint32_t other4 = 0x01010101u * CL_OTHER;
    /* the arrays in locals: a store to cls (a character type) could alias r itself */
    const double *const uu = r->u;
    double *const ud = r->ud;
    unsigned char *const cls = r->cls;
    uint64_t *const lo64 = r->lo, *const hi64 = r->hi;
    __m256i acc_lo = zi, acc_hi = zi;
    uint64_t k = 0, tail = 0;
    double dsum = r->dsum;
    for (; n - i >= 4; i += 4) {
        __m256d u = _mm256_loadu_pd(uu + i);
        __m256d tl = _mm256_and_pd(_mm256_cmp_pd(u, c.uthr, _CMP_LE_OQ),
                                   _mm256_cmp_pd(u, lowest, _CMP_GE_OQ));
        if (_mm256_movemask_pd(tl) == 0xF) {
            /* the tail: lower bound 0, upper bound one unit (cheap_bounds) */
            _mm256_storeu_pd(ud + i, u);
            memcpy(cls + i, &other4, sizeof other4);
            _mm256_storeu_si256((__m256i *)(lo64 + i), zi);
            _mm256_storeu_si256((__m256i *)(hi64 + i), zi);
            tail += 4;
            continue;
        }
        /* u < umax (no mode: d > 0, no subnormal from d = 0) and u > uthr (neither the
         * tail nor -inf) */
        __m256d ch = _mm256_and_pd(_mm256_cmp_pd(u, c.uthr, _CMP_GT_OQ),
                                   _mm256_cmp_pd(u, c.umax, _CMP_LT_OQ));
        if (_mm256_movemask_pd(ch) != 0xF)
            break;
        __m256d xlo, xhi, D;
        enclose4(_mm256_sub_pd(c.umax, u), &c, &xlo, &xhi, &D);
        ch = _mm256_and_pd(_mm256_cmp_pd(xlo, c.xcut, _CMP_LT_OQ),
                           _mm256_and_pd(_mm256_cmp_pd(xhi, c.wcut, _CMP_LT_OQ),
                                         _mm256_cmp_pd(D, c.eighth, _CMP_LE_OQ)));
        if (_mm256_movemask_pd(ch) != 0xF)
            break;
        _mm256_storeu_pd(ud + i, u);
        memcpy(cls + i, &other4, sizeof other4);
        __m256i lo, hi;
        chain4(ch, xhi, D, &c, &dsum, &lo, &hi, 1);
        _mm256_storeu_si256((__m256i *)(lo64 + i), lo);
        _mm256_storeu_si256((__m256i *)(hi64 + i), hi);
        acc4(&acc_lo, &acc_hi, lo, hi);
        k += 4;
    }
    acc4_add(&r->zlo, acc_lo, acc_hi);
    r->k += k;
    r->tail += tail;
    r->dsum = dsum;
    return i;
}

/* The m <= 4 candidates from i, of any classes: 1, or 0 (nothing written) when one needs
 * an upper bound of its own (wupper: one by one). */
__attribute__((target("avx2"))) static int run_any(em_xrun *r, size_t i, size_t m)
{
    run4c c;
    run4c_init(&c, r);
    const __m256d lowest = _mm256_set1_pd(-0x1.fffffffffffffp1023);
    const __m256i zi = _mm256_setzero_si256();
    const __m256i vmi = _mm256_cmpgt_epi64(_mm256_set1_epi64x((int64_t)m),
                                           _mm256_set_epi64x(3, 2, 1, 0));
    const __m256d vm = _mm256_castsi256_pd(vmi); /* the lanes in use */
    __m256d u = m == 4 ? _mm256_loadu_pd(r->u + i) : _mm256_maskload_pd(r->u + i, vmi);
    if (r->excluded) {
        uint32_t e4 = 0;
        for (size_t l = 0; l < m; l++)
            e4 |= (uint32_t)r->excluded[i + l] << (8 * l);
        if (e4) { /* excluded lanes read as -inf, as one by one */
            __m256i eb = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)e4));
            __m256d keep = _mm256_castsi256_pd(_mm256_cmpeq_epi64(eb, zi));
            u = _mm256_blendv_pd(_mm256_set1_pd(-HUGE_VAL), u, keep);
        }
    }
    /* the classes, in the one-by-one pass's order of tests */
    __m256d tl = _mm256_and_pd(_mm256_cmp_pd(u, c.uthr, _CMP_LE_OQ),
                               _mm256_cmp_pd(u, lowest, _CMP_GE_OQ));
    __m256d ex = _mm256_cmp_pd(u, lowest, _CMP_LT_OQ);
    __m256d md = _mm256_andnot_pd(tl, _mm256_cmp_pd(u, c.umax, _CMP_EQ_OQ));
    __m256d other = _mm256_andnot_pd(_mm256_or_pd(_mm256_or_pd(tl, ex), md), vm);
    /* d = 1 in the lanes not "other" (masked below; a mode's d = 0 would take subnormals
     * through the products, which cost a hundred cycles each) */
    __m256d xlo, xhi, D;
    enclose4(_mm256_blendv_pd(c.one, _mm256_sub_pd(c.umax, u), other), &c, &xlo, &xhi, &D);
    __m256d below = _mm256_cmp_pd(xlo, c.xcut, _CMP_LT_OQ);
    __m256d tl2 = _mm256_andnot_pd(below, other); /* x_lo >= xcut: the tail too */
    __m256d ch = _mm256_and_pd(_mm256_and_pd(other, below),
                               _mm256_and_pd(_mm256_cmp_pd(xhi, c.wcut, _CMP_LT_OQ),
                                             _mm256_cmp_pd(D, c.eighth, _CMP_LE_OQ)));
    if (_mm256_movemask_pd(_mm256_andnot_pd(_mm256_or_pd(tl2, ch), other)))
        return 0;
    const int eb = _mm256_movemask_pd(_mm256_and_pd(ex, vm));
    const int mb = _mm256_movemask_pd(_mm256_and_pd(md, vm));
    r->tail += (uint64_t)__builtin_popcount(
        (unsigned)_mm256_movemask_pd(_mm256_or_pd(_mm256_and_pd(tl, vm), tl2)));
    r->modes += (uint64_t)__builtin_popcount((unsigned)mb);
    r->k += (uint64_t)__builtin_popcount((unsigned)_mm256_movemask_pd(ch));
    /* the classes as bytes: CL_OTHER less 1 for a mode, less 2 for an excluded one */
    uint32_t c4 = 0x01010101u * CL_OTHER - (CL_OTHER - CL_MODE) * spread4((unsigned)mb) -
                  (CL_OTHER - CL_EXCLUDED) * spread4((unsigned)eb);
    for (size_t l = 0; l < m; l++)
        r->cls[i + l] = (unsigned char)(c4 >> (8 * l));
    __m256i lo, hi;
    chain4(ch, xhi, D, &c, &r->dsum, &lo, &hi, 0);
    acc4_add(&r->zlo, lo, hi);
    /* a mode's lower bound: 2^P, weight 1 exactly (not in zlo: counted in modes) */
    const em_u128 oneP = (em_u128)1 << r->P;
    const __m256i mdi = _mm256_castpd_si256(md);
    lo = _mm256_or_si256(lo, _mm256_and_si256(mdi, _mm256_set1_epi64x((int64_t)(uint64_t)oneP)));
    hi = _mm256_or_si256(hi, _mm256_and_si256(mdi,
                                              _mm256_set1_epi64x((int64_t)(uint64_t)(oneP >> 64))));
    _mm256_maskstore_pd(r->ud + i, vmi, u);
    _mm256_maskstore_epi64((long long *)(r->lo + i), vmi, lo);
    _mm256_maskstore_epi64((long long *)(r->hi + i), vmi, hi);
    return 1;
}

__attribute__((target("avx2"))) int em_exact_vec_max4(size_t n, const double *u, double m[4])
{
    const __m256d top = _mm256_set1_pd(0x1.fffffffffffffp1023);
    __m256d a = _mm256_set1_pd(-HUGE_VAL), bad = _mm256_setzero_pd();
    size_t i = 0;
    /* (one chain in index order, as the scalar lanes: max(x, m) is x > m ? x : m) */
    for (; n - i >= 8; i += 8) {
        __m256d x = _mm256_loadu_pd(u + i), y = _mm256_loadu_pd(u + i + 4);
        bad = _mm256_or_pd(bad, _mm256_or_pd(_mm256_cmp_pd(x, top, _CMP_NLE_UQ),
                                             _mm256_cmp_pd(y, top, _CMP_NLE_UQ)));
        a = _mm256_max_pd(y, _mm256_max_pd(x, a));
    }
    for (; n - i >= 4; i += 4) {
        __m256d x = _mm256_loadu_pd(u + i);
        bad = _mm256_or_pd(bad, _mm256_cmp_pd(x, top, _CMP_NLE_UQ));
        a = _mm256_max_pd(x, a);
    }
    _mm256_storeu_pd(m, a);
    return _mm256_movemask_pd(bad) != 0;
}

size_t em_exact_vec_run(em_xrun *r, size_t i, size_t n)
{
    r->why = EM_XRUN_END;
    while (i < n) {
        if (!r->excluded)
            i = run_alike(r, i, n);
        if (i == n)
            break;
        size_t m = n - i < 4 ? n - i : 4;
        if (!run_any(r, i, m)) {
            r->why = EM_XRUN_MIXED;
            break;
        }
        i += m;
    }
    return i;
}

#else

int em_exact_vec_ok(void)
{
    return 0;
}

int em_exact_vec_max4(size_t n, const double *u, double m[4])
{
    (void)n;
    (void)u;
    (void)m;
    return 1;
}

size_t em_exact_vec_run(em_xrun *r, size_t i, size_t n)
{
    (void)n;
    r->why = EM_XRUN_MIXED;
    return i;
}

#endif
