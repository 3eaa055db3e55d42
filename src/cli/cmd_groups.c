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
    em_cli c;
    em_cli_init(&c, "expmech groups");
    c.both = "give either --epsilon or --epsilon-log, not both";
    int rc = em_cli_begin(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                              EM_OPT_FORMAT | EM_OPT_GROUPS,
                          EM_OPT_EPSILON | EM_OPT(EO_SPLIT) | EM_OPT(EO_GROUP_BY), help);
    em_groups *g = NULL;
    em_error e;
    em_scoring_opts so = EM_SCORING_OPTS_INIT;
    so.function = c.function ? c.function : "frequency";
    so.data = c.data;
    so.column = c.column;
    so.candidates = c.candidates;
    so.candidates_from_data = c.from_data;
    so.neighbours = c.neighbours;
    char said[4 * EM_ERRLEN];
    if (rc < 0 && em_groups_new(&so, c.group_by, &g, &e) != EM_OK) {
        fprintf(stderr, "%s: %s\n", c.cmd, em_cli_words(e.msg, said, sizeof said));
        rc = em_cli_status_exit(e.status);
    }
    if (rc < 0 && em_groups_warning(g))
        fprintf(stderr, "%s: warning: %s\n", c.cmd,
                em_cli_words(em_groups_warning(g), said, sizeof said));
    em_groups_opts o = {NULL, c.split, (c.seen & EM_OPT_SENSITIVITY) ? c.delta_text : NULL,
                        !(c.seen & EM_OPT_VARIANT) ? EM_VARIANT_AUTO : c.variant, c.force,
                        (int)c.digits};
    if (rc < 0)
        rc = run(&c, g, &o, c.eps_all, c.eps_count, c.split);
    em_groups_free(g);
    em_cli_free(&c);
    return rc;
}
