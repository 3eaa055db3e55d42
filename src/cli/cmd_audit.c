/* cmd_audit.c: `expmech audit`: the exact privacy loss between two neighbouring scenarios,
 * for the ideal mechanism (= the exact samplers) and for the float sampler as implemented,
 * and optionally a Clopper-Pearson lower bound on epsilon from draws (em_judge.h). */
#include "cli/cli_util.h"
#include "cli_help.h"

/* Both mechanisms (X's headers decide the parameters, as for every command), the draws, and
 * the audit; -1 with *r set, or an exit status after a message. */
static int run(const char *cmd, const char *const *files, const em_opts *ox, const char *sxp,
               const char *syp, int are, double conf, em_scn **s, em_mech **m,
               em_audit_result **r)
{
    em_error e;
    for (int k = 0; k < 2; k++)
        if (em_scn_load(files[k], &s[k], &e) != EM_OK)
            return em_cli_fail(cmd, NULL, &e);
    if (em_mech_new(s[0], ox, &m[0], &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    fprintf(stderr, "%s: %s\n", cmd, em_mech_get(m[0]).provenance);
    em_opts oy = {ox->epsilon, em_mech_get(m[0]).sensitivity, em_mech_get(m[0]).variant, 1, 0};
    if (em_mech_new(s[1], &oy, &m[1], &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    char *note = NULL;
    if (em_audit_neighbours(m[0], m[1], ox->sensitivity != NULL, &note, &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    if (note) /* said, not refused: the loss between non-neighbours is still the loss */
        fprintf(stderr, "%s: %s\n", cmd, note);
    em_free(note);
    em_draws d[2] = {EM_DRAWS_INIT, EM_DRAWS_INIT};
    for (int k = 0; sxp && k < 2; k++) {
        em_cli_stdin_hint(cmd, k ? syp : sxp, "the draws");
        d[k].path = k ? syp : sxp;
        d[k].samples_are = are;
    }
    if (em_audit(m[0], m[1], sxp ? &d[0] : NULL, sxp ? &d[1] : NULL, conf, r, &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    return -1;
}

/* One epsilon for both mechanisms: a sweep (--epsilon-log, or --epsilon with a list or
 * LO:HI:N) is refused, as by every command that judges one mechanism. */
static int no_sweep(void *dst, const char *cmd, const char *name, const char *v)
{
    (void)dst, (void)name, (void)v;
    return em_cli_usage(cmd, "%s", EM_CLI_SWEEP_REFUSED);
}

typedef struct args {
    const char *files[2], *sxp, *syp, *eps, *del;
    int variant, force, are, nf;
    double conf;
} args;

static const char *conf_ok(const void *v)
{
    return *(const double *)v > 0 && *(const double *)v < 1 ? NULL : "must be in (0, 1)";
}

static int file_arg(void *dst, const char *cmd, const char *a)
{
    args *p = dst;
    if (p->nf < 2) {
        p->files[p->nf++] = a;
        return -1;
    }
    return em_cli_usage(cmd, "exactly two scenario files, X and Y");
}

enum { A_VARIANT = 2, A_CONF = 5, A_ARE };
static const em_cli_opt opts[] = {
    EM_CLI_STR("--epsilon", args, eps),
    EM_CLI_STR("--sensitivity", args, del),
    EM_CLI_WORDS("--variant", args, variant, "expected 'standard' (eps/(2 delta)), 'monotone' "
                 "(eps/delta) or 'pf' (permute-and-flip)", "standard", "monotone", "pf"),
    EM_CLI_STR("--samples-x", args, sxp),
    EM_CLI_STR("--samples-y", args, syp),
    EM_CLI_NUM("--confidence", EM_CLI_DOUBLE, args, conf, conf_ok),
    EM_CLI_WORDS("--samples-are", args, are, "expected 'labels' or 'indices'", "labels",
                 "indices"),
    EM_CLI_FLAG_AT("--force", args, force),
    EM_CLI_CALL_AT("--epsilon-log", args, nf, no_sweep),
    EM_CLI_END,
};

int cmd_audit(int argc, char **argv)
{
    const char *cmd = "expmech audit";
    const em_cli_spec sp = {cmd, EM_HELP_audit, opts, .repeat = 1, .arg = file_arg};
    args p = {.conf = 0.95};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc >= 0)
        return rc;
    const char *sxp = p.sxp, *syp = p.syp, **files = p.files;
    if (!sxp && !syp && (given & (EM_OPT(A_CONF) | EM_OPT(A_ARE)))) {
        /* an option that does not apply is an error, not ignored */
        return em_cli_usage(cmd, "%s goes with --samples-x and --samples-y (draws to judge)",
                            (given & EM_OPT(A_CONF)) ? "--confidence" : "--samples-are");
    }
    if (!p.eps || p.nf != 2)
        return em_cli_usage(cmd, "--epsilon and two scenario files are required (--help)");
    if (strpbrk(p.eps, ",:"))
        return no_sweep(NULL, cmd, NULL, NULL);
    if (!sxp != !syp)
        return em_cli_usage(cmd, "--samples-x and --samples-y go together");
    em_opts ox = {p.eps, p.del, (given & EM_OPT(A_VARIANT)) ? p.variant : EM_VARIANT_AUTO,
                  p.force, 0};
    int samples_are = !(given & EM_OPT(A_ARE)) ? EM_SAMPLES_ARE_AUTO
                      : p.are                  ? EM_SAMPLES_ARE_INDICES
                                               : EM_SAMPLES_ARE_LABELS;
    double conf = p.conf;
    /* one standard input cannot be read twice */
    const char *in[4] = {files[0], files[1], sxp, syp};
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            if (in[a] && in[b] && !strcmp(in[a], "-") && !strcmp(in[b], "-")) {
                static const char *const what[4] = {"X", "Y", "--samples-x", "--samples-y"};
                return em_cli_usage(cmd, "%s and %s cannot both be standard input ('-'): one "
                                         "of them must be a file", what[a], what[b]);
            }
    em_scn *s[2] = {NULL, NULL};
    em_mech *m[2] = {NULL, NULL};
    em_audit_result *r = NULL;
    rc = run(cmd, files, &ox, sxp, syp, samples_are, conf, s, m, &r);
    em_error e;
    if (rc < 0)
        rc = em_cli_written(cmd, em_write(r, stdout, NULL, &e), &e);
    if (rc < 0) {
        rc = r->verdict == EM_VERDICT_REJECT      ? EM_EXIT_REJECT
             : r->verdict == EM_VERDICT_UNDECIDED ? EM_EXIT_INTERNAL
                                                  : EM_EXIT_OK;
    }
    em_free(r);
    for (int k = 0; k < 2; k++) {
        em_free(m[k]);
        em_free(s[k]);
    }
    return rc;
}
