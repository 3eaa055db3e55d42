/* bench_oracle.c: exact probabilities of 10^6 candidates to 40 digits (target < 5 s).
 *
 * Scenario: u_i = ((7919 i) mod 1000003) / 1000 for i < 10^6 (utilities in [0, 1000],
 * three decimals, distinct), epsilon 1, sensitivity 1, standard variant: the "large"
 * test vector family's modular-1e6 case.  Times the oracle (normaliser pass and every
 * candidate's correctly rounded probability and log-probability as 40-digit strings),
 * excluding the construction of the input rationals; prints wall and CPU seconds.
 * Usage: bench_oracle [N [DIGITS]]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmp.h>

#include "expmech.h"
#include "oracle/em_oracle.h"
#include "tests/em_problem_util.h"

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    int K = argc > 2 ? atoi(argv[2]) : 40;
    if (n == 0 || K < 1)
        return 2;
    mpq_t *u = malloc(n * sizeof *u);
    if (!u)
        return 3;
    for (size_t i = 0; i < n; i++) {
        mpq_init(u[i]);
        mpq_set_ui(u[i], (unsigned long)(((unsigned long long)i * 7919) % 1000003), 1000);
        mpq_canonicalize(u[i]);
    }
    mpq_t eps, delta;
    mpq_init(eps);
    mpq_init(delta);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 1, 1);

    double w0 = wall(), c0 = cpu();
    em_oracle *o;
    int st = tp_oracle_new(n, u, NULL, eps, delta, EM_STANDARD, K, &o);
    if (st != EM_OK) {
        fprintf(stderr, "bench_oracle: %s\n", em_strerror(st));
        return 3;
    }
    size_t chars = 0, near_one = 0;
    char first[128] = "", last[128] = "";
    for (size_t i = 0; i < n; i++) {
        em_oracle_cand r;
        st = em_oracle_get(o, i, &r);
        if (st != EM_OK) {
            fprintf(stderr, "bench_oracle: candidate %zu: %s\n", i, em_strerror(st));
            return 3;
        }
        chars += strlen(r.prob) + strlen(r.logprob);
        near_one += (r.flags & EM_OF_NEAR_ONE) != 0;
        if (i == 0)
            snprintf(first, sizeof first, "%s", r.prob);
        if (i == n - 1)
            snprintf(last, sizeof last, "%s", r.prob);
    }
    double w1 = wall(), c1 = cpu();
    printf("bench_oracle: %zu candidates, %d digits: %.2f s wall, %.2f s CPU "
           "(%d normaliser pass(es), max precision %ld bits, %zu output chars)\n",
           n, K, w1 - w0, c1 - c0, em_oracle_passes(o), em_oracle_max_prec(o), chars);
    printf("bench_oracle: P(0) = %s, P(%zu) = %s\n", first, n - 1, last);
    printf("bench_oracle: target < 5 s: %s\n", w1 - w0 < 5.0 ? "met" : "MISSED (see CPU time: the machine may be loaded)");
    em_oracle_free(o);
    for (size_t i = 0; i < n; i++)
        mpq_clear(u[i]);
    free(u);
    mpq_clear(eps);
    mpq_clear(delta);
    return 0;
}
