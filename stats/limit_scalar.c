/* limit_scalar.c: the scalar exp pass of `make bench` (bench_limit.h).  Compiled -O2
 * -fno-tree-vectorize: the best a portable scalar loop over libm's exp can do. */
#include <math.h>

#include "bench_limit.h"

double em_limit_exp_scalar(size_t n, const double *u, double c, double m, double *w)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        w[i] = exp(c * u[i] - m);
        s += w[i];
    }
    return s;
}
