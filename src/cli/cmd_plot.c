/* cmd_plot.c: `expmech plot`: a CSV table that expmech wrote (a header line, then rows)
 * drawn as an SVG figure by gnuplot, so that a terminal user gets a picture without
 * writing gnuplot.  gnuplot is an optional run-time dependency: it is found on PATH when
 * this command runs, and only this command needs it.  The values are plotted as given:
 * the text of each number goes to gnuplot unchanged (after a check that it is one); the
 * only numbers made here are bar positions, which are layout.  gnuplot runs without a
 * shell (posix_spawnp), its script on its standard input, the data inline as datablocks,
 * the SVG on its standard output: no file name reaches a shell or gnuplot, and texts
 * (titles, labels) reach gnuplot as quoted strings only. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"

extern char **environ;

static const char help[] =
    "usage: expmech plot --x COL --y COL[,COL...] --output FILE.svg [--series COL]\n"
    "                    [--style S[,S...]] [--logx] [--logy] [--title T]\n"
    "                    [--xlabel L] [--ylabel L] [--overlay F:X:Y:T]... [FILE]\n"
    "\n"
    "Draws a CSV table that expmech wrote (FILE, '-' or none: standard input; a header\n"
    "line naming the columns, then rows; blank lines, and lines starting with '#' before\n"
    "the header, are skipped) as an SVG figure, with gnuplot (Debian: apt-get install gnuplot-nox).\n"
    "Values are plotted as given; each y value (and x, except with bars) must be a\n"
    "finite decimal number.  The SVG has a fixed size and font: the same table gives the\n"
    "same bytes.  Example:\n"
    "  expmech utility --epsilon 0.1:10:50 F | expmech plot --x epsilon --y expected_loss \\\n"
    "      --logy --output loss.svg\n"
    "\n"
    "  --x COL           the column on the x axis\n"
    "  --y COL[,COL...]  the column(s) on the y axis: one curve each\n"
    "  --series COL      one curve per distinct value of COL (in order of appearance),\n"
    "                    e.g. --series epsilon\n"
    "  --style S[,S...]  lines (default), points, steps or bars, one per --y column (the\n"
    "                    last repeats); bars group the rows by x value (any text, in\n"
    "                    order of appearance), one bar per curve\n"
    "  --logx, --logy    logarithmic axis (values <= 0 are then not drawn)\n"
    "  --title T, --xlabel L, --ylabel L   texts (default: none, the column names)\n"
    "  --output FILE     the SVG file to write (required)\n"
    "  --overlay FILE:XCOL:YCOL:TITLE   also column YCOL against XCOL of another such\n"
    "                    table, as points titled TITLE (repeatable; not with bars)\n"
    "Exit status: 0 success, 2 bad input or usage (gnuplot not found included),\n"
    "3 gnuplot failed.\n";

#define CMD "expmech plot"

enum { ST_LINES, ST_POINTS, ST_STEPS, ST_BARS };
static const char *const style_names[] = {"lines", "points", "steps", "bars"};
static const char *const style_gnuplot[] = {"lines lw 2", "points pt 7 ps 0.6", "steps lw 2",
                                            "boxes"};

typedef struct table {
    const char *file; /* NULL or "-": standard input */
    char **head;      /* the header's column names */
    size_t ncol;
    char **cell;      /* nrow * ncol fields, row-major */
    size_t nrow, cap; /* cap: rows allocated */
} table;

/* --overlay FILE:XCOL:YCOL:TITLE: another table's column drawn as points. */
typedef struct overlay {
    table t;
    size_t x, y;
    const char *title;
    char *spec; /* a copy of the option's value, cut into the parts above */
} overlay;

typedef struct plot {
    const char *x, *y, *series, *style, *title, *xlabel, *ylabel, *output;
    int logx, logy;
    table t;
    overlay *ov;
    size_t nov;
    size_t *ycol;    /* the --y columns */
    int *ystyle;     /* their styles */
    size_t ny;
    int bars;        /* some --y column is drawn as bars: x is a category */
} plot;

__attribute__((format(printf, 1, 2))) static int usage_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(CMD ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EM_EXIT_USAGE;
}

static void strv_free(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* One CSV line (no newline) into malloc'd fields: comma-separated, a field in double
 * quotes may hold commas and "" for a quote (em_scn_csv_label's form).  -1 on no memory. */
static int split_csv(const char *s, char ***out, size_t *n)
{
    char **v = NULL;
    size_t k = 0;
    size_t len = strlen(s);
    char *buf = malloc(len + 1);
    if (!buf)
        return -1;
    for (;;) {
        size_t b = 0;
        if (*s == '"') {
            for (s++; *s; s++) {
                if (*s == '"' && s[1] != '"')
                    break;
                buf[b++] = *s;
                s += *s == '"';
            }
            s += *s == '"';
        }
        for (; *s && *s != ','; s++)
            buf[b++] = *s;
        buf[b] = 0;
        char **nv = realloc(v, (k + 1) * sizeof *v);
        char *f = strdup(buf);
        if (nv)
            v = nv;
        if (!nv || !f) {
            free(f);
            strv_free(v, k);
            free(buf);
            return -1;
        }
        v[k++] = f;
        if (!*s)
            break;
        s++;
    }
    free(buf);
    *out = v;
    *n = k;
    return 0;
}

static void table_free(table *t)
{
    strv_free(t->head, t->ncol);
    strv_free(t->cell, t->nrow * t->ncol);
}

static int is_number(const char *s)
{
    double d;
    const char *msg;
    return em_cli_parse_double(s, &d, &msg) == EM_OK;
}

static int nomem(void)
{
    fputs(CMD ": out of memory\n", stderr);
    return EM_EXIT_INTERNAL;
}

/* The table of t->file: the header, then rows of as many fields. */
static int read_table(table *t)
{
    const char *name = t->file && strcmp(t->file, "-") ? t->file : "<stdin>";
    FILE *f = name[0] == '<' ? stdin : fopen(t->file, "r");
    if (!f)
        return usage_err("cannot open '%s': %s", t->file, strerror(errno));
    em_cli_stdin_hint(CMD, t->file, "a CSV table");
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    int rc = -1;
    while (rc < 0 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (!len || (line[0] == '#' && !t->head))
            continue; /* comments open the file; a '#' row after the header is a row */
        char **v;
        size_t n;
        if (split_csv(line, &v, &n) < 0) {
            rc = nomem();
            break;
        }
        if (!t->head) {
            t->head = v;
            t->ncol = n;
            size_t k = 0;
            while (k < n && is_number(v[k]))
                k++;
            if (k == n)
                rc = usage_err("%s: no header line: the first line, '%s', has no column names "
                               "(expmech plot reads a header line, then rows)", name, line);
            continue;
        }
        if (n == t->ncol && t->nrow == t->cap) {
            size_t rows = t->cap ? 2 * t->cap : 64;
            char **cell = realloc(t->cell, rows * n * sizeof *cell);
            if (cell) {
                t->cell = cell;
                t->cap = rows;
            }
        }
        if (n == t->ncol && t->nrow < t->cap) {
            memcpy(t->cell + t->nrow++ * n, v, n * sizeof *v);
            free(v);
            continue;
        }
        strv_free(v, n);
        if (n != t->ncol) {
            fprintf(stderr, CMD ": %s:%zu: %zu fields, the header has %zu\n", name, lineno, n,
                    t->ncol);
            rc = EM_EXIT_USAGE;
        } else {
            rc = nomem();
        }
    }
    if (rc < 0 && ferror(f))
        rc = usage_err("%s: read error: %s", name, strerror(errno));
    if (rc < 0 && !t->head)
        rc = usage_err("%s: no header line: the table is empty", name);
    if (rc < 0 && !t->nrow)
        rc = usage_err("%s: no rows after the header line", name);
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}

/* The index of column `name` (for option `opt`), or ncol after a message. */
static size_t column(const table *t, const char *opt, const char *name)
{
    for (size_t k = 0; k < t->ncol; k++)
        if (!strcmp(t->head[k], name))
            return k;
    fprintf(stderr, CMD ": %s: no column '%s' (the columns:", opt, name);
    for (size_t k = 0; k < t->ncol; k++)
        fprintf(stderr, "%s %s", k ? "," : "", em_cli_human(t->head[k]));
    fputs(")\n", stderr);
    return t->ncol;
}

/* --y's columns and --style's styles (the last style repeats). */
static int resolve(plot *p)
{
    char **ys, **ss = NULL;
    size_t ny, ns = 0;
    if (split_csv(p->y, &ys, &ny) < 0 || (p->style && split_csv(p->style, &ss, &ns) < 0))
        return nomem();
    int rc = -1;
    p->ycol = calloc(ny, sizeof *p->ycol);
    p->ystyle = calloc(ny, sizeof *p->ystyle);
    if (!p->ycol || !p->ystyle)
        rc = nomem();
    for (size_t i = 0; rc < 0 && i < ns; i++) {
        int st = 0;
        while (st <= ST_BARS && strcmp(ss[i], style_names[st]))
            st++;
        if (st > ST_BARS)
            rc = usage_err("--style: bad value '%s': expected lines, points, steps or bars",
                           ss[i]);
        for (size_t j = i; rc < 0 && j < ny; j++)
            p->ystyle[j] = st;
    }
    for (size_t j = 0; rc < 0 && j < ny; j++) {
        p->ycol[j] = column(&p->t, "--y", ys[j]);
        if (p->ycol[j] == p->t.ncol)
            rc = EM_EXIT_USAGE;
        p->bars |= p->ystyle[j] == ST_BARS;
    }
    p->ny = ny;
    strv_free(ys, ny);
    strv_free(ss, ns);
    if (rc < 0 && p->bars && p->logx)
        rc = usage_err("--logx: not with bars (their x values are categories)");
    return rc;
}

/* Every value of column k of t a number; -1, or EM_EXIT_USAGE after a message. */
static int numbers(const table *t, size_t k)
{
    for (size_t r = 0; r < t->nrow; r++) {
        const char *v = t->cell[r * t->ncol + k];
        if (!is_number(v)) {
            /* em_cli_human's buffer is static: one call per fprintf */
            fprintf(stderr, CMD ": %s: row %zu, column '%s': ",
                    t->file && strcmp(t->file, "-") ? t->file : "<stdin>", r + 1,
                    em_cli_human(t->head[k]));
            fprintf(stderr, "'%s' is not a finite number\n", em_cli_human(v));
            return EM_EXIT_USAGE;
        }
    }
    return -1;
}

/* Every plotted value a number (x too, unless bars make it a category). */
static int check_numbers(const plot *p, size_t xcol)
{
    int rc = p->bars ? -1 : numbers(&p->t, xcol);
    for (size_t j = 0; rc < 0 && j < p->ny; j++)
        rc = numbers(&p->t, p->ycol[j]);
    return rc;
}

/* --overlay's table and columns; -1, or an exit status after a message. */
static int load_overlay(overlay *o)
{
    char *c[3];
    for (int i = 2; i >= 0; i--) {
        c[i] = strrchr(o->spec, ':');
        if (!c[i] || c[i] == o->spec)
            return usage_err("--overlay: expected FILE:XCOL:YCOL:TITLE, got '%s'",
                             em_cli_human(o->spec));
        *c[i] = 0;
    }
    o->t.file = o->spec;
    o->title = c[2] + 1;
    int rc = read_table(&o->t);
    if (rc >= 0)
        return rc;
    o->x = column(&o->t, "--overlay", c[0] + 1);
    o->y = column(&o->t, "--overlay", c[1] + 1);
    if (o->x == o->t.ncol || o->y == o->t.ncol)
        return EM_EXIT_USAGE;
    rc = numbers(&o->t, o->x);
    return rc < 0 ? numbers(&o->t, o->y) : rc;
}

/* At most this many curves (--series values times --y columns) and bar groups: the
 * search for distinct values is quadratic, and a figure of more is unreadable anyway. */
#define PLOT_MAX_CURVES 100
#define PLOT_MAX_GROUPS 1000

/* The distinct values of column k in order of first appearance (pointers into cells),
 * the search stopped past cap of them; with k == ncol (no such column) one value, "". */
static const char **distinct(const plot *p, size_t k, size_t cap, size_t *n)
{
    const char **v = malloc((p->t.nrow + 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    if (k == p->t.ncol) {
        v[(*n)++] = "";
        return v;
    }
    for (size_t r = 0; r < p->t.nrow && *n <= cap; r++) {
        const char *s = p->t.cell[r * p->t.ncol + k];
        size_t i = 0;
        while (i < *n && strcmp(v[i], s))
            i++;
        if (i == *n)
            v[(*n)++] = s;
    }
    return v;
}

static size_t index_of(const char **v, size_t n, const char *s)
{
    size_t i = 0;
    while (i < n && strcmp(v[i], s))
        i++;
    return i;
}

/* A gnuplot single-quoted string: no escapes are processed in it, '' is a quote.
 * Labels go through em_cli_human (control characters as \xHH) so that the script
 * stays one line per command. */
static void gp_string(FILE *g, const char *s)
{
    s = em_cli_human(s);
    fputc('\'', g);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', g);
        fputc(*s, g);
    }
    fputc('\'', g);
}

static void gp_set(FILE *g, const char *what, const char *text)
{
    fprintf(g, "set %s ", what);
    gp_string(g, text);
    fputc('\n', g);
}

static void script(FILE *g, const plot *p, size_t xcol, size_t scol, const char **xs,
                   size_t nx, const char **ss, size_t ns)
{
    fputs("set terminal svg size 800,500 fixed font 'Helvetica,12' noenhanced\n", g);
    fputs("set grid\nset key outside right top\nset style fill solid 0.6 border -1\n", g);
    if (p->title)
        gp_set(g, "title", p->title);
    gp_set(g, "xlabel", p->xlabel ? p->xlabel : p->t.head[xcol]);
    if (p->ylabel || p->ny == 1)
        gp_set(g, "ylabel", p->ylabel ? p->ylabel : p->t.head[p->ycol[0]]);
    if (p->logx)
        fputs("set logscale x\n", g);
    if (p->logy)
        fputs("set logscale y\n", g);
    size_t ncurve = p->ny * ns;
    double w = 0.8 / (double)ncurve;
    if (p->bars) {
        fprintf(g, "set boxwidth %.6f absolute\nset xrange [-0.5:%zu.5]\nset xtics (", w, nx - 1);
        for (size_t i = 0; i < nx; i++) {
            fputs(i ? ", " : "", g);
            gp_string(g, xs[i]);
            fprintf(g, " %zu", i);
        }
        fputs(") rotate by 30 right\n", g);
    }
    for (size_t c = 0; c < ncurve; c++) {
        size_t j = c / ns, s = c % ns;
        fprintf(g, "$d%zu << EOD\n", c);
        for (size_t r = 0; r < p->t.nrow; r++) {
            const char *const *row = (const char *const *)p->t.cell + r * p->t.ncol;
            if (scol < p->t.ncol && strcmp(row[scol], ss[s]))
                continue;
            if (p->bars)
                fprintf(g, "%.6f", (double)index_of(xs, nx, row[xcol]) +
                                       ((double)c - (double)(ncurve - 1) / 2) * w);
            else
                fputs(row[xcol], g);
            fprintf(g, " %s\n", row[p->ycol[j]]);
        }
        fputs("EOD\n", g);
    }
    for (size_t i = 0; i < p->nov; i++) {
        const table *t = &p->ov[i].t;
        fprintf(g, "$o%zu << EOD\n", i);
        for (size_t r = 0; r < t->nrow; r++)
            fprintf(g, "%s %s\n", t->cell[r * t->ncol + p->ov[i].x],
                    t->cell[r * t->ncol + p->ov[i].y]);
        fputs("EOD\n", g);
    }
    fputs("plot ", g);
    for (size_t i = 0; i < p->nov; i++) {
        fprintf(g, "$o%zu using 1:2 with points pt 6 ps 1.2 lw 2 title ", i);
        gp_string(g, p->ov[i].title);
        fputs(", \\\n     ", g);
    }
    for (size_t c = 0; c < ncurve; c++) {
        size_t j = c / ns, s = c % ns;
        char title[4096];
        if (scol == p->t.ncol)
            snprintf(title, sizeof title, "%s", p->t.head[p->ycol[j]]);
        else
            snprintf(title, sizeof title, "%s%s%s = %s", p->ny > 1 ? p->t.head[p->ycol[j]] : "",
                     p->ny > 1 ? ", " : "", p->t.head[scol], ss[s]);
        fprintf(g, "%s$d%zu using 1:2 with %s title ", c ? ", \\\n     " : "", c,
                style_gnuplot[p->ystyle[j]]);
        gp_string(g, title);
    }
    fputc('\n', g);
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
static int run_gnuplot(const plot *p, int out, size_t xcol, size_t scol, const char **xs,
                       size_t nx, const char **ss, size_t ns)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) < 0)
        return usage_err("cannot make a pipe: %s", strerror(errno));
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
            return usage_err("gnuplot not found; install it (Debian: apt-get install "
                             "gnuplot-nox)");
        return usage_err("cannot run gnuplot: %s", strerror(e));
    }
    /* A gnuplot that stops early must not kill us with SIGPIPE: its status says why. */
    signal(SIGPIPE, SIG_IGN);
    FILE *g = fdopen(fd[1], "w");
    if (g) {
        script(g, p, xcol, scol, xs, nx, ss, ns);
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
static int to_file(const plot *p, size_t xcol, size_t scol, const char **xs, size_t nx,
                   const char **ss, size_t ns)
{
    size_t len = strlen(p->output);
    char *tmp = malloc(len + 8);
    if (!tmp)
        return nomem();
    memcpy(tmp, p->output, len);
    memcpy(tmp + len, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = usage_err("--output: cannot write '%s': %s", p->output, strerror(errno));
        free(tmp);
        return rc;
    }
    mode_t mask = umask(0);
    umask(mask);
    int rc = fchmod(fd, 0666 & ~mask) < 0 ? usage_err("--output: chmod: %s", strerror(errno))
                                          : run_gnuplot(p, fd, xcol, scol, xs, nx, ss, ns);
    if (close(fd) < 0 && !rc)
        rc = usage_err("--output: cannot write '%s': %s", p->output, strerror(errno));
    if (!rc && rename(tmp, p->output) < 0)
        rc = usage_err("--output: cannot write '%s': %s", p->output, strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* The whole command after parsing; an exit status. */
static int draw(plot *p)
{
    int rc = read_table(&p->t);
    if (rc >= 0)
        return rc;
    size_t xcol = column(&p->t, "--x", p->x);
    size_t scol = p->series ? column(&p->t, "--series", p->series) : p->t.ncol;
    if (xcol == p->t.ncol || (p->series && scol == p->t.ncol))
        return EM_EXIT_USAGE;
    rc = resolve(p);
    if (rc < 0)
        rc = check_numbers(p, xcol);
    if (rc < 0 && p->nov && p->bars)
        rc = usage_err("--overlay: not with bars");
    for (size_t i = 0; rc < 0 && i < p->nov; i++)
        rc = load_overlay(&p->ov[i]);
    if (rc >= 0)
        return rc;
    size_t nx = 0, ns;
    const char **xs = p->bars ? distinct(p, xcol, PLOT_MAX_GROUPS, &nx) : NULL;
    const char **ss = distinct(p, scol, PLOT_MAX_CURVES, &ns);
    if ((p->bars && !xs) || !ss)
        rc = nomem();
    else if (nx > PLOT_MAX_GROUPS)
        rc = usage_err("--x: more than %d distinct values for bars", PLOT_MAX_GROUPS);
    else if (ns * p->ny > PLOT_MAX_CURVES)
        rc = usage_err("more than %d curves (--series values times --y columns)",
                       PLOT_MAX_CURVES);
    else
        rc = to_file(p, xcol, scol, xs, nx, ss, ns);
    free(xs);
    free(ss);
    return rc;
}

/* --overlay FILE:XCOL:YCOL:TITLE (repeatable): one more overlay. */
static int add_overlay(void *dst, const char *cmd, const char *name, const char *v)
{
    (void)cmd, (void)name;
    plot *p = dst;
    overlay *ov = realloc(p->ov, (p->nov + 1) * sizeof *ov);
    if (!ov)
        return nomem();
    p->ov = ov;
    memset(&ov[p->nov], 0, sizeof *ov);
    return (ov[p->nov++].spec = strdup(v)) ? -1 : nomem();
}

static int table_arg(void *dst, const char *cmd, const char *a)
{
    (void)cmd;
    plot *p = dst;
    if (p->t.file)
        return usage_err("one input table at most ('%s' and '%s')", p->t.file, a);
    p->t.file = a;
    return -1;
}

#define S(name, f) EM_CLI_STR(name, plot, f)
static const em_cli_opt opts[] = {
    S("--x", x), S("--y", y), S("--series", series), S("--style", style), S("--title", title),
    S("--xlabel", xlabel), S("--ylabel", ylabel), S("--output", output),
    EM_CLI_FLAG_AT("--logx", plot, logx),
    EM_CLI_FLAG_AT("--logy", plot, logy),
    {"--overlay", EM_CLI_CALL, offsetof(plot, ov), NULL, NULL, NULL, add_overlay},
    EM_CLI_END,
};

static int parse(plot *p, int argc, char **argv)
{
    const em_cli_spec sp = {.cmd = CMD, .opts = opts, .help = help,
                            .see = "see expmech plot --help", .whole = 1, .list = 1,
                            .repeat = 1, .empty = 1, .arg = table_arg};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, p, &given);
    if (rc < 0 && (!p->x || !p->y || !p->output))
        return usage_err("--x, --y and --output are required (see expmech plot --help)");
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    plot p;
    memset(&p, 0, sizeof p);
    int rc = parse(&p, argc, argv);
    if (rc < 0)
        rc = draw(&p);
    table_free(&p.t);
    for (size_t i = 0; i < p.nov; i++) {
        table_free(&p.ov[i].t);
        free(p.ov[i].spec);
    }
    free(p.ov);
    free(p.ycol);
    free(p.ystyle);
    return rc;
}
