/* scenario.c: the scenario file parser (format: scenario.h). */
#include "cli/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "oracle/em_rational.h"

void em_scenario_init(em_scenario *s)
{
    memset(s, 0, sizeof *s);
    mpq_init(s->sensitivity);
    em_pieces_init(&s->pieces);
}

void em_scenario_free(em_scenario *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->labels[i]);
        mpq_clear(s->u[i]);
        if (s->measure)
            mpq_clear(s->measure[i]);
    }
    free(s->measure);
    em_pieces_free(&s->pieces);
    free(s->labels);
    free(s->u);
    free(s->excluded);
    free(s->ud);
    free(s->line);
    free(s->hash);
    free(s->name);
    mpq_clear(s->sensitivity);
    /* zeroed, not re-initialised (that leaked): a second free is harmless (GMP frees
     * nothing of a zero-allocation mpq), a reuse needs em_scenario_init */
    memset(s, 0, sizeof *s);
}

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

long em_scenario_find(const em_scenario *s, const char *label, size_t len)
{
    if (!s->hash || s->hcap == 0)
        return -1;
    size_t mask = s->hcap - 1;
    for (size_t h = (size_t)hash_bytes(label, len) & mask;; h = (h + 1) & mask) {
        size_t v = s->hash[h];
        if (v == 0)
            return -1;
        const char *l = s->labels[v - 1];
        if (strlen(l) == len && memcmp(l, label, len) == 0)
            return (long)(v - 1);
    }
}

static int rehash(em_scenario *s, size_t cap)
{
    size_t *h = calloc(cap, sizeof *h);
    if (!h)
        return EM_ERR_NOMEM;
    free(s->hash);
    s->hash = h;
    s->hcap = cap;
    for (size_t i = 0; i < s->n; i++) {
        size_t k = (size_t)hash_bytes(s->labels[i], strlen(s->labels[i])) & (cap - 1);
        while (h[k])
            k = (k + 1) & (cap - 1);
        h[k] = i + 1;
    }
    return EM_OK;
}

static int grow(em_scenario *s)
{
    size_t nc = s->cap ? s->cap * 2 : 64;
    char **l = realloc(s->labels, nc * sizeof *l);
    if (!l) return EM_ERR_NOMEM;
    s->labels = l;
    mpq_t *u = realloc(s->u, nc * sizeof *u);
    if (!u) return EM_ERR_NOMEM;
    s->u = u;
    unsigned char *x = realloc(s->excluded, nc);
    if (!x) return EM_ERR_NOMEM;
    s->excluded = x;
    double *d = realloc(s->ud, nc * sizeof *d);
    if (!d) return EM_ERR_NOMEM;
    s->ud = d;
    unsigned long *ln = realloc(s->line, nc * sizeof *ln);
    if (!ln) return EM_ERR_NOMEM;
    s->line = ln;
    if (s->has_measure) {
        mpq_t *m = realloc(s->measure, nc * sizeof *m);
        if (!m) return EM_ERR_NOMEM;
        s->measure = m;
    }
    s->cap = nc;
    return rehash(s, nc * 2);
}

/* Printable, truncated rendering of user text for messages. */
static void quote_for_msg(char *out, size_t outlen, const char *p, size_t n)
{
    size_t o = 0;
    const size_t lim = 40;
    for (size_t i = 0; i < n && o + 6 < outlen; i++) {
        if (i == lim) {
            o += (size_t)snprintf(out + o, outlen - o, "...");
            break;
        }
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o < outlen ? o : outlen - 1] = 0;
}

static int perr(char *err, size_t errlen, const char *name, unsigned long line, const char *fmt, ...)
{
    if (err && errlen) {
        int k = line ? snprintf(err, errlen, "%s:%lu: ", name, line) : snprintf(err, errlen, "%s: ", name);
        if (k < 0)
            k = 0;
        if ((size_t)k < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return EM_ERR_PARSE;
}

/* Length of the valid UTF-8 prefix check: returns the offset of the first invalid byte, or n. */
static size_t utf8_bad(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c < 0x80) { i++; continue; }
        size_t k;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) { k = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { k = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { k = 3; cp = c & 0x07; }
        else return i;
        if (i + k >= n)
            return i; /* truncated sequence */
        for (size_t j = 1; j <= k; j++) {
            if ((p[i + j] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + j] & 0x3F);
        }
        if ((k == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return i;
        i += k + 1;
    }
    return n;
}

static int is_ws(int c)
{
    return c == ' ' || c == '\t';
}

static void trim(const char **p, size_t *n)
{
    while (*n && is_ws((unsigned char)**p)) { (*p)++; (*n)--; }
    while (*n && is_ws((unsigned char)(*p)[*n - 1])) (*n)--;
}

static int ieq_prefix(const char *p, size_t n, const char *word)
{
    size_t wl = strlen(word);
    if (n < wl)
        return 0;
    for (size_t i = 0; i < wl; i++)
        if (tolower((unsigned char)p[i]) != word[i])
            return 0;
    return 1;
}

static int ieq(const char *p, size_t n, const char *word)
{
    return strlen(word) == n && ieq_prefix(p, n, word);
}

static int header(em_scenario *s, const char *p, size_t n, unsigned long ln, char *err, size_t errlen)
{
    /* p: the comment text after '#', trimmed */
    char q[128];
    if (ieq_prefix(p, n, "sensitivity:")) {
        const char *v = p + 12;
        size_t vn = n - 12;
        trim(&v, &vn);
        if (s->has_sensitivity)
            return perr(err, errlen, s->name, ln, "repeated '# sensitivity:' header");
        int kind;
        const char *msg;
        if (em_q_parse(v, vn, 0, s->sensitivity, &kind, &msg) != EM_OK) {
            quote_for_msg(q, sizeof q, v, vn);
            return perr(err, errlen, s->name, ln, "bad sensitivity '%s': %s", q, msg ? msg : "malformed");
        }
        if (mpq_sgn(s->sensitivity) <= 0)
            return perr(err, errlen, s->name, ln, "the sensitivity must be > 0");
        s->has_sensitivity = 1;
        return EM_OK;
    }
    if (ieq_prefix(p, n, "monotone:")) {
        const char *v = p + 9;
        size_t vn = n - 9;
        trim(&v, &vn);
        if (s->has_monotone)
            return perr(err, errlen, s->name, ln, "repeated '# monotone:' header");
        if (ieq(v, vn, "yes") || ieq(v, vn, "true") || ieq(v, vn, "1"))
            s->monotone = 1;
        else if (ieq(v, vn, "no") || ieq(v, vn, "false") || ieq(v, vn, "0"))
            s->monotone = 0;
        else {
            quote_for_msg(q, sizeof q, v, vn);
            return perr(err, errlen, s->name, ln, "bad '# monotone:' value '%s' (expected yes or no)", q);
        }
        s->has_monotone = 1;
        return EM_OK;
    }
    if (ieq_prefix(p, n, "measure:") || ieq_prefix(p, n, "output:")) {
        int is_measure = ieq_prefix(p, n, "measure:");
        const char *v = p + (is_measure ? 8 : 7);
        size_t vn = n - (is_measure ? 8 : 7);
        trim(&v, &vn);
        if (s->n > 0 || s->pieces.n > 0)
            return perr(err, errlen, s->name, ln, "the '# %s' header must come before the first data line",
                        is_measure ? "measure:" : "output:");
        if (is_measure) {
            if (s->has_measure)
                return perr(err, errlen, s->name, ln, "repeated '# measure:' header");
            if (ieq(v, vn, "yes") || ieq(v, vn, "true") || ieq(v, vn, "1"))
                s->has_measure = 1;
            else if (!(ieq(v, vn, "no") || ieq(v, vn, "false") || ieq(v, vn, "0"))) {
                quote_for_msg(q, sizeof q, v, vn);
                return perr(err, errlen, s->name, ln, "bad '# measure:' value '%s' (expected yes or no)", q);
            }
        } else {
            if (ieq(v, vn, "continuous"))
                s->continuous = 1;
            else if (!ieq(v, vn, "finite")) {
                quote_for_msg(q, sizeof q, v, vn);
                return perr(err, errlen, s->name, ln,
                            "bad '# output:' value '%s' (expected continuous or finite)", q);
            }
        }
        if (s->has_measure && s->continuous)
            return perr(err, errlen, s->name, ln,
                        "'# measure:' is for finite scenarios (a continuous one is weighted by length)");
        return EM_OK;
    }
    return EM_OK; /* any other comment */
}

/* 'inf', '+inf', 'infinity', '+infinity' (any case) */
static int is_pos_inf(const char *p, size_t n)
{
    if (n > 0 && p[0] == '+')
        p++, n--;
    return ieq(p, n, "inf") || ieq(p, n, "infinity");
}

/* One piece `lo,hi,a[,b]` of a continuous scenario. */
static int piece_line(em_scenario *s, const char *p, size_t n, unsigned long ln, char *err, size_t errlen)
{
    static const char *const names[4] = {"lo", "hi", "a", "b"};
    const char *f[5];
    size_t fn[5];
    int nf = 0;
    const char *start = p;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || p[i] == ',') {
            if (nf == 4)
                return perr(err, errlen, s->name, ln,
                            "a piece has at most 4 fields 'lo,hi,a,b' (found more)");
            f[nf] = start;
            fn[nf] = (size_t)(p + i - start);
            trim(&f[nf], &fn[nf]);
            nf++;
            start = p + i + 1;
        }
    }
    if (nf < 3)
        return perr(err, errlen, s->name, ln, "expected a piece 'lo,hi,a[,b]' (u = a + b r on [lo, hi]), found %d field%s",
                    nf, nf == 1 ? "" : "s");
    mpq_t v[4];
    for (int k = 0; k < 4; k++)
        mpq_init(v[k]);
    int lo_inf = 0, hi_inf = 0, st = EM_OK;
    char q[128];
    for (int k = 0; k < nf && st == EM_OK; k++) {
        int kind = EM_Q_FINITE;
        const char *msg = NULL;
        if (fn[k] == 0) {
            st = perr(err, errlen, s->name, ln, "empty field '%s'", names[k]);
            break;
        }
        if (k == 1 && is_pos_inf(f[k], fn[k])) {
            hi_inf = 1;
            continue;
        }
        if (em_q_parse(f[k], fn[k], k == 0, v[k], &kind, &msg) != EM_OK) {
            quote_for_msg(q, sizeof q, f[k], fn[k]);
            if (k != 1 && is_pos_inf(f[k], fn[k]))
                msg = k == 0 ? "lo may be -inf (first piece), never +inf" : "a utility coefficient must be finite";
            st = perr(err, errlen, s->name, ln, "bad %s '%s': %s", names[k], q, msg ? msg : "malformed");
            break;
        }
        if (kind == EM_Q_NEG_INF)
            lo_inf = 1;
    }
    if (st == EM_OK && lo_inf && s->pieces.n > 0)
        st = perr(err, errlen, s->name, ln, "lo = -inf is allowed only on the first piece");
    if (st == EM_OK && s->pieces.hi_inf)
        st = perr(err, errlen, s->name, ln, "a piece after one that reaches +inf");
    if (st == EM_OK) {
        st = em_pieces_push(&s->pieces, v[0], v[1], v[2], v[3], ln);
        if (st == EM_ERR_TOO_MANY)
            perr(err, errlen, s->name, ln, "more than %zu pieces", (size_t)EM_CONT_MAX_PIECES);
        if (st == EM_OK) {
            if (lo_inf)
                s->pieces.lo_inf = 1;
            if (hi_inf)
                s->pieces.hi_inf = 1;
        }
    }
    for (int k = 0; k < 4; k++)
        mpq_clear(v[k]);
    return st;
}

/* Unquote a CSV-quoted label into a new string; NULL on malformed quoting. */
static char *unquote(const char *p, size_t n, const char **why)
{
    if (n < 2 || p[n - 1] != '"') {
        *why = "unterminated quoted label";
        return NULL;
    }
    char *out = malloc(n);
    if (!out) {
        *why = "out of memory";
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (p[i] == '"') {
            if (i + 2 < n && p[i + 1] == '"') {
                out[o++] = '"';
                i++;
            } else {
                free(out);
                *why = "a quote inside a quoted label must be doubled (\"\")";
                return NULL;
            }
        } else {
            out[o++] = p[i];
        }
    }
    out[o] = 0;
    return out;
}

static int data_line(em_scenario *s, const char *p, size_t n, unsigned long ln, char *err, size_t errlen)
{
    char q[128];
    if (s->continuous)
        return piece_line(s, p, n, ln, err, errlen);
    const char *mval = NULL;
    size_t mvaln = 0;
    if (s->has_measure) {
        const char *c = NULL;
        for (size_t i = n; i-- > 0;)
            if (p[i] == ',') {
                c = p + i;
                break;
            }
        if (!c) {
            quote_for_msg(q, sizeof q, p, n);
            return perr(err, errlen, s->name, ln, "expected 'label,utility,measure', found '%s'", q);
        }
        mval = c + 1;
        mvaln = n - (size_t)(c - p) - 1;
        trim(&mval, &mvaln);
        n = (size_t)(c - p);
        if (mvaln == 0)
            return perr(err, errlen, s->name, ln, "missing measure after the last comma");
    }
    const char *comma = NULL;
    for (size_t i = n; i-- > 0;)
        if (p[i] == ',') {
            comma = p + i;
            break;
        }
    if (!comma) {
        quote_for_msg(q, sizeof q, p, n);
        return perr(err, errlen, s->name, ln, "expected 'label,utility', found '%s' (no comma)", q);
    }
    const char *lab = p, *val = comma + 1;
    size_t labn = (size_t)(comma - p), valn = n - labn - 1;
    trim(&lab, &labn);
    trim(&val, &valn);
    if (labn == 0)
        return perr(err, errlen, s->name, ln, "empty label");
    if (valn == 0)
        return perr(err, errlen, s->name, ln, "missing utility after the comma");
    char *label;
    if (lab[0] == '"') {
        const char *why = NULL;
        label = unquote(lab, labn, &why);
        if (!label)
            return perr(err, errlen, s->name, ln, "%s", why);
        if (!label[0]) {
            free(label);
            return perr(err, errlen, s->name, ln, "empty label");
        }
    } else {
        if (memchr(lab, '"', labn)) {
            quote_for_msg(q, sizeof q, lab, labn);
            return perr(err, errlen, s->name, ln, "a label with a quote must be quoted as a CSV field: '%s'", q);
        }
        label = malloc(labn + 1);
        if (!label)
            return EM_ERR_NOMEM;
        memcpy(label, lab, labn);
        label[labn] = 0;
    }
    long dup = em_scenario_find(s, label, strlen(label));
    if (dup >= 0) {
        quote_for_msg(q, sizeof q, label, strlen(label));
        free(label);
        return perr(err, errlen, s->name, ln, "duplicate label '%s' (first on line %lu)", q, s->line[dup]);
    }
    if (s->n >= EM_N_MAX) {
        free(label);
        perr(err, errlen, s->name, ln, "more than %zu candidates", (size_t)EM_N_MAX);
        return EM_ERR_TOO_MANY;
    }
    if (s->n == s->cap && grow(s) != EM_OK) {
        free(label);
        return EM_ERR_NOMEM;
    }
    size_t i = s->n;
    mpq_init(s->u[i]);
    int kind;
    const char *msg;
    if (em_q_parse(val, valn, 1, s->u[i], &kind, &msg) != EM_OK) {
        mpq_clear(s->u[i]);
        free(label);
        quote_for_msg(q, sizeof q, val, valn);
        return perr(err, errlen, s->name, ln, "bad utility '%s': %s", q, msg ? msg : "malformed");
    }
    if (s->has_measure) {
        mpq_init(s->measure[i]);
        int mk;
        if (em_q_parse(mval, mvaln, 0, s->measure[i], &mk, &msg) != EM_OK || mpq_sgn(s->measure[i]) < 0) {
            int neg = mpq_sgn(s->measure[i]) < 0;
            mpq_clear(s->measure[i]);
            mpq_clear(s->u[i]);
            free(label);
            quote_for_msg(q, sizeof q, mval, mvaln);
            return perr(err, errlen, s->name, ln, "bad measure '%s': %s", q,
                        neg ? "a measure must be >= 0" : (msg ? msg : "malformed"));
        }
    }
    s->labels[i] = label;
    s->excluded[i] = kind == EM_Q_NEG_INF;
    s->ud[i] = s->excluded[i] ? -HUGE_VAL : em_q_get_d(s->u[i], NULL);
    s->line[i] = ln;
    s->n++;
    size_t mask = s->hcap - 1;
    size_t k = (size_t)hash_bytes(label, strlen(label)) & mask;
    while (s->hash[k])
        k = (k + 1) & mask;
    s->hash[k] = i + 1;
    return EM_OK;
}

int em_scenario_parse(em_scenario *s, const char *buf, size_t len, const char *name,
                      char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    free(s->name);
    s->name = strdup(name ? name : "<input>");
    if (!s->name)
        return EM_ERR_NOMEM;
    size_t pos = 0;
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF)
        pos = 3;
    unsigned long ln = 0;
    while (pos < len) {
        ln++;
        const char *p = buf + pos;
        const char *nl = memchr(p, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - p) : len - pos;
        pos += n + (nl ? 1 : 0);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n > EM_SCENARIO_MAX_LINE)
            return perr(err, errlen, s->name, ln, "line too long (%zu bytes; the limit is %d)", n,
                        EM_SCENARIO_MAX_LINE);
        if (memchr(p, 0, n))
            return perr(err, errlen, s->name, ln, "NUL byte in the line");
        if (memchr(p, '\r', n))
            return perr(err, errlen, s->name, ln, "carriage return inside the line");
        if (memmem(p, n, "\xEF\xBB\xBF", 3))
            return perr(err, errlen, s->name, ln, "byte-order mark inside the file (allowed only at its start)");
        size_t bad = utf8_bad((const unsigned char *)p, n);
        if (bad != n)
            return perr(err, errlen, s->name, ln, "invalid UTF-8 at byte %zu", bad + 1);
        trim(&p, &n);
        if (n == 0)
            continue;
        int st;
        if (p[0] == '#') {
            const char *c = p + 1;
            size_t cn = n - 1;
            trim(&c, &cn);
            st = header(s, c, cn, ln, err, errlen);
        } else {
            st = data_line(s, p, n, ln, err, errlen);
        }
        if (st != EM_OK) {
            if (st == EM_ERR_NOMEM)
                perr(err, errlen, s->name, ln, "out of memory");
            return st;
        }
    }
    if (s->continuous) {
        if (s->pieces.n == 0)
            return perr(err, errlen, s->name, 0, "no pieces (expected lines 'lo,hi,a[,b]')");
        s->pieces.has_sensitivity = s->has_sensitivity;
        mpq_set(s->pieces.sensitivity, s->sensitivity);
        s->pieces.has_monotone = s->has_monotone;
        s->pieces.monotone = s->monotone;
        free(s->pieces.name);
        s->pieces.name = strdup(s->name);
        return s->pieces.name ? EM_OK : EM_ERR_NOMEM;
    }
    if (s->n == 0)
        return perr(err, errlen, s->name, 0, "no candidates (expected lines 'label,utility')");
    return EM_OK;
}

int em_read_all(FILE *f, size_t max, char **buf, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    if (!b)
        return EM_ERR_NOMEM;
    for (;;) {
        if (n == cap) {
            if (cap >= max) {
                free(b);
                return EM_ERR_PARSE;
            }
            cap *= 2;
            char *nb = realloc(b, cap + 1);
            if (!nb) {
                free(b);
                return EM_ERR_NOMEM;
            }
            b = nb;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0) {
            if (ferror(f)) {
                free(b);
                return EM_ERR_PARSE;
            }
            break;
        }
    }
    if (n > max) {
        free(b);
        return EM_ERR_PARSE;
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return EM_OK;
}

#define EM_SCENARIO_MAX_BYTES ((size_t)4 << 30)

int em_scenario_load(em_scenario *s, const char *path, char *err, size_t errlen)
{
    int use_stdin = !path || !strcmp(path, "-");
    const char *name = use_stdin ? "<stdin>" : path;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", name, strerror(errno));
        return EM_ERR_PARSE;
    }
    char *buf;
    size_t len;
    int st = em_read_all(f, EM_SCENARIO_MAX_BYTES, &buf, &len);
    if (!use_stdin)
        fclose(f);
    if (st != EM_OK) {
        snprintf(err, errlen, "%s: %s", name, st == EM_ERR_NOMEM ? "out of memory" : "read error or file too large");
        return st;
    }
    st = em_scenario_parse(s, buf, len, name, err, errlen);
    free(buf);
    return st;
}

void em_csv_label(FILE *f, const char *label)
{
    size_t n = strlen(label);
    int q = n == 0 || label[0] == '#' || is_ws((unsigned char)label[0]) ||
            is_ws((unsigned char)label[n - 1]) || strpbrk(label, ",\"") != NULL;
    if (!q) {
        fputs(label, f);
        return;
    }
    fputc('"', f);
    for (const char *p = label; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}
