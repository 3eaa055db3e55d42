/* em_exact_vec.c: em_exact_new_d's first pass four candidates at a time (em_exact_vec.h).
 *
 * The one-by-one pass (cheap_bounds in em_exact_new.c) costs per candidate a loop of
 * tests, a queue for the exp chain (em_wbound.c), the packing and unpacking of its lower
 * bound; here a run of candidates that are all alike (on the chain, or in the tail) takes
 * the same operations as straight vector code.  "avx2" enables no FMA, so no product and
 * sum are fused: every lane's doubles are those of the scalar code. */
#include "oracle/em_exact_vec.h"

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

/* em_wb_exp_lo_dbl of four x in [0, EM_WB_XCUT): em_wbound.c's lo_block_avx2, lane for
 * lane the scalar operations */
__attribute__((target("avx2"))) static inline __m256d exp_lo4(__m256d xv, const em_wb_poly *pc)
{
    const __m256d one = _mm256_set1_pd(1.0), half = _mm256_set1_pd(0.5);
    const __m256d c3 = _mm256_set1_pd(pc->c3), c4 = _mm256_set1_pd(pc->c4);
    const __m256d c5 = _mm256_set1_pd(pc->c5), fac = _mm256_set1_pd(1.0 - 0x1p-49);
    const __m256d s10 = _mm256_set1_pd(0x1p10), sm10 = _mm256_set1_pd(0x1p-10);
    __m128i k = _mm256_cvttpd_epi32(xv);
    __m256d y = _mm256_mul_pd(_mm256_sub_pd(xv, _mm256_cvtepi32_pd(k)), s10);
    __m128i j = _mm256_cvttpd_epi32(y);
    __m256d r = _mm256_mul_pd(_mm256_sub_pd(y, _mm256_cvtepi32_pd(j)), sm10);
    __m256d e1 = _mm256_i32gather_pd(em_wb_exp_int_d, k, 8);
    __m256d e2 = _mm256_i32gather_pd(em_wb_exp_a_d, j, 8);
    __m256d t = _mm256_sub_pd(c4, _mm256_mul_pd(r, c5));
    t = _mm256_sub_pd(c3, _mm256_mul_pd(r, t));
    t = _mm256_sub_pd(half, _mm256_mul_pd(r, t));
    t = _mm256_sub_pd(one, _mm256_mul_pd(r, t));
    __m256d p = _mm256_sub_pd(one, _mm256_mul_pd(r, t));
    return _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(e1, e2), p), fac);
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

__attribute__((target("avx2"))) static size_t run_avx2(em_xrun *r, size_t i, size_t n,
                                                       int chain_ok)
{
    const __m256d umax = _mm256_set1_pd(r->umax), clo = _mm256_set1_pd(r->clo);
    const __m256d chi = _mm256_set1_pd(r->chi), uthr = _mm256_set1_pd(r->uthr);
    const __m256d xcut = _mm256_set1_pd(r->xcut), wcut = _mm256_set1_pd((double)EM_WB_XCUT);
    const __m256d lowest = _mm256_set1_pd(-0x1.fffffffffffffp1023);
    const __m256d eighth = _mm256_set1_pd(0.125), zero = _mm256_setzero_pd();
    const __m256i pbias = _mm256_set1_epi64x((int64_t)r->P - 1075);
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN), zi = _mm256_setzero_si256();
    const uint32_t other4 = 0x01010101u * CL_OTHER;
    __m256i acc_lo = zi, acc_hi = zi;
    uint64_t k = 0, tail = 0;
    double dsum = r->dsum;
    r->why = EM_XRUN_END;
    for (; n - i >= 4; i += 4) {
        if (r->excluded) {
            uint32_t e4;
            memcpy(&e4, r->excluded + i, sizeof e4);
            if (e4) {
                r->why = EM_XRUN_MIXED;
                break;
            }
        }
        __m256d u = _mm256_loadu_pd(r->u + i);
        __m256d tl = _mm256_and_pd(_mm256_cmp_pd(u, uthr, _CMP_LE_OQ),
                                   _mm256_cmp_pd(u, lowest, _CMP_GE_OQ));
        if (_mm256_movemask_pd(tl) == 0xF) {
            /* the tail: lower bound 0, upper bound one unit (cheap_bounds) */
            _mm256_storeu_pd(r->ud + i, u);
            memcpy(r->cls + i, &other4, sizeof other4);
            _mm256_storeu_si256((__m256i *)(r->lo + i), zi);
            _mm256_storeu_si256((__m256i *)(r->hi + i), zi);
            tail += 4;
            continue;
        }
        /* cheap_bounds's enclosure: d = RN(umax - u), xlo = x_lower(u), xhi = next-up(RN(chi
         * next-up(d))) */
        __m256d d = _mm256_sub_pd(umax, u);
        __m256d pl = _mm256_mul_pd(clo, bits_down4(d));
        __m256d xlo = _mm256_and_pd(_mm256_cmp_pd(pl, zero, _CMP_GT_OQ), bits_down4(pl));
        __m256d xhi = bits_up4(_mm256_mul_pd(chi, bits_up4(d)));
        __m256d D = bits_up4(_mm256_sub_pd(xhi, xlo));
        __m256d ch = _mm256_and_pd(_mm256_cmp_pd(u, uthr, _CMP_GT_OQ),
                                   _mm256_cmp_pd(u, umax, _CMP_LT_OQ));
        ch = _mm256_and_pd(ch, _mm256_cmp_pd(xlo, xcut, _CMP_LT_OQ));
        ch = _mm256_and_pd(ch, _mm256_cmp_pd(xhi, wcut, _CMP_LT_OQ));
        ch = _mm256_and_pd(ch, _mm256_cmp_pd(D, eighth, _CMP_LE_OQ));
        if (_mm256_movemask_pd(ch) != 0xF) {
            r->why = EM_XRUN_MIXED;
            break;
        }
        if (!chain_ok) {
            r->why = EM_XRUN_FLUSH;
            break;
        }
        _mm256_storeu_pd(r->ud + i, u);
        memcpy(r->cls + i, &other4, sizeof other4);
        __m256d L = exp_lo4(xhi, &r->pc);
        /* wchain: dsum += D L one candidate after another, in index order */
        double p[4];
        _mm256_storeu_pd(p, _mm256_mul_pd(D, L));
        dsum += p[0];
        dsum += p[1];
        dsum += p[2];
        dsum += p[3];
        k += 4;
        __m256i lo, hi;
        fix_halves(L, pbias, &lo, &hi);
        _mm256_storeu_si256((__m256i *)(r->lo + i), lo);
        _mm256_storeu_si256((__m256i *)(r->hi + i), hi);
        /* four 128-bit sums, lane by lane: a carry out of the low half when it wrapped
         * below its old value (unsigned comparison through the flipped sign bit) */
        __m256i nl = _mm256_add_epi64(acc_lo, lo);
        __m256i carry = _mm256_cmpgt_epi64(_mm256_xor_si256(acc_lo, sign),
                                           _mm256_xor_si256(nl, sign));
        acc_lo = nl;
        acc_hi = _mm256_sub_epi64(_mm256_add_epi64(acc_hi, hi), carry);
    }
    uint64_t a[4], b[4];
    _mm256_storeu_si256((__m256i *)a, acc_lo);
    _mm256_storeu_si256((__m256i *)b, acc_hi);
    for (int c = 0; c < 4; c++)
        r->zlo += ((em_u128)b[c] << 64) | a[c];
    r->k += k;
    r->tail += tail;
    r->dsum = dsum;
    return i;
}

size_t em_exact_vec_run(em_xrun *r, size_t i, size_t n, int chain_ok)
{
    return run_avx2(r, i, n, chain_ok);
}

#else

int em_exact_vec_ok(void)
{
    return 0;
}

size_t em_exact_vec_run(em_xrun *r, size_t i, size_t n, int chain_ok)
{
    (void)n;
    (void)chain_ok;
    r->why = EM_XRUN_END;
    return i;
}

#endif
