/* em_format.c: the oracle's decimal output style (see em_oracle.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/em_oracle.h"

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
        int xneg = mpz_sgn(X) < 0;
        mpz_abs(X, X);
        char *xs = mpz_get_str(NULL, 10, X);
        out = malloc((size_t)K + strlen(xs) + 8);
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
            sprintf(p, "e%c%s", xneg ? '-' : '+', xs);
        }
        free(xs);
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
