/* expmech demo: the marital-status example of seed 000 (Adult data), run
   through the verified core: probabilities, log-probabilities and draws. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli_help.h"

#define NCAT 7 /* the marital-status categories of seed 000 */

typedef struct args {
    uint64_t draws, seed;
} args;

static const char *draws_ok(const void *v)
{
    return *(const uint64_t *)v > 1000000 ? "must be an integer in [0, 1000000]" : NULL;
}

static const em_cli_opt opts[] = {
    {"--draws", EM_CLI_U64, offsetof(args, draws), NULL, draws_ok, NULL, NULL},
    {"--seed", EM_CLI_U64, offsetof(args, seed), NULL, NULL, NULL, NULL},
    EM_CLI_END,
};

/* Seed 000's marital status with its raw counts (the example marital-raw), through the
 * public API: -1 with *s and count[] set, or an exit status after a message. */
static int marital(em_scn **s, long *count)
{
    char *text = NULL, *t = NULL;
    em_error e;
    int st = em_example("marital-raw", &text, &e);
    if (st == EM_OK)
        st = em_scn_parse(text, strlen(text), "marital-raw", s, &e);
    for (size_t i = 0; st == EM_OK && i < NCAT; i++, em_free(t), t = NULL)
        if ((st = em_scn_utility(*s, i, &t, &e)) == EM_OK)
            count[i] = strtol(t, NULL, 10);
    em_free(text);
    return st == EM_OK ? -1 : em_cli_fail("expmech demo", NULL, &e);
}

static int demo(const em_scn *sc, const long *count, uint64_t draws, uint64_t seed, int seeded)
{
    double u[NCAT], lw[NCAT], logp[NCAT], p[NCAT];
    uint64_t W[NCAT], total, scale;
    size_t argmax, hits[NCAT] = {0};
    for (size_t i = 0; i < NCAT; i++)
        u[i] = count[i] / 1000.0;
    const double eps = 1.0, delta = 1.0;

    int st = em_logweights(NCAT, u, eps, delta, EM_STANDARD, lw, &argmax);
    if (st == EM_OK)
        st = em_normalize(NCAT, lw, logp, p);
    if (st == EM_OK)
        st = em_weights_fixed(NCAT, lw, W, &total, &scale);
    if (st != EM_OK) {
        fprintf(stderr, "expmech demo: %s\n", em_strerror(st));
        return EM_EXIT_INTERNAL;
    }
    printf("Exponential mechanism, seed 000 marital status: u = count/1000, "
           "epsilon = 1, sensitivity = 1, standard variant\n"
           "float path: the verified core in double precision (exact values: "
           "expmech example marital | expmech probs --epsilon 1)\n\n");
    printf("%-22s %7s %10s %24s %22s\n", "category", "count", "utility", "float probability",
           "float log-prob.");
    for (size_t i = 0; i < NCAT; i++)
        printf("%-22s %7ld %10.3f %24.17g %22.17g\n", em_scn_label(sc, i), count[i], u[i], p[i], logp[i]);

    em_rng rng;
    st = em_rng_init(&rng, seeded ? EM_RNG_CHACHA : EM_RNG_OS, &seed, seeded ? 1 : 0);
    if (st != EM_OK) {
        fprintf(stderr, "expmech demo: %s\n", em_strerror(st));
        return EM_EXIT_INTERNAL;
    }
    printf("\n%llu draws (%s), float sampler:\n", (unsigned long long)draws,
           seeded ? "ChaCha20, explicit seed" : "operating-system CSPRNG");
    for (uint64_t d = 0; d < draws; d++) {
        size_t r;
        st = em_sample_fixed(NCAT, W, total, &rng, &r);
        if (st != EM_OK) {
            fprintf(stderr, "expmech demo: %s\n", em_strerror(st));
            return EM_EXIT_INTERNAL;
        }
        hits[r]++;
        if (d < 20)
            printf("  %s\n", em_scn_label(sc, r));
    }
    if (draws > 20) {
        printf("  ...\ncounts over all %llu draws:\n", (unsigned long long)draws);
        for (size_t i = 0; i < NCAT; i++)
            printf("  %-22s %zu\n", em_scn_label(sc, i), hits[i]);
    }
    return EM_EXIT_OK;
}

int cmd_demo(int argc, char **argv)
{
    const em_cli_spec sp = {.cmd = "expmech demo", .opts = opts, .help = EM_HELP_demo,
                            .see = "see expmech demo --help", .repeat = 1,
                            .needs = "%s: unknown or incomplete option '%s'\n"};
    args a = {10, 0};
    long count[NCAT];
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &a, &given);
    if (rc >= 0)
        return rc;
    em_scn *s = NULL;
    rc = marital(&s, count);
    if (rc < 0)
        rc = demo(s, count, a.draws, a.seed, (given & 2) != 0);
    em_free(s);
    return rc;
}
