/* cmd_sample.c: `expmech sample`: draws from the verified core's sampler. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/scenario.h"
#include "expmech.h"
#include "oracle/em_rational.h"

static const char help[] =
    "usage: expmech sample --epsilon E [--sensitivity D] [--variant V] [-n N] [--seed S]\n"
    "                      [FILE]\n"
    "\n"
    "Draws N labels (default 1), one per line, from the exponential mechanism over the\n"
    "scenario FILE ('-' or none: standard input), using the verified core: utilities, E\n"
    "and D rounded to the nearest doubles, max-shifted log-weights (em_logweights),\n"
    "fixed-point weights (em_weights_fixed) and an exact integer draw among them\n"
    "(em_sample_fixed, rejection sampling, never modulo).\n"
    "\n"
    "  --epsilon E        privacy parameter, > 0 (required)\n"
    "  --sensitivity D    sensitivity (default: the file's header, else 1)\n"
    "  --variant V        standard (default) or monotone\n"
    "  -n N               number of draws (default 1)\n"
    "  --seed S           reproducible draws from ChaCha20 keyed by S (an integer, decimal\n"
    "                     or 0x hex); without it, the operating system's CSPRNG\n"
    "                     (getrandom), as privacy requires\n"
    "\n"
    "Exit status: 0 success, 2 bad input, 3 random source or memory failure.\n";

int cmd_sample(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech sample");
    em_scenario sc;
    em_scenario_init(&sc);
    mpq_t delta;
    mpq_init(delta);
    double *lw = NULL;
    uint64_t *W = NULL;
    int variant;
    int rc = em_cli_parse(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_N |
                              EM_OPT_SEED | EM_OPT_FILE,
                          help);
    if (rc < 0)
        rc = em_cli_require(&c, EM_OPT_EPSILON);
    if (rc < 0)
        rc = em_cli_scenario(&c, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    for (size_t i = 0; i < sc.n; i++)
        if (!sc.excluded[i] && isinf(sc.ud[i])) {
            fprintf(stderr, "%s: %s:%lu: utility of '%s' is beyond double's range; the float "
                            "sampler cannot take it (expmech probs can)\n",
                    c.cmd, sc.name, sc.line[i], sc.labels[i]);
            rc = EM_EXIT_USAGE;
            goto done;
        }
    double eps = em_q_get_d(c.eps, NULL), del = em_q_get_d(delta, NULL);
    int st = em_check_params(eps, del, variant);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s (as doubles: epsilon %g, sensitivity %g)\n", c.cmd,
                em_strerror(st), eps, del);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    lw = malloc(sc.n * sizeof *lw);
    W = malloc(sc.n * sizeof *W);
    if (!lw || !W) {
        fprintf(stderr, "%s: out of memory\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    size_t argmax;
    uint64_t total, scale;
    st = em_logweights(sc.n, sc.ud, eps, del, variant, lw, &argmax);
    if (st == EM_OK)
        st = em_weights_fixed(sc.n, lw, W, &total, &scale);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c.cmd, em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }
    em_rng rng;
    st = (c.seen & EM_OPT_SEED) ? em_rng_init_chacha(&rng, c.seed) : em_rng_init_os(&rng);
    if (st != EM_OK) {
        fprintf(stderr, "%s: random source: %s\n", c.cmd, em_strerror(st));
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    for (uint64_t k = 0; k < c.n; k++) {
        size_t idx;
        st = em_sample_fixed(sc.n, W, total, &rng, &idx);
        if (st != EM_OK) {
            fprintf(stderr, "%s: draw %llu: %s\n", c.cmd, (unsigned long long)k, em_strerror(st));
            rc = em_cli_status_exit(st);
            goto done;
        }
        em_csv_label(stdout, sc.labels[idx]);
        putchar('\n');
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    rc = EM_EXIT_OK;
done:
    free(lw);
    free(W);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}
