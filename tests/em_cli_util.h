/* em_cli_util.h: running the expmech program from a unit test (test_cli.c, test_audit.c).
 *
 * Header-only, static.  Each test runs in a fresh temporary directory (setup calls
 * em_cli_setup with a mkdtemp template, teardown removes it); run() executes a shell
 * command there, with $E the program (build/expmech, or $EM_EXPMECH: absolute, or
 * relative to the directory the test starts in), and captures its standard output in
 * out and its standard error in errtxt (the first EM_CLI_OUT_SIZE bytes, default 64 KiB,
 * and 64 KiB).
 */
#ifndef EM_CLI_UTIL_H
#define EM_CLI_UTIL_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[64];
#ifndef EM_CLI_OUT_SIZE
#define EM_CLI_OUT_SIZE (1 << 16) /* captured stdout; a test may define a larger one */
#endif
static char out[EM_CLI_OUT_SIZE], errtxt[1 << 16];

/* the file tmpdir/name into buf (NUL-terminated; empty when missing) */
static inline void em_cli_slurp(const char *name, char *buf, size_t cap)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

/* sh -c "ARGS" in the temporary directory (ARGS may contain pipes and redirections using
 * $E for the program); stdout and stderr captured; returns the exit status. */
static inline int run(const char *fmt, ...)
{
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    const char *p = getenv("EM_EXPMECH");
    char *cwd = getcwd(NULL, 0);
    snprintf(cmd, sizeof cmd, "cd %s && E=%s%s%s; export E; %s >out.txt 2>err.txt", tmpdir,
             p && p[0] == '/' ? "" : cwd, p && p[0] == '/' ? "" : "/", p ? p : "build/expmech",
             args);
    free(cwd);
    int st = system(cmd);
    em_cli_slurp("out.txt", out, sizeof out);
    em_cli_slurp("err.txt", errtxt, sizeof errtxt);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* For run(): makes tmpdir/nognuplot, a directory for PATH: every program of $PATH but
 * gnuplot (links), so that $E finds what it may need (mk/valgrind-expmech: bash,
 * dirname, valgrind and valgrind's own helpers) and no gnuplot. */
#define EM_NO_GNUPLOT_PATH                                                              \
    "mkdir -p nognuplot && (IFS=:; for d in $PATH; do ln -s \"$d\"/* nognuplot/ "         \
    "2>/dev/null; done; true) && rm -f nognuplot/gnuplot*"

/* write text to tmpdir/name */
static inline void put(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

/* a fresh temporary directory from the mkdtemp template tmpl ("/tmp/..._XXXXXX") */
static inline void em_cli_setup(const char *tmpl)
{
    strcpy(tmpdir, tmpl);
    ck_assert(mkdtemp(tmpdir) != NULL);
}

static inline void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
}

#endif
