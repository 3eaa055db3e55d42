/* cmd_compare.c: `expmech compare`: another implementation's probabilities vs the exact ones. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech compare --epsilon E [--sensitivity D] [--variant V] --probs PROBS\n"
    "                       [--rtol R] [--atol A] [FILE]\n"
    "       expmech compare --epsilon E [--sensitivity D] [--variant V] --cdf TABLE\n"
    "                       [--rtol R] [--atol A] [FILE]\n"
    "\n"
    "Compares another implementation's probability vector with the exact one of the\n"
    "scenario FILE.  PROBS ('-' for standard input): one number per line in the\n"
    "scenario's order, 'label,probability' lines, or `expmech probs`' CSV or JSON (a\n"
    "log-probability given is judged too, within max(R |log P|, 2^-52)); numbers read\n"
    "exactly, nan and inf judged.  Reports the largest absolute, relative and ulp errors,\n"
    "zeros given for positive probabilities (underflow), NaNs, infinities, values outside\n"
    "[0, 1], and the sum.\n"
    "\n"
    "  --epsilon E, --sensitivity D, --variant V   as for `expmech probs`; --variant pf\n"
    "                     judges against permute-and-flip's exact pmf\n"
    "  --probs PROBS      the probabilities to judge (required)\n"
    "  --rtol R           a value fails when |given - exact| > max(R * exact, A)\n"
    "                     (default 1e-9)\n"
    "  --atol A           the absolute floor of that tolerance (default 2^-1074, the\n"
    "                     smallest subnormal double)\n"
    "\n"
    "A measure column: judged against P(r) ~ m_r exp(c u_r).  A continuous scenario takes\n"
    "--cdf TABLE instead: lines 'x,cdf' (x exact), each value compared with the exact\n"
    "F(x): the largest absolute, relative and upper-tail errors, values outside [0, 1],\n"
    "NaN, infinities, and decreasing values; a value fails when |given - F(x)| >\n"
    "max(R * F(x), A), or is NaN, infinite or outside [0, 1].\n"
    "\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 every value within tolerance, 1 otherwise (any NaN, infinity,\n"
    "negative value or value above 1 fails), 2 bad input, 3 internal failure.\n";

int cmd_compare(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech compare");
    em_scn *s = NULL;
    em_mech *m = NULL;
    em_compare_result *r = NULL;
    int rc = em_cli_begin(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_PROBS |
                              EM_OPT_CDF | EM_OPT_RTOL | EM_OPT_ATOL | EM_OPT_FILE,
                          EM_OPT_EPSILON, help);
    if (rc < 0 && !(c.seen & EM_OPT_PROBS) == !(c.seen & EM_OPT_CDF)) {
        fprintf(stderr, "%s: give exactly one of --probs PROBS and --cdf TABLE (see --help)\n",
                c.cmd);
        rc = EM_EXIT_USAGE;
    }
    const char *in2 = c.probs ? c.probs : c.cdf;
    if (rc < 0 && !strcmp(in2, "-") && (!c.file || !strcmp(c.file, "-"))) {
        fprintf(stderr, "%s: the scenario and the %s cannot both come from standard input\n",
                c.cmd, c.probs ? "probabilities" : "CDF table");
        rc = EM_EXIT_USAGE;
    }
    if (rc < 0)
        rc = em_cli_mech(&c, &s, &m);
    if (rc < 0 && em_scn_get(s).continuous != !!c.cdf) {
        fprintf(stderr, "%s: %s\n", c.cmd,
                c.cdf ? "--cdf needs a continuous scenario ('# output: continuous')"
                      : "a continuous scenario is compared with --cdf TABLE, not --probs");
        rc = EM_EXIT_USAGE;
    }
    if (rc < 0) {
        em_compare_opts o = {c.rtol, c.atol};
        em_error e;
        em_cli_stdin_hint(c.cmd, in2, "the input");
        int st = em_compare(m, NULL, 0, in2, &o, &r, &e);
        if (st != EM_OK)
            rc = em_cli_fail(c.cmd, NULL, &e);
    }
    em_error e;
    if (rc < 0)
        rc = em_cli_written(c.cmd, em_compare_result_write(stdout, r, m, NULL, &e), &e);
    if (rc < 0)
        rc = r->passed ? EM_EXIT_OK : EM_EXIT_REJECT;
    em_compare_result_free(r);
    em_mech_free(m);
    em_scn_free(s);
    em_cli_free(&c);
    return rc;
}
