/* The libm wrappers behind src/trusted/em_libm.h.  Outside the WP-verified core:
   their contracts are assumptions listed in proofs/TRUSTED.md. */
#include <math.h>
#include <stddef.h>
#include "trusted/em_libm.h"

double em_exp_nonpos(double x) { return exp(x); }

/* libmvec promises < 4 ulp, not faithful rounding: the contract's range [0, 1]
   (a NaN would become 1) and the exact 1 at 0 are made to hold here, in
   exp4/exp2v (vector) or clamp_exp (elsewhere). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* glibc's libmvec (linked through libm.so's AS_NEEDED clause): exp's vector
   variants, named by the x86-64 vector function ABI ('b' SSE2, 'd' AVX2). */
__m128d _ZGVbN2v_exp(__m128d x);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_exp(__m256d x);

/* clamp_exp four at a time: min returns its second operand (1) for a NaN. */
__attribute__((target("avx2"))) static __m256d exp4(__m256d x)
{
    const __m256d one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd();
    __m256d y = _mm256_max_pd(_mm256_min_pd(_ZGVdN4v_exp(x), one), zero);
    return _mm256_blendv_pd(y, one, _mm256_cmp_pd(x, zero, _CMP_EQ_OQ));
}

/* A partial last vector is padded with zeros, so that every element goes
   through the same vector code whatever its position in the block. */
__attribute__((target("avx2"))) static void exp_block_avx2(size_t n, const double *x, double *y)
{
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
        _mm256_storeu_pd(y + j, exp4(_mm256_loadu_pd(x + j)));
    if (j < n) { /* masked: the lanes past n read as 0 and are not stored */
        static const long long lanes[8] = {-1, -1, -1, -1, 0, 0, 0, 0};
        __m256i mask = _mm256_loadu_si256((const __m256i *)(lanes + 4 - (n - j)));
        _mm256_maskstore_pd(y + j, mask, exp4(_mm256_maskload_pd(x + j, mask)));
    }
}

static __m128d exp2v(__m128d x)
{
    const __m128d one = _mm_set1_pd(1.0), zero = _mm_setzero_pd();
    __m128d y = _mm_max_pd(_mm_min_pd(_ZGVbN2v_exp(x), one), zero);
    __m128d at0 = _mm_cmpeq_pd(x, zero);
    return _mm_or_pd(_mm_and_pd(at0, one), _mm_andnot_pd(at0, y));
}

static void exp_block_sse2(size_t n, const double *x, double *y)
{
    size_t j = 0;
    for (; j + 2 <= n; j += 2)
        _mm_storeu_pd(y + j, exp2v(_mm_loadu_pd(x + j)));
    if (j < n) {
        double a[2] = {x[j], 0.0}, b[2];
        _mm_storeu_pd(b, exp2v(_mm_loadu_pd(a)));
        y[j] = b[0];
    }
}
#else
static double clamp_exp(double x, double y)
{
    if (!(y <= 1.0))
        y = 1.0;
    if (!(y >= 0.0))
        y = 0.0;
    return x == 0.0 ? 1.0 : y;
}
#endif

void em_exp_nonpos_block(size_t n, const double *x, double *y)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2"))
        exp_block_avx2(n, x, y);
    else
        exp_block_sse2(n, x, y);
#else
    for (size_t j = 0; j < n; j++)
        y[j] = clamp_exp(x[j], exp(x[j]));
#endif
}

double em_log1p_sum(double y) { return log1p(y); }

double em_frexp(double x, int *e) { return frexp(x, e); }

double em_ldexp(double x, int e) { return ldexp(x, e); }
