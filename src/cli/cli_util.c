/* cli_util.c: shared option parsing of the oracle commands. */
#include "cli/cli_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "expmech.h"
#include "judge/em_gof.h"
#include "oracle/em_oracle.h"
#include "num/em_rational.h"
#include "api/em_params_src.h"
#include "io/em_samples.h"
#include "io/em_label.h"

void em_cli_init(em_cli *c, const char *cmd)
{
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    mpq_init(c->eps);
    mpq_init(c->delta);
    c->variant = EM_STANDARD;
    c->digits = 17;
    c->format = EM_FMT_CSV;
    c->n = 1;
    c->alpha = EM_GOF_ALPHA;
    c->rtol = 1e-9;
    c->atol = 0x1p-1074;
    c->min_expected = EM_GOF_MIN_EXPECTED;
    c->samples_are = EM_SAMPLES_AUTO;
}

void em_cli_free(em_cli *c)
{
    em_sweep_free(c->eps_all, c->eps_count);
    mpq_clear(c->eps);
    mpq_clear(c->delta);
}

const char *em_variant_name(int variant)
{
    return variant == EM_CLI_VARIANT_PF ? "pf" : variant == EM_MONOTONE ? "monotone" : "standard";
}

int em_cli_variant(const char *v)
{
    return !strcmp(v, "standard") ? EM_STANDARD
           : !strcmp(v, "monotone") ? EM_MONOTONE
           : !strcmp(v, "pf")       ? EM_PF
                                    : -1;
}

int em_cli_parse_u64(const char *s, uint64_t *out, const char **msg)
{
    if (!s || !*s) {
        *msg = "empty value";
        return EM_ERR_PARSE;
    }
    int base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (!*p) {
        *msg = "missing digits";
        return EM_ERR_PARSE;
    }
    uint64_t v = 0;
    for (; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9') d = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
        else {
            *msg = "not a non-negative integer";
            return EM_ERR_PARSE;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
            *msg = "too large (the limit is 2^64 - 1)";
            return EM_ERR_PARSE;
        }
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return EM_OK;
}

int em_cli_parse_double(const char *s, double *out, const char **msg)
{
    if (!s || !*s) {
        *msg = "empty value";
        return EM_ERR_PARSE;
    }
    if (s[0] == ' ' || s[0] == '\t') {
        *msg = "leading white space";
        return EM_ERR_PARSE;
    }
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end) {
        *msg = "not a number";
        return EM_ERR_PARSE;
    }
    if (!isfinite(v)) {
        *msg = "not a finite number";
        return EM_ERR_PARSE;
    }
    *out = v;
    return EM_OK;
}

static int bad(const em_cli *c, const char *opt, const char *val, const char *msg)
{
    fprintf(stderr, "%s: %s: bad value '%s': %s\n", c->cmd, opt, val, msg);
    return EM_EXIT_USAGE;
}

static const struct {
    const char *name;
    unsigned flag;
} opts[] = {
    {"--epsilon", EM_OPT_EPSILON},   {"--sensitivity", EM_OPT_SENSITIVITY},
    {"--variant", EM_OPT_VARIANT},   {"--digits", EM_OPT_DIGITS},
    {"--format", EM_OPT_FORMAT},     {"--seed", EM_OPT_SEED},
    {"-n", EM_OPT_N},                {"--alpha", EM_OPT_ALPHA},
    {"--samples", EM_OPT_SAMPLES},   {"--probs", EM_OPT_PROBS},
    {"--rtol", EM_OPT_RTOL},         {"--min-expected", EM_OPT_MIN_EXPECTED},
    {"--mc", EM_OPT_MC},
    {"--cdf", EM_OPT_CDF},           {"--atol", EM_OPT_ATOL},
    {"--at", EM_OPT_AT},             {"--grid", EM_OPT_GRID},
    {"--between", EM_OPT_BETWEEN},   {"--loss-at", EM_OPT_AT},
    {"--force", EM_OPT_FORCE},       {"--samples-are", EM_OPT_SAMPLES_ARE},
    {"--epsilon-log", EM_OPT_EPSILON_LOG},
    {NULL, 0},
};

const char *em_cli_nearest(const char *w, size_t wn, const char *const *words, size_t n)
{
    const char *best = NULL;
    size_t bd = 3;
    for (size_t k = 0; k < n && wn <= 40; k++) {
        size_t m = strlen(words[k]);
        if (m > 40)
            continue;
        size_t d[41][41];
        for (size_t i = 0; i <= wn; i++)
            d[i][0] = i;
        for (size_t j = 0; j <= m; j++)
            d[0][j] = j;
        for (size_t i = 1; i <= wn; i++)
            for (size_t j = 1; j <= m; j++) {
                size_t v = d[i - 1][j - 1] + (w[i - 1] != words[k][j - 1]);
                if (d[i - 1][j] + 1 < v)
                    v = d[i - 1][j] + 1;
                if (d[i][j - 1] + 1 < v)
                    v = d[i][j - 1] + 1;
                d[i][j] = v;
            }
        size_t dist = wn >= 3 && m > wn && !strncmp(words[k], w, wn) ? 1 : d[wn][m];
        if (dist < bd) {
            bd = dist;
            best = words[k];
        }
    }
    return best;
}

/* --epsilon SPEC or --epsilon-log LO:HI:N: every value (em_epsilon_sweep); c->eps and
 * c->eps_text the first; a sweep unless SPEC is one plain value. */
static int set_epsilon(em_cli *c, unsigned flag, const char *name, const char *v)
{
    if (c->seen & (EM_OPT_EPSILON | EM_OPT_EPSILON_LOG)) {
        fprintf(stderr, "%s: --epsilon and --epsilon-log exclude each other\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    em_error e;
    int st = em_epsilon_sweep(v, flag == EM_OPT_EPSILON_LOG, &c->eps_all, &c->eps_count, &e);
    if (st == EM_ERR_NOMEM) {
        fprintf(stderr, "%s: %s\n", c->cmd, e.msg);
        return EM_EXIT_INTERNAL;
    }
    if (st != EM_OK) {
        /* the whole value is the number named: said once */
        char said[EM_ERRLEN];
        snprintf(said, sizeof said, "bad number '%s': ", v);
        size_t k = strlen(said);
        return bad(c, name, v, strncmp(e.msg, said, k) ? e.msg : e.msg + k);
    }
    int kind;
    c->eps_text = c->eps_all[0];
    em_q_parse_str(c->eps_text, 0, c->eps, &kind, NULL); /* accepted: the sweep parsed it */
    c->sweep_n = flag == EM_OPT_EPSILON_LOG || strpbrk(v, ",:") ? c->eps_count : 0;
    return -1;
}

static int set_opt(em_cli *c, unsigned flag, const char *name, const char *v)
{
    const char *msg = NULL;
    int kind;
    switch (flag) {
    case EM_OPT_EPSILON:
    case EM_OPT_EPSILON_LOG: {
        int r = set_epsilon(c, flag, name, v);
        if (r >= 0)
            return r;
        break;
    }
    case EM_OPT_SENSITIVITY:
        c->delta_text = v;
        if (em_q_parse_str(v, 0, c->delta, &kind, &msg) != EM_OK)
            return bad(c, name, v, msg ? msg : "malformed");
        if (mpq_sgn(c->delta) <= 0)
            return bad(c, name, v, "must be > 0");
        break;
    case EM_OPT_VARIANT:
        kind = em_cli_variant(v);
        if (kind < 0)
            return bad(c, name, v,
                       "expected 'standard' (eps/(2 delta)), 'monotone' (eps/delta) or 'pf' "
                       "(permute-and-flip)");
        c->variant = kind == EM_PF ? EM_CLI_VARIANT_PF : kind;
        break;
    case EM_OPT_DIGITS: {
        uint64_t d;
        if (em_cli_parse_u64(v, &d, &msg) != EM_OK)
            return bad(c, name, v, msg);
        if (d < 1 || d > EM_ROUND_MAX_DIGITS)
            return bad(c, name, v, "must be between 1 and 1000");
        c->digits = (int)d;
        break;
    }
    case EM_OPT_FORMAT:
        if (!strcmp(v, "csv"))
            c->format = EM_FMT_CSV;
        else if (!strcmp(v, "json"))
            c->format = EM_FMT_JSON;
        else
            return bad(c, name, v, "expected 'csv' or 'json'");
        break;
    case EM_OPT_SEED:
        if (em_cli_parse_u64(v, &c->seed, &msg) != EM_OK)
            return bad(c, name, v, msg);
        break;
    case EM_OPT_N:
        if (em_cli_parse_u64(v, &c->n, &msg) != EM_OK)
            return bad(c, name, v, msg);
        break;
    case EM_OPT_ALPHA:
        if (em_cli_parse_double(v, &c->alpha, &msg) != EM_OK)
            return bad(c, name, v, msg);
        if (!(c->alpha > 0 && c->alpha < 1))
            return bad(c, name, v, "must be in (0, 1)");
        break;
    case EM_OPT_RTOL:
        if (em_cli_parse_double(v, &c->rtol, &msg) != EM_OK)
            return bad(c, name, v, msg);
        if (!(c->rtol >= 0))
            return bad(c, name, v, "must be >= 0");
        break;
    case EM_OPT_ATOL:
        if (em_cli_parse_double(v, &c->atol, &msg) != EM_OK)
            return bad(c, name, v, msg);
        if (!(c->atol >= 0))
            return bad(c, name, v, "must be >= 0");
        break;
    case EM_OPT_CDF:
        c->cdf = v;
        break;
    case EM_OPT_MIN_EXPECTED:
        if (em_cli_parse_double(v, &c->min_expected, &msg) != EM_OK)
            return bad(c, name, v, msg);
        if (!(c->min_expected >= 1))
            return bad(c, name, v, "must be >= 1");
        break;
    case EM_OPT_SAMPLES:
        c->samples = v;
        break;
    case EM_OPT_PROBS:
        c->probs = v;
        break;
    case EM_OPT_AT:
        c->at = v;
        break;
    case EM_OPT_GRID:
        c->grid = v;
        break;
    case EM_OPT_BETWEEN:
        c->between = v;
        break;
    case EM_OPT_MC:
        if (em_cli_parse_u64(v, &c->mc, &msg) != EM_OK)
            return bad(c, name, v, msg);
        if (c->mc < 2 || c->mc > EM_CLI_MC_MAX)
            return bad(c, name, v, "must be between 2 and 1000000000 (a standard error needs 2 "
                                   "draws)");
        break;
    case EM_OPT_SAMPLES_ARE:
        if (em_samples_are_parse(v, &c->samples_are) != 0)
            return bad(c, name, v, "expected 'labels' or 'indices'");
        break;
    default:
        break;
    }
    c->seen |= flag;
    return -1;
}

int em_cli_parse(em_cli *c, int argc, char **argv, unsigned allowed, const char *help)
{
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            fputs(help, stdout);
            return EM_EXIT_OK;
        }
        if (!only_files && !strcmp(a, "--")) {
            only_files = 1;
            continue;
        }
        if (!only_files && a[0] == '-' && a[1] != 0) {
            const char *eq = strchr(a, '=');
            size_t nl = eq ? (size_t)(eq - a) : strlen(a);
            int k;
            for (k = 0; opts[k].name; k++)
                if (strlen(opts[k].name) == nl && !strncmp(opts[k].name, a, nl))
                    break;
            if (allowed & EM_OPT_VARIANT)
                allowed |= EM_OPT_FORCE;
            if (allowed & EM_OPT_SAMPLES)
                allowed |= EM_OPT_SAMPLES_ARE;
            if (allowed & EM_OPT_EPSILON)
                allowed |= EM_OPT_EPSILON_LOG;
            if (!opts[k].name || !(allowed & opts[k].flag)) {
                const char *names[64];
                size_t nn = 0;
                for (int j = 0; opts[j].name && nn < 64; j++)
                    if (allowed & opts[j].flag)
                        names[nn++] = opts[j].name;
                const char *near = em_cli_nearest(a, nl, names, nn);
                if (near && (!opts[k].name || strcmp(near, opts[k].name)))
                    fprintf(stderr, "%s: unknown option '%.*s' (did you mean %s?  see --help)\n",
                            c->cmd, (int)nl, a, near);
                else
                    fprintf(stderr, "%s: unknown option '%.*s' (see --help)\n", c->cmd, (int)nl, a);
                return EM_EXIT_USAGE;
            }
            if (c->seen & opts[k].flag) {
                fprintf(stderr, "%s: %s given twice\n", c->cmd, opts[k].name);
                return EM_EXIT_USAGE;
            }
            if (opts[k].flag == EM_OPT_FORCE) { /* the one option without a value */
                if (eq) {
                    fprintf(stderr, "%s: --force takes no value\n", c->cmd);
                    return EM_EXIT_USAGE;
                }
                c->seen |= EM_OPT_FORCE;
                continue;
            }
            const char *v;
            if (eq) {
                v = eq + 1;
            } else {
                if (i + 1 >= argc) {
                    fprintf(stderr, "%s: %s needs a value\n", c->cmd, opts[k].name);
                    return EM_EXIT_USAGE;
                }
                v = argv[++i];
            }
            int r = set_opt(c, opts[k].flag, opts[k].name, v);
            if (r >= 0)
                return r;
            continue;
        }
        if (!(allowed & EM_OPT_FILE) || (c->seen & EM_OPT_FILE)) {
            fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", c->cmd, a);
            return EM_EXIT_USAGE;
        }
        c->file = a;
        c->seen |= EM_OPT_FILE;
    }
    if (c->seen & EM_OPT_EPSILON_LOG) /* it gives the epsilon a command requires */
        c->seen |= EM_OPT_EPSILON;
    return -1;
}

int em_cli_require(const em_cli *c, unsigned required)
{
    for (int k = 0; opts[k].name; k++)
        if ((required & opts[k].flag) && !(c->seen & opts[k].flag)) {
            fprintf(stderr, "%s: %s is required (see --help)\n", c->cmd, opts[k].name);
            return EM_EXIT_USAGE;
        }
    return -1;
}

int em_cli_begin(em_cli *c, int argc, char **argv, unsigned allowed, unsigned required,
                 const char *help)
{
    int rc = em_cli_parse(c, argc, argv, allowed, help);
    if (rc < 0)
        rc = em_cli_require(c, required);
    if (rc < 0) {
        const char *in2 = (required & EM_OPT_SAMPLES) ? c->samples
                          : (required & EM_OPT_PROBS) ? c->probs : NULL;
        if (in2 && !strcmp(in2, "-") && (!c->file || !strcmp(c->file, "-"))) {
            fprintf(stderr, "%s: the scenario and the %s cannot both come from standard input\n",
                    c->cmd, (required & EM_OPT_SAMPLES) ? "samples" : "probabilities");
            rc = EM_EXIT_USAGE;
        }
    }
    return rc;
}

void em_cli_stdin_hint(const char *cmd, const char *path, const char *what)
{
    /* a user who forgot the FILE argument otherwise sees a program that hangs */
    if ((!path || !strcmp(path, "-")) && isatty(STDIN_FILENO))
        fprintf(stderr, "%s: reading %s from standard input (Ctrl-D to end)\n", cmd, what);
}

int em_cli_flush(const char *cmd, int on_stdout)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error%s\n", cmd, on_stdout ? " on standard output" : "");
        return EM_EXIT_INTERNAL;
    }
    return EM_EXIT_OK;
}

int em_cli_status_exit(int st)
{
    switch (st) {
    case EM_OK:
        return EM_EXIT_OK;
    case EM_ERR_NOMEM:
    case EM_ERR_RNG:
    case EM_ERR_UNDECIDED:
        return EM_EXIT_INTERNAL;
    default:
        return EM_EXIT_USAGE;
    }
}

void em_cli_sweep_row(const em_cli *c, const char *columns, size_t row)
{
    if (!c->sweep_n)
        return;
    if (c->sweep_i == 0 && row == 0)
        printf("epsilon,%s\n", columns);
    printf("%s,", c->eps_all[c->sweep_i]);
}

void em_cli_json_open(const em_cli *c)
{
    printf("%s{\n", c->sweep_n && c->sweep_i == 0 ? "[\n" : "");
}

void em_cli_json_close(const em_cli *c)
{
    const int more = c->sweep_n && c->sweep_i + 1 < c->sweep_n;
    printf("}%s\n%s", more ? "," : "", c->sweep_n && !more ? "]\n" : "");
}

void em_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

const char *em_cli_human(const char *label)
{
    /* one label per call (the CLI is single-threaded; a printf takes one at a time) */
    static char buf[EM_SCN_MAX_LINE * 6 + 16];
    return em_label_human_str(buf, sizeof buf, label, 0);
}

void em_cli_csv_label(const char *label)
{
    /* a terminal is a person, not a parser: no raw escape sequence reaches it */
    if (em_label_needs_escape(label) && isatty(STDOUT_FILENO)) {
        fputc('"', stdout);
        for (const char *p = em_cli_human(label); *p; p++) {
            if (*p == '"')
                fputc('"', stdout);
            fputc(*p, stdout);
        }
        fputc('"', stdout);
        return;
    }
    em_csv_label(stdout, label);
}
