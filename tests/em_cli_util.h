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
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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

/* The name of this call of run() for make sanitize and make valgrind (mk/valgrind-select.py):
 * the test program, the call's ordinal among the program's calls (counted in a file of
 * $EM_RUN_DIR, which mk/run-tests.sh sets: Check runs each test in its own process, one at
 * a time), and a digest of the command, so that a run chosen from the sanitized tests'
 * coverage is found again, and only there, in the same tests run under valgrind.  Empty
 * when EM_RUN_DIR is not set. */
static inline void em_cli_run_id(const char *args, char *id, size_t cap)
{
    const char *dir = getenv("EM_RUN_DIR");
    id[0] = 0;
    if (!dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.count", dir, program_invocation_short_name);
    long n = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld", &n) != 1)
            n = 0;
        fclose(f);
    }
    f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fprintf(f, "%ld\n", n + 1);
    fclose(f);
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *c = args; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    snprintf(id, cap, "%s.%ld.%08x", program_invocation_short_name, n + 1, (unsigned)h);
}

/* sh -c "ARGS" in the temporary directory (ARGS may contain pipes and redirections using
 * $E for the program); stdout and stderr captured; returns the exit status. */
static inline int run(const char *fmt, ...)
{
    char args[4096], cmd[8192], id[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    em_cli_run_id(args, id, sizeof id);
    const char *p = getenv("EM_EXPMECH");
    char *cwd = getcwd(NULL, 0);
    snprintf(cmd, sizeof cmd, "cd %s && E=%s%s%s; EM_RUN_ID=%s; export E EM_RUN_ID; %s >out.txt 2>err.txt",
             tmpdir, p && p[0] == '/' ? "" : cwd, p && p[0] == '/' ? "" : "/",
             p ? p : "build/expmech", id, args);
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
