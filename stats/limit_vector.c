/* limit_vector.c: the vectorised passes of `make bench` (bench_limit.h).  Compiled -O3
 * -fopenmp-simd -ffast-math (this file only: -ffast-math is what lets GCC call glibc's
 * vector exp, _ZGV..._exp in libmvec, and reassociate the sum) and linked with -lmvec.
 * Built once per instruction set, EM_LIMIT_EXP naming the function. */
#include <math.h>

#include "bench_limit.h"

#ifndef EM_LIMIT_EXP
#define EM_LIMIT_EXP em_limit_exp_sse2
#define EM_LIMIT_BASELINE 1
#endif

double EM_LIMIT_EXP(size_t n, const double *u, double c, double m, double *w)
{
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (size_t i = 0; i < n; i++) {
        w[i] = exp(c * u[i] - m);
        s += w[i];
    }
    return s;
}

#ifdef EM_LIMIT_BASELINE
double em_limit_sum(size_t n, const double *u)
{
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (size_t i = 0; i < n; i++)
        s += u[i];
    return s;
}
#endif
