/* bench_limit.h: the physical-limit loops of `make bench`, each compiled in its
 * own translation unit with its own flags (see the Makefile), so that what they measure is
 * the machine and not the library's build:
 *   stats/limit_scalar.c   -O2 -fno-tree-vectorize: one exp per element, scalar libm;
 *   stats/limit_vector.c   -O3 -fopenmp-simd -ffast-math: glibc's libmvec (_ZGV*_exp), built
 *                          three times: baseline x86-64 (SSE2, 2 lanes), AVX2 + FMA (4 lanes,
 *                          what -march=native gives on a recent x86: GCC prefers 256-bit
 *                          vectors) and AVX-512 (8 lanes); and a vectorised read pass (the
 *                          memory bandwidth).
 * Every exp loop writes w[i] = exp(c u[i] - m) and returns the sum, as the float path's
 * prepare must at least do; the sum is the checksum that keeps the loop alive. */
#ifndef EM_BENCH_LIMIT_H
#define EM_BENCH_LIMIT_H

#include <stddef.h>

double em_limit_exp_scalar(size_t n, const double *u, double c, double m, double *w);
double em_limit_exp_sse2(size_t n, const double *u, double c, double m, double *w);
/* callable only where __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") */
double em_limit_exp_avx2(size_t n, const double *u, double c, double m, double *w);
/* callable only where __builtin_cpu_supports("avx512f") */
double em_limit_exp_avx512(size_t n, const double *u, double c, double m, double *w);
double em_limit_sum(size_t n, const double *u);

#endif
