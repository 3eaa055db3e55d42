/* cmd_cont.c: the commands over continuous laws (em_law.h): `expmech cdf`, `density`,
 * `quantile`, and `utility` (any scenario).  Parsing and formatting only; every number
 * comes from the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

#define GRID_MAX 10000000UL

enum { K_CDF = EM_LAW_CDF, K_DENSITY = EM_LAW_DENSITY, K_QUANTILE = EM_LAW_QUANTILE };

/* ------------------------------------------------------------------ points */

typedef struct points {
    size_t n;
    char **at;        /* --at: the values as given (printed as given) */
    char *lo, *hi;    /* --grid LO:HI:N (at == NULL) */
} points;

static void points_free(points *P)
{
    for (size_t i = 0; P->at && i < P->n; i++)
        free(P->at[i]);
    free(P->at);
    free(P->lo);
    free(P->hi);
    memset(P, 0, sizeof *P);
}

/* x parsed (and compared with ref) or a message naming the option: -1 or exit 2 */
static int cmp_num(const em_cli *c, const char *opt, const char *x, const char *ref, int *sign)
{
    em_error e;
    if (em_num_cmp(x, ref, sign, &e) == EM_OK)
        return -1;
    fprintf(stderr, "%s: %s: %s\n", c->cmd, opt, e.msg);
    return EM_EXIT_USAGE;
}

static int oom(const em_cli *c)
{
    fprintf(stderr, "%s: out of memory\n", c->cmd);
    return EM_EXIT_INTERNAL;
}

static int get_at(const em_cli *c, points *P)
{
    const char *s = c->at;
    size_t cnt = 1;
    for (const char *p = s; *p; p++)
        cnt += *p == ',';
    if (cnt > GRID_MAX) {
        fprintf(stderr, "%s: --at: more than %lu points\n", c->cmd, GRID_MAX);
        return EM_EXIT_USAGE;
    }
    if (!(P->at = calloc(cnt, sizeof *P->at)))
        return oom(c);
    for (const char *start = s;; start++) {
        size_t len = strcspn(start, ",");
        int sign, rc;
        if (len == 0) {
            fprintf(stderr, "%s: --at: empty value in '%s'\n", c->cmd, s);
            return EM_EXIT_USAGE;
        }
        if (!(P->at[P->n++] = strndup(start, len)))
            return oom(c);
        if ((rc = cmp_num(c, "--at", P->at[P->n - 1], "0", &sign)) >= 0)
            return rc;
        start += len;
        if (!*start)
            return -1;
    }
}

/* --at X[,X...] or --grid LO:HI:N into P; returns -1 or an exit status */
static int get_points(const em_cli *c, points *P)
{
    memset(P, 0, sizeof *P);
    if (!!(c->seen & EM_OPT_AT) == !!(c->seen & EM_OPT_GRID)) {
        fprintf(stderr, "%s: give exactly one of --at X[,X...] and --grid LO:HI:N\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    if (c->seen & EM_OPT_AT)
        return get_at(c, P);
    const char *s = c->grid, *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ':')) {
        fprintf(stderr, "%s: --grid: expected LO:HI:N, found '%s'\n", c->cmd, s);
        return EM_EXIT_USAGE;
    }
    P->lo = strndup(s, (size_t)(c1 - s));
    P->hi = strndup(c1 + 1, (size_t)(c2 - c1 - 1));
    if (!P->lo || !P->hi)
        return oom(c);
    uint64_t N;
    const char *msg = NULL;
    int sign, rc = cmp_num(c, "--grid", P->lo, P->hi, &sign);
    if (rc >= 0)
        return rc;
    if (em_cli_parse_u64(c2 + 1, &N, &msg) != EM_OK || N < 1 || N > GRID_MAX) {
        fprintf(stderr, "%s: --grid: N must be an integer in [1, %lu], found '%s'\n", c->cmd,
                GRID_MAX, c2 + 1);
        return EM_EXIT_USAGE;
    }
    if (sign > 0) {
        fprintf(stderr, "%s: --grid: LO > HI\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    if (N == 1 && sign != 0) {
        fprintf(stderr, "%s: --grid: N = 1 needs LO = HI (N points include both ends)\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    P->n = (size_t)N;
    return -1;
}

/* Point i: its exact text and the text to print (m NULL: the exact text only).  Both
 * are freed with point_done. */
static int point(em_mech *m, const points *P, size_t i, char **x, char **shown, em_error *e)
{
    if (P->at) {
        *x = P->at[i];
        if (shown)
            *shown = P->at[i];
        return EM_OK;
    }
    return em_num_grid_point(m, P->lo, P->hi, P->n, i, x, shown, e);
}

static void point_done(const points *P, char *x, char *shown)
{
    if (!P->at) {
        em_free(x);
        em_free(shown);
    }
}

/* quantile: every p in [0, 1], the first outside named (a grid is looked at point by
 * point only when one of its ends is outside) */
static int check_unit(const em_cli *c, const points *P)
{
    int s0, s1;
    if (!P->at && cmp_num(c, "--grid", P->lo, "0", &s0) < 0 &&
        cmp_num(c, "--grid", P->hi, "1", &s1) < 0 && s0 >= 0 && s1 <= 0)
        return -1;
    for (size_t i = 0; i < P->n; i++) {
        char *x;
        em_error e;
        if (point(NULL, P, i, &x, NULL, &e) != EM_OK)
            return em_cli_fail(c->cmd, NULL, &e);
        int rc = cmp_num(c, "--at", x, "0", &s0);
        if (rc < 0)
            rc = cmp_num(c, "--at", x, "1", &s1);
        point_done(P, x, NULL);
        if (rc >= 0)
            return rc;
        if (s0 < 0 || s1 > 0) {
            fprintf(stderr, "%s: p must lie in [0, 1] (point %zu)\n", c->cmd, i + 1);
            return EM_EXIT_USAGE;
        }
    }
    return -1;
}

/* The law built before any output, so that its errors are told apart from a point's. */
static int prepare(const em_cli *c, em_mech *m)
{
    em_error e;
    return em_probs_prepare(m, &e) == EM_OK ? -1 : em_cli_fail(c->cmd, NULL, &e);
}

/* ------------------------------------------------------------ cdf/density/quantile */

static const char help_cdf[] =
    "usage: expmech cdf (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                   [--variant V] [--digits K]\n"
    "                   (--at X[,X...] | --grid LO:HI:N | --between A:B[,A:B...]) [FILE]\n"
    "\n"
    "The exact cumulative distribution function F(x) = P(X <= x) of the exponential\n"
    "mechanism over a continuous scenario (header '# output: continuous', pieces\n"
    "'lo,hi,a[,b]': utility a + b r on [lo, hi]; density proportional to exp(c u(r)),\n"
    "c = E/(2D) standard or E/D monotone).  Prints 'x,cdf' lines, F correctly rounded to K\n"
    "significant digits (default 17): exact rational inputs, MPFR interval bounds, and an\n"
    "exact comparison (exponential polynomials) when the bounds cannot decide; an exact tie\n"
    "is rounded half to even.  '0' and '1' only when exact (x left / right of R).\n"
    "x is echoed as given (--at), or the grid point LO + i (HI - LO)/(N - 1) printed\n"
    "exactly when it has at most 20 digits, else correctly rounded to K digits (the value\n"
    "is always computed at the exact grid point).\n"
    "--between A:B prints 'a,b,probability': P(A < X <= B) = F(B) - F(A), computed and\n"
    "rounded as one exact number (not as a difference of two rounded ones).\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,x,cdf' (--between: 'epsilon,a,b,probability').\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static const char help_density[] =
    "usage: expmech density (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                       [--variant V] [--digits K]\n"
    "                       (--at X[,X...] | --grid LO:HI:N) [FILE]\n"
    "\n"
    "The exact density f(x) = exp(c u(x)) / integral over R of exp(c u) of a continuous\n"
    "scenario (see expmech cdf --help), printed as 'x,density,log_density', correctly\n"
    "rounded to K digits.  Right-continuous: at a breakpoint, the value of the piece that\n"
    "starts there; 0 (log -inf) outside R, in a gap between pieces, and at the right end\n"
    "of R.\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,x,density,log_density'.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static const char help_quantile[] =
    "usage: expmech quantile (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                        [--variant V] [--digits K]\n"
    "                        (--at P[,P...] | --grid LO:HI:N) [FILE]\n"
    "\n"
    "The exact quantile function Q(p) = inf { x in R : F(x) >= p } of a continuous\n"
    "scenario (see expmech cdf --help), printed as 'p,x', x correctly rounded to K digits:\n"
    "the decimal is certified by exact comparisons of F at the rounding boundaries with p.\n"
    "Q(0) is the left end of R (-inf possible), Q(1) the right end (inf possible).\n"
    EM_CLI_HELP_SWEEP
    "Here: the header 'epsilon,p,x'.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input (p outside [0, 1]), 3 internal failure.\n";

/* cdf --between A:B[,A:B...] */
static int run_between(const em_cli *c, em_scn *s, em_mech *m)
{
    if (c->seen & (EM_OPT_AT | EM_OPT_GRID)) {
        fprintf(stderr, "%s: --between goes without --at and --grid\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    if (!em_scn_get(s).continuous) {
        fprintf(stderr, "%s: %s is a finite scenario; cdf needs a continuous one\n", c->cmd,
                em_scn_get(s).name);
        return EM_EXIT_USAGE;
    }
    int rc = prepare(c, m);
    size_t idx = 0;
    for (const char *p = c->between; rc < 0; p++) {
        size_t len = strcspn(p, ",");
        const char *colon = memchr(p, ':', len);
        char *a = NULL, *b = NULL, *v = NULL;
        int sign;
        em_error e;
        idx++;
        if (!colon) {
            fprintf(stderr, "%s: --between: expected A:B, found '%.*s'\n", c->cmd, (int)len, p);
            return EM_EXIT_USAGE;
        }
        if (!(a = strndup(p, (size_t)(colon - p))) ||
            !(b = strndup(colon + 1, len - (size_t)(colon - p) - 1)))
            rc = oom(c);
        else if ((rc = cmp_num(c, "--between", a, b, &sign)) < 0 && sign > 0) {
            fprintf(stderr, "%s: --between: A > B in '%.*s'\n", c->cmd, (int)len, p);
            rc = EM_EXIT_USAGE;
        } else if (rc < 0 && em_interval_prob(m, a, b, &v, &e) != EM_OK) {
            char what[64];
            snprintf(what, sizeof what, "interval %zu", idx);
            rc = em_cli_fail(c->cmd, what, &e);
        } else if (rc < 0) {
            em_cli_sweep_row(c, "a,b,probability", idx - 1);
            printf("%s,%s,%s\n", a, b, v);
        }
        free(a);
        free(b);
        em_free(v);
        p += len;
        if (!*p)
            break;
    }
    return rc < 0 ? em_cli_flush(c->cmd, 1) : rc;
}

static int run_points(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    int kind = *(const int *)ctx;
    if (c->seen & EM_OPT_BETWEEN)
        return run_between(c, s, m);
    if (!em_scn_get(s).continuous) {
        fprintf(stderr, "%s: %s is a finite scenario; %s needs a continuous one (header "
                        "'# output: continuous')\n", c->cmd, em_scn_get(s).name, c->cmd + 8);
        return EM_EXIT_USAGE;
    }
    points P;
    int rc = get_points(c, &P);
    if (rc < 0 && kind == K_QUANTILE)
        rc = check_unit(c, &P);
    if (rc < 0) {
        const em_points p = {P.n, (const char *const *)P.at, P.lo, P.hi};
        const em_write_opts o = em_cli_write_opts(c);
        em_error e;
        rc = em_cli_written(c->cmd, em_law_points_write(stdout, m, kind, &p, &o, &e), &e);
    }
    points_free(&P);
    return rc < 0 ? em_cli_flush(c->cmd, 1) : rc;
}

static int run_pointwise(int argc, char **argv, int kind)
{
    const char *name = kind == K_CDF ? "expmech cdf" : kind == K_DENSITY ? "expmech density"
                                                                          : "expmech quantile";
    const char *help = kind == K_CDF ? help_cdf : kind == K_DENSITY ? help_density : help_quantile;
    return em_cli_main(name, argc, argv,
                       EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                           EM_OPT_AT | EM_OPT_GRID | EM_OPT_FILE |
                           (kind == K_CDF ? EM_OPT_BETWEEN : 0),
                       help, run_points, &kind);
}

int cmd_cdf(int argc, char **argv) { return run_pointwise(argc, argv, K_CDF); }
int cmd_density(int argc, char **argv) { return run_pointwise(argc, argv, K_DENSITY); }
int cmd_quantile(int argc, char **argv) { return run_pointwise(argc, argv, K_QUANTILE); }

/* ----------------------------------------------------------------- utility */

static const char help_utility[] =
    "usage: expmech utility (--epsilon E | --epsilon-log LO:HI:N) [--sensitivity D]\n"
    "                       [--variant V] [--digits K] [--loss-at T[,T...]]\n"
    "                       [--format csv|json] [--mc N [--seed S]] [FILE]\n"
    "\n"
    "The exact utility report of the exponential mechanism over the scenario FILE (finite,\n"
    "finite with a measure column, or continuous), standard, monotone or permute-and-flip\n"
    "(--variant pf: finite scenarios, from its exact pmf).\n"
    "CSV: a header line and one row\n"
    "  epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,expected_loss_bound\n"
    "  [,p_loss_gt_T,bound_p_loss_gt_T...][,mc_n,mc_expected_loss,mc_se]\n"
    "opt = max u over the outputs of positive probability (continuous: the largest u at a\n"
    "finite end of a piece); expected_loss = opt - E[u]; sd_loss its standard deviation;\n"
    "p_best = P(u(out) = opt) (0 for a continuous law unless a constant piece sits at opt);\n"
    "p_loss_gt_T = P(opt - u(out) > T).  All exact (standard, monotone: closed-form sums\n"
    "and integrals of q exp(t), rational q, t; pf: interval sums over its exact pmf at\n"
    "rising precision) and correctly rounded to K digits like every oracle output.\n"
    "Beside them the accuracy theorem (McSherry & Talwar; Dwork & Roth, Theorem 3.11),\n"
    "with c = E/(2D) (standard, pf) or E/D (monotone), ratio = |R|/|R_OPT| (outputs of\n"
    "positive probability over those at opt; a measure column: their total measures):\n"
    "  bound_p_loss_gt_T = min(1, ratio exp(-c T))   (the theorem at T = (ln ratio + t)/c)\n"
    "  expected_loss_bound = (ln ratio + 1)/c          (the tail bound integrated)\n"
    "Permute-and-flip meets the same bounds (McKenna & Sheldon 2020: never worse in\n"
    "expected loss; its tail is below the standard one's).  A continuous scenario has no\n"
    "such bound: the fields are empty (JSON null).\n"
    "--format json: one object with the same quantities as decimal strings, keys epsilon,\n"
    "sensitivity, variant, digits, opt, expected_utility, expected_loss, sd_loss, p_best,\n"
    "expected_loss_bound, loss_at: [{\"t\", \"p_loss_gt\", \"bound\"}...] (and mc_*).\n"
    "--mc N (2 <= N <= 10^9): N exact draws (the sampler of expmech sample; --seed S for\n"
    "reproducible ones, else the OS random source) and their mean loss with its standard\n"
    "error, as %.17g doubles: an estimate beside the exact expected_loss, never instead.\n"
    "A sweep of epsilon (--epsilon E1,E2,... or LO:HI:N, --epsilon-log LO:HI:N): one row\n"
    "per epsilon under one header line; JSON: a list of the objects.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

/* The loss thresholds of --loss-at into T (checked >= 0): -1 or an exit status. */
static int loss_points(const em_cli *c, points *T)
{
    memset(T, 0, sizeof *T);
    int rc = (c->seen & EM_OPT_AT) ? get_points(c, T) : -1;
    for (size_t i = 0; i < T->n && rc < 0; i++) {
        int sign;
        cmp_num(c, "--at", T->at[i], "0", &sign);
        if (sign < 0) {
            fprintf(stderr, "%s: --loss-at: a loss threshold must be >= 0 ('%s')\n", c->cmd,
                    T->at[i]);
            rc = EM_EXIT_USAGE;
        }
    }
    if (rc < 0 && (c->seen & EM_OPT_SEED) && !(c->seen & EM_OPT_MC)) {
        fprintf(stderr, "%s: --seed goes with --mc N\n", c->cmd);
        rc = EM_EXIT_USAGE;
    }
    return rc;
}

/* What one row holds, computed before anything is printed. */
typedef struct urow {
    em_utility_result *r;
    char *bound;             /* expected_loss_bound; NULL: continuous (no bound) */
    char **tail, **tbound;   /* per threshold */
    double mc_mean, mc_se;
} urow;

static void urow_free(urow *w, size_t n)
{
    em_utility_result_free(w->r);
    em_free(w->bound);
    for (size_t i = 0; i < n; i++) {
        em_free(w->tail ? w->tail[i] : NULL);
        em_free(w->tbound ? w->tbound[i] : NULL);
    }
    free(w->tail);
    free(w->tbound);
}

static int compute(const em_cli *c, em_scn *s, em_mech *m, const points *T, urow *w)
{
    em_error e;
    const int bounded = !em_scn_get(s).continuous;
    w->tail = calloc(T->n + 1, sizeof *w->tail);
    w->tbound = calloc(T->n + 1, sizeof *w->tbound);
    if (!w->tail || !w->tbound)
        return oom(c);
    if (em_utility(m, &w->r, &e) != EM_OK ||
        (bounded && em_loss_bounds(m, NULL, &w->bound, NULL, &e) != EM_OK))
        return em_cli_fail(c->cmd, NULL, &e);
    for (size_t i = 0; i < T->n; i++)
        if (em_loss_tail(m, T->at[i], &w->tail[i], &e) != EM_OK ||
            (bounded && em_loss_bounds(m, T->at[i], NULL, &w->tbound[i], &e) != EM_OK))
            return em_cli_fail(c->cmd, "--loss-at", &e);
    em_sample_opts o = EM_SAMPLE_OPTS_INIT;
    o.seed = c->seed;
    o.seeded = (c->seen & EM_OPT_SEED) != 0;
    if ((c->seen & EM_OPT_MC) && em_loss_mc(m, &o, c->mc, &w->mc_mean, &w->mc_se, &e) != EM_OK)
        return em_cli_fail(c->cmd, "--mc", &e);
    return -1;
}

static int report(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    points T;
    urow w;
    memset(&w, 0, sizeof w);
    int rc = loss_points(c, &T);
    if (rc < 0)
        rc = compute(c, s, m, &T, &w);
    if (rc < 0) {
        const em_utility_report u = {w.r, w.bound, T.n, (const char *const *)T.at,
                                     (const char *const *)w.tail,
                                     (const char *const *)w.tbound,
                                     (c->seen & EM_OPT_MC) ? c->mc : 0, w.mc_mean, w.mc_se};
        const em_write_opts o = em_cli_write_opts(c);
        em_error e;
        rc = em_cli_written(c->cmd, em_utility_report_write(stdout, &u, m, &o, &e), &e);
    }
    if (rc < 0)
        rc = em_cli_flush(c->cmd, 1);
    urow_free(&w, T.n);
    points_free(&T);
    return rc;
}

int cmd_utility(int argc, char **argv)
{
    return em_cli_main("expmech utility", argc, argv,
                       EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                           EM_OPT_AT | EM_OPT_FILE | EM_OPT_FORMAT | EM_OPT_MC | EM_OPT_SEED,
                       help_utility, report, NULL);
}
