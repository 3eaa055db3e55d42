/* em_label.c: labels shown to a person (em_label.h). */
#include "io/em_label.h"

#include <string.h>

#include "io/em_text.h"

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
        /* bidi controls reorder what follows on a terminal (a label could show as another):
         * U+061C, U+200E-200F, U+202A-202E, U+2066-2069, escaped like C0/C1 */
        unsigned cp = k == 2 ? ((s[0] & 0x1fu) << 6) | (s[1] & 0x3fu)
                      : k == 3 ? ((s[0] & 0x0fu) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu)
                               : 0;
        if (cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069))
            return snprintf(out, 8, "\\u%04x", cp);
        return 0;
    }
    return 0;
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
