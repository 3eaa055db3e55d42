/* expmech: the command-line program over libexpmech.  One subcommand per file
 * (cmd_NAME.c); this file only dispatches. */
#include <errno.h> /* fopencookie: _GNU_SOURCE, set by the Makefile */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

const em_command em_commands[] = {
    {"demo", cmd_demo, "demo                      the marital-status example: probabilities and draws"},
    {"probs", cmd_probs, "probs --epsilon E [FILE]  exact probabilities, correctly rounded (MPFR, any digits)"},
    {"sample", cmd_sample, "sample --epsilon E [FILE] exact draws (-n N, --seed S, --sampler float)"},
    {"check", cmd_check, "check --samples S [FILE]  test draws of another implementation (G-test, exit 0/1)"},
    {"conform", cmd_conform, "conform --sampler 'CMD'    run another sampler on every case of the conformance battery"},
    {"compare", cmd_compare, "compare --probs P [FILE]  judge another implementation's probabilities (exit 0/1)"},
    {"audit", cmd_audit, "audit --epsilon E X Y       exact privacy loss between neighbours X, Y (exit 0/1)"},
    {"cdf", cmd_cdf, "cdf --epsilon E --at X [FILE]  exact CDF of a continuous scenario, correctly rounded"},
    {"density", cmd_density, "density --epsilon E --at X [FILE] exact density (and its log) of a continuous scenario"},
    {"quantile", cmd_quantile, "quantile --epsilon E --at P [FILE] exact quantile function, correctly rounded"},
    {"utility", cmd_utility, "utility --epsilon E [FILE]  exact expected utility and loss (finite, weighted, continuous)"},
    {"plot", cmd_plot, "plot --x C --y C --output F.svg [FILE]  a table of expmech as an SVG figure (gnuplot)"},
    {"groups", cmd_groups, "groups --epsilon E --split S  per-group P(true mode), expected loss and the gap (seed 001)"},
    {"score", cmd_score, "score FUNCTION --data F    a scenario from raw data: proven score, sensitivity"},
    {"example", cmd_example, "example NAME              print a seed scenario (--list for the names)"},
    {NULL, NULL, NULL}
};

static void usage(FILE *f)
{
    fputs("usage: expmech COMMAND [OPTIONS] [FILE]\n\ncommands:\n", f);
    for (const em_command *c = em_commands; c->name; c++)
        fprintf(f, "  %s\n", c->synopsis);
    fputs("\nRun `expmech COMMAND --help` for a command's options.\n"
          "`expmech --version` (or -V) prints the library's version.\n"
          "Exit status: 0 success/pass, 1 reject/violation, 2 bad input, 3 internal failure\n"
          "(a write error on standard output included), 4 too little data to test (check).\n", f);
}

/* Every command's output passes through here: a verdict or a table that did not reach its
 * reader is a failure, whatever the command concluded.  A write error (disk full, closed
 * pipe) turns 0 and 1 into 3; a failure the command already reported keeps its status. */
static int finish(const char *name, int rc)
{
    int bad = fflush(stdout) != 0;
    bad |= ferror(stdout) != 0;
    int e = errno;
    bad |= fclose(stdout) != 0;
    if (!e)
        e = errno;
    if (bad) {
        fprintf(stderr, "expmech%s%s: write error on standard output%s%s\n", name ? " " : "",
                name ? name : "", e ? ": " : "", e ? strerror(e) : "");
        if (rc == EM_EXIT_OK || rc == EM_EXIT_REJECT || rc == EM_EXIT_INSUFFICIENT)
            rc = EM_EXIT_INTERNAL;
    }
    return rc;
}

/* Messages quote what the user gave (a value, a file name, a label): a control byte in it
 * reaches the terminal as \xHH, never raw (an escape sequence could rewrite the screen). */
static ssize_t shown(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    char out[4 * 256];
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; i < n && k + 4 <= sizeof out; i++) {
            unsigned char b = (unsigned char)buf[i];
            if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f)
                k += (size_t)snprintf(out + k, 5, "\\x%02x", b);
            else
                out[k++] = (char)b;
        }
        for (size_t w = 0; w < k;) {
            ssize_t r = write(STDERR_FILENO, out + w, k - w);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return -1;
            w += (size_t)r;
        }
    }
    return (ssize_t)n;
}

int main(int argc, char **argv)
{
    FILE *err = fopencookie(NULL, "w", (cookie_io_functions_t){.write = shown});
    if (err && setvbuf(err, NULL, _IONBF, 0) == 0)
        stderr = err;
    if (argc < 2) {
        usage(stderr);
        return EM_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(NULL, EM_EXIT_OK);
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("expmech %s\n", em_version());
        return finish(NULL, EM_EXIT_OK);
    }
    for (const em_command *c = em_commands; c->name; c++)
        if (!strcmp(argv[1], c->name)) {
            errno = 0;
            return finish(c->name, c->run(argc - 1, argv + 1));
        }
    const char *names[32];
    size_t nn = 0;
    for (const em_command *c = em_commands; c->name && nn < 32; c++)
        names[nn++] = c->name;
    const char *near = em_cli_nearest(argv[1], strlen(argv[1]), names, nn);
    if (near)
        fprintf(stderr, "expmech: unknown command '%s' (did you mean %s?)\n", argv[1], near);
    else
        fprintf(stderr, "expmech: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EM_EXIT_USAGE;
}
