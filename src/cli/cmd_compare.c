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
    "scenario FILE.  PROBS ('-' for standard input) has one number per line in the\n"
    "scenario's order, or 'label,probability' lines in any order, or `expmech probs`' own\n"
    "output: its CSV 'label,probability,log_probability' or its JSON (--format json; an\n"
    "object with a \"candidates\" array of {\"label\", \"probability\"}); numbers are read\n"
    "exactly (decimal, 0x hex float), and nan, inf, -inf are accepted as values to judge.\n"
    "A log-probability given (the CSV's third column, JSON's \"log_probability\") is judged\n"
    "too, within max(R |log P|, 2^-52).\n"
    "Reports the largest absolute and relative errors, the largest error in ulps of\n"
    "double (ulp at the exact value, subnormals included), zeros given where the exact\n"
    "probability is positive (underflow; those a double could have represented are\n"
    "counted apart), NaNs, infinities, negative values and values above 1, and the sum.\n"
    "\n"
    "  --epsilon E, --sensitivity D, --variant V   as for `expmech probs`; --variant pf\n"
    "                     judges against permute-and-flip's exact pmf\n"
    "  --probs PROBS      the probabilities to judge (required)\n"
    "  --rtol R           a value fails when |given - exact| > max(R * exact, A)\n"
    "                     (default 1e-9)\n"
    "  --atol A           the absolute floor of that tolerance (default 2^-1074, the\n"
    "                     smallest subnormal double)\n"
    "\n"
    "A scenario with a measure column is judged against P(r) ~ m_r exp(c u_r) (the\n"
    "weighted oracle, 40 digits).  A continuous scenario takes --cdf TABLE instead of\n"
    "--probs: lines 'x,cdf' (x exact: decimal, hex float or a/b; cdf a number, or nan /\n"
    "inf as values to judge), each value compared with the exact F(x) = P(X <= x) (MPFR,\n"
    "256 bits): the largest absolute error and where, the largest relative error, the\n"
    "largest error relative to the upper tail 1 - F, values outside [0, 1], NaN and\n"
    "infinities, and the points where the given values decrease while x increases.  A\n"
    "value fails when |given - F(x)| > max(R * F(x), A), or is NaN, infinite or outside\n"
    "[0, 1].\n"
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
