/* em_exact_levels.c: the MPFR side of the exact sampler: the bounds of F at a precision
 * level, kept as checkpoints every BLOCK indices from which a block is recomputed, bit for
 * bit the values a full computation gives. */
#include "oracle/em_exact_priv.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "base/em_mem.h"
#include "core/em_exact_encl.h"
#include "core/em_exact_select.h"
#include "core/em_params.h"
#include "num/em_bounds.h"
#include "num/em_rational.h"
#include "oracle/em_exponents.h"
#include "oracle/em_wbound.h"

long em_exact_bitlen(size_t n)
{
    return n ? 64 - __builtin_clzll((unsigned long long)n) : 0;
}

static void free_level(struct xlevel *L)
{
    if (L->nb == 0)
        return;
    mpfr_t *per_block[] = {L->Clo, L->Chi, L->Tlo, L->Thi, L->maxlo, L->minhi};
    em_mpfr_arrays_free(per_block, sizeof per_block / sizeof per_block[0], L->nb);
    for (int k = 0; k < CACHE; k++)
        em_mpfr_arrays_free((mpfr_t *[]){L->cache[k].Flo, L->cache[k].Fhi}, 2, L->bcap);
    memset(L, 0, sizeof *L);
}

static void scratch_prec(struct xmp *s, mpfr_prec_t p)
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

static void wc_put(struct xmp *s, size_t j, int h, mpfr_srcptr v)
{
    size_t k = 2 * j + (size_t)h;
    s->wkind[k] = (signed char)mpfr_custom_get_kind(v);
    s->wexp[k] = 0;
    if (mpfr_regular_p(v)) {
        s->wexp[k] = mpfr_custom_get_exp(v);
        memcpy(s->wlimbs + k * s->wnl, mpfr_custom_get_significand(v), s->wnl * sizeof(mp_limb_t));
    }
}

static void wc_get(struct xmp *s, size_t j, int h, mpfr_ptr v)
{
    size_t k = 2 * j + (size_t)h;
    mpfr_t c;
    mpfr_custom_init_set(c, s->wkind[k], s->wexp[k], s->wprec, s->wlimbs + k * s->wnl);
    mpfr_set(v, c, MPFR_RNDN); /* same precision: exact */
}

/* Bounds of the weight w_j = exp(t_j) at the scratch precision. */
static void weight(struct xmp *s, size_t j, mpfr_t elo, mpfr_t ehi)
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

/* The raw bounds of block b into s->rlo / s->rhi [0, len) (len returned; 0 if a sum passed
 * s->cap, which weights <= 1 never make it):
 *   F(i) = C / (C + T) is increasing in C and decreasing in T, so
 *   F_lo = RNDD(C_lo / RNDU(C_lo + T_hi)),  F_hi = RNDU(C_hi / RNDD(C_hi + T_lo)),
 * F(n) = 1 and F = 0 where C = 0, exactly.  The block's sums and quotients are
 * em_encl_suffix's and em_encl_upward's (src/core/em_exact_encl.h, proven from MPFR's
 * directed rounding).  Clo_/Chi_ enter as C(start) and leave as C(end). */
static size_t raw_block(struct xmp *s, struct xlevel *L, size_t b)
{
    const size_t n = s->n, st = b * BLOCK;
    size_t len = n + 1 - st < BLOCK ? n + 1 - st : BLOCK;
    size_t nw = st + len <= n ? len : len - 1; /* weights w_st .. inside the block */
    for (size_t k = 0; k < nw; k++)
        weight(s, st + k, s->welo[k], s->wehi[k]);
    /* T after the block's weights: its checkpoint, or T(n) = 0 */
    if (st + len > n) {
        mpfr_set_ui(s->bTlo[nw], 0, MPFR_RNDN);
        mpfr_set_ui(s->bThi[nw], 0, MPFR_RNDN);
    } else {
        mpfr_set(s->bTlo[nw], L->Tlo[b], MPFR_RNDN);
        mpfr_set(s->bThi[nw], L->Thi[b], MPFR_RNDN);
    }
    /* the arrays are contiguous mpfr_t, so element k of each is its first plus k */
    if (em_encl_suffix(nw, s->bTlo[0], s->bThi[0], s->welo[0], s->wehi[0], s->cap) != 0 ||
        em_encl_upward(nw, s->rlo[0], s->rhi[0], s->d, s->Clo_, s->Chi_, s->bTlo[0],
                       s->bThi[0], s->welo[0], s->wehi[0], s->cap) != 0)
        return 0;
    if (nw < len) { /* the last index is n */
        mpfr_set_ui(s->rlo[nw], 1, MPFR_RNDN);
        mpfr_set_ui(s->rhi[nw], 1, MPFR_RNDN);
    }
    return len;
}

/* Level k at precision p: a downward pass for the T checkpoints, an upward one for the C
 * checkpoints and the running max / min; at level 0 the upward pass also gives the
 * 63-bit words (floor and ceil commute with max and min, so the monotone fix-up can be
 * made on the words). */
int em_exact_compute_level(struct xmp *s, int k, mpfr_prec_t p, int words)
{
    const size_t n = s->n;
    struct xlevel *L = &s->lv[k];
    L->p = p;
    L->nb = (n + 1 + BLOCK - 1) / BLOCK;
    L->bcap = n + 1 < BLOCK ? n + 1 : BLOCK;
    L->Clo = em_mpfr_array_new(L->nb, p);
    L->Chi = em_mpfr_array_new(L->nb, p);
    L->Tlo = em_mpfr_array_new(L->nb, p);
    L->Thi = em_mpfr_array_new(L->nb, p);
    L->maxlo = em_mpfr_array_new(L->nb, p);
    L->minhi = em_mpfr_array_new(L->nb, p);
    for (int c = 0; c < CACHE; c++) {
        L->cache[c].b = -1;
        L->cache[c].Flo = em_mpfr_array_new(L->bcap, p);
        L->cache[c].Fhi = em_mpfr_array_new(L->bcap, p);
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
        em_encl_add(s->Tlo_, s->Thi_, s->welo[0], s->wehi[0]);
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
    int st = EM_OK;
    for (size_t b = 0; b < L->nb; b++) {
        mpfr_set(L->Clo[b], s->Clo_, MPFR_RNDN);
        mpfr_set(L->Chi[b], s->Chi_, MPFR_RNDN);
        size_t len = raw_block(s, L, b);
        if (len == 0) {
            st = EM_ERR_UNDECIDED;
            break;
        }
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
            if (words) {
                size_t i = b * BLOCK + q; /* floor and ceil of 2^FIX_BITS r, proven */
                em_encl_words(&s->lo64[i], &s->hi64[i], w, s->rlo[q], s->rhi[q]);
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
    EM_FREE_NULL_ALL(&s->wlimbs, &s->wexp, &s->wkind);
    if (st != EM_OK) {
        free_level(L);
        return st;
    }
    if (words)
        em_encl_monotone(n, s->lo64, s->hi64);
    s->st->levels++;
    if (p > s->st->maxprec)
        s->st->maxprec = p;
    return EM_OK;
}

/* Block b of level L with its final bounds: the raw ones made monotone with the running
 * max / min carried across blocks, as a full computation would have them. */
static int block_get(struct xmp *s, struct xlevel *L, size_t b, struct xblock **out)
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
    if (len == 0)
        return EM_ERR_UNDECIDED;
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
int em_exact_F_at(struct xmp *s, struct xlevel *L, size_t i, int hi, mpfr_srcptr *v)
{
    struct xblock *B;
    int st = block_get(s, L, i / BLOCK, &B);
    if (st != EM_OK)
        return st;
    *v = hi ? B->Fhi[i % BLOCK] : B->Flo[i % BLOCK];
    return EM_OK;
}

void em_exact_mp_free(struct xmp *m)
{
    if (!m)
        return;
    for (int k = 0; k < MAX_LEVELS; k++)
        free_level(&m->lv[k]);
    mpq_clears(m->c, m->umax, m->tq, (mpq_ptr)0);
    if (m->have_tf)
        em_tfast_clear(&m->tf);
    mpfr_t *scratch[] = {m->welo, m->wehi, m->bTlo, m->bThi, m->rlo, m->rhi};
    em_mpfr_arrays_free(scratch, sizeof scratch / sizeof scratch[0], m->scap);
    mpfr_clears(m->tlo, m->thi, m->d, m->Clo_, m->Chi_, m->Tlo_, m->Thi_, m->cap, (mpfr_ptr)0);
    mpz_clear(m->a);
    mpfr_clears(m->x, m->y, (mpfr_ptr)0);
    free(m);
}

/* Level 0 at p0 (written into lo64 / hi64 when words). */
int em_exact_mp_level0(struct xmp *m, int words)
{
    /* enough bits that the 63-bit words are tight to about one unit */
    /* the sums of n bounds lose about log2(n) bits; 16 to spare (two limbs up to n = 2^48) */
    long nb = em_exact_bitlen(m->n);
    mpfr_prec_t p0 = (mpfr_prec_t)(((FIX_BITS + nb + 16) + 63) / 64 * 64);
    int st = em_exact_compute_level(m, 0, p0, words);
    if (st == EM_OK)
        m->nlev = 1;
    return st;
}

/* The MPFR side of s for the problem P: classes, exponents, and level 0 at p0 (written
 * into lo64 / hi64 when words = 1; not computed when words < 0).  EM_OK, EM_ERR_NOMEM, or
 * em_exponents_classes's error. */
int em_exact_mp_setup(em_exact *s, const em_problem *P, int words)
{
    const size_t n = s->n;
    em_mpfr_widest_range();
    struct xmp *m = calloc(1, sizeof *m);
    if (!m)
        return EM_ERR_NOMEM;
    m->n = n;
    m->src = s->src;
    m->cls = s->cls;
    m->lo64 = s->lo64;
    m->hi64 = s->hi64;
    m->st = &s->st;
    mpq_inits(m->c, m->umax, m->tq, (mpq_ptr)0);
    mpz_init(m->a);
    mpfr_init2(m->x, 64);
    mpfr_init2(m->y, 64);
    mpfr_inits2(64, m->tlo, m->thi, m->d, m->Clo_, m->Chi_, m->Tlo_, m->Thi_, m->cap, (mpfr_ptr)0);
    mpfr_set_ui_2exp(m->cap, 1, 996, MPFR_RNDN);
    m->wprec = 64;
    m->scap = (n < BLOCK ? n : BLOCK) + 1;
    m->welo = em_mpfr_array_new(m->scap, 64);
    m->wehi = em_mpfr_array_new(m->scap, 64);
    m->bTlo = em_mpfr_array_new(m->scap, 64);
    m->bThi = em_mpfr_array_new(m->scap, 64);
    m->rlo = em_mpfr_array_new(m->scap, 64);
    m->rhi = em_mpfr_array_new(m->scap, 64);
    if (!m->welo || !m->wehi || !m->bTlo || !m->bThi || !m->rlo || !m->rhi) {
        em_exact_mp_free(m);
        return EM_ERR_NOMEM;
    }
    size_t cnt;
    mpq_set(m->c, P->c);
    int st = em_exponents_classes(P, &m->src, m->umax, m->cls, &cnt);
    if (st != EM_OK) {
        em_exact_mp_free(m);
        return st;
    }
    em_tfast_init(&m->tf, m->c, m->umax);
    m->have_tf = 1;
    s->mp = m;
    if (words < 0)
        return EM_OK;
    st = em_exact_mp_level0(m, words);
    if (st != EM_OK) {
        em_exact_mp_free(m);
        s->mp = NULL;
    }
    return st;
}
