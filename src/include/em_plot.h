/* em_plot.h: a CSV table that expmech wrote (a header line, then rows) as a gnuplot script
 * that draws it as an SVG figure.
 *
 * The values are plotted as given: the text of each number goes into the script unchanged
 * (after a check that it is a finite number); the only numbers made here are bar positions,
 * which are layout.  The data are inline datablocks, the SVG goes to gnuplot's standard
 * output, and texts (titles, labels, file names) reach gnuplot as single-quoted strings
 * only, with control characters escaped: the script runs no command and opens no file.
 * The figure has a fixed size and font, so that the same table gives the same bytes.
 */
#ifndef EM_PLOT_H
#define EM_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "em_scn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct em_plot_opts {
    const char *table;    /* the CSV file (NULL or "-": standard input): blank lines, and
                             lines starting with '#' before the header, are skipped */
    const char *x;        /* the column on the x axis */
    const char *y;        /* the y column(s), "COL[,COL...]": one curve each */
    const char *series;   /* NULL, or one curve per distinct value of this column */
    const char *style;    /* "S[,S...]", one per y column (the last repeats): lines (NULL:
                             all), points, steps or bars (bars: x a category, the rows
                             grouped by x value in order of appearance) */
    const char *title, *xlabel, *ylabel; /* NULL: none, the x column, the y column (one) */
    int logx, logy;       /* logarithmic axes */
    size_t noverlay;      /* overlay[0..noverlay): "FILE:XCOL:YCOL:TITLE", the column YCOL */
    const char *const *overlay; /* against XCOL of another such table, drawn as points */
    const char *output;   /* NULL: the script is written; else the SVG file drawn */
} em_plot_opts;
#define EM_PLOT_OPTS_INIT {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL}

/* At most this many curves (series values times y columns) and bar groups. */
#define EM_PLOT_MAX_CURVES 100
#define EM_PLOT_MAX_GROUPS 1000

/* The figure of o's table: with o->output NULL, the gnuplot script (for `gnuplot -d`, the
 * script on its standard input) that draws it as an SVG on standard output, written to f;
 * else (f NULL) the figure itself: the script run by gnuplot (found on PATH; `gnuplot -d`,
 * no shell, the script on its standard input), its SVG written to the file o->output
 * through a temporary file beside it renamed over it, so that a failure leaves it as it
 * was.  Nothing is written unless the tables and options are valid.  Errors: EM_ERR_NULL
 * (f with no o->output, o, o->x or o->y NULL),
 * EM_ERR_PARSE (a table that cannot be opened or read, has no header line or no rows, a row
 * of another number of fields ("NAME:LINE: ..."), a plotted value that is not a finite
 * number), EM_ERR_DOMAIN (a column that is not in the table (the message lists them), a
 * bad style, logx with bars, an overlay not FILE:XCOL:YCOL:TITLE or with bars, more than
 * EM_PLOT_MAX_CURVES curves or EM_PLOT_MAX_GROUPS bar groups, writing to f failed),
 * EM_ERR_NOMEM.  The figure besides: EM_ERR_DOMAIN (f and o->output both set, gnuplot not
 * on PATH or not runnable, output not writable: "output: cannot write ..."),
 * EM_ERR_PROGRAM (gnuplot failed: its exit status or signal and the last line of its
 * standard error, or no figure within 600 s, or more than 256 MiB of it).  The messages
 * name the field of o at fault ("o->x: no column ..."). */
EM_API int em_plot_write(FILE *f, const em_plot_opts *o, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
