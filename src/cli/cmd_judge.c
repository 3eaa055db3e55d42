/* cmd_judge.c: `expmech check` and `expmech compare`: another implementation's draws or
 * probabilities judged against the exact law (em_draws_check, em_compare), the verdict as
 * the exit status. */
#include "cli/cli_util.h"

/* The draws judged against the law of m (em_draws_check), the table written, the verdict as
 * the exit status. */
static int check(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    if ((c->seen & EM_OPT(EO_SAMPLES_ARE)) && em_scn_get(s).continuous)
        /* an option that does not apply is an error, not ignored */
        return em_cli_usage(c->cmd, "--samples-are: a continuous scenario's draws are numbers, "
                                    "neither labels nor indices; leave the option out");
    em_check_opts o = {c->alpha, c->min_expected, 0};
    em_error e;
    em_cli_stdin_hint(c->cmd, c->samples, "the input");
    em_draws d = EM_DRAWS_INIT;
    d.path = c->samples ? c->samples : "-";
    d.samples_are = c->samples_are;
    em_check_result *r = NULL;
    int rc = em_draws_check(m, &d, &o, &r, &e) != EM_OK
                 ? em_cli_fail(c->cmd, NULL, &e)
                 : em_cli_written(c->cmd, em_write(r, stdout, NULL, &e), &e);
    if (rc < 0 && r->verdict == EM_VERDICT_INSUFFICIENT)
        fprintf(stderr, "%s: insufficient data: not a pass (exit %d)\n", c->cmd,
                EM_EXIT_INSUFFICIENT);
    if (rc < 0)
        rc = r->verdict == EM_VERDICT_REJECT         ? EM_EXIT_REJECT
             : r->verdict == EM_VERDICT_INSUFFICIENT ? EM_EXIT_INSUFFICIENT
                                                     : EM_EXIT_OK;
    em_free(r);
    return rc;
}

const em_cli_cmd cmd_check = {EM_OPT_MECH | EM_OPT(EO_SAMPLES) | EM_OPT(EO_ALPHA) |
                                  EM_OPT(EO_MIN_EXPECTED) | EM_OPT(EO_FILE),
                              EM_OPT(EO_SAMPLES), .run = check, .one_epsilon = 1};

/* The probabilities or CDF table judged against the law of m (em_compare), the table
 * written, the verdict as the exit status. */
static int compare(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    if (em_scn_get(s).continuous != !!c->cdf)
        return em_cli_usage(c->cmd, "%s",
                            c->cdf ? "--cdf needs a continuous scenario ('# output: continuous')"
                                   : "a continuous scenario is compared with --cdf TABLE, not "
                                     "--probs");
    const char *in2 = c->probs ? c->probs : c->cdf;
    em_compare_opts o = {c->rtol, c->atol};
    em_error e;
    em_cli_stdin_hint(c->cmd, in2, "the input");
    em_compare_result *r = NULL;
    int rc = em_compare(m, NULL, 0, in2, &o, &r, &e) != EM_OK
                 ? em_cli_fail(c->cmd, NULL, &e)
                 : em_cli_written(c->cmd, em_write(r, stdout, NULL, &e), &e);
    if (rc < 0)
        rc = r->passed ? EM_EXIT_OK : EM_EXIT_REJECT;
    em_free(r);
    return rc;
}

static int one_input(em_cli *c)
{
    if (!(c->seen & EM_OPT(EO_PROBS)) == !(c->seen & EM_OPT(EO_CDF)))
        return em_cli_usage(c->cmd, "give exactly one of --probs PROBS and --cdf TABLE (see --help)");
    const char *in2 = c->probs ? c->probs : c->cdf;
    if (!strcmp(in2, "-") && (!c->file || !strcmp(c->file, "-")))
        return em_cli_usage(c->cmd, "the scenario and the %s cannot both come from standard input",
                            c->probs ? "probabilities" : "CDF table");
    return -1;
}

const em_cli_cmd cmd_compare = {EM_OPT_MECH | EM_OPT(EO_PROBS) | EM_OPT(EO_CDF) | EM_OPT(EO_RTOL) |
                                    EM_OPT(EO_ATOL) | EM_OPT(EO_FILE),
                                .check = one_input, .run = compare, .one_epsilon = 1};
