/* cmd_audit.c: `expmech audit`: the exact privacy loss between two neighbouring scenarios,
 * for the ideal mechanism (= the exact samplers) and for the float sampler as implemented,
 * and optionally a Clopper-Pearson lower bound on epsilon from draws (em_judge.h). */
#include "cli/cli_util.h"
#include "cli_help.h"

#define CMD "expmech audit"

typedef struct args {
    const char *in[4], *eps, *del; /* X, Y, --samples-x, --samples-y */
    int variant, force, are, nf;
    double conf;
} args;

/* One epsilon for both mechanisms, as for every command that judges one mechanism. */
static int no_sweep(void *dst, const char *cmd, const char *name, const char *v)
{
    (void)dst, (void)name, (void)v;
    return em_cli_usage(cmd, "%s", EM_CLI_SWEEP_REFUSED);
}

static int file_arg(void *dst, const char *cmd, const char *a)
{
    args *p = dst;
    if (p->nf == 2)
        return em_cli_usage(cmd, "exactly two scenario files, X and Y");
    p->in[p->nf++] = a;
    return -1;
}

enum { A_VARIANT = 2, A_CONF = 5, A_ARE };
static const em_cli_opt opts[] = {
    EM_CLI_STR("--epsilon", args, eps),
    EM_CLI_STR("--sensitivity", args, del),
    EM_CLI_WORDS("--variant", args, variant, "expected 'standard' (eps/(2 delta)), 'monotone' "
                 "(eps/delta) or 'pf' (permute-and-flip)", "standard", "monotone", "pf"),
    EM_CLI_STR("--samples-x", args, in[2]),
    EM_CLI_STR("--samples-y", args, in[3]),
    EM_CLI_NUM("--confidence", EM_CLI_DOUBLE, args, conf, EM_CLI_OPEN0, EM_CLI_BELOW1,
               "must be in (0, 1)"),
    EM_CLI_WORDS("--samples-are", args, are, "expected 'labels' or 'indices'", "labels",
                 "indices"),
    EM_CLI_FLAG_AT("--force", args, force),
    EM_CLI_CALL_AT("--epsilon-log", args, nf, no_sweep),
    EM_CLI_END,
};

int cmd_audit(int argc, char **argv)
{
    static const char *const what[4] = {"X", "Y", "--samples-x", "--samples-y"};
    const em_cli_spec sp = {CMD, EM_HELP_audit, opts, .repeat = 1, .arg = file_arg};
    args p = {.conf = 0.95};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc >= 0)
        return rc;
    if (!p.in[2] && !p.in[3] && (given & (EM_OPT(A_CONF) | EM_OPT(A_ARE)))) /* not ignored */
        return em_cli_usage(CMD, "%s goes with --samples-x and --samples-y (draws to judge)",
                            (given & EM_OPT(A_CONF)) ? "--confidence" : "--samples-are");
    if (!p.eps || p.nf != 2)
        return em_cli_usage(CMD, "--epsilon and two scenario files are required (see --help)");
    if (strpbrk(p.eps, ",:"))
        return no_sweep(NULL, CMD, NULL, NULL);
    if (!p.in[2] != !p.in[3])
        return em_cli_usage(CMD, "--samples-x and --samples-y go together");
    for (int a = 0; a < 4; a++) /* one standard input cannot be read twice */
        for (int b = a + 1; b < 4; b++)
            if (p.in[a] && p.in[b] && !strcmp(p.in[a], "-") && !strcmp(p.in[b], "-"))
                return em_cli_usage(CMD, "%s and %s cannot both be standard input ('-'): one "
                                         "of them must be a file", what[a], what[b]);
    /* both mechanisms (X's headers decide the parameters, as for every command), the draws,
     * and the audit */
    em_opts ox = {p.eps, p.del, (given & EM_OPT(A_VARIANT)) ? p.variant : EM_VARIANT_AUTO,
                  p.force, 0};
    em_scn *s[2] = {NULL, NULL};
    em_mech *m[2] = {NULL, NULL};
    em_audit_result *r = NULL;
    em_draws d[2] = {EM_DRAWS_INIT, EM_DRAWS_INIT};
    char *note = NULL;
    em_error e;
    int st = em_scn_new(&(em_scn_spec){.path = p.in[0] ? p.in[0] : "-"}, &s[0], &e);
    st = st ? st : em_scn_new(&(em_scn_spec){.path = p.in[1] ? p.in[1] : "-"}, &s[1], &e);
    st = st ? st : em_mech_new(s[0], &ox, &m[0], &e);
    if (!st) {
        fprintf(stderr, CMD ": %s\n", em_mech_get(m[0]).provenance);
        em_opts oy = {p.eps, em_mech_get(m[0]).sensitivity, em_mech_get(m[0]).variant, 1, 0};
        st = em_mech_new(s[1], &oy, &m[1], &e);
    }
    st = st ? st : em_audit_neighbours(m[0], m[1], p.del != NULL, &note, &e);
    if (note) /* said, not refused: the loss between non-neighbours is still the loss */
        fprintf(stderr, CMD ": %s\n", note);
    em_free(note);
    for (int k = 0; !st && p.in[2] && k < 2; k++) {
        em_cli_stdin_hint(CMD, p.in[2 + k], "the draws");
        d[k].path = p.in[2 + k];
        d[k].samples_are = (given & EM_OPT(A_ARE)) ? EM_SAMPLES_ARE_LABELS + p.are
                                                   : EM_SAMPLES_ARE_AUTO;
    }
    st = st ? st : em_audit(m[0], m[1], p.in[2] ? &d[0] : NULL, p.in[2] ? &d[1] : NULL, p.conf,
                            &r, &e);
    rc = st ? em_cli_fail(CMD, NULL, &e) : em_cli_written(CMD, em_write(r, stdout, NULL, &e), &e);
    if (rc < 0)
        rc = r->verdict == EM_VERDICT_REJECT      ? EM_EXIT_REJECT
             : r->verdict == EM_VERDICT_UNDECIDED ? EM_EXIT_INTERNAL
                                                  : EM_EXIT_OK;
    em_free(r);
    for (int k = 0; k < 2; k++)
        em_free(m[k]), em_free(s[k]);
    return rc;
}
