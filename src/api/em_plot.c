/* em_plot.c: a CSV table as a gnuplot script (em_plot.h): the tables read and checked, the
 * columns and styles resolved, the script written. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "em_plot.h"
#include "api/em_plot_priv.h"
#include "base/em_error.h"
#include "io/em_text.h"

enum { ST_LINES, ST_POINTS, ST_STEPS, ST_BARS };
static const char *const style_names[] = {"lines", "points", "steps", "bars"};
static const char *const style_gnuplot[] = {"lines lw 2", "points pt 7 ps 0.6", "steps lw 2",
                                            "boxes"};

typedef struct table {
    const char *file; /* NULL or "-": standard input */
    const char *name; /* for messages: the file, or "<stdin>" */
    char **head;      /* the header's column names */
    size_t ncol;
    char **cell;      /* nrow * ncol fields, row-major */
    size_t nrow, cap; /* cap: rows allocated */
} table;

/* an overlay: another table's column drawn as points */
typedef struct overlay {
    table t;
    size_t x, y;
    const char *title;
    char *spec; /* a copy of "FILE:XCOL:YCOL:TITLE", cut into the parts above */
} overlay;

typedef struct plot {
    const em_plot_opts *o;
    table t;
    overlay *ov;
    size_t *ycol; /* the y columns */
    int *ystyle;  /* their styles */
    size_t ny;
    int bars;     /* some y column is drawn as bars: x is a category */
} plot;

/* the largest form of a label for a person (one line of 4096 bytes, 6 bytes each at most) */
#define HUMAN_CAP (4096 * 6 + 16)

static int nomem(em_error *err)
{
    return em_err(err, EM_ERR_NOMEM, "out of memory");
}

static void strv_free(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* One CSV line into malloc'd fields: comma-separated, a field in double quotes may hold
 * commas and "" for a quote (em_csv_label's form).  -1 on no memory. */
static int split_csv(const char *s, char ***out, size_t *n)
{
    char **v = NULL;
    size_t k = 0;
    char *buf = malloc(strlen(s) + 1);
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

/* the whole text a finite number (C syntax, no leading space: strtod would skip any, a CR
 * or a form feed included, and the cell goes to the script as given) */
static int is_number(const char *s)
{
    char *end;
    if (!*s || isspace((unsigned char)*s))
        return 0;
    double d = strtod(s, &end);
    return !*end && isfinite(d);
}

/* One line (NUL-terminated) into the table: the header, or a row of as many fields. */
static int table_line(table *t, char *line, unsigned long ln, em_error *err)
{
    char **v;
    size_t n;
    if (split_csv(line, &v, &n) < 0)
        return nomem(err);
    if (!t->head) {
        t->head = v;
        t->ncol = n;
        size_t k = 0;
        while (k < n && is_number(v[k]))
            k++;
        if (k == n)
            return em_err(err, EM_ERR_PARSE, "%s: no header line: the first line, '%s', has "
                          "no column names (em_plot_write reads a header line, then rows)",
                          t->name, line);
        return EM_OK;
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
        return EM_OK;
    }
    strv_free(v, n);
    if (n != t->ncol)
        return em_err(err, EM_ERR_PARSE, "%s:%lu: %zu fields, the header has %zu", t->name, ln,
                      n, t->ncol);
    return nomem(err);
}

/* The table of t->file: the header, then rows of as many fields. */
static int read_table(table *t, em_error *err)
{
    const int in = !t->file || !strcmp(t->file, "-");
    t->name = in ? "<stdin>" : t->file;
    FILE *f = in ? stdin : fopen(t->file, "r");
    if (!f)
        return em_err(err, EM_ERR_PARSE, "cannot open '%s': %s", t->file, strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    int st = em_read_all(f, SIZE_MAX / 2, &buf, &len);
    int errnum = errno;
    if (!in)
        fclose(f);
    if (st != EM_OK) {
        free(buf);
        return st == EM_ERR_NOMEM ? nomem(err)
                                  : em_err(err, EM_ERR_PARSE, "%s: read error: %s", t->name,
                                           strerror(errnum));
    }
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    const char *p;
    size_t n;
    while (st == EM_OK && em_line_next(&it, &p, &n)) {
        if (!n || (p[0] == '#' && !t->head))
            continue; /* comments open the file; a '#' row after the header is a row */
        /* a NUL byte would end the line's last cell early, in silence; not UTF-8 is not
           a table expmech wrote */
        if ((st = em_line_check(p, n, 0, 0, t->name, it.line, err)) != EM_OK)
            break;
        buf[p + n - buf] = 0; /* the buffer is ours: the line ends here */
        st = table_line(t, buf + (p - buf), it.line, err);
    }
    free(buf);
    if (st == EM_OK && !t->head)
        st = em_err(err, EM_ERR_PARSE, "%s: no header line: the table is empty", t->name);
    if (st == EM_OK && !t->nrow)
        st = em_err(err, EM_ERR_PARSE, "%s: no rows after the header line", t->name);
    return st;
}

/* The index of column `name` (for the field `field` of the options) into *k, or an error
 * listing the columns. */
static int column(const table *t, const char *field, const char *name, size_t *k,
                  em_error *err)
{
    for (*k = 0; *k < t->ncol; ++*k)
        if (!strcmp(t->head[*k], name))
            return EM_OK;
    char list[EM_ERRLEN], h[HUMAN_CAP];
    size_t o = 0;
    for (size_t i = 0; i < t->ncol && o < sizeof list; i++) {
        int w = snprintf(list + o, sizeof list - o, "%s %s", i ? "," : "",
                         em_scn_human_label(h, sizeof h, t->head[i], 0));
        o += w > 0 ? (size_t)w : 0;
    }
    return em_err(err, EM_ERR_DOMAIN, "%s: no column '%s' (the columns:%s)", field, name,
                  t->ncol ? list : "");
}

/* The y columns and their styles (the last style repeats). */
static int resolve(plot *p, em_error *err)
{
    char **ys, **ss = NULL;
    size_t ny, ns = 0;
    if (split_csv(p->o->y, &ys, &ny) < 0 || (p->o->style && split_csv(p->o->style, &ss, &ns) < 0))
        return nomem(err);
    int st = EM_OK;
    p->ycol = calloc(ny, sizeof *p->ycol);
    p->ystyle = calloc(ny, sizeof *p->ystyle);
    if (!p->ycol || !p->ystyle)
        st = nomem(err);
    for (size_t i = 0; st == EM_OK && i < ns; i++) {
        int k = 0;
        while (k <= ST_BARS && strcmp(ss[i], style_names[k]))
            k++;
        if (k > ST_BARS)
            st = em_err(err, EM_ERR_DOMAIN, "o->style: bad value '%s': expected lines, points, "
                        "steps or bars", ss[i]);
        for (size_t j = i; st == EM_OK && j < ny; j++)
            p->ystyle[j] = k;
    }
    for (size_t j = 0; st == EM_OK && j < ny; j++) {
        st = column(&p->t, "o->y", ys[j], &p->ycol[j], err);
        p->bars |= p->ystyle[j] == ST_BARS;
    }
    p->ny = ny;
    strv_free(ys, ny);
    strv_free(ss, ns);
    if (st == EM_OK && p->bars && p->o->logx)
        st = em_err(err, EM_ERR_DOMAIN, "o->logx: not with bars (their x values are "
                    "categories)");
    return st;
}

/* Every value of column k of t a number. */
static int numbers(const table *t, size_t k, em_error *err)
{
    for (size_t r = 0; r < t->nrow; r++) {
        const char *v = t->cell[r * t->ncol + k];
        if (!is_number(v)) {
            char h1[HUMAN_CAP], h2[HUMAN_CAP];
            return em_err(err, EM_ERR_PARSE, "%s: row %zu, column '%s': '%s' is not a finite "
                          "number", t->name, r + 1, em_scn_human_label(h1, sizeof h1,
                                                                        t->head[k], 0),
                          em_scn_human_label(h2, sizeof h2, v, 0));
        }
    }
    return EM_OK;
}

/* An overlay's table and columns. */
static int load_overlay(overlay *o, const char *given, em_error *err)
{
    char *c[3];
    for (int i = 2; i >= 0; i--) {
        c[i] = strrchr(o->spec, ':');
        if (!c[i] || c[i] == o->spec) {
            char h[HUMAN_CAP];
            return em_err(err, EM_ERR_DOMAIN, "o->overlay: expected FILE:XCOL:YCOL:TITLE, got "
                          "'%s'", em_scn_human_label(h, sizeof h, given, 0));
        }
        *c[i] = 0;
    }
    o->t.file = o->spec;
    o->title = c[2] + 1;
    int st = read_table(&o->t, err);
    if (st == EM_OK)
        st = column(&o->t, "o->overlay", c[0] + 1, &o->x, err);
    if (st == EM_OK)
        st = column(&o->t, "o->overlay", c[1] + 1, &o->y, err);
    if (st == EM_OK)
        st = numbers(&o->t, o->x, err);
    return st == EM_OK ? numbers(&o->t, o->y, err) : st;
}

/* The distinct values of column k in order of first appearance (pointers into cells),
 * the search stopped past cap of them (it is quadratic); with k == ncol (no such column)
 * one value, "". */
static const char **distinct(const table *t, size_t k, size_t cap, size_t *n)
{
    const char **v = malloc((t->nrow + 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    if (k == t->ncol) {
        v[(*n)++] = "";
        return v;
    }
    for (size_t r = 0; r < t->nrow && *n <= cap; r++) {
        const char *s = t->cell[r * t->ncol + k];
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

/* A gnuplot single-quoted string: no escapes are processed in it, '' is a quote.  Texts
 * go through em_scn_human_label (control characters as \xHH) so that the script stays
 * one line per command. */
static void gp_string(FILE *g, const char *s)
{
    char h[HUMAN_CAP];
    fputc('\'', g);
    for (s = em_scn_human_label(h, sizeof h, s, 0); *s; s++) {
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

/* The curves: c = j * ns + s is y column j for series value s. */
static void script(FILE *g, const plot *p, size_t xcol, size_t scol, const char **xs,
                   size_t nx, const char **ss, size_t ns)
{
    const em_plot_opts *o = p->o;
    const table *t = &p->t;
    fputs("set terminal svg size 800,500 fixed font 'Helvetica,12' noenhanced\n", g);
    fputs("set grid\nset key outside right top\nset style fill solid 0.6 border -1\n", g);
    if (o->title)
        gp_set(g, "title", o->title);
    gp_set(g, "xlabel", o->xlabel ? o->xlabel : t->head[xcol]);
    if (o->ylabel || p->ny == 1)
        gp_set(g, "ylabel", o->ylabel ? o->ylabel : t->head[p->ycol[0]]);
    if (o->logx)
        fputs("set logscale x\n", g);
    if (o->logy)
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
        for (size_t r = 0; r < t->nrow; r++) {
            const char *const *row = (const char *const *)t->cell + r * t->ncol;
            if (scol < t->ncol && strcmp(row[scol], ss[s]))
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
    for (size_t i = 0; i < o->noverlay; i++) {
        const table *u = &p->ov[i].t;
        fprintf(g, "$o%zu << EOD\n", i);
        for (size_t r = 0; r < u->nrow; r++)
            fprintf(g, "%s %s\n", u->cell[r * u->ncol + p->ov[i].x],
                    u->cell[r * u->ncol + p->ov[i].y]);
        fputs("EOD\n", g);
    }
    fputs("plot ", g);
    for (size_t i = 0; i < o->noverlay; i++) {
        fprintf(g, "$o%zu using 1:2 with points pt 6 ps 1.2 lw 2 title ", i);
        gp_string(g, p->ov[i].title);
        fputs(", \\\n     ", g);
    }
    for (size_t c = 0; c < ncurve; c++) {
        size_t j = c / ns, s = c % ns;
        char title[4096];
        if (scol == t->ncol)
            snprintf(title, sizeof title, "%s", t->head[p->ycol[j]]);
        else
            snprintf(title, sizeof title, "%s%s%s = %s", p->ny > 1 ? t->head[p->ycol[j]] : "",
                     p->ny > 1 ? ", " : "", t->head[scol], ss[s]);
        fprintf(g, "%s$d%zu using 1:2 with %s title ", c ? ", \\\n     " : "", c,
                style_gnuplot[p->ystyle[j]]);
        gp_string(g, title);
    }
    fputc('\n', g);
}

/* Everything checked, then the script. */
static int draw(FILE *f, plot *p, em_error *err)
{
    const em_plot_opts *o = p->o;
    size_t xcol, scol;
    int st = read_table(&p->t, err);
    scol = p->t.ncol; /* no series */
    if (st == EM_OK)
        st = column(&p->t, "o->x", o->x, &xcol, err);
    if (st == EM_OK && o->series)
        st = column(&p->t, "o->series", o->series, &scol, err);
    if (st == EM_OK)
        st = resolve(p, err);
    if (st == EM_OK && !p->bars)
        st = numbers(&p->t, xcol, err);
    for (size_t j = 0; st == EM_OK && j < p->ny; j++)
        st = numbers(&p->t, p->ycol[j], err);
    if (st == EM_OK && o->noverlay && p->bars)
        st = em_err(err, EM_ERR_DOMAIN, "o->overlay: not with bars");
    for (size_t i = 0; st == EM_OK && i < o->noverlay; i++)
        st = load_overlay(&p->ov[i], o->overlay[i], err);
    if (st != EM_OK)
        return st;
    size_t nx = 0, ns;
    const char **xs = p->bars ? distinct(&p->t, xcol, EM_PLOT_MAX_GROUPS, &nx) : NULL;
    const char **ss = distinct(&p->t, scol, EM_PLOT_MAX_CURVES, &ns);
    if ((p->bars && !xs) || !ss)
        st = nomem(err);
    else if (nx > EM_PLOT_MAX_GROUPS)
        st = em_err(err, EM_ERR_DOMAIN, "o->x: more than %d distinct values for bars",
                    EM_PLOT_MAX_GROUPS);
    else if (ns * p->ny > EM_PLOT_MAX_CURVES)
        st = em_err(err, EM_ERR_DOMAIN, "more than %d curves (o->series values times o->y "
                    "columns)", EM_PLOT_MAX_CURVES);
    else
        script(f, p, xcol, scol, xs, nx, ss, ns);
    free(xs);
    free(ss);
    if (st == EM_OK && ferror(f))
        st = em_err(err, EM_ERR_DOMAIN, "em_plot_write: writing the script failed");
    return st;
}

int em_plot_script(FILE *f, const em_plot_opts *o, em_error *err)
{
    if (!f || !o || !o->x || !o->y)
        return em_err(err, EM_ERR_NULL, "em_plot_write: f, o, o->x or o->y is NULL");
    if (o->noverlay && !o->overlay)
        return em_err(err, EM_ERR_NULL, "em_plot_write: o->overlay is NULL");
    plot p;
    memset(&p, 0, sizeof p);
    p.o = o;
    p.t.file = o->table;
    int st = EM_OK;
    if (o->noverlay && !(p.ov = calloc(o->noverlay, sizeof *p.ov)))
        st = nomem(err);
    for (size_t i = 0; st == EM_OK && i < o->noverlay; i++)
        if (!o->overlay[i])
            st = em_err(err, EM_ERR_NULL, "em_plot_write: o->overlay[%zu] is NULL", i);
        else if (!(p.ov[i].spec = strdup(o->overlay[i])))
            st = nomem(err);
    if (st == EM_OK)
        st = draw(f, &p, err);
    table_free(&p.t);
    for (size_t i = 0; p.ov && i < o->noverlay; i++) {
        table_free(&p.ov[i].t);
        free(p.ov[i].spec);
    }
    free(p.ov);
    free(p.ycol);
    free(p.ystyle);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}
