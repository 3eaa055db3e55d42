/* cmd_cont.c: the commands over continuous laws (em_law.h): `expmech cdf`, `density`,
 * `quantile`, and `utility` (any scenario).  Parsing and formatting only; every number
 * comes from the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

/* --at X[,X...], --grid LO:HI:N or --between A:B[,...] into *P; -1 or an exit status */
static int get_points(const em_cli *c, int kind, em_points **P)
{
    em_error e;
    *P = NULL;
    if (kind != EM_LAW_INTERVAL && !!(c->seen & EM_OPT_AT) == !!(c->seen & EM_OPT_GRID)) {
        fprintf(stderr, "%s: give exactly one of --at X[,X...] and --grid LO:HI:N\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    const char *at = kind == EM_LAW_INTERVAL ? c->between : (c->seen & EM_OPT_AT) ? c->at : NULL;
    if (em_points_parse(kind, at, at ? NULL : c->grid, P, &e) == EM_OK)
        return -1;
    return em_cli_fail(c->cmd, NULL, &e);
}

/* ------------------------------------------------------------ cdf/density/quantile */

static const char help_cdf[] =
    "usage: expmech cdf (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                   [--variant V] [--digits K]\n"
    "                   (--at X[,X...] | --grid LO:HI:N | --between A:B[,A:B...]) [FILE]\n"
    "\n"
    "The exact F(x) = P(X <= x) over a continuous scenario (header '# output: continuous',\n"
    "pieces 'lo,hi,a[,b]': utility a + b r on [lo, hi]), as 'x,cdf' lines correctly rounded\n"
    "to K significant digits (default 17; an exact tie half to even).  x as given (--at),\n"
    "or the grid point LO + i (HI - LO)/(N - 1) (exact up to 20 digits, else rounded to K).\n"
    "--between A:B: 'a,b,probability', P(A < X <= B) rounded as one exact number.\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,x,cdf' (--between: 'epsilon,a,b,probability').\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static const char help_density[] =
    "usage: expmech density (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                       [--variant V] [--digits K]\n"
    "                       (--at X[,X...] | --grid LO:HI:N) [FILE]\n"
    "\n"
    "The exact density of a continuous scenario (expmech cdf --help) as 'x,density,\n"
    "log_density', rounded to K digits; right-continuous, 0 (log -inf) outside R.\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,x,density,log_density'.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static const char help_quantile[] =
    "usage: expmech quantile (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                        [--variant V] [--digits K]\n"
    "                        (--at P[,P...] | --grid LO:HI:N) [FILE]\n"
    "\n"
    "The exact Q(p) = inf { x : F(x) >= p } of a continuous scenario (expmech cdf --help)\n"
    "as 'p,x', x correctly rounded to K digits; Q(0), Q(1) the ends of R (maybe infinite).\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,p,x'.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input (p outside [0, 1]), 3 internal failure.\n";

/* cdf --between A:B[,A:B...] */
static int run_points(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    int kind = *(const int *)ctx;
    if ((c->seen & EM_OPT_BETWEEN) && (c->seen & (EM_OPT_AT | EM_OPT_GRID))) {
        fprintf(stderr, "%s: --between goes without --at and --grid\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    kind = c->seen & EM_OPT_BETWEEN ? EM_LAW_INTERVAL : kind;
    if (!em_scn_get(s).continuous) {
        fprintf(stderr, "%s: %s is a finite scenario; %s needs a continuous one%s\n", c->cmd,
                em_scn_get(s).name, kind == EM_LAW_INTERVAL ? "cdf" : c->cmd + 8,
                kind == EM_LAW_INTERVAL ? "" : " (header '# output: continuous')");
        return EM_EXIT_USAGE;
    }
    em_points *P;
    int rc = get_points(c, kind, &P);
    if (rc < 0) {
        const em_write_opts o = em_cli_write_opts(c);
        em_error e;
        rc = em_cli_written(c->cmd, em_law_points_write(stdout, m, kind, P, &o, &e), &e);
    }
    em_free(P);
    return rc < 0 ? em_cli_flush(c->cmd, 1) : rc;
}

static int run_pointwise(int argc, char **argv, int kind)
{
    const char *name = kind == EM_LAW_CDF       ? "expmech cdf"
                       : kind == EM_LAW_DENSITY ? "expmech density"
                                                : "expmech quantile";
    const char *help = kind == EM_LAW_CDF       ? help_cdf
                       : kind == EM_LAW_DENSITY ? help_density
                                                : help_quantile;
    return em_cli_main(name, argc, argv,
                       EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                           EM_OPT_AT | EM_OPT_GRID | EM_OPT_FILE |
                           (kind == EM_LAW_CDF ? EM_OPT_BETWEEN : 0),
                       help, run_points, &kind);
}

int cmd_cdf(int argc, char **argv) { return run_pointwise(argc, argv, EM_LAW_CDF); }
int cmd_density(int argc, char **argv) { return run_pointwise(argc, argv, EM_LAW_DENSITY); }
int cmd_quantile(int argc, char **argv) { return run_pointwise(argc, argv, EM_LAW_QUANTILE); }

/* ----------------------------------------------------------------- utility */

static const char help_utility[] =
    "usage: expmech utility (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                       [--variant V] [--digits K] [--loss-at T[,T...]]\n"
    "                       [--format csv|json] [--mc N [--seed S]] [FILE]\n"
    "\n"
    "The exact utility report over the scenario FILE (finite, with a measure column, or\n"
    "continuous; standard, monotone or pf), correctly rounded to K digits.  CSV: a header\n"
    "  epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,expected_loss_bound\n"
    "  [,p_loss_gt_T,bound_p_loss_gt_T...][,mc_n,mc_expected_loss,mc_se]\n"
    "and one row: opt = max u of positive probability, expected_loss = opt - E[u], p_best\n"
    "= P(u = opt), p_loss_gt_T = P(opt - u > T); the accuracy theorem's bounds (empty for\n"
    "a continuous scenario) (ln ratio + 1)/c and min(1, ratio exp(-c T)), c = E/(2D)\n"
    "(standard, pf) or E/D (monotone), ratio = |R|/|R_OPT|.\n"
    "  --loss-at T[,...]  the thresholds T (each >= 0)\n"
    "  --format json      one object of the same quantities (null for an empty field)\n"
    "  --mc N [--seed S]  N exact draws' mean loss and standard error (2 <= N <= 10^9),\n"
    "                     an estimate beside the exact value\n"
    "A sweep of epsilon (--epsilon E1,E2,... or LO:HI:N, --epsilon-log LO:HI:N): one row\n"
    "per epsilon under one header line; JSON: a list of the objects.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

/* The loss thresholds of --loss-at into T (checked >= 0): -1 or an exit status. */
/* --loss-at's thresholds (none: *T NULL), each >= 0 */
static int loss_points(const em_cli *c, em_points **T)
{
    *T = NULL;
    int rc = (c->seen & EM_OPT_AT) ? get_points(c, EM_LAW_CDF, T) : -1;
    for (size_t i = 0; *T && i < (*T)->n && rc < 0; i++) {
        int sign;
        em_num_cmp((*T)->at[i], "0", &sign, NULL);
        if (sign < 0) {
            fprintf(stderr, "%s: --loss-at: a loss threshold must be >= 0 ('%s')\n", c->cmd,
                    (*T)->at[i]);
            rc = EM_EXIT_USAGE;
        }
    }
    if (rc < 0 && (c->seen & EM_OPT_SEED) && !(c->seen & EM_OPT_MC)) {
        fprintf(stderr, "%s: --seed goes with --mc N\n", c->cmd);
        rc = EM_EXIT_USAGE;
    }
    return rc;
}

static int report(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx, (void)s;
    em_points *T;
    int rc = loss_points(c, &T);
    if (rc < 0) {
        em_sample_opts mc = EM_SAMPLE_OPTS_INIT;
        mc.seed = c->seed;
        mc.seeded = (c->seen & EM_OPT_SEED) != 0;
        const em_write_opts o = em_cli_write_opts(c);
        em_error e;
        rc = em_cli_written(c->cmd, em_utility_write(stdout, m, T ? T->n : 0, T ? T->at : NULL,
                                                     (c->seen & EM_OPT_MC) ? c->mc : 0, &mc,
                                                     &o, &e), &e);
    }
    if (rc < 0)
        rc = em_cli_flush(c->cmd, 1);
    em_free(T);
    return rc;
}

int cmd_utility(int argc, char **argv)
{
    return em_cli_main("expmech utility", argc, argv,
                       EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                           EM_OPT_AT | EM_OPT_FILE | EM_OPT_FORMAT | EM_OPT_MC | EM_OPT_SEED,
                       help_utility, report, NULL);
}
