/* em_probsfile.c: probability vectors to judge (em_probsfile.h). */
#include "io/em_probsfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    if (gv[k].set)
        return em_err_at(err, EM_ERR_PARSE, name, ln, "second value for '%s' (first on line %lu)",
                    show(q, sizeof q, lab, labn), gv[k].line);
    return EM_OK;
}

/* ---------------------------------------------------------------- JSON */

typedef struct js {
    const char *s;
    size_t len, pos;
    unsigned long line;
} js;

static void ws(js *j)
{
    while (j->pos < j->len) {
        char c = j->s[j->pos];
        if (c == '\n')
            j->line++;
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        j->pos++;
    }
}

static int put_utf8(char *o, size_t *k, unsigned long cp)
{
    if (cp < 0x80) {
        o[(*k)++] = (char)cp;
    } else if (cp < 0x800) {
        o[(*k)++] = (char)(0xC0 | (cp >> 6));
        o[(*k)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        o[(*k)++] = (char)(0xE0 | (cp >> 12));
        o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[(*k)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        o[(*k)++] = (char)(0xF0 | (cp >> 18));
        o[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[(*k)++] = (char)(0x80 | (cp & 0x3F));
    }
    return 0;
}

static int hex4(const char *p, unsigned long *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        *v = *v * 16 + (unsigned long)d;
    }
    return 0;
}

/* a JSON string at j->pos (the opening quote) into a malloc'd buffer */
static int jstring(js *j, char **out, size_t *outn)
{
    if (j->pos >= j->len || j->s[j->pos] != '"')
        return -1;
    j->pos++;
    char *o = malloc(j->len - j->pos + 1);
    if (!o)
        return -2;
    size_t k = 0;
    while (j->pos < j->len) {
        unsigned char c = (unsigned char)j->s[j->pos++];
        if (c == '"') {
            o[k] = 0;
            *out = o;
            *outn = k;
            return 0;
        }
        if (c < 0x20)
            break;
        if (c != '\\') {
            o[k++] = (char)c;
            continue;
        }
        if (j->pos >= j->len)
            break;
        char e = j->s[j->pos++];
        unsigned long cp;
        switch (e) {
        case '"': o[k++] = '"'; break;
        case '\\': o[k++] = '\\'; break;
        case '/': o[k++] = '/'; break;
        case 'b': o[k++] = '\b'; break;
        case 'f': o[k++] = '\f'; break;
        case 'n': o[k++] = '\n'; break;
        case 'r': o[k++] = '\r'; break;
        case 't': o[k++] = '\t'; break;
        case 'u':
            if (j->pos + 4 > j->len || hex4(j->s + j->pos, &cp))
                goto bad;
            j->pos += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned long lo;
                if (j->pos + 6 > j->len || j->s[j->pos] != '\\' || j->s[j->pos + 1] != 'u' ||
                    hex4(j->s + j->pos + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    goto bad;
                j->pos += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                goto bad;
            }
            if (cp == 0)
                goto bad; /* labels are C strings */
            put_utf8(o, &k, cp);
            break;
        default:
            goto bad;
        }
    }
bad:
    free(o);
    return -1;
}

/* skip any JSON value */
static int jskip(js *j, int depth)
{
    ws(j);
    if (j->pos >= j->len || depth > 64)
        return -1;
    char c = j->s[j->pos];
    if (c == '"') {
        char *t;
        size_t tn;
        int r = jstring(j, &t, &tn);
        if (r == 0)
            free(t);
        return r;
    }
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        j->pos++;
        ws(j);
        if (j->pos < j->len && j->s[j->pos] == close) {
            j->pos++;
            return 0;
        }
        for (;;) {
            if (c == '{') {
                ws(j);
                char *t;
                size_t tn;
                int r = jstring(j, &t, &tn);
                if (r)
                    return r;
                free(t);
                ws(j);
                if (j->pos >= j->len || j->s[j->pos] != ':')
                    return -1;
                j->pos++;
            }
            int r = jskip(j, depth + 1);
            if (r)
                return r;
            ws(j);
            if (j->pos < j->len && j->s[j->pos] == ',') {
                j->pos++;
                continue;
            }
            if (j->pos < j->len && j->s[j->pos] == close) {
                j->pos++;
                return 0;
            }
            return -1;
        }
    }
    /* number, true, false, null */
    size_t st = j->pos;
    while (j->pos < j->len && strchr("+-0123456789.eEtruefalsn", j->s[j->pos]))
        j->pos++;
    return j->pos > st ? 0 : -1;
}

/* one candidate object */
static int jcand(js *j, const char *name, size_t n, em_label_find_fn find, const void *ctx,
                 em_pvalue *gv, em_error *err)
{
    (void)n;
    unsigned long ln = j->line;
    char *label = NULL, *prob = NULL;
    size_t labn = 0, probn = 0;
    int st = EM_OK;
    ws(j);
    if (j->pos >= j->len || j->s[j->pos] != '{')
        return em_err_at(err, EM_ERR_PARSE, name, j->line, "expected a candidate object {\"label\": ..., \"probability\": ...}");
    j->pos++;
    ws(j);
    if (j->pos < j->len && j->s[j->pos] == '}') {
        j->pos++;
        goto check;
    }
    for (;;) {
        ws(j);
        char *key;
        size_t kn;
        int r = jstring(j, &key, &kn);
        if (r == -2)
            return EM_ERR_NOMEM;
        if (r) {
            st = em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON (a key expected)");
            goto out;
        }
        ws(j);
        if (j->pos >= j->len || j->s[j->pos] != ':') {
            free(key);
            st = em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON (':' expected)");
            goto out;
        }
        j->pos++;
        ws(j);
        int is_label = !strcmp(key, "label"), is_prob = !strcmp(key, "probability");
        free(key);
        if (is_label || is_prob) {
            char **dst = is_label ? &label : &prob;
            size_t *dn = is_label ? &labn : &probn;
            if (*dst) {
                st = em_err_at(err, EM_ERR_PARSE, name, j->line, "repeated \"%s\"", is_label ? "label" : "probability");
                goto out;
            }
            if (j->pos < j->len && j->s[j->pos] == '"') {
                r = jstring(j, dst, dn);
                if (r == -2)
                    return EM_ERR_NOMEM;
                if (r) {
                    st = em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON string");
                    goto out;
                }
            } else if (is_prob) { /* a bare JSON number */
                size_t s0 = j->pos;
                while (j->pos < j->len && strchr("+-0123456789.eE", j->s[j->pos]))
                    j->pos++;
                *dn = j->pos - s0;
                *dst = malloc(*dn + 1);
                if (!*dst)
                    return EM_ERR_NOMEM;
                memcpy(*dst, j->s + s0, *dn);
                (*dst)[*dn] = 0;
            } else {
                st = em_err_at(err, EM_ERR_PARSE, name, j->line, "\"label\" must be a string");
                goto out;
            }
        } else if (jskip(j, 0)) {
            st = em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON value");
            goto out;
        }
        ws(j);
        if (j->pos < j->len && j->s[j->pos] == ',') {
            j->pos++;
            continue;
        }
        if (j->pos < j->len && j->s[j->pos] == '}') {
            j->pos++;
            break;
        }
        st = em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON (',' or '}' expected)");
        goto out;
    }
check:
    if (!label || !prob) {
        st = em_err_at(err, EM_ERR_PARSE, name, ln, "a candidate object without \"%s\"", label ? "probability" : "label");
        goto out;
    }
    {
        long k = find(ctx, label, labn);
        st = labelled(gv, k, label, labn, name, ln, err);
        if (st == EM_OK)
            st = put_value(gv, (size_t)k, prob, probn, name, ln, err);
    }
out:
    free(label);
    free(prob);
    return st;
}

/* A key of an object and its ':' (white space before the ':' skipped): *cand whether the
 * key is "candidates". */
static int object_key(js *j, const char *name, int *cand, em_error *err)
{
    char *key;
    size_t kn;
    int r = jstring(j, &key, &kn);
    if (r == -2)
        return EM_ERR_NOMEM;
    if (r)
        return em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON (a key expected)");
    *cand = !strcmp(key, "candidates");
    free(key);
    ws(j);
    if (j->pos >= j->len || j->s[j->pos] != ':')
        return em_err_at(err, EM_ERR_PARSE, name, j->line, "malformed JSON (':' expected)");
    j->pos++;
    return EM_OK;
}

static int parse_json(const char *buf, size_t len, size_t pos, const char *name, size_t n,
                      em_label_find_fn find, const void *ctx, em_pvalue *gv, em_error *err)
{
    js j = {buf, len, pos, 1};
    for (size_t i = 0; i < pos; i++)
        j.line += buf[i] == '\n';
    ws(&j);
    int found = 0;
    if (buf[j.pos] == '{') { /* find "candidates" */
        j.pos++;
        for (;;) {
            ws(&j);
            int cand, st = object_key(&j, name, &cand, err);
            if (st != EM_OK)
                return st;
            ws(&j);
            if (cand) {
                if (found)
                    return em_err_at(err, EM_ERR_PARSE, name, j.line, "repeated \"candidates\"");
                found = 1;
                break;
            }
            if (jskip(&j, 0))
                return em_err_at(err, EM_ERR_PARSE, name, j.line, "malformed JSON value");
            ws(&j);
            if (j.pos < j.len && j.s[j.pos] == ',') {
                j.pos++;
                continue;
            }
            return em_err_at(err, EM_ERR_PARSE, name, j.line, "no \"candidates\" array in the JSON object");
        }
    }
    ws(&j);
    if (j.pos >= j.len || j.s[j.pos] != '[')
        return em_err_at(err, EM_ERR_PARSE, name, j.line, "expected a JSON array of candidates");
    j.pos++;
    ws(&j);
    if (j.pos < j.len && j.s[j.pos] == ']') {
        j.pos++;
    } else {
        for (;;) {
            int st = jcand(&j, name, n, find, ctx, gv, err);
            if (st != EM_OK)
                return st;
            ws(&j);
            if (j.pos < j.len && j.s[j.pos] == ',') {
                j.pos++;
                continue;
            }
            if (j.pos < j.len && j.s[j.pos] == ']') {
                j.pos++;
                break;
            }
            return em_err_at(err, EM_ERR_PARSE, name, j.line, "malformed JSON (',' or ']' expected)");
        }
    }
    if (found) { /* the rest of the object */
        for (;;) {
            ws(&j);
            if (j.pos < j.len && j.s[j.pos] == '}') {
                j.pos++;
                break;
            }
            if (j.pos < j.len && j.s[j.pos] == ',') {
                j.pos++;
                ws(&j);
                int cand, st = object_key(&j, name, &cand, err);
                if (st != EM_OK)
                    return st;
                if (cand)
                    return em_err_at(err, EM_ERR_PARSE, name, j.line, "repeated \"candidates\"");
                if (jskip(&j, 0))
                    return em_err_at(err, EM_ERR_PARSE, name, j.line, "malformed JSON value");
                continue;
            }
            return em_err_at(err, EM_ERR_PARSE, name, j.line, "malformed JSON (',' or '}' expected)");
        }
    }
    ws(&j);
    if (j.pos != j.len)
        return em_err_at(err, EM_ERR_PARSE, name, j.line, "text after the JSON value");
    for (size_t i = 0; i < n; i++)
        if (!gv[i].set)
            return em_err_at(err, EM_ERR_PARSE, name, 0, "no value for candidate %zu", i);
    return EM_OK;
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
                em_pvalue tmpv;
                mpq_init(tmpv.q);
                const char *msg = NULL;
                int bad = memchr(l, ',', lnn) != NULL || lnn == 0 ||
                          em_pvalue_parse(l, lnn, &tmpv, &msg) != EM_OK;
                if (!bad) {
                    /* judged too: a column given is a column checked */
                    gv[k].has_log = 1;
                    gv[k].logv = tmpv.kind == EM_PV_NUM ? mpq_get_d(tmpv.q)
                                 : tmpv.kind == EM_PV_NAN ? NAN
                                 : tmpv.kind == EM_PV_PINF ? INFINITY : -INFINITY;
                }
                mpq_clear(tmpv.q);
                if (bad) {
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
