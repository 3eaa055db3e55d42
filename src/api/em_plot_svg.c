/* em_plot_svg.c: the figure itself (em_plot.h): the script of em_plot.c run by gnuplot.
 * gnuplot is an optional run-time dependency, looked up on PATH only when a figure is
 * asked for.  It runs without a shell (io/em_spawn.h), the script on its standard input,
 * the SVG on its standard output: no file name reaches a shell or gnuplot. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "em_plot.h"
#include "api/em_plot_priv.h"
#include "base/em_error.h"
#include "io/em_spawn.h"
#include "api/em_write_priv.h"

/* Limits of a gnuplot run: a figure of EM_PLOT_MAX_CURVES curves is far below both. */
#define SVG_MAX_BYTES (256u << 20)
#define GNUPLOT_SECONDS 600.0

/* gnuplot on PATH (as execvp searches it).  Looked up before posix_spawnp, whose failure
 * to find a program is not always reported as ENOENT (under valgrind the child exits 127
 * instead). */
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

/* The script in an unnamed temporary file, read from its start: its descriptor, or -1. */
static int script_file(const char *text, size_t len)
{
    FILE *f = tmpfile();
    if (!f)
        return -1;
    int fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0); /* the program gets it as fd 0 only */
    int ok = fd >= 0 && fwrite(text, 1, len, f) == len && fflush(f) == 0;
    /* the stream closed before the rewind: closing may move the shared file offset */
    ok &= fclose(f) == 0 && ok && lseek(fd, 0, SEEK_SET) == 0;
    if (!ok && fd >= 0)
        close(fd);
    return ok ? fd : -1;
}

/* gnuplot -d (no ~/.gnuplot or system gnuplotrc: the figure depends on the table only) on
 * the script; its SVG in r->out. */
static int run_gnuplot(const char *text, size_t len, em_spawn_out *r, em_error *err)
{
    if (!gnuplot_on_path())
        return em_err(err, EM_ERR_DOMAIN,
                      "gnuplot not found; install it (Debian: apt-get install gnuplot-nox)");
    int in = script_file(text, len);
    if (in < 0)
        return em_err(err, EM_ERR_PROGRAM, "cannot hand the script to gnuplot: %s",
                      strerror(errno));
    const char *const argv[] = {"gnuplot", "-d", NULL};
    em_spawn_opts so = {GNUPLOT_SECONDS, SVG_MAX_BYTES, UINT64_MAX, 240, in};
    int st = em_spawn_run(argv, &so, r);
    close(in);
    if (st != EM_OK)
        return em_err(err, st, "cannot run gnuplot: %s",
                      st == EM_ERR_NOMEM ? "out of memory" : "no pipe");
    if (r->how == EM_SPAWN_NOT_STARTED)
        return em_err(err, EM_ERR_DOMAIN, "cannot run gnuplot: %s", strerror(r->code));
    if (r->how == EM_SPAWN_EXITED && r->code == 0)
        return EM_OK;
    char how[64];
    if (r->how == EM_SPAWN_EXITED || r->how == EM_SPAWN_SIGNALED)
        snprintf(how, sizeof how, "%s %d",
                 r->how == EM_SPAWN_EXITED ? "exit status" : "signal", r->code);
    else
        snprintf(how, sizeof how, r->how == EM_SPAWN_TIMEOUT ? "no figure within %.0f s"
                                                             : "more output than %.0f bytes",
                 r->how == EM_SPAWN_TIMEOUT ? GNUPLOT_SECONDS : (double)SVG_MAX_BYTES);
    /* gnuplot's last line on standard error says why */
    size_t e = r->err_len;
    while (e && (r->err[e - 1] == '\n' || r->err[e - 1] == '\r'))
        e--;
    size_t b = e;
    while (b && r->err[b - 1] != '\n')
        b--;
    return em_err(err, EM_ERR_PROGRAM, "gnuplot failed (%s)%s%.*s; no figure written", how,
                  e > b ? ": " : "", (int)(e - b), r->err ? r->err + b : "");
}

/* The SVG into a temporary file beside output, renamed over it: a failure leaves output
 * as it was. */
static int to_file(const char *output, const char *svg, size_t len, em_error *err)
{
    size_t n = strlen(output);
    char *tmp = malloc(n + 8);
    if (!tmp)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    memcpy(tmp, output, n);
    memcpy(tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(tmp), st = EM_OK;
    if (fd < 0) {
        st = em_err(err, EM_ERR_DOMAIN, "output: cannot write '%s': %s", output, strerror(errno));
        free(tmp);
        return st;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "output: chmod: %s", strerror(errno));
    for (size_t w = 0; st == EM_OK && w < len;) {
        ssize_t k = write(fd, svg + w, len - w);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            st = em_err(err, EM_ERR_DOMAIN, "output: cannot write '%s': %s", output,
                        strerror(k < 0 ? errno : ENOSPC));
        else
            w += (size_t)k;
    }
    if (close(fd) < 0 && st == EM_OK)
        st = em_err(err, EM_ERR_DOMAIN, "output: cannot write '%s': %s", output, strerror(errno));
    if (st == EM_OK && rename(tmp, output) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "output: cannot write '%s': %s", output, strerror(errno));
    if (st != EM_OK)
        unlink(tmp);
    free(tmp);
    return st;
}

static int plot_script(FILE *f, const void *o, em_error *err)
{
    return em_plot_script(f, o, err);
}

static int plot_svg(const em_plot_opts *o, const char *output, em_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int st = em_write_text(plot_script, o, &text, &len, err);
    em_spawn_out r = {0};
    if (st == EM_OK)
        st = run_gnuplot(text, len, &r, err);
    if (st == EM_OK)
        st = to_file(output, r.out, r.out_len, err);
    free(text);
    free(r.out);
    free(r.err);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}

int em_plot_write(FILE *f, const em_plot_opts *o, em_error *err)
{
    if (o && o->output && f)
        return em_err(err, EM_ERR_DOMAIN, "em_plot_write: f and o->output: the script or the "
                      "figure, not both");
    return o && o->output ? plot_svg(o, o->output, err) : em_plot_script(f, o, err);
}
