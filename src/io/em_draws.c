/* em_draws.c: reading a sampler's draws (em_draws.h). */
#include "io/em_draws.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"

static int utf8_len(const unsigned char *p, size_t left)
{
    unsigned c = p[0];
    int k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
            : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (k == 0 || (size_t)k > left)
        return 0;
    unsigned long cp = k == 1 ? c : k == 2 ? c & 0x1F : k == 3 ? c & 0x0F : c & 0x07;
    for (int i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    /* overlong forms, surrogates, beyond U+10FFFF */
    if ((k == 2 && cp < 0x80) || (k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return k;
}

int emd_utf8(const char *bytes, size_t len)
{
    const unsigned char *p = (const unsigned char *)bytes;
    for (size_t i = 0; i < len;) {
        int k = utf8_len(p + i, len - i);
        if (!k)
            return 0;
        i += (size_t)k;
    }
    return 1;
}

void emd_show(char *out, size_t cap, const char *bytes, size_t len, size_t max)
{
    const unsigned char *p = (const unsigned char *)bytes;
    size_t o = 0, lim = len < max ? len : max;
    if (!cap)
        return;
    for (size_t i = 0; i < lim && o + 8 < cap;) {
        int k = utf8_len(p + i, lim - i);
        /* C1 controls U+0080..U+009F are C2 80..C2 9F */
        if (k > 1 && !(k == 2 && p[i] == 0xC2 && p[i + 1] < 0xA0)) {
            memcpy(out + o, p + i, (size_t)k);
            o += (size_t)k;
            i += (size_t)k;
            continue;
        }
        if (p[i] == '\\') {
            out[o++] = '\\', out[o++] = '\\';
        } else if (p[i] >= 0x20 && p[i] < 0x7F) {
            out[o++] = (char)p[i];
        } else {
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", p[i]);
        }
        i++;
    }
    if (len > lim && o + 4 < cap)
        memcpy(out + o, "...", 3), o += 3;
    out[o < cap ? o : cap - 1] = 0;
}

static int bad(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return EM_ERR_PARSE;
}

/* The next line of buf from *pos: [*p, *p + *m), its end stripped of "\n" / "\r\n".  0 at
 * the end of buf. */
static int next_line(const char *buf, size_t len, size_t *pos, const char **p, size_t *m)
{
    if (*pos >= len)
        return 0;
    const char *s = buf + *pos;
    const char *nl = memchr(s, '\n', len - *pos);
    size_t k = nl ? (size_t)(nl - s) : len - *pos;
    *pos += k + (nl ? 1 : 0);
    if (k && s[k - 1] == '\r')
        k--;
    *p = s;
    *m = k;
    return 1;
}

/* what is wrong with a line's bytes, whatever the kind: a message, or NULL */
static int line_bytes_ok(const char *p, size_t m, uint64_t ln, char *msg, size_t cap)
{
    char shown[160];
    if (m == 0)
        return bad(msg, cap, "line %llu: empty", (unsigned long long)ln);
    if (m > EMD_MAX_LINE)
        return bad(msg, cap, "line %llu: longer than %d bytes", (unsigned long long)ln,
                   EMD_MAX_LINE);
    if (memchr(p, 0, m)) {
        emd_show(shown, sizeof shown, p, m, 40);
        return bad(msg, cap, "line %llu: a NUL byte (binary output?): '%s'",
                   (unsigned long long)ln, shown);
    }
    if (!emd_utf8(p, m)) {
        emd_show(shown, sizeof shown, p, m, 40);
        return bad(msg, cap, "line %llu: not UTF-8 text: '%s'", (unsigned long long)ln, shown);
    }
    if (memchr(p, '\r', m)) {
        emd_show(shown, sizeof shown, p, m, 40);
        return bad(msg, cap, "line %llu: a stray carriage return: '%s'", (unsigned long long)ln,
                   shown);
    }
    return EM_OK;
}

static int count_check(uint64_t got, uint64_t n, char *msg, size_t cap)
{
    if (got < n)
        return bad(msg, cap, "%llu line%s where %llu draws were asked for",
                   (unsigned long long)got, got == 1 ? "" : "s", (unsigned long long)n);
    return EM_OK;
}

static int too_many(uint64_t n, char *msg, size_t cap)
{
    return bad(msg, cap, "more than the %llu lines (draws) asked for", (unsigned long long)n);
}

/* a number written where a label was due: the candidate whose utility it is, or -1 */
static long as_utility(const char *t, const em_scn *s, const double *ud)
{
    if (!ud)
        return -1;
    char *end;
    errno = 0;
    double x = strtod(t, &end);
    if (end == t || *end || isnan(x))
        return -1;
    size_t n = em_scn_size(s);
    for (size_t i = 0; i < n; i++)
        if (x == ud[i] || fabs(x - ud[i]) <= 1e-12 * fmax(1.0, fabs(x)))
            return (long)i;
    return -1;
}

int emd_read_labels(const char *buf, size_t len, uint64_t n, const em_scn *s, const double *ud,
                    uint64_t *counts, uint64_t *lines, char *msg, size_t cap)
{
    size_t pos = 0, m;
    const char *p;
    uint64_t ln = 0;
    char *t = malloc(EMD_MAX_LINE + 1);
    if (!t)
        return EM_ERR_NOMEM;
    int st = EM_OK;
    *lines = 0;
    while (st == EM_OK && next_line(buf, len, &pos, &p, &m)) {
        ln++;
        if (ln > n) {
            st = too_many(n, msg, cap);
            break;
        }
        if ((st = line_bytes_ok(p, m, ln, msg, cap)) != EM_OK)
            break;
        memcpy(t, p, m);
        t[m] = 0;
        long k = em_scn_find(s, t);
        if (k < 0) {
            char shown[160];
            emd_show(shown, sizeof shown, p, m, 60);
            long u = as_utility(t, s, ud);
            if (u >= 0) {
                char lab[160];
                const char *l = em_scn_label(s, (size_t)u);
                emd_show(lab, sizeof lab, l, strlen(l), 60);
                st = bad(msg, cap, "line %llu: '%s' is not a label of this case; it is the "
                         "utility of '%s' (a value written where a label was due)",
                         (unsigned long long)ln, shown, lab);
            } else {
                st = bad(msg, cap, "line %llu: '%s' is not a label of this case",
                         (unsigned long long)ln, shown);
            }
            break;
        }
        counts[k]++;
    }
    free(t);
    *lines = ln;
    return st == EM_OK ? count_check(ln, n, msg, cap) : st;
}

int emd_read_numbers(const char *buf, size_t len, uint64_t n, double *x, uint64_t *lines,
                     char *msg, size_t cap)
{
    size_t pos = 0, m;
    const char *p;
    uint64_t ln = 0;
    char t[EMD_MAX_LINE + 1];
    int st = EM_OK;
    *lines = 0;
    while (st == EM_OK && next_line(buf, len, &pos, &p, &m)) {
        ln++;
        if (ln > n) {
            st = too_many(n, msg, cap);
            break;
        }
        if ((st = line_bytes_ok(p, m, ln, msg, cap)) != EM_OK)
            break;
        /* blanks around the number */
        while (m && (*p == ' ' || *p == '\t'))
            p++, m--;
        while (m && (p[m - 1] == ' ' || p[m - 1] == '\t'))
            m--;
        memcpy(t, p, m);
        t[m] = 0;
        char *end;
        double v = m ? strtod(t, &end) : 0;
        if (!m || end != t + m) {
            char shown[160];
            emd_show(shown, sizeof shown, p, m, 60);
            st = bad(msg, cap, "line %llu: '%s' is not a number", (unsigned long long)ln, shown);
            break;
        }
        x[ln - 1] = v;
    }
    *lines = ln;
    return st == EM_OK ? count_check(ln, n, msg, cap) : st;
}
