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
    "against the exact distribution of the scenario FILE (with a measure column: P(r)\n"
    "proportional to m_r exp(c u_r)): a G-test over cells pooled until each expects >= M\n"
    "draws; a support check (a draw of probability 0 fails); an exact one-sided binomial\n"
    "test of the pooled tail; and the power: the smallest relative error on the most\n"
    "probable cell these draws detect with probability 0.99 at level A.\n"
    "A continuous scenario: one number per line (each read as the nearest double),\n"
    "tested by a G-test over 20 bins of equal exact probability, Kolmogorov-Smirnov\n"
    "against the exact CDF (the method named in the output), and support (a draw outside\n"
    "R, or NaN, rejects).  Prints the table, the statistics and the verdict.\n"
    "\n"
    "  --epsilon E, --sensitivity D, --variant V   as for `expmech probs`; --variant pf\n"
    "                     tests against permute-and-flip's exact pmf\n"
    "  --samples SAMPLES  the draws (required)\n"
    "  --samples-are labels|indices\n"
    "                     what a finite scenario's draws are; without it a draw is a label,\n"
    "                     or an index when it is digits and no label (both: refused)\n"
    "  --force            run a --sensitivity below the file's header, or --variant monotone\n"
    "                     without '# monotone: yes' (refused otherwise: not epsilon-DP)\n"
    "  --alpha A          significance level of each test (default 1e-6)\n"
    "  --min-expected M   minimum expected draws per pooled cell (default 20)\n"
    "\n"
    "Too little data (one pooled cell): the exact binomial tail of each candidate, at\n"
    "level A / (candidates), still rejects counts impossible at A; otherwise the verdict\n"
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
