/* em_pf.c: permute-and-flip, exact sampler and exact pmf (see em_pf.h,
 * spec/PermuteAndFlip.md). */
#include "core/em_params.h"
#include "oracle/em_pf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>
#define MPFR_USE_INTMAX_T 1
#include <mpfr.h>

#include "em_base.h"
#include "base/em_error.h"
#include "core/em_exact_select.h"
#include "num/em_bounds.h"
#include "num/em_round.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "oracle/em_exponents.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf_law.h"
#include "oracle/em_problem.h"

#define FIX_BITS 63
#define FIRST_BITS 2
#define STEP_BITS 4
#define SLOW_STEP 8

struct em_pf {
    size_t n, m;          /* candidates; those not excluded */
    mpq_t *t;             /* c (u - u*) <= 0 */
    unsigned char *cls;
    size_t *base, *order; /* the non-excluded candidates; the working permutation */
    uint64_t *elo, *ehi;  /* floor / ceil of exp(t) 2^63 */
    em_pf_uniform_fn uniform;
    mpz_t a;
    mpfr_t x, y, tb, eb;
};

/* [lo, hi] around exp(t) at the precision of lo and hi (t <= 0: clamped to <= 1) */
static void exp_bounds(mpfr_t lo, mpfr_t hi, const mpq_t t, mpfr_t tmp)
{
    mpfr_set_prec(tmp, mpfr_get_prec(lo));
    mpfr_set_q(tmp, t, MPFR_RNDD);
    mpfr_exp(lo, tmp, MPFR_RNDD);
    mpfr_set_prec(tmp, mpfr_get_prec(hi));
    mpfr_set_q(tmp, t, MPFR_RNDU);
    mpfr_exp(hi, tmp, MPFR_RNDU);
    if (mpfr_cmp_ui(hi, 1) > 0)
        mpfr_set_ui(hi, 1, MPFR_RNDN);
}

int em_pf_new(const em_problem *P, em_pf **out, em_error *err)
{
    int st = em_problem_check_new(P, out, "em_pf_new", err);
    if (st != EM_OK)
        return st;
    const size_t n = P->n;
    em_mpfr_widest_range();
    em_pf *s = calloc(1, sizeof *s);
    if (!s)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    s->n = n;
    s->uniform = em_bits_uniform_below;
    mpz_init(s->a);
    mpfr_inits2(64, s->x, s->y, s->tb, s->eb, (mpfr_ptr)0);
    s->base = malloc(n * sizeof *s->base);
    s->order = malloc(n * sizeof *s->order);
    s->elo = malloc(n * sizeof *s->elo);
    s->ehi = malloc(n * sizeof *s->ehi);
    if (!s->base || !s->order || !s->elo || !s->ehi) {
        em_pf_free(s);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    st = em_exponents_new(P, &s->t, &s->cls, &s->m);
    if (st != EM_OK) {
        em_pf_free(s);
        return em_err(err, st, "%s", em_strerror(st));
    }
    mpfr_t lo, hi, tmp;
    mpfr_inits2(192, lo, hi, tmp, (mpfr_ptr)0);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        s->elo[i] = s->ehi[i] = 0;
        if (s->cls[i] == CL_EXCLUDED)
            continue;
        s->base[k++] = i;
        if (s->cls[i] == CL_MODE) {
            s->elo[i] = s->ehi[i] = (uint64_t)1 << FIX_BITS;
            continue;
        }
        exp_bounds(lo, hi, s->t[i], tmp);
        mpfr_mul_2ui(lo, lo, FIX_BITS, MPFR_RNDD);
        mpfr_mul_2ui(hi, hi, FIX_BITS, MPFR_RNDU);
        s->elo[i] = mpfr_get_uj(lo, MPFR_RNDD);
        s->ehi[i] = mpfr_get_uj(hi, MPFR_RNDU);
    }
    mpfr_clears(lo, hi, tmp, (mpfr_ptr)0);
    *out = s;
    return EM_OK;
}

void em_pf_free(em_pf *s)
{
    if (!s)
        return;
    em_exponents_free(s->n, s->t, s->cls);
    free(s->base);
    free(s->order);
    free(s->elo);
    free(s->ehi);
    mpz_clear(s->a);
    mpfr_clears(s->x, s->y, s->tb, s->eb, (mpfr_ptr)0);
    free(s);
}

void em_pf_set_uniform(em_pf *s, em_pf_uniform_fn f)
{
    if (s)
        s->uniform = f ? f : em_bits_uniform_below;
}

/* Bernoulli(exp(t_r)) for a candidate that is not a mode: U drawn lazily; accept when
 * U's dyadic interval certainly lies below exp(t_r), reject when certainly above. */
static int coin(em_pf *s, size_t r, em_bits *b, int *accept)
{
    const uint64_t S = (uint64_t)1 << FIX_BITS;
    const uint64_t lo[3] = {0, s->elo[r], S}, hi[3] = {0, s->ehi[r], S};
    unsigned k = FIRST_BITS;
    uint64_t a;
    int st = em_bits_get(b, k, &a);
    if (st != EM_OK)
        return st;
    for (;;) {
        size_t c = em_exact_select(2, lo, hi, a << (FIX_BITS - k), (uint64_t)1 << (FIX_BITS - k));
        if (c < 2) {
            *accept = c == 0;
            return EM_OK;
        }
        if (k == FIX_BITS)
            break;
        if ((st = em_bits_extend(b, STEP_BITS, FIX_BITS, &a, &k)) != EM_OK)
            return st;
    }
    /* past 63 bits: MPFR bounds of exp(t_r) at a precision growing with k */
    mpz_set_ui(s->a, (unsigned long)(a >> 32));
    mpz_mul_2exp(s->a, s->a, 32);
    mpz_add_ui(s->a, s->a, (unsigned long)(a & 0xffffffffu));
    long kk = FIX_BITS;
    for (;;) {
        if (kk + SLOW_STEP > EM_EXACT_MAX_BITS)
            return EM_ERR_DOMAIN;
        uint64_t more;
        st = em_bits_get(b, SLOW_STEP, &more);
        if (st != EM_OK)
            return st;
        mpz_mul_2exp(s->a, s->a, SLOW_STEP);
        mpz_add_ui(s->a, s->a, (unsigned long)more);
        kk += SLOW_STEP;
        mpfr_prec_t p = (mpfr_prec_t)(kk + 64);
        mpfr_set_prec(s->x, kk + 1);
        mpfr_set_prec(s->y, kk + 1);
        mpfr_set_z_2exp(s->x, s->a, -kk, MPFR_RNDN);
        mpz_add_ui(s->a, s->a, 1);
        mpfr_set_z_2exp(s->y, s->a, -kk, MPFR_RNDN);
        mpz_sub_ui(s->a, s->a, 1);
        mpfr_t elo, ehi;
        mpfr_inits2(p, elo, ehi, (mpfr_ptr)0);
        exp_bounds(elo, ehi, s->t[r], s->tb);
        int acc = mpfr_cmp(s->y, elo) <= 0, rej = mpfr_cmp(s->x, ehi) >= 0;
        mpfr_clears(elo, ehi, (mpfr_ptr)0);
        if (acc || rej) {
            *accept = acc;
            return EM_OK;
        }
    }
}

int em_pf_sample(em_pf *s, em_bits *b, size_t *out)
{
    if (!s || !b || !out)
        return EM_ERR_NULL;
    memcpy(s->order, s->base, s->m * sizeof *s->order);
    size_t left = s->m;
    while (left > 0) {
        uint64_t j;
        int st = s->uniform(b, left, &j);
        if (st != EM_OK)
            return st;
        if (j >= left)
            return EM_ERR_DOMAIN;
        size_t r = s->order[j];
        s->order[j] = s->order[left - 1];
        s->order[left - 1] = r;
        left--;
        int acc = 1;
        if (s->cls[r] == CL_OTHER) {
            st = coin(s, r, b, &acc);
            if (st != EM_OK)
                return st;
        }
        if (acc) {
            *out = r;
            return EM_OK;
        }
    }
    return EM_ERR_DOMAIN; /* unreachable: a mode is always accepted */
}

/* ------------------------------------------------------------------ pmf */

int em_pf_pmf_brute_bounds(const em_problem *P, mpfr_prec_t prec, mpfr_t *Plo, mpfr_t *Phi)
{
    int st = em_problem_check(P, NULL);
    if (st != EM_OK)
        return st;
    const size_t n = P->n;
    if (!Plo || !Phi)
        return EM_ERR_NULL;
    if (n > EM_PF_PMF_MAX_N)
        return EM_ERR_TOO_MANY;
    em_mpfr_widest_range();
    mpq_t *t;
    unsigned char *cls;
    size_t m;
    st = em_exponents_new(P, &t, &cls, &m);
    if (st != EM_OK)
        return st;
    /* intervals: p_j, q_j = 1 - p_j; E_k = e_k(q over all non-excluded), G_k = e_k(q
     * without r) by deflation G_k = E_k - q_r G_{k-1}; then
     * P(r) = p_r / m * sum_{k=0}^{m-1} G_k / C(m - 1, k)   (all terms >= 0) */
    size_t nv = 4 * n + 2 * (m + 1) * 2 + 8;
    mpfr_t *v = malloc(nv * sizeof *v);
    if (!v)
        st = EM_ERR_NOMEM;
    else {
        for (size_t i = 0; i < nv; i++)
            mpfr_init2(v[i], prec);
        mpfr_t *plo = v, *phi = v + n, *qlo = v + 2 * n, *qhi = v + 3 * n;
        mpfr_t *Elo = v + 4 * n, *Ehi = Elo + (m + 1), *Glo = Ehi + (m + 1), *Ghi = Glo + (m + 1);
        mpfr_t *sc = Ghi + (m + 1); /* 8 scratch */
        for (size_t j = 0; j < n; j++) {
            if (cls[j] == CL_EXCLUDED) {
                mpfr_set_ui(plo[j], 0, MPFR_RNDN);
                mpfr_set_ui(phi[j], 0, MPFR_RNDN);
            } else if (cls[j] == CL_MODE) {
                mpfr_set_ui(plo[j], 1, MPFR_RNDN);
                mpfr_set_ui(phi[j], 1, MPFR_RNDN);
            } else {
                exp_bounds(plo[j], phi[j], t[j], sc[0]);
                mpfr_set_prec(sc[0], prec);
            }
            mpfr_ui_sub(qlo[j], 1, phi[j], MPFR_RNDD);
            mpfr_ui_sub(qhi[j], 1, plo[j], MPFR_RNDU);
        }
        for (size_t k = 0; k <= m; k++) {
            mpfr_set_ui(Elo[k], k == 0, MPFR_RNDN);
            mpfr_set_ui(Ehi[k], k == 0, MPFR_RNDN);
        }
        size_t cnt = 0;
        for (size_t j = 0; j < n; j++) {
            if (cls[j] == CL_EXCLUDED)
                continue;
            cnt++;
            for (size_t k = cnt; k >= 1; k--) {
                mpfr_mul(sc[0], qlo[j], Elo[k - 1], MPFR_RNDD);
                mpfr_add(Elo[k], Elo[k], sc[0], MPFR_RNDD);
                mpfr_mul(sc[0], qhi[j], Ehi[k - 1], MPFR_RNDU);
                mpfr_add(Ehi[k], Ehi[k], sc[0], MPFR_RNDU);
            }
        }
        mpz_t binom;
        mpz_init(binom);
        for (size_t r = 0; r < n; r++) {
            if (cls[r] == CL_EXCLUDED) {
                mpfr_set_ui(Plo[r], 0, MPFR_RNDN);
                mpfr_set_ui(Phi[r], 0, MPFR_RNDN);
                continue;
            }
            mpfr_set_ui(Glo[0], 1, MPFR_RNDN);
            mpfr_set_ui(Ghi[0], 1, MPFR_RNDN);
            mpfr_set_ui(sc[1], 1, MPFR_RNDN); /* sum lo: G_0 / C(m-1, 0) */
            mpfr_set_ui(sc[2], 1, MPFR_RNDN); /* sum hi */
            mpz_set_ui(binom, 1);
            for (size_t k = 1; k + 1 <= m; k++) {
                mpfr_mul(sc[0], qhi[r], Ghi[k - 1], MPFR_RNDU);
                mpfr_sub(Glo[k], Elo[k], sc[0], MPFR_RNDD);
                if (mpfr_sgn(Glo[k]) < 0)
                    mpfr_set_ui(Glo[k], 0, MPFR_RNDN);
                mpfr_mul(sc[0], qlo[r], Glo[k - 1], MPFR_RNDD);
                mpfr_sub(Ghi[k], Ehi[k], sc[0], MPFR_RNDU);
                if (mpfr_cmp(Ghi[k], Ehi[k]) > 0)
                    mpfr_set(Ghi[k], Ehi[k], MPFR_RNDU);
                /* binom = C(m - 1, k) */
                mpz_mul_ui(binom, binom, (unsigned long)(m - k));
                mpz_divexact_ui(binom, binom, (unsigned long)k);
                mpfr_div_z(sc[0], Glo[k], binom, MPFR_RNDD);
                mpfr_add(sc[1], sc[1], sc[0], MPFR_RNDD);
                mpfr_div_z(sc[0], Ghi[k], binom, MPFR_RNDU);
                mpfr_add(sc[2], sc[2], sc[0], MPFR_RNDU);
            }
            mpfr_mul(Plo[r], sc[1], plo[r], MPFR_RNDD);
            mpfr_div_ui(Plo[r], Plo[r], (unsigned long)m, MPFR_RNDD);
            mpfr_mul(Phi[r], sc[2], phi[r], MPFR_RNDU);
            mpfr_div_ui(Phi[r], Phi[r], (unsigned long)m, MPFR_RNDU);
            if (mpfr_cmp_ui(Phi[r], 1) > 0)
                mpfr_set_ui(Phi[r], 1, MPFR_RNDN);
            if (m == 1) { /* the only candidate: exactly 1 */
                mpfr_set_ui(Plo[r], 1, MPFR_RNDN);
                mpfr_set_ui(Phi[r], 1, MPFR_RNDN);
            }
        }
        mpz_clear(binom);
        for (size_t i = 0; i < nv; i++)
            mpfr_clear(v[i]);
        free(v);
    }
    em_exponents_free(n, t, cls);
    return st;
}

/* ------------------------------------------------ the pmf at rising precision */

struct em_pf_bounds {
    em_pfl *law;
    size_t n;
    mpfr_prec_t prec;       /* of lo and hi; 0 before the first pass */
    mpfr_t *lo, *hi;
    mpfr_prec_t lprec;      /* of llo and lhi (allocated on the first call) */
    mpfr_t *llo, *lhi;
};

int em_pf_bounds_new(const em_problem *P, em_pf_bounds **out)
{
    em_pf_bounds *B = calloc(1, sizeof *B);
    if (!B)
        return EM_ERR_NOMEM;
    int st = em_pfl_new(P, &B->law, NULL);
    if (st != EM_OK) {
        free(B);
        return st;
    }
    B->n = P->n;
    B->lo = em_mpfr_array_new(B->n, 64);
    B->hi = em_mpfr_array_new(B->n, 64);
    if (!B->lo || !B->hi) {
        em_pf_bounds_free(B);
        return EM_ERR_NOMEM;
    }
    *out = B;
    return EM_OK;
}

void em_pf_bounds_free(em_pf_bounds *B)
{
    if (!B)
        return;
    em_mpfr_array_free(B->lo, B->lo ? B->n : 0);
    em_mpfr_array_free(B->hi, B->hi ? B->n : 0);
    em_mpfr_array_free(B->llo, B->llo ? B->n : 0);
    em_mpfr_array_free(B->lhi, B->lhi ? B->n : 0);
    em_pfl_free(B->law);
    free(B);
}

/* The cached pair (lo, hi), at precision *have, refilled by fill when below prec (*have 0
 * while a fill is under way, so that a failed one is redone) */
static int cached_at(em_pf_bounds *B, int (*fill)(em_pfl *, mpfr_prec_t, mpfr_t *, mpfr_t *),
                     mpfr_prec_t *have, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi, mpfr_t **olo,
                     mpfr_t **ohi)
{
    if (*have < prec) {
        *have = 0;
        int st = fill(B->law, prec, lo, hi);
        if (st != EM_OK)
            return st;
        *have = prec;
    }
    *olo = lo;
    *ohi = hi;
    return EM_OK;
}

int em_pf_bounds_at(em_pf_bounds *B, mpfr_prec_t prec, mpfr_t **lo, mpfr_t **hi)
{
    if (B->prec < prec)
        for (size_t i = 0; i < B->n; i++) {
            mpfr_set_prec(B->lo[i], prec);
            mpfr_set_prec(B->hi[i], prec);
        }
    return cached_at(B, em_pfl_bounds, &B->prec, prec, B->lo, B->hi, lo, hi);
}

int em_pf_pmf_bounds(const em_problem *P, mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    if (!lo || !hi)
        return EM_ERR_NULL;
    em_pfl *L;
    int st = em_pfl_new(P, &L, NULL);
    if (st == EM_OK) {
        st = em_pfl_bounds(L, prec, lo, hi);
        em_pfl_free(L);
    }
    return st;
}

int em_pf_bounds_logs_at(em_pf_bounds *B, mpfr_prec_t prec, mpfr_t **llo, mpfr_t **lhi)
{
    if (!B->llo) {
        B->llo = em_mpfr_array_new(B->n, 64);
        B->lhi = B->llo ? em_mpfr_array_new(B->n, 64) : NULL;
        if (!B->lhi) {
            em_mpfr_array_free(B->llo, B->llo ? B->n : 0);
            B->llo = NULL;
            return EM_ERR_NOMEM;
        }
    }
    return cached_at(B, em_pfl_log_bounds, &B->lprec, prec, B->llo, B->lhi, llo, lhi);
}

/* ------------------------------------------------------- the pmf rounded */

int em_pf_pmf(const em_problem *P, double *p, int digits, char **dec)
{
    if (digits < 0 || digits > EM_ROUND_MAX_DIGITS)
        return EM_ERR_DOMAIN;
    const int K = dec ? digits : 0;
    for (size_t i = 0; K > 0 && P && i < P->n; i++)
        dec[i] = NULL;
    em_pfl *L;
    int st = em_pfl_new(P, &L, NULL);
    if (st != EM_OK)
        return st;
    em_pfl_out o = {K > 0 ? dec : NULL, NULL, p, NULL, NULL};
    st = em_pfl_round(L, K, &o);
    em_pfl_free(L);
    for (size_t i = 0; st != EM_OK && K > 0 && i < P->n; i++) {
        free(dec[i]);
        dec[i] = NULL;
    }
    return st;
}
