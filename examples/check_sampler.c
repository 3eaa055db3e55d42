/* check_sampler.c: test your own exponential-mechanism sampler against expmech's exact law.
 *
 * The pattern another project copies into its test suite: describe the scenario (here a
 * median's candidates 100..106 scored by rank distance, u = -2 |rank distance|, sensitivity
 * 2: a score that is NOT monotone, since one more row moves some scores up and others
 * down), ask libexpmech for the exact probabilities, draw from your sampler with a fixed
 * seed, and let em_draws_check decide (a G-test with pooled cells, a tail test and
 * per-candidate binomial tests at alpha = 1e-6, with the smallest departure it detects).
 * `./check_sampler` tests a correct float sampler (exit 0: pass); `./check_sampler broken`
 * one with the classic bug, exp(eps u / delta) (exit 1: reject), and prints the diagnosis
 * the library makes of its draws: they fit exp(eps u / Delta), the factor 1/2 is missing.
 * (On count utilities, which are monotone, exp(eps u / Delta) is the proven monotone
 * variant, not a bug.)  What the bug costs in privacy: draw from your sampler on two
 * neighbouring datasets and give both to `expmech audit --samples-x X --samples-y Y`
 * (a Clopper-Pearson lower bound on the epsilon it really gives).  To test a whole
 * implementation on every hard case at once: `expmech conform` (conformance/README.md).
 *
 *   cc -std=c11 check_sampler.c $(pkg-config --cflags --libs expmech) -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expmech.h>

#define N 7
#define DRAWS 200000

/* the rank-distance scores of the candidates 100, ..., 106 */
static const double scores[N] = {-6, -4, -2, 0, -2, -4, -6};

/* Your sampler: anything that returns an index.  This one is the usual float recipe. */
static uint64_t state = 0x9e3779b97f4a7c15u; /* fixed seed: the test is reproducible */
static double uniform01(void)
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17; /* xorshift64 */
    return (double)(state >> 11) * 0x1p-53;
}

static size_t my_sampler(double eps, double delta, int broken)
{
    double w[N], total = 0, mx = scores[0];
    for (int i = 1; i < N; i++)
        mx = scores[i] > mx ? scores[i] : mx;
    for (int i = 0; i < N; i++)
        total += w[i] = exp(eps * (scores[i] - mx) / (broken ? delta : 2 * delta));
    double x = uniform01() * total;
    for (int i = 0; i < N - 1; i++)
        if ((x -= w[i]) < 0)
            return (size_t)i;
    return N - 1;
}

int main(int argc, char **argv)
{
    int broken = argc > 1 && !strcmp(argv[1], "broken");
    const char *u[N] = {"-6", "-4", "-2", "0", "-2", "-4", "-6"};
    em_error err;
    em_scn *s = NULL;
    em_mech *m = NULL;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = "0.5";
    o.sensitivity = "2";
    o.digits = 6;
    if (em_scn_new(&(em_scn_spec){.n = N, .utilities = u}, &s, &err) != EM_OK ||
        em_mech_new(s, &o, &m, &err) != EM_OK) {
        fprintf(stderr, "check_sampler: %s\n", err.msg);
        em_free(s);
        return 2;
    }
    for (size_t i = 0; i < N; i++) {
        em_prob p;
        if (em_probs_get(m, i, &p, &err) != EM_OK) {
            fprintf(stderr, "check_sampler: %s\n", err.msg);
            return 2;
        }
        printf("P(%zu) = %s\n", i, p.prob);
    }
    /* the draws as counts per candidate (em_draws takes draws, counts or a file) */
    uint64_t drawn[N] = {0};
    for (size_t k = 0; k < DRAWS; k++)
        drawn[my_sampler(0.5, 2, broken)]++;
    em_draws d = EM_DRAWS_INIT;
    d.counts = drawn;
    d.n = N;
    em_check_opts co = EM_CHECK_OPTS_INIT;
    em_check_result *r = NULL;
    int st = em_draws_check(m, &d, &co, &r, &err);
    if (st != EM_OK) {
        fprintf(stderr, "check_sampler: %s\n", err.msg);
        return 2;
    }
    static const char *verdict[] = {"pass", "reject", "insufficient", "undecided"};
    printf("%s sampler: %s (p = %.3g at alpha = %g; detects a relative error of %.3g)\n",
           broken ? "broken" : "float", verdict[r->verdict], r->p_value, r->alpha,
           r->min_detectable);
    if (r->diagnosis) /* on a reject: which known mistake's law the draws fit */
        printf("diagnosis: %s\n", r->diagnosis->sentence);
    int rc = r->verdict == EM_VERDICT_PASS ? 0 : 1;
    em_free(r);
    em_free(m);
    em_free(s);
    return rc;
}
