/* bench_core: timings of the verified core (`make bench`; never asserted in tests).
   Preparation (log-weights, probabilities, fixed-point weights) and one draw, at
   n = 7 (the marital example) and n = 10^6 (utilities -i/1000). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "expmech.h"
#include "api/em_seeds.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench(const char *name, size_t n, const double *u, long draws)
{
    double *lw = malloc(n * sizeof *lw), *logp = malloc(n * sizeof *logp), *p = malloc(n * sizeof *p);
    uint64_t *W = malloc(n * sizeof *W), total, scale;
    size_t argmax, r, sink = 0;
    em_rng rng;
    if (!lw || !logp || !p || !W || em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1) != EM_OK)
        return 1;
    int reps = n < 1000 ? 100000 : 5;
    double t0 = now();
    for (int k = 0; k < reps; k++)
        if (em_logweights(n, u, 1.0, 1.0, EM_STANDARD, lw, &argmax) != EM_OK ||
            em_normalize(n, lw, logp, p) != EM_OK ||
            em_weights_fixed(n, lw, W, &total, &scale) != EM_OK)
            return 1;
    double prep = (now() - t0) / reps;
    t0 = now();
    for (long d = 0; d < draws; d++) {
        if (em_sample_fixed(n, W, total, &rng, &r) != EM_OK)
            return 1;
        sink += r;
    }
    double per = (now() - t0) / (double)draws;
    printf("bench_core: %-10s n = %-8zu prepare %10.3f us   draw %10.3f us   (checksum %zu)\n",
           name, n, prep * 1e6, per * 1e6, sink % 7);
    /* Per stage, and the one-shot path of float_oneshot (log-weights, fixed-point
       weights, one draw: em_normalize is not on it). */
    double t_lw, t_norm, t_fix, t_one;
    t0 = now();
    for (int k = 0; k < reps; k++)
        if (em_logweights(n, u, 1.0, 1.0, EM_STANDARD, lw, &argmax) != EM_OK)
            return 1;
    t_lw = (now() - t0) / reps;
    t0 = now();
    for (int k = 0; k < reps; k++)
        if (em_normalize(n, lw, logp, p) != EM_OK)
            return 1;
    t_norm = (now() - t0) / reps;
    t0 = now();
    for (int k = 0; k < reps; k++)
        if (em_weights_fixed(n, lw, W, &total, &scale) != EM_OK)
            return 1;
    t_fix = (now() - t0) / reps;
    t0 = now();
    for (int k = 0; k < reps; k++) {
        if (em_logweights(n, u, 1.0, 1.0, EM_STANDARD, lw, &argmax) != EM_OK ||
            em_weights_fixed(n, lw, W, &total, &scale) != EM_OK ||
            em_sample_fixed(n, W, total, &rng, &r) != EM_OK)
            return 1;
        sink += r;
    }
    t_one = (now() - t0) / reps;
    /* Many draws from one prepared table: the cumulative table (built once, not
       timed) and, per draw, a uniform word and em_select_cumulative's binary search. */
    uint64_t *C = malloc(n * sizeof *C);
    if (!C)
        return 1;
    em_cumulative(n, W, C);
    t0 = now();
    for (long d = 0; d < draws; d++) {
        uint64_t t;
        if (em_uniform_below(&rng, total, &t) != EM_OK)
            return 1;
        sink += em_select_cumulative(n, C, t);
    }
    double t_many = (now() - t0) / (double)draws;
    free(C);
    printf("bench_core: %-10s n = %-8zu logweights %.3f us  normalize %.3f us  weights_fixed %.3f us"
           "  oneshot (logweights+weights_fixed+draw) %.3f us  many (per draw, cumulative table) %.4f us"
           "  (checksum %zu)\n",
           name, n, t_lw * 1e6, t_norm * 1e6, t_fix * 1e6, t_one * 1e6, t_many * 1e6, sink % 7);
    free(lw); free(logp); free(p); free(W);
    return 0;
}

int main(void)
{
    double u7[EM_MARITAL_N];
    for (int i = 0; i < EM_MARITAL_N; i++)
        u7[i] = (double)em_marital_counts[i] / 1000.0;
    size_t big = 1000000;
    double *ub = malloc(big * sizeof *ub);
    if (!ub)
        return 1;
    for (size_t i = 0; i < big; i++)
        ub[i] = -(double)i / 1000.0;
    int rc = bench("marital", EM_MARITAL_N, u7, 1000000) || bench("linear", big, ub, 200);
    free(ub);
    return rc;
}
