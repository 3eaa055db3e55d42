/* cli_mech.c: the scenario and mechanism of a command through the public API (em_scn.h),
 * and the library's errors as the command line words them. */
#include "cli/cli_util.h"

#include <ctype.h>

/* The library names its options' fields (o->p_max) and its parameters; the command line
 * names its options.  o->NAME is --NAME with '_' as '-', and so is a parameter of params
 * where a message starts with it (the library puts a parameter first); words are replaced
 * where they stand as whole words, or (first) where the message starts with them. */
static const char *const params[] = {"at:",     "grid:",        "between:", "loss_at:", "mc:",
                                     "output:", "variant ",     "sensitivity ", "epsilon ",
                                     "timing "};
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

const char *em_cli_words(const char *msg, char *buf, size_t len)
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

int em_cli_judge(em_cli *c, int rc, em_cli_run_fn *run)
{
    if (rc < 0 && c->sweep_n)
        rc = em_cli_usage(c->cmd, "%s", EM_CLI_SWEEP_REFUSED);
    return em_cli_run(c, rc, run, NULL);
}

int em_cli_main(const char *cmd, int argc, char **argv, unsigned long long allowed,
                const char *help, em_cli_run_fn *run, const void *ctx)
{
    em_cli c;
    em_cli_init(&c, cmd);
    return em_cli_run(&c, em_cli_begin(&c, argc, argv, allowed, EM_OPT(EO_EPSILON), help), run,
                      ctx);
}
