/* em_label.c: labels shown to a person (em_label.h). */
#include "io/em_label.h"

#include <string.h>

size_t em_utf8_valid_prefix(const unsigned char *p, size_t n);

/* the escape of the byte(s) at s, or 0 bytes when shown as is; *used: input bytes taken */
static int esc(const unsigned char *s, char out[8], size_t *used)
{
    *used = 1;
    if (s[0] < 0x20 || s[0] == 0x7f)
        return snprintf(out, 8, "\\x%02x", s[0]);
    if (s[0] == '\\')
        return snprintf(out, 8, "\\\\");
    if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) { /* C1: CSI (0x9b) on some terminals */
        *used = 2;
        return snprintf(out, 8, "\\u%04x", s[1]);
    }
    if (s[0] >= 0x80) { /* a whole valid UTF-8 sequence as is; any other byte escaped */
        size_t k = em_utf8_valid_prefix(s, 4);
        if (k == 0)
            return snprintf(out, 8, "\\x%02x", s[0]);
        *used = k;
        return 0;
    }
    return 0;
}

size_t em_utf8_valid_prefix(const unsigned char *p, size_t n)
{
    /* the length of the one UTF-8 sequence at p (at most n bytes, NUL-terminated input
     * stops it), 0 when invalid */
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
        size_t k = em_utf8_valid_prefix(p + i, n - i);
        if (k == 0)
            return i;
        i += k;
    }
    return n;
}

void em_label_human(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        char e[8];
        size_t used;
        int k = esc(p, e, &used);
        if (k > 0)
            fputs(e, f);
        else
            fwrite(p, 1, used, f);
        p += used;
    }
}

int em_label_needs_escape(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[8];
        size_t used;
        if (esc(p, e, &used) > 0)
            return 1;
    }
    return 0;
}

char *em_label_human_str(char *buf, size_t cap, const char *s, size_t max_in)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s, *start = p;
    if (cap == 0)
        return buf;
    while (*p && o + 8 < cap) {
        if (max_in && (size_t)(p - start) >= max_in) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        char e[8];
        size_t used;
        int k = esc(p, e, &used);
        if (k > 0) {
            memcpy(buf + o, e, (size_t)k);
            o += (size_t)k;
        } else {
            memcpy(buf + o, p, used);
            o += used;
        }
        p += used;
    }
    buf[o] = 0;
    return buf;
}
