/* em_format.c: the decimal output style of every correctly rounded result (em_format.h). */
#include "num/em_format.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* value = d[0].d[1..] * 10^x with x in [-5, K): fixed notation into p */
static char *fixed(char *p, const char *d, long K, long x)
{
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
    return p;
}

/* scientific notation d[0].d[1..]e-xs into p */
static void scientific(char *p, const char *d, long K, int xneg, const char *xs)
{
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

/* the decimal digits of |x| at the end of buf[24] */
static const char *long_digits(char *buf, long x)
{
    unsigned long ax = x < 0 ? 0UL - (unsigned long)x : (unsigned long)x;
    char *q = buf + 23;
    *q = 0;
    do {
        *--q = (char)('0' + ax % 10);
        ax /= 10;
    } while (ax);
    return q;
}

void em_format_decimal_l(char *out, int negative, const char *d, long e)
{
    const long K = (long)strlen(d);
    char *p = out;
    if (negative)
        *p++ = '-';
    if (e > LONG_MIN + 1 && e - 1 >= -5 && e - 1 < K) {
        fixed(p, d, K, e - 1);
    } else {
        char xbuf[24];
        long x = e - 1; /* e > LONG_MIN: no overflow */
        scientific(p, d, K, x < 0, long_digits(xbuf, x));
    }
}

char *em_format_decimal(int negative, const char *d, const mpz_t e)
{
    const size_t K = strlen(d);
    if (mpz_fits_slong_p(e) && mpz_cmp_si(e, LONG_MIN + 2) >= 0) {
        char *out = malloc(K + EM_FORMAT_EXTRA);
        if (out)
            em_format_decimal_l(out, negative, d, mpz_get_si(e));
        return out;
    }
    /* an exponent beyond a long: its digits from GMP */
    mpz_t X;
    mpz_init(X);
    mpz_sub_ui(X, e, 1); /* value = d[0].d[1..] * 10^X */
    int xneg = mpz_sgn(X) < 0;
    mpz_abs(X, X);
    char *xs = mpz_get_str(NULL, 10, X);
    char *out = xs ? malloc(K + strlen(xs) + 8) : NULL;
    if (out) {
        char *p = out;
        if (negative)
            *p++ = '-';
        scientific(p, d, (long)K, xneg, xs);
    }
    free(xs);
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
