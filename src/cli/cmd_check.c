/* cmd_check.c: `expmech check`: goodness of fit of another implementation's draws. */
#include "cli/cli_util.h"
#include "cli_help.h"

/* The draws judged against the law of m (em_draws_check), the table written, the verdict as
 * the exit status. */
static int judge(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
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

int cmd_check(int argc, char **argv)
{
    em_cli c;
    int rc = em_cli_begin(&c, "expmech check", argc, argv,
                          EM_OPT_MECH | EM_OPT(EO_SAMPLES) | EM_OPT(EO_ALPHA) |
                              EM_OPT(EO_MIN_EXPECTED) | EM_OPT(EO_FILE),
                          EM_OPT(EO_EPSILON) | EM_OPT(EO_SAMPLES), EM_HELP_check);
    return em_cli_judge(&c, rc, judge);
}
