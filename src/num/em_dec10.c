/* em_dec10.c: exact K-digit decimal rounding of MPFR numbers (em_dec10.h). */
#include "num/em_dec10.h"

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "core/em_round_decide.h"
#include "trusted/em_mpfr.h"

static void init_common(em_dec10 *c, int K)
{
    c->K = K;
    c->npw = 0;
    c->live = 1;
    mpz_inits(c->a, c->r, c->ch, c->p1, c->pK, c->pK1, (mpz_ptr)0);
    mpz_ui_pow_ui(c->pK, 10, (unsigned long)K);
    mpz_ui_pow_ui(c->pK1, 10, (unsigned long)K - 1);
}

int em_dec10_init(em_dec10 *c, int K)
{
    c->live = 0;
    c->pw = malloc((EM_DEC10_MAX_SCALE + 1) * sizeof *c->pw);
    if (!c->pw)
        return EM_ERR_NOMEM;
    init_common(c, K);
    return 0;
}

void em_dec10_init_single(em_dec10 *c, int K)
{
    c->pw = NULL;
    init_common(c, K);
}

void em_dec10_clear(em_dec10 *c)
{
    if (!c->live)
        return;
    for (int s = 0; s < c->npw; s++)
        mpz_clear(c->pw[s]);
    free(c->pw);
    c->pw = NULL;
    c->live = 0;
    mpz_clears(c->a, c->r, c->ch, c->p1, c->pK, c->pK1, (mpz_ptr)0);
}

static mpz_srcptr pow10_of(em_dec10 *c, long s)
{
    if (!c->pw) { /* em_dec10_init_single: the one power, no cache to build */
        mpz_ui_pow_ui(c->p1, 10, (unsigned long)s);
        return c->p1;
    }
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
     * non-zero, as mpz_roinit_n needs; src/trusted/em_mpfr.h, M2) */
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

/* code = 2 floor(2t) + (2t not an integer) of t = |x| 10^s (spec/RoundDecide.acsl: 4
 * floor(t) plus the class of t's fraction: 0, below 1/2, 1/2, above 1/2), exact */
static void code_from(em_dec10 *c, int cmp, int fz, mpz_ptr code)
{
    mpz_mul_2exp(code, c->a, 2);
    mpz_add_ui(code, code, fz ? 0u : cmp < 0 ? 1u : cmp == 0 ? 2u : 3u);
}

static void code_of(em_dec10 *c, mpz_srcptr M, long s, mpfr_exp_t E, mpz_ptr code)
{
    int fz;
    int cmp = scaled_floor(c, M, s, E, &fz);
    code_from(c, cmp, fz, code);
}

/* em_round_decide on the codes cl <= ch, less a multiple of 8 (which translates the reals
 * by an even integer and their rounding by the same: spec/RoundDecide.acsl, Code_Shift and
 * RoundsTo_Shift): 1 with the rounding of every real between in q (which may be cl), or 0;
 * a wider enclosure spans a grid step and is undecided */
static int decide_codes(mpz_srcptr cl, mpz_srcptr ch, mpz_ptr q)
{
    if (mpz_cmp(ch, cl) < 0)
        return 0;
    mpz_t w;
    mpz_init(w);
    mpz_sub(w, ch, cl);
    int wide = mpz_cmp_ui(w, EM_ROUND_DECIDE_SPAN) > 0;
    int64_t a = (int64_t)mpz_fdiv_ui(cl, 8), b = a + (wide ? 0 : (int64_t)mpz_get_ui(w)), m;
    mpz_clear(w);
    if (wide || !em_round_decide(a, b, &m))
        return 0;
    mpz_sub_ui(q, cl, (unsigned long)a); /* 8k */
    mpz_fdiv_q_2exp(q, q, 2);             /* 2k */
    mpz_add_ui(q, q, (unsigned long)m);
    return 1;
}

/* The code of |x| 10^s on the small sizes (as round_small): floor into {f, *fn}
 * (normalised; f has 2 FAST_LIMBS + 2 limbs) and the fraction's class into *k (code_from's
 * 0, 1, 2, 3: zero, below 1/2, 1/2, above 1/2); 0 when beyond them. */
static int code_small(em_dec10 *c, mpfr_srcptr x, long s, mp_limb_t *f, mp_size_t *fn, int *k)
{
    const mp_size_t nl = (mp_size_t)((mpfr_get_prec(x) - 1) / GMP_NUMB_BITS + 1);
    const mpfr_exp_t E = mpfr_get_exp(x) - (mpfr_exp_t)nl * GMP_NUMB_BITS; /* M2 */
    mp_limb_t t[2 * FAST_LIMBS + 1];
    mp_size_t tn;
    if (s < 0 || s > EM_DEC10_MAX_SCALE || E >= 0 ||
        !mul_pow10(c, (const mp_limb_t *)mpfr_custom_get_significand(x), nl, s, t, &tn))
        return 0;
    const mp_bitcnt_t j = (mp_bitcnt_t)(-E), h = j - 1;
    if (j >= (mp_bitcnt_t)tn * GMP_NUMB_BITS)
        return 0;
    const int half = (int)((t[h / GMP_NUMB_BITS] >> (h % GMP_NUMB_BITS)) & 1);
    const int below = low_bits(t, h);
    *k = half ? (below ? 3 : 2) : (below ? 1 : 0);
    shift_down(t, tn, j, f, fn);
    return 1;
}

/* em_dec10_decide on the small sizes: the same codes as code_of's, on limb arrays on the
 * stack (the oracle decides two enclosures per candidate; mpz's calls and decide_codes'
 * allocation cost more than the arithmetic), and the same decision, em_round_decide's.
 * 1 / 0 as em_dec10_decide; -1 when not handled (beyond the small sizes, an estimate off
 * by more than the loop allows, or |xh| in a later decade than |xl|): the mpz code then
 * decides from the start. */
static int decide_small(em_dec10 *c, mpfr_srcptr xl, mpfr_srcptr xh, long e, mpz_ptr q,
                        long *ex)
{
    const long K = c->K;
    const mp_size_t kn = (mp_size_t)mpz_size(c->pK), k1n = (mp_size_t)mpz_size(c->pK1);
    if (kn > FAST_LIMBS)
        return -1;
    const mp_limb_t *pK = mpz_limbs_read(c->pK), *pK1 = mpz_limbs_read(c->pK1);
    mp_limb_t fl[2 * FAST_LIMBS + 2], fh[2 * FAST_LIMBS + 2];
    mp_size_t fln, fhn;
    int kl, kh;
    /* the decade of |xl|: 10^(K-1) <= floor(|xl| 10^(K-e)) < 10^K, as em_dec10_decide */
    for (int tries = 0;; tries++) {
        if (tries > 4 || !code_small(c, xl, K - e, fl, &fln, &kl))
            return -1;
        if (cmp_limbs(fl, fln, pK, kn) >= 0)
            e++;
        else if (cmp_limbs(fl, fln, pK1, k1n) < 0)
            e--;
        else
            break;
    }
    if (!code_small(c, xh, K - e, fh, &fhn, &kh) || cmp_limbs(fh, fhn, pK, kn) >= 0)
        return -1;
    /* codes cl = 4 fl + kl, ch = 4 fh + kh: decide_codes' width ch - cl and residue cl mod 8 */
    const int order = cmp_limbs(fh, fhn, fl, fln);
    if (order < 0)
        return 0; /* ch < cl */
    int64_t w = (int64_t)kh - kl;
    if (order > 0) {
        mp_limb_t d[2 * FAST_LIMBS + 2];
        mpn_sub(d, fh, fhn, fl, fln); /* fhn >= fln: both normalised, fh > fl */
        if (normal_size(d, fhn) > 1 || d[0] > EM_ROUND_DECIDE_SPAN)
            return 0; /* ch - cl >= 4 d - 3 > EM_ROUND_DECIDE_SPAN */
        w += 4 * (int64_t)d[0];
    }
    if (w < 0 || w > EM_ROUND_DECIDE_SPAN)
        return 0;
    const int64_t a = 4 * (int64_t)(fl[0] & 1) + kl; /* cl mod 8; fln >= 1 as fl >= 10^(K-1) */
    int64_t m;
    if (!em_round_decide(a, a + w, &m))
        return 0;
    /* q = (cl - a) / 4 + m = fl - (fl mod 2) + m */
    fl[0] &= ~(mp_limb_t)1;
    const mp_limb_t cy = mpn_add_1(fl, fl, fln, (mp_limb_t)m);
    if (cy)
        fl[fln++] = cy;
    fln = normal_size(fl, fln);
    if (cmp_limbs(fl, fln, pK, kn) == 0) {
        /* past the decade's end: 10^K 10^(e-K) is 10^(K-1) 10^(e+1-K), K digits */
        mpn_copyi(fl, pK1, k1n);
        fln = k1n;
        e++;
    }
    mpn_copyi(mpz_limbs_write(q, fln), fl, fln);
    mpz_limbs_finish(q, fln);
    *ex = e;
    return 1;
}

int em_dec10_decide(em_dec10 *c, mpfr_srcptr lo, mpfr_srcptr hi, mpz_ptr q, long *ex)
{
    if (!mpfr_regular_p(lo) || !mpfr_regular_p(hi) || mpfr_sgn(lo) != mpfr_sgn(hi))
        return -1;
    /* the end of least magnitude sets the grid */
    mpfr_srcptr xl = mpfr_sgn(lo) > 0 ? lo : hi, xh = mpfr_sgn(lo) > 0 ? hi : lo;
    mpfr_exp_t eb = mpfr_get_exp(xl), ebh = mpfr_get_exp(xh);
    if (eb > 4 * EM_DEC10_MAX_SCALE || eb < -4 * EM_DEC10_MAX_SCALE ||
        ebh > 4 * EM_DEC10_MAX_SCALE || ebh < -4 * EM_DEC10_MAX_SCALE)
        return -1;
    const int K = c->K;
    long e = (long)floor((double)(eb - 1) * 0.30102999566398119521) + 1; /* as em_dec10_round */
    const int small = decide_small(c, xl, xh, e, q, ex);
    if (small >= 0)
        return small;
    mpz_t Ml, Mh;
    mpfr_exp_t El = em_mpfr_sig(xl, Ml), Eh = em_mpfr_sig(xh, Mh);
    /* the decade of |xl|: 10^(K-1) <= floor(|xl| 10^(K-e)) < 10^K, checked exactly; then
     * |xl|'s code on that grid */
    mpz_ptr cl = q, ch = c->ch; /* code_of's scratch is c->a and c->r */
    for (int tries = 0;; tries++) {
        long s = (long)K - e;
        if (s > EM_DEC10_MAX_SCALE || s < -EM_DEC10_MAX_SCALE || tries > 4)
            return -1;
        int fz, cmp = scaled_floor(c, Ml, s, El, &fz);
        if (mpz_cmp(c->a, c->pK) >= 0) {
            e++;
        } else if (mpz_cmp(c->a, c->pK1) < 0) {
            e--;
        } else {
            code_from(c, cmp, fz, cl);
            break;
        }
    }
    const long s = (long)K - e;
    code_of(c, Mh, s, Eh, ch);
    mpz_mul_2exp(c->a, c->pK, 2);
    if (mpz_cmp(ch, c->a) >= 0) {
        /* |xh| is in a later decade, on a grid ten times coarser: every real between rounds
         * alike (K-digit rounding being monotone) when |xl| rounds up to 10^K on its grid
         * and |xh| down to 10^(K-1) on the next, both 10^e */
        if (!decide_codes(cl, cl, q) || mpz_cmp(q, c->pK) != 0)
            return 0;
        code_of(c, Mh, s - 1, Eh, ch);
        mpz_mul_2exp(c->a, c->pK, 2);
        if (mpz_cmp(ch, c->a) >= 0 || !decide_codes(ch, ch, q) || mpz_cmp(q, c->pK1) != 0)
            return 0;
        *ex = e + 1;
        return 1;
    }
    if (!decide_codes(cl, ch, q))
        return 0;
    /* past the decade's end: 10^K 10^(e-K) is 10^(K-1) 10^(e+1-K), K digits */
    if (mpz_cmp(q, c->pK) == 0) {
        mpz_set(q, c->pK1);
        e++;
    }
    *ex = e;
    return 1;
}
