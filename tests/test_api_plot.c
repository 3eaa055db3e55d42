/* test_api_plot.c: em_plot_write through the public API.  The expected scripts are written
 * out below by hand (bar positions: i + (c - (curves - 1)/2) * 0.8/curves for curve c at
 * group i); every bad table and option an error status with a message naming the field or
 * the file and line, and nothing written. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "expmech.h"

static em_error err;

/* a file holding bytes (a memfd: nothing to clean up), its path in a static buffer (one a
 * slot) */
static const char *file_n(int slot, const char *text, size_t len)
{
    static char path[4][64];
    int fd = memfd_create("table", 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    snprintf(path[slot], sizeof path[slot], "/proc/self/fd/%d", fd);
    return path[slot];
}

static const char *file(int slot, const char *text)
{
    return file_n(slot, text, strlen(text));
}

static em_plot_opts opts(const char *table, const char *x, const char *y)
{
    em_plot_opts o = EM_PLOT_OPTS_INIT;
    o.table = file(0, table);
    o.x = x;
    o.y = y;
    return o;
}

#define HEAD                                                                          \
    "set terminal svg size 800,500 fixed font 'Helvetica,12' noenhanced\n"            \
    "set grid\nset key outside right top\nset style fill solid 0.6 border -1\n"

/* the script of o, which must be written, is HEAD then want */
static void is(const em_plot_opts *o, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_msg(em_plot_write(f, o, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(err.msg, "");
    fclose(f);
    ck_assert_int_eq(strncmp(buf, HEAD, strlen(HEAD)), 0);
    ck_assert_str_eq(buf + strlen(HEAD), want);
    free(buf);
}

START_TEST(lines_as_given)
{
    /* comments and blank lines before the header, CRLF, numbers kept as written */
    em_plot_opts o = opts("# from expmech\n\nx,y\r\n1,2.50\n3e0,0x1p-2\n", "x", "y");
    o.logy = 1;
    is(&o, "set xlabel 'x'\nset ylabel 'y'\nset logscale y\n"
           "$d0 << EOD\n1 2.50\n3e0 0x1p-2\nEOD\n"
           "plot $d0 using 1:2 with lines lw 2 title 'y'\n");
}
END_TEST

START_TEST(series_and_styles)
{
    em_plot_opts o = opts("eps,x,y,z\n1,0,5,8\n2,0,6,9\n1,1,7,10\n", "x", "y,z");
    o.series = "eps";
    o.style = "points,steps";
    o.title = "it's\001";   /* a quote doubled, a control character escaped */
    o.ylabel = "Y";
    o.logx = 1;
    is(&o, "set title 'it''s\\x01'\nset xlabel 'x'\nset ylabel 'Y'\n"
           "set logscale x\n"
           "$d0 << EOD\n0 5\n1 7\nEOD\n$d1 << EOD\n0 6\nEOD\n"
           "$d2 << EOD\n0 8\n1 10\nEOD\n$d3 << EOD\n0 9\nEOD\n"
           "plot $d0 using 1:2 with points pt 7 ps 0.6 title 'y, eps = 1', \\\n"
           "     $d1 using 1:2 with points pt 7 ps 0.6 title 'y, eps = 2', \\\n"
           "     $d2 using 1:2 with steps lw 2 title 'z, eps = 1', \\\n"
           "     $d3 using 1:2 with steps lw 2 title 'z, eps = 2'\n");
}
END_TEST

START_TEST(bars_by_category)
{
    em_plot_opts o = opts("cell,expected,observed\n\"[0, 1)\",1.5,2\nB,3,1\n", "cell",
                          "expected,observed");
    o.style = "bars";
    o.xlabel = "the cell";
    /* two curves: width 0.4, at i - 0.2 and i + 0.2 */
    is(&o, "set xlabel 'the cell'\n"
           "set boxwidth 0.400000 absolute\nset xrange [-0.5:1.5]\n"
           "set xtics ('[0, 1)' 0, 'B' 1) rotate by 30 right\n"
           "$d0 << EOD\n-0.200000 1.5\n0.800000 3\nEOD\n"
           "$d1 << EOD\n0.200000 2\n1.200000 1\nEOD\n"
           "plot $d0 using 1:2 with boxes title 'expected', \\\n"
           "     $d1 using 1:2 with boxes title 'observed'\n");
}
END_TEST

START_TEST(overlay_points)
{
    char spec[256];
    snprintf(spec, sizeof spec, "%s:a:b:ref", file(1, "a,b\n5,6\n7,8\n"));
    const char *ov[] = {spec};
    em_plot_opts o = opts("x,y\n1,2\n", "x", "y");
    o.noverlay = 1;
    o.overlay = ov;
    is(&o, "set xlabel 'x'\nset ylabel 'y'\n"
           "$d0 << EOD\n1 2\nEOD\n$o0 << EOD\n5 6\n7 8\nEOD\n"
           "plot $o0 using 1:2 with points pt 6 ps 1.2 lw 2 title 'ref', \\\n"
           "     $d0 using 1:2 with lines lw 2 title 'y'\n");
}
END_TEST

/* o refused with status want and a message holding `says`; nothing written */
static void refused(const em_plot_opts *o, int want, const char *says)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(em_plot_write(f, o, &err), want);
    ck_assert_int_eq(err.status, want);
    ck_assert_msg(strstr(err.msg, says) != NULL, "'%s' does not say '%s'", err.msg, says);
    fclose(f);
    ck_assert_uint_eq(len, 0);
    free(buf);
}

START_TEST(bad_tables_and_options)
{
    char name[160], spec[256];
    em_plot_opts o = opts("x,y\n1,2\n3,4\n", "q", "y");
    refused(&o, EM_ERR_DOMAIN, "o->x: no column 'q' (the columns: x, y)");
    o.x = "x";
    o.series = "s";
    refused(&o, EM_ERR_DOMAIN, "o->series: no column 's'");
    o.series = NULL;
    o.y = "y,w";
    refused(&o, EM_ERR_DOMAIN, "o->y: no column 'w'");
    o.y = "y";
    o.style = "lines,dots";
    refused(&o, EM_ERR_DOMAIN, "o->style: bad value 'dots'");
    o.style = "bars";
    o.logx = 1;
    refused(&o, EM_ERR_DOMAIN, "o->logx: not with bars");
    o.logx = 0;
    const char *ov[] = {"t.csv:x"};
    o.noverlay = 1;
    o.overlay = ov;
    refused(&o, EM_ERR_DOMAIN, "o->overlay: not with bars");
    o.style = NULL;
    refused(&o, EM_ERR_DOMAIN, "o->overlay: expected FILE:XCOL:YCOL:TITLE, got 't.csv:x'");
    snprintf(spec, sizeof spec, "%s:x:w:T", o.table);
    ov[0] = spec;
    refused(&o, EM_ERR_DOMAIN, "o->overlay: no column 'w'");
    o.overlay = NULL;
    refused(&o, EM_ERR_NULL, "o->overlay is NULL");
    o.noverlay = 0;
    /* the tables */
    static const struct { const char *text, *says; } bad[] = {
        {"x,y\n1,nan\n", "row 1, column 'y': 'nan' is not a finite number"},
        {"x,y\n-inf,1\n", "'-inf' is not a finite number"},
        {"x,y\n1, 2\n", "' 2' is not a finite number"},
        {"x,y\n1,2\n3\n", ":3: 1 fields, the header has 2"},
        {"", "no header line: the table is empty"},
        {"1,2\n", "no header line: the first line, '1,2', has no column names"},
        {"x,y\n", "no rows after the header line"},
        /* strtod would skip a leading CR or form feed: the cell is not a number as given */
        {"x,y\n1,\r2\n", "row 1, column 'y': '\\x0d2' is not a finite number"},
        {"x,y\n1,\f2\n", "'\\x0c2' is not a finite number"},
        {"x,y\n1,2\xff\n", ":2: invalid UTF-8 at byte 4"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        o.table = file(0, bad[i].text);
        snprintf(name, sizeof name, "%s%s", bad[i].says[0] == ':' ? o.table : "", bad[i].says);
        refused(&o, EM_ERR_PARSE, name);
    }
    /* a NUL byte inside a cell, which would end it early ("0.2"): refused, the line named */
    static const char nul[] = "x,y\n1,0.5\n2,0.2\0" "5\n";
    o.table = file_n(0, nul, sizeof nul - 1);
    snprintf(name, sizeof name, "%s:3: NUL byte in the line", o.table);
    refused(&o, EM_ERR_PARSE, name);
    /* and in an overlay's table */
    o.table = file(0, "x,y\n1,2\n");
    snprintf(spec, sizeof spec, "%s:x:y:T", file_n(1, nul, sizeof nul - 1));
    const char *ovn[] = {spec};
    o.noverlay = 1;
    o.overlay = ovn;
    refused(&o, EM_ERR_PARSE, ":3: NUL byte in the line");
    o.noverlay = 0;
    o.overlay = NULL;
    o.table = "/nonexistent/missing.csv";
    refused(&o, EM_ERR_PARSE, "cannot open");
    /* more curves than EM_PLOT_MAX_CURVES: 101 series values */
    char *big = malloc(16 * 110);
    ck_assert_ptr_nonnull(big);
    strcpy(big, "s,x,y\n");
    for (int i = 0; i <= EM_PLOT_MAX_CURVES; i++)
        sprintf(big + strlen(big), "%d,1,2\n", i);
    o.table = file(0, big);
    free(big);
    o.series = "s";
    refused(&o, EM_ERR_DOMAIN, "more than 100 curves");
    /* NULL arguments; err may be NULL */
    o.series = NULL;
    o.y = NULL;
    refused(&o, EM_ERR_NULL, "em_plot_write");
    ck_assert_int_eq(em_plot_write(stdout, NULL, NULL), EM_ERR_NULL);
    ck_assert_int_eq(em_plot_write(NULL, &o, &err), EM_ERR_NULL);
    /* a stream that cannot be written */
    o.y = "y";
    o.table = file(0, "x,y\n1,2\n");
    FILE *ro = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(ro);
    ck_assert_int_eq(em_plot_write(ro, &o, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "em_plot_write: writing the script failed"));
    fclose(ro);
}
END_TEST

/* text of a whole file, malloc'd ("" when it does not exist) */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(m);
    for (int ch; f && (ch = getc(f)) != EOF;)
        putc(ch, m);
    fclose(m);
    if (f)
        fclose(f);
    return buf;
}

/* em_plot_write of the figure: o with output as its o->output */
static int svg(const em_plot_opts *o, const char *output)
{
    em_plot_opts w = *o;
    w.output = output;
    return em_plot_write(NULL, &w, &err);
}

/* The figure with a stand-in gnuplot (a shell script on PATH, in a fresh directory) that
 * keeps its arguments and standard input and plays a run that succeeds or fails; the real
 * gnuplot's figures are compared in test_figures. */
START_TEST(svg_through_gnuplot)
{
    char dir[] = "/tmp/em_plot_svg_XXXXXX", path[256], out[256], script[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *old_path = getenv("PATH");
    char *saved = strdup(old_path ? old_path : "/usr/bin:/bin");
    snprintf(out, sizeof out, "%s/fig.svg", dir);
    snprintf(script, sizeof script, "%s/gnuplot", dir);
    em_plot_opts o = opts("x,y\n1,2\n3,4\n", "x", "y");
    /* no gnuplot on PATH: refused, nothing written */
    setenv("PATH", dir, 1);
    ck_assert_int_eq(svg(&o, out), EM_ERR_DOMAIN);
    ck_assert_str_eq(err.msg, "gnuplot not found; install it (Debian: apt-get install gnuplot-nox)");
    ck_assert_int_ne(access(out, F_OK), 0);
    /* a gnuplot that succeeds: called as `gnuplot -d`, the script on standard input, its
       standard output the file */
    FILE *g = fopen(script, "w");
    ck_assert_ptr_nonnull(g);
    fprintf(g, "#!/bin/sh\necho \"$*\" > %s/args\n/bin/cat > %s/stdin\nprintf '<svg>fig</svg>'\n",
            dir, dir);
    fclose(g);
    ck_assert_int_eq(chmod(script, 0755), 0);
    ck_assert_msg(svg(&o, out) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(err.msg, "");
    char *got = slurp(out), *want = NULL;
    ck_assert_str_eq(got, "<svg>fig</svg>");
    free(got);
    snprintf(path, sizeof path, "%s/args", dir);
    got = slurp(path);
    ck_assert_str_eq(got, "-d\n");
    free(got);
    size_t wlen = 0;
    FILE *m = open_memstream(&want, &wlen);
    ck_assert_int_eq(em_plot_write(m, &o, &err), EM_OK);
    fclose(m);
    snprintf(path, sizeof path, "%s/stdin", dir);
    got = slurp(path);
    ck_assert_str_eq(got, want);
    free(got);
    free(want);
    /* a gnuplot that fails: its exit status and last line of standard error, the earlier
       figure left as it was, no temporary file left */
    g = fopen(script, "w");
    ck_assert_ptr_nonnull(g);
    fputs("#!/bin/sh\necho 'line 0: warning' >&2\necho 'line 9: bad thing' >&2\nexit 3\n", g);
    fclose(g);
    ck_assert_int_eq(svg(&o, out), EM_ERR_PROGRAM);
    ck_assert_str_eq(err.msg, "gnuplot failed (exit status 3): line 9: bad thing; no figure written");
    got = slurp(out);
    ck_assert_str_eq(got, "<svg>fig</svg>");
    free(got);
    /* a bad table (before gnuplot runs), NULL output, an output that cannot be written */
    o.x = "q";
    ck_assert_int_eq(svg(&o, out), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "o->x: no column 'q'"));
    o.x = "x";
    ck_assert_int_eq(svg(&o, NULL), EM_ERR_NULL);
    /* the script and the figure at once */
    o.output = out;
    ck_assert_int_eq(em_plot_write(stdout, &o, &err), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "not both"));
    o.output = NULL;
    snprintf(path, sizeof path, "%s/no/such/fig.svg", dir);
    g = fopen(script, "w");
    ck_assert_ptr_nonnull(g);
    fputs("#!/bin/sh\ncat >/dev/null\nprintf '<svg/>'\n", g);
    fclose(g);
    ck_assert_int_eq(svg(&o, path), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(err.msg, "output: cannot write '"));
    setenv("PATH", saved, 1);
    free(saved);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("api_plot");
    TCase *tc = tcase_create("plot");
    tcase_add_test(tc, lines_as_given);
    tcase_add_test(tc, series_and_styles);
    tcase_add_test(tc, bars_by_category);
    tcase_add_test(tc, overlay_points);
    tcase_add_test(tc, bad_tables_and_options);
    tcase_add_test(tc, svg_through_gnuplot);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
