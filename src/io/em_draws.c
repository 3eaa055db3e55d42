/* em_draws.c: reading a file of draws (em_draws.h). */
#include "io/em_draws.h"

#include <ctype.h>
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
                      "bad draw '%s': expected one number per line (decimal or hex float; nan "
                      "and inf are accepted as draws to judge)", shown);
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
