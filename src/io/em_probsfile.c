/* em_probsfile.c: probability vectors to judge (em_probsfile.h). */
#include "io/em_probsfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "em_base.h"
#include "base/em_error.h"
#include "io/em_label.h"
#include "io/em_text.h"
#include "num/em_rational.h"

int em_pvalue_parse(const char *p, size_t n, em_pvalue *g, const char **msg)
{
    char w[16];
    if (n < sizeof w) {
        memcpy(w, p, n);
        w[n] = 0;
        const char *x = w;
        int neg = 0;
        if (*x == '+' || *x == '-') {
            neg = *x == '-';
            x++;
        }
        if (!strcasecmp(x, "nan")) {
            g->kind = EM_PV_NAN;
            return EM_OK;
        }
        if (!strcasecmp(x, "inf") || !strcasecmp(x, "infinity")) {
            g->kind = neg ? EM_PV_NINF : EM_PV_PINF;
            return EM_OK;
        }
    }
    int kind;
    g->kind = EM_PV_NUM;
    *msg = NULL;
    return em_q_parse(p, n, 0, g->q, &kind, msg);
}


/* a label (len bytes) shown in a message */
static const char *show(char *buf, size_t cap, const char *p, size_t n)
{
    char *t = malloc(n + 1);
    if (!t)
        return "?";
    memcpy(t, p, n);
    t[n] = 0;
    em_label_human_str(buf, cap, t, 60);
    free(t);
    return buf;
}

/* set gv[idx] from the value text; EM_OK or EM_ERR_PARSE */
static int put_value(em_pvalue *gv, size_t idx, const char *v, size_t vn, const char *name,
                     unsigned long ln, em_error *err)
{
    const char *msg = NULL;
    char q[300];
    if (vn == 0 || em_pvalue_parse(v, vn, &gv[idx], &msg) != EM_OK)
        return em_err_at(err, EM_ERR_PARSE, name, ln, "bad probability '%s': %s", show(q, sizeof q, v, vn),
                    vn == 0 ? "empty" : (msg ? msg : "malformed"));
    gv[idx].set = 1;
    gv[idx].line = ln;
    return EM_OK;
}

static int labelled(em_pvalue *gv, long k, const char *lab, size_t labn, const char *name,
                    unsigned long ln, em_error *err)
{
    char q[300];
    if (k < 0)
        return em_err_at(err, EM_ERR_PARSE, name, ln, "unknown label '%s'", show(q, sizeof q, lab, labn));
    if (gv[k].set && gv[k].line)
        return em_err_at(err, EM_ERR_PARSE, name, ln, "second value for '%s' (first on line %lu)",
                    show(q, sizeof q, lab, labn), gv[k].line);
    if (gv[k].set) /* JSON: no lines */
        return em_err_at(err, EM_ERR_PARSE, name, ln, "second value for '%s'",
                              show(q, sizeof q, lab, labn));
    return EM_OK;
}

/* ---------------------------------------------------------------- JSON */
/* Read with Jansson (values located by their index: "candidates[3]"; syntax errors by
 * Jansson's line and column).  A probability that is a JSON string is read exactly; a bare
 * JSON number is read as Jansson reads it, the nearest double, then taken exactly (what a
 * program that wrote a double meant); `expmech probs --format json` writes strings. */

/* A log-probability given beside a probability: judged too (a column given is a column
 * checked).  EM_OK, or EM_ERR_PARSE when l is not one value. */
static int put_log(em_pvalue *g, const char *l, size_t n)
{
    em_pvalue v;
    mpq_init(v.q);
    const char *msg = NULL;
    int bad = n == 0 || memchr(l, ',', n) != NULL || em_pvalue_parse(l, n, &v, &msg) != EM_OK;
    if (!bad) {
        g->has_log = 1;
        g->logv = v.kind == EM_PV_NUM    ? mpq_get_d(v.q)
                  : v.kind == EM_PV_NAN  ? NAN
                  : v.kind == EM_PV_PINF ? INFINITY
                                         : -INFINITY;
    }
    mpq_clear(v.q);
    return bad ? EM_ERR_PARSE : EM_OK;
}

/* one candidate object */
static int jcand(json_t *o, size_t k, const char *name, em_label_find_fn find, const void *ctx,
                 em_pvalue *gv, em_error *err)
{
    char q[300];
    if (!json_is_object(o))
        return em_err_at(err, EM_ERR_PARSE, name, 0, "candidates[%zu]: expected a candidate object "
                              "{\"label\": ..., \"probability\": ...}", k);
    json_t *l = json_object_get(o, "label"), *p = json_object_get(o, "probability");
    if (!l || !p)
        return em_err_at(err, EM_ERR_PARSE, name, 0, "candidates[%zu]: a candidate object without "
                              "\"%s\"", k, l ? "probability" : "label");
    if (!json_is_string(l))
        return em_err_at(err, EM_ERR_PARSE, name, 0, "candidates[%zu]: \"label\" must be a string",
                              k);
    const char *lab = json_string_value(l);
    size_t labn = json_string_length(l);
    long idx = find(ctx, lab, labn);
    int st = labelled(gv, idx, lab, labn, name, 0, err);
    if (st != EM_OK)
        return st;
    json_t *lp = json_object_get(o, "log_probability");
    if (lp) { /* probs --format json's own: judged like the CSV's third column */
        if (json_is_number(lp))
            snprintf(q, sizeof q, "%a", json_number_value(lp));
        int bad = json_is_string(lp) ? put_log(&gv[idx], json_string_value(lp),
                                               json_string_length(lp))
                  : json_is_number(lp) ? put_log(&gv[idx], q, strlen(q))
                                       : EM_ERR_PARSE;
        if (bad)
            return em_err_at(err, EM_ERR_PARSE, name, 0, "candidates[%zu]: bad \"log_probability"
                             "\" (a string or a number)", k);
    }
    if (json_is_string(p))
        return put_value(gv, (size_t)idx, json_string_value(p), json_string_length(p), name, 0,
                         err);
    if (json_is_number(p)) {
        snprintf(q, sizeof q, "%a", json_number_value(p)); /* the double, exactly */
        return put_value(gv, (size_t)idx, q, strlen(q), name, 0, err);
    }
    return em_err_at(err, EM_ERR_PARSE, name, 0, "candidates[%zu]: \"probability\" must be a "
                          "string or a number", k);
}

static int parse_json(const char *buf, size_t len, size_t pos, const char *name, size_t n,
                      em_label_find_fn find, const void *ctx, em_pvalue *gv, em_error *err)
{
    unsigned long line0 = 0; /* lines before the JSON text (a byte-order mark, blank lines) */
    for (size_t i = 0; i < pos; i++)
        line0 += buf[i] == '\n';
    json_error_t je;
    json_t *root = json_loadb(buf + pos, len - pos, JSON_REJECT_DUPLICATES |
                              JSON_DECODE_INT_AS_REAL | JSON_DISABLE_EOF_CHECK, &je);
    if (!root)
        return em_err_at(err, EM_ERR_PARSE, name, line0 + (unsigned long)(je.line > 0 ? je.line : 1),
                              "malformed JSON: %s", je.text);
    int st = EM_OK;
    for (size_t i = pos + (size_t)je.position; i < len && st == EM_OK; i++)
        if (!strchr(" \t\r\n", buf[i]))
            st = em_err_at(err, EM_ERR_PARSE, name, 0, "text after the JSON value");
    json_t *arr = root;
    if (st == EM_OK && json_is_object(root)) {
        arr = json_object_get(root, "candidates");
        if (!arr)
            st = em_err_at(err, EM_ERR_PARSE, name, 0, "no \"candidates\" array in the JSON object");
    }
    if (st == EM_OK && !json_is_array(arr))
        st = em_err_at(err, EM_ERR_PARSE, name, 0, "expected a JSON array of candidates");
    for (size_t k = 0; st == EM_OK && k < json_array_size(arr); k++)
        st = jcand(json_array_get(arr, k), k, name, find, ctx, gv, err);
    json_decref(root);
    for (size_t i = 0; st == EM_OK && i < n; i++)
        if (!gv[i].set)
            st = em_err_at(err, EM_ERR_PARSE, name, 0, "no value for candidate %zu", i);
    return st;
}

/* ----------------------------------------------------------------- CSV */

int em_probs_file_parse(const char *buf, size_t len, const char *name, size_t n,
                        em_label_find_fn find, const void *ctx, em_pvalue *gv, em_error *err)
{
    size_t count = 0, m;
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    int form = -1; /* 0 numbers, 1 labelled */
    const char *p;
    char q[300];
    {
        size_t k = len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
        while (k < len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r'))
            k++;
        if (k < len && (buf[k] == '{' || buf[k] == '['))
            return parse_json(buf, len, k, name, n, find, ctx, gv, err);
    }
    char *tmp = malloc(EM_SAMPLES_MAX_LINE + 1);
    if (!tmp)
        return EM_ERR_NOMEM;
    int st = EM_OK;
    while (st == EM_OK && em_line_next_data(&it, &p, &m)) {
        const unsigned long ln = it.line;
        if ((st = em_line_check(p, m, EM_SAMPLES_MAX_LINE, 0, name, ln, err)) != EM_OK)
            break;
        if (count == 0 && m > 8 && !strncmp(p, "epsilon,", 8)) {
            /* probs over a list of epsilons: one block per value, the first column epsilon */
            st = em_err_at(err, EM_ERR_PARSE, name, ln,
                           "this is the output of a sweep (its first column is epsilon): "
                           "compare judges one epsilon; select it (e.g. awk -F, 'NR == 1 || $1 "
                           "== 1' FILE | cut -d, -f2-) or run probs with that one o->epsilon");
            break;
        }
        const char *lab = NULL, *v = p;
        size_t labn = 0, vn = m;
        long k = -1;
        int f = 0;
        if (p[0] == '"') { /* a quoted label, then ',probability[,log_probability]' */
            size_t e = 1;
            while (e < m && !(p[e] == '"' && (e + 1 >= m || p[e + 1] != '"')))
                e += p[e] == '"' ? 2 : 1;
            if (e >= m || em_csv_field_unquote(p, e + 1, tmp, &labn) != 0) {
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "malformed quoted label");
                break;
            }
            lab = tmp;
            const char *r = p + e + 1;
            size_t rn = m - e - 1;
            em_text_trim(&r, &rn);
            if (rn == 0 || r[0] != ',') {
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "expected ',' after the quoted label");
                break;
            }
            r++, rn--;
            const char *c2 = memchr(r, ',', rn);
            v = r;
            vn = c2 ? (size_t)(c2 - r) : rn;
            k = find(ctx, lab, labn);
            f = 1;
        } else {
            const char *c1 = NULL, *c0 = NULL; /* the last comma, the one before */
            for (size_t i = m; i-- > 0;)
                if (p[i] == ',') {
                    if (!c1)
                        c1 = p + i;
                    else {
                        c0 = p + i;
                        break;
                    }
                }
            if (c1) {
                f = 1;
                /* 'label,probability' (the label may hold commas) ... */
                lab = p;
                labn = (size_t)(c1 - p);
                em_text_trim(&lab, &labn);
                k = find(ctx, lab, labn);
                v = c1 + 1;
                vn = m - (size_t)(c1 - p) - 1;
                /* ... or probs' own 'label,probability,log_probability' */
                if (k < 0 && c0) {
                    const char *l2 = p;
                    size_t l2n = (size_t)(c0 - p);
                    em_text_trim(&l2, &l2n);
                    long k2 = find(ctx, l2, l2n);
                    if (k2 >= 0) {
                        lab = l2;
                        labn = l2n;
                        k = k2;
                        v = c0 + 1;
                        vn = (size_t)(c1 - c0) - 1;
                    }
                }
            }
        }
        if (form < 0)
            form = f;
        else if (form != f) {
            st = em_err_at(err, EM_ERR_PARSE, name, ln, "mixed line forms (either numbers only, or "
                                             "'label,probability' on every line)");
            break;
        }
        size_t idx;
        if (f) {
            st = labelled(gv, k, lab, labn, name, ln, err);
            if (st != EM_OK)
                break;
            idx = (size_t)k;
            /* a log-probability after the probability must be a value too */
            if (v + vn < p + m) {
                const char *l = v + vn + 1;
                size_t lnn = (size_t)(p + m - l);
                em_text_trim(&l, &lnn);
                if (put_log(&gv[k], l, lnn) != EM_OK) {
                    st = em_err_at(err, EM_ERR_PARSE, name, ln, "bad log-probability '%s'", show(q, sizeof q, l, lnn));
                    break;
                }
            }
        } else {
            if (count >= n) {
                st = em_err_at(err, EM_ERR_PARSE, name, ln, "more values than the scenario's %zu candidates", n);
                break;
            }
            idx = count;
        }
        em_text_trim(&v, &vn);
        st = put_value(gv, idx, v, vn, name, ln, err);
        count++;
    }
    free(tmp);
    if (st != EM_OK)
        return st;
    if (count == 0)
        return em_err_at(err, EM_ERR_PARSE, name, 0, "no probabilities");
    for (size_t i = 0; i < n; i++)
        if (!gv[i].set) {
            if (form == 0)
                return em_err_at(err, EM_ERR_PARSE, name, 0, "%zu values for %zu candidates", count, n);
            return em_err_at(err, EM_ERR_PARSE, name, 0, "no value for candidate %zu", i);
        }
    return EM_OK;
}
