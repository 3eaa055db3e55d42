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
    "\n"
    "--sampler exact (the default): exact sampling from the exact rational inputs: the\n"
    "uniform is drawn bit by bit and a label is output only when the bits drawn place it\n"
    "certainly inside one cell of the cumulative distribution, bounded by MPFR intervals\n"
    "(src/oracle/em_exact_*.c; the integer decision em_exact_select is proven by WP).  Given\n"
    "fair bits, the output distribution is exactly the ideal one (spec/ExactSampling.md).\n"
    "\n"
    "--sampler float: the verified core's fast path: utilities, E and D rounded to the\n"
    "nearest doubles, max-shifted log-weights (em_logweights), fixed-point weights\n"
    "(em_weights_fixed) and an exact integer draw among them (em_sample_fixed, rejection\n"
    "sampling, never modulo; for N > 1 the same cells found by binary search in their\n"
    "cumulative table, em_select_cumulative); its distribution differs from the ideal by\n"
    "rounding.\n"
    "WARNING: the float sampler can break pure epsilon-DP: a weight that rounds to 0 on\n"
    "one neighbour and not on the other gives an infinite privacy loss (`expmech audit`\n"
    "on utilities 0, -1490 vs 0, -1491 at epsilon 1, sensitivity 1 shows it).  Use it for\n"
    "speed comparisons, not for releases; a note on standard error says so each time.\n"
    "\n"
    "  --epsilon E        privacy parameter, > 0 (required; a sweep: below)\n"
    "  --sensitivity D    sensitivity (default: the file's header, else 1)\n"
    "  --variant V        standard (default, also under '# monotone: yes'), monotone\n"
    "                     (needs that header), or pf: permute-and-flip\n"
    "                     (McKenna & Sheldon 2020; acceptance exp(E (u - u*) / (2 D)),\n"
    "                     exact sampler only; spec/PermuteAndFlip.md)\n"
    "  --sampler S        exact (default) or float (not pure epsilon-DP: see above)\n"
    "  --timing T         variable (default) or fixed: the exact sampler of a finite\n"
    "                     scenario reads one 63-bit chunk and scans all n + 1 bounds on\n"
    "                     every draw, so its work does not depend on the output (the\n"
    "                     slow path runs with probability <= n 2^-60 per draw;\n"
    "                     SECURITY.md has the measured times)\n"
    "  --force            run a --sensitivity below the file's header, or --variant monotone\n"
    "                     without '# monotone: yes' (refused otherwise: not epsilon-DP)\n"
    "  -n N               number of draws (default 1)\n"
    "  --seed S           reproducible draws from ChaCha20 keyed by S (an integer, decimal\n"
    "                     or 0x hex); without it, the operating system's CSPRNG\n"
    "                     (getrandom), as privacy requires\n"
    "\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,value', then N draws per epsilon, each epsilon's draws\n"
    "those of `expmech sample --epsilon E` alone (with --seed: the same stream of S).\n"
    "\n"
    "Scale: at most 33554432 (2^25) candidates; past that the command stops while\n"
    "reading, exit status 2, with a message naming the limit.  EXPMECH_MAX_CANDIDATES=N\n"
    "(environment, 1 to 2^30) sets another.  Memory: about 55 bytes per candidate, 85\n"
    "with decimals of more than 18 digits (10^7 candidates: 0.55 to 0.87 GB).\n"
    "Standard error names the variant and sensitivity used and where each came from.\n"
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
