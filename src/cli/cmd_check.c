/* cmd_check.c: `expmech check`: goodness of fit of another implementation's draws. */
#include <stdio.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech check --epsilon E [--sensitivity D] [--variant V] --samples SAMPLES\n"
    "                     [--alpha A] [--min-expected M] [FILE]\n"
    "\n"
    "Tests draws of another implementation (SAMPLES: one label or 0-based index per line;\n"
    "'-' for standard input; blank lines and '#' comments before the first draw skipped)\n"
    "against the exact distribution of the scenario FILE:\n"
    "  - G-test (likelihood ratio) with a chi-square p-value; cells pooled, smallest\n"
    "    expected first, until each expects >= M draws (default 20: the G-test keeps its\n"
    "    nominal level at alpha = 1e-6 there);\n"
    "  - support check: any draw of a probability-0 candidate (excluded, or below 2^-1075)\n"
    "    fails;\n"
    "  - one-sided exact binomial test of the pooled tail (cells expecting < M draws)\n"
    "    against over-representation;\n"
    "  - the power: the smallest relative error on the most probable cell that this number\n"
    "    of draws detects with probability 0.99 at level A (noncentral chi-square).\n"
    "Prints the per-cell table, the statistics and the verdict.\n"
    "\n"
    "A scenario with a measure column ('# measure: yes') is tested the same way against\n"
    "P(r) proportional to m_r exp(c u_r) (the weighted oracle's correctly rounded doubles).\n"
    "\n"
    "A continuous scenario ('# output: continuous'): SAMPLES has one number per line\n"
    "(decimal or hex float, e.g. %.17g; each read as the nearest double; nan and inf are\n"
    "draws to judge), tested against the exact law:\n"
    "  - 20 bins of equal exact probability, edges at the exact quantiles k/20 rounded to\n"
    "    doubles, plus the piece breakpoints (when the law has at most 20 pieces) where\n"
    "    both parts keep probability >= 1/80; each bin's exact probability recomputed at\n"
    "    the rounded edges; G-test over the bins as above;\n"
    "  - Kolmogorov-Smirnov D against the exact CDF, its p-value exact (Marsaglia-Tsang-\n"
    "    Wang), or below 1e-3 twice the exact one-sided tail (never below the exact\n"
    "    p-value), or for large N at moderate p Kolmogorov's limit with Stephens'\n"
    "    correction (printed '~', with the rigorous bound); the output names the method;\n"
    "  - support: a draw outside R (beyond its ends or in a gap between pieces, allowing\n"
    "    the rounding of the ends to doubles), or NaN, rejects.\n"
    "  The verdict rejects when any of G, the pooled tail or KS has p < A, or on support.\n"
    "\n"
    "  --epsilon E, --sensitivity D, --variant V   as for `expmech probs`; --variant pf\n"
    "                     tests against permute-and-flip's exact pmf, e.g. draws of\n"
    "                     `expmech sample --variant pf`\n"
    "  --samples SAMPLES  the draws (required)\n"
    "  --samples-are labels|indices\n"
    "                     what a finite scenario's draws are; without it a draw is a label,\n"
    "                     or a 0-based index when it is digits and no label, and a draw that\n"
    "                     is the label of one candidate and the index of another is refused\n"
    "                     as ambiguous\n"
    "  --force            run a --sensitivity below the file's header, or --variant monotone\n"
    "                     without '# monotone: yes' (refused otherwise: not epsilon-DP)\n"
    "  --alpha A          significance level of each test (default 1e-6)\n"
    "  --min-expected M   minimum expected draws per pooled cell (default 20)\n"
    "\n"
    "Too little data: when every draw falls in one pooled cell (no cell but one expects M\n"
    "draws), nothing can pass: the exact binomial tail of each candidate (each bin)\n"
    "P(Bin(N, p) >= k), at level A / (candidates), still rejects counts impossible at A\n"
    "(10 draws all of a candidate of probability 5e-4: p = 9.8e-34); otherwise the verdict\n"
    "is INSUFFICIENT DATA, exit 4.\n"
    "\n"
    "Exit status: 0 pass, 1 reject, 2 bad input, 3 internal failure (a write error\n"
    "included), 4 insufficient data (never a pass).\n";

int cmd_check(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech check");
    em_scn *s = NULL;
    em_mech *m = NULL;
    em_check_result *r = NULL;
    int rc = em_cli_mech_start(&c, argc, argv,
                               EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT |
                                   EM_OPT_SAMPLES | EM_OPT_ALPHA | EM_OPT_MIN_EXPECTED |
                                   EM_OPT_FILE,
                               EM_OPT_EPSILON | EM_OPT_SAMPLES, help, &s, &m);
    if (rc < 0 && (c.seen & EM_OPT_SAMPLES_ARE) && em_scn_get(s).continuous) {
        /* an option that does not apply is an error, not ignored */
        fprintf(stderr, "%s: --samples-are: a continuous scenario's draws are numbers, neither "
                        "labels nor indices; leave the option out\n", c.cmd);
        rc = EM_EXIT_USAGE;
    }
    if (rc < 0) {
        em_check_opts o = {c.alpha, c.min_expected, 0};
        em_error e;
        em_cli_stdin_hint(c.cmd, c.samples, "the input");
        em_draws d = EM_DRAWS_INIT;
        d.path = c.samples ? c.samples : "-";
        d.samples_are = c.samples_are;
        if (em_draws_check(m, &d, &o, &r, &e) != EM_OK)
            rc = em_cli_fail(c.cmd, NULL, &e);
    }
    em_error e;
    if (rc < 0)
        rc = em_cli_written(c.cmd, em_check_result_write(stdout, r, m, NULL, &e), &e);
    if (rc < 0 && r->verdict == EM_VERDICT_INSUFFICIENT)
        fprintf(stderr, "%s: insufficient data: not a pass (exit %d)\n", c.cmd,
                EM_EXIT_INSUFFICIENT);
    if (rc < 0)
        rc = r->verdict == EM_VERDICT_REJECT         ? EM_EXIT_REJECT
             : r->verdict == EM_VERDICT_INSUFFICIENT ? EM_EXIT_INSUFFICIENT
                                                     : EM_EXIT_OK;
    em_check_result_free(r);
    em_mech_free(m);
    em_scn_free(s);
    em_cli_free(&c);
    return rc;
}
