/* bench_exact: timings of the exact sampler (`make bench`; never asserted in tests), with
   the float sampler (em_sample_fixed, as in bench_core) on the same input beside it:
   n = 7 (the marital example, u = count/1000 exact) and n = 10^6 (u_i = -i/1000 exact).
   Also the measured random bits and decision scans per draw (spec/ExactSampling.md). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "expmech.h"
#include "oracle/em_exact.h"
#include "oracle/em_pf.h"
#include "tests/em_problem_util.h"
#include "api/em_seeds.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench(const char *name, size_t n, long num_div, long draws)
{
    /* u_i = num(i) / 1000: the marital counts, or -i */
    mpq_t *u = malloc(n * sizeof *u), eps;
    double *ud = malloc(n * sizeof *ud), *lw = malloc(n * sizeof *lw);
    uint64_t *W = malloc(n * sizeof *W), total, scale;
    if (!u || !ud || !lw || !W)
        return 1;
    for (size_t i = 0; i < n; i++) {
        long num = num_div ? em_marital_counts[i] : -(long)i;
        mpq_init(u[i]);
        mpq_set_si(u[i], num, 1000);
        mpq_canonicalize(u[i]);
        ud[i] = (double)num / 1000.0;
    }
    mpq_init(eps);
    mpq_set_ui(eps, 1, 1);
    size_t argmax, r, sink = 0;
    em_rng rng;
    em_bits b;
    em_exact *x = NULL;
    double t0 = now();
    if (tp_exact_new(n, u, NULL, eps, eps, EM_STANDARD, &x) != EM_OK)
        return 1;
    double prep = now() - t0;
    if (em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1) != EM_OK)
        return 1;
    em_bits_init_rng(&b, &rng);
    t0 = now();
    for (long d = 0; d < draws; d++) {
        if (em_exact_sample(x, &b, &r) != EM_OK)
            return 1;
        sink += r;
    }
    double per = (now() - t0) / (double)draws;
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    /* the float sampler on the same utilities */
    if (em_logweights(n, ud, 1.0, 1.0, EM_STANDARD, lw, &argmax) != EM_OK ||
        em_weights_fixed(n, lw, W, &total, &scale) != EM_OK ||
        em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1) != EM_OK)
        return 1;
    t0 = now();
    for (long d = 0; d < draws; d++) {
        if (em_sample_fixed(n, W, total, &rng, &r) != EM_OK)
            return 1;
        sink += r;
    }
    double fper = (now() - t0) / (double)draws;
    printf("bench_exact: %-8s n = %-8zu prepare %10.3f ms   exact draw %10.3f us   float draw "
           "%10.3f us   ratio %.2f\n"
           "             bits/draw %.3f   scans/draw %.4f   draws past 63 bits %llu of %llu   "
           "precision %ld bits   (checksum %zu)\n",
           name, n, prep * 1e3, per * 1e6, fper * 1e6, per / fper,
           (double)st.bits / (double)st.draws, (double)st.scans / (double)st.draws,
           (unsigned long long)st.slow, (unsigned long long)st.draws, st.maxprec, sink % 7);
    em_exact_free(x);
    for (size_t i = 0; i < n; i++)
        mpq_clear(u[i]);
    mpq_clear(eps);
    free(u);
    free(ud);
    free(lw);
    free(W);
    return 0;
}

/* permute-and-flip's exact sampler on the marital example */
static int bench_pf(long draws)
{
    mpq_t u[EM_MARITAL_N], eps;
    for (int i = 0; i < EM_MARITAL_N; i++) {
        mpq_init(u[i]);
        mpq_set_si(u[i], em_marital_counts[i], 1000);
        mpq_canonicalize(u[i]);
    }
    mpq_init(eps);
    mpq_set_ui(eps, 1, 1);
    em_pf *x;
    em_rng rng;
    em_bits b;
    size_t r, sink = 0;
    if (tp_pf_new(EM_MARITAL_N, u, NULL, eps, eps, EM_STANDARD, &x) != EM_OK ||
        em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1) != EM_OK)
        return 1;
    em_bits_init_rng(&b, &rng);
    double t0 = now();
    for (long d = 0; d < draws; d++) {
        if (em_pf_sample(x, &b, &r) != EM_OK)
            return 1;
        sink += r;
    }
    double per = (now() - t0) / (double)draws;
    printf("bench_exact: pf       n = %-8d exact permute-and-flip draw %8.3f us   bits/draw %.3f"
           "   (checksum %zu)\n",
           EM_MARITAL_N, per * 1e6, (double)b.used / (double)draws, sink % 7);
    em_pf_free(x);
    for (int i = 0; i < EM_MARITAL_N; i++)
        mpq_clear(u[i]);
    mpq_clear(eps);
    return 0;
}

int main(void)
{
    return bench("marital", EM_MARITAL_N, 1, 10000000) || bench_pf(1000000) ||
           bench("linear", 1000000, 0, 200);
}
