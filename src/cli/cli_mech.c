/* cli_mech.c: the scenario and mechanism of a command through the public API (em_scn.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

int em_cli_fail(const char *cmd, const em_error *e)
{
    /* the library names a parameter where the command line names its option */
    const char *msg = e->msg, *opt = "";
    if (!strncmp(msg, "sensitivity ", 12) || !strncmp(msg, "variant ", 8) ||
        !strncmp(msg, "epsilon ", 8))
        opt = "--";
    const char *f = strstr(msg, "(force to");
    if (f)
        fprintf(stderr, "%s: %s%.*s(--%s\n", cmd, opt, (int)(f - msg), msg, f + 1);
    else
        fprintf(stderr, "%s: %s%s\n", cmd, opt, msg);
    return e->status == EM_ERR_NOMEM || e->status == EM_ERR_UNDECIDED || e->status == EM_ERR_RNG
               ? EM_EXIT_INTERNAL
                                                                       : EM_EXIT_USAGE;
}

int em_cli_mech(em_cli *c, em_scn **s, em_mech **m)
{
    em_error e;
    *m = NULL;
    em_cli_stdin_hint(c->cmd, c->file, "the scenario");
    if (em_scn_load(c->file, s, &e) != EM_OK)
        return em_cli_fail(c->cmd, &e);
    char *eps = mpq_get_str(NULL, 10, c->eps);
    char *del = (c->seen & EM_OPT_SENSITIVITY) ? mpq_get_str(NULL, 10, c->delta) : NULL;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    o.sensitivity = del;
    if (c->seen & EM_OPT_VARIANT)
        o.variant = c->variant == EM_CLI_VARIANT_PF ? EM_PF : c->variant;
    o.force = (c->seen & EM_OPT_FORCE) != 0;
    o.digits = c->digits;
    int st = em_mech_new(*s, &o, m, &e);
    free(eps);
    free(del);
    if (st != EM_OK)
        return em_cli_fail(c->cmd, &e);
    fprintf(stderr, "%s: %s\n", c->cmd, em_mech_provenance(*m));
    return -1;
}

int em_cli_mech_start(em_cli *c, int argc, char **argv, unsigned allowed, unsigned required,
                      const char *help, em_scn **s, em_mech **m)
{
    *s = NULL;
    *m = NULL;
    int rc = em_cli_begin(c, argc, argv, allowed, required, help);
    return rc < 0 ? em_cli_mech(c, s, m) : rc;
}
