/* em_text.c: text in: whole files, UTF-8, and the one line iterator (em_text.h). */
#include "io/em_text.h"

#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/em_error.h"

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

/* ------------------------------------------------------------------ UTF-8 */

size_t em_utf8_valid_prefix(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    size_t k;
    unsigned long cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) { k = 1; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { k = 2; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { k = 3; cp = c & 0x07; }
    else return 0;
    if (k + 1 > n)
        return 0;
    for (size_t j = 1; j <= k; j++) {
        if ((p[j] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[j] & 0x3F);
    }
    if ((k == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return k + 1;
}

size_t em_utf8_check(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) { /* the common case without a call */
            i++;
            continue;
        }
        size_t k = em_utf8_valid_prefix(p + i, n - i);
        if (k == 0)
            return i;
        i += k;
    }
    return n;
}

/* -------------------------------------------------------------- the lines */

static int has_bom(const char *p, size_t len)
{
    return len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
           (unsigned char)p[2] == 0xBF;
}

void em_line_iter_init(em_line_iter *it, const char *buf, size_t len)
{
    memset(it, 0, sizeof *it);
    it->buf = buf;
    it->len = len;
    it->eof = 1;
    it->pos = has_bom(buf, len) ? 3 : 0;
}

/* More of the stream after it->buf[it->pos..]: 1 when bytes came, 0 at the end or on an
 * error (it->failed). */
static int refill(em_line_iter *it)
{
    if (it->eof)
        return 0;
    size_t keep = it->len - it->pos;
    memmove(it->chunk, it->chunk + it->pos, keep);
    it->pos = 0;
    it->len = keep;
    size_t k = fread(it->chunk + keep, 1, it->cap - keep, it->f);
    if (k == 0) {
        it->eof = 1;
        it->failed = ferror(it->f) != 0;
        return 0;
    }
    it->total += k;
    it->len += k;
    if (it->total > it->max) {
        it->eof = it->failed = 1;
        return 0;
    }
    return 1;
}

int em_line_iter_open(em_line_iter *it, FILE *f, size_t cap, size_t max)
{
    memset(it, 0, sizeof *it);
    it->f = f;
    it->cap = cap;
    it->max = max;
    it->chunk = malloc(cap);
    if (!it->chunk)
        return EM_ERR_NOMEM;
    it->buf = it->chunk;
    while (refill(it) && it->len < cap)
        ;
    if (has_bom(it->buf, it->len))
        it->pos = 3;
    return EM_OK;
}

void em_line_iter_close(em_line_iter *it)
{
    free(it->chunk);
    it->chunk = NULL;
}

int em_line_iter_failed(const em_line_iter *it)
{
    return it->failed;
}

const char *em_stream_refusal(FILE *f, int is_stdin)
{
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0)
        return is_stdin && errno == EBADF ? "standard input is closed (give a FILE, or pipe one in)"
                                          : NULL;
    if (S_ISDIR(sb.st_mode))
        return "is a directory, not a file";
    return NULL;
}

const char *em_stream_why_failed(FILE *f, int is_stdin, int errnum)
{
    const char *r = em_stream_refusal(f, is_stdin);
    if (r)
        return r;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && (S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode)))
        return errnum ? "a device that cannot be read" : "a device without an end (or too large)";
    return errnum ? strerror(errnum) : "read error or file too large";
}

/* A stream line longer than the chunk: its bytes to the next LF (or the end) skipped, its
 * length without a final CR in *n. */
static void skip_long(em_line_iter *it, size_t *n)
{
    size_t len = 0;
    int cr = 0;
    for (;;) {
        const char *b = it->buf + it->pos;
        const char *nl = memchr(b, '\n', it->len - it->pos);
        size_t part = nl ? (size_t)(nl - b) : it->len - it->pos;
        if (part > 0)
            cr = b[part - 1] == '\r';
        len += part;
        it->pos += part + (nl ? 1 : 0);
        if (nl || !refill(it))
            break;
    }
    *n = len - (size_t)cr;
}

int em_line_next(em_line_iter *it, const char **p, size_t *n)
{
    for (;;) {
        const char *b = it->buf + it->pos;
        const char *nl = memchr(b, '\n', it->len - it->pos);
        if (!nl && !it->eof) {
            if (it->pos == 0 && it->len == it->cap) {
                it->line++;
                *p = NULL;
                skip_long(it, n);
                return 1;
            }
            refill(it);
            continue;
        }
        if (!nl && it->pos >= it->len)
            return 0;
        size_t m = nl ? (size_t)(nl - b) : it->len - it->pos;
        it->pos += m + (nl ? 1 : 0);
        it->line++;
        if (m > 0 && b[m - 1] == '\r')
            m--;
        *p = b;
        *n = m;
        return 1;
    }
}

void em_text_trim(const char **p, size_t *n)
{
    while (*n && (**p == ' ' || **p == '\t')) {
        (*p)++;
        (*n)--;
    }
    while (*n && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
        (*n)--;
}

int em_line_next_data(em_line_iter *it, const char **p, size_t *n)
{
    while (em_line_next(it, p, n)) {
        if (!*p)
            return 1; /* a stream's over-long line: for the caller to refuse */
        em_text_trim(p, n);
        if (*n != 0 && ((*p)[0] != '#' || (it->data_seen && it->comments_lead))) {
            it->data_seen = 1;
            return 1;
        }
    }
    return 0;
}

int em_line_check(const char *p, size_t n, size_t max, unsigned flags, const char *name,
                  unsigned long ln, em_error *err)
{
    if (max && n > max)
        return em_err_at(err, EM_ERR_PARSE, name, ln,
                         "line too long (%zu bytes; the limit is %zu)", n, max);
    /* one pass over the usual line (ASCII without NUL or CR) instead of four */
    unsigned odd = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        odd |= (c == 0) | (c == '\r') | (c >= 0x80);
    }
    if (!odd)
        return EM_OK;
    if (memchr(p, 0, n))
        return em_err_at(err, EM_ERR_PARSE, name, ln, "NUL byte in the line");
    if ((flags & EM_LINE_STRICT) && memchr(p, '\r', n))
        return em_err_at(err, EM_ERR_PARSE, name, ln, "carriage return inside the line");
    if ((flags & EM_LINE_STRICT) && memmem(p, n, "\xEF\xBB\xBF", 3))
        return em_err_at(err, EM_ERR_PARSE, name, ln,
                         "byte-order mark inside the file (allowed only at its start)");
    size_t bad = em_utf8_check(p, n);
    if (bad != n)
        return em_err_at(err, EM_ERR_PARSE, name, ln, "invalid UTF-8 at byte %zu", bad + 1);
    return EM_OK;
}

void em_text_show(char *out, size_t cap, const char *p, size_t n)
{
    size_t o = 0;
    const size_t lim = 40;
    for (size_t i = 0; i < n && o + 6 < cap; i++) {
        if (i == lim) {
            o += (size_t)snprintf(out + o, cap - o, "...");
            break;
        }
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o < cap ? o : cap - 1] = 0;
}
