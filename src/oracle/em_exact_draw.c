/* em_exact_draw.c: one exact draw: lazily drawn bits and the proven integer decision
 * em_exact_select on 63-bit words, then MPFR levels at a precision growing with the bits. */
#include "oracle/em_exact_priv.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_error.h"
#include "core/em_exact_select.h"
#include "core/em_params.h"
#include "num/em_bounds.h"
#include "num/em_rational.h"
#include "oracle/em_exponents.h"
#include "oracle/em_wbound.h"

/* The level whose precision covers k drawn bits with a margin (a function of k only, so
 * the output depends on the bits alone). */
static int level_for(struct xmp *s, long k, int *lvl)
{
    long need = k + em_exact_bitlen(s->n) + 64;
    int j = 0;
    while (s->lv[0].p * ((mpfr_prec_t)1 << j) < need)
        j++;
    if (j >= MAX_LEVELS)
        return EM_ERR_DOMAIN;
    while (s->nlev <= j) {
        int st = em_exact_compute_level(s, s->nlev, s->lv[0].p * ((mpfr_prec_t)1 << s->nlev), 0);
        if (st != EM_OK)
            return st;
        s->nlev++;
    }
    *lvl = j;
    return EM_OK;
}

/* Past 63 bits: U in [a 2^-k, (a + 1) 2^-k) with a an integer of k bits. */
static int slow_path(struct xmp *s, em_bits *b, uint64_t a63, size_t *out)
{
    size_t n = s->n;
    mpz_set_ui(s->a, 0);
    mpz_set_ui(s->a, (unsigned long)(a63 >> 32));
    mpz_mul_2exp(s->a, s->a, 32);
    mpz_add_ui(s->a, s->a, (unsigned long)(a63 & 0xffffffffu));
    long k = FIX_BITS;
    s->st->slow++;
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
            if ((st = em_exact_F_at(s, L, mid, 1, &v)) != EM_OK)
                return st;
            if (mpfr_cmp(v, s->x) <= 0)
                lo = mid;
            else
                hi = mid - 1;
        }
        if ((st = em_exact_F_at(s, L, lo, 1, &v)) != EM_OK)
            return st;
        int inside = mpfr_cmp(v, s->x) <= 0;
        if (inside) {
            if ((st = em_exact_F_at(s, L, lo + 1, 0, &v)) != EM_OK)
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
        if ((st = em_bits_extend(b, STEP_BITS, FIX_BITS, &a, &k)) != EM_OK)
            return st;
    }
    return em_exact_slow(s, b, a, out);
}

int em_exact_slow(em_exact *s, em_bits *b, uint64_t a, size_t *out)
{
    int st;
    if (!s->mp && (st = em_exact_mp_setup_d(s, 0)) != EM_OK)
        return st;
    if (s->mp->nlev == 0 && (st = em_exact_mp_level0(s->mp, 0)) != EM_OK)
        return st;
    uint64_t before = b->used;
    st = slow_path(s->mp, b, a, out);
    if (st == EM_OK) {
        s->st.draws++;
        s->st.bits += FIX_BITS + (b->used - before);
    }
    return st;
}

int em_exact_sample_d(const em_problem *P, em_bits *b, size_t *out, em_error *err)
{
    if (!P || !P->ud || !b || !out)
        return em_err(err, EM_ERR_NULL, "em_exact_sample_d: the doubles, bits or out NULL");
    int fb;
    uint64_t a;
    int st = em_exact_once(P, b, out, &fb, &a, err);
    if (st != EM_OK || fb == 0)
        return st;
    /* the sampler after all (its words are those of em_exact_once), then its draw from the
     * start (nothing drawn yet) or its slow path from U's first 63 bits */
    em_exact *x;
    if ((st = em_exact_new_d(P, &x, err)) != EM_OK)
        return st;
    st = fb == 2 ? em_exact_slow(x, b, a, out) : em_exact_sample(x, b, out);
    em_exact_free(x);
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    return EM_OK;
}
