/* cmd_score.c: `expmech score FUNCTION --data FILE [options]`: the options read into an
 * em_scoring_opts, the scenario computed by em_scoring_new (src/api/em_score_*.c) and written
 * by em_write. */
#include "cli/cli_util.h"
#include "cli_help.h"

#define CMD "expmech score"

/* The options: the score's, and --group-by and --output-dir (which are not). */
typedef struct args {
    em_scoring_opts o;
    const char *group_by, *output_dir;
} args;

#define S(name, f) EM_CLI_STR(name, args, f)
static const em_cli_opt opts[] = {
    S("--data", o.data), S("--candidates", o.candidates), S("--alpha", o.alpha),
    S("--p-max", o.p_max), S("--beta", o.beta), S("--gamma", o.gamma), S("--x", o.x),
    S("--f", o.f), S("--delta-f", o.delta_f), S("--neighbours", o.neighbours),
    S("--range", o.range), S("--convention", o.convention), S("--column", o.column),
    S("--group-by", group_by), S("--output-dir", output_dir),
    EM_CLI_FLAG_AT("--aggregated", args, o.aggregated),
    EM_CLI_FLAG_AT("--candidates-from-data", args, o.candidates_from_data),
    S("--neighbors", o.neighbours),
    EM_CLI_END,
};

/* An unknown word: in FUNCTION's place a function, or an option (the function comes first);
 * --epsilon and --sensitivity are named as options of the commands that read the scenario,
 * which score writes. */
static int score_unknown(const em_cli_spec *sp, unsigned long long mask, const char *a)
{
    static const char *const fns[] = {"count",    "frequency", "maxnorm", "median",
                                      "quantile", "revenue",   "rr",      "laplace"};
    static const char *const theirs[] = {"--epsilon", "--sensitivity"};
    if (a[0] != '-')
        return em_cli_unknown(sp->cmd, "scoring function", a, strlen(a), fns, 8, 1);
    const char *eq = strchr(a, '='), *names[32];
    size_t nl = eq ? (size_t)(eq - a) : strlen(a), n = em_cli_names(sp, mask, names, 32);
    const char *near = em_cli_nearest(a, nl, names, n);
    if (near && strlen(near) == nl && !strncmp(a, near, nl))
        return em_cli_usage(CMD, "the scoring function comes first, before %s (expmech score "
                                 "FUNCTION --data FILE [options]; see --help)", near);
    const char *other = near ? NULL : em_cli_nearest(a, nl, theirs, 2);
    if (!other)
        return em_cli_unknown(sp->cmd, "option", a, nl, names, n, 0);
    int exact = strlen(other) == nl && !strncmp(a, other, nl);
    return em_cli_usage(CMD, "unknown option '%.*s' (%s%s%sscore takes no %s: it writes the "
                             "scenario that probs, sample, cdf, ... read with %s; see --help)",
                        (int)nl, a, exact ? "" : "did you mean ", exact ? "" : other,
                        exact ? "" : "?  ", other, other);
}

static const em_cli_spec spec = {CMD, EM_HELP_score, opts, .unknown = score_unknown};

int cmd_score(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(EM_HELP_score, argc < 2 ? stderr : stdout);
        return argc < 2 ? EM_EXIT_USAGE : EM_EXIT_OK;
    }
    if (!em_scoring_known(argv[1]))
        return score_unknown(&spec, ~0ULL, argv[1]);
    args p = {EM_SCORING_OPTS_INIT, NULL, NULL};
    unsigned long long given = 0;
    p.o.function = argv[1];
    int rc = em_cli_options(&spec, ~0ULL, argc - 1, argv + 1, &p, &given);
    if (rc < 0 && p.o.data && p.o.candidates && !strcmp(p.o.data, "-") &&
        !strcmp(p.o.candidates, "-"))
        rc = em_cli_usage(CMD, "--data and --candidates cannot both be standard input ('-'): "
                               "one of them must be a file");
    if (rc < 0 && !p.group_by != !p.output_dir)
        rc = em_cli_usage(CMD, "%s needs %s (one scenario file per group)",
                          p.group_by ? "--group-by" : "--output-dir",
                          p.group_by ? "--output-dir DIR" : "--group-by COLUMN");
    if (rc >= 0)
        return rc;
    em_error e;
    if (p.group_by) { /* one scenario file per group in --output-dir, their names on stdout */
        em_groups *g = NULL;
        em_write_opts wo = EM_WRITE_OPTS_INIT;
        wo.dir = p.output_dir;
        rc = em_groups_new(&p.o, p.group_by, &g, &e) != EM_OK || em_write(g, stdout, &wo, &e) != EM_OK
                 ? em_cli_fail(CMD, NULL, &e)
                 : EM_EXIT_OK;
        if (rc == EM_EXIT_OK && em_groups_get(g).warning)
            em_cli_note(CMD, "warning", em_groups_get(g).warning);
        em_free(g);
        return rc;
    }
    em_scoring *r = NULL;
    if (em_scoring_new(&p.o, &r, &e) != EM_OK)
        return em_cli_fail(CMD, NULL, &e);
    if (em_scoring_get(r).warning)
        em_cli_note(CMD, "warning", em_scoring_get(r).warning);
    rc = em_write(r, stdout, NULL, &e) == EM_OK ? EM_EXIT_OK : EM_EXIT_INTERNAL;
    if (rc != EM_EXIT_OK)
        fprintf(stderr, CMD ": %s\n", e.status == EM_ERR_NOMEM ? e.msg : "write error");
    em_free(r);
    return rc;
}
