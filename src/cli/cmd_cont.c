/* cmd_cont.c: the commands over continuous laws (em_law.h): `expmech cdf`, `density`,
 * `quantile`, and `utility` (any scenario).  Parsing and formatting only; every number
 * comes from the library. */
#include "cli/cli_util.h"

/* The points of --at X[,X...], --grid LO:HI:N or cdf's --between A:B[,...] written at m. */
static int run_points(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    const int between = (c->seen & EM_OPT(EO_BETWEEN)) != 0;
    const int kind = between ? EM_LAW_INTERVAL : *(const int *)ctx;
    if (between && (c->seen & (EM_OPT(EO_AT) | EM_OPT(EO_GRID))))
        return em_cli_usage(c->cmd, "--between goes without --at and --grid");
    if (!em_scn_get(s).continuous)
        return em_cli_usage(c->cmd, "%s is a finite scenario; %s needs a continuous one%s",
                            em_scn_get(s).name, between ? "cdf" : c->cmd + 8,
                            between ? "" : " (header '# output: continuous')");
    if (!between && !(c->seen & EM_OPT(EO_AT)) == !(c->seen & EM_OPT(EO_GRID)))
        return em_cli_usage(c->cmd, "give exactly one of --at X[,X...] and --grid LO:HI:N");
    const char *at = between ? c->between : (c->seen & EM_OPT(EO_AT)) ? c->at : NULL;
    em_write_opts o = em_cli_write_opts(c);
    em_points *P = NULL;
    em_error e;
    o.law = kind;
    int rc = em_points_parse(kind, at, at ? NULL : c->grid, &P, &e) != EM_OK
                 ? em_cli_fail(c->cmd, NULL, &e)
                 : (o.points = P, em_cli_written(c->cmd, em_write(m, stdout, &o, &e), &e));
    em_free(P);
    return rc < 0 ? em_cli_flush(c->cmd, 1) : rc;
}

#define POINTS EM_OPT_MECH | EM_OPT(EO_DIGITS) | EM_OPT(EO_AT) | EM_OPT(EO_GRID) | EM_OPT(EO_FILE)
static const int kinds[] = {EM_LAW_CDF, EM_LAW_DENSITY, EM_LAW_QUANTILE};
const em_cli_cmd cmd_cdf = {POINTS | EM_OPT(EO_BETWEEN), .run = run_points, .ctx = &kinds[0]};
const em_cli_cmd cmd_density = {POINTS, .run = run_points, .ctx = &kinds[1]};
const em_cli_cmd cmd_quantile = {POINTS, .run = run_points, .ctx = &kinds[2]};

/* ----------------------------------------------------------------- utility */

/* --loss-at's thresholds into T (none: *T NULL), each >= 0: -1 or an exit status */
static int loss_points(const em_cli *c, em_points **T)
{
    *T = NULL;
    int rc = -1;
    em_error e;
    if ((c->seen & EM_OPT(EO_AT)) && em_points_parse(EM_LAW_CDF, c->at, NULL, T, &e) != EM_OK) {
        /* the library names the points 'at'; here they are --loss-at's thresholds */
        if (!strncmp(e.msg, "at: ", 4))
            memmove(e.msg, e.msg + 4, strlen(e.msg + 4) + 1);
        return em_cli_fail(c->cmd, "--loss-at", &e);
    }
    for (size_t i = 0; *T && i < (*T)->n && rc < 0; i++) {
        int sign;
        em_num_cmp((*T)->at[i], "0", &sign, NULL);
        if (sign < 0)
            rc = em_cli_usage(c->cmd, "--loss-at: a loss threshold must be >= 0 ('%s')",
                              (*T)->at[i]);
    }
    if (rc < 0 && (c->seen & EM_OPT(EO_SEED)) && !(c->seen & EM_OPT(EO_MC)))
        rc = em_cli_usage(c->cmd, "--seed goes with --mc N");
    return rc;
}

static int report(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx, (void)s;
    em_points *T;
    int rc = loss_points(c, &T);
    em_sample_opts mc = {c->seed, (c->seen & EM_OPT(EO_SEED)) != 0, EM_SAMPLER_EXACT,
                         EM_TIMING_VARIABLE};
    const em_write_opts o = em_cli_write_opts(c);
    const em_utility_opts uo = {T ? T->n : 0, T ? T->at : NULL,
                                (c->seen & EM_OPT(EO_MC)) ? c->mc : 0, &mc};
    em_utility_result *r = NULL;
    em_error e;
    if (rc < 0) {
        int st = em_utility(m, &uo, &r, &e);
        rc = em_cli_written(c->cmd, st != EM_OK ? st : em_write(r, stdout, &o, &e), &e);
    }
    em_free(r);
    em_free(T);
    return rc < 0 ? em_cli_flush(c->cmd, 1) : rc;
}

const em_cli_cmd cmd_utility = {EM_OPT_MECH | EM_OPT(EO_DIGITS) | EM_OPT(EO_AT) |
                                     EM_OPT(EO_FILE) | EM_OPT(EO_FORMAT) | EM_OPT(EO_MC) |
                                     EM_OPT(EO_SEED),
                                 .run = report};
