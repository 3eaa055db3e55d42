/* em_scn_number.c: utilities kept compactly (a 62-bit mantissa and an exponent, about
 * 10 bytes each; the rarer rationals as limbs), read from text without GMP on the fast
 * path, and given back exactly (em_scn_get_u) or as the nearest doubles. */
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
#include "io/em_text.h"
#include "num/em_rational.h"

_Static_assert(sizeof(long) == 8 && GMP_NUMB_BITS == 64,
               "mantissas go through mpz_set_si / mpz_get_si; em_scn_q_put packs two sizes in a limb");

#define UEXP_MIN (-8192L)

#define UEXP_MAX 8191L

uint16_t em_scn_ucode_make(int kind, long e)
{
    return (uint16_t)(((unsigned)kind << 14) | (unsigned)(e - UEXP_MIN));
}

/* An exotic rational as limbs in one growing array, *off its offset: a header limb (the
 * numerator's signed size in the low 32 bits, the denominator's size in the high 32;
 * sizes stay below 2^10 limbs, EM_Q_MAX_DIGITS), then the limbs: 32 bytes for a
 * 21-digit decimal, where an mpq_t and its two allocations take about 100. */
static int q_room(em_scn *s, size_t need)
{
    if (s->qlen + need > s->qcap) {
        size_t nc = s->qcap ? s->qcap : 256;
        while (nc < s->qlen + need)
            nc *= 2;
        mp_limb_t *nq = realloc(s->ql, nc * sizeof *nq);
        if (!nq)
            return EM_ERR_NOMEM;
        s->ql = nq;
        s->qcap = nc;
    }
    return EM_OK;
}

int em_scn_q_put(em_scn *s, const mpq_t q, int64_t *off)
{
    size_t na = mpz_size(mpq_numref(q)), nb = mpz_size(mpq_denref(q));
    size_t need = 1 + na + nb;
    if (q_room(s, need) != EM_OK)
        return EM_ERR_NOMEM;
    mp_limb_t *h = s->ql + s->qlen;
    h[0] = ((mp_limb_t)nb << 32) | (uint32_t)(int32_t)mpq_numref(q)->_mp_size;
    memcpy(h + 1, mpz_limbs_read(mpq_numref(q)), na * sizeof *h);
    memcpy(h + 1 + na, mpz_limbs_read(mpq_denref(q)), nb * sizeof *h);
    *off = (int64_t)s->qlen;
    s->qlen += need;
    return EM_OK;
}

/* Line numbers of a compact scenario as runs of consecutive lines (index, line): one
 * run for a file of data lines after its headers, not 8 bytes per candidate. */
int em_scn_line_put(em_scn *s, size_t i, unsigned long ln)
{
    if (s->nlrun > 0) {
        const size_t *r = s->lrun + 2 * (s->nlrun - 1);
        if ((unsigned long)r[1] + (i - r[0]) == ln)
            return EM_OK;
    }
    if (s->nlrun == s->lruncap) {
        size_t nc = s->lruncap ? s->lruncap * 2 : 8;
        size_t *nr = realloc(s->lrun, 2 * nc * sizeof *nr);
        if (!nr)
            return EM_ERR_NOMEM;
        s->lrun = nr;
        s->lruncap = nc;
    }
    s->lrun[2 * s->nlrun] = i;
    s->lrun[2 * s->nlrun + 1] = ln;
    s->nlrun++;
    return EM_OK;
}

unsigned long em_scn_line(const em_scn *s, size_t i)
{
    if (s->line)
        return s->line[i];
    size_t lo = 0, hi = s->nlrun; /* the last run starting at or before i */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->lrun[2 * mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return s->nlrun ? (unsigned long)(s->lrun[2 * lo + 1] + (i - s->lrun[2 * lo])) : 0;
}

/* q (canonical, finite) as m * 10^e or m * 2^e: 1 on success. */
int em_scn_classify(const mpq_t q, int64_t *m, int *kind, long *e)
{
    mpz_srcptr a = mpq_numref(q), b = mpq_denref(q);
    int ok = 0;
    mpz_t t;
    mpz_init(t);
    if (mpz_cmp_ui(b, 1) == 0) {
        long k = 0;
        if (mpz_sizeinbase(a, 2) > 62 && mpz_sgn(a) != 0) {
            mpz_t ten;
            mpz_init_set_ui(ten, 10);
            k = (long)mpz_remove(t, a, ten);
            mpz_clear(ten);
        } else {
            mpz_set(t, a);
        }
        if (mpz_sizeinbase(t, 2) <= 62 && k <= UEXP_MAX) {
            *m = mpz_get_si(t);
            *kind = UK_DEC;
            *e = k;
            ok = 1;
        }
    } else if (mpz_sizeinbase(a, 2) <= 62) {
        unsigned long x = mpz_scan1(b, 0), y = 0;
        mpz_tdiv_q_2exp(t, b, x);
        if (mpz_cmp_ui(t, 1) != 0) {
            mpz_t five;
            mpz_init_set_ui(five, 5);
            y = mpz_remove(t, t, five);
            mpz_clear(five);
        }
        if (mpz_cmp_ui(t, 1) == 0) {
            unsigned long k = x > y ? x : y;
            if (y == 0 && x <= (unsigned long)-UEXP_MIN) {
                /* a / 2^x is already canonical: read back without a gcd */
                *m = mpz_get_si(a);
                *kind = UK_BIN;
                *e = -(long)x;
                ok = 1;
            } else if (k - y <= 27 && k - x <= 62 && k <= (unsigned long)-UEXP_MIN) {
                /* (5^27 < 2^63) a / (2^x 5^y) = a 2^(k-x) 5^(k-y) / 10^k */
                mpz_ui_pow_ui(t, 5, k - y);
                mpz_mul(t, t, a);
                mpz_mul_2exp(t, t, k - x);
                if (mpz_sizeinbase(t, 2) <= 62) {
                    *m = mpz_get_si(t);
                    *kind = UK_DEC;
                    *e = -(long)k;
                    ok = 1;
                }
            }
        }
    }
    mpz_clear(t);
    return ok;
}

/* M 10^E (M > 0, not a multiple of 10) when no 62-bit form of em_scn_classify holds it (or M >=
 * 2^64): 1 with v set, 0 beyond 128 bits. */
static int fast_wide(em_u128 M, long E, fast_val *v)
{
    const em_u128 lim = (em_u128)1 << 62;
    if (E >= 0) { /* M >= 2^62 (E <= 4096 + 38): em_scn_classify's stripped tens do not help */
        em_u128 a = M;
        for (long k = 0; k < E; k++) {
            if (a > ~(em_u128)0 / 10)
                return 0;
            a *= 10;
        }
        v->kind = UK_Q;
        v->a = a;
        v->b = 1;
        return 1;
    }
    long k = -E;
    if (k > 38)
        return 0;
    em_u128 p5 = 1;
    for (long j = 0; j < k; j++)
        p5 *= 5;
    if (M % p5 == 0) { /* (M / 5^k) / 2^k */
        em_u128 a = M / p5;
        if (a < lim) {
            v->kind = UK_BIN;
            v->m = (int64_t)a;
            v->e = E;
            return 1;
        }
        v->kind = UK_Q;
        v->a = a;
        v->b = (em_u128)1 << k;
        return 1;
    }
    /* M is not a multiple of 10: the common factor with 10^k is 2^t or 5^t; em_scn_classify's
     * decimal numerator would be M >= 2^62 (or its bounds fail): limbs */
    em_u128 a = M, b = 1;
    for (long j = 0; j < k; j++)
        b *= 10;
    for (long j = 0; j < k && a % 2 == 0; j++)
        a /= 2, b /= 2;
    for (long j = 0; j < k && a % 5 == 0; j++)
        a /= 5, b /= 5;
    v->kind = UK_Q;
    v->a = a;
    v->b = b;
    return 1;
}

/* em_scn_q_put of (-1)^neg a / b (lowest terms, a > 0), the limbs GMP would hold. */
int em_scn_q_put_u128(em_scn *s, int neg, em_u128 a, em_u128 b, int64_t *off)
{
    mp_limb_t l[4] = {(mp_limb_t)a, (mp_limb_t)(a >> 64), (mp_limb_t)b, (mp_limb_t)(b >> 64)};
    int na = l[1] ? 2 : 1, nb = l[3] ? 2 : 1;
    if (q_room(s, 1 + (size_t)na + (size_t)nb) != EM_OK)
        return EM_ERR_NOMEM;
    mp_limb_t *h = s->ql + s->qlen;
    h[0] = ((mp_limb_t)nb << 32) | (uint32_t)(neg ? -na : na);
    memcpy(h + 1, l, (size_t)na * sizeof *h);
    memcpy(h + 1 + na, l + 2, (size_t)nb * sizeof *h);
    *off = (int64_t)s->qlen;
    s->qlen += 1 + (size_t)na + (size_t)nb;
    return EM_OK;
}

/* One more decimal digit d of the mantissa: leading zeros skipped, 19 significant digits
 * in M, up to 38 in W; 0 when there are more (the exact path takes those). */
static inline int fast_digit(unsigned d, int *sig, uint64_t *M, em_u128 *W)
{
    if (*sig == 0 && d == 0)
        return 1;
    if (++*sig <= 19)
        *M = *M * 10 + d;
    else if (*sig <= 38)
        *W = (*sig == 20 ? (em_u128)*M : *W) * 10 + d;
    else
        return 0;
    return 1;
}

int em_scn_fast_utility(const char *p, size_t n, fast_val *v)
{
    size_t i = 0;
    int neg = 0;
    if (p[0] == '+' || p[0] == '-') {
        neg = p[0] == '-';
        i = 1;
    }
    uint64_t M = 0;
    em_u128 W = 0; /* the mantissa past 19 digits */
    int sig = 0;
    long E = 0;
    size_t i0 = i;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++)
        if (!fast_digit((unsigned)(p[i] - '0'), &sig, &M, &W))
            return 0;
    size_t nd = i - i0;
    if (i < n && p[i] == '.') {
        size_t f0 = ++i;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
            E--;
            if (!fast_digit((unsigned)(p[i] - '0'), &sig, &M, &W))
                return 0;
        }
        nd += i - f0;
    }
    if (nd == 0 || nd > EM_Q_MAX_DIGITS)
        return 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        int eneg = 0;
        if (i < n && (p[i] == '+' || p[i] == '-')) {
            eneg = p[i] == '-';
            i++;
        }
        size_t x0 = i;
        long x = 0;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
            x = x * 10 + (p[i] - '0');
            if (x > 4096)
                return 0;
        }
        if (i == x0)
            return 0;
        E += eneg ? -x : x;
    }
    if (i != n)
        return 0;
    v->neg = neg;
    if (sig > 19) {
        while (W % 10 == 0) {
            W /= 10;
            E++;
        }
        if (W >> 64) /* else M 10^E below, as any 64-bit mantissa */
            return fast_wide(W, E, v);
        M = (uint64_t)W;
    }
    if (M == 0) {
        v->kind = UK_DEC;
        v->m = 0;
        v->e = 0;
        return 1;
    }
    while (M % 10 == 0) {
        M /= 10;
        E++;
    }
    const uint64_t lim = (uint64_t)1 << 62;
    uint64_t r = M;
    if (E >= 0) {
        uint64_t a = M;
        long k = 0;
        while (k < E && a <= (lim - 1) / 10) { /* then 10 a < lim */
            a *= 10;
            k++;
        }
        if (k == E && a < lim) /* else M 10^E >= 2^62: em_scn_classify strips its tens */
            v->m = (int64_t)a, v->e = 0;
        else if (M < lim && E <= UEXP_MAX)
            v->m = (int64_t)M, v->e = E;
        else
            return fast_wide(M, E, v);
        v->kind = UK_DEC;
    } else {
        if (E < UEXP_MIN)
            return 0;
        uint64_t p5 = 1;
        long k = 0;
        while (k < -E && p5 <= M / 5) { /* 5^k, while it may still divide M */
            p5 *= 5;
            k++;
        }
        if (k == -E && M % p5 == 0) {
            r = M / p5;
            v->kind = UK_BIN;
        } else {
            v->kind = UK_DEC;
        }
        if (r >= lim)
            return fast_wide(M, E, v);
        v->m = (int64_t)r;
        v->e = E;
    }
    return 1;
}

void em_scn_get_u(const em_scn *s, size_t i, mpq_t q)
{
    if (s->u) {
        mpq_set(q, s->u[i]);
        return;
    }
    unsigned c = s->ucode[i];
    long e = (long)(c & 0x3fff) + UEXP_MIN;
    switch (c >> 14) {
    case UK_EXCL:
        mpq_set_ui(q, 0, 1);
        return;
    case UK_Q: {
        const mp_limb_t *h = s->ql + s->uv[i];
        int32_t na = (int32_t)(uint32_t)(h[0] & 0xffffffffu);
        mp_size_t nb = (mp_size_t)(h[0] >> 32);
        mpz_t a, b; /* read-only views of the stored limbs (canonical as stored) */
        mpz_set(mpq_numref(q), mpz_roinit_n(a, h + 1, na));
        mpz_set(mpq_denref(q), mpz_roinit_n(b, h + 1 + (na < 0 ? -na : na), nb));
        return;
    }
    case UK_BIN: /* odd numerator over 2^-e: canonical as it stands */
        mpz_set_si(mpq_numref(q), (long)s->uv[i]);
        mpz_set_ui(mpq_denref(q), 1);
        mpz_mul_2exp(mpq_denref(q), mpq_denref(q), (unsigned long)-e);
        return;
    default:
        mpz_set_si(mpq_numref(q), (long)s->uv[i]);
        if (e >= 0) {
            mpz_set_ui(mpq_denref(q), 1);
            if (e > 0) {
                mpz_ui_pow_ui(mpq_denref(q), 10, (unsigned long)e);
                mpz_mul(mpq_numref(q), mpq_numref(q), mpq_denref(q));
                mpz_set_ui(mpq_denref(q), 1);
            }
        } else {
            static const unsigned long p10[20] = {
                1UL, 10UL, 100UL, 1000UL, 10000UL, 100000UL, 1000000UL, 10000000UL,
                100000000UL, 1000000000UL, 10000000000UL, 100000000000UL, 1000000000000UL,
                10000000000000UL, 100000000000000UL, 1000000000000000UL,
                10000000000000000UL, 100000000000000000UL, 1000000000000000000UL,
                10000000000000000000UL};
            if (-e < 20) {
                /* lowest terms without a gcd: the common factor is 2^a 5^b */
                uint64_t a = s->uv[i] < 0 ? -(uint64_t)s->uv[i] : (uint64_t)s->uv[i];
                uint64_t den = p10[-e];
                long k2 = -e, k5 = -e;
                while (k2 > 0 && a != 0 && a % 2 == 0) {
                    a /= 2;
                    den /= 2;
                    k2--;
                }
                while (k5 > 0 && a != 0 && a % 5 == 0) {
                    a /= 5;
                    den /= 5;
                    k5--;
                }
                if (a == 0)
                    den = 1;
                mpz_set_ui(mpq_numref(q), a);
                if (s->uv[i] < 0)
                    mpz_neg(mpq_numref(q), mpq_numref(q));
                mpz_set_ui(mpq_denref(q), den);
            } else {
                mpz_ui_pow_ui(mpq_denref(q), 10, (unsigned long)-e);
                mpq_canonicalize(q);
            }
        }
        return;
    }
}

void em_scn_reader_get(const void *ctx, size_t i, mpq_t q)
{
    em_scn_get_u((const em_scn *)ctx, i, q);
}

/* The double nearest a compact utility without GMP, when one IEEE operation on exact
 * operands gives it (a single correctly rounded operation, round to nearest even as
 * em_q_get_d):
 *   DEC m 10^e: e = 0 (int64 to double rounds once); or |m| <= 2^53 and |e| <= 22
 *     (10^22 < 2^53 * 2^22 is the largest power of ten a double holds exactly): m * 10^e
 *     or m / 10^-e; or |e| <= 19 (the 17-digit doubles of %.17g): m 10^e, or m 2^64 / 10^-e
 *     with its remainder, exactly in 128 bits, rounded once (round_u128);
 *   BIN m 2^e (e < 0): |m| <= 2^53 (m exact, ldexp rounds once, subnormals included),
 *     or e >= -1022 (m 2^e is then a normal double's range: scaling the rounded m is
 *     exact).
 * 1 when *d is set; 0: take the exact path (through mpq and MPFR, many times slower). */
/* (q + f) 2^x rounded to the nearest double (ties to even), f in [0, 1) nonzero iff
 * sticky; the result in double's normal range.  0 (not set) when q has too few bits to
 * place f. */
static int round_u128(em_u128 q, int sticky, int x, double *d)
{
    uint64_t hi = (uint64_t)(q >> 64), lo = (uint64_t)q;
    int nb = hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
    if (nb <= 53) {
        if (sticky)
            return 0;
        *d = ldexp((double)lo, x);
        return 1;
    }
    int sh = nb - 53;
    uint64_t mant = (uint64_t)(q >> sh);
    em_u128 rem = q & ((((em_u128)1) << sh) - 1), half = ((em_u128)1) << (sh - 1);
    if (rem > half || (rem == half && (sticky || (mant & 1))))
        mant++; /* 2^53 at most: still exact */
    *d = ldexp((double)mant, x + sh);
    return 1;
}

static int fast_double(int64_t m, uint16_t code, double *d)
{
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    long e = (long)(code & 0x3fff) + UEXP_MIN;
    switch (code >> 14) {
    case UK_DEC:
        if (e == 0) {
            *d = (double)m;
            return 1;
        }
        if (m <= ((int64_t)1 << 53) && m >= -((int64_t)1 << 53) && e <= 22 && e >= -22) {
            *d = e > 0 ? (double)m * p10[e] : (double)m / p10[-e];
            return 1;
        }
        if (e <= 19 && e >= -19) { /* 10^19 < 2^64; |m| < 2^62 */
            static const uint64_t t10[20] = {
                1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
                100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
                1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
                1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
                1000000000000000000ULL, 10000000000000000000ULL};
            em_u128 a = m < 0 ? -(uint64_t)m : (uint64_t)m;
            int ok;
            if (e > 0) {
                ok = round_u128(a * t10[e], 0, 0, d);
            } else { /* |m| > 2^53: the quotient has at least 54 bits */
                em_u128 num = a << 64;
                ok = round_u128(num / t10[-e], num % t10[-e] != 0, -64, d);
            }
            if (ok && m < 0)
                *d = -*d;
            return ok;
        }
        return 0;
    case UK_BIN:
        if (e < -1022 && (m > ((int64_t)1 << 53) || m < -((int64_t)1 << 53)))
            return 0;
        *d = ldexp((double)m, (int)e);
        return 1;
    default:
        return 0;
    }
}

int em_scn_doubles(em_scn *s, em_error *err)
{
    if (s->ud || s->n == 0)
        return EM_OK;
    double *d = malloc(s->n * sizeof *d);
    if (!d)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < s->n; i++) {
        if (s->excluded[i]) {
            d[i] = -HUGE_VAL;
            continue;
        }
        if (!fast_double(s->uv[i], s->ucode[i], &d[i])) {
            em_scn_get_u(s, i, q);
            d[i] = em_q_get_d(q, NULL);
        }
    }
    mpq_clear(q);
    s->ud = d;
    return EM_OK;
}

int em_scn_expand(em_scn *s, em_error *err)
{
    if (s->u || s->n == 0)
        return EM_OK;
    mpq_t *u = em_q_array_new(s->n);
    if (!u)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < s->n; i++)
        em_scn_get_u(s, i, u[i]);
    s->u = u;
    s->compact = 0;
    return EM_OK;
}
