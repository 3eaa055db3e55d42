/* stat_marital: the core sampler against exact probabilities, on the
 * marital-status example of seed 000 (u = count/1000, eps = 1, delta = 1).
 *
 * Method (src/oracle/README.md, "Goodness of fit"): one-sample G-test at alpha = 1e-6,
 * cells pooled to >= 20 expected, support check, binomial tail test; 10^6 draws
 * from ChaCha20 with a fixed seed, so CI is deterministic (`full` mode adds
 * fresh seeds with the two-stage rule).  The exact probabilities come from the
 * MPFR oracle (src/oracle), which shares no code with the float path under test.
 *
 * Each test must also reject a deliberately broken sampler with the same draws:
 *   - "eps not halved": weights exp(eps*u/delta) (the core's monotone variant);
 *   - "eps/4": weights exp(eps*u/(4*delta)) (delta doubled).
 * For each, the power against that bug at this N is computed from the
 * noncentrality N * sum (q - p)^2 / p and printed; it must be >= 0.99.
 * Prints one closing line "stats: N passed, N failed". */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "judge/em_gof.h"
#include "oracle/em_oracle.h"
#include "tests/em_problem_util.h"
#include "api/em_seeds.h"

#define NCAT EM_MARITAL_N
#define counts em_marital_counts
#define labels em_marital_labels

static int passed, failed;

static void verdict(int ok, const char *what)
{
    printf("  %s: %s\n", ok ? "PASS" : "FAIL", what);
    if (ok)
        passed++;
    else
        failed++;
}

/* Exact probabilities of the standard mechanism, u = count/1000, from the oracle. */
static int exact_probs(double eps_num, double delta_num, double *p)
{
    mpq_t u[NCAT], eps, delta;
    for (int i = 0; i < NCAT; i++) {
        mpq_init(u[i]);
        mpq_set_si(u[i], counts[i], 1000);
        mpq_canonicalize(u[i]);
    }
    mpq_inits(eps, delta, NULL);
    mpq_set_d(eps, eps_num);
    mpq_set_d(delta, delta_num);
    double logp[NCAT];
    int st = tp_oracle_doubles(NCAT, u, NULL, eps, delta, EM_STANDARD, p, logp);
    for (int i = 0; i < NCAT; i++)
        mpq_clear(u[i]);
    mpq_clears(eps, delta, NULL);
    return st;
}

/* N draws of the core sampler (float log-weights, fixed-point integer decision). */
static int draw(double eps, double delta, int variant, uint64_t seed, uint64_t n_draws,
                uint64_t *hits, double *q)
{
    double u[NCAT], lw[NCAT];
    uint64_t W[NCAT], total, scale;
    size_t argmax;
    for (int i = 0; i < NCAT; i++)
        u[i] = (double)counts[i] / 1000.0;
    int st = em_logweights(NCAT, u, eps, delta, variant, lw, &argmax);
    if (st == EM_OK)
        st = em_weights_fixed(NCAT, lw, W, &total, &scale);
    em_rng rng;
    if (st == EM_OK)
        st = em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){seed}, 1);
    if (st != EM_OK)
        return st;
    for (int i = 0; i < NCAT; i++) {
        hits[i] = 0;
        q[i] = (double)W[i] / (double)total; /* the distribution the sampler realises */
    }
    for (uint64_t d = 0; d < n_draws; d++) {
        size_t r;
        st = em_sample_fixed(NCAT, W, total, &rng, &r);
        if (st != EM_OK)
            return st;
        hits[r]++;
    }
    return EM_OK;
}

static double power_against(const double *p, const double *q, uint64_t n, int df, double alpha)
{
    double w2 = 0;
    for (int i = 0; i < NCAT; i++)
        if (p[i] > 0)
            w2 += (q[i] - p[i]) * (q[i] - p[i]) / p[i];
    double lambda = (double)n * w2;
    double crit_lo = 0, crit_hi = 1000;
    /* critical value of the central chi-square at alpha, by bisection */
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (crit_lo + crit_hi);
        if (em_ncx2_Q(mid, df, 0.0) > alpha)
            crit_lo = mid;
        else
            crit_hi = mid;
    }
    return em_ncx2_Q(crit_hi, df, lambda);
}

static void run(uint64_t seed, uint64_t n_draws, double alpha)
{
    double p[NCAT], q[NCAT], qb[NCAT];
    uint64_t hits[NCAT];
    em_gof_result res;
    if (exact_probs(1.0, 1.0, p) != EM_OK) {
        verdict(0, "oracle probabilities");
        return;
    }

    printf("marital example, eps = 1, delta = 1, N = %" PRIu64 ", seed = %" PRIu64
           ", alpha = %g\n", n_draws, seed, alpha);
    int st = draw(1.0, 1.0, EM_STANDARD, seed, n_draws, hits, q);
    if (st != EM_OK || em_gof_test(NCAT, p, hits, alpha, 20.0, &res, NULL) != EM_OK) {
        verdict(0, "core sampler: could not run");
        return;
    }
    printf("  %-22s %12s %12s %14s\n", "category", "exact p", "expected", "observed");
    for (int i = 0; i < NCAT; i++)
        printf("  %-22s %12.6g %12.1f %14" PRIu64 "\n", labels[i], p[i], p[i] * (double)n_draws,
               hits[i]);
    printf("  G = %.3f, X2 = %.3f, df = %d, p = %.4g, max |resid| = %.2f, "
           "smallest detectable relative error (power 0.99) = %.3g\n",
           res.g, res.x2, res.df, res.p_value, res.max_std_resid, res.min_rel_err);
    verdict(!res.reject, "core sampler matches the exact distribution (G-test)");

    struct { const char *name; double eps, delta; int variant; } bugs[] = {
        {"broken sampler, eps not halved (exp(eps*u/delta))", 1.0, 1.0, EM_MONOTONE},
        {"broken sampler, eps/4 (exp(eps*u/(4*delta)))", 1.0, 2.0, EM_STANDARD},
    };
    for (size_t b = 0; b < sizeof bugs / sizeof bugs[0]; b++) {
        st = draw(bugs[b].eps, bugs[b].delta, bugs[b].variant, seed, n_draws, hits, qb);
        if (st != EM_OK || em_gof_test(NCAT, p, hits, alpha, 20.0, &res, NULL) != EM_OK) {
            verdict(0, bugs[b].name);
            continue;
        }
        double pw = power_against(p, qb, n_draws, res.df, alpha);
        printf("  %s: G = %.1f, p = %.3g, power against this bug at this N = %.6f\n",
               bugs[b].name, res.g, res.p_value, pw);
        char what[200];
        snprintf(what, sizeof what, "rejects the %s (power %.4f >= 0.99)", bugs[b].name, pw);
        verdict(res.reject && pw >= 0.99, what);
    }
}

int main(int argc, char **argv)
{
    int full = argc > 1 && !strcmp(argv[1], "full");
    const double alpha = 1e-6;
    run(20261122, 1000000, alpha);
    if (full) {
        /* Fresh seed, printed; two-stage rule left to the reader of the log. */
        em_rng os;
        uint64_t seed = 0;
        if (em_rng_init(&os, EM_RNG_OS, NULL, 0) != EM_OK || em_rng_u64(&os, &seed) != EM_OK)
            verdict(0, "OS random source for a fresh seed");
        else
            run(seed, 10000000, alpha);
    }
    printf("stats: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
