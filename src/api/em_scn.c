/* em_scn.c: scenarios of the high-level API (src/include/em_scn.h).
 * Every way in goes through the one scenario parser (io/em_scn_*.c), so an array from
 * Python and a file from the shell are read by the same code and refused for the same
 * reasons. */
#include "api/em_scn_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/em_error.h"
#include "core/em_params.h"
#include "num/em_rational.h"
#include "api/em_obj.h"


/* ------------------------------------------------------------------ scenarios */

em_scn *em_scn_obj(void)
{
    em_scn *s = em_obj_new(sizeof *s, em_scn_destroy);
    if (!s)
        return NULL;
    em_scn_init(s);
    s->compact = 1;
    em_obj_writer(s, em_scn_obj_write, NULL, NULL);
    return s;
}

static int scn_alloc(em_scn **out, em_error *err)
{
    *out = em_scn_obj();
    return *out ? EM_OK : em_err(err, EM_ERR_NOMEM, "out of memory");
}

int em_scn_from_source(const char *path, const char *text, size_t len, const char *name,
                       em_scn **out, em_error *err)
{
    if (!path && !text && len)
        return em_err(err, EM_ERR_NULL, "em_scn_new: text is NULL");
    em_scn *s;
    int st = scn_alloc(&s, err);
    if (st != EM_OK)
        return st;
    em_error e = {EM_OK, ""};
    st = path ? em_scn_read_file(s, path, &e)
              : em_scn_read(s, text ? text : "", len, name ? name : "<text>", &e);
    if (st != EM_OK) {
        em_free(s);
        return em_err(err, st, "%s", e.msg[0] ? e.msg : em_strerror(st));
    }
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

/* A number for the text format: exact syntax (em_rational.h), and nothing the line format
 * would read differently (a comma, a line break). */
static int check_number(const char *what, size_t i, const char *v, int allow_neg_inf,
                        int nonneg, em_error *err)
{
    if (strpbrk(v, ",\r\n"))
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: '%.40s' is not a number", what, i, v);
    mpq_t q;
    mpq_init(q);
    int kind;
    const char *msg = NULL;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    while (n && (*v == ' ' || *v == '\t'))
        v++, n--;
    int st = em_q_parse(v, n, allow_neg_inf, q, &kind, &msg);
    if (st == EM_OK && nonneg && kind == EM_Q_FINITE && mpq_sgn(q) < 0) {
        msg = "must be >= 0";
        st = EM_ERR_PARSE;
    }
    mpq_clear(q);
    if (st != EM_OK)
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: bad number '%.40s': %s", what, i, v,
                      msg ? msg : "malformed");
    return EM_OK;
}

/* Close a memory stream written by em_scn_from_text / em_scn_from_pieces: EM_OK, or
 * EM_ERR_NOMEM with *text freed (a memory stream fails only when out of memory). */
static int close_text(FILE *f, char **text, em_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(*text);
        *text = NULL;
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    return EM_OK;
}

/* Parse generated text; a parser message "NAME:LINE: rest" becomes "what[LINE - first]: rest". */
static int parse_generated(char *text, size_t len, const char *what, unsigned long first,
                           em_scn **out, em_error *err)
{
    em_scn *s;
    int st = scn_alloc(&s, err);
    if (st != EM_OK)
        return st;
    em_error e = {EM_OK, ""};
    st = em_scn_read(s, text, len, what, &e);
    const char *msg = e.msg;
    if (st != EM_OK) {
        em_free(s);
        size_t wl = strlen(what);
        unsigned long line;
        int k = 0;
        if (!strncmp(msg, what, wl) && sscanf(msg + wl, ":%lu: %n", &line, &k) == 1 && k > 0 &&
            line >= first)
            return em_err(err, st, "%s[%lu]: %s", what, line - first, msg + wl + k);
        return em_err(err, st, "%s", e.msg[0] ? e.msg : em_strerror(st));
    }
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

/* The number of candidates or pieces given to a constructor: 1 to EM_SCN_MAX_N. */
static int check_count(size_t n, const char *what, char var, em_error *err)
{
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "no %s (%c = 0)", what, var);
    if (n > EM_SCN_MAX_N)
        return em_err(err, EM_ERR_TOO_MANY, "%zu %s: more than the limit %zu", n, what,
                      (size_t)EM_SCN_MAX_N);
    return EM_OK;
}

int em_scn_from_text(size_t n, const char *const *utilities, const char *const *labels,
                     const char *const *measure, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_new: out is NULL");
    *out = NULL;
    if (!utilities)
        return em_err(err, EM_ERR_NULL, "em_scn_new: utilities is NULL");
    int cst = check_count(n, "candidates", 'n', err);
    if (cst != EM_OK)
        return cst;
    for (size_t i = 0; i < n; i++) {
        int st;
        if (utilities[i] && (st = check_number("utilities", i, utilities[i], 1, 0, err)) != EM_OK)
            return st;
        if (measure && !measure[i])
            return em_err(err, EM_ERR_NULL, "measure[%zu] is NULL", i);
        if (measure && (st = check_number("measure", i, measure[i], 0, 1, err)) != EM_OK)
            return st;
        if (labels) {
            if (!labels[i])
                return em_err(err, EM_ERR_NULL, "labels[%zu] is NULL", i);
            if (!labels[i][0])
                return em_err(err, EM_ERR_PARSE, "labels[%zu] is empty", i);
            if (strpbrk(labels[i], "\r\n"))
                return em_err(err, EM_ERR_PARSE, "labels[%zu] contains a line break", i);
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    unsigned long first = 1;
    if (measure) {
        fputs("# measure: yes\n", f);
        first = 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (labels)
            em_csv_label(f, labels[i]);
        else
            fprintf(f, "%zu", i);
        fprintf(f, ",%s", utilities[i] ? utilities[i] : "-inf");
        if (measure)
            fprintf(f, ",%s", measure[i]);
        fputc('\n', f);
    }
    if (close_text(f, &text, err) != EM_OK)
        return EM_ERR_NOMEM;
    int st = parse_generated(text, len, labels ? "labels" : "utilities", first, out, err);
    free(text);
    return st;
}

int em_scn_from_pieces(size_t k, const char *const *lo, const char *const *hi,
                       const char *const *a, const char *const *b, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_new: out is NULL");
    *out = NULL;
    if (!lo || !hi || !a)
        return em_err(err, EM_ERR_NULL, "em_scn_new: lo, hi or a is NULL");
    int cst = check_count(k, "pieces", 'n', err);
    if (cst != EM_OK)
        return cst;
    for (size_t j = 0; j < k; j++) {
        const char *v[4] = {lo[j], hi[j], a[j], b ? b[j] : "0"};
        const char *nm[4] = {"lo", "hi", "a", "b"};
        for (int t = 0; t < 4; t++) {
            if (!v[t])
                return em_err(err, EM_ERR_NULL, "%s[%zu] is NULL", nm[t], j);
            if (strpbrk(v[t], ",\r\n"))
                return em_err(err, EM_ERR_PARSE, "%s[%zu]: '%.40s' is not a number", nm[t], j, v[t]);
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    fputs("# output: continuous\n", f);
    for (size_t j = 0; j < k; j++)
        fprintf(f, "%s,%s,%s,%s\n", lo[j], hi[j], a[j], b ? b[j] : "0");
    if (close_text(f, &text, err) != EM_OK)
        return EM_ERR_NOMEM;
    int st = parse_generated(text, len, "pieces", 2, out, err);
    free(text);
    return st;
}

int em_scn_declare(em_scn *s, const char *sensitivity, int monotone, em_error *err)
{
    if (!s)
        return em_err(err, EM_ERR_NULL, "em_scn_declare: s is NULL");
    if (sensitivity) {
        mpq_t q;
        mpq_init(q);
        int kind;
        const char *msg = NULL;
        int st = em_q_parse_str(sensitivity, 0, q, &kind, &msg);
        if (st != EM_OK) {
            mpq_clear(q);
            return em_err(err, EM_ERR_PARSE, "bad sensitivity '%.40s': %s", sensitivity,
                          msg ? msg : "malformed");
        }
        if (mpq_sgn(q) <= 0) {
            mpq_clear(q);
            return em_err(err, EM_ERR_SENSITIVITY, "sensitivity %.40s: must be > 0", sensitivity);
        }
        mpq_set(s->sensitivity, q);
        mpq_set(s->pieces.sensitivity, q);
        s->has_sensitivity = s->pieces.has_sensitivity = 1;
        mpq_clear(q);
    }
    s->has_monotone = s->pieces.has_monotone = 1;
    s->monotone = s->pieces.monotone = monotone != 0;
    em_err_ok(err);
    return EM_OK;
}

void em_scn_destroy(void *obj)
{
    em_scn *s = obj;
    em_scn_clear(s);
    em_obj_release(s);
}

em_scn_info em_scn_get(const em_scn *s)
{
    em_scn_info i = {s->continuous ? 0 : s->n, s->continuous ? s->pieces.n : 0,
                     s->continuous != 0, s->has_measure != 0, s->name ? s->name : "<text>"};
    return i;
}

const char *em_scn_label(const em_scn *s, size_t i)
{
    return !s->continuous && i < s->n ? s->labels[i] : NULL;
}

long em_scn_find(const em_scn *s, const char *label)
{
    return label && !s->continuous ? em_scn_lookup(s, label, strlen(label)) : -1;
}

int em_scn_utility_plain(const em_scn *s, size_t i, char **text, em_error *err)
{
    if (!s || !text)
        return em_err(err, EM_ERR_NULL, "em_scn_utility: s or text is NULL");
    *text = NULL;
    if (s->continuous || i >= s->n)
        return em_err(err, EM_ERR_DOMAIN, "candidate %zu: no such candidate (%zu)", i,
                      em_scn_get(s).size);
    if (s->excluded[i])
        *text = strdup("-inf");
    else {
        mpq_t q;
        mpq_init(q);
        em_scn_get_u(s, i, q);
        *text = em_q_to_string(q, 60);
        mpq_clear(q);
    }
    if (!*text)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_err_ok(err);
    return EM_OK;
}

int em_scn_utility(const em_scn *s, size_t i, char **text, em_error *err)
{
    return EM_OBJ_STRINGS(em_scn_utility_plain(s, i, text, err), err, text);
}

