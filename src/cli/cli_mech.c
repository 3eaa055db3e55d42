/* cli_mech.c: the scenario and mechanism of a command through the public API (em_scn.h),
 * and the library's errors as the command line words them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

int em_cli_fail(const char *cmd, const char *what, const em_error *e)
{
    /* the library names a parameter where the command line names its option */
    const char *msg = e->msg, *force = strstr(msg, "(force to run");
    int dash = !strncmp(msg, "variant ", 8) || !strncmp(msg, "sensitivity ", 12) ||
               !strncmp(msg, "epsilon ", 8) || !strncmp(msg, "timing ", 7);
    fprintf(stderr, "%s: %s%s%s%.*s%s\n", cmd, what ? what : "", what ? ": " : "",
            dash ? "--" : "", force ? (int)(force - msg) : (int)strlen(msg), msg,
            force ? "(--force to run it anyway)" : "");
    return em_cli_status_exit(e->status);
}

static int load(const em_cli *c, em_scn **s)
{
    em_error e;
    em_cli_stdin_hint(c->cmd, c->file, "the scenario");
    if (em_scn_load(c->file, s, &e) == EM_OK)
        return -1;
    fprintf(stderr, "%s: %s\n", c->cmd, e.msg);
    return e.status == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
}

/* The mechanism of s at epsilon eps with the other options given; tell: the provenance
 * line on stderr (once per command, not once per epsilon of a sweep). */
static int mech(const em_cli *c, em_scn *s, const char *eps, int tell, em_mech **m)
{
    em_error e;
    em_opts o = {eps, (c->seen & EM_OPT_SENSITIVITY) ? c->delta_text : NULL,
                 !(c->seen & EM_OPT_VARIANT)         ? EM_VARIANT_AUTO
                 : c->variant == EM_CLI_VARIANT_PF ? EM_PF
                                                   : c->variant,
                 (c->seen & EM_OPT_FORCE) != 0, c->digits};
    if (em_mech_new(s, &o, m, &e) == EM_OK) {
        if (tell)
            fprintf(stderr, "%s: %s\n", c->cmd, em_mech_provenance(*m));
        return -1;
    }
    if (e.status == EM_ERR_VARIANT && o.variant == EM_PF) {
        /* pf refused for this scenario: after the line naming the parameters, as for a
           computation that refuses it */
        o.variant = EM_STANDARD;
        if (em_mech_new(s, &o, m, NULL) == EM_OK)
            fprintf(stderr, "%s: variant pf%s\n", c->cmd,
                    em_mech_provenance(*m) + strlen("variant standard"));
        em_mech_free(*m);
        *m = NULL;
    }
    return em_cli_fail(c->cmd, NULL, &e);
}

int em_cli_mech(em_cli *c, em_scn **s, em_mech **m)
{
    *s = NULL;
    *m = NULL;
    if (c->sweep_n) {
        fprintf(stderr, "%s: %s\n", c->cmd, EM_CLI_SWEEP_REFUSED);
        return EM_EXIT_USAGE;
    }
    int rc = load(c, s);
    return rc < 0 ? mech(c, *s, c->eps_text, 1, m) : rc;
}

int em_cli_mech_start(em_cli *c, int argc, char **argv, unsigned allowed, unsigned required,
                      const char *help, em_scn **s, em_mech **m)
{
    *s = NULL;
    *m = NULL;
    int rc = em_cli_begin(c, argc, argv, allowed, required, help);
    return rc < 0 ? em_cli_mech(c, s, m) : rc;
}

int em_cli_main(const char *cmd, int argc, char **argv, unsigned allowed, const char *help,
                em_cli_run_fn *run, const void *ctx)
{
    em_cli c;
    em_cli_init(&c, cmd);
    em_scn *s = NULL;
    int rc = em_cli_begin(&c, argc, argv, allowed, EM_OPT_EPSILON, help);
    if (rc < 0)
        rc = load(&c, &s);
    const size_t runs = c.sweep_n ? c.sweep_n : 1;
    for (c.sweep_i = 0; rc < 0 && c.sweep_i < runs; c.sweep_i++) {
        em_mech *m = NULL;
        rc = mech(&c, s, c.eps_all[c.sweep_i], c.sweep_i == 0, &m);
        if (rc < 0)
            rc = run(&c, s, m, ctx);
        em_mech_free(m);
        if (rc == EM_EXIT_OK && c.sweep_i + 1 < runs)
            rc = -1;
    }
    em_scn_free(s);
    em_cli_free(&c);
    return rc;
}
