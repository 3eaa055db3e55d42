/* em_exact.c: the exact sampler (lazy inverse CDF with MPFR interval bounds).
 * See em_exact.h and spec/ExactSampling.md for the method and its exactness argument. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>
#define MPFR_USE_INTMAX_T 1
#include <mpfr.h>

#include "expmech.h"
#include "oracle/em_exact.h"
#include "oracle/em_exponents.h"

#define MAX_LEVELS 16
#define FIX_BITS 63          /* fixed-point scale 2^63 of the integer decision */
#define STEP_BITS 4          /* bits added per undecided fast-path step */
#define SLOW_STEP 8          /* bits added per undecided slow-path step */

/* ------------------------------------------------------------- bit sources */

void em_bits_init_rng(em_bits *b, em_rng *rng)
{
    memset(b, 0, sizeof *b);
    b->kind = EM_BITS_RNG;
    b->rng = rng;
}

void em_bits_init_script(em_bits *b, const unsigned char *bits, size_t len)
{
    memset(b, 0, sizeof *b);
    b->kind = EM_BITS_SCRIPT;
    b->script = bits;
    b->script_len = len;
}

int em_bits_get(em_bits *b, unsigned nbits, uint64_t *out)
{
    if (!b || !out)
        return EM_ERR_NULL;
    if (nbits < 1 || nbits > 64)
        return EM_ERR_DOMAIN;
    uint64_t r = 0;
    if (b->kind == EM_BITS_SCRIPT) {
        if (b->used + nbits > b->script_len) {
            b->wanted = b->used + nbits;
            return EM_ERR_RNG;
        }
        for (unsigned k = 0; k < nbits; k++)
            r = (r << 1) | (b->script[b->used + k] & 1u);
        b->used += nbits;
        *out = r;
        return EM_OK;
    }
    unsigned need = nbits;
    while (need > 0) {
        if (b->avail == 0) {
            if (!b->rng || em_rng_u64(b->rng, &b->buf) != EM_OK)
                return EM_ERR_RNG;
            b->avail = 64;
        }
        unsigned take = need < b->avail ? need : b->avail;
        if (take == 64) {
            r = b->buf;
            b->buf = 0;
        } else {
            r = (r << take) | (b->buf >> (64 - take));
            b->buf <<= take;
        }
        b->avail -= take;
        need -= take;
    }
    b->used += nbits;
    *out = r;
    return EM_OK;
}

int em_bits_uniform_below(em_bits *b, uint64_t m, uint64_t *out)
{
    if (!b || !out)
        return EM_ERR_NULL;
    if (m == 0)
        return EM_ERR_DOMAIN;
    if (m == 1) {
        *out = 0;
        return EM_OK;
    }
    unsigned nb = 1;
    while (nb < 64 && ((m - 1) >> nb) != 0)
        nb++;
    for (;;) {
        uint64_t x;
        int st = em_bits_get(b, nb, &x);
        if (st != EM_OK)
            return st;
        if (x < m) {
            *out = x;
            return EM_OK;
        }
    }
}

/* ---------------------------------------------------------- exact sampler */

struct xlevel {
    mpfr_prec_t p;
    mpfr_t *Flo, *Fhi; /* n + 1 bounds of the cumulative probabilities */
};

struct em_exact {
    size_t n;
    mpq_t *t;
    unsigned char *cls;
    uint64_t *lo64, *hi64;
    struct xlevel lv[MAX_LEVELS];
    int nlev;
    unsigned first;
    em_exact_select_fn select;
    em_exact_stats st;
    mpz_t a;
    mpfr_t x, y;
};

static long bitlen_sz(size_t n)
{
    long b = 0;
    while (b < 64 && (n >> b) != 0)
        b++;
    return b;
}

static void free_level(struct xlevel *L, size_t n)
{
    if (L->Flo) {
        for (size_t i = 0; i <= n; i++)
            mpfr_clear(L->Flo[i]);
        free(L->Flo);
    }
    if (L->Fhi) {
        for (size_t i = 0; i <= n; i++)
            mpfr_clear(L->Fhi[i]);
        free(L->Fhi);
    }
    L->Flo = L->Fhi = NULL;
}

/* Interval bounds of F(i) = C(i) / Z at precision p, with C(i) the prefix sums of the
 * weights w_j = exp(t_j) and T(i) = Z - C(i) the suffix sums:
 *   F(i) = C / (C + T) is increasing in C and decreasing in T, so
 *   F_lo = RNDD(C_lo / RNDU(C_lo + T_hi)),  F_hi = RNDU(C_hi / RNDD(C_hi + T_lo)),
 * then F_lo is made nondecreasing (running max) and F_hi nondecreasing and <= 1
 * (running min from the top); both keep the bounds valid since F is nondecreasing,
 * F(0) = 0 and F(n) = 1 exactly. */
static int compute_level(em_exact *s, int k, mpfr_prec_t p)
{
    size_t n = s->n;
    struct xlevel *L = &s->lv[k];
    L->p = p;
    L->Flo = malloc((n + 1) * sizeof *L->Flo);
    L->Fhi = malloc((n + 1) * sizeof *L->Fhi);
    mpfr_t *elo = malloc(n * sizeof *elo), *ehi = malloc(n * sizeof *ehi);
    if (!L->Flo || !L->Fhi || !elo || !ehi) {
        free(L->Flo);
        free(L->Fhi);
        L->Flo = L->Fhi = NULL;
        free(elo);
        free(ehi);
        return EM_ERR_NOMEM;
    }
    for (size_t i = 0; i <= n; i++) {
        mpfr_init2(L->Flo[i], p);
        mpfr_init2(L->Fhi[i], p);
    }
    mpfr_t tlo, thi, C_lo, C_hi, T_lo, T_hi, d;
    mpfr_inits2(p, tlo, thi, C_lo, C_hi, T_lo, T_hi, d, (mpfr_ptr)0);
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(elo[j], p);
        mpfr_init2(ehi[j], p);
        if (s->cls[j] == CL_EXCLUDED) {
            mpfr_set_ui(elo[j], 0, MPFR_RNDN);
            mpfr_set_ui(ehi[j], 0, MPFR_RNDN);
        } else if (s->cls[j] == CL_MODE) {
            mpfr_set_ui(elo[j], 1, MPFR_RNDN);
            mpfr_set_ui(ehi[j], 1, MPFR_RNDN);
        } else {
            mpfr_set_q(tlo, s->t[j], MPFR_RNDD);
            mpfr_set_q(thi, s->t[j], MPFR_RNDU);
            mpfr_exp(elo[j], tlo, MPFR_RNDD);
            /* one exponential per weight: exp(t) <= exp(tlo) exp(thi - tlo) <=
             * nextabove(RNDD(exp(tlo))) (1 + 2 (thi - tlo)) for 0 <= thi - tlo <= 1 */
            mpfr_sub(d, thi, tlo, MPFR_RNDU);
            if (mpfr_zero_p(elo[j]) || mpfr_cmp_ui(d, 1) > 0) {
                mpfr_exp(ehi[j], thi, MPFR_RNDU);
            } else {
                mpfr_set(ehi[j], elo[j], MPFR_RNDU);
                mpfr_nextabove(ehi[j]);
                if (!mpfr_zero_p(d)) {
                    mpfr_mul_2ui(d, d, 1, MPFR_RNDU);
                    mpfr_add_ui(d, d, 1, MPFR_RNDU);
                    mpfr_mul(ehi[j], ehi[j], d, MPFR_RNDU);
                }
            }
            if (mpfr_cmp_ui(ehi[j], 1) > 0) /* t < 0: exp(t) < 1 */
                mpfr_set_ui(ehi[j], 1, MPFR_RNDN);
        }
    }
    /* C(i) upward in Flo/Fhi (as scratch), then divide using suffix sums downward */
    mpfr_set_ui(C_lo, 0, MPFR_RNDN);
    mpfr_set_ui(C_hi, 0, MPFR_RNDN);
    for (size_t i = 0; i <= n; i++) {
        mpfr_set(L->Flo[i], C_lo, MPFR_RNDD);
        mpfr_set(L->Fhi[i], C_hi, MPFR_RNDU);
        if (i < n) {
            mpfr_add(C_lo, C_lo, elo[i], MPFR_RNDD);
            mpfr_add(C_hi, C_hi, ehi[i], MPFR_RNDU);
        }
    }
    mpfr_set_ui(T_lo, 0, MPFR_RNDN);
    mpfr_set_ui(T_hi, 0, MPFR_RNDN);
    for (size_t ii = n + 1; ii-- > 0;) {
        /* here T = w_ii + ... + w_{n-1} */
        if (ii == n) {
            mpfr_set_ui(L->Flo[ii], 1, MPFR_RNDN);
            mpfr_set_ui(L->Fhi[ii], 1, MPFR_RNDN);
        } else if (mpfr_zero_p(L->Fhi[ii])) {
            mpfr_set_ui(L->Flo[ii], 0, MPFR_RNDN); /* C(ii) = 0 exactly */
        } else {
            if (mpfr_zero_p(L->Flo[ii])) {
                /* F_lo = 0 is a valid bound */
            } else {
                mpfr_add(d, L->Flo[ii], T_hi, MPFR_RNDU);
                mpfr_div(L->Flo[ii], L->Flo[ii], d, MPFR_RNDD);
            }
            mpfr_add(d, L->Fhi[ii], T_lo, MPFR_RNDD);
            mpfr_div(L->Fhi[ii], L->Fhi[ii], d, MPFR_RNDU);
        }
        if (ii > 0) {
            mpfr_add(T_lo, T_lo, elo[ii - 1], MPFR_RNDD);
            mpfr_add(T_hi, T_hi, ehi[ii - 1], MPFR_RNDU);
        }
    }
    for (size_t i = 1; i <= n; i++)
        if (mpfr_cmp(L->Flo[i], L->Flo[i - 1]) < 0)
            mpfr_set(L->Flo[i], L->Flo[i - 1], MPFR_RNDN);
    for (size_t ii = n; ii-- > 0;)
        if (mpfr_cmp(L->Fhi[ii], L->Fhi[ii + 1]) > 0)
            mpfr_set(L->Fhi[ii], L->Fhi[ii + 1], MPFR_RNDN);
    for (size_t j = 0; j < n; j++)
        mpfr_clears(elo[j], ehi[j], (mpfr_ptr)0);
    free(elo);
    free(ehi);
    mpfr_clears(tlo, thi, C_lo, C_hi, T_lo, T_hi, d, (mpfr_ptr)0);
    s->st.levels++;
    if (p > s->st.maxprec)
        s->st.maxprec = p;
    return EM_OK;
}

int em_exact_new(size_t n, mpq_t *u, const unsigned char *excluded, const mpq_t eps,
                 const mpq_t delta, int variant, em_exact **out)
{
    if (!out)
        return EM_ERR_NULL;
    int st = em_exponents_check(n, u, eps, delta, variant);
    if (st != EM_OK)
        return st;
    em_mpfr_widest_range();

    em_exact *s = calloc(1, sizeof *s);
    if (!s)
        return EM_ERR_NOMEM;
    s->n = n;
    s->select = em_exact_select;
    mpz_init(s->a);
    mpfr_init2(s->x, 64);
    mpfr_init2(s->y, 64);
    s->lo64 = malloc((n + 1) * sizeof *s->lo64);
    s->hi64 = malloc((n + 1) * sizeof *s->hi64);
    if (!s->lo64 || !s->hi64) {
        em_exact_free(s);
        return EM_ERR_NOMEM;
    }
    size_t m;
    st = em_exponents_new(n, u, excluded, eps, delta, variant, &s->t, &s->cls, &m);
    if (st != EM_OK) {
        em_exact_free(s);
        return st;
    }
    long nb = bitlen_sz(n);
    s->first = (unsigned)(nb + 2 > FIX_BITS ? FIX_BITS : nb + 2);
    /* level 0: enough bits that the 63-bit words are tight to about one unit */
    /* the sums of n bounds lose about log2(n) bits; 16 to spare (two limbs up to n = 2^48) */
    mpfr_prec_t p0 = (mpfr_prec_t)(((FIX_BITS + nb + 16) + 63) / 64 * 64);
    st = compute_level(s, 0, p0);
    if (st != EM_OK) {
        em_exact_free(s);
        return st;
    }
    s->nlev = 1;
    mpfr_t tmp;
    mpfr_init2(tmp, p0 + 64);
    for (size_t i = 0; i <= n; i++) {
        mpfr_mul_2ui(tmp, s->lv[0].Flo[i], FIX_BITS, MPFR_RNDD); /* exact */
        s->lo64[i] = mpfr_get_uj(tmp, MPFR_RNDD);
        mpfr_mul_2ui(tmp, s->lv[0].Fhi[i], FIX_BITS, MPFR_RNDU);
        s->hi64[i] = mpfr_get_uj(tmp, MPFR_RNDU);
    }
    mpfr_clear(tmp);
    *out = s;
    return EM_OK;
}

void em_exact_free(em_exact *s)
{
    if (!s)
        return;
    for (int k = 0; k < MAX_LEVELS; k++)
        free_level(&s->lv[k], s->n);
    em_exponents_free(s->n, s->t, s->cls);
    free(s->lo64);
    free(s->hi64);
    mpz_clear(s->a);
    mpfr_clears(s->x, s->y, (mpfr_ptr)0);
    free(s);
}

void em_exact_set_select(em_exact *s, em_exact_select_fn f)
{
    if (s)
        s->select = f ? f : em_exact_select;
}

void em_exact_get_stats(const em_exact *s, em_exact_stats *st)
{
    if (s && st)
        *st = s->st;
}

unsigned em_exact_first_chunk(const em_exact *s)
{
    return s ? s->first : 0;
}

int em_exact_set_first_chunk(em_exact *s, unsigned k)
{
    if (!s)
        return EM_ERR_NULL;
    if (k < 1 || k > FIX_BITS)
        return EM_ERR_DOMAIN;
    s->first = k;
    return EM_OK;
}

const uint64_t *em_exact_lo64(const em_exact *s)
{
    return s ? s->lo64 : NULL;
}

const uint64_t *em_exact_hi64(const em_exact *s)
{
    return s ? s->hi64 : NULL;
}

/* The level whose precision covers k drawn bits with a margin (a function of k only, so
 * the output depends on the bits alone). */
static int level_for(em_exact *s, long k, int *lvl)
{
    long need = k + bitlen_sz(s->n) + 64;
    int j = 0;
    while (s->lv[0].p * ((mpfr_prec_t)1 << j) < need)
        j++;
    if (j >= MAX_LEVELS)
        return EM_ERR_DOMAIN;
    while (s->nlev <= j) {
        int st = compute_level(s, s->nlev, s->lv[0].p * ((mpfr_prec_t)1 << s->nlev));
        if (st != EM_OK)
            return st;
        s->nlev++;
    }
    *lvl = j;
    return EM_OK;
}

/* Past 63 bits: U in [a 2^-k, (a + 1) 2^-k) with a an integer of k bits. */
static int slow_path(em_exact *s, em_bits *b, uint64_t a63, size_t *out)
{
    size_t n = s->n;
    mpz_set_ui(s->a, 0);
    mpz_set_ui(s->a, (unsigned long)(a63 >> 32));
    mpz_mul_2exp(s->a, s->a, 32);
    mpz_add_ui(s->a, s->a, (unsigned long)(a63 & 0xffffffffu));
    long k = FIX_BITS;
    s->st.slow++;
    for (;;) {
        if (k + SLOW_STEP > EM_EXACT_MAX_BITS)
            return EM_ERR_DOMAIN;
        uint64_t more;
        int st = em_bits_get(b, SLOW_STEP, &more);
        if (st != EM_OK)
            return st;
        mpz_mul_2exp(s->a, s->a, SLOW_STEP);
        mpz_add_ui(s->a, s->a, (unsigned long)more);
        k += SLOW_STEP;
        int j;
        st = level_for(s, k, &j);
        if (st != EM_OK)
            return st;
        struct xlevel *L = &s->lv[j];
        mpfr_set_prec(s->x, k + 1);
        mpfr_set_prec(s->y, k + 1);
        mpfr_set_z_2exp(s->x, s->a, -k, MPFR_RNDN); /* exact: k + 1 bits */
        mpz_add_ui(s->a, s->a, 1);
        mpfr_set_z_2exp(s->y, s->a, -k, MPFR_RNDN);
        mpz_sub_ui(s->a, s->a, 1);
        /* largest i < n with Fhi[i] <= x (Fhi nondecreasing, Fhi[0] = 0 <= x): only it
         * can certainly contain [x, y), since for i' < i, Flo[i'+1] <= Flo[i] <= x < y */
        size_t lo = 0, hi = n - 1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            if (mpfr_cmp(L->Fhi[mid], s->x) <= 0)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (mpfr_cmp(L->Fhi[lo], s->x) <= 0 && mpfr_cmp(s->y, L->Flo[lo + 1]) <= 0) {
            *out = lo;
            return EM_OK;
        }
    }
}

int em_exact_sample(em_exact *s, em_bits *b, size_t *out)
{
    if (!s || !b || !out)
        return EM_ERR_NULL;
    uint64_t a;
    unsigned k = s->first;
    int st = em_bits_get(b, k, &a);
    if (st != EM_OK)
        return st;
    for (;;) {
        uint64_t w = (uint64_t)1 << (FIX_BITS - k);
        s->st.scans++;
        size_t r = s->select(s->n, s->lo64, s->hi64, a << (FIX_BITS - k), w);
        if (r < s->n) {
            s->st.draws++;
            s->st.bits += k;
            *out = r;
            return EM_OK;
        }
        if (k == FIX_BITS)
            break;
        unsigned step = k + STEP_BITS > FIX_BITS ? FIX_BITS - k : STEP_BITS;
        uint64_t more;
        st = em_bits_get(b, step, &more);
        if (st != EM_OK)
            return st;
        a = (a << step) | more;
        k += step;
    }
    uint64_t before = b->used;
    st = slow_path(s, b, a, out);
    if (st == EM_OK) {
        s->st.draws++;
        s->st.bits += FIX_BITS + (b->used - before);
    }
    return st;
}
