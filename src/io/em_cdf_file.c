/* em_cdf_file.c: reading a CDF table (em_cdf_file.h). */
#include "io/em_cdf_file.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/em_error.h"
#include "io/em_text.h"
#include "num/em_rational.h"

/* nan / inf / infinity with an optional sign: the EM_CDFV_* kind, or -1 */
static int special(const char *p, size_t n)
{
    int neg = 0;
    if (n && (*p == '+' || *p == '-')) {
        neg = *p == '-';
        p++;
        n--;
    }
    if (n == 3 && !strncasecmp(p, "nan", 3))
        return EM_CDFV_NAN;
    if ((n == 3 && !strncasecmp(p, "inf", 3)) || (n == 8 && !strncasecmp(p, "infinity", 8)))
        return neg ? EM_CDFV_NINF : EM_CDFV_PINF;
    return -1;
}

int em_cdf_table_parse(em_cdf_table *T, const char *buf, size_t len, const char *name,
                       em_error *err)
{
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    const char *p;
    size_t m;
    while (em_line_next_data(&it, &p, &m)) {
        const unsigned long ln = it.line;
        int st = em_line_check(p, m, 0, 0, name, ln, err);
        if (st != EM_OK)
            return st;
        const char *comma = memchr(p, ',', m);
        if (!comma || memchr(comma + 1, ',', m - (size_t)(comma - p) - 1)) {
            return em_err_at(err, EM_ERR_PARSE, name, ln, "expected 'x,cdf' (one comma), got '%.*s'",
                             (int)(m > 60 ? 60 : m), p);
        }
        const char *xs = p, *vs = comma + 1;
        size_t xn = (size_t)(comma - p), vn = m - xn - 1;
        em_text_trim(&xs, &xn);
        em_text_trim(&vs, &vn);
        if (em_cdf_table_grow(T) != EM_OK)
            return em_err_at(err, EM_ERR_NOMEM, name, 0, "out of memory");
        size_t i = T->n;
        mpq_init(T->x[i]);
        mpq_init(T->g[i]);
        T->n++;
        T->line[i] = ln;
        int kind;
        const char *msg = NULL;
        if (xn == 0 || em_q_parse(xs, xn, 0, T->x[i], &kind, &msg) != EM_OK) {
            return em_err_at(err, EM_ERR_PARSE, name, ln, "bad point x '%.*s': %s",
                             (int)(xn > 60 ? 60 : xn), xs, xn == 0 ? "empty" : msg ? msg : "malformed");
        }
        int sp = special(vs, vn);
        if (sp >= 0) {
            T->kind[i] = sp;
            continue;
        }
        T->kind[i] = EM_CDFV_NUM;
        if (vn == 0 || em_q_parse(vs, vn, 0, T->g[i], &kind, &msg) != EM_OK) {
            return em_err_at(err, EM_ERR_PARSE, name, ln, "bad cdf value '%.*s': %s",
                             (int)(vn > 60 ? 60 : vn), vs, vn == 0 ? "empty" : msg ? msg : "malformed");
        }
    }
    return EM_OK;
}
