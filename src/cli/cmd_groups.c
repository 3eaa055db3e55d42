/* cmd_groups.c: `expmech groups`: the group analysis of em_groups.h (seed 001) over an
 * epsilon sweep (em_sweep.h).  Parsing and formatting only; every number comes from the
 * library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    em_write_opts w = EM_WRITE_OPTS_INIT;
    w.format = c->format == EM_FMT_CSV ? EM_WRITE_CSV : EM_WRITE_JSON;
    w.sweep_n = n > 1 ? n : 0;
    w.terminal = isatty(STDOUT_FILENO);
    for (size_t i = 0; rc == EM_EXIT_OK && i < n; i++) {
        w.sweep_i = i;
        w.epsilon = eps[i];
        int wr = em_cli_written(c->cmd, em_groups_report_write(stdout, g, r[i], split, &w, &e),
                                &e);
        if (wr >= 0)
            rc = wr;
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
