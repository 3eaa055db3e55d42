/* expmech: the command-line program over libexpmech.  The subcommands live in cmd_*.c
 * (commands.h); this file only dispatches. */
#include <errno.h> /* fopencookie: _GNU_SOURCE, set by the Makefile */
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli_help.h"

#define O(name) {#name, EM_HELP_##name, NULL, &cmd_##name}
#define R(name) {#name, NULL, cmd_##name, NULL}
const em_command em_commands[] = {
    R(demo),    O(probs),   O(sample),   O(check), R(conform), O(compare), R(audit), O(cdf),
    O(density), O(quantile), O(utility), R(plot),  R(groups),  R(score),   R(example),
    {NULL, NULL, NULL, NULL},
};

int em_command_run(const em_command *c, int argc, char **argv)
{
    char cmd[32];
    snprintf(cmd, sizeof cmd, "expmech %s", c->name);
    return c->run ? c->run(argc, argv) : em_cli_oracle(cmd, c->help, c->oracle, argc, argv);
}

/* Every command's output passes through here: a verdict or a table that did not reach its
 * reader is a failure, whatever the command concluded.  A write error (disk full, closed
 * pipe) turns 0 and 1 into 3; a failure the command already reported keeps its status. */
static int finish(const char *name, int rc)
{
    int bad = fflush(stdout) != 0 || ferror(stdout), e = errno;
    bad |= fclose(stdout) != 0;
    e = e ? e : errno;
    if (bad)
        fprintf(stderr, "expmech%s%s: write error on standard output%s%s\n", name ? " " : "",
                name ? name : "", e ? ": " : "", e ? strerror(e) : "");
    return bad && (rc == EM_EXIT_OK || rc == EM_EXIT_REJECT || rc == EM_EXIT_INSUFFICIENT)
               ? EM_EXIT_INTERNAL
               : rc;
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
        fputs(EM_HELP_expmech, stderr);
        return EM_EXIT_USAGE;
    }
    int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help");
    if (help || !strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        help ? fputs(EM_HELP_expmech, stdout) : printf("expmech %s\n", em_version());
        return finish(NULL, EM_EXIT_OK);
    }
    const char *names[sizeof em_commands / sizeof *em_commands];
    size_t nn = 0;
    for (const em_command *c = em_commands; c->name; c++)
        if (!strcmp(argv[1], names[nn++] = c->name)) {
            errno = 0;
            return finish(c->name, em_command_run(c, argc - 1, argv + 1));
        }
    const char *near = em_cli_nearest(argv[1], strlen(argv[1]), names, nn);
    fprintf(stderr, "expmech: unknown command '%s'%s%s%s\n", argv[1], near ? " (did you mean " : "",
            near ? near : "", near ? "?)" : "");
    fputs(EM_HELP_expmech, stderr);
    return EM_EXIT_USAGE;
}
