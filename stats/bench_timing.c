/* bench_timing: does the exact sampler's running time reveal its output?  (`make bench`;
 * SECURITY.md quotes these numbers.)  For each output r: the mean time of the draws that
 * returned r, and the mean random bits they consumed; for the default first chunk and for
 * em_exact_set_first_chunk(63) (the output-independent mode: one 63-bit read and one
 * branch-free scan per draw, except with probability <= n 2^-60).  Marital scenario of
 * seed 000 with the raw counts (outputs of probability 1 - 6e-933 down to 1e-3247) and
 * with count/1000; the continuous sampler on seed 003's pricing law (its first read is
 * always 63 bits). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "expmech.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "tests/em_problem_util.h"
#include "api/em_seeds.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

#define N EM_MARITAL_N

static void run(const char *name, long den, unsigned chunk, long draws)
{
    mpq_t u[N], eps;
    for (int i = 0; i < N; i++) {
        mpq_init(u[i]);
        mpq_set_si(u[i], em_marital_counts[i], (unsigned long)den);
        mpq_canonicalize(u[i]);
    }
    mpq_init(eps);
    mpq_set_ui(eps, 1, 1);
    em_exact *x;
    if (tp_exact_new(N, u, NULL, eps, eps, EM_STANDARD, &x) != EM_OK)
        exit(1);
    if (chunk)
        em_exact_set_first_chunk(x, chunk);
    em_rng rng;
    em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){7}, 1);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    double tsum[N] = {0}, bsum[N] = {0};
    long cnt[N] = {0};
    size_t r;
    for (long d = 0; d < draws; d++) {
        uint64_t b0 = b.used;
        double t0 = now_ns();
        if (em_exact_sample(x, &b, &r) != EM_OK)
            exit(1);
        double t1 = now_ns();
        tsum[r] += t1 - t0;
        bsum[r] += (double)(b.used - b0);
        cnt[r]++;
    }
    printf("%s, first chunk %s:\n", name, chunk ? "63 bits (output-independent mode)" : "default");
    for (int i = 0; i < N; i++)
        if (cnt[i])
            printf("  output %d: %9ld draws  mean %7.1f ns  bits %6.2f\n", i, cnt[i],
                   tsum[i] / (double)cnt[i], bsum[i] / (double)cnt[i]);
    em_exact_stats st;
    em_exact_get_stats(x, &st);
    printf("  draws past 63 bits: %llu of %llu\n", (unsigned long long)st.slow,
           (unsigned long long)st.draws);
    em_exact_free(x);
    for (int i = 0; i < N; i++)
        mpq_clear(u[i]);
    mpq_clear(eps);
}

static void run_cont(long draws)
{
    em_pieces ps;
    em_pieces_init(&ps);
    mpq_t v[4];
    for (int k = 0; k < 4; k++)
        mpq_init(v[k]);
    const char *P[3][4] = {{"0", "1", "0", "4"}, {"1", "301/100", "0", "1"}, {"301/100", "7/2", "0", "0"}};
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 4; k++) {
            mpq_set_str(v[k], P[j][k], 10);
            mpq_canonicalize(v[k]);
        }
        em_pieces_push(&ps, v[0], v[1], v[2], v[3], (unsigned long)j + 1);
    }
    mpq_t eps, delta;
    mpq_inits(eps, delta, (mpq_ptr)0);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 7, 2);
    em_cont *C;
    if (tp_cont_new_pieces(&ps, eps, delta, EM_STANDARD, 17, &C, NULL, 0) != EM_OK)
        exit(1);
    em_rng rng;
    em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){7}, 1);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    double tsum[3] = {0}, bsum[3] = {0};
    long cnt[3] = {0};
    size_t r;
    double y;
    em_cont_sample(C, &b, &r, &y);
    for (long d = 0; d < draws; d++) {
        uint64_t b0 = b.used;
        double t0 = now_ns();
        if (em_cont_sample(C, &b, &r, &y) != EM_OK)
            exit(1);
        double t1 = now_ns();
        tsum[r] += t1 - t0;
        bsum[r] += (double)(b.used - b0);
        cnt[r]++;
    }
    printf("seed 003 pricing (continuous), by piece:\n");
    for (int i = 0; i < 3; i++)
        printf("  piece %d: %8ld draws  mean %7.1f ns  bits %6.2f\n", i, cnt[i],
               tsum[i] / (double)cnt[i], bsum[i] / (double)cnt[i]);
    em_cont_free(C);
    em_pieces_free(&ps);
    for (int k = 0; k < 4; k++)
        mpq_clear(v[k]);
    mpq_clears(eps, delta, (mpq_ptr)0);
}

int main(void)
{
    run("marital raw counts", 1, 0, 2000000);
    run("marital raw counts", 1, 63, 2000000);
    run("marital count/1000", 1000, 0, 2000000);
    run("marital count/1000", 1000, 63, 2000000);
    run_cont(100000);
    return 0;
}
