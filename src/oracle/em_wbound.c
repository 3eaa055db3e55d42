/* em_wbound.c: em_wb_exp_lo_dbl over a block (em_wbound.h), the exact sampler's one loop
 * whose cost grows with the number of candidates on the chain.
 *
 * The AVX2 path performs, four lanes at a time, exactly the operations of the scalar
 * em_wb_exp_lo_dbl in the same order (truncating conversions, the same products and
 * differences, Horner in the same nesting), each an IEEE binary64 operation rounded to
 * nearest: the same results bit for bit, which tests/test_exact_d.c checks.  "avx2"
 * enables no FMA, so no product and sum are fused. */
#include "oracle/em_wbound.h"

#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2"))) static void lo_block_avx2(unsigned n, const double *x,
                                                           double *L, const em_wb_poly *pc)
{
    const __m256d one = _mm256_set1_pd(1.0), half = _mm256_set1_pd(0.5);
    const __m256d c3 = _mm256_set1_pd(pc->c3), c4 = _mm256_set1_pd(pc->c4);
    const __m256d c5 = _mm256_set1_pd(pc->c5), fac = _mm256_set1_pd(1.0 - 0x1p-49);
    const __m256d s10 = _mm256_set1_pd(0x1p10), sm10 = _mm256_set1_pd(0x1p-10);
    unsigned c = 0;
    for (; n - c >= 4; c += 4) {
        __m256d xv = _mm256_loadu_pd(x + c);
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
        _mm256_storeu_pd(L + c, _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(e1, e2), p), fac));
    }
    for (; c < n; c++)
        L[c] = em_wb_exp_lo_dbl(x[c], pc);
}
#endif

void em_wb_exp_lo_block(unsigned n, const double *x, double *L, const em_wb_poly *pc,
                        int vector)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (vector && __builtin_cpu_supports("avx2")) {
        lo_block_avx2(n, x, L, pc);
        return;
    }
#else
    (void)vector;
#endif
    for (unsigned c = 0; c < n; c++)
        L[c] = em_wb_exp_lo_dbl(x[c], pc);
}
