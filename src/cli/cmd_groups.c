/* cmd_groups.c: `expmech groups`: the group analysis of em_groups.h (seed 001) over an
 * epsilon sweep (em_sweep.h).  Parsing and formatting only; every number comes from the
 * library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech groups --epsilon E --split S --data FILE --column COL --group-by GROUP\n"
    "                      --candidates C [options]\n"
    "\n"
    "Who loses more?  Groups the rows of a CSV file by the column GROUP, scores each group's\n"
    "values of COL (--function; one candidate set for all), runs the exponential mechanism\n"
    "on each group with its share of the total epsilon E, and prints per group, exactly\n"
    "(correctly rounded to --digits): its epsilon, its true mode(s) (the largest score: the\n"
    "non-private answer), P(the output is a true mode) and the expected loss OPT - E[u].\n"
    "Groups are listed in order of first appearance in the file.\n"
    "  expmech groups --epsilon 1,5.5,10 --split proportional --sensitivity 1 \\\n"
    "      --data socks.csv --column scary --group-by sock_color --candidates c.txt\n"
    "\n"
    "Options (numbers are exact: decimals, a/b fractions):\n"
    "  --epsilon E          the total epsilon; a list E1,E2,... or LO:HI:N (N points, LO and\n"
    "                       HI included) runs one block of rows per value\n"
    "  --epsilon-log LO:HI:N  N log-spaced values (17 significant digits), instead\n"
    "  --split S            each group's share: proportional (E n_g / n, seed 001's), equal\n"
    "                       (E / k), full (E each: parallel composition, E-DP overall only\n"
    "                       when the groups partition the rows and membership is public;\n"
    "                       each group then gets the whole budget), or w1,w2,... (k exact\n"
    "                       weights > 0 in group order, summing to <= 1: E w_g)\n"
    "  --data FILE --column COL --group-by GROUP   the CSV file (a header line), the column\n"
    "                       scored and the grouping column\n"
    "  --candidates C       the outputs: a:b[:step] or a file with one per line\n"
    "  --candidates-from-data  the distinct values of COL (NOT private: a warning)\n"
    "  --function F         frequency (default: count / n_g, Delta 1/n_g), count (Delta 1),\n"
    "                       maxnorm (Delta 1), as `expmech score`\n"
    "  --neighbours R       add-remove or substitution (as `expmech score`)\n"
    "  --sensitivity D      instead of each group's proven sensitivity (seed 001 uses 1);\n"
    "                       below a group's proven one refused unless --force\n"
    "  --variant V          standard (default), monotone (where declared), pf\n"
    "  --digits K           significant digits (default 17, at most 1000)\n"
    "  --format csv|json    CSV (default): the header line\n"
    "      epsilon,group,rows,share,epsilon_group,true_mode,p_true_mode,expected_loss,gap\n"
    "                       then one row per group and epsilon; share = n_g / n; true_mode\n"
    "                       the modes joined by '|'; gap = the largest minus the smallest\n"
    "                       p_true_mode of that epsilon (the same on each of its rows; 0\n"
    "                       only when every group's law is the same).  JSON: an object\n"
    "                       {epsilon, split, groups: [...], gap} (a list of them for a list\n"
    "                       or range of epsilon)\n"
    "  --force              run a refused choice anyway (standard error says FORCED)\n"
    "Standard error names each group's variant and sensitivity and where each came from.\n"
    "\n"
    "Exit status: 0 success, 2 bad input (a message names the option or the file and line;\n"
    "nothing on standard output), 3 internal failure.\n";

/* The options the shared parser does not know, each kept for em_groups_* (flags: "1"). */
enum { O_EPS, O_EPS_LOG, O_SPLIT, O_DATA, O_COLUMN, O_GROUP_BY, O_CANDIDATES, O_FROM_DATA,
       O_FUNCTION, O_NEIGHBOURS, O_N };
static const char *const own[O_N] = {"--epsilon", "--epsilon-log", "--split", "--data",
                                     "--column", "--group-by", "--candidates",
                                     "--candidates-from-data", "--function", "--neighbours"};

/* argv split into own options (v) and the rest (rest, for em_cli_parse): -1 or an exit
   status */
static int split_args(int argc, char **argv, const char **v, char **rest, int *nrest)
{
    *nrest = 0;
    rest[(*nrest)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        int k = 0;
        while (k < O_N && (strlen(own[k]) != nl || strncmp(a, own[k], nl)))
            k++;
        if (k == O_N) {
            rest[(*nrest)++] = argv[i];
            continue;
        }
        if (v[k]) {
            fprintf(stderr, "expmech groups: %s given twice\n", own[k]);
            return EM_EXIT_USAGE;
        }
        if (k == O_FROM_DATA) {
            v[k] = "1";
            continue;
        }
        v[k] = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v[k]) {
            fprintf(stderr, "expmech groups: %s needs a value\n", own[k]);
            return EM_EXIT_USAGE;
        }
    }
    return -1;
}

static int need(const char *v, const char *what)
{
    if (v)
        return -1;
    fprintf(stderr, "expmech groups: %s is required (see --help)\n", what);
    return EM_EXIT_USAGE;
}

/* The modes of e joined by '|' (malloc'd). */
static char *modes_text(const em_group_report *e)
{
    size_t len = 1;
    for (size_t i = 0; i < e->n_modes; i++)
        len += strlen(e->modes[i]) + 1;
    char *s = malloc(len), *w = s;
    for (size_t i = 0; s && i < e->n_modes; i++)
        w += sprintf(w, "%s%s", i ? "|" : "", e->modes[i]);
    if (s)
        *w = 0;
    return s;
}

static int print_csv(const em_groups *g, const char *eps, const em_groups_report *r)
{
    for (size_t j = 0; j < r->n; j++) {
        const em_group_report *e = &r->group[j];
        char *m = modes_text(e);
        if (!m) {
            fputs("expmech groups: out of memory\n", stderr);
            return EM_EXIT_INTERNAL;
        }
        printf("%s,", eps);
        em_cli_csv_label(em_groups_name(g, j));
        printf(",%zu,%s,%s,", em_groups_rows(g, j), e->share, e->epsilon);
        em_cli_csv_label(m);
        printf(",%s,%s,%s\n", e->p_true_mode, e->expected_loss, r->gap);
        free(m);
    }
    return EM_EXIT_OK;
}

static void print_json(const em_groups *g, const char *eps, const char *split,
                       const em_groups_report *r, const char *indent)
{
    printf("%s{\"epsilon\": ", indent);
    em_json_string(stdout, eps);
    printf(", \"split\": ");
    em_json_string(stdout, split);
    printf(", \"groups\": [\n");
    for (size_t j = 0; j < r->n; j++) {
        const em_group_report *e = &r->group[j];
        printf("%s  {\"group\": ", indent);
        em_json_string(stdout, em_groups_name(g, j));
        printf(", \"rows\": %zu, \"share\": \"%s\", \"epsilon_group\": \"%s\", \"true_mode\": [",
               em_groups_rows(g, j), e->share, e->epsilon);
        for (size_t i = 0; i < e->n_modes; i++) {
            printf("%s", i ? ", " : "");
            em_json_string(stdout, e->modes[i]);
        }
        printf("], \"p_true_mode\": \"%s\", \"expected_loss\": \"%s\"}%s\n", e->p_true_mode,
               e->expected_loss, j + 1 < r->n ? "," : "");
    }
    printf("%s], \"gap\": \"%s\"}", indent, r->gap);
}

/* Every report first (a failure prints nothing), then the table. */
static int run(const em_cli *c, em_groups *g, const em_groups_opts *base, char **eps, size_t n,
               const char *split)
{
    em_groups_report **r = calloc(n, sizeof *r);
    em_error e;
    int rc = r ? EM_EXIT_OK : EM_EXIT_INTERNAL;
    if (!r)
        fprintf(stderr, "%s: out of memory\n", c->cmd);
    for (size_t i = 0; i < n && rc == EM_EXIT_OK; i++) {
        em_groups_opts o = *base;
        o.epsilon = eps[i];
        if (em_groups_analyse(g, &o, &r[i], &e) == EM_OK)
            continue;
        char what[80];
        snprintf(what, sizeof what, "--epsilon %.40s", eps[i]);
        rc = em_cli_fail(c->cmd, n > 1 ? what : NULL, &e);
    }
    for (size_t j = 0; rc == EM_EXIT_OK && j < em_groups_count(g); j++)
        fprintf(stderr, "%s: group %s: %s\n", c->cmd, em_cli_human(em_groups_name(g, j)),
                r[0]->group[j].provenance);
    if (rc == EM_EXIT_OK && c->format == EM_FMT_CSV)
        printf("epsilon,group,rows,share,epsilon_group,true_mode,p_true_mode,expected_loss,"
               "gap\n");
    for (size_t i = 0; rc == EM_EXIT_OK && i < n; i++) {
        if (c->format == EM_FMT_CSV) {
            rc = print_csv(g, eps[i], r[i]);
            continue;
        }
        printf("%s", n > 1 && i == 0 ? "[\n" : "");
        print_json(g, eps[i], split, r[i], n > 1 ? "  " : "");
        printf("%s", n == 1 ? "\n" : i + 1 < n ? ",\n" : "\n]\n");
    }
    for (size_t i = 0; r && i < n; i++)
        em_groups_report_free(r[i]);
    free(r);
    return rc == EM_EXIT_OK ? em_cli_flush(c->cmd, 1) : rc;
}

int cmd_groups(int argc, char **argv)
{
    const char *v[O_N] = {0};
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    int nrest = 0, rc = rest ? split_args(argc, argv, v, rest, &nrest) : EM_EXIT_INTERNAL;
    em_cli c;
    em_cli_init(&c, "expmech groups");
    if (rc < 0)
        rc = em_cli_parse(&c, nrest, rest, EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                                               EM_OPT_FORMAT, help);
    if (rc < 0 && v[O_EPS] && v[O_EPS_LOG]) {
        fprintf(stderr, "expmech groups: give either --epsilon or --epsilon-log, not both\n");
        rc = EM_EXIT_USAGE;
    }
    if (rc < 0)
        rc = need(v[O_EPS] ? v[O_EPS] : v[O_EPS_LOG], "--epsilon");
    if (rc < 0)
        rc = need(v[O_SPLIT], "--split");
    if (rc < 0)
        rc = need(v[O_GROUP_BY], "--group-by");
    char **eps = NULL;
    size_t n = 0;
    em_groups *g = NULL;
    em_error e;
    const char *spec = v[O_EPS] ? v[O_EPS] : v[O_EPS_LOG];
    if (rc < 0 && em_epsilon_sweep(spec, v[O_EPS_LOG] != NULL, &eps, &n, &e) != EM_OK) {
        fprintf(stderr, "%s: %s: bad value '%s': %s\n", c.cmd,
                v[O_EPS] ? "--epsilon" : "--epsilon-log", spec, e.msg);
        rc = em_cli_status_exit(e.status);
    }
    em_scoring_opts so = EM_SCORING_OPTS_INIT;
    so.function = v[O_FUNCTION] ? v[O_FUNCTION] : "frequency";
    so.data = v[O_DATA];
    so.column = v[O_COLUMN];
    so.candidates = v[O_CANDIDATES];
    so.candidates_from_data = v[O_FROM_DATA] != NULL;
    so.neighbours = v[O_NEIGHBOURS];
    char said[4 * EM_ERRLEN];
    if (rc < 0 && em_groups_new(&so, v[O_GROUP_BY], &g, &e) != EM_OK) {
        fprintf(stderr, "%s: %s\n", c.cmd, em_cli_words(e.msg, said, sizeof said));
        rc = em_cli_status_exit(e.status);
    }
    if (rc < 0 && em_groups_warning(g))
        fprintf(stderr, "%s: warning: %s\n", c.cmd,
                em_cli_words(em_groups_warning(g), said, sizeof said));
    em_groups_opts o = {NULL, v[O_SPLIT], (c.seen & EM_OPT_SENSITIVITY) ? c.delta_text : NULL,
                        !(c.seen & EM_OPT_VARIANT)         ? EM_VARIANT_AUTO
                                                         : c.variant,
                        (c.seen & EM_OPT_FORCE) != 0, c.digits};
    if (rc < 0)
        rc = run(&c, g, &o, eps, n, v[O_SPLIT]);
    em_groups_free(g);
    em_sweep_free(eps, n);
    em_cli_free(&c);
    free(rest);
    return rc;
}
