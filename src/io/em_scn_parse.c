/* em_scn_parse.c: the scenario file parser and loader (format: em_scn_text.h). */
#include "io/em_scn_text.h"
#include "io/em_scn_text_priv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "em_base.h"
#include "base/em_error.h"
#include "base/em_mem.h"
#include "io/em_text.h"
#include "num/em_rational.h"

void em_scn_init(em_scn *s)
{
    memset(s, 0, sizeof *s);
    mpq_init(s->sensitivity);
    mpq_init(s->scratch);
    em_pieces_init(&s->pieces);
}

void em_scn_clear(em_scn *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        if (s->u)
            mpq_clear(s->u[i]);
        if (s->measure)
            mpq_clear(s->measure[i]);
    }
    for (size_t k = 0; k < s->narena; k++)
        free(s->arena[k]);
    em_pieces_free(&s->pieces);
    EM_FREE_ALL(s->arena, s->ql, s->lrun, s->uv, s->ucode, s->measure, s->labels, s->u,
                s->excluded, s->ud, s->line, s->hash, s->keys, s->name);
    mpq_clear(s->sensitivity);
    mpq_clear(s->scratch);
    /* zeroed, not re-initialised: a second free is harmless (GMP frees
     * nothing of a zero-allocation mpq), a reuse needs em_scn_init */
    memset(s, 0, sizeof *s);
}

/* An estimate of the candidates in a text of total bytes whose first n bytes are p: its
 * line density, 10% more. */
static size_t estimate_lines(const char *p, size_t n, size_t total)
{
    size_t lines = 0;
    for (const char *q = p, *end = p + n; (q = memchr(q, '\n', (size_t)(end - q))); q++)
        lines++;
    if (n == 0 || lines == 0)
        return 0;
    double est = (double)total / (double)n * (double)lines * 1.1 + 1;
    return est < (double)EM_N_MAX ? (size_t)est : EM_N_MAX;
}

static int is_ws(int c)
{
    return c == ' ' || c == '\t';
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

/* the first data line is not 'label,utility': raw data (a header line, a value per line)
 * is read by `expmech score`, which writes the scenario */
#define RAW_HINT "; raw data? `expmech score` makes a scenario from it"

/* Levenshtein distance of a[0..an) (lowercased) and the word w, capped at 3 */
static int edit3(const char *a, size_t an, const char *w)
{
    size_t wn = strlen(w);
    if (an > wn + 3 || wn > an + 3 || an > 32)
        return 3;
    int d[33][33];
    for (size_t i = 0; i <= an; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= wn; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= an; i++)
        for (size_t j = 1; j <= wn; j++) {
            int c = tolower((unsigned char)a[i - 1]) != w[j - 1];
            int v = d[i - 1][j - 1] + c;
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            d[i][j] = v;
        }
    return d[an][wn] < 3 ? d[an][wn] : 3;
}

/* A comment that names a header key, misspelt or with another separator ('# sensitivity
 * = 1000', '# sensitivty: 2', '# Monotone yes') would silently leave the default (and the
 * privacy it declared) in place: an error.  The key must open the comment and be followed
 * by a separator or a value, so that prose ('# neighbours: ...; sensitivity proven in')
 * stays a comment. */
static int near_header(em_scn *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    static const char *const keys[] = {"sensitivity", "monotone", "measure", "output"};
    size_t w = 0;
    while (w < n && (isalpha((unsigned char)p[w]) || p[w] == '_' || p[w] == '-'))
        w++;
    if (w == 0)
        return EM_OK;
    const char *r = p + w;
    size_t rn = n - w;
    em_text_trim(&r, &rn);
    int sep = rn > 0 && strchr(":=", r[0]) != NULL;
    if (sep) {
        r++, rn--;
        if (rn && r[0] == '=')
            r++, rn--;
        em_text_trim(&r, &rn);
    }
    static const char *const words[] = {"yes", "no", "true", "false", "continuous", "finite"};
    int value = rn > 0 && (isdigit((unsigned char)r[0]) || strchr("+-.", r[0]) != NULL);
    for (size_t k = 0; !value && k < sizeof words / sizeof words[0]; k++)
        value = ieq(r, rn, words[k]);
    if (!sep && !value && rn > 0)
        return EM_OK; /* prose: the word is the start of a sentence */
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        int d = edit3(p, w, keys[k]);
        if (d <= (strlen(keys[k]) >= 7 ? 2 : 1)) {
            char q[128];
            em_text_show(q, sizeof q, p, n);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                             "the comment '# %s' looks like the header '# %s: ...' but is not one "
                             "(the header is the key, a colon, the value: '# %s: %s'); write it so, or "
                             "reword the comment", q, keys[k], keys[k],
                             k == 0 ? "D" : k == 3 ? "continuous" : "yes");
        }
    }
    return EM_OK;
}

/* When the comment p is the header key (a word and its colon): 1, and *v, *vn its value,
 * trimmed */
static int header_value(const char *p, size_t n, const char *key, const char **v, size_t *vn)
{
    if (!ieq_prefix(p, n, key))
        return 0;
    size_t k = strlen(key);
    *v = p + k;
    *vn = n - k;
    em_text_trim(v, vn);
    return 1;
}

/* The value of the yes-or-no header key: *yes 1 (yes, true, 1) or 0 (no, false, 0) */
static int yes_no(const em_scn *s, const char *key, const char *v, size_t vn, unsigned long ln,
                  int *yes, em_error *err)
{
    if (ieq(v, vn, "yes") || ieq(v, vn, "true") || ieq(v, vn, "1")) {
        *yes = 1;
    } else if (ieq(v, vn, "no") || ieq(v, vn, "false") || ieq(v, vn, "0")) {
        *yes = 0;
    } else {
        char q[128];
        em_text_show(q, sizeof q, v, vn);
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad '# %s' value '%s' (expected yes or no)",
                         key, q);
    }
    return EM_OK;
}

static int header(em_scn *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    /* p: the comment text after '#', trimmed */
    char q[128];
    const char *v;
    size_t vn;
    if (header_value(p, n, "sensitivity:", &v, &vn)) {
        if (s->has_sensitivity)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "repeated '# sensitivity:' header");
        int kind;
        const char *msg;
        if (em_q_parse(v, vn, 0, s->sensitivity, &kind, &msg) != EM_OK) {
            em_text_show(q, sizeof q, v, vn);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad sensitivity '%s': %s", q, msg ? msg : "malformed");
        }
        if (mpq_sgn(s->sensitivity) <= 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "the sensitivity must be > 0");
        s->has_sensitivity = 1;
        return EM_OK;
    }
    if (header_value(p, n, "monotone:", &v, &vn)) {
        if (s->has_monotone)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "repeated '# monotone:' header");
        int st = yes_no(s, "monotone:", v, vn, ln, &s->monotone, err);
        if (st != EM_OK)
            return st;
        s->has_monotone = 1;
        return EM_OK;
    }
    int is_measure = header_value(p, n, "measure:", &v, &vn);
    if (is_measure || header_value(p, n, "output:", &v, &vn)) {
        if (s->n > 0 || s->pieces.n > 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "the '# %s' header must come before the first data line",
                        is_measure ? "measure:" : "output:");
        if (is_measure) {
            if (s->has_measure)
                return em_err_at(err, EM_ERR_PARSE, s->name, ln, "repeated '# measure:' header");
            int yes, st = yes_no(s, "measure:", v, vn, ln, &yes, err);
            if (st != EM_OK)
                return st;
            if (yes) {
                s->has_measure = 1;
                s->compact = 0; /* weighted laws take every utility as an mpq */
            }
        } else {
            if (ieq(v, vn, "continuous"))
                s->continuous = 1;
            else if (!ieq(v, vn, "finite")) {
                em_text_show(q, sizeof q, v, vn);
                return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                            "bad '# output:' value '%s' (expected continuous or finite)", q);
            }
        }
        if (s->has_measure && s->continuous)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                        "'# measure:' is for finite scenarios (a continuous one is weighted by length)");
        return EM_OK;
    }
    return near_header(s, p, n, ln, err); /* any other comment, unless it names a key */
}

/* 'inf', '+inf', 'infinity', '+infinity' (any case) */
static int is_pos_inf(const char *p, size_t n)
{
    if (n > 0 && p[0] == '+')
        p++, n--;
    return ieq(p, n, "inf") || ieq(p, n, "infinity");
}

/* One piece `lo,hi,a[,b]` of a continuous scenario. */
static int piece_line(em_scn *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    static const char *const names[4] = {"lo", "hi", "a", "b"};
    const char *f[5];
    size_t fn[5];
    int nf = 0;
    const char *start = p;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || p[i] == ',') {
            if (nf == 4)
                return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                            "a piece has at most 4 fields 'lo,hi,a,b' (found more)");
            f[nf] = start;
            fn[nf] = (size_t)(p + i - start);
            em_text_trim(&f[nf], &fn[nf]);
            nf++;
            start = p + i + 1;
        }
    }
    if (nf < 3)
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected a piece 'lo,hi,a[,b]' (u = a + b r on [lo, hi]), found %d field%s",
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
            st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "empty field '%s'", names[k]);
            break;
        }
        if (k == 1 && is_pos_inf(f[k], fn[k])) {
            hi_inf = 1;
            continue;
        }
        if (em_q_parse(f[k], fn[k], k == 0, v[k], &kind, &msg) != EM_OK) {
            em_text_show(q, sizeof q, f[k], fn[k]);
            if (k != 1 && is_pos_inf(f[k], fn[k]))
                msg = k == 0 ? "lo may be -inf (first piece), never +inf" : "a utility coefficient must be finite";
            st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad %s '%s': %s", names[k], q, msg ? msg : "malformed");
            break;
        }
        if (kind == EM_Q_NEG_INF)
            lo_inf = 1;
    }
    if (st == EM_OK && lo_inf && s->pieces.n > 0)
        st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "lo = -inf is allowed only on the first piece");
    if (st == EM_OK && s->pieces.hi_inf)
        st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "a piece after one that reaches +inf");
    if (st == EM_OK) {
        st = em_pieces_push(&s->pieces, v[0], v[1], v[2], v[3], ln);
        if (st == EM_ERR_TOO_MANY)
            em_err_at(err, st, s->name, ln, "more than %zu pieces", (size_t)EM_PIECES_MAX);
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

static int data_line(em_scn *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    char q[128];
    if (s->continuous)
        return piece_line(s, p, n, ln, err);
    /* fields from the left: the label (a CSV field: quoted when it holds a comma, as the
     * output writes it), the utility, and the measure with '# measure: yes'; one field
     * more is an error, never folded into the label */
    const char *lab = p, *rest;
    size_t labn, restn;
    if (!n || !memchr(p, ',', n)) {
        em_text_show(q, sizeof q, p, n);
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected 'label,utility', found '%s' (no comma)%s",
                         q, s->n == 0 ? RAW_HINT : "");
    }
    if (p[0] == '"') {
        size_t i = 1;
        for (; i < n; i++)
            if (p[i] == '"') {
                if (i + 1 < n && p[i + 1] == '"')
                    i++;
                else
                    break;
            }
        if (i >= n)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "unterminated quoted label (no closing quote)");
        labn = i + 1;
        const char *c = p + labn;
        size_t cn = n - labn;
        while (cn && is_ws(*c))
            c++, cn--;
        if (cn && *c != ',') {
            em_text_show(q, sizeof q, c, cn);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                             "text '%s' after the closing quote of the label (a quoted label ends at its "
                             "quote; a quote inside it is doubled \"\")", q);
        }
        if (!cn) {
            em_text_show(q, sizeof q, p, n);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected 'label,utility', found '%s' (no comma)", q);
        }
        rest = c + 1;
        restn = cn - 1;
    } else {
        const char *comma = n ? memchr(p, ',', n) : NULL;
        if (!comma) {
            em_text_show(q, sizeof q, p, n);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected 'label,utility', found '%s' (no comma)", q);
        }
        labn = (size_t)(comma - p);
        rest = comma + 1;
        restn = n - labn - 1;
    }
    const char *val = rest, *mval = NULL;
    size_t valn = restn, mvaln = 0;
    const char *c2 = restn ? memchr(rest, ',', restn) : NULL;
    if (c2 && s->has_measure) {
        valn = (size_t)(c2 - rest);
        mval = c2 + 1;
        mvaln = restn - valn - 1;
        c2 = mvaln ? memchr(mval, ',', mvaln) : NULL;
    }
    if (c2) {
        size_t nf = 2 + (s->has_measure ? 1 : 0);
        for (const char *t = c2; t; t = memchr(t + 1, ',', (size_t)(p + n - t - 1)))
            nf++;
        em_text_show(q, sizeof q, p, n);
        return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                         "%zu fields in '%s' where %s has %d: a label with a comma must be quoted "
                         "(\"a,b\",1)%s%s", nf, q, s->has_measure ? "'label,utility,measure'" : "'label,utility'",
                         s->has_measure ? 3 : 2,
                         !s->has_measure && nf == 3 ? "; a third field is a measure: was '# measure: yes' meant?" : "",
                         !s->has_measure && (nf == 3 || nf == 4) && lab[0] != '"' ?
                             "; numbers 'lo,hi,a[,b]' are a piece: was '# output: continuous' meant?" : "");
    }
    if (s->has_measure) {
        if (!mval) {
            em_text_show(q, sizeof q, p, n);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected 'label,utility,measure', found '%s'", q);
        }
        em_text_trim(&mval, &mvaln);
        if (mvaln == 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "missing measure after the last comma");
    }
    em_text_trim(&lab, &labn);
    em_text_trim(&val, &valn);
    if (labn == 0)
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "empty label");
    if (valn == 0)
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "missing utility after the comma");
    /* the label goes straight into the arena; an error ends the parse, so a label
     * rejected below just leaves its bytes unused */
    char *label;
    size_t labl;
    if (lab[0] == '"') {
        const char *why = NULL;
        char *tmp = unquote(lab, labn, &why);
        if (!tmp)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "%s", why);
        if (!tmp[0]) {
            free(tmp);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "empty label");
        }
        labl = strlen(tmp);
        label = em_scn_arena_alloc(s, labl + 1);
        if (label)
            memcpy(label, tmp, labl + 1);
        free(tmp);
        if (!label)
            return EM_ERR_NOMEM;
    } else {
        if (memchr(lab, '"', labn)) {
            em_text_show(q, sizeof q, lab, labn);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "a label with a quote must be quoted as a CSV field: '%s'", q);
        }
        label = em_scn_arena_alloc(s, labn + 1);
        if (!label)
            return EM_ERR_NOMEM;
        memcpy(label, lab, labn);
        label[labn] = 0;
        labl = labn;
    }
    size_t lim = s->max_n ? s->max_n : EM_SCN_MAX_N;
    if (lim > EM_N_MAX)
        lim = EM_N_MAX;
    if (s->n == 0 && s->hint && em_scn_reserve(s, lim) != EM_OK)
        return EM_ERR_NOMEM;
    if (s->n > 0 && !s->keys && em_scn_keys_again(s) != EM_OK)
        return EM_ERR_NOMEM;
    uint64_t lh = em_scn_hash_bytes(label, labl);
    /* a duplicate of this label is found at the end (em_scn_index_build), and reported before
     * any error below, as it was found first */
    s->pend_label = label;
    s->pend_line = ln;
    s->pend_hash = lh;
    if (s->n >= lim) {
        return em_err_at(err, EM_ERR_TOO_MANY, s->name, ln,
                         "more than %zu candidates: the limit (it keeps memory below about 100 "
                         "bytes per candidate times the limit; EXPMECH_MAX_CANDIDATES sets "
                         "another, up to %zu)", lim, (size_t)EM_N_MAX);
    }
    if (s->n == s->cap && em_scn_grow(s) != EM_OK)
        return EM_ERR_NOMEM;
    size_t i = s->n;
    if (s->compact && !s->has_measure) {
        fast_val fv;
        if (em_scn_fast_utility(val, valn, &fv)) {
            int64_t fm = fv.neg ? -fv.m : fv.m;
            if (fv.kind == UK_Q && em_scn_q_put_u128(s, fv.neg, fv.a, fv.b, &fm) != EM_OK)
                return EM_ERR_NOMEM;
            if (em_scn_line_put(s, i, ln) != EM_OK)
                return EM_ERR_NOMEM;
            s->excluded[i] = 0;
            s->uv[i] = fm;
            s->ucode[i] = em_scn_ucode_make(fv.kind, fv.kind == UK_Q ? 0 : fv.e);
            s->labels[i] = label;
            s->keys[i] = (lh & ~KEY_IDX_MASK) | i;
            s->n++;
            s->pend_label = NULL;
            return EM_OK;
        }
    }
    mpq_ptr uq = s->compact ? s->scratch : s->u[i];
    if (!s->compact)
        mpq_init(uq);
    int kind;
    const char *msg;
    if (em_q_parse(val, valn, 1, uq, &kind, &msg) != EM_OK) {
        if (!s->compact)
            mpq_clear(uq);
        em_text_show(q, sizeof q, val, valn);
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad utility '%s': %s%s", q, msg ? msg : "malformed",
                         s->n == 0 ? RAW_HINT : "");
    }
    if (s->has_measure) {
        mpq_init(s->measure[i]);
        int mk;
        if (em_q_parse(mval, mvaln, 0, s->measure[i], &mk, &msg) != EM_OK || mpq_sgn(s->measure[i]) < 0) {
            int neg = mpq_sgn(s->measure[i]) < 0;
            mpq_clear(s->measure[i]);
            if (!s->compact)
                mpq_clear(uq);
            em_text_show(q, sizeof q, mval, mvaln);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad measure '%s': %s", q,
                        neg ? "a measure must be >= 0" : (msg ? msg : "malformed"));
        }
    }
    s->excluded[i] = kind == EM_Q_NEG_INF;
    if (s->compact) {
        int64_t m = 0;
        int uk = UK_EXCL;
        long e = 0;
        if (!s->excluded[i] && !em_scn_classify(uq, &m, &uk, &e)) {
            if (em_scn_q_put(s, uq, &m) != EM_OK)
                return EM_ERR_NOMEM;
            uk = UK_Q;
        }
        if (em_scn_line_put(s, i, ln) != EM_OK)
            return EM_ERR_NOMEM;
        s->uv[i] = m;
        s->ucode[i] = em_scn_ucode_make(uk, e);
    }
    s->labels[i] = label;
    if (!s->compact) {
        s->ud[i] = s->excluded[i] ? -HUGE_VAL : em_q_get_d(uq, NULL);
        s->line[i] = ln;
    }
    s->keys[i] = (lh & ~KEY_IDX_MASK) | i;
    s->n++;
    s->pend_label = NULL;
    return EM_OK;
}

/* One line (without its line end) of a file: the checks every line gets, then a header
 * or a data line. */
static int one_line(em_scn *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    int st = em_line_check(p, n, EM_SCN_MAX_LINE, EM_LINE_STRICT, s->name, ln, err);
    if (st != EM_OK)
        return st;
    em_text_trim(&p, &n);
    if (n == 0)
        return EM_OK;
    if (p[0] == '#') {
        const char *c = p + 1;
        size_t cn = n - 1;
        em_text_trim(&c, &cn);
        if ((s->n > 0 || s->pieces.n > 0) && memchr(c, ',', cn))
            /* a row after the data started: never dropped in silence */
            return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                             "a line starting with '#' among the data lines: a label starting "
                             "with '#' must be quoted (\"#1\",5); comments go before the first "
                             "data line");
        st = header(s, c, cn, ln, err);
    } else {
        st = data_line(s, p, n, ln, err);
    }
    if (st == EM_ERR_NOMEM)
        em_err_at(err, st, s->name, ln, "out of memory");
    return st;
}

static int parse_begin(em_scn *s, const char *name, em_error *err)
{
    em_err_ok(err);
    s->pend_label = NULL;
    free(s->name);
    s->name = strdup(name ? name : "<input>");
    return s->name ? EM_OK : EM_ERR_NOMEM;
}

/* "0" or an integer without a sign '+' or a leading zero: the one way GMP writes it */
static int plain_int(const char *l)
{
    const char *d = l[0] == '-' ? l + 1 : l;
    if (!*d || (d[0] == '0' && (d[1] || d != l)))
        return 0;
    for (; *d; d++)
        if (*d < '0' || *d > '9')
            return 0;
    return 1;
}

struct numkey {
    char *key;
    size_t i;
};

static int numkey_cmp(const void *a, const void *b)
{
    return strcmp(((const struct numkey *)a)->key, ((const struct numkey *)b)->key);
}

/* Numeric candidates compare as numbers: '2' and '2.0' (or '02', '0x2', '4/2') are one
 * candidate, named twice.  Only the labels not written in GMP's integer form are parsed:
 * each is looked up by its exact value among the labels, and among each other. */
static int numeric_dups(em_scn *s, em_error *err)
{
    struct numkey *k = NULL;
    size_t nk = 0, cap = 0;
    int st = EM_OK;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < s->n && st == EM_OK; i++) {
        const char *l = s->labels[i];
        int kind;
        if (!strchr("0123456789+-.", l[0]) || plain_int(l) ||
            em_q_parse_str(l, 0, q, &kind, NULL) != EM_OK || kind != EM_Q_FINITE)
            continue;
        char *key = mpq_get_str(NULL, 10, q);
        if (!key) {
            st = EM_ERR_NOMEM;
            break;
        }
        long j = em_scn_lookup(s, key, strlen(key));
        if (j >= 0 && (size_t)j != i) {
            char a[128], b[128];
            em_text_show(a, sizeof a, l, strlen(l));
            em_text_show(b, sizeof b, s->labels[j], strlen(s->labels[j]));
            st = em_err_at(err, EM_ERR_PARSE, s->name, em_scn_line(s, i),
                           "label '%s' is the number '%s' of line %lu: numeric candidates compare "
                           "as numbers (a duplicate)", a, b, em_scn_line(s, (size_t)j));
            free(key);
            break;
        }
        if (nk == cap) {
            cap = cap ? 2 * cap : 16;
            struct numkey *t = realloc(k, cap * sizeof *k);
            if (!t) {
                free(key);
                st = EM_ERR_NOMEM;
                break;
            }
            k = t;
        }
        k[nk].key = key;
        k[nk++].i = i;
    }
    if (st == EM_OK && nk > 1) {
        qsort(k, nk, sizeof *k, numkey_cmp);
        for (size_t a = 1; a < nk; a++)
            if (!strcmp(k[a - 1].key, k[a].key)) {
                size_t i1 = k[a - 1].i < k[a].i ? k[a - 1].i : k[a].i;
                size_t i2 = k[a - 1].i < k[a].i ? k[a].i : k[a - 1].i;
                char x[128], y[128];
                em_text_show(x, sizeof x, s->labels[i2], strlen(s->labels[i2]));
                em_text_show(y, sizeof y, s->labels[i1], strlen(s->labels[i1]));
                st = em_err_at(err, EM_ERR_PARSE, s->name, em_scn_line(s, i2),
                               "label '%s' is the number '%s' of line %lu: numeric candidates "
                               "compare as numbers (a duplicate)", x, y, em_scn_line(s, i1));
                break;
            }
    }
    for (size_t a = 0; a < nk; a++)
        free(k[a].key);
    free(k);
    mpq_clear(q);
    if (st == EM_ERR_NOMEM)
        em_err(err, st, "%s: out of memory", s->name);
    return st;
}

static int parse_end(em_scn *s, em_error *err)
{
    if (s->continuous) {
        if (s->pieces.n == 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, 0, "no pieces (expected lines 'lo,hi,a[,b]')");
        s->pieces.has_sensitivity = s->has_sensitivity;
        mpq_set(s->pieces.sensitivity, s->sensitivity);
        s->pieces.has_monotone = s->has_monotone;
        s->pieces.monotone = s->monotone;
        free(s->pieces.name);
        s->pieces.name = strdup(s->name);
        return s->pieces.name ? EM_OK : EM_ERR_NOMEM;
    }
    if (s->n == 0)
        return em_err_at(err, EM_ERR_PARSE, s->name, 0, "no candidates (expected lines 'label,utility')");
    return numeric_dups(s, err);
}

int em_scn_read(em_scn *s, const char *buf, size_t len, const char *name,
                      em_error *err)
{
    int st = parse_begin(s, name, err);
    if (st != EM_OK)
        return st;
    s->hint = estimate_lines(buf, len < LOAD_CHUNK ? len : LOAD_CHUNK, len);
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    const char *p;
    size_t n;
    while (em_line_next(&it, &p, &n)) {
        st = one_line(s, p, n, it.line, err);
        if (st != EM_OK)
            return em_scn_index_build(s, st, err);
    }
    st = em_scn_index_build(s, EM_OK, err);
    return st == EM_OK ? parse_end(s, err) : st;
}

#define EM_SCN_MAX_BYTES ((size_t)4 << 30)

/* EXPMECH_MAX_CANDIDATES: 1 on success (or unset), 0 when malformed. */
static int env_limit(size_t *out)
{
    const char *v = getenv("EXPMECH_MAX_CANDIDATES");
    if (!v)
        return 1;
    size_t x = 0;
    if (!*v)
        return 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9' || x > EM_N_MAX)
            return 0;
        x = x * 10 + (size_t)(*p - '0');
    }
    if (x < 1 || x > EM_N_MAX)
        return 0;
    *out = x;
    return 1;
}

/* Read and parse in chunks: the whole file in memory would be the largest single
 * allocation at 10^7 candidates (190 MB for 'c123,142.857143' lines). */
int em_scn_read_file(em_scn *s, const char *path, em_error *err)
{
    int use_stdin = !path || !strcmp(path, "-");
    const char *name = use_stdin ? "<stdin>" : path;
    if (!s->max_n && !env_limit(&s->max_n))
        return em_err(err, EM_ERR_PARSE, "EXPMECH_MAX_CANDIDATES: expected an integer from 1 "
                      "to %zu", (size_t)EM_N_MAX);
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return em_err(err, EM_ERR_PARSE, "%s: cannot open: %s", name, strerror(errno));
    const char *why = em_stream_refusal(f, use_stdin);
    if (why) {
        if (!use_stdin)
            fclose(f);
        return use_stdin && !strncmp(why, "standard", 8) ? em_err(err, EM_ERR_PARSE, "%s", why)
                                                         : em_err(err, EM_ERR_PARSE, "%s: %s", name, why);
    }
    errno = 0;
    int st = parse_begin(s, name, err);
    em_line_iter it;
    if (st == EM_OK && em_line_iter_open(&it, f, LOAD_CHUNK, EM_SCN_MAX_BYTES) != EM_OK) {
        em_line_iter_close(&it);
        st = EM_ERR_NOMEM;
    } else if (st == EM_OK) {
        struct stat sb;
        if (!use_stdin && fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
            s->hint = estimate_lines(it.buf, it.len, (size_t)sb.st_size);
        const char *p;
        size_t n;
        while (st == EM_OK && em_line_next(&it, &p, &n))
            st = p ? one_line(s, p, n, it.line, err)
                   : em_err_at(err, EM_ERR_PARSE, s->name, it.line,
                               "line too long (%zu bytes; the limit is %d)", n,
                               EM_SCN_MAX_LINE);
        if (st == EM_OK && em_line_iter_failed(&it))
            st = em_err(err, EM_ERR_PARSE, "%s: %s", name, em_stream_why_failed(f, use_stdin, errno));
        em_line_iter_close(&it);
    }
    if (!use_stdin)
        fclose(f);
    st = em_scn_index_build(s, st, err);
    if (st == EM_OK)
        st = parse_end(s, err);
    return st;
}

void em_csv_label(FILE *f, const char *label)
{
    size_t n = strlen(label);
    int q = n == 0 || label[0] == '#' || is_ws((unsigned char)label[0]) ||
            is_ws((unsigned char)label[n - 1]) || strpbrk(label, ",\"") != NULL;
    if (q)
        em_csv_quoted(f, label);
    else
        fputs(label, f);
}

void em_csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}
