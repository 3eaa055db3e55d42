/* em_data.c: the raw data and candidate lists of `expmech score` (io/em_data.h). */
#include "io/em_data.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/em_scn_text.h"
#include "io/em_text.h"
#include "num/em_rational.h"

int em_data_fail(em_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = EM_ERR_PARSE;
    }
    return EM_ERR_PARSE;
}

int em_data_nomem(em_error *err)
{
    if (err) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        err->status = EM_ERR_NOMEM;
    }
    return EM_ERR_NOMEM;
}

void em_rows_free(em_rows *l)
{
    free(l->buf);
    free(l->v);
    free(l->line);
    free(l->count);
    memset(l, 0, sizeof *l);
}

static int lines_push(em_rows *l, char *p, unsigned long ln, em_error *err)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 256;
        char **v = realloc(l->v, nc * sizeof *v);
        if (!v)
            return em_data_nomem(err);
        l->v = v;
        unsigned long *lnv = realloc(l->line, nc * sizeof *lnv);
        if (!lnv)
            return em_data_nomem(err);
        l->line = lnv;
        l->cap = nc;
    }
    l->v[l->n] = p;
    l->line[l->n] = ln;
    l->n++;
    return EM_OK;
}

int em_rows_read(em_rows *l, const char *path, const char *what, em_error *err)
{
    memset(l, 0, sizeof *l);
    int use_stdin = !strcmp(path, "-");
    l->name = use_stdin ? "<stdin>" : path;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return em_data_fail(err, "%s: cannot open %s: %s", what, path, strerror(errno));
    const char *why = em_stream_refusal(f, use_stdin);
    size_t len;
    errno = 0;
    int st = why ? EM_ERR_PARSE : em_read_all(f, (size_t)4 << 30, &l->buf, &len);
    int errnum = errno;
    if (!why && st != EM_OK && st != EM_ERR_NOMEM)
        why = em_stream_why_failed(f, use_stdin, errnum);
    if (!use_stdin)
        fclose(f);
    if (st == EM_ERR_NOMEM)
        return em_data_nomem(err);
    if (st != EM_OK)
        return em_data_fail(err, "%s: %s: %s", what, l->name, why);
    if (memchr(l->buf, 0, len))
        return em_data_fail(err, "%s: NUL byte in the file", l->name);
    em_line_iter it;
    em_line_iter_init(&it, l->buf, len);
    it.comments_lead = 1; /* a row "#1" after the first data line is a row, never dropped */
    const char *cp;
    size_t n;
    while (em_line_next_data(&it, &cp, &n)) {
        char *p = l->buf + (cp - l->buf); /* the buffer is l's own */
        p[n] = 0; /* overwrites the '\n' (or the '\r', or the NUL after the buffer) */
        if ((st = lines_push(l, p, it.line, err)) != EM_OK)
            return st;
    }
    l->rows = l->n;
    return EM_OK;
}

/* One CSV field starting at p: unquoted (trimmed) or "quoted" with "" for a quote.  The
   value is copied to dst (dst <= p: the value is never longer than its text), NUL-ended;
   returns the position after the field, or NULL on bad quoting; *more: a ',' follows. */
static char *csv_field(char *p, char *dst, int *more)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '"') {
        p++;
        for (;;) {
            if (*p == 0)
                return NULL; /* unterminated */
            if (*p == '"') {
                if (p[1] == '"') {
                    *dst++ = '"';
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            *dst++ = *p++;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != 0 && *p != ',')
            return NULL; /* text after the closing quote */
        *more = *p == ',';
        *dst = 0;
        return p;
    }
    char *start = dst;
    while (*p && *p != ',')
        *dst++ = *p++;
    while (dst > start && (dst[-1] == ' ' || dst[-1] == '\t'))
        dst--;
    *more = *p == ','; /* before the terminator, which may land on that comma */
    *dst = 0;
    return p;
}

/* Split a line into at most `max` fields in place (each field's value written over its
   own text).  Returns the number of fields, or -1 on bad quoting. */
static long csv_split(char *line, char **field, size_t max)
{
    size_t nf = 0;
    char *p = line;
    for (;;) {
        char *start = p;
        int more = 0;
        char *end = csv_field(p, start, &more);
        if (!end)
            return -1;
        if (nf < max)
            field[nf] = start;
        nf++;
        if (!more)
            break;
        p = end + 1;
    }
    return (long)nf;
}

static int bad_quoting(const em_rows *l, size_t i, em_error *err)
{
    return em_data_fail(err, "%s:%lu: bad quoting (an unterminated \"field\" or text after its "
                             "closing quote)", l->name, l->line[i]);
}

/* The index of column `name` in the header fields f[0..nh), or -1 after a message. */
static long header_column(const em_rows *l, char **f, long nh, const char *name, em_error *err)
{
    long col = -1;
    for (long k = 0; k < nh; k++)
        if (!strcmp(f[k], name)) {
            if (col >= 0) {
                em_data_fail(err, "%s:%lu: column '%s' appears twice in the header", l->name,
                             l->line[0], name);
                return -1;
            }
            col = k;
        }
    if (col < 0)
        em_data_fail(err, "%s:%lu: no column '%s' in the header line", l->name, l->line[0],
                     name);
    return col;
}

/* Keep only the column `name` of a CSV file whose first line is the header; with group_by,
   also that column's value of each row in group[] (l->n - 1 entries, pointers into buf). */
static int lines_column(em_rows *l, const char *name, const char *group_by, char **group,
                        em_error *err)
{
    if (l->n == 0)
        return em_data_fail(err, "--data %s: no header line (--column %s)", l->name, name);
    size_t cap = 1;
    for (const char *c = l->v[0]; *c; c++)
        cap += *c == ',';
    char **f = malloc(cap * sizeof *f);
    if (!f)
        return em_data_nomem(err);
    int st = EM_OK;
    long nh = csv_split(l->v[0], f, cap), col = -1, gcol = -1;
    if (nh < 0)
        st = em_data_fail(err, "%s:%lu: bad quoting in the header line", l->name, l->line[0]);
    else if ((col = header_column(l, f, nh, name, err)) < 0 ||
             (group_by && (gcol = header_column(l, f, nh, group_by, err)) < 0))
        st = EM_ERR_PARSE;
    else if (gcol == col)
        st = em_data_fail(err, "--group-by %s: the column scored (--column) cannot be the "
                               "grouping column", group_by);
    for (size_t i = 1; i < l->n && st == EM_OK; i++) {
        size_t need = 1;
        for (const char *c = l->v[i]; *c; c++)
            need += *c == ',';
        if (need > cap) {
            char **g = realloc(f, need * sizeof *f);
            if (!g) {
                st = em_data_nomem(err);
                break;
            }
            f = g;
            cap = need;
        }
        long nf = csv_split(l->v[i], f, cap);
        if (nf < 0)
            st = bad_quoting(l, i, err);
        else if (nf != nh)
            st = em_data_fail(err, "%s:%lu: %ld field%s, the header has %ld", l->name, l->line[i],
                              nf, nf == 1 ? "" : "s", nh);
        else if (f[col][0] == 0 || (group_by && f[gcol][0] == 0))
            st = em_data_fail(err, "%s:%lu: empty value in column '%s'", l->name, l->line[i],
                              f[col][0] == 0 ? name : group_by);
        else {
            if (group_by)
                group[i - 1] = f[gcol];
            l->v[i - 1] = f[col];
            l->line[i - 1] = l->line[i];
        }
    }
    free(f);
    if (st == EM_OK)
        l->rows = --l->n;
    return st;
}

/* A count: decimal digits only, below 2^64. */
static int parse_count(const em_rows *l, size_t i, const char *s, uint64_t *out, em_error *err)
{
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return em_data_fail(err, "%s:%lu: count '%s' does not fit in 64 bits", l->name,
                                l->line[i], s);
        v = 10 * v + d;
    }
    if (p == s || *p)
        return em_data_fail(err, "%s:%lu: count '%s' is not a non-negative integer%s", l->name,
                            l->line[i], s,
                            i == 0 && !strpbrk(s, "0123456789") ? " (a header line? --aggregated reads none: run sqlite3 "
                                     "without -header)" : "");
    *out = v;
    return EM_OK;
}

/* `value,count` lines: the values with their counts, each value once. */
static int lines_aggregated(em_rows *l, em_error *err)
{
    l->count = malloc((l->n ? l->n : 1) * sizeof *l->count);
    if (!l->count)
        return em_data_nomem(err);
    size_t rows = 0;
    for (size_t i = 0; i < l->n; i++) {
        char *f[3];
        long nf = csv_split(l->v[i], f, 3);
        int st;
        if (nf < 0)
            return bad_quoting(l, i, err);
        if (nf != 2)
            return em_data_fail(err, "%s:%lu: %ld field%s: --aggregated reads lines 'value,count' "
                                     "(SELECT v, COUNT(*) ... GROUP BY v)",
                                l->name, l->line[i], nf, nf == 1 ? "" : "s");
        if (f[0][0] == 0)
            return em_data_fail(err, "%s:%lu: empty value (an SQL NULL? leave it out with WHERE v "
                                     "IS NOT NULL)", l->name, l->line[i]);
        if ((st = parse_count(l, i, f[1], &l->count[i], err)) != EM_OK)
            return st;
        if (l->count[i] > SIZE_MAX - rows)
            return em_data_fail(err, "%s:%lu: the counts add up to more than %zu rows", l->name,
                                l->line[i], (size_t)SIZE_MAX);
        rows += (size_t)l->count[i];
        l->v[i] = f[0];
    }
    em_strmap m;
    size_t dup = 0;
    int st = em_strmap_init(&m, l->v, l->n, &dup, err);
    em_strmap_free(&m);
    if (st == EM_ERR_PARSE) {
        size_t first = 0;
        while (strcmp(l->v[first], l->v[dup]))
            first++;
        return em_data_fail(err, "%s:%lu: value '%s' appears twice (first on line %lu): the "
                                 "aggregate holds one line per value", l->name, l->line[dup],
                            l->v[dup], l->line[first]);
    }
    if (st != EM_OK)
        return st;
    /* a value counted 0 times is not in the data: the row-level path never sees it */
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->count[i]) {
            l->v[k] = l->v[i];
            l->line[k] = l->line[i];
            l->count[k++] = l->count[i];
        }
    l->n = k;
    l->rows = rows;
    return EM_OK;
}

int em_data_read(em_rows *d, const char *path, const char *column, int aggregated,
                 em_error *err)
{
    int st = em_rows_read(d, path, "--data", err);
    if (st == EM_OK && column)
        st = lines_column(d, column, NULL, NULL, err);
    else if (st == EM_OK && aggregated)
        st = lines_aggregated(d, err);
    return st;
}

int em_data_read_grouped(em_rows *d, const char *path, const char *column,
                         const char *group_by, char ***group, em_error *err)
{
    *group = NULL;
    int st = em_rows_read(d, path, "--data", err);
    if (st == EM_OK && !(*group = malloc((d->n ? d->n : 1) * sizeof **group)))
        st = em_data_nomem(err);
    if (st == EM_OK)
        st = lines_column(d, column, group_by, *group, err);
    return st;
}

/* ------------------------------------------------------------ candidates */

void em_cands_free(em_cands *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->label[i]);
        if (c->q)
            mpq_clear(c->q[i]);
    }
    free(c->label);
    free(c->q);
    memset(c, 0, sizeof *c);
}

/* "a:b" or "a:b:step" with exact numbers: 1 and the three values, else 0. */
static int is_range(const char *s, mpq_t a, mpq_t b, mpq_t step)
{
    const char *c1 = strchr(s, ':');
    if (!c1)
        return 0;
    const char *c2 = strchr(c1 + 1, ':');
    if (c2 && strchr(c2 + 1, ':'))
        return 0;
    int kind;
    if (em_q_parse(s, (size_t)(c1 - s), 0, a, &kind, NULL) != EM_OK)
        return 0;
    const char *e = c2 ? c2 : c1 + strlen(c1);
    if (em_q_parse(c1 + 1, (size_t)(e - c1 - 1), 0, b, &kind, NULL) != EM_OK)
        return 0;
    if (c2) {
        if (em_q_parse_str(c2 + 1, 0, step, &kind, NULL) != EM_OK)
            return 0;
    } else {
        mpq_set_ui(step, 1, 1);
    }
    return 1;
}

int em_cands_alloc(em_cands *c, size_t n, int numeric, em_error *err)
{
    c->label = calloc(n ? n : 1, sizeof *c->label);
    c->numeric = numeric;
    if (!c->label)
        return em_data_nomem(err);
    if (numeric) {
        c->q = malloc((n ? n : 1) * sizeof *c->q);
        if (!c->q)
            return em_data_nomem(err);
        for (size_t i = 0; i < n; i++)
            mpq_init(c->q[i]);
    }
    c->n = n;
    return EM_OK;
}

static int cands_range(em_cands *c, const char *spec, mpq_t a, mpq_t b, mpq_t step, em_error *err)
{
    if (mpq_sgn(step) <= 0)
        return em_data_fail(err, "--candidates %s: the step must be > 0", spec);
    if (mpq_cmp(a, b) > 0)
        return em_data_fail(err, "--candidates %s: the range is empty (%s > %s)", spec, "a", "b");
    /* count = floor((b - a) / step) + 1 */
    mpq_t t;
    mpq_init(t);
    mpq_sub(t, b, a);
    mpq_div(t, t, step);
    mpz_t cnt;
    mpz_init(cnt);
    mpz_fdiv_q(cnt, mpq_numref(t), mpq_denref(t));
    mpz_add_ui(cnt, cnt, 1);
    int big = mpz_cmp_ui(cnt, (unsigned long)EM_N_MAX) > 0;
    size_t n = big ? 0 : (size_t)mpz_get_ui(cnt);
    mpz_clear(cnt);
    int st = big ? em_data_fail(err, "--candidates %s: more than %zu candidates", spec,
                                (size_t)EM_N_MAX)
                 : em_cands_alloc(c, n, 1, err);
    mpq_set(t, a);
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        mpq_set(c->q[i], t);
        c->label[i] = em_q_to_string(t, 60);
        if (!c->label[i])
            st = em_data_nomem(err);
        mpq_add(t, t, step);
    }
    mpq_clear(t);
    return st;
}

static int cands_file(em_cands *c, const char *spec, int numeric, em_error *err)
{
    em_rows l;
    int st = em_rows_read(&l, spec, "--candidates", err);
    if (st == EM_OK && l.n == 0)
        st = em_data_fail(err, "--candidates %s: no candidates in the file", l.name);
    if (st == EM_OK && l.n > EM_N_MAX)
        st = em_data_fail(err, "--candidates %s: more than %zu candidates", l.name,
                          (size_t)EM_N_MAX);
    if (st == EM_OK)
        st = em_cands_alloc(c, l.n, numeric, err);
    for (size_t i = 0; i < l.n && st == EM_OK; i++) {
        if (numeric) {
            const char *msg = NULL;
            int kind;
            if (em_q_parse_str(l.v[i], 0, c->q[i], &kind, &msg) != EM_OK) {
                st = em_data_fail(err, "%s:%lu: candidate '%s' is not an exact number (%s)",
                                  l.name, l.line[i], l.v[i], msg ? msg : "malformed");
                break;
            }
        }
        c->label[i] = strdup(l.v[i]);
        if (!c->label[i])
            st = em_data_nomem(err);
    }
    em_rows_free(&l);
    return st;
}

int em_cands_load(em_cands *c, const char *spec, int numeric, em_error *err)
{
    memset(c, 0, sizeof *c);
    mpq_t a, b, step;
    mpq_inits(a, b, step, NULL);
    int st = is_range(spec, a, b, step) ? cands_range(c, spec, a, b, step, err)
                                        : cands_file(c, spec, numeric, err);
    mpq_clears(a, b, step, NULL);
    return st;
}

/* ------------------------------------------------------------ string map */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

long em_strmap_find(const em_strmap *m, const char *s)
{
    for (size_t h = (size_t)hash_str(s) & (m->cap - 1);; h = (h + 1) & (m->cap - 1)) {
        if (!m->slot[h])
            return -1;
        if (!strcmp(m->key[m->slot[h] - 1], s))
            return (long)(m->slot[h] - 1);
    }
}

void em_strmap_add(em_strmap *m, size_t i)
{
    size_t h = (size_t)hash_str(m->key[i]) & (m->cap - 1);
    while (m->slot[h])
        h = (h + 1) & (m->cap - 1);
    m->slot[h] = i + 1;
}

int em_strmap_alloc(em_strmap *m, char **keys, size_t n, em_error *err)
{
    m->cap = 16;
    while (m->cap < 2 * n + 2)
        m->cap *= 2;
    m->slot = calloc(m->cap, sizeof *m->slot);
    m->key = keys;
    return m->slot ? EM_OK : em_data_nomem(err);
}

int em_strmap_init(em_strmap *m, char **keys, size_t n, size_t *dup, em_error *err)
{
    int st = em_strmap_alloc(m, keys, n, err);
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        if (em_strmap_find(m, keys[i]) >= 0) {
            *dup = i;
            return EM_ERR_PARSE;
        }
        em_strmap_add(m, i);
    }
    return st;
}

void em_strmap_free(em_strmap *m)
{
    free(m->slot);
    m->slot = NULL;
}
