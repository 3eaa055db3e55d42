/* em_format.c: the decimal output style of every correctly rounded result (em_format.h). */
#include "num/em_format.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *em_format_decimal(int negative, const char *d, const mpz_t e)
{
    const long K = (long)strlen(d);
    mpz_t X;
    mpz_init(X);
    mpz_sub_ui(X, e, 1); /* value = d[0].d[1..] * 10^X */
    char *out = NULL;
    if (mpz_cmp_si(X, -5) >= 0 && mpz_cmp_si(X, K) < 0) {
        long x = mpz_get_si(X);
        out = malloc((size_t)K + 16);
        if (!out)
            goto done;
        char *p = out;
        if (negative)
            *p++ = '-';
        if (x >= 0) {
            memcpy(p, d, (size_t)x + 1);
            p += x + 1;
            if (x < K - 1) {
                *p++ = '.';
                memcpy(p, d + x + 1, (size_t)(K - x - 1));
                p += K - x - 1;
            }
        } else {
            *p++ = '0';
            *p++ = '.';
            for (long i = 0; i < -x - 1; i++)
                *p++ = '0';
            memcpy(p, d, (size_t)K);
            p += K;
        }
        *p = 0;
    } else {
        /* scientific: the exponent's digits, from a long when it fits (no GMP
           string allocation in the common case), then one writer for both */
        char xbuf[24], *xbig = NULL;
        const char *xs;
        int xneg = mpz_sgn(X) < 0;
        if (mpz_fits_slong_p(X) && mpz_cmp_si(X, -LONG_MAX) >= 0) {
            long x = mpz_get_si(X);
            unsigned long ax = x < 0 ? (unsigned long)-x : (unsigned long)x;
            char *q = xbuf + sizeof xbuf - 1;
            *q = 0;
            do {
                *--q = (char)('0' + ax % 10);
                ax /= 10;
            } while (ax);
            xs = q;
        } else {
            mpz_abs(X, X);
            xs = xbig = mpz_get_str(NULL, 10, X);
        }
        out = xs ? malloc((size_t)K + strlen(xs) + 8) : NULL;
        if (out) {
            char *p = out;
            if (negative)
                *p++ = '-';
            *p++ = d[0];
            if (K > 1) {
                *p++ = '.';
                memcpy(p, d + 1, (size_t)K - 1);
                p += K - 1;
            }
            *p++ = 'e';
            *p++ = xneg ? '-' : '+';
            strcpy(p, xs);
        }
        free(xbig);
    }
done:
    mpz_clear(X);
    return out;
}

char *em_format_nines(int K)
{
    char *s = malloc((size_t)K + 3);
    if (s) {
        memcpy(s, "0.", 2);
        memset(s + 2, '9', (size_t)K);
        s[K + 2] = 0;
    }
    return s;
}

int em_format_is_one(const char *s)
{
    return s[0] == '1' && strspn(s + 1, ".0") == strlen(s + 1);
}
