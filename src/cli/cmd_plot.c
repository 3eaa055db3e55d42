/* cmd_plot.c: `expmech plot`: a CSV table that expmech wrote drawn as an SVG figure by
 * gnuplot, so that a terminal user gets a picture without writing gnuplot.  The library
 * reads and checks the tables and writes the gnuplot script (em_plot_write); this command
 * runs gnuplot on it.  gnuplot is an optional run-time dependency: it is found on PATH when
 * this command runs, and only this command needs it.  gnuplot runs without a shell
 * (posix_spawnp), the script on its standard input, the SVG on its standard output: no
 * file name reaches a shell or gnuplot. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

extern char **environ;

static const char help[] =
    "usage: expmech plot --x COL --y COL[,COL...] --output FILE.svg [--series COL]\n"
    "                    [--style S[,S...]] [--logx] [--logy] [--title T]\n"
    "                    [--xlabel L] [--ylabel L] [--overlay F:X:Y:T]... [FILE]\n"
    "Draws a CSV table that expmech wrote as an SVG figure, with gnuplot.\n"
    "  --x COL, --y COL[,COL...]   the x column, the y column(s): one curve each\n"
    "  --output FILE      the SVG file to write (required)\n"
    "  --series COL       one curve per distinct value of COL\n"
    "  --style S[,S...]   lines (default), points, steps or bars, one per --y column\n"
    "  --logx, --logy     logarithmic axis\n"
    "  --title T, --xlabel L, --ylabel L   texts (default: none, the column names)\n"
    "  --overlay F:X:Y:T  column Y against X of table F, as points titled T (repeatable)\n"
    EM_CLI_HELP_END("0 success, 2 bad input (gnuplot not found included), 3 gnuplot failed");

#define CMD "expmech plot"

typedef struct plot {
    em_plot_opts o;
    const char *output;
    const char **ov; /* --overlay's values, o.noverlay of them */
} plot;

static int nomem(void)
{
    fputs(CMD ": out of memory\n", stderr);
    return EM_EXIT_INTERNAL;
}

/* gnuplot on PATH (as execvp searches it).  Looked up before posix_spawnp, whose
 * failure to find a program is not always reported as ENOENT (under valgrind the child
 * exits 127 instead). */
static int gnuplot_on_path(void)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (;;) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char *f = malloc(n + sizeof "/gnuplot");
        if (f) {
            memcpy(f, n ? path : ".", n ? n : 1);
            strcpy(f + (n ? n : 1), "/gnuplot");
            int ok = access(f, X_OK) == 0;
            free(f);
            if (ok)
                return 1;
        }
        if (!end)
            return 0;
        path = end + 1;
    }
}

/* gnuplot with the script on its standard input; 0, or an exit status after a message. */
static int run_gnuplot(const char *text, size_t len, int out)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) < 0)
        return em_cli_usage(CMD, "cannot make a pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    /* -d: no ~/.gnuplot or system gnuplotrc, so the figure depends on the table only. */
    char *argv[] = {"gnuplot", "-d", NULL};
    pid_t pid;
    int e = gnuplot_on_path() ? posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ)
                              : ENOENT;
    posix_spawn_file_actions_destroy(&fa);
    close(fd[0]);
    if (e) {
        close(fd[1]);
        if (e == ENOENT)
            return em_cli_usage(CMD, "gnuplot not found; install it (Debian: apt-get install "
                                     "gnuplot-nox)");
        return em_cli_usage(CMD, "cannot run gnuplot: %s", strerror(e));
    }
    /* A gnuplot that stops early must not kill us with SIGPIPE: its status says why. */
    signal(SIGPIPE, SIG_IGN);
    FILE *g = fdopen(fd[1], "w");
    if (g) {
        fwrite(text, 1, len, g);
        fclose(g);
    } else {
        close(fd[1]);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!g || !WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, CMD ": gnuplot failed (%s %d); no figure written\n",
                !g ? "no pipe, errno" : WIFEXITED(st) ? "exit status" : "signal",
                !g ? errno : WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        return EM_EXIT_INTERNAL;
    }
    return 0;
}

/* gnuplot's standard output (the SVG) goes to a temporary file beside --output, renamed
 * over it on success: a failure leaves --output as it was, and no file name passes
 * through gnuplot. */
static int to_file(const plot *p, const char *text, size_t tlen)
{
    size_t len = strlen(p->output);
    char *tmp = malloc(len + 8);
    if (!tmp)
        return nomem();
    memcpy(tmp, p->output, len);
    memcpy(tmp + len, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = em_cli_usage(CMD, "--output: cannot write '%s': %s", p->output, strerror(errno));
        free(tmp);
        return rc;
    }
    mode_t mask = umask(0);
    umask(mask);
    int rc = fchmod(fd, 0666 & ~mask) < 0
                 ? em_cli_usage(CMD, "--output: chmod: %s", strerror(errno))
                 : run_gnuplot(text, tlen, fd);
    if (close(fd) < 0 && !rc)
        rc = em_cli_usage(CMD, "--output: cannot write '%s': %s", p->output, strerror(errno));
    if (!rc && rename(tmp, p->output) < 0)
        rc = em_cli_usage(CMD, "--output: cannot write '%s': %s", p->output, strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* The script (the library's checks first), then gnuplot on it. */
static int draw(plot *p)
{
    em_cli_stdin_hint(CMD, p->o.table, "a CSV table");
    for (size_t i = 0; i < p->o.noverlay; i++)
        if (!strncmp(p->ov[i], "-:", 2))
            em_cli_stdin_hint(CMD, "-", "a CSV table");
    char *text = NULL;
    size_t len = 0;
    FILE *g = open_memstream(&text, &len);
    if (!g)
        return nomem();
    em_error e;
    int st = em_plot_write(g, &p->o, &e);
    int rc = fclose(g) != 0 ? nomem() : st != EM_OK ? em_cli_fail(CMD, NULL, &e) : -1;
    if (rc < 0)
        rc = to_file(p, text, len);
    free(text);
    return rc;
}

/* --overlay FILE:XCOL:YCOL:TITLE (repeatable): one more overlay. */
static int add_overlay(void *dst, const char *cmd, const char *name, const char *v)
{
    (void)cmd, (void)name;
    plot *p = dst;
    const char **ov = realloc(p->ov, (p->o.noverlay + 1) * sizeof *ov);
    if (!ov)
        return nomem();
    p->o.overlay = p->ov = ov;
    ov[p->o.noverlay++] = v;
    return -1;
}

static int table_arg(void *dst, const char *cmd, const char *a)
{
    (void)cmd;
    plot *p = dst;
    if (p->o.table)
        return em_cli_usage(CMD, "one input table at most ('%s' and '%s')", p->o.table, a);
    p->o.table = a;
    return -1;
}

#define S(name, f) EM_CLI_STR(name, plot, f)
static const em_cli_opt opts[] = {
    S("--x", o.x), S("--y", o.y), S("--series", o.series), S("--style", o.style),
    S("--title", o.title), S("--xlabel", o.xlabel), S("--ylabel", o.ylabel),
    S("--output", output),
    EM_CLI_FLAG_AT("--logx", plot, o.logx),
    EM_CLI_FLAG_AT("--logy", plot, o.logy),
    {"--overlay", EM_CLI_CALL, offsetof(plot, ov), NULL, NULL, NULL, add_overlay},
    EM_CLI_END,
};

int cmd_plot(int argc, char **argv)
{
    const em_cli_spec sp = {.cmd = CMD, .opts = opts, .help = help,
                            .see = "see expmech plot --help", .whole = 1, .list = 1,
                            .repeat = 1, .empty = 1, .arg = table_arg};
    plot p = {EM_PLOT_OPTS_INIT, NULL, NULL};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc < 0 && (!p.o.x || !p.o.y || !p.output))
        rc = em_cli_usage(CMD, "--x, --y and --output are required (see expmech plot --help)");
    if (rc < 0)
        rc = draw(&p);
    free(p.ov);
    return rc;
}
