/* test_mpfr_contract.c: the contracts of src/trusted/em_mpfr.h (proofs/TRUSTED.md, entry
 * "MPFR and GMP") against independent evaluations: M1, each directed rounding of exp,
 * expm1, exp10, log, log_ui, log1p, add, sub, mul, div, set_q, against exact rationals (field operations)
 * or exact rational Taylor sums with a remainder bound (exp, expm1; log and log1p through
 * them), and adjacent (down and up one unit apart, or equal and exact); M2, the significand
 * read in place against mpfr_get_z_2exp; M3, GMP's integer division and product against
 * word arithmetic modulo small primes, and its limb-array forms (mpn_*) against residues
 * computed here; M4, mpfr_get_str's K digits against an exact
 * rational rounding written here (ties to even). */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "trusted/em_mpfr.h"
#include "trusted/em_mpfr_acsl.h"

static gmp_randstate_t rs;

/* [x] exactly, through mpfr_get_z_2exp (not the reading M2 tests) */
static void exact_q(mpq_t q, mpfr_srcptr x)
{
    if (mpfr_zero_p(x)) { /* (mpfr_get_z_2exp gives 0 the least exponent: a 2^30-bit shift) */
        mpq_set_ui(q, 0, 1);
        return;
    }
    mpz_t m;
    mpz_init(m);
    mpfr_exp_t e = mpfr_get_z_2exp(m, x);
    mpq_set_z(q, m);
    if (e >= 0)
        mpz_mul_2exp(mpq_numref(q), mpq_numref(q), (mp_bitcnt_t)e);
    else
        mpz_mul_2exp(mpq_denref(q), mpq_denref(q), (mp_bitcnt_t)-e);
    mpq_canonicalize(q);
    mpz_clear(m);
}

/* [lo, hi] around exp(r) (with_one 1) or exp(r) - 1 (0): the Taylor sum to N terms and,
 * once the terms shrink by half at least (k + 1 > 2|r|), the tail below twice the next
 * term; N where that term is below 2^-(bits) */
static void exp_enclose(mpq_t lo, mpq_t hi, const mpq_t r, int with_one, long bits)
{
    mpq_t t, ar, bnd, eps;
    mpq_inits(t, ar, bnd, eps, (mpq_ptr)0);
    mpq_abs(ar, r);
    mpq_set_ui(eps, 1, 1);
    mpz_mul_2exp(mpq_denref(eps), mpq_denref(eps), (mp_bitcnt_t)bits);
    mpq_set_ui(lo, with_one ? 1 : 0, 1);
    mpq_set_ui(t, 1, 1); /* r^k / k! */
    for (unsigned long k = 1;; k++) {
        mpq_mul(t, t, r);
        mpz_mul_ui(mpq_denref(t), mpq_denref(t), k);
        mpq_canonicalize(t);
        mpq_add(lo, lo, t);
        /* the next term's size bounds half the tail once the ratio |r|/(k+2) <= 1/2 */
        mpq_abs(bnd, t);
        mpq_mul(bnd, bnd, ar);
        mpz_mul_ui(mpq_denref(bnd), mpq_denref(bnd), k + 1);
        mpq_canonicalize(bnd);
        mpq_t two_r;
        mpq_init(two_r);
        mpq_add(two_r, ar, ar);
        int shrinking = mpq_cmp_ui(two_r, k + 2, 1) <= 0;
        mpq_clear(two_r);
        if (shrinking && mpq_cmp(bnd, eps) < 0)
            break;
    }
    mpq_add(bnd, bnd, bnd);
    mpq_add(hi, lo, bnd);
    mpq_sub(lo, lo, bnd);
    mpq_clears(t, ar, bnd, eps, (mpq_ptr)0);
}

/* down and up are adjacent numbers (equal only when exact) */
static void adjacent(mpfr_srcptr d, mpfr_srcptr u, int exact)
{
    mpfr_t n;
    mpfr_init2(n, mpfr_get_prec(d));
    mpfr_set(n, d, MPFR_RNDN);
    if (!exact)
        mpfr_nextabove(n);
    ck_assert_msg(mpfr_equal_p(n, u), "directed results not adjacent");
    mpfr_clear(n);
}

static void random_x(mpfr_t x, long lo2, long span2)
{
    mpfr_urandomb(x, rs);
    mpfr_mul_2si(x, x, lo2 + (long)gmp_urandomm_ui(rs, (unsigned long)span2), MPFR_RNDN);
    if (gmp_urandomm_ui(rs, 2))
        mpfr_neg(x, x, MPFR_RNDN);
}

#define NPTS 300

START_TEST(field_ops)
{
    for (int i = 0; i < NPTS; i++) {
        mpfr_prec_t p = 24 + (mpfr_prec_t)gmp_urandomm_ui(rs, 200);
        mpfr_t a, b, d, u;
        mpfr_inits2(p, a, b, d, u, (mpfr_ptr)0);
        random_x(a, -40, 80);
        random_x(b, -40, 80);
        if (mpfr_zero_p(b))
            mpfr_set_ui(b, 3, MPFR_RNDN);
        mpq_t qa, qb, ex, qd, qu;
        mpq_inits(qa, qb, ex, qd, qu, (mpq_ptr)0);
        exact_q(qa, a);
        exact_q(qb, b);
        for (int op = 0; op < 5; op++) {
            int td, tu;
            switch (op) {
            case 0: td = mpfr_add(d, a, b, MPFR_RNDD); tu = mpfr_add(u, a, b, MPFR_RNDU); mpq_add(ex, qa, qb); break;
            case 1: td = mpfr_sub(d, a, b, MPFR_RNDD); tu = mpfr_sub(u, a, b, MPFR_RNDU); mpq_sub(ex, qa, qb); break;
            case 2: td = mpfr_mul(d, a, b, MPFR_RNDD); tu = mpfr_mul(u, a, b, MPFR_RNDU); mpq_mul(ex, qa, qb); break;
            case 3: td = mpfr_div(d, a, b, MPFR_RNDD); tu = mpfr_div(u, a, b, MPFR_RNDU); mpq_div(ex, qa, qb); break;
            default:
                mpq_div(ex, qa, qb); /* a rational that is rarely a p-bit number */
                td = mpfr_set_q(d, ex, MPFR_RNDD); tu = mpfr_set_q(u, ex, MPFR_RNDU); break;
            }
            (void)td;
            (void)tu;
            if (mpfr_zero_p(d) && mpfr_zero_p(u) && mpq_sgn(ex) == 0)
                continue;
            exact_q(qd, d);
            exact_q(qu, u);
            ck_assert_msg(mpq_cmp(qd, ex) <= 0 && mpq_cmp(ex, qu) <= 0, "op %d: not an enclosure", op);
            adjacent(d, u, mpq_equal(qd, ex));
        }
        mpq_clears(qa, qb, ex, qd, qu, (mpq_ptr)0);
        mpfr_clears(a, b, d, u, (mpfr_ptr)0);
    }
}
END_TEST

/* exp and expm1 (which 0), log and log1p (2, 3): directed results against the Taylor
 * enclosure; returns the number of conclusive checks */
static int transcendental(int which, int npts)
{
    int conclusive = 0;
    for (int i = 0; i < npts; i++) {
        mpfr_prec_t p = 24 + (mpfr_prec_t)gmp_urandomm_ui(rs, 140);
        mpfr_t x, d, u;
        mpfr_inits2(p, x, d, u, (mpfr_ptr)0);
        mpq_t qx, lo, hi, qd, qu, tmp;
        mpq_inits(qx, lo, hi, qd, qu, tmp, (mpq_ptr)0);
        long bits = 3 * (long)p + 80;
        if (which <= 1) {
            random_x(x, -30, 34); /* |x| < 16 */
            exact_q(qx, x);
            if (which == 0) {
                mpfr_exp(d, x, MPFR_RNDD);
                mpfr_exp(u, x, MPFR_RNDU);
            } else {
                mpfr_expm1(d, x, MPFR_RNDD);
                mpfr_expm1(u, x, MPFR_RNDU);
            }
            exp_enclose(lo, hi, qx, which == 0, bits + 40);
            exact_q(qd, d);
            exact_q(qu, u);
            ck_assert_msg(mpq_cmp(qd, hi) <= 0 && mpq_cmp(lo, qu) <= 0, "exp family %d: not an enclosure", which);
            if (mpq_cmp(qd, lo) <= 0 && mpq_cmp(hi, qu) <= 0)
                conclusive++;
            adjacent(d, u, mpfr_equal_p(d, u));
            ck_assert(!mpfr_equal_p(d, u) || mpfr_zero_p(x));
        } else {
            /* x > 0 for log; x > 2^-20 for log1p (argument 1 + x) */
            mpfr_urandomb(x, rs);
            mpfr_mul_2si(x, x, (which == 2 ? -30 : -20) + (long)gmp_urandomm_ui(rs, 36), MPFR_RNDN);
            if (mpfr_zero_p(x))
                mpfr_set_ui(x, 1, MPFR_RNDN);
            exact_q(qx, x);
            if (which == 3)
                mpq_set_ui(tmp, 1, 1), mpq_add(qx, qx, tmp);
            if (which == 2) {
                mpfr_log(d, x, MPFR_RNDD);
                mpfr_log(u, x, MPFR_RNDU);
            } else {
                mpfr_log1p(d, x, MPFR_RNDD);
                mpfr_log1p(u, x, MPFR_RNDU);
            }
            /* exp(down) <= argument <= exp(up) */
            exact_q(qd, d);
            exact_q(qu, u);
            exp_enclose(lo, hi, qd, 1, bits + 40);
            ck_assert_msg(mpq_cmp(lo, qx) <= 0, "log family %d: down above the value", which);
            int c1 = mpq_cmp(hi, qx) <= 0;
            exp_enclose(lo, hi, qu, 1, bits + 40);
            ck_assert_msg(mpq_cmp(qx, hi) <= 0, "log family %d: up below the value", which);
            if (c1 && mpq_cmp(qx, lo) <= 0)
                conclusive++;
            adjacent(d, u, mpfr_equal_p(d, u));
        }
        mpq_clears(qx, lo, hi, qd, qu, tmp, (mpq_ptr)0);
        mpfr_clears(x, d, u, (mpfr_ptr)0);
    }
    return conclusive;
}

START_TEST(exp_log_family)
{
    for (int which = 0; which < 4; which++) {
        int n = 120, c = transcendental(which, n);
        /* an inconclusive check is a value within 2^-(3p) of its bound, not a failure;
         * nearly all must be conclusive */
        ck_assert_msg(c >= n - 2, "function %d: only %d of %d checks conclusive", which, c, n);
    }
}
END_TEST

/* exp10 on f = k 2^-j in [0, 1) (the significands of 10^x): down^(2^j) <= 10^k <= up^(2^j),
 * exactly in rationals; log_ui(n) (ln 10 and others): exp(down) <= n <= exp(up) */
START_TEST(exp10_log_ui)
{
    int conclusive = 0, n = 0;
    for (int i = 0; i < 150; i++) {
        mpfr_prec_t p = 24 + (mpfr_prec_t)gmp_urandomm_ui(rs, 140);
        unsigned long j = gmp_urandomm_ui(rs, 7), k = gmp_urandomm_ui(rs, 1UL << j);
        mpfr_t f, d, u;
        mpfr_inits2(p, f, d, u, (mpfr_ptr)0);
        mpfr_set_ui_2exp(f, k, -(long)j, MPFR_RNDN);
        mpfr_exp10(d, f, MPFR_RNDD);
        mpfr_exp10(u, f, MPFR_RNDU);
        mpq_t qd, qu, t;
        mpq_inits(qd, qu, t, (mpq_ptr)0);
        exact_q(qd, d);
        exact_q(qu, u);
        mpz_pow_ui(mpq_numref(qd), mpq_numref(qd), 1UL << j);
        mpz_pow_ui(mpq_denref(qd), mpq_denref(qd), 1UL << j);
        mpz_pow_ui(mpq_numref(qu), mpq_numref(qu), 1UL << j);
        mpz_pow_ui(mpq_denref(qu), mpq_denref(qu), 1UL << j);
        mpq_set_ui(t, 1, 1);
        mpz_ui_pow_ui(mpq_numref(t), 10, k);
        ck_assert_msg(mpq_cmp(qd, t) <= 0 && mpq_cmp(t, qu) <= 0, "exp10(%lu/2^%lu): not an enclosure", k, j);
        adjacent(d, u, mpfr_equal_p(d, u));
        mpq_clears(qd, qu, t, (mpq_ptr)0);

        unsigned long m = 2 + gmp_urandomm_ui(rs, 1000);
        mpfr_log_ui(d, m, MPFR_RNDD);
        mpfr_log_ui(u, m, MPFR_RNDU);
        mpq_t lo, hi, qm;
        mpq_inits(lo, hi, qm, qd, qu, (mpq_ptr)0);
        mpq_set_ui(qm, m, 1);
        exact_q(qd, d);
        exact_q(qu, u);
        exp_enclose(lo, hi, qd, 1, 3 * (long)p + 120);
        ck_assert_msg(mpq_cmp(lo, qm) <= 0, "log_ui(%lu): down above the value", m);
        int c1 = mpq_cmp(hi, qm) <= 0;
        exp_enclose(lo, hi, qu, 1, 3 * (long)p + 120);
        ck_assert_msg(mpq_cmp(qm, hi) <= 0, "log_ui(%lu): up below the value", m);
        conclusive += c1 && mpq_cmp(qm, lo) <= 0;
        n++;
        adjacent(d, u, 0);
        mpq_clears(lo, hi, qm, qd, qu, (mpq_ptr)0);
        mpfr_clears(f, d, u, (mpfr_ptr)0);
    }
    ck_assert_int_ge(conclusive, n - 2);
}
END_TEST

START_TEST(significand_reading)
{
    for (int i = 0; i < NPTS; i++) {
        mpfr_prec_t p = 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 400);
        mpfr_t x;
        mpfr_init2(x, p);
        random_x(x, -3000, 6000);
        if (mpfr_zero_p(x))
            mpfr_set_si(x, -7, MPFR_RNDN);
        mpz_t M;
        mpfr_exp_t E = em_mpfr_sig(x, M);
        mpq_t a, b;
        mpq_inits(a, b, (mpq_ptr)0);
        mpq_set_z(a, M);
        if (E >= 0)
            mpz_mul_2exp(mpq_numref(a), mpq_numref(a), (mp_bitcnt_t)E);
        else
            mpz_mul_2exp(mpq_denref(a), mpq_denref(a), (mp_bitcnt_t)-E);
        mpq_canonicalize(a);
        exact_q(b, x);
        mpq_abs(b, b);
        ck_assert(mpq_equal(a, b));
        mpq_clears(a, b, (mpq_ptr)0);
        mpfr_clear(x);
    }
}
END_TEST

START_TEST(integer_ops)
{
    static const unsigned long primes[] = {1000000007UL, 998244353UL, 4294967291UL};
    mpz_t a, b, c, q, r;
    mpz_inits(a, b, c, q, r, (mpz_ptr)0);
    for (int i = 0; i < NPTS; i++) {
        mpz_urandomb(a, rs, 1 + gmp_urandomm_ui(rs, 3000));
        mpz_urandomb(b, rs, 1 + gmp_urandomm_ui(rs, 1500));
        mpz_add_ui(b, b, 1);
        mpz_mul(c, a, b);
        mpz_fdiv_qr(q, r, c, b);
        ck_assert(mpz_cmp(q, a) == 0 && mpz_sgn(r) == 0);
        mpz_add_ui(c, c, 1 + gmp_urandomm_ui(rs, 1000));
        mpz_fdiv_qr(q, r, c, b);
        ck_assert(mpz_sgn(r) >= 0 && mpz_cmp(r, b) < 0);
        for (size_t k = 0; k < sizeof primes / sizeof *primes; k++) {
            unsigned long P = primes[k];
            unsigned long long qm = mpz_fdiv_ui(q, P), bm = mpz_fdiv_ui(b, P), rm = mpz_fdiv_ui(r, P);
            ck_assert_uint_eq((qm * bm % P + rm) % P, mpz_fdiv_ui(c, P));
        }
        unsigned long s = gmp_urandomm_ui(rs, 200);
        mpz_mul_2exp(q, a, s);
        mpz_fdiv_q_2exp(q, q, s);
        ck_assert(mpz_cmp(q, a) == 0);
    }
    mpz_clears(a, b, c, q, r, (mpz_ptr)0);
}
END_TEST

__extension__ typedef unsigned __int128 u128;

/* x[0..n) mod P by word arithmetic written here (not GMP's) */
static unsigned long long limbs_mod(const mp_limb_t *x, mp_size_t n, unsigned long long P)
{
    unsigned long long r = 0;
    for (mp_size_t i = n; i-- > 0;)
        r = (unsigned long long)((((u128)r << 64) | x[i]) % P);
    return r;
}

/* M3's limb-array forms (em_dec10 at small sizes): each result against residues modulo
 * primes computed above, and mpn_cmp against a comparison from the top limb */
START_TEST(limb_ops)
{
    static const unsigned long long primes[] = {1000000007ULL, 998244353ULL, 18446744073709551557ULL};
    enum { MAXN = 40 };
    mp_limb_t a[MAXN], b[MAXN], r[2 * MAXN], q[MAXN];
    for (int it = 0; it < NPTS; it++) {
        mp_size_t an = 1 + (mp_size_t)gmp_urandomm_ui(rs, MAXN);
        mp_size_t bn = 1 + (mp_size_t)gmp_urandomm_ui(rs, (unsigned long)an);
        for (mp_size_t i = 0; i < an; i++)
            a[i] = ((mp_limb_t)gmp_urandomb_ui(rs, 32) << 32) | gmp_urandomb_ui(rs, 32);
        for (mp_size_t i = 0; i < bn; i++)
            b[i] = ((mp_limb_t)gmp_urandomb_ui(rs, 32) << 32) | gmp_urandomb_ui(rs, 32);
        if (it % 7 == 0) /* all ones: carries through every limb */
            for (mp_size_t i = 0; i < an; i++)
                a[i] = ~(mp_limb_t)0;
        a[an - 1] |= 1;
        b[bn - 1] |= 1;
        mp_limb_t w = b[0], d = b[0] | 1, t = gmp_urandomm_ui(rs, 63) + 1;
        for (size_t k = 0; k < sizeof primes / sizeof *primes; k++) {
            unsigned long long P = primes[k], am = limbs_mod(a, an, P), bm = limbs_mod(b, bn, P);
            unsigned long long two64 = (unsigned long long)(((u128)1 << 64) % P);
            unsigned long long topw = 1; /* 2^(64 an) mod P */
            for (mp_size_t i = 0; i < an; i++)
                topw = (unsigned long long)((u128)topw * two64 % P);
            mpn_mul(r, a, an, b, bn);
            ck_assert_uint_eq(limbs_mod(r, an + bn, P), (u128)am * bm % P);
            mp_limb_t c = mpn_add_1(r, a, an, w);
            ck_assert_uint_eq((limbs_mod(r, an, P) + (u128)c * topw) % P,
                              ((u128)am + w % P) % P);
            if (an > bn || mpn_cmp(a, b, an) >= 0) {
                ck_assert_uint_eq(mpn_sub(r, a, an, b, bn), 0);
                ck_assert_uint_eq(limbs_mod(r, an, P), ((u128)am + P - bm) % P);
            }
            mp_limb_t out = mpn_rshift(r, a, an, (unsigned)t);
            ck_assert_uint_eq(((u128)limbs_mod(r, an, P) * (((u128)1 << t) % P) +
                               (out >> (64 - t))) % P, am);
            mp_limb_t rem = mpn_divrem_1(q, 0, a, an, d);
            ck_assert(rem < d);
            ck_assert_uint_eq(((u128)limbs_mod(q, an, P) * (d % P) + rem) % P, am);
        }
        mpn_copyi(r, a, an);
        ck_assert(memcmp(r, a, (size_t)an * sizeof *a) == 0);
        int want = 0;
        for (mp_size_t i = bn; i-- > 0 && !want;)
            want = a[i] > b[i] ? 1 : a[i] < b[i] ? -1 : 0;
        int got = mpn_cmp(a, b, bn);
        ck_assert_int_eq((got > 0) - (got < 0), want);
    }
}
END_TEST

/* the K-digit round-to-nearest (ties to even) decimal of the positive rational v, written
 * here: digits of q and e with v ~ 0.q 10^e */
static void ref_decimal(const mpq_t v, int K, char *d, long *e)
{
    mpq_t t, p10;
    mpz_t q, rem, den;
    mpq_inits(t, p10, (mpq_ptr)0);
    mpz_inits(q, rem, den, (mpz_ptr)0);
    long E = (long)mpz_sizeinbase(mpq_numref(v), 10) - (long)mpz_sizeinbase(mpq_denref(v), 10);
    for (;;) { /* 10^(E-1) <= v < 10^E */
        mpq_set_ui(p10, 1, 1);
        mpz_ui_pow_ui(E >= 0 ? mpq_numref(p10) : mpq_denref(p10), 10, (unsigned long)labs(E));
        if (mpq_cmp(v, p10) >= 0) {
            E++;
            continue;
        }
        mpz_mul_ui(mpq_denref(p10), mpq_denref(p10), 10);
        mpq_canonicalize(p10);
        if (mpq_cmp(v, p10) < 0) {
            E--;
            continue;
        }
        break;
    }
    long s = K - E; /* q = round(v 10^s) */
    mpq_set(t, v);
    mpz_ui_pow_ui(rem, 10, (unsigned long)labs(s));
    if (s >= 0)
        mpz_mul(mpq_numref(t), mpq_numref(t), rem);
    else
        mpz_mul(mpq_denref(t), mpq_denref(t), rem);
    mpq_canonicalize(t);
    mpz_fdiv_qr(q, rem, mpq_numref(t), mpq_denref(t));
    mpz_mul_2exp(rem, rem, 1);
    int c = mpz_cmp(rem, mpq_denref(t));
    if (c > 0 || (c == 0 && mpz_odd_p(q)))
        mpz_add_ui(q, q, 1);
    mpz_ui_pow_ui(den, 10, (unsigned long)K);
    if (mpz_cmp(q, den) == 0) {
        mpz_divexact_ui(q, q, 10);
        E++;
    }
    mpz_get_str(d, 10, q);
    *e = E;
    mpq_clears(t, p10, (mpq_ptr)0);
    mpz_clears(q, rem, den, (mpz_ptr)0);
}

START_TEST(decimal_conversion)
{
    static const int Ks[] = {1, 2, 3, 17, 40};
    char got[64], want[64];
    for (int i = 0; i < NPTS; i++) {
        mpfr_t x;
        mpfr_init2(x, 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 200));
        random_x(x, -400, 800);
        if (mpfr_zero_p(x))
            mpfr_set_ui(x, 5, MPFR_RNDN);
        if (i % 10 == 0) /* exact decimal ties: k 2^-j, small */
            mpfr_set_ui_2exp(x, 2 * gmp_urandomm_ui(rs, 1000) + 1, -(long)gmp_urandomm_ui(rs, 12), MPFR_RNDN);
        mpq_t v;
        mpq_init(v);
        exact_q(v, x);
        mpq_abs(v, v);
        for (size_t k = 0; k < sizeof Ks / sizeof *Ks; k++) {
            mpfr_exp_t e;
            long we;
            mpfr_get_str(got, &e, 10, (size_t)Ks[k], x, MPFR_RNDN);
            ref_decimal(v, Ks[k], want, &we);
            ck_assert_str_eq(got + (got[0] == '-'), want);
            ck_assert_int_eq((long)e, we);
        }
        mpq_clear(v);
        mpfr_clear(x);
    }
}
END_TEST

/* The wrappers of em_mpfr_acsl.h (WP's contracts of the exact sampler's enclosure arithmetic),
 * each clause against exact rationals, on non-negative operands of mixed precisions (the
 * contracts do not assume one precision) and at the ends 0 and 1. */
static void rand_unit(mpfr_t x)
{
    mpfr_urandomb(x, rs);
    switch (gmp_urandomm_ui(rs, 8)) {
    case 0: mpfr_set_ui(x, 0, MPFR_RNDN); break;
    case 1: mpfr_set_ui(x, 1, MPFR_RNDN); break;
    case 2: mpfr_mul_2si(x, x, -(long)gmp_urandomm_ui(rs, 200), MPFR_RNDN); break;
    default: break;
    }
}

START_TEST(acsl_wrappers)
{
    mpq_t qa, qb, qr, ex, sc;
    mpq_inits(qa, qb, qr, ex, sc, (mpq_ptr)0);
    mpq_set_ui(sc, 1, 1);
    mpz_mul_2exp(mpq_numref(sc), mpq_numref(sc), 63); /* 2^63 */
    mpz_t z;
    mpz_init(z);
    for (int i = 0; i < NPTS; i++) {
        mpfr_prec_t pa = 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 200);
        mpfr_prec_t pr = 2 + (mpfr_prec_t)gmp_urandomm_ui(rs, 200);
        mpfr_t a, b, r, keep, t;
        mpfr_inits2(pa, a, b, keep, (mpfr_ptr)0);
        mpfr_init2(r, pr);
        mpfr_init2(t, pr + 64);
        rand_unit(a);
        rand_unit(b);
        mpfr_mul_2si(a, a, (long)gmp_urandomm_ui(rs, 80) - 40, MPFR_RNDN);
        mpfr_set(keep, b, MPFR_RNDN);
        exact_q(qa, a);
        exact_q(qb, b);
        /* add: down <= a + b <= up, down >= 0 for operands >= 0; the operands unchanged */
        mpq_add(ex, qa, qb);
        em_mpfr_add_rd(r, a, b);
        exact_q(qr, r);
        ck_assert(mpq_cmp(qr, ex) <= 0 && mpq_sgn(qr) >= 0);
        em_mpfr_add_ru(r, a, b);
        exact_q(qr, r);
        ck_assert(mpq_cmp(qr, ex) >= 0);
        ck_assert(mpfr_equal_p(b, keep));
        /* div for 0 <= a <= b, b > 0: r b <= a (down), r b >= a (up), r in [0, 1] */
        mpfr_t lo, hi;
        mpfr_inits2(pa, lo, hi, (mpfr_ptr)0);
        if (mpfr_cmp(a, b) <= 0) { mpfr_set(lo, a, MPFR_RNDN); mpfr_set(hi, b, MPFR_RNDN); }
        else { mpfr_set(lo, b, MPFR_RNDN); mpfr_set(hi, a, MPFR_RNDN); }
        if (!mpfr_zero_p(hi)) {
            mpq_t ql, qh, prod;
            mpq_inits(ql, qh, prod, (mpq_ptr)0);
            exact_q(ql, lo);
            exact_q(qh, hi);
            em_mpfr_div_rd(r, lo, hi);
            exact_q(qr, r);
            mpq_mul(prod, qr, qh);
            ck_assert(mpq_cmp(prod, ql) <= 0 && mpq_sgn(qr) >= 0 && mpfr_cmp_ui(r, 1) <= 0);
            em_mpfr_div_ru(r, lo, hi);
            exact_q(qr, r);
            mpq_mul(prod, qr, qh);
            ck_assert(mpq_cmp(prod, ql) >= 0 && mpq_sgn(qr) >= 0 && mpfr_cmp_ui(r, 1) <= 0);
            mpq_clears(ql, qh, prod, (mpq_ptr)0);
        }
        /* set_01, is_zero, greater */
        em_mpfr_set_01(r, i & 1);
        ck_assert(mpfr_cmp_ui(r, i & 1) == 0);
        ck_assert((em_mpfr_is_zero(a) != 0) == (mpq_sgn(qa) == 0));
        ck_assert((em_mpfr_greater(a, b) != 0) == (mpq_cmp(qa, qb) > 0));
        /* words of v in [0, 1] (lo): floor <= 2^63 v <= ceil <= 2^63, t of any precision */
        mpq_t qv;
        mpq_init(qv);
        exact_q(qv, lo);
        if (mpfr_cmp_ui(lo, 1) <= 0) {
            mpq_mul(ex, qv, sc);
            uint64_t wd = em_mpfr_word_rd(t, lo), wu = em_mpfr_word_ru(t, lo);
            mpz_set_ui(z, (unsigned long)wd);
            mpq_set_z(qr, z);
            ck_assert(mpq_cmp(qr, ex) <= 0);
            mpz_set_ui(z, (unsigned long)wu);
            mpq_set_z(qr, z);
            ck_assert(mpq_cmp(qr, ex) >= 0 && wu <= ((uint64_t)1 << 63));
            ck_assert(wu - wd <= 1); /* with t 64 bits wider than v, both exact neighbours */
        }
        mpq_clear(qv);
        mpfr_clears(a, b, r, keep, t, lo, hi, (mpfr_ptr)0);
    }
    mpz_clear(z);
    mpq_clears(qa, qb, qr, ex, sc, (mpq_ptr)0);
}
END_TEST

static Suite *suite(void)
{
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 5);
    Suite *s = suite_create("mpfr_contract");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, field_ops);
    tcase_add_test(tc, exp_log_family);
    tcase_add_test(tc, exp10_log_ui);
    tcase_add_test(tc, significand_reading);
    tcase_add_test(tc, integer_ops);
    tcase_add_test(tc, limb_ops);
    tcase_add_test(tc, decimal_conversion);
    tcase_add_test(tc, acsl_wrappers);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
