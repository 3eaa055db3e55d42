/* cmd_conform.c: `expmech conform`: options, the library's suite (em_conform_command), and
 * its table, JSON report and figures. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli_help.h"
#include "expmech.h"

#define CMD "expmech conform"

typedef struct opts {
    const char *sampler, *kinds, *cases, *report, *svg;
    em_conform_opts o;
} opts;

static int parse_kinds(const char *s, unsigned *mask)
{
    char *t = strdup(s);
    if (!t)
        return -1;
    *mask = 0;
    int ok = 1;
    for (char *w = strtok(t, ","); w; w = strtok(NULL, ",")) {
        int k = em_conform_value(EM_NAME_KIND, w);
        if (k < 0) {
            fprintf(stderr, CMD ": --kinds: unknown kind '%s' (finite, weighted, pf, continuous, "
                            "quantile, laplace)\n", w);
            ok = 0;
            break;
        }
        *mask |= 1u << k;
    }
    free(t);
    return ok && *mask ? 0 : -1;
}

static const char *max_draws_ok(const void *v)
{
    uint64_t u = *(const uint64_t *)v;
    return u < 1 || u > ((uint64_t)1 << 32) ? "" : NULL;
}

static const char *timeout_ok(const void *v)
{
    double d = *(const double *)v;
    return d > 0 && !isinf(d) ? NULL : "";
}

#define S(name, f) EM_CLI_STR(name, opts, f)
static const em_cli_opt options[] = {
    S("--sampler", sampler), S("--kinds", kinds), S("--cases", cases), S("--report", report),
    S("--report-svg", svg),
    {"--max-draws", EM_CLI_U64, offsetof(opts, o.max_draws), NULL, max_draws_ok,
     "%s: %s '%s': expected an integer from 1 to 2^32 (expmech conform --help)\n", NULL},
    {"--timeout", EM_CLI_DOUBLE, offsetof(opts, o.timeout), NULL, timeout_ok,
     "%s: %s '%s': expected a number of seconds > 0 (expmech conform --help)\n", NULL},
    {"--seed", EM_CLI_U64, offsetof(opts, o.seed), NULL, NULL,
     "%s: %s '%s': expected an integer from 0 to 2^64 - 1 (expmech conform --help)\n", NULL},
    EM_CLI_FLAG_AT("--quick", opts, o.quick),
    EM_CLI_END,
};

static int parse(opts *p, int argc, char **argv)
{
    const em_cli_spec sp = {.cmd = CMD, .opts = options, .help = EM_HELP_conform,
                            .see = "expmech conform --help", .repeat = 1,
                            .needs = "%s: option %s needs a value (expmech conform --help)\n"};
    em_conform_opts init = EM_CONFORM_OPTS_INIT;
    p->o = init;
    p->cases = "conformance/cases";
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, p, &given);
    if (rc >= 0)
        return rc;
    if (!p->sampler)
        return em_cli_usage(CMD, "--sampler 'CMD ARGS' is required (expmech conform --help)");
    p->o.cases = p->cases;
    if (p->kinds && parse_kinds(p->kinds, &p->o.kinds) != 0)
        return p->kinds[0] ? EM_EXIT_USAGE
                           : em_cli_usage(CMD, "--kinds '%s': expected kinds (expmech conform "
                                               "--help)", p->kinds);
    return -1;
}

static void progress(void *ctx, size_t i, size_t n, const em_conform_case *r)
{
    (void)ctx;
    fprintf(stderr, "\r" CMD ": %zu/%zu %s %s\033[K", i, n, r->id,
            em_conform_name(EM_NAME_VERDICT, r->verdict));
    if (i == n)
        fputc('\n', stderr);
}

int cmd_conform(int argc, char **argv)
{
    opts p;
    memset(&p, 0, sizeof p);
    int rc = parse(&p, argc, argv);
    if (rc >= 0)
        return rc;
    em_error e;
    char **words = NULL;
    if (em_command_split(p.sampler, &words, &e) != EM_OK) {
        fprintf(stderr, CMD ": --sampler: %s\n", e.msg);
        return EM_EXIT_USAGE;
    }
    if (isatty(2))
        p.o.progress = progress;
    em_conform_result *r = NULL;
    int st = em_conform_command(&p.o, (const char *const *)words, &r, &e);
    em_free(words);
    if (st != EM_OK)
        return em_cli_fail(CMD, NULL, &e);
    em_write(r, stdout, NULL, &e);
    rc = r->exit_status;
    if (p.report) {
        FILE *f = fopen(p.report, "w");
        em_write_opts json = {.format = EM_WRITE_JSON};
        if (!f || em_write(r, f, &json, &e) != EM_OK || fclose(f) != 0) {
            fprintf(stderr, CMD ": --report %s: cannot write%s%s\n", p.report, errno ? ": " : "",
                    errno ? strerror(errno) : "");
            rc = EM_EXIT_INTERNAL;
        }
    }
    if (p.svg && em_conform_figures(r, p.svg, &e) != EM_OK) {
        fprintf(stderr, CMD ": --report-svg %s: %s\n", p.svg, e.msg);
        rc = rc == EM_EXIT_OK ? EM_EXIT_INTERNAL : rc;
    }
    em_free(r);
    return rc;
}
