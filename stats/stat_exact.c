/* stat_exact: the exact sampler (src/oracle/em_exact_*.c) against the oracle's exact
 * probabilities: G-test at alpha = 1e-6, 10^6 draws from ChaCha20 with a fixed seed
 * (`full` adds a fresh seed and 10^7 draws), on
 *   - the marital example (u = count/1000, eps = 1, standard), and its monotone variant;
 *   - a scenario with ties, an excluded candidate and a near-underflow weight.
 *   - permute-and-flip (src/oracle/em_pf.c) on the first and the last, against its exact
 *     pmf (em_pf_pmf).
 * Each must also reject a deliberately broken sampler with the same seed: the exact
 * sampler run with eps not halved (the monotone weights exp(eps u / delta) for the
 * standard mechanism); the power against it at this N is printed and must be >= 0.99.
 * Method: src/oracle/README.md, "Goodness of fit" (em_gof). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "tests/em_problem_util.h"
#include "num/em_rational.h"
#include "stat_util.h"

#define MAXN 8

static const char *em_variant_name_local(int v)
{
    return v == EM_MONOTONE ? "monotone" : "standard";
}

typedef struct scen {
    const char *name;
    size_t n;
    const char *u[MAXN];
    int variant;
    int pf; /* permute-and-flip (variant: the factor of its acceptance exponent) */
} scen;

static int load(const scen *s, mpq_t *u, unsigned char *ex)
{
    for (size_t i = 0; i < s->n; i++) {
        int kind;
        if (em_q_parse_str(s->u[i], 1, u[i], &kind, NULL) != EM_OK)
            return EM_ERR_PARSE;
        ex[i] = kind == EM_Q_NEG_INF;
    }
    return EM_OK;
}

/* n_draws from the exact sampler with the given variant, counts in hits. */
static int draw(size_t n, mpq_t *u, const unsigned char *ex, int variant, int pf,
                uint64_t seed, uint64_t n_draws, uint64_t *hits, double *bits_per_draw)
{
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    em_exact *x = NULL;
    em_pf *y = NULL;
    int st = pf ? tp_pf_new(n, u, ex, one, one, variant, &y)
                : tp_exact_new(n, u, ex, one, one, variant, &x);
    mpq_clear(one);
    if (st != EM_OK)
        return st;
    em_rng rng;
    em_bits b;
    st = em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){seed}, 1);
    em_bits_init_rng(&b, &rng);
    for (size_t i = 0; i < n; i++)
        hits[i] = 0;
    for (uint64_t d = 0; st == EM_OK && d < n_draws; d++) {
        size_t r;
        st = pf ? em_pf_sample(y, &b, &r) : em_exact_sample(x, &b, &r);
        if (st == EM_OK)
            hits[r]++;
    }
    *bits_per_draw = (double)b.used / (double)n_draws;
    em_exact_free(x);
    em_pf_free(y);
    return st;
}

static void run(const scen *s, uint64_t seed, uint64_t n_draws, double alpha)
{
    mpq_t u[MAXN], one;
    unsigned char ex[MAXN];
    double p[MAXN], q[MAXN], logp[MAXN];
    uint64_t hits[MAXN];
    for (size_t i = 0; i < s->n; i++)
        mpq_init(u[i]);
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    printf("%s%s (%s), eps = 1, delta = 1, N = %" PRIu64 ", seed = %" PRIu64 ", alpha = %g\n",
           s->pf ? "permute-and-flip, " : "", s->name, em_variant_name_local(s->variant), n_draws, seed, alpha);
    int wrong = s->variant == EM_STANDARD ? EM_MONOTONE : EM_STANDARD;
    em_gof_result res;
    double bpd;
    int ok = load(s, u, ex) == EM_OK;
    if (ok && s->pf)
        ok = tp_pf_pmf(s->n, u, ex, one, one, s->variant, p, 0, NULL) == EM_OK &&
             tp_pf_pmf(s->n, u, ex, one, one, wrong, q, 0, NULL) == EM_OK;
    else if (ok)
        ok = tp_oracle_doubles(s->n, u, ex, one, one, s->variant, p, logp) == EM_OK &&
             tp_oracle_doubles(s->n, u, ex, one, one, wrong, q, logp) == EM_OK;
    if (!ok || draw(s->n, u, ex, s->variant, s->pf, seed, n_draws, hits, &bpd) != EM_OK ||
        em_gof_test(s->n, p, hits, alpha, 20.0, &res, NULL) != EM_OK) {
        em_st_verdict(0, "exact sampler: could not run");
        goto out;
    }
    printf("  %-5s %14s %14s %12s\n", "cell", "exact p", "expected", "observed");
    for (size_t i = 0; i < s->n; i++)
        printf("  %-5zu %14.6g %14.1f %12" PRIu64 "\n", i, p[i], p[i] * (double)n_draws,
               hits[i]);
    printf("  G = %.3f, df = %d, p = %.4g, tail p = %.3g, support %s, smallest detectable "
           "relative error = %.3g, random bits per draw = %.3f\n",
           res.g, res.df, res.p_value, res.tail_p, res.support_violation ? "VIOLATED" : "ok",
           res.min_rel_err, bpd);
    em_st_verdict(!res.reject, "exact sampler matches the exact distribution (G-test)");

    if (draw(s->n, u, ex, wrong, s->pf, seed, n_draws, hits, &bpd) != EM_OK ||
        em_gof_test(s->n, p, hits, alpha, 20.0, &res, NULL) != EM_OK) {
        em_st_verdict(0, "broken sampler: could not run");
        goto out;
    }
    double pw = em_st_power(s->n, p, q, (double)n_draws, res.df, alpha);
    printf("  broken sampler (%s weights): G = %.1f, p = %.3g, power at this N = %.6f\n",
           em_variant_name_local(wrong), res.g, res.p_value, pw);
    em_st_verdict(res.reject && pw >= 0.99,
                  "rejects the broken sampler (wrong factor 2 in the exponent), power >= 0.99");
out:
    for (size_t i = 0; i < s->n; i++)
        mpq_clear(u[i]);
    mpq_clear(one);
}

int main(int argc, char **argv)
{
    int full = argc > 1 && !strcmp(argv[1], "full");
    const double alpha = 1e-6;
    static const scen scens[] = {
        {"marital", 7, {"10.683", "14.976", "4.443", "0.418", "1.025", "0.023", "0.993"},
         EM_STANDARD, 0},
        {"marital", 7, {"10.683", "14.976", "4.443", "0.418", "1.025", "0.023", "0.993"},
         EM_MONOTONE, 0},
        {"ties, excluded, near-underflow", 6, {"2", "-inf", "2", "1.5", "-1500", "0"},
         EM_STANDARD, 0},
        {"marital", 7, {"10.683", "14.976", "4.443", "0.418", "1.025", "0.023", "0.993"},
         EM_STANDARD, 1},
        {"ties, excluded, near-underflow", 6, {"2", "-inf", "2", "1.5", "-1500", "0"},
         EM_STANDARD, 1},
    };
    for (size_t k = 0; k < sizeof scens / sizeof scens[0]; k++)
        run(&scens[k], 20261122 + k, 1000000, alpha);
    if (full) {
        em_rng os;
        uint64_t seed = 0;
        if (em_rng_init(&os, EM_RNG_OS, NULL, 0) != EM_OK || em_rng_u64(&os, &seed) != EM_OK)
            em_st_verdict(0, "OS random source for a fresh seed");
        else
            for (size_t k = 0; k < sizeof scens / sizeof scens[0]; k++)
                run(&scens[k], seed + k, 10000000, alpha);
    }
    return em_st_finish();
}
