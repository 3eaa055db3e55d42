/* cli_util.c: the option parser of every command (em_cli_options), the options of the
 * oracle commands, the library's messages as the command line words them, and the scenario
 * and mechanism of a command through the public API. */
#include "cli/cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>

void em_cli_free(em_cli *c) { em_free(c->eps_all); }

/* Strict numbers, the why of a refusal or NULL: a typo is never read as a prefix. */
static const char *u64_why(const char *s, uint64_t *out)
{
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *p = s + 2 * hex;
    if (!*s || !*p)
        return *s ? "missing digits" : "empty value";
    if (p[strspn(p, hex ? "0123456789abcdefABCDEF" : "0123456789")])
        return "not a non-negative integer";
    errno = 0;
    *out = strtoull(p, NULL, hex ? 16 : 10);
    return errno ? "too large (the limit is 2^64 - 1)" : NULL;
}

static const char *double_why(const char *s, double *out)
{
    char *end;
    if (!*s || s[0] == ' ' || s[0] == '\t')
        return *s ? "leading white space" : "empty value";
    *out = strtod(s, &end);
    return end == s || *end ? "not a number" : isfinite(*out) ? NULL : "not a finite number";
}

const char *em_cli_nearest(const char *w, size_t wn, const char *const *words, size_t n)
{
    const char *best = NULL;
    size_t bd = 3, d[41][41]; /* edit distances of the prefixes, d[i][j] */
    for (size_t k = 0; k < n && wn <= 40; k++) {
        size_t m = strlen(words[k]);
        for (size_t i = 0; i <= wn && m <= 40; i++)
            for (size_t j = 0; j <= m; j++) {
                size_t v = i && j ? d[i - 1][j - 1] + (w[i - 1] != words[k][j - 1]) : i + j;
                if (i && j && d[i - 1][j] + 1 < v)
                    v = d[i - 1][j] + 1;
                if (i && j && d[i][j - 1] + 1 < v)
                    v = d[i][j - 1] + 1;
                d[i][j] = v;
            }
        size_t dist = m > 40 ? 3 : wn >= 3 && m > wn && !strncmp(words[k], w, wn) ? 1 : d[wn][m];
        if (dist < bd)
            bd = dist, best = words[k];
    }
    return best;
}

int em_cli_unknown(const char *cmd, const char *what, const char *a, size_t len,
                   const char *const *names, size_t n, int list)
{
    const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
    const char *near = em_cli_nearest(a, eq ? (size_t)(eq - a) : strlen(a), names, n);
    fprintf(stderr, "%s: unknown %s '%.*s' (", cmd, what, (int)len, a);
    if (near)
        fprintf(stderr, "did you mean %s?  ", near);
    for (size_t k = 0; list && !near && k < n; k++)
        fprintf(stderr, "%s%s", k ? ", " : "one of ", names[k]);
    fputs(list && !near ? "; see --help)\n" : "see --help)\n", stderr);
    return EM_EXIT_USAGE;
}

size_t em_cli_names(const em_cli_spec *sp, unsigned long long mask, const char **names,
                    size_t cap)
{
    size_t n = 0;
    for (size_t k = 0; sp->opts[k].name && n + 1 < cap; k++)
        if (mask >> k & 1)
            names[n++] = sp->opts[k].name;
    names[n++] = "--help";
    return n;
}

/* The value v of option o into dst: -1, or an exit status after a message. */
static int set_value(const em_cli_spec *sp, const em_cli_opt *o, void *dst, const char *v)
{
    void *field = (char *)dst + o->off;
    const char *why = NULL;
    int w = 0;
    if (o->kind == EM_CLI_CALL)
        return o->set(dst, sp->cmd, o->name, v);
    if (o->kind == EM_CLI_FLAG)
        *(int *)field = 1;
    else if (o->kind == EM_CLI_WORD) {
        while (o->words[w] && strcmp(o->words[w], v))
            w++;
        *(int *)field = w;
        why = o->words[w] ? NULL : o->why;
    } else if (o->kind == EM_CLI_STRING)
        *(const char **)field = v;
    else {
        why = o->kind == EM_CLI_U64 ? u64_why(v, field) : double_why(v, field);
        double x = o->kind == EM_CLI_U64 ? (double)*(uint64_t *)field : *(double *)field;
        why = why ? why : x < o->lo || x > o->hi ? o->why : NULL;
    }
    return why ? em_cli_usage(sp->cmd, "%s: bad value '%s': %s", o->name, v, why) : -1;
}

int em_cli_options(const em_cli_spec *sp, unsigned long long mask, int argc, char **argv,
                   void *dst, unsigned long long *given)
{
    int only_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            fputs(sp->help, stdout);
            return EM_EXIT_OK;
        }
        if (!only_args && !strcmp(a, "--")) {
            only_args = 1;
            continue;
        }
        int rc = EM_EXIT_USAGE;
        if (only_args || a[0] != '-' || !a[1]) {
            if (!sp->arg && sp->unknown) /* a command that tells why */
                return sp->unknown(sp, mask, a);
            if (!sp->arg)
                return em_cli_usage(sp->cmd, "unexpected argument '%s' (see --help)", a);
            if ((rc = sp->arg(dst, sp->cmd, a)) >= 0)
                return rc;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a), k = 0;
        while (sp->opts[k].name && !((mask >> k & 1) && strlen(sp->opts[k].name) == nl &&
                                     !strncmp(sp->opts[k].name, a, nl)))
            k++;
        const em_cli_opt *o = &sp->opts[k];
        if (!o->name) {
            const char *names[64];
            return sp->unknown ? sp->unknown(sp, mask, a)
                               : em_cli_unknown(sp->cmd, "option", a, nl, names,
                                                em_cli_names(sp, mask, names, 64), 0);
        }
        for (size_t j = 0; !sp->repeat && sp->opts[j].name; j++)
            if ((*given >> j & 1) && sp->opts[j].off == o->off)
                return em_cli_usage(sp->cmd, "%s given twice", o->name);
        const int flag = o->kind == EM_CLI_FLAG;
        const char *v = flag ? "" : eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (flag && eq)
            return em_cli_usage(sp->cmd, "%s takes no value", o->name);
        if (!v || (sp->empty && !flag && !*v))
            return em_cli_usage(sp->cmd, "%s needs a value", o->name);
        if ((rc = set_value(sp, o, dst, v)) >= 0)
            return rc;
        *given |= 1ULL << k;
    }
    return -1;
}

/* ---------------------------------------------------- the oracle commands' options */

/* --epsilon SPEC or --epsilon-log LO:HI:N: every value (em_epsilon_sweep), c->eps_text the
 * first; a sweep unless SPEC is one plain value. */
static int set_epsilon(void *dst, const char *cmd, const char *name, const char *v)
{
    em_cli *c = dst;
    const int log = !strcmp(name, "--epsilon-log");
    if (c->seen & (EM_OPT(EO_EPSILON) | EM_OPT(EO_EPSILON_LOG)))
        return em_cli_usage(cmd, "--epsilon and --epsilon-log exclude each other");
    em_error e;
    int st = em_epsilon_sweep(v, log, &c->eps_all, &c->eps_count, &e);
    if (st == EM_ERR_NOMEM)
        return em_cli_fail(cmd, NULL, &e);
    if (st != EM_OK) {
        /* the whole value is the number named: said once */
        char said[EM_ERRLEN];
        snprintf(said, sizeof said, "bad number '%s': ", v);
        size_t k = strlen(said);
        return em_cli_usage(cmd, "%s: bad value '%s': %s", name, v,
                            strncmp(e.msg, said, k) ? e.msg : e.msg + k);
    }
    c->eps_text = c->eps_all[0];
    c->sweep_n = log || strpbrk(v, ",:") ? c->eps_count : 0;
    return -1;
}

static int set_sensitivity(void *dst, const char *cmd, const char *name, const char *v)
{
    em_error e;
    int sign;
    ((em_cli *)dst)->delta_text = v;
    const char *why = "must be > 0";
    if (em_num_cmp(v, "0", &sign, &e) != EM_OK) {
        /* the value is named already: the library's why alone ("bad number '%.60s': ") */
        size_t k = strlen("bad number '") + (strlen(v) < 60 ? strlen(v) : 60);
        int said = !strncmp(e.msg, "bad number '", 12) && strlen(e.msg) > k + 2 &&
                   !strncmp(e.msg + k, "': ", 3);
        why = said ? e.msg + k + 3 : e.msg;
    } else if (sign > 0)
        return -1;
    return em_cli_usage(cmd, "%s: bad value '%s': %s", name, v, why);
}

#define S(name, f) EM_CLI_STR(name, em_cli, f)
#define U(name, f, lo, hi, why) EM_CLI_NUM(name, EM_CLI_U64, em_cli, f, lo, hi, why)
#define D(name, f, lo, hi, why) EM_CLI_NUM(name, EM_CLI_DOUBLE, em_cli, f, lo, hi, why)
/* In the order of EO_* (cli_util.h): an option's bit is EM_OPT(its index). */
static const em_cli_opt cli_opts[] = {
    EM_CLI_CALL_AT("--epsilon", em_cli, eps_text, set_epsilon),
    EM_CLI_CALL_AT("--sensitivity", em_cli, delta_text, set_sensitivity),
    EM_CLI_WORDS("--variant", em_cli, variant, "expected 'standard' (eps/(2 delta)), "
                 "'monotone' (eps/delta) or 'pf' (permute-and-flip)", "standard", "monotone", "pf"),
    U("--digits", digits, 1, EM_DIGITS_MAX, "must be between 1 and 1000"),
    EM_CLI_WORDS("--format", em_cli, format, "expected 'csv' or 'json'", "csv", "json"),
    U("--seed", seed, 0, HUGE_VAL, NULL), U("-n", n, 0, HUGE_VAL, NULL),
    D("--alpha", alpha, EM_CLI_OPEN0, EM_CLI_BELOW1, "must be in (0, 1)"), S("--samples", samples),
    S("--probs", probs), D("--rtol", rtol, 0, HUGE_VAL, "must be >= 0"),
    D("--min-expected", min_expected, 1, HUGE_VAL, "must be >= 1"),
    U("--mc", mc, 2, 1e9, "must be between 2 and 1000000000 (a standard error needs 2 draws)"),
    S("--cdf", cdf), D("--atol", atol, 0, HUGE_VAL, "must be >= 0"), S("--at", at), S("--grid", grid), S("--between", between),
    S("--loss-at", at), EM_CLI_FLAG_AT("--force", em_cli, force),
    EM_CLI_WORDS("--samples-are", em_cli, samples_are, "expected 'labels' or 'indices'", "labels",
                 "indices"),
    EM_CLI_CALL_AT("--epsilon-log", em_cli, eps_all, set_epsilon),
    EM_CLI_WORDS("--sampler", em_cli, sampler, "expected 'exact' or 'float'", "exact", "float"),
    EM_CLI_WORDS("--timing", em_cli, timing, "expected 'variable' or 'fixed'", "variable",
                 "fixed"),
    S("--split", split), S("--data", data), S("--column", column), S("--group-by", group_by),
    S("--candidates", candidates), EM_CLI_FLAG_AT("--candidates-from-data", em_cli, from_data),
    S("--function", function), S("--neighbours", neighbours),
    EM_CLI_END,
};

static int file_arg(void *dst, const char *cmd, const char *a)
{
    em_cli *c = dst;
    if (c->seen & EM_OPT(EO_FILE))
        return em_cli_usage(cmd, "unexpected argument '%s' (see --help)", a);
    c->file = a;
    c->seen |= EM_OPT(EO_FILE);
    return -1;
}

/* The options that come with another: --force with --variant, --samples-are with --samples,
 * and --epsilon-log and --loss-at, which also give the --epsilon, --at a command requires. */
static const int with[][2] = {{EO_VARIANT, EO_FORCE}, {EO_SAMPLES, EO_SAMPLES_ARE},
                              {EO_EPSILON, EO_EPSILON_LOG}, {EO_AT, EO_LOSS_AT}};

int em_cli_begin(em_cli *c, const char *cmd, int argc, char **argv, unsigned long long allowed,
                 unsigned long long required, const char *help)
{
    const em_check_opts check = EM_CHECK_OPTS_INIT;
    *c = (em_cli){.cmd = cmd, .variant = EM_STANDARD, .digits = 17, .n = 1, .alpha = check.alpha,
                  .rtol = 1e-9, .atol = 0x1p-1074, .min_expected = check.min_expected,
                  .samples_are = EM_SAMPLES_ARE_AUTO};
    for (size_t k = 0; k < sizeof with / sizeof *with; k++)
        allowed |= allowed >> with[k][0] & 1 ? EM_OPT(with[k][1]) : 0;
    const em_cli_spec sp = {c->cmd, help, cli_opts,
                            .arg = (allowed & EM_OPT(EO_FILE)) ? file_arg : NULL};
    int rc = em_cli_options(&sp, allowed, argc, argv, c, &c->seen);
    for (size_t k = 2; k < sizeof with / sizeof *with; k++)
        c->seen |= c->seen >> with[k][1] & 1 ? EM_OPT(with[k][0]) : 0;
    if (c->seen & EM_OPT(EO_SAMPLES_ARE)) /* the word's index into EM_SAMPLES_ARE_* */
        c->samples_are = c->samples_are ? EM_SAMPLES_ARE_INDICES : EM_SAMPLES_ARE_LABELS;
    for (int k = 0; rc < 0 && cli_opts[k].name; k++)
        if ((required >> k & 1) && !(c->seen >> k & 1))
            rc = em_cli_usage(c->cmd, "%s is required (see --help)", cli_opts[k].name);
    const char *in2 = (required & EM_OPT(EO_SAMPLES)) ? c->samples
                      : (required & EM_OPT(EO_PROBS)) ? c->probs : NULL;
    if (rc < 0 && in2 && !strcmp(in2, "-") && (!c->file || !strcmp(c->file, "-")))
        rc = em_cli_usage(c->cmd, "the scenario and the %s cannot both come from standard input",
                          (required & EM_OPT(EO_SAMPLES)) ? "samples" : "probabilities");
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
    if (fflush(stdout) == 0 && !ferror(stdout))
        return EM_EXIT_OK;
    fprintf(stderr, "%s: write error%s\n", cmd, on_stdout ? " on standard output" : "");
    return EM_EXIT_INTERNAL;
}

int em_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EM_EXIT_USAGE;
}

static int em_cli_status_exit(int st) /* 2: the caller's mistake, 3: the machine's */
{
    int machine = st == EM_ERR_NOMEM || st == EM_ERR_RNG || st == EM_ERR_UNDECIDED ||
                  st == EM_ERR_PROGRAM;
    return st == EM_OK ? EM_EXIT_OK : machine ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
}

int em_cli_written(const char *cmd, int st, const em_error *e)
{
    /* a writer's EM_ERR_DOMAIN on a stream in error is the write error finish() names */
    return st == EM_OK || (st == EM_ERR_DOMAIN && ferror(stdout)) ? -1
                                                                  : em_cli_fail(cmd, NULL, e);
}

em_write_opts em_cli_write_opts(const em_cli *c)
{
    return (em_write_opts){.format = c->format ? EM_WRITE_JSON : EM_WRITE_CSV,
                           .sweep_i = c->sweep_i, .sweep_n = c->sweep_n,
                           .epsilon = c->sweep_n ? c->eps_all[c->sweep_i] : NULL,
                           .terminal = isatty(STDOUT_FILENO)};
}

/* ------------------------------------ the library's messages, the scenario and mechanism */

/* The library names its options' fields (o->p_max) and its parameters; the command line
 * names its options.  o->NAME is --NAME with '_' as '-', and so is a parameter of params
 * where a message starts with it (the library puts a parameter first); words are replaced
 * where they stand as whole words, or (first) where the message starts with them. */
static const char *const params[] = {"at:", "grid:", "between:", "loss_at:", "mc:", "output:",
                                     "variant ", "sensitivity ", "epsilon ", "timing "};
static const struct { const char *api, *flag; int first; } words[] = {
    {"em_plot_write reads", "expmech plot reads", 0}, {"group_by", "--group-by", 0},
    {"samples_are EM_SAMPLES_ARE_INDICES", "--samples-are indices", 0},
    {"samples_are EM_SAMPLES_ARE_LABELS", "--samples-are labels", 0},
    {"dx->samples_are", "--samples-are", 0}, {"dx, dy:", "--samples-x/--samples-y:", 1},
    {"(force to run it anyway)", "(--force to run it anyway)", 0},
    {"dir:", "--output-dir:", 1},
};

static int word_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* "--" and name[0..n) with '_' as '-' at buf[*o], within len */
static void put_flag(char *buf, size_t len, size_t *o, const char *name, size_t n)
{
    for (size_t k = 0; k < n + 2 && *o + 1 < len; k++)
        buf[(*o)++] = k < 2 || name[k - 2] == '_' ? '-' : name[k - 2];
}

static const char *em_cli_words(const char *msg, char *buf, size_t len)
{
    size_t o = 0, n, k, np = sizeof params / sizeof *params, nw = sizeof words / sizeof *words;
    for (size_t i = 0; msg[i] && o + 1 < len;) {
        int start = i == 0 || !word_char(msg[i - 1]);
        if (start && !strncmp(msg + i, "o->", 3) && word_char(msg[i + 3])) {
            for (i += 3, n = 0; word_char(msg[i + n]); n++)
                ;
            put_flag(buf, len, &o, msg + i, n);
            i += n;
            continue;
        }
        for (k = 0; i == 0 && k < np && strncmp(msg, params[k], strlen(params[k])); k++)
            ;
        if (i == 0 && k < np) {
            put_flag(buf, len, &o, msg, i = strlen(params[k]) - 1);
            continue;
        }
        for (k = 0; k < nw; k++) {
            size_t w = strlen(words[k].api);
            if ((words[k].first ? i == 0 : start) && !strncmp(msg + i, words[k].api, w) &&
                !(word_char(words[k].api[w - 1]) && word_char(msg[i + w])))
                break;
        }
        if (k == nw) {
            buf[o++] = msg[i++];
            continue;
        }
        int m = snprintf(buf + o, len - o, "%s", words[k].flag);
        o = m < 0 || (size_t)m >= len - o ? len - 1 : o + (size_t)m;
        i += strlen(words[k].api);
    }
    buf[o] = '\0';
    return buf;
}

void em_cli_note(const char *cmd, const char *what, const char *msg)
{
    char said[4 * EM_ERRLEN];
    fprintf(stderr, "%s: %s%s%s\n", cmd, what ? what : "", what ? ": " : "",
            em_cli_words(msg, said, sizeof said));
}

int em_cli_fail(const char *cmd, const char *what, const em_error *e)
{
    em_cli_note(cmd, what, e->msg);
    return em_cli_status_exit(e->status);
}

static int load(const em_cli *c, em_scn **s)
{
    em_error e;
    em_cli_stdin_hint(c->cmd, c->file, "the scenario");
    if (em_scn_new(&(em_scn_spec){.path = c->file ? c->file : "-"}, s, &e) == EM_OK)
        return -1;
    fprintf(stderr, "%s: %s\n", c->cmd, e.msg);
    return e.status == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
}

/* The mechanism of s at epsilon eps with the other options given; tell: the provenance
 * line on stderr (once per command, not once per epsilon of a sweep). */
static int mech(const em_cli *c, em_scn *s, const char *eps, int tell, em_mech **m)
{
    em_error e;
    em_opts o = {eps, (c->seen & EM_OPT(EO_SENSITIVITY)) ? c->delta_text : NULL,
                 !(c->seen & EM_OPT(EO_VARIANT))         ? EM_VARIANT_AUTO
                                                   : c->variant,
                 (c->seen & EM_OPT(EO_FORCE)) != 0, (int)c->digits};
    if (em_mech_new(s, &o, m, &e) == EM_OK) {
        if (tell)
            fprintf(stderr, "%s: %s\n", c->cmd, em_mech_get(*m).provenance);
        return -1;
    }
    if (e.status == EM_ERR_VARIANT && o.variant == EM_PF) {
        /* pf refused for this scenario: after the line naming the parameters, as for a
           computation that refuses it */
        o.variant = EM_STANDARD;
        if (em_mech_new(s, &o, m, NULL) == EM_OK)
            fprintf(stderr, "%s: variant pf%s\n", c->cmd,
                    em_mech_get(*m).provenance + strlen("variant standard"));
        em_free(*m);
        *m = NULL;
    }
    return em_cli_fail(c->cmd, NULL, &e);
}

int em_cli_run(em_cli *c, int rc, em_cli_run_fn *run, const void *ctx)
{
    em_scn *s = NULL;
    rc = rc < 0 ? load(c, &s) : rc;
    const size_t runs = c->sweep_n ? c->sweep_n : 1;
    for (c->sweep_i = 0; rc < 0 && c->sweep_i < runs; c->sweep_i++) {
        em_mech *m = NULL;
        rc = mech(c, s, c->eps_all[c->sweep_i], c->sweep_i == 0, &m);
        if (rc < 0)
            rc = run(c, s, m, ctx);
        em_free(m);
        if (rc == EM_EXIT_OK && c->sweep_i + 1 < runs)
            rc = -1;
    }
    em_free(s);
    em_cli_free(c);
    return rc;
}

int em_cli_oracle(const char *cmd, const char *help, const em_cli_cmd *d, int argc, char **argv)
{
    em_cli c;
    int rc = em_cli_begin(&c, cmd, argc, argv, d->allowed, d->required | EM_OPT(EO_EPSILON), help);
    if (rc < 0 && d->check)
        rc = d->check(&c);
    if (rc < 0 && d->one_epsilon && c.sweep_n)
        rc = em_cli_usage(c.cmd, "%s", EM_CLI_SWEEP_REFUSED);
    return em_cli_run(&c, rc, d->run, d->ctx);
}
