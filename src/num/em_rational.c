/* em_rational.c: exact number parsing (GMP mpq) and exact-to-double rounding. */
#include "num/em_rational.h"
#include "num/em_objs.h"

#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"

static int fail(const char **msg, const char *m)
{
    if (msg)
        *msg = m;
    return EM_ERR_PARSE;
}

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int ieq(const char *s, size_t len, const char *word)
{
    size_t wl = strlen(word);
    if (len != wl)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (lower((unsigned char)s[i]) != word[i])
            return 0;
    return 1;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Parse an optionally signed decimal exponent at s[*i..len); value limited to `lim`. */
static int parse_exp(const char *s, size_t len, size_t *i, long lim, long *out, const char **msg,
                     const char *toobig)
{
    int neg = 0;
    if (*i < len && (s[*i] == '+' || s[*i] == '-')) {
        neg = s[*i] == '-';
        (*i)++;
    }
    if (*i >= len || !isdigit((unsigned char)s[*i]))
        return fail(msg, "missing digits in the exponent");
    long v = 0;
    while (*i < len && isdigit((unsigned char)s[*i])) {
        if (v <= lim)
            v = v * 10 + (s[*i] - '0');
        (*i)++;
    }
    if (v > lim)
        return fail(msg, toobig);
    *out = neg ? -v : v;
    return EM_OK;
}

/* The end of a number at s[*j]: an optional exponent after marks[0] or marks[1] (*e, 0 when
 * absent), then nothing (else EM_ERR_PARSE, *msg trailing) */
static int end_exp(const char *s, size_t len, size_t *j, const char *marks, long lim, long *e,
                   const char **msg, const char *toobig, const char *trailing)
{
    *e = 0;
    if (*j < len && (s[*j] == marks[0] || s[*j] == marks[1])) {
        (*j)++;
        int st = parse_exp(s, len, j, lim, e, msg, toobig);
        if (st)
            return st;
    }
    return *j == len ? EM_OK : fail(msg, trailing);
}

/* The mantissa's digits (hex or decimal) from s[*j], with at most one point, copied
 * without the point into buf; *nd digits, *nfrac of them after the point.  Stops at the
 * first other character; EM_ERR_PARSE on a second point. */
static int scan_digits(const char *s, size_t len, size_t *j, int hex, char *buf, size_t *nd,
                       size_t *nfrac, int *seen_point, const char **msg)
{
    *nd = *nfrac = 0;
    *seen_point = 0;
    for (; *j < len; (*j)++) {
        int c = (unsigned char)s[*j];
        if (c == '.') {
            if (*seen_point)
                return fail(msg, "two decimal points");
            *seen_point = 1;
            continue;
        }
        if (hex ? hexval(c) < 0 : !isdigit(c))
            break;
        buf[(*nd)++] = (char)c;
        if (*seen_point)
            (*nfrac)++;
    }
    return EM_OK;
}

/* |z| < 10^EM_Q_MAX_DIGITS: at most EM_Q_MAX_DIGITS decimal digits (exactly) */
static int digits_ok(const mpz_t z)
{
    size_t d = mpz_sizeinbase(z, 10); /* exact or one too many */
    if (d <= EM_Q_MAX_DIGITS)
        return 1;
    if (d > EM_Q_MAX_DIGITS + 1)
        return 0;
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, EM_Q_MAX_DIGITS);
    int ok = mpz_cmpabs(z, p) < 0;
    mpz_clear(p);
    return ok;
}

/* The canonical decimal form of q: q = m 10^x with m not divisible by 10, when q is a
 * terminating decimal (returns 1), else 0.  m, x set only on 1. */
static int terminating(const mpq_t q, mpz_t m, long *x)
{
    mpz_t b;
    mpz_init_set(b, mpq_denref(q));
    unsigned long e2 = mpz_scan1(b, 0);
    mpz_tdiv_q_2exp(b, b, e2);
    mpz_t five;
    mpz_init_set_ui(five, 5);
    unsigned long e5 = mpz_remove(b, b, five);
    int term = mpz_cmp_ui(b, 1) == 0;
    if (term) {
        unsigned long k = e2 > e5 ? e2 : e5;
        mpz_ui_pow_ui(m, 10, k);
        mpz_mul(m, m, mpq_numref(q));
        mpz_divexact(m, m, mpq_denref(q));
        long xx = -(long)k;
        if (mpz_sgn(m) != 0) {
            mpz_t ten;
            mpz_init_set_ui(ten, 10);
            xx += (long)mpz_remove(m, m, ten);
            mpz_clear(ten);
        } else {
            xx = 0;
        }
        *x = xx;
    }
    mpz_clears(b, five, (mpz_ptr)0);
    return term;
}

/* The value rule that makes every accepted number writable in an accepted form
 * (em_q_to_string): a terminating decimal m 10^x needs |m| < 10^10000 and |x| <= 10000;
 * any other rational a numerator and a denominator of at most 10000 digits. */
static int value_ok(const mpq_t q)
{
    /* Every number of at most 9000 bits (numerator and denominator together) passes, so
     * the costly decimal form is needed only beyond: with |num| < 2^a, den < 2^b, a + b <=
     * 9000, a terminating q = m 10^x has k = max(e2, e5) < b, |m| <= |num| 10^k, so m has
     * at most 0.302 a + b + 1 <= 9001 digits and -9000 < x <= 0.302 a < 2710; otherwise
     * numerator and denominator have at most 2710 digits each. */
    _Static_assert(EM_Q_MAX_DIGITS >= 9001 && EM_Q_MAX_EXP10 >= 9000,
                   "value_ok's shortcut needs these limits");
    if (mpz_sizeinbase(mpq_numref(q), 2) + mpz_sizeinbase(mpq_denref(q), 2) <= 9000)
        return 1;
    mpz_t m;
    mpz_init(m);
    long x = 0;
    int ok;
    if (terminating(q, m, &x))
        ok = digits_ok(m) && x <= EM_Q_MAX_EXP10 && x >= -EM_Q_MAX_EXP10;
    else
        ok = digits_ok(mpq_numref(q)) && digits_ok(mpq_denref(q));
    mpz_clear(m);
    return ok;
}

int em_q_parse(const char *s, size_t len, int allow_neg_inf, mpq_t q, int *kind, const char **msg)
{
    if (!s || !kind)
        return EM_ERR_NULL;
    if (msg)
        *msg = NULL;
    if (len == 0)
        return fail(msg, "empty number");
    size_t i = 0;
    int neg = 0, signed_ = 0;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        signed_ = 1;
        i = 1;
    }
    const char *r = s + i;
    size_t rl = len - i;
    if (ieq(r, rl, "inf") || ieq(r, rl, "infinity")) {
        if (!neg)
            return fail(msg, "+inf is not allowed (only -inf, which excludes a candidate)");
        if (!allow_neg_inf)
            return fail(msg, "-inf is not allowed here");
        *kind = EM_Q_NEG_INF;
        mpq_set_ui(q, 0, 1);
        return EM_OK;
    }
    if (ieq(r, rl, "nan") || (rl > 3 && ieq(r, 3, "nan")))
        return fail(msg, "NaN is not a number");
    if (rl == 0)
        return fail(msg, signed_ ? "a sign without digits" : "empty number");

    mpz_t num, den;
    mpz_init(num);
    mpz_init(den);
    int st = EM_OK;
    char *buf = NULL;
    /* hex float: mantissa hex digits, optional fraction, optional p exponent; else decimal
     * or fraction */
    const int hex = rl >= 2 && r[0] == '0' && (r[1] == 'x' || r[1] == 'X');
    size_t j = hex ? i + 2 : i;
    size_t nd, nfrac;
    int seen_point;
    buf = malloc(len + 1);
    if (!buf) { st = EM_ERR_NOMEM; goto out; }
    st = scan_digits(s, len, &j, hex, buf, &nd, &nfrac, &seen_point, msg);
    if (st) goto out;
    if (hex) {
        if (nd == 0) { st = fail(msg, "missing hex digits after 0x"); goto out; }
        if (nd > EM_Q_MAX_DIGITS) { st = fail(msg, "too many digits"); goto out; }
        long e2;
        st = end_exp(s, len, &j, "pP", EM_Q_MAX_EXP2, &e2, msg,
                     "binary exponent too large (the limit is 33220)",
                     "unexpected character in a hex number");
        if (st) goto out;
        buf[nd] = 0;
        mpz_set_str(num, buf, 16);
        long shift = e2 - 4 * (long)nfrac;
        mpz_set_ui(den, 1);
        if (shift >= 0)
            mpz_mul_2exp(num, num, (mp_bitcnt_t)shift);
        else
            mpz_mul_2exp(den, den, (mp_bitcnt_t)(-shift));
    } else {
        if (nd == 0) {
            if (j < len && !seen_point)
                st = fail(msg, "not a number (expected digits, a hex float 0x..., a fraction a/b or -inf)");
            else
                st = fail(msg, "missing digits");
            goto out;
        }
        if (nd > EM_Q_MAX_DIGITS) { st = fail(msg, "too many digits"); goto out; }
        buf[nd] = 0;
        mpz_set_str(num, buf, 10);
        mpz_set_ui(den, 1);
        if (j < len && s[j] == '/') {
            if (seen_point) { st = fail(msg, "a fraction takes integers only (a/b)"); goto out; }
            j++;
            size_t k0 = j, bl2 = 0;
            while (j < len && isdigit((unsigned char)s[j]))
                buf[bl2++] = s[j++];
            if (j == k0) { st = fail(msg, "missing denominator after '/'"); goto out; }
            if (j != len) { st = fail(msg, "unexpected character after the denominator"); goto out; }
            if (bl2 > EM_Q_MAX_DIGITS) { st = fail(msg, "too many digits"); goto out; }
            buf[bl2] = 0;
            mpz_set_str(den, buf, 10);
            if (mpz_sgn(den) == 0) { st = fail(msg, "zero denominator"); goto out; }
        } else {
            long e10;
            st = end_exp(s, len, &j, "eE", EM_Q_MAX_EXP10, &e10, msg,
                         "decimal exponent too large (the limit is 10000)",
                         "unexpected character in a number");
            if (st) goto out;
            long p10 = e10 - (long)nfrac;
            mpz_t t;
            mpz_init(t);
            if (p10 >= 0) {
                mpz_ui_pow_ui(t, 10, (unsigned long)p10);
                mpz_mul(num, num, t);
            } else {
                mpz_ui_pow_ui(den, 10, (unsigned long)(-p10));
            }
            mpz_clear(t);
        }
    }
    if (neg)
        mpz_neg(num, num);
    mpq_set_num(q, num);
    mpq_set_den(q, den);
    mpq_canonicalize(q);
    if (!value_ok(q)) {
        st = fail(msg, "number out of range (more than 10000 significant digits, or a "
                       "decimal exponent beyond +-10000 once written exactly)");
        goto out;
    }
    *kind = EM_Q_FINITE;
out:
    free(buf);
    mpz_clear(num);
    mpz_clear(den);
    return st;
}

int em_q_parse_str(const char *s, int allow_neg_inf, mpq_t q, int *kind, const char **msg)
{
    if (!s)
        return EM_ERR_NULL;
    return em_q_parse(s, strlen(s), allow_neg_inf, q, kind, msg);
}

double em_q_get_d(const mpq_t q, int *overflow)
{
    /* Round once, in double's own format: precision 53 with double's exponent range
     * (emin = -1073 gives the smallest subnormal 2^-1074 after mpfr_subnormalize). */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_t x;
    mpfr_init2(x, 53);
    int t = mpfr_set_q(x, q, MPFR_RNDN);
    t = mpfr_check_range(x, t, MPFR_RNDN);
    mpfr_subnormalize(x, t, MPFR_RNDN);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    if (overflow)
        *overflow = isinf(d);
    return d;
}

char *em_q_to_string(const mpq_t q, int maxdigits)
{
    /* Every number em_q_parse accepts is written in a form it accepts again (value_ok):
     * a terminating decimal m 10^x as d.ddd e+-E (at most maxdigits digits, |E| <= 10000)
     * or else as the digits of m and the exponent x ("123e-10000"); any other rational as
     * num/den. */
    if (mpq_sgn(q) == 0)
        return strdup("0");
    mpz_t m;
    mpz_init(m);
    long x = 0;
    char *out = NULL;
    if (terminating(q, m, &x)) {
        int neg = mpz_sgn(m) < 0;
        mpz_abs(m, m);
        char *d = mpz_get_str(NULL, 10, m);
        if (!d)
            goto done;
        long nd = (long)strlen(d);
        long E = nd - 1 + x; /* value = d[0].d[1..] * 10^E */
        size_t cap = (size_t)nd + 64 + (size_t)(E < 0 ? -E : E);
        if (nd <= maxdigits && E >= -6 && E < 21) {
            out = malloc(cap);
            if (out) {
                char *p = out;
                if (neg) *p++ = '-';
                if (E >= 0) {
                    for (long i = 0; i <= E; i++)
                        *p++ = i < nd ? d[i] : '0';
                    if (nd > E + 1) {
                        *p++ = '.';
                        for (long i = E + 1; i < nd; i++)
                            *p++ = d[i];
                    }
                } else {
                    *p++ = '0';
                    *p++ = '.';
                    for (long i = 0; i < -E - 1; i++)
                        *p++ = '0';
                    for (long i = 0; i < nd; i++)
                        *p++ = d[i];
                }
                *p = 0;
            }
        } else if (nd <= maxdigits && E >= -EM_Q_MAX_EXP10 && E <= EM_Q_MAX_EXP10) {
            out = malloc(cap);
            if (out) {
                char *p = out;
                if (neg) *p++ = '-';
                *p++ = d[0];
                if (nd > 1) {
                    *p++ = '.';
                    memcpy(p, d + 1, (size_t)nd - 1);
                    p += nd - 1;
                }
                sprintf(p, "e%c%ld", E < 0 ? '-' : '+', E < 0 ? -E : E);
            }
        } else if (nd <= maxdigits || !digits_ok(mpq_numref(q)) || !digits_ok(mpq_denref(q))) {
            /* all the digits with the exponent of the last one */
            out = malloc((size_t)nd + 32);
            if (out)
                sprintf(out, "%s%se%ld", neg ? "-" : "", d, x);
        }
        free(d);
        if (out)
            goto done;
    }
    {
        char *a = mpz_get_str(NULL, 10, mpq_numref(q));
        char *bb = mpz_get_str(NULL, 10, mpq_denref(q));
        out = a && bb ? malloc(strlen(a) + strlen(bb) + 2) : NULL;
        if (out) {
            if (mpz_cmp_ui(mpq_denref(q), 1) == 0)
                strcpy(out, a);
            else
                sprintf(out, "%s/%s", a, bb);
        }
        free(a);
        free(bb);
    }
done:
    mpz_clear(m);
    return out;
}

double em_q_to_d_dir(const mpq_t q, int dir)
{
    int of = 0;
    double d = em_q_get_d(q, &of);
    if (dir == 0)
        return d;
    if (isinf(d)) {
        if (d > 0 && dir < 0)
            return DBL_MAX;
        if (d < 0 && dir > 0)
            return -DBL_MAX;
        return d;
    }
    mpq_t t;
    mpq_init(t);
    mpq_set_d(t, d);
    int c = mpq_cmp(t, q);
    mpq_clear(t);
    if (dir < 0 && c > 0)
        d = nextafter(d, -INFINITY);
    else if (dir > 0 && c < 0)
        d = nextafter(d, INFINITY);
    return d;
}

int em_q_is_d(const mpq_t q, double d)
{
    if (!isfinite(d))
        return 0;
    mpq_t t;
    mpq_init(t);
    mpq_set_d(t, d);
    int eq = mpq_equal(t, q);
    mpq_clear(t);
    return eq;
}

long em_q_bits(const mpq_t q)
{
    if (mpq_sgn(q) == 0)
        return 0;
    long b = (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2) + 1;
    return b < 0 ? 0 : b;
}

static void q_init(void *x, long unused)
{
    (void)unused;
    mpq_init(x);
}

static void q_clear(void *x)
{
    mpq_clear(x);
}

mpq_t *em_q_array_new(size_t n)
{
    return em_objs_new(n, sizeof(mpq_t), q_init, 0);
}

void em_q_array_free(mpq_t *a, size_t n)
{
    em_objs_free(a, n, sizeof(mpq_t), q_clear);
}

void em_d_boundary(mpq_t B, double y, int dir)
{
    double yn = nextafter(y, dir > 0 ? INFINITY : -INFINITY);
    mpq_t t;
    mpq_init(t);
    if (isinf(yn)) {
        mpq_set_d(B, dir > 0 ? DBL_MAX : -DBL_MAX);
        mpq_set_d(t, ldexp(dir > 0 ? 1.0 : -1.0, 970));
        mpq_add(B, B, t);
    } else {
        mpq_set_d(B, y);
        mpq_set_d(t, yn);
        mpq_add(B, B, t);
        mpz_mul_ui(mpq_denref(B), mpq_denref(B), 2);
        mpq_canonicalize(B);
    }
    mpq_clear(t);
}
