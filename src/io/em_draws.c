/* em_draws.c: reading draws (em_draws.h): a file of draws, and a sampler's output under the
 * conformance protocol. */
#include "io/em_draws.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/em_error.h"
#include "io/em_label.h"
#include "io/em_text.h"

static size_t digits_run(const char *p, size_t n, size_t i, int hex)
{
    size_t j = i;
    while (j < n && (hex ? isxdigit((unsigned char)p[j]) : isdigit((unsigned char)p[j])))
        j++;
    return j - i;
}

/* 1 when p[0..n) is a number of the accepted syntax */
static int number_syntax(const char *p, size_t n)
{
    size_t i = 0;
    if (i < n && (p[i] == '+' || p[i] == '-'))
        i++;
    const char *w = p + i;
    size_t wn = n - i;
    if ((wn == 3 && (!strncasecmp(w, "nan", 3) || !strncasecmp(w, "inf", 3))) ||
        (wn == 8 && !strncasecmp(w, "infinity", 8)))
        return 1;
    int hex = 0;
    if (i + 1 < n && p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X')) {
        hex = 1;
        i += 2;
    }
    size_t a = digits_run(p, n, i, hex);
    i += a;
    size_t f = 0;
    if (i < n && p[i] == '.') {
        i++;
        f = digits_run(p, n, i, hex);
        i += f;
    }
    if (a + f == 0)
        return 0;
    if (i < n && (hex ? (p[i] == 'p' || p[i] == 'P') : (p[i] == 'e' || p[i] == 'E'))) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        size_t e = digits_run(p, n, i, 0);
        if (e == 0)
            return 0;
        i += e;
    }
    return i == n;
}

int em_read_draws(const char *buf, size_t len, const char *name, double **x,
                  unsigned long **line, size_t *n, em_error *err)
{
    *x = NULL;
    *line = NULL;
    *n = 0;
    size_t cap = 0, cnt = 0, m;
    double *xv = NULL;
    unsigned long *lv = NULL;
    char tmp[EM_DRAWS_MAX_LINE + 1];
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    const char *p;
    while (em_line_next_data(&it, &p, &m)) {
        const unsigned long ln = it.line;
        if (em_line_check(p, m, EM_DRAWS_MAX_LINE, 0, name, ln, err) != EM_OK)
            goto bad;
        if (!number_syntax(p, m)) {
            /* the draw as a person may see it: no raw control or non-UTF-8 byte */
            char shown[400];
            memcpy(tmp, p, m);
            tmp[m] = 0;
            em_label_human_str(shown, sizeof shown, tmp, 60);
            em_err_at(err, EM_ERR_PARSE, name, ln,
                      "bad draw '%s': expected one number per line (decimal or hex float, inf or "
                      "nan)", shown);
            goto bad;
        }
        memcpy(tmp, p, m);
        tmp[m] = 0;
        if (cnt == cap) {
            size_t nc = cap ? 2 * cap : 1024;
            double *nx = realloc(xv, nc * sizeof *nx);
            if (nx)
                xv = nx;
            unsigned long *nlv = realloc(lv, nc * sizeof *nlv);
            if (nlv)
                lv = nlv;
            if (!nx || !nlv) {
                free(xv);
                free(lv);
                return em_err_at(err, EM_ERR_NOMEM, name, 0, "out of memory");
            }
            cap = nc;
        }
        xv[cnt] = strtod(tmp, NULL);
        lv[cnt] = ln;
        cnt++;
    }
    *x = xv;
    *line = lv;
    *n = cnt;
    return EM_OK;
bad:
    free(xv);
    free(lv);
    return EM_ERR_PARSE;
}

/* ---------------------------------------------------- the conformance protocol */

void em_draws_show(char *out, size_t cap, const char *bytes, size_t len, size_t max)
{
    size_t o = 0, lim = len < max ? len : max;
    char seg[EM_DRAWS_PROTO_MAX_LINE + 1];
    if (!cap)
        return;
    out[0] = 0;
    for (size_t i = 0; i < lim && o + 8 < cap;) {
        if (bytes[i] == 0) { /* em_label_human_str takes NUL-terminated text */
            o += (size_t)snprintf(out + o, cap - o, "\\x00");
            i++;
            continue;
        }
        const char *z = memchr(bytes + i, 0, lim - i);
        size_t k = z ? (size_t)(z - (bytes + i)) : lim - i;
        if (k > sizeof seg - 1)
            k = sizeof seg - 1;
        memcpy(seg, bytes + i, k);
        seg[k] = 0;
        em_label_human_str(out + o, cap - o, seg, 0);
        o += strlen(out + o);
        i += k;
    }
    if (len > lim && o + 4 < cap)
        memcpy(out + o, "...", 3), o += 3;
    out[o < cap ? o : cap - 1] = 0;
}

/* what is wrong with a line's bytes, whatever the kind */
static int line_bytes_ok(const char *p, size_t m, uint64_t ln, em_error *err)
{
    char shown[400];
    if (m == 0)
        return em_err(err, EM_ERR_PARSE, "line %llu: empty", (unsigned long long)ln);
    if (m > EM_DRAWS_PROTO_MAX_LINE)
        return em_err(err, EM_ERR_PARSE, "line %llu: longer than %d bytes",
                      (unsigned long long)ln, EM_DRAWS_PROTO_MAX_LINE);
    if (em_line_check(p, m, 0, EM_LINE_STRICT, "", ln, NULL) == EM_OK)
        return EM_OK;
    em_draws_show(shown, sizeof shown, p, m, 40);
    if (memchr(p, 0, m))
        return em_err(err, EM_ERR_PARSE, "line %llu: a NUL byte (binary output?): '%s'",
                      (unsigned long long)ln, shown);
    if (em_utf8_check(p, m) != m)
        return em_err(err, EM_ERR_PARSE, "line %llu: not UTF-8 text: '%s'",
                      (unsigned long long)ln, shown);
    return em_err(err, EM_ERR_PARSE, "line %llu: a stray carriage return or byte-order mark: "
                  "'%s'", (unsigned long long)ln, shown);
}

static int count_check(uint64_t got, uint64_t n, em_error *err)
{
    if (got < n)
        return em_err(err, EM_ERR_PARSE, "%llu line%s where %llu draws were asked for",
                      (unsigned long long)got, got == 1 ? "" : "s", (unsigned long long)n);
    return EM_OK;
}

/* The next line of a sampler's output: 1 with *p, *m (line *ln, counted from 1); 0 at the
 * end; -1 with *st set: a line past the n draws asked for, or bytes no draw may hold. */
static int next_line(em_line_iter *it, uint64_t n, uint64_t *ln, const char **p, size_t *m,
                     int *st, em_error *err)
{
    if (!em_line_next(it, p, m))
        return 0;
    if (++*ln > n)
        *st = em_err(err, EM_ERR_PARSE, "more than the %llu lines (draws) asked for",
                     (unsigned long long)n);
    else
        *st = line_bytes_ok(*p, *m, *ln, err);
    return *st == EM_OK ? 1 : -1;
}

/* a number written where a label was due: the candidate whose utility it is, or -1 */
static long as_utility(const char *t, const em_draws_cands *c)
{
    if (!c->ud)
        return -1;
    char *end;
    errno = 0;
    double x = strtod(t, &end);
    if (end == t || *end || isnan(x))
        return -1;
    for (size_t i = 0; i < c->n; i++)
        if (x == c->ud[i] || fabs(x - c->ud[i]) <= 1e-12 * fmax(1.0, fabs(x)))
            return (long)i;
    return -1;
}

int em_draws_read_labels(const char *buf, size_t len, uint64_t n, const em_draws_cands *c,
                         uint64_t *counts, uint64_t *lines, em_error *err)
{
    size_t m;
    const char *p;
    uint64_t ln = 0;
    char *t = malloc(EM_DRAWS_PROTO_MAX_LINE + 1);
    if (!t)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    int st = EM_OK;
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    *lines = 0;
    while (st == EM_OK && next_line(&it, n, &ln, &p, &m, &st, err) > 0) {
        long k = c->find(c->ctx, p, m);
        if (k < 0) {
            char shown[400], lab[400];
            em_draws_show(shown, sizeof shown, p, m, 60);
            memcpy(t, p, m);
            t[m] = 0;
            long u = as_utility(t, c);
            if (u >= 0) {
                const char *l = c->label(c->ctx, (size_t)u);
                em_draws_show(lab, sizeof lab, l, strlen(l), 60);
                st = em_err(err, EM_ERR_PARSE, "line %llu: '%s' is not a label of this case; it "
                            "is the utility of '%s' (a value written where a label was due)",
                            (unsigned long long)ln, shown, lab);
            } else {
                st = em_err(err, EM_ERR_PARSE, "line %llu: '%s' is not a label of this case",
                            (unsigned long long)ln, shown);
            }
            break;
        }
        counts[k]++;
    }
    free(t);
    *lines = ln;
    return st == EM_OK ? count_check(ln, n, err) : st;
}

int em_draws_read_numbers(const char *buf, size_t len, uint64_t n, double *x, uint64_t *lines,
                          em_error *err)
{
    size_t m;
    const char *p;
    uint64_t ln = 0;
    char t[EM_DRAWS_PROTO_MAX_LINE + 1];
    int st = EM_OK;
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    *lines = 0;
    while (st == EM_OK && next_line(&it, n, &ln, &p, &m, &st, err) > 0) {
        em_text_trim(&p, &m); /* blanks around the number */
        memcpy(t, p, m);
        t[m] = 0;
        char *end;
        double v = m ? strtod(t, &end) : 0;
        if (!m || end != t + m) {
            char shown[400];
            em_draws_show(shown, sizeof shown, p, m, 60);
            st = em_err(err, EM_ERR_PARSE, "line %llu: '%s' is not a number",
                        (unsigned long long)ln, shown);
            break;
        }
        x[ln - 1] = v;
    }
    *lines = ln;
    return st == EM_OK ? count_check(ln, n, err) : st;
}
