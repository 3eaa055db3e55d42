/* cmd_plot.c: `expmech plot`: a CSV table that expmech wrote drawn as an SVG figure by
 * gnuplot (em_plot_write to a file), so that a terminal user gets a picture without writing
 * gnuplot. */
#include "cli/cli_util.h"
#include "cli_help.h"

#define CMD "expmech plot"

typedef struct plot {
    em_plot_opts o;
    const char *output;
    const char **ov; /* --overlay's values, o.noverlay of them */
} plot;

/* --overlay FILE:XCOL:YCOL:TITLE (repeatable): one more overlay, into ov (argc entries). */
static int add_overlay(void *dst, const char *cmd, const char *name, const char *v)
{
    (void)cmd, (void)name;
    plot *p = dst;
    p->ov[p->o.noverlay++] = v;
    return -1;
}

static int table_arg(void *dst, const char *cmd, const char *a)
{
    (void)cmd;
    plot *p = dst;
    if (p->o.table)
        return em_cli_usage(CMD, "one input table at most ('%s' and '%s')", p->o.table, a);
    p->o.table = a;
    return -1;
}

#define S(name, f) EM_CLI_STR(name, plot, f)
static const em_cli_opt opts[] = {
    S("--x", o.x), S("--y", o.y), S("--series", o.series), S("--style", o.style),
    S("--title", o.title), S("--xlabel", o.xlabel), S("--ylabel", o.ylabel),
    S("--output", output),
    EM_CLI_FLAG_AT("--logx", plot, o.logx),
    EM_CLI_FLAG_AT("--logy", plot, o.logy),
    EM_CLI_CALL_AT("--overlay", plot, ov, add_overlay),
    EM_CLI_END,
};

int cmd_plot(int argc, char **argv)
{
    const em_cli_spec sp = {CMD, EM_HELP_plot, opts, 1, 1, table_arg, NULL};
    plot p = {EM_PLOT_OPTS_INIT, NULL, calloc((size_t)argc, sizeof *p.ov)};
    p.o.overlay = p.ov;
    unsigned long long given = 0;
    int rc = p.ov ? em_cli_options(&sp, ~0ULL, argc, argv, &p, &given)
                  : (fputs(CMD ": out of memory\n", stderr), EM_EXIT_INTERNAL);
    if (rc < 0 && (!p.o.x || !p.o.y || !p.output))
        rc = em_cli_usage(CMD, "--x, --y and --output are required (see --help)");
    if (rc < 0)
        em_cli_stdin_hint(CMD, p.o.table, "a CSV table");
    for (size_t i = 0; rc < 0 && i < p.o.noverlay; i++)
        if (!strncmp(p.ov[i], "-:", 2))
            em_cli_stdin_hint(CMD, "-", "a CSV table");
    em_error e;
    p.o.output = p.output; /* the figure: the tables checked, gnuplot run, the SVG written */
    if (rc < 0)
        rc = em_plot_write(NULL, &p.o, &e) == EM_OK ? EM_EXIT_OK : em_cli_fail(CMD, NULL, &e);
    free(p.ov);
    return rc;
}
