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

/* A level holds the bounds Flo[i] <= F(i) <= Fhi[i], i = 0..n, at precision p, without
 * storing n + 1 of each (at 10^7 candidates two mpfr_t per index and per level were
 * 2.5 GB): only a checkpoint every BLOCK indices, from which one block's bounds are
 * recomputed, bit for bit the values a full computation gives (same operations, same
 * order, same rounding), so draws are unchanged:
 *   C(i) = w_0 + ... + w_{i-1} (rounded upward in order, C_lo down, C_hi up) at each
 *   block start; T(i) = w_i + ... + w_{n-1} (summed from the top) at each block end;
 *   the largest raw Flo before each block and the smallest raw Fhi after it (the running
 *   max / min that make the bounds monotone). */
#ifndef EM_EXACT_BLOCK
#define EM_EXACT_BLOCK 1024 /* -DEM_EXACT_BLOCK=3 runs the tests across many blocks */
#endif
#define BLOCK ((size_t)EM_EXACT_BLOCK)
/* decoded blocks kept per level: a slow draw's binary search ends in one or two adjacent
 * blocks (cell r and r + 1), which its next 8-bit steps probe again */
#define CACHE 4

struct xblock {
    long b;             /* block held, or -1 */
    unsigned long used; /* for replacement: larger = more recent */
    mpfr_t *Flo, *Fhi;  /* bcap each, final (monotone) bounds */
};

struct xlevel {
    mpfr_prec_t p;
    size_t nb;               /* blocks: ceil((n + 1) / BLOCK) */
    size_t bcap;             /* bounds per block: min(n + 1, BLOCK) */
    mpfr_t *Clo, *Chi;       /* C at block starts */
    mpfr_t *Tlo, *Thi;       /* T at block ends (b < nb - 1; the last block ends at n) */
    mpfr_t *maxlo;           /* max raw Flo over indices before block b (b >= 1) */
    mpfr_t *minhi;           /* min raw Fhi over indices after block b (b < nb - 1) */
    struct xblock cache[CACHE];
    unsigned long clock;
};

struct em_exact {
    size_t n;
    em_usrc src;             /* utilities; t_j = c (u_j - umax) when needed */
    mpq_t *own;              /* em_exact_new's copy (src reads it) */
    mpq_t c, umax, tq;
    em_tfast tf;
    int have_tf;
    unsigned char *cls;
    uint64_t *lo64, *hi64;
    struct xlevel lv[MAX_LEVELS];
    int nlev;
    unsigned first;
    em_exact_select_fn select;
    em_exact_stats st;
    mpz_t a;
    mpfr_t x, y;
    /* scratch of one block (scap = min(n, BLOCK) + 1 entries: a block never holds more
     * than n + 1 bounds, and 6 x 1025 MPFR numbers were most of a small draw's cost) at
     * the precision of the level in use */
    mpfr_t *welo, *wehi, *bTlo, *bThi, *rlo, *rhi;
    size_t scap;
    mpfr_prec_t wprec;
    mpfr_t tlo, thi, d, Clo_, Chi_, Tlo_, Thi_;
    /* while a level is computed: the weights of indices [0, wcn) from the downward pass,
     * for the upward one (packed limbs, exponents, kinds) */
    size_t wcn, wnl;
    mp_limb_t *wlimbs;
    mpfr_exp_t *wexp;
    signed char *wkind;
};

/* Bytes for the weights kept between the two passes: at 10^6 candidates all of them
 * (one exponential per weight, as with full arrays), at 10^7 the lowest 1.3 million
 * (50 bytes each at 128 bits): a bounded share of the 1 GB budget. */
#ifndef EM_EXACT_WCACHE_BYTES
#define EM_EXACT_WCACHE_BYTES ((size_t)64 << 20) /* -D...=200: tests with a partial cache */
#endif
#define WCACHE_BYTES ((size_t)EM_EXACT_WCACHE_BYTES)

static long bitlen_sz(size_t n)
{
    long b = 0;
    while (b < 64 && (n >> b) != 0)
        b++;
    return b;
}

static mpfr_t *mpfr_array(size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    if (a)
        for (size_t i = 0; i < k; i++)
            mpfr_init2(a[i], p);
    return a;
}

static void mpfr_array_free(mpfr_t *a, size_t k)
{
    if (!a)
        return;
    for (size_t i = 0; i < k; i++)
        mpfr_clear(a[i]);
    free(a);
}

static void free_level(struct xlevel *L)
{
    if (L->nb == 0)
        return;
    mpfr_array_free(L->Clo, L->nb);
    mpfr_array_free(L->Chi, L->nb);
    mpfr_array_free(L->Tlo, L->nb);
    mpfr_array_free(L->Thi, L->nb);
    mpfr_array_free(L->maxlo, L->nb);
    mpfr_array_free(L->minhi, L->nb);
    for (int k = 0; k < CACHE; k++) {
        mpfr_array_free(L->cache[k].Flo, L->bcap);
        mpfr_array_free(L->cache[k].Fhi, L->bcap);
    }
    memset(L, 0, sizeof *L);
}

static void scratch_prec(em_exact *s, mpfr_prec_t p)
{
    if (s->wprec == p)
        return;
    for (size_t i = 0; i < s->scap; i++) {
        mpfr_set_prec(s->welo[i], p);
        mpfr_set_prec(s->wehi[i], p);
        mpfr_set_prec(s->bTlo[i], p);
        mpfr_set_prec(s->bThi[i], p);
        mpfr_set_prec(s->rlo[i], p);
        mpfr_set_prec(s->rhi[i], p);
    }
    mpfr_set_prec(s->tlo, p);
    mpfr_set_prec(s->thi, p);
    mpfr_set_prec(s->d, p);
    mpfr_set_prec(s->Clo_, p);
    mpfr_set_prec(s->Chi_, p);
    mpfr_set_prec(s->Tlo_, p);
    mpfr_set_prec(s->Thi_, p);
    s->wprec = p;
}

static void wc_put(em_exact *s, size_t j, int h, mpfr_srcptr v)
{
    size_t k = 2 * j + (size_t)h;
    s->wkind[k] = (signed char)mpfr_custom_get_kind(v);
    s->wexp[k] = 0;
    if (mpfr_regular_p(v)) {
        s->wexp[k] = mpfr_custom_get_exp(v);
        memcpy(s->wlimbs + k * s->wnl, mpfr_custom_get_significand(v), s->wnl * sizeof(mp_limb_t));
    }
}

static void wc_get(em_exact *s, size_t j, int h, mpfr_ptr v)
{
    size_t k = 2 * j + (size_t)h;
    mpfr_t c;
    mpfr_custom_init_set(c, s->wkind[k], s->wexp[k], s->wprec, s->wlimbs + k * s->wnl);
    mpfr_set(v, c, MPFR_RNDN); /* same precision: exact */
}

/* Bounds of the weight w_j = exp(t_j) at the scratch precision. */
static void weight(em_exact *s, size_t j, mpfr_t elo, mpfr_t ehi)
{
    if (j < s->wcn) {
        wc_get(s, j, 0, elo);
        wc_get(s, j, 1, ehi);
        return;
    }
    if (s->cls[j] == CL_EXCLUDED) {
        mpfr_set_ui(elo, 0, MPFR_RNDN);
        mpfr_set_ui(ehi, 0, MPFR_RNDN);
        return;
    }
    if (s->cls[j] == CL_MODE) {
        mpfr_set_ui(elo, 1, MPFR_RNDN);
        mpfr_set_ui(ehi, 1, MPFR_RNDN);
        return;
    }
    /* RNDU(t) is RNDD(t) or the next number up, by the ternary value: one division */
    if (em_exponent_t_lo(&s->tf, &s->src, j, s->tlo) != 0) {
        mpfr_set(s->thi, s->tlo, MPFR_RNDN);
        mpfr_nextabove(s->thi);
    } else {
        mpfr_set(s->thi, s->tlo, MPFR_RNDN);
    }
    mpfr_exp(elo, s->tlo, MPFR_RNDD);
    /* one exponential per weight: exp(t) <= exp(tlo) exp(thi - tlo) <=
     * nextabove(RNDD(exp(tlo))) (1 + 2 (thi - tlo)) for 0 <= thi - tlo <= 1 */
    mpfr_sub(s->d, s->thi, s->tlo, MPFR_RNDU);
    if (mpfr_zero_p(elo) || mpfr_cmp_ui(s->d, 1) > 0) {
        mpfr_exp(ehi, s->thi, MPFR_RNDU);
    } else {
        mpfr_set(ehi, elo, MPFR_RNDU);
        mpfr_nextabove(ehi);
        if (!mpfr_zero_p(s->d)) {
            mpfr_mul_2ui(s->d, s->d, 1, MPFR_RNDU);
            mpfr_add_ui(s->d, s->d, 1, MPFR_RNDU);
            mpfr_mul(ehi, ehi, s->d, MPFR_RNDU);
        }
    }
    if (mpfr_cmp_ui(ehi, 1) > 0) /* t < 0: exp(t) < 1 */
        mpfr_set_ui(ehi, 1, MPFR_RNDN);
}

/* The raw bounds of block b into s->rlo / s->rhi [0, len) (len returned):
 *   F(i) = C / (C + T) is increasing in C and decreasing in T, so
 *   F_lo = RNDD(C_lo / RNDU(C_lo + T_hi)),  F_hi = RNDU(C_hi / RNDD(C_hi + T_lo)),
 * F(n) = 1 and F = 0 where C = 0, exactly.  Clo_/Chi_ enter as C(start) and leave as
 * C(end). */
static size_t raw_block(em_exact *s, struct xlevel *L, size_t b)
{
    const size_t n = s->n, st = b * BLOCK;
    size_t len = n + 1 - st < BLOCK ? n + 1 - st : BLOCK;
    size_t nw = st + len <= n ? len : len - 1; /* weights w_st .. inside the block */
    for (size_t k = 0; k < nw; k++)
        weight(s, st + k, s->welo[k], s->wehi[k]);
    /* T(i) for i in the block, downward from the block's end */
    if (st + len > n) {
        mpfr_set_ui(s->Tlo_, 0, MPFR_RNDN);
        mpfr_set_ui(s->Thi_, 0, MPFR_RNDN);
    } else {
        mpfr_set(s->Tlo_, L->Tlo[b], MPFR_RNDN);
        mpfr_set(s->Thi_, L->Thi[b], MPFR_RNDN);
    }
    for (size_t k = len; k-- > 0;) {
        if (st + k < n) {
            mpfr_add(s->Tlo_, s->Tlo_, s->welo[k], MPFR_RNDD);
            mpfr_add(s->Thi_, s->Thi_, s->wehi[k], MPFR_RNDU);
        }
        mpfr_set(s->bTlo[k], s->Tlo_, MPFR_RNDN);
        mpfr_set(s->bThi[k], s->Thi_, MPFR_RNDN);
    }
    for (size_t k = 0; k < len; k++) {
        size_t i = st + k;
        if (i == n) {
            mpfr_set_ui(s->rlo[k], 1, MPFR_RNDN);
            mpfr_set_ui(s->rhi[k], 1, MPFR_RNDN);
        } else if (mpfr_zero_p(s->Chi_)) {
            mpfr_set_ui(s->rlo[k], 0, MPFR_RNDN);
            mpfr_set_ui(s->rhi[k], 0, MPFR_RNDN);
        } else {
            if (mpfr_zero_p(s->Clo_)) {
                mpfr_set_ui(s->rlo[k], 0, MPFR_RNDN); /* a valid bound */
            } else {
                mpfr_add(s->d, s->Clo_, s->bThi[k], MPFR_RNDU);
                mpfr_div(s->rlo[k], s->Clo_, s->d, MPFR_RNDD);
            }
            mpfr_add(s->d, s->Chi_, s->bTlo[k], MPFR_RNDD);
            mpfr_div(s->rhi[k], s->Chi_, s->d, MPFR_RNDU);
        }
        if (i < n) {
            mpfr_add(s->Clo_, s->Clo_, s->welo[k], MPFR_RNDD);
            mpfr_add(s->Chi_, s->Chi_, s->wehi[k], MPFR_RNDU);
        }
    }
    return len;
}

/* Level k at precision p: a downward pass for the T checkpoints, an upward one for the C
 * checkpoints and the running max / min; at level 0 the upward pass also gives the
 * 63-bit words (floor and ceil commute with max and min, so the monotone fix-up can be
 * made on the words). */
static int compute_level(em_exact *s, int k, mpfr_prec_t p)
{
    const size_t n = s->n;
    struct xlevel *L = &s->lv[k];
    L->p = p;
    L->nb = (n + 1 + BLOCK - 1) / BLOCK;
    L->bcap = n + 1 < BLOCK ? n + 1 : BLOCK;
    L->Clo = mpfr_array(L->nb, p);
    L->Chi = mpfr_array(L->nb, p);
    L->Tlo = mpfr_array(L->nb, p);
    L->Thi = mpfr_array(L->nb, p);
    L->maxlo = mpfr_array(L->nb, p);
    L->minhi = mpfr_array(L->nb, p);
    for (int c = 0; c < CACHE; c++) {
        L->cache[c].b = -1;
        L->cache[c].Flo = mpfr_array(L->bcap, p);
        L->cache[c].Fhi = mpfr_array(L->bcap, p);
        if (!L->cache[c].Flo || !L->cache[c].Fhi) {
            free_level(L);
            return EM_ERR_NOMEM;
        }
    }
    if (!L->Clo || !L->Chi || !L->Tlo || !L->Thi || !L->maxlo || !L->minhi) {
        free_level(L);
        return EM_ERR_NOMEM;
    }
    scratch_prec(s, p);
    size_t wcap = 0;
    s->wnl = mpfr_custom_get_size(p) / sizeof(mp_limb_t);
    size_t per = 2 * (s->wnl * sizeof(mp_limb_t) + sizeof(mpfr_exp_t) + 1);
    wcap = WCACHE_BYTES / per < n ? WCACHE_BYTES / per : n;
    s->wlimbs = malloc((2 * wcap + 1) * s->wnl * sizeof(mp_limb_t));
    s->wexp = malloc((2 * wcap + 1) * sizeof(mpfr_exp_t));
    s->wkind = malloc(2 * wcap + 1);
    if (!s->wlimbs || !s->wexp || !s->wkind) /* an optimisation only */
        wcap = 0;
    s->wcn = 0;
    /* downward: T(i) = w_i + ... + w_{n-1}; T at the end of block b is T((b+1) BLOCK) */
    mpfr_set_ui(s->Tlo_, 0, MPFR_RNDN);
    mpfr_set_ui(s->Thi_, 0, MPFR_RNDN);
    if (n % BLOCK == 0) { /* a block ends exactly at n: T(n) = 0 */
        mpfr_set_ui(L->Tlo[n / BLOCK - 1], 0, MPFR_RNDN);
        mpfr_set_ui(L->Thi[n / BLOCK - 1], 0, MPFR_RNDN);
    }
    for (size_t i = n; i-- > 0;) {
        weight(s, i, s->welo[0], s->wehi[0]);
        if (i < wcap) {
            wc_put(s, i, 0, s->welo[0]);
            wc_put(s, i, 1, s->wehi[0]);
        }
        mpfr_add(s->Tlo_, s->Tlo_, s->welo[0], MPFR_RNDD);
        mpfr_add(s->Thi_, s->Thi_, s->wehi[0], MPFR_RNDU);
        if (i % BLOCK == 0 && i > 0) {
            mpfr_set(L->Tlo[i / BLOCK - 1], s->Tlo_, MPFR_RNDN);
            mpfr_set(L->Thi[i / BLOCK - 1], s->Thi_, MPFR_RNDN);
        }
    }
    s->wcn = wcap; /* from here weight() reads indices below wcap back */
    /* upward */
    mpfr_set_ui(s->Clo_, 0, MPFR_RNDN);
    mpfr_set_ui(s->Chi_, 0, MPFR_RNDN);
    mpfr_t run;
    mpfr_init2(run, p);
    mpfr_t w;
    mpfr_init2(w, p + 64);
    for (size_t b = 0; b < L->nb; b++) {
        mpfr_set(L->Clo[b], s->Clo_, MPFR_RNDN);
        mpfr_set(L->Chi[b], s->Chi_, MPFR_RNDN);
        size_t len = raw_block(s, L, b);
        for (size_t q = 0; q < len; q++) {
            if (b == 0 && q == 0)
                mpfr_set(run, s->rlo[0], MPFR_RNDN);
            if (q == 0)
                mpfr_set(L->maxlo[b], run, MPFR_RNDN);
            if (mpfr_cmp(s->rlo[q], run) > 0)
                mpfr_set(run, s->rlo[q], MPFR_RNDN);
            /* minhi[b] for now: the block's own minimum (made a suffix min below) */
            if (q == 0 || mpfr_cmp(s->rhi[q], L->minhi[b]) < 0)
                mpfr_set(L->minhi[b], s->rhi[q], MPFR_RNDN);
            if (k == 0) {
                size_t i = b * BLOCK + q;
                mpfr_mul_2ui(w, s->rlo[q], FIX_BITS, MPFR_RNDD); /* exact */
                s->lo64[i] = mpfr_get_uj(w, MPFR_RNDD);
                mpfr_mul_2ui(w, s->rhi[q], FIX_BITS, MPFR_RNDU);
                s->hi64[i] = mpfr_get_uj(w, MPFR_RNDU);
            }
        }
    }
    /* minhi[b] := min over the blocks after b */
    for (size_t b = L->nb; b-- > 1;) {
        if (b < L->nb - 1 && mpfr_cmp(L->minhi[b], L->minhi[b + 1]) > 0)
            mpfr_set(L->minhi[b], L->minhi[b + 1], MPFR_RNDN);
    }
    for (size_t b = 0; b + 1 < L->nb; b++)
        mpfr_set(L->minhi[b], L->minhi[b + 1], MPFR_RNDN);
    mpfr_clears(run, w, (mpfr_ptr)0);
    s->wcn = 0;
    free(s->wlimbs);
    free(s->wexp);
    free(s->wkind);
    s->wlimbs = NULL;
    s->wexp = NULL;
    s->wkind = NULL;
    if (k == 0) {
        for (size_t i = 1; i <= n; i++)
            if (s->lo64[i] < s->lo64[i - 1])
                s->lo64[i] = s->lo64[i - 1];
        for (size_t i = n; i-- > 0;)
            if (s->hi64[i] > s->hi64[i + 1])
                s->hi64[i] = s->hi64[i + 1];
    }
    s->st.levels++;
    if (p > s->st.maxprec)
        s->st.maxprec = p;
    return EM_OK;
}

/* Block b of level L with its final bounds: the raw ones made monotone with the running
 * max / min carried across blocks, as a full computation would have them. */
static int block_get(em_exact *s, struct xlevel *L, size_t b, struct xblock **out)
{
    int victim = 0;
    for (int c = 0; c < CACHE; c++) {
        if (L->cache[c].b == (long)b) {
            L->cache[c].used = ++L->clock;
            *out = &L->cache[c];
            return EM_OK;
        }
        if (L->cache[c].used < L->cache[victim].used)
            victim = c;
    }
    struct xblock *B = &L->cache[victim];
    scratch_prec(s, L->p);
    mpfr_set(s->Clo_, L->Clo[b], MPFR_RNDN);
    mpfr_set(s->Chi_, L->Chi[b], MPFR_RNDN);
    size_t len = raw_block(s, L, b);
    for (size_t q = 0; q < len; q++) {
        mpfr_set(B->Flo[q], s->rlo[q], MPFR_RNDN);
        if (q > 0 && mpfr_cmp(B->Flo[q], B->Flo[q - 1]) < 0)
            mpfr_set(B->Flo[q], B->Flo[q - 1], MPFR_RNDN);
        else if (q == 0 && b > 0 && mpfr_cmp(B->Flo[0], L->maxlo[b]) < 0)
            mpfr_set(B->Flo[0], L->maxlo[b], MPFR_RNDN);
    }
    for (size_t q = len; q-- > 0;) {
        mpfr_set(B->Fhi[q], s->rhi[q], MPFR_RNDN);
        if (q + 1 < len && mpfr_cmp(B->Fhi[q], B->Fhi[q + 1]) > 0)
            mpfr_set(B->Fhi[q], B->Fhi[q + 1], MPFR_RNDN);
        else if (q + 1 == len && b + 1 < L->nb && mpfr_cmp(B->Fhi[q], L->minhi[b]) > 0)
            mpfr_set(B->Fhi[q], L->minhi[b], MPFR_RNDN);
    }
    B->b = (long)b;
    B->used = ++L->clock;
    *out = B;
    return EM_OK;
}

/* Flo[i] or Fhi[i] of level L (hi: which) */
static int F_at(em_exact *s, struct xlevel *L, size_t i, int hi, mpfr_srcptr *v)
{
    struct xblock *B;
    int st = block_get(s, L, i / BLOCK, &B);
    if (st != EM_OK)
        return st;
    *v = hi ? B->Fhi[i % BLOCK] : B->Flo[i % BLOCK];
    return EM_OK;
}

static int exact_init(size_t n, const em_usrc *src, mpq_t *own, const unsigned char *excluded,
                      const mpq_t eps, const mpq_t delta, int variant, em_exact **out)
{
    em_mpfr_widest_range();
    em_exact *s = calloc(1, sizeof *s);
    if (!s) {
        if (own) {
            for (size_t i = 0; i < n; i++)
                mpq_clear(own[i]);
            free(own);
        }
        return EM_ERR_NOMEM;
    }
    s->n = n;
    s->src = *src;
    s->own = own;
    s->select = em_exact_select;
    mpq_inits(s->c, s->umax, s->tq, (mpq_ptr)0);
    mpz_init(s->a);
    mpfr_init2(s->x, 64);
    mpfr_init2(s->y, 64);
    mpfr_inits2(64, s->tlo, s->thi, s->d, s->Clo_, s->Chi_, s->Tlo_, s->Thi_, (mpfr_ptr)0);
    s->wprec = 64;
    s->scap = (n < BLOCK ? n : BLOCK) + 1;
    s->welo = mpfr_array(s->scap, 64);
    s->wehi = mpfr_array(s->scap, 64);
    s->bTlo = mpfr_array(s->scap, 64);
    s->bThi = mpfr_array(s->scap, 64);
    s->rlo = mpfr_array(s->scap, 64);
    s->rhi = mpfr_array(s->scap, 64);
    s->lo64 = malloc((n + 1) * sizeof *s->lo64);
    s->hi64 = malloc((n + 1) * sizeof *s->hi64);
    s->cls = malloc(n);
    if (!s->lo64 || !s->hi64 || !s->cls || !s->welo || !s->wehi || !s->bTlo || !s->bThi ||
        !s->rlo || !s->rhi) {
        em_exact_free(s);
        return EM_ERR_NOMEM;
    }
    size_t m;
    int st = em_exponents_src(n, src, excluded, eps, delta, variant, s->c, s->umax, s->cls, &m);
    if (st != EM_OK) {
        em_exact_free(s);
        return st;
    }
    em_tfast_init(&s->tf, s->c, s->umax);
    s->have_tf = 1;
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
    *out = s;
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
    mpq_t *own = em_q_array_copy(n, u, excluded);
    if (!own)
        return EM_ERR_NOMEM;
    em_usrc src = {em_usrc_array_get, own};
    return exact_init(n, &src, own, excluded, eps, delta, variant, out);
}

int em_exact_new_src(size_t n, const em_usrc *src, const unsigned char *excluded,
                     const mpq_t eps, const mpq_t delta, int variant, em_exact **out)
{
    if (!out || !src || !src->get)
        return EM_ERR_NULL;
    int st = em_exponents_check(n, (mpq_t *)src, eps, delta, variant); /* src: not NULL */
    if (st != EM_OK)
        return st;
    return exact_init(n, src, NULL, excluded, eps, delta, variant, out);
}

void em_exact_free(em_exact *s)
{
    if (!s)
        return;
    for (int k = 0; k < MAX_LEVELS; k++)
        free_level(&s->lv[k]);
    free(s->cls);
    if (s->own) {
        for (size_t i = 0; i < s->n; i++)
            mpq_clear(s->own[i]);
        free(s->own);
    }
    mpq_clears(s->c, s->umax, s->tq, (mpq_ptr)0);
    if (s->have_tf)
        em_tfast_clear(&s->tf);
    mpfr_array_free(s->welo, s->scap);
    mpfr_array_free(s->wehi, s->scap);
    mpfr_array_free(s->bTlo, s->scap);
    mpfr_array_free(s->bThi, s->scap);
    mpfr_array_free(s->rlo, s->scap);
    mpfr_array_free(s->rhi, s->scap);
    mpfr_clears(s->tlo, s->thi, s->d, s->Clo_, s->Chi_, s->Tlo_, s->Thi_, (mpfr_ptr)0);
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
        mpfr_srcptr v;
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            if ((st = F_at(s, L, mid, 1, &v)) != EM_OK)
                return st;
            if (mpfr_cmp(v, s->x) <= 0)
                lo = mid;
            else
                hi = mid - 1;
        }
        if ((st = F_at(s, L, lo, 1, &v)) != EM_OK)
            return st;
        int inside = mpfr_cmp(v, s->x) <= 0;
        if (inside) {
            if ((st = F_at(s, L, lo + 1, 0, &v)) != EM_OK)
                return st;
            inside = mpfr_cmp(s->y, v) <= 0;
        }
        if (inside) {
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
