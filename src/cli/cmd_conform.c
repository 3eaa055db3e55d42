/* cmd_conform.c: `expmech conform`: the library's suite (em_conform_command) over the
 * sampler given, its table on standard output, its JSON report and figures on request. */
#include <errno.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli_help.h"

#define CMD "expmech conform"

typedef struct opts {
    const char *sampler, *kinds, *report, *svg;
    em_conform_opts o;
} opts;

/* --kinds K,...: the bits of em_conform_opts.kinds; -1 to go on, else the exit status */
static int parse_kinds(const char *s, unsigned *mask)
{
    char kind[32];
    for (const char *w = s + strspn(s, ","); *w; w += strspn(w, ",")) {
        size_t n = strcspn(w, ",");
        snprintf(kind, sizeof kind, "%.*s", (int)n, w);
        int k = 0;
        while (em_conform_name(EM_NAME_KIND, k) && strcmp(em_conform_name(EM_NAME_KIND, k), kind))
            k++;
        if (!em_conform_name(EM_NAME_KIND, k))
            return em_cli_usage(CMD, "--kinds: unknown kind '%.*s' (finite, weighted, pf, "
                                     "continuous, quantile, laplace)", (int)n, w);
        *mask |= 1u << k;
        w += n;
    }
    return *mask ? -1 : em_cli_usage(CMD, "--kinds '%s': expected kinds (see --help)", s);
}

#define S(name, f) EM_CLI_STR(name, opts, f)
static const em_cli_opt options[] = {
    S("--sampler", sampler), S("--kinds", kinds), S("--cases", o.cases), S("--report", report),
    S("--report-svg", svg),
    EM_CLI_NUM("--max-draws", EM_CLI_U64, opts, o.max_draws, 1, 0x1p32,
               "expected an integer from 1 to 2^32"),
    EM_CLI_NUM("--timeout", EM_CLI_DOUBLE, opts, o.timeout, EM_CLI_OPEN0, HUGE_VAL,
               "expected a number of seconds > 0"),
    EM_CLI_NUM("--seed", EM_CLI_U64, opts, o.seed, 0, HUGE_VAL, NULL),
    EM_CLI_FLAG_AT("--quick", opts, o.quick),
    EM_CLI_END,
};

static void progress(void *ctx, size_t i, size_t n, const em_conform_case *r)
{
    (void)ctx;
    fprintf(stderr, "\r" CMD ": %zu/%zu %s %s\033[K%s", i, n, r->id,
            em_conform_name(EM_NAME_VERDICT, r->verdict), i == n ? "\n" : "");
}

int cmd_conform(int argc, char **argv)
{
    const em_cli_spec sp = {CMD, EM_HELP_conform, options, .repeat = 1};
    opts p = {NULL, NULL, NULL, NULL, EM_CONFORM_OPTS_INIT};
    p.o.cases = "conformance/cases";
    p.o.progress = isatty(2) ? progress : NULL;
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc < 0 && !p.sampler)
        rc = em_cli_usage(CMD, "--sampler 'CMD ARGS' is required (see --help)");
    if (rc < 0 && p.kinds)
        rc = parse_kinds(p.kinds, &p.o.kinds);
    em_error e;
    char **words = NULL;
    if (rc < 0 && em_command_split(p.sampler, &words, &e) != EM_OK)
        rc = em_cli_fail(CMD, "--sampler", &e);
    em_conform_result *r = NULL;
    if (rc < 0 && em_conform_command(&p.o, (const char *const *)words, &r, &e) != EM_OK)
        rc = em_cli_fail(CMD, NULL, &e);
    em_free(words);
    if (rc >= 0)
        return rc;
    em_write(r, stdout, NULL, &e);
    rc = r->exit_status;
    FILE *f = p.report ? fopen(p.report, "w") : NULL;
    const em_write_opts json = {.format = EM_WRITE_JSON};
    if (p.report && (!f || em_write(r, f, &json, &e) != EM_OK || fclose(f) != 0)) {
        fprintf(stderr, CMD ": --report %s: cannot write%s%s\n", p.report, errno ? ": " : "",
                errno ? strerror(errno) : "");
        rc = EM_EXIT_INTERNAL;
    }
    if (p.svg && em_conform_figures(r, p.svg, &e) != EM_OK) {
        fprintf(stderr, CMD ": --report-svg %s: %s\n", p.svg, e.msg);
        rc = rc == EM_EXIT_OK ? EM_EXIT_INTERNAL : rc;
    }
    em_free(r);
    return rc;
}
