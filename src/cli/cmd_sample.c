/* cmd_sample.c: `expmech sample`: exact draws (src/oracle/em_exact_*.c, the default) or
 * draws from the verified core's float sampler (--sampler float). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech sample (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                      [--variant V] [-n N] [--seed S] [--sampler exact|float] [FILE]\n"
    "\n"
    "Draws N labels (default 1), one per line, from the exponential mechanism over the\n"
    "scenario FILE ('-' or none: standard input).\n"
    "--sampler exact (the default): exact sampling from the exact rational inputs, the\n"
    "uniform drawn bit by bit until MPFR interval bounds place it inside one cell of the\n"
    "cumulative distribution (the decision em_exact_select is proven by WP): given fair\n"
    "bits, exactly the ideal distribution (spec/ExactSampling.md).\n"
    "--sampler float: the verified core's fast path on doubles (em_logweights,\n"
    "em_weights_fixed, em_sample_fixed: rejection sampling, never modulo); its\n"
    "distribution differs from the ideal by rounding.\n"
    "WARNING: the float sampler can break pure epsilon-DP: a weight that rounds to 0 on\n"
    "one neighbour and not on the other gives an infinite privacy loss (`expmech audit`\n"
    "shows it).  Use it for speed comparisons, not for releases.\n"
    "\n"
    "  --epsilon E        privacy parameter, > 0 (required; a sweep: below)\n"
    "  --sensitivity D    sensitivity (default: the file's header, else 1)\n"
    "  --variant V        standard (default), monotone (needs '# monotone: yes'), or pf:\n"
    "                     permute-and-flip (exact sampler only; spec/PermuteAndFlip.md)\n"
    "  --sampler S        exact (default) or float (not pure epsilon-DP: see above)\n"
    "  --timing T         variable (default) or fixed: the exact sampler of a finite\n"
    "                     scenario does the same work on every draw (SECURITY.md)\n"
    "  --force            run a refused --sensitivity or --variant (not epsilon-DP)\n"
    "  -n N               number of draws (default 1)\n"
    "  --seed S           reproducible draws from ChaCha20 keyed by S (decimal or 0x hex);\n"
    "                     without it, the operating system's CSPRNG, as privacy requires\n"
    "\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,value', then N draws per epsilon (with --seed: each\n"
    "epsilon's draws those of --epsilon E alone).\n"
    "At most 2^25 candidates (EXPMECH_MAX_CANDIDATES=N, 1 to 2^30, sets another);\n"
    "about 55 to 85 bytes per candidate.  Standard error names the variant and\n"
    "sensitivity used and where each came from.\n"
    "Exit status: 0 success, 2 bad input, 3 random source or memory failure, or a write\n"
    "error on standard output (sampling stops at the first failed write).\n";

static int draw_all(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    const em_sample_opts so = {c->seed, (c->seen & EM_OPT_SEED) != 0,
                               c->sampler ? EM_SAMPLER_FLOAT : EM_SAMPLER_EXACT,
                               c->timing ? EM_TIMING_FIXED : EM_TIMING_VARIABLE};
    const em_sample_opts *o = &so;
    const int law = em_scn_get(s).continuous || em_scn_get(s).has_measure;
    em_error e;
    em_sampler *sp;
    if (em_sampler_new(m, o, &sp, &e) != EM_OK)
        return em_cli_fail(c->cmd, NULL, &e);
    if (c->seen & EM_OPT_SEED)
        fprintf(stderr, "%s: --seed %llu: the draws are reproducible by anyone who knows the "
                        "seed (for tests); leave --seed out for private output\n",
                c->cmd, (unsigned long long)c->seed);
    const em_write_opts w = em_cli_write_opts(c);
    uint64_t done = 0;
    int rc = em_sample_write(stdout, sp, c->n, &w, &done, &e) == EM_OK ? -1 : 0;
    if (!rc && ferror(stdout)) { /* the first failed write: drawing on would be wasted */
        if (law)
            fprintf(stderr, "%s: write error on standard output\n", c->cmd);
        else
            fprintf(stderr, "%s: write error on standard output after %llu draw(s); "
                            "stopped\n", c->cmd, (unsigned long long)done);
        rc = EM_EXIT_INTERNAL;
    } else if (!rc) {
        char what[64];
        snprintf(what, sizeof what, "draw %llu", (unsigned long long)done + law);
        rc = em_cli_fail(c->cmd, what, &e);
    }
    em_sampler_free(sp);
    return rc < 0 ? em_cli_flush(c->cmd, 0) : rc;
}

int cmd_sample(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech sample");
    int rc = em_cli_begin(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_N |
                              EM_OPT_SEED | EM_OPT_FILE | EM_OPT_SAMPLER,
                          EM_OPT_EPSILON, help);
    if (rc >= 0) {
        em_cli_free(&c);
        return rc;
    }
    if (c.sampler)
        fprintf(stderr, "expmech sample: --sampler float: the float path can break pure "
                        "epsilon-DP (weights that round to 0 on one neighbour only: infinite "
                        "privacy loss, see `expmech audit`); the exact sampler (the default) "
                        "does not\n");
    return em_cli_run(&c, draw_all, NULL);
}
