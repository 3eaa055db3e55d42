/* cmd_probs.c: `expmech probs`: exact, correctly rounded probabilities. */
#include <stdio.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech probs (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                     [--variant V] [--digits K] [--format csv|json] [FILE]\n"
    "\n"
    "Exact probabilities of the exponential mechanism over the scenario FILE (lines\n"
    "'label,utility'; '-' or no FILE: standard input): P(r) = exp(c u(r)) / sum exp(c u),\n"
    "c = E/(2D) (standard) or E/D (monotone).  Inputs are read as exact rationals\n"
    "(decimals, 0x hex floats, a/b fractions, -inf to exclude a candidate); every output is\n"
    "correctly rounded (round-to-nearest) to K significant digits (default 17), computed\n"
    "with MPFR interval bounds at rising precision until both bounds round alike.\n"
    "\n"
    "  --epsilon E        privacy parameter, exact, > 0 (required; a sweep: below)\n"
    "  --sensitivity D    sensitivity of the utility, > 0 (default: the file's\n"
    "                     '# sensitivity:' header, else 1)\n"
    "  --variant V        standard (default, also under '# monotone: yes'),\n"
    "                     monotone (needs that header), or pf: permute-and-flip (McKenna & Sheldon 2020;\n"
    "                     acceptance exp(E (u - u*) / (2 D)); its exact pmf\n"
    "                     P(r) = p_r integral_0^1 prod_{j!=r} (1 - p_j x) dx, by a\n"
    "                     certified quadrature in MPFR interval arithmetic, at most\n"
    "                     10^7 candidates; spec/PermuteAndFlip.md)\n"
    "  --digits K         significant digits, 1..1000 (default 17)\n"
    "  --format F         csv (default): 'label,probability,log_probability' per line;\n"
    "                     json: parameters and one object per candidate (numbers as strings)\n"
    "\n"
    "Conventions: 0 and 1 (log: -inf and 0) only when exact: an excluded candidate, or\n"
    "the only candidate left.  A probability below 1 whose rounding would be 1 prints as\n"
    "K nines (0.999...9); its log-probability gives the exact distance (e.g. -6.1e-933).\n"
    "Probabilities far below double's range print exactly (e.g. 9.9e-3248); those below\n"
    "MPFR's exponent range are computed from their logarithms (a note says so).\n"
    "With --variant pf, both columns are correctly rounded from the pmf's interval bounds\n"
    "(the log of both ends, rounded outwards); a log-probability that cannot be decided\n"
    "within 2^20 bits prints as nan, with a note (never an unproven number).\n"
    "Scale: at most 33554432 (2^25) candidates; past that the command stops while\n"
    "reading, exit status 2, with a message naming the limit.  EXPMECH_MAX_CANDIDATES=N\n"
    "(environment, 1 to 2^30) sets another.  Memory: about 55 bytes per candidate, 85\n"
    "with decimals of more than 18 digits (10^7 candidates: 0.55 to 0.87 GB).\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,label,probability,log_probability' (continuous:\n"
    "'epsilon,lo,hi,probability,log_probability').\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static int print_probs(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    const int law = em_scn_get(s).continuous || em_scn_get(s).has_measure;
    const em_write_opts o = em_cli_write_opts(c);
    em_probs_notes k;
    em_error e;
    int rc = em_cli_written(c->cmd, em_probs_write(stdout, m, &o, &k, &e), &e);
    if (rc >= 0)
        return rc;
    const size_t counts[3] = {k.near_one, k.from_log, k.undecided};
    if (counts[0])
        fprintf(stderr, "%s: note: %zu probability below 1 rounds to 1 at %d digits; printed as "
                        "0.99...9, the largest %d-digit decimal below 1 (see its log-probability)\n",
                c->cmd, counts[0], (int)c->digits, (int)c->digits);
    if (counts[1])
        fprintf(stderr, "%s: note: %zu value(s) lie below MPFR's exponent range; their decimals "
                        "were computed exactly from logarithms\n", c->cmd, counts[1]);
    if (counts[2])
        fprintf(stderr, "%s: note: %zu log-probability(ies) could not be decided within 2^20 bits "
                        "(or lie below MPFR's exponent range); printed as nan, not computed\n",
                c->cmd, counts[2]);
    return em_cli_flush(c->cmd, law);
}

int cmd_probs(int argc, char **argv)
{
    return em_cli_main("expmech probs", argc, argv,
                       EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                           EM_OPT_FORMAT | EM_OPT_FILE,
                       help, print_probs, NULL);
}
