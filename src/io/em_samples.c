/* em_samples.c: the samples-file reader (em_samples.h). */
#include "io/em_samples.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "io/em_label.h"
#include "io/em_text.h"

int em_samples_are_parse(const char *v, int *are)
{
    if (!strcmp(v, "labels"))
        *are = EM_SAMPLES_LABELS;
    else if (!strcmp(v, "indices"))
        *are = EM_SAMPLES_INDICES;
    else
        return -1;
    return 0;
}

int em_csv_field_unquote(const char *p, size_t n, char *out, size_t *outn)
{
    if (n == 0 || p[0] != '"')
        return (*outn = n), 1;
    if (n < 2 || p[n - 1] != '"')
        return -1;
    size_t o = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (p[i] == '"') {
            if (i + 2 < n && p[i + 1] == '"')
                i++;
            else
                return -1;
        }
        out[o++] = p[i];
    }
    *outn = o;
    return 0;
}

/* decimal digits only: the value (saturating at UINT64_MAX) */
static int digits(const char *p, size_t n, uint64_t *v)
{
    if (n == 0)
        return 0;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        unsigned d = (unsigned)(p[i] - '0');
        x = x > (UINT64_MAX - d) / 10 ? UINT64_MAX : x * 10 + d;
    }
    *v = x;
    return 1;
}

int em_samples_count(const char *buf, size_t len, const char *name, size_t n,
                     em_label_find_fn find, const void *ctx, int are, uint64_t *counts,
                     uint64_t *total, em_error *err)
{
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    size_t m;
    const char *p;
    char q[200];
    char *tmp = malloc(EM_SAMPLES_MAX_LINE + 1);
    if (!tmp)
        return EM_ERR_NOMEM;
    memset(counts, 0, n * sizeof *counts);
    *total = 0;
    int st = EM_OK;
    while (st == EM_OK && em_line_next(&it, &p, &m)) {
        const unsigned long ln = it.line;
        if (!p) {
            st = em_err_at(err, EM_ERR_PARSE, name, ln, "line too long");
            break;
        }
        em_text_trim(&p, &m);
        if (m == 0)
            continue;
        if (p[0] == '#') {
            /* a comment, unless it is a label of the scenario: a draw of label "#1" written
             * unquoted would otherwise vanish (expmech quotes such labels) */
            if (are != EM_SAMPLES_INDICES && find(ctx, p, m) >= 0) {
                em_text_show(q, sizeof q, p, m);
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "'%s' is a label of the scenario, but a "
                               "line starting with '#' is a comment: quote the label (\"%s\")", q, q);
                break;
            }
            continue;
        }
        if ((st = em_line_check(p, m, EM_SAMPLES_MAX_LINE, 0, name, ln, err)) != EM_OK)
            break;
        uint64_t v = 0;
        int num = digits(p, m, &v);
        long idx = -1;
        if (are == EM_SAMPLES_INDICES) {
            if (!num) {
                em_text_show(q, sizeof q, p, m);
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "'%s' is not a 0-based index (--samples-are indices)", q);
            } else if (v >= n) {
                em_text_show(q, sizeof q, p, m);
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "index %s out of range (the scenario has %zu candidates)", q, n);
            } else {
                idx = (long)v;
            }
        } else {
            const char *lab = p;
            size_t labn = m;
            int u = em_csv_field_unquote(p, m, tmp, &labn);
            if (u < 0) {
                em_text_show(q, sizeof q, p, m);
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "malformed quoted label '%s' (a quote inside is doubled: \"\")", q);
                break;
            }
            if (u == 0)
                lab = tmp;
            idx = find(ctx, lab, labn);
            if (are == EM_SAMPLES_AUTO && u == 1 && num) {
                if (idx >= 0 && v < n && (uint64_t)idx != v) {
                    em_text_show(q, sizeof q, p, m);
                    st = em_err_at(err, EM_ERR_PARSE, name, ln,
                                        "'%s' is ambiguous: the label of candidate %ld (0-based) and the index "
                                        "of candidate %s; give --samples-are labels or --samples-are indices",
                                        q, idx, q);
                } else if (idx < 0 && v < n) {
                    idx = (long)v;
                } else if (idx < 0) {
                    em_text_show(q, sizeof q, p, m);
                    st = em_err_at(err, EM_ERR_PARSE, name, ln,
                                        "index %s out of range (the scenario has %zu candidates), and no "
                                        "label '%s'", q, n, q);
                }
            } else if (idx < 0) {
                em_text_show(q, sizeof q, lab, labn);
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "unknown label '%s'%s", q,
                                       num && are == EM_SAMPLES_LABELS
                                           ? " (--samples-are indices reads 0-based indices)" : "");
            }
        }
        if (st == EM_OK) {
            counts[idx]++;
            ++*total;
        }
    }
    free(tmp);
    if (st == EM_OK && *total == 0)
        st = em_err_at(err, EM_ERR_PARSE, name, 0, "no draws");
    return st;
}
