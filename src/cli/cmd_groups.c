/* cmd_groups.c: `expmech groups`: the group analysis of em_groups.h (seed 001) over an
 * epsilon sweep (em_sweep.h).  Parsing and formatting only; every number comes from the
 * library. */
#include "cli/cli_util.h"
#include "cli_help.h"

/* Every report first (a failure prints nothing), then the table. */
static int run(em_cli *c, em_groups *g, const em_groups_opts *base)
{
    const size_t n = c->eps_count;
    em_groups_report **r = calloc(n, sizeof *r);
    em_error e;
    int rc = r ? EM_EXIT_OK : (fprintf(stderr, "%s: out of memory\n", c->cmd), EM_EXIT_INTERNAL);
    for (size_t i = 0; i < n && rc == EM_EXIT_OK; i++) {
        em_groups_opts o = *base;
        o.epsilon = c->eps_all[i];
        char what[80];
        snprintf(what, sizeof what, "--epsilon %.40s", c->eps_all[i]);
        if (em_groups_analyse(g, &o, &r[i], &e) != EM_OK)
            rc = em_cli_fail(c->cmd, n > 1 ? what : NULL, &e);
    }
    char name[4096 * 6 + 16]; /* a label: one line of at most 4096 bytes, 6 a byte */
    for (size_t j = 0; rc == EM_EXIT_OK && j < em_groups_get(g).count; j++)
        fprintf(stderr, "%s: group %s: %s\n", c->cmd,
                em_scn_human_label(name, sizeof name, em_groups_get(g).name[j], 0),
                r[0]->group[j].provenance);
    c->sweep_n = n > 1 ? n : 0;
    for (c->sweep_i = 0; rc == EM_EXIT_OK && c->sweep_i < n; c->sweep_i++) {
        em_write_opts w = em_cli_write_opts(c);
        w.epsilon = c->eps_all[c->sweep_i];
        int wr = em_cli_written(c->cmd, em_write(r[c->sweep_i], stdout, &w, &e), &e);
        rc = wr >= 0 ? wr : rc;
    }
    for (size_t i = 0; r && i < n; i++)
        em_free(r[i]);
    free(r);
    return rc == EM_EXIT_OK ? em_cli_flush(c->cmd, 1) : rc;
}

int cmd_groups(int argc, char **argv)
{
    em_cli c;
    int rc = em_cli_begin(&c, "expmech groups", argc, argv,
                          EM_OPT_MECH | EM_OPT(EO_DIGITS) | EM_OPT(EO_FORMAT) | EM_OPT(EO_SPLIT) |
                              EM_OPT(EO_DATA) | EM_OPT(EO_COLUMN) | EM_OPT(EO_GROUP_BY) |
                              EM_OPT(EO_CANDIDATES) | EM_OPT(EO_FROM_DATA) |
                              EM_OPT(EO_FUNCTION) | EM_OPT(EO_NEIGHBOURS),
                          EM_OPT(EO_EPSILON) | EM_OPT(EO_SPLIT) | EM_OPT(EO_GROUP_BY),
                          EM_HELP_groups);
    em_groups *g = NULL;
    em_error e;
    em_scoring_opts so = EM_SCORING_OPTS_INIT;
    so.function = c.function ? c.function : "frequency";
    so.data = c.data, so.column = c.column, so.candidates = c.candidates;
    so.candidates_from_data = c.from_data, so.neighbours = c.neighbours;
    if (rc < 0 && em_groups_new(&so, c.group_by, &g, &e) != EM_OK)
        rc = em_cli_fail(c.cmd, NULL, &e);
    if (rc < 0 && em_groups_get(g).warning)
        em_cli_note(c.cmd, "warning", em_groups_get(g).warning);
    em_groups_opts o = {NULL, c.split, (c.seen & EM_OPT(EO_SENSITIVITY)) ? c.delta_text : NULL,
                        !(c.seen & EM_OPT(EO_VARIANT)) ? EM_VARIANT_AUTO : c.variant, c.force,
                        (int)c.digits};
    if (rc < 0)
        rc = run(&c, g, &o);
    em_free(g);
    em_cli_free(&c);
    return rc;
}
