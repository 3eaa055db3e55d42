/* em_dec10.c: exact K-digit decimal rounding of MPFR numbers (em_dec10.h). */
#include "num/em_dec10.h"

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"

int em_dec10_init(em_dec10 *c, int K)
{
    c->K = K;
    c->npw = 0;
    c->pw = malloc((EM_DEC10_MAX_SCALE + 1) * sizeof *c->pw);
    if (!c->pw)
        return EM_ERR_NOMEM;
    mpz_inits(c->a, c->r, c->pK, c->pK1, (mpz_ptr)0);
    mpz_ui_pow_ui(c->pK, 10, (unsigned long)K);
    mpz_ui_pow_ui(c->pK1, 10, (unsigned long)K - 1);
    return 0;
}

void em_dec10_clear(em_dec10 *c)
{
    if (!c->pw)
        return;
    for (int s = 0; s < c->npw; s++)
        mpz_clear(c->pw[s]);
    free(c->pw);
    c->pw = NULL;
    mpz_clears(c->a, c->r, c->pK, c->pK1, (mpz_ptr)0);
}

static mpz_srcptr pow10_of(em_dec10 *c, long s)
{
    while (c->npw <= s) {
        mpz_init(c->pw[c->npw]);
        if (c->npw == 0)
            mpz_set_ui(c->pw[0], 1);
        else
            mpz_mul_ui(c->pw[c->npw], c->pw[c->npw - 1], 10);
        c->npw++;
    }
    return c->pw[s];
}

/* floor(|x| 10^s) into c->a and the comparison of the fraction with 1/2: -1 below, 0 a
 * tie, +1 above; *fz: the fraction is 0. */
static int scaled_floor(em_dec10 *c, mpz_srcptr M, long s, mpfr_exp_t E, int *fz)
{
    /* |x| 10^s = M 10^s 2^E */
    mpz_ptr a = c->a;
    if (s >= 0) {
        mpz_mul(a, M, pow10_of(c, s));
        if (E >= 0) {
            mpz_mul_2exp(a, a, (mp_bitcnt_t)E);
            *fz = 1;
            return -1; /* an integer: no fraction */
        }
        mp_bitcnt_t j = (mp_bitcnt_t)(-E);
        /* fraction = (a mod 2^j) / 2^j: its bit j-1 is the half, the bits below decide
         * above or exactly half */
        int half = mpz_tstbit(a, j - 1);
        mp_bitcnt_t low = mpz_scan1(a, 0); /* a > 0 */
        int cmp;
        if (!half)
            cmp = -1;
        else
            cmp = low < j - 1 ? 1 : 0;
        *fz = low >= j;
        mpz_fdiv_q_2exp(a, a, j);
        return cmp;
    }
    /* s < 0: divide by 10^-s (and 2^-E when E < 0) */
    mpz_ptr r = c->r;
    if (E >= 0) {
        mpz_mul_2exp(a, M, (mp_bitcnt_t)E);
        mpz_set(r, pow10_of(c, -s));
    } else {
        mpz_set(a, M);
        mpz_mul_2exp(r, pow10_of(c, -s), (mp_bitcnt_t)(-E));
    }
    /* r = the denominator d; a = floor(a / d), remainder compared with d/2 */
    mpz_ptr d = r;
    mpz_t rem;
    mpz_init(rem);
    mpz_fdiv_qr(a, rem, a, d);
    *fz = mpz_sgn(rem) == 0;
    mpz_mul_2exp(rem, rem, 1);
    int cmp = mpz_cmp(rem, d);
    mpz_clear(rem);
    return cmp > 0 ? 1 : cmp < 0 ? -1 : 0;
}

/* ex = floor(log10 |x|) + 1 is e or e + 1 for e = floor((eb - 1) log10 2) + 1, as
 * 2^(eb-1) <= |x| < 2^eb (the double product is far from an integer for |eb| <= 4800:
 * the nearest is 1/13301 away; either way the digit count is checked exactly) */
static long dec_exp_estimate(mpfr_exp_t eb)
{
    return (long)floor((double)(eb - 1) * 0.30102999566398119521) + 1;
}

/* ---------------------------------------------------------------- small sizes
 *
 * The same computations on limb arrays on the stack, for the common case: 10^s with
 * 0 <= s, E < 0, and every operand within FAST_LIMBS limbs (at 40 digits: decimal exponents
 * down to about -750).  mpz's allocation checks and calls cost more than the arithmetic at
 * these sizes.  Anything else (or an estimate e off by a digit in the wrong direction)
 * returns "not handled" and the mpz code above decides. */
#define FAST_LIMBS 40

/* compare {a, an} with {b, bn}, both normalised (top limb non-zero, or size 0) */
static int cmp_limbs(const mp_limb_t *a, mp_size_t an, const mp_limb_t *b, mp_size_t bn)
{
    if (an != bn)
        return an < bn ? -1 : 1;
    return an ? mpn_cmp(a, b, an) : 0;
}

static mp_size_t normal_size(const mp_limb_t *a, mp_size_t n)
{
    while (n > 0 && a[n - 1] == 0)
        n--;
    return n;
}

/* {t, *tn} = M 10^s, normalised; 0 when beyond the small sizes */
static int mul_pow10(em_dec10 *c, const mp_limb_t *m, mp_size_t nl, long s, mp_limb_t *t,
                     mp_size_t *tn)
{
    mpz_srcptr P = pow10_of(c, s);
    const mp_size_t pn = (mp_size_t)mpz_size(P);
    if (nl > FAST_LIMBS || pn > FAST_LIMBS || pn == 0)
        return 0;
    const mp_limb_t *pd = mpz_limbs_read(P);
    if (nl >= pn)
        mpn_mul(t, m, nl, pd, pn);
    else
        mpn_mul(t, pd, pn, m, nl);
    *tn = normal_size(t, nl + pn);
    return 1;
}

/* any of the k lowest bits of {t, tn} set (k < tn GMP_NUMB_BITS) */
static int low_bits(const mp_limb_t *t, mp_bitcnt_t k)
{
    const mp_size_t kl = (mp_size_t)(k / GMP_NUMB_BITS);
    const unsigned kb = (unsigned)(k % GMP_NUMB_BITS);
    if (kb && (t[kl] & (((mp_limb_t)1 << kb) - 1)) != 0)
        return 1;
    for (mp_size_t i = 0; i < kl; i++)
        if (t[i])
            return 1;
    return 0;
}

/* {f, *fn} = floor({t, tn} / 2^k), normalised (k < tn GMP_NUMB_BITS) */
static void shift_down(const mp_limb_t *t, mp_size_t tn, mp_bitcnt_t k, mp_limb_t *f,
                       mp_size_t *fn)
{
    const mp_size_t kl = (mp_size_t)(k / GMP_NUMB_BITS);
    const unsigned kb = (unsigned)(k % GMP_NUMB_BITS);
    const mp_size_t n = tn - kl;
    if (kb)
        mpn_rshift(f, t + kl, n, kb);
    else
        mpn_copyi(f, t + kl, n);
    *fn = normal_size(f, n);
}

/* em_dec10_round's loop body for the estimate e, as scaled_floor and the digit count
 * there: 1 with q, *ex set, or 0 (not handled).  t (2 FAST_LIMBS + 1 limbs) keeps the
 * product M 10^s, s = K - e, on nl + size(10^s) limbs. */
static int round_small(em_dec10 *c, const mp_limb_t *m, mp_size_t nl, mpfr_exp_t E, long e,
                       mpz_ptr q, long *ex, mp_limb_t *t)
{
    const long s = (long)c->K - e;
    const mp_size_t kn = (mp_size_t)mpz_size(c->pK), k1n = (mp_size_t)mpz_size(c->pK1);
    if (s < 0 || s > EM_DEC10_MAX_SCALE || E >= 0 || kn > FAST_LIMBS)
        return 0;
    mp_limb_t f[2 * FAST_LIMBS + 2];
    mp_size_t tn, fn;
    if (!mul_pow10(c, m, nl, s, t, &tn))
        return 0;
    const mp_bitcnt_t j = (mp_bitcnt_t)(-E);
    if (j >= (mp_bitcnt_t)tn * GMP_NUMB_BITS)
        return 0;
    /* the fraction's half bit j-1 and the bits below it */
    const mp_bitcnt_t h = j - 1;
    const int half = (int)((t[h / GMP_NUMB_BITS] >> (h % GMP_NUMB_BITS)) & 1);
    const int below = low_bits(t, h);
    int cmp = half ? (below ? 1 : 0) : -1;
    const int fz = !half && !below;
    shift_down(t, tn, j, f, &fn);
    const mp_limb_t *pK = mpz_limbs_read(c->pK), *pK1 = mpz_limbs_read(c->pK1);
    if (cmp_limbs(f, fn, pK, kn) >= 0) {
        /* one digit too many, as in em_dec10_round */
        mp_limb_t r = mpn_divrem_1(f, 0, f, fn, 10);
        fn = normal_size(f, fn);
        cmp = r > 5 ? 1 : r < 5 ? -1 : fz ? 0 : 1;
        e++;
        if (cmp_limbs(f, fn, pK, kn) >= 0)
            return 0;
    }
    if (cmp_limbs(f, fn, pK1, k1n) < 0)
        return 0;
    if (cmp > 0 || (cmp == 0 && (f[0] & 1))) {
        mp_limb_t cy = mpn_add_1(f, f, fn, 1);
        if (cy)
            f[fn++] = cy;
        if (cmp_limbs(f, fn, pK, kn) == 0) {
            mpn_copyi(f, pK1, k1n);
            fn = k1n;
            e++;
        }
    }
    mp_limb_t *qd = mpz_limbs_write(q, fn);
    mpn_copyi(qd, f, fn);
    mpz_limbs_finish(q, fn);
    *ex = e;
    return 1;
}

/* below_cell_top's comparison M 2^sh 10^s against 2q + 1 for sh < 0, s >= 0: with
 * A = M 10^s and k = -sh, A < (2q+1) 2^k exactly when floor(A / 2^k) < 2q + 1, and
 * A = (2q+1) 2^k when floor(A / 2^k) = 2q + 1 with no bits below.  -1: not handled. */
static int top_small(em_dec10 *c, const mp_limb_t *m, mp_size_t nl, mpfr_exp_t sh, long s,
                     mpz_srcptr q)
{
    const mp_size_t qn = (mp_size_t)mpz_size(q);
    if (s < 0 || sh >= 0 || qn == 0 || qn > FAST_LIMBS)
        return -1;
    mp_limb_t t[2 * FAST_LIMBS + 1], hbuf[2 * FAST_LIMBS + 1], b[FAST_LIMBS + 1];
    mp_size_t tn, hn;
    if (!mul_pow10(c, m, nl, s, t, &tn))
        return -1;
    mp_limb_t cy = mpn_lshift(b, mpz_limbs_read(q), qn, 1);
    mp_size_t bn = qn;
    if (cy)
        b[bn++] = cy;
    b[0] |= 1;
    const mp_bitcnt_t k = (mp_bitcnt_t)(-sh);
    if (k >= (mp_bitcnt_t)tn * GMP_NUMB_BITS)
        return 1; /* A < 2^k <= (2q+1) 2^k */
    shift_down(t, tn, k, hbuf, &hn);
    int cmp = cmp_limbs(hbuf, hn, b, bn);
    if (cmp == 0 && low_bits(t, k))
        cmp = 1;
    return cmp < 0 || (cmp == 0 && mpz_even_p(q));
}

int em_dec10_round(em_dec10 *c, mpfr_srcptr x, mpz_ptr q, long *ex)
{
    if (!mpfr_regular_p(x))
        return 0;
    mpfr_exp_t eb = mpfr_get_exp(x);
    if (eb > 4 * EM_DEC10_MAX_SCALE || eb < -4 * EM_DEC10_MAX_SCALE)
        return 0;
    const int K = c->K;
    long e = dec_exp_estimate(eb);
    /* |x| = M 2^E with M the significand's limbs read in place (no copy; the top limb is
     * non-zero, as mpz_roinit_n needs) */
    const mp_size_t nl = (mp_size_t)((mpfr_get_prec(x) - 1) / GMP_NUMB_BITS + 1);
    mpz_t Mx;
    mpz_roinit_n(Mx, (const mp_limb_t *)mpfr_custom_get_significand(x), nl);
    mpfr_exp_t E = eb - (mpfr_exp_t)nl * GMP_NUMB_BITS;
    mp_limb_t t[2 * FAST_LIMBS + 1];
    if (round_small(c, (const mp_limb_t *)mpfr_custom_get_significand(x), nl, E, e, q, ex, t))
        return 1;
    for (int tries = 0;; tries++) {
        long s = (long)K - e;
        if (s > EM_DEC10_MAX_SCALE || s < -EM_DEC10_MAX_SCALE || tries > 4)
            return 0;
        int fz;
        int cmp = scaled_floor(c, Mx, s, E, &fz);
        /* 10^(K-1) <= floor < 10^K exactly when e is the decimal exponent */
        if (mpz_cmp(c->a, c->pK) >= 0) {
            /* one digit too many: floor(a / 10), and the new fraction (r + f) / 10 against
             * 1/2 from the dropped digit r and the old fraction f in [0, 1) */
            unsigned long r = mpz_fdiv_q_ui(c->a, c->a, 10);
            cmp = r > 5 ? 1 : r < 5 ? -1 : fz ? 0 : 1;
            e++;
            if (mpz_cmp(c->a, c->pK) >= 0)
                continue;
        }
        if (mpz_cmp(c->a, c->pK1) < 0) {
            e--;
            continue;
        }
        if (cmp > 0 || (cmp == 0 && mpz_odd_p(c->a))) {
            mpz_add_ui(c->a, c->a, 1);
            if (mpz_cmp(c->a, c->pK) == 0) {
                mpz_set(c->a, c->pK1);
                e++;
            }
        }
        mpz_swap(q, c->a);
        *ex = e;
        return 1;
    }
}

/* |y| below the top (q + 1/2) 10^(ex-K) of q's rounding cell, or on it with q even (the
 * tie goes to q): exactly, as M 2^(E+1) 10^s against 2q + 1 with s = K - ex.  -1 when
 * declined (y not regular, or a scale beyond the cache). */
static int below_cell_top(em_dec10 *c, mpfr_srcptr y, mpz_srcptr q, long ex)
{
    if (!mpfr_regular_p(y))
        return -1;
    mpfr_exp_t eb = mpfr_get_exp(y);
    long s = (long)c->K - ex;
    if (eb > 4 * EM_DEC10_MAX_SCALE || eb < -4 * EM_DEC10_MAX_SCALE ||
        s > EM_DEC10_MAX_SCALE || s < -EM_DEC10_MAX_SCALE)
        return -1;
    const mp_size_t nl = (mp_size_t)((mpfr_get_prec(y) - 1) / GMP_NUMB_BITS + 1);
    mpz_t M;
    mpz_roinit_n(M, (const mp_limb_t *)mpfr_custom_get_significand(y), nl);
    mpfr_exp_t sh = eb - (mpfr_exp_t)nl * GMP_NUMB_BITS + 1; /* |y| 2 = M 2^sh */
    int r = top_small(c, (const mp_limb_t *)mpfr_custom_get_significand(y), nl, sh, s, q);
    if (r >= 0)
        return r;
    mpz_ptr A = c->a, B = c->r;
    mpz_mul_2exp(B, q, 1);
    mpz_add_ui(B, B, 1);
    if (s >= 0) {
        mpz_mul(A, M, pow10_of(c, s));
    } else {
        mpz_set(A, M);
        mpz_mul(B, B, pow10_of(c, -s));
    }
    if (sh >= 0)
        mpz_mul_2exp(A, A, (mp_bitcnt_t)sh);
    else
        mpz_mul_2exp(B, B, (mp_bitcnt_t)(-sh));
    int cmp = mpz_cmp(A, B);
    return cmp < 0 || (cmp == 0 && mpz_even_p(q));
}

/* Round-to-nearest is monotone in the magnitude: every value from the end nearer zero,
 * x0 (rounding to q), up to the top of q's cell rounds to q, and everything beyond the
 * top to a larger decimal.  So the far end x1 rounds to q exactly when it is below the
 * top (or on it, the tie going to q), and then so does every value between the ends. */
/* below_cell_top for ends with the same exponent and size, from x0's product
 * t = M0 10^s (round_small's, s = K - e for its estimate e, on tfull limbs): with
 * |x_i| = M_i 2^E and d = ex - e, |x1| < (q + 1/2) 10^(ex-K) exactly when
 * T1 = M1 10^s < (2q + 1) 10^d 2^(-E-1), and T1 = t + (M1 - M0) 10^s costs a
 * multiplication by one limb, not a second product.  t is overwritten; -1: not handled
 * (M1 - M0 beyond one limb, or negative). */
static int top_shared(em_dec10 *c, mp_limb_t *t, mp_size_t tfull, const mp_limb_t *m0,
                      const mp_limb_t *m1, mp_size_t nl, mpfr_exp_t E, long s, long d,
                      mpz_srcptr q)
{
    const mp_size_t qn = (mp_size_t)mpz_size(q);
    mp_limb_t dl[FAST_LIMBS], h[2 * FAST_LIMBS + 1], b[FAST_LIMBS + 2];
    if (nl > FAST_LIMBS || d < 0 || d > 1 || qn == 0 || qn > FAST_LIMBS)
        return -1; /* d = 2 cannot occur: |x0| < 2^eb < 2 10^e never rounds up to 10^(e+1) */
    if (mpn_sub_n(dl, m1, m0, nl) != 0)
        return -1;
    const mp_size_t dn = normal_size(dl, nl);
    if (dn > 1)
        return -1;
    if (dn == 1) {
        mpz_srcptr P = pow10_of(c, s);
        const mp_size_t pn = (mp_size_t)mpz_size(P);
        mp_limb_t cy = mpn_addmul_1(t, mpz_limbs_read(P), pn, dl[0]);
        if (cy && tfull > pn)
            cy = mpn_add_1(t + pn, t + pn, tfull - pn, cy);
        if (cy)
            return -1; /* not reached: T1 = M1 10^s < 2^(64 nl) 10^s fits tfull limbs */
    }
    const mp_size_t tn = normal_size(t, tfull);
    mp_limb_t cy = mpn_lshift(b, mpz_limbs_read(q), qn, 1);
    mp_size_t bn = qn;
    if (cy)
        b[bn++] = cy;
    b[0] |= 1;
    if (d > 0) {
        cy = mpn_mul_1(b, b, bn, 10);
        if (cy)
            b[bn++] = cy;
    }
    const mp_bitcnt_t k = (mp_bitcnt_t)(-E - 1);
    if (k >= (mp_bitcnt_t)tn * GMP_NUMB_BITS)
        return 1; /* T1 < 2^k <= (2q+1) 10^d 2^k */
    mp_size_t hn;
    shift_down(t, tn, k, h, &hn);
    int cmp = cmp_limbs(h, hn, b, bn);
    if (cmp == 0 && low_bits(t, k))
        cmp = 1;
    return cmp < 0 || (cmp == 0 && mpz_even_p(q));
}

int em_dec10_same(em_dec10 *c, mpfr_srcptr lo, mpfr_srcptr hi, mpz_ptr q, long *ex)
{
    if (!mpfr_regular_p(lo) || !mpfr_regular_p(hi) || mpfr_sgn(lo) != mpfr_sgn(hi))
        return -1;
    mpfr_srcptr x0 = mpfr_sgn(lo) > 0 ? lo : hi, x1 = mpfr_sgn(lo) > 0 ? hi : lo;
    const mpfr_exp_t eb = mpfr_get_exp(x0);
    const mp_size_t nl = (mp_size_t)((mpfr_get_prec(x0) - 1) / GMP_NUMB_BITS + 1);
    if (eb == mpfr_get_exp(x1) && nl == (mp_size_t)((mpfr_get_prec(x1) - 1) / GMP_NUMB_BITS + 1) &&
        eb <= 4 * EM_DEC10_MAX_SCALE && eb >= -4 * EM_DEC10_MAX_SCALE) {
        /* the common case: one product for both ends */
        const mp_limb_t *m0 = (const mp_limb_t *)mpfr_custom_get_significand(x0);
        const mpfr_exp_t E = eb - (mpfr_exp_t)nl * GMP_NUMB_BITS;
        const long e = dec_exp_estimate(eb), s = (long)c->K - e;
        mp_limb_t t[2 * FAST_LIMBS + 1];
        if (round_small(c, m0, nl, E, e, q, ex, t)) {
            const mp_size_t tfull = nl + (mp_size_t)mpz_size(pow10_of(c, s));
            int r = top_shared(c, t, tfull, m0, (const mp_limb_t *)mpfr_custom_get_significand(x1),
                               nl, E, s, *ex - e, q);
            return r >= 0 ? r : below_cell_top(c, x1, q, *ex);
        }
    }
    if (!em_dec10_round(c, x0, q, ex))
        return -1;
    return below_cell_top(c, x1, q, *ex);
}

static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                            "25262728293031323334353637383940414243444546474849"
                            "50515253545556575859606162636465666768697071727374"
                            "75767778798081828384858687888990919293949596979899";

/* the n lowest decimal digits of w (w < 10^n) ending at d + n, two at a time */
static void word_digits(char *d, int n, unsigned long w)
{
    while (n >= 2) {
        unsigned long r = w % 100;
        w /= 100;
        n -= 2;
        d[n] = pairs[2 * r];
        d[n + 1] = pairs[2 * r + 1];
    }
    if (n)
        d[0] = (char)('0' + w);
}

/* the 8 digits of x < 10^8, in 32-bit arithmetic (divisions by constants are
 * multiplications) */
static void digits8(char *d, uint32_t x)
{
    uint32_t hi = x / 10000, lo = x % 10000;
    uint32_t a = hi / 100, b = hi % 100, c2 = lo / 100, e = lo % 100;
    memcpy(d, pairs + 2 * a, 2);
    memcpy(d + 2, pairs + 2 * b, 2);
    memcpy(d + 4, pairs + 2 * c2, 2);
    memcpy(d + 6, pairs + 2 * e, 2);
}

/* the 19 digits of w < 10^19: 3 + 8 + 8 */
static void digits19(char *d, uint64_t w)
{
    uint64_t top = w / 10000000000000000ULL, rest = w % 10000000000000000ULL;
    word_digits(d, 3, (unsigned long)top);
    digits8(d + 3, (uint32_t)(rest / 100000000U));
    digits8(d + 11, (uint32_t)(rest % 100000000U));
}

__extension__ typedef unsigned __int128 u128;

/* (hi 2^64 + lo) / d and its remainder, for hi < d (the quotient fits a word): one divq
 * on x86-64 rather than libgcc's general 128-bit division */
static inline uint64_t div_word(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *rem)
{
#if defined(__x86_64__) && defined(__GNUC__)
    uint64_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
    *rem = r;
    return q;
#else
    u128 cur = ((u128)hi << 64) | lo;
    *rem = (uint64_t)(cur % d);
    return (uint64_t)(cur / d);
#endif
}

void em_dec10_digits(em_dec10 *c, mpz_srcptr q, char *d)
{
    /* 19 digits at a time from the right (10^19 < 2^64): each chunk one pass of word
     * divisions over q's limbs, copied to a small array */
    const unsigned long P19 = 10000000000000000000UL;
    int left = c->K;
    d[left] = 0;
    size_t n = mpz_size(q);
    mp_limb_t w[8];
    if (GMP_NUMB_BITS != 64 || sizeof(unsigned long) != 8 || n > 8) {
        mpz_set(c->r, q);
        while (left > 19) {
            unsigned long r = mpz_fdiv_q_ui(c->r, c->r, P19);
            left -= 19;
            digits19(d + left, (uint64_t)r);
        }
        word_digits(d, left, mpz_get_ui(c->r)); /* < 10^left */
        return;
    }
    for (size_t k = 0; k < n; k++)
        w[k] = mpz_getlimbn(q, (mp_size_t)k);
    while (left > 19) {
        uint64_t r = 0;
        for (size_t k = n; k-- > 0;)
            w[k] = (mp_limb_t)div_word(r, (uint64_t)w[k], P19, &r);
        while (n > 0 && w[n - 1] == 0)
            n--;
        left -= 19;
        digits19(d + left, r);
    }
    word_digits(d, left, n ? (unsigned long)w[0] : 0UL); /* < 10^left */
}
