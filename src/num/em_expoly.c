/* em_expoly.c: exponential polynomials and their exact signs (em_expoly.h). */
#include "num/em_expoly.h"

#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_mem.h"
#include "num/em_bounds.h"
#include "num/em_round.h"
#include "num/em_rational.h"

void em_expoly_init(em_expoly *P)
{
    memset(P, 0, sizeof *P);
}

void em_expoly_clear(em_expoly *P)
{
    em_q_array_free(P->q, P->cap);
    em_q_array_free(P->t, P->cap);
    memset(P, 0, sizeof *P);
}

void em_expoly_reset(em_expoly *P)
{
    P->n = 0;
}

int em_expoly_add(em_expoly *P, const mpq_t q, const mpq_t t)
{
    if (mpq_sgn(q) == 0)
        return EM_OK;
    if (P->n == P->cap) {
        size_t nc = P->cap ? 2 * P->cap : 16;
        if (!em_realloc_array(&P->q, nc, sizeof *P->q) || !em_realloc_array(&P->t, nc, sizeof *P->t))
            return EM_ERR_NOMEM;
        for (size_t i = P->cap; i < nc; i++) {
            mpq_init(P->q[i]);
            mpq_init(P->t[i]);
        }
        P->cap = nc;
    }
    mpq_set(P->q[P->n], q);
    mpq_set(P->t[P->n], t);
    P->n++;
    return EM_OK;
}

static const em_expoly *sort_P;
static int cmp_term(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    return mpq_cmp(sort_P->t[i], sort_P->t[j]);
}

/* P with equal exponents merged exactly, zero terms dropped, exponents ascending */
int em_expoly_merged(const em_expoly *P, em_expoly *M)
{
    em_expoly_init(M);
    if (P->n == 0)
        return EM_OK;
    sort_P = P;
    size_t *ix = em_sorted_indices(P->n, cmp_term);
    if (!ix)
        return EM_ERR_NOMEM;
    mpq_t acc;
    mpq_init(acc);
    int st = EM_OK;
    for (size_t i = 0; i < P->n && st == EM_OK;) {
        size_t j = i;
        mpq_set_ui(acc, 0, 1);
        while (j < P->n && mpq_equal(P->t[ix[j]], P->t[ix[i]])) {
            mpq_add(acc, acc, P->q[ix[j]]);
            j++;
        }
        st = em_expoly_add(M, acc, P->t[ix[i]]);
        i = j;
    }
    free(ix);
    mpq_clear(acc);
    if (st != EM_OK)
        em_expoly_clear(M);
    return st;
}

/* lo <= sum q exp(t - shift) <= hi at precision p (lo, hi at precision p) */
void em_expoly_eval(const em_expoly *M, const mpq_t shift, mpfr_prec_t p, mpfr_t slo, mpfr_t shi)
{
    mpfr_t elo, ehi, s1, s2, x;
    mpfr_inits2(p, elo, ehi, s1, s2, x, (mpfr_ptr)0);
    mpq_t d;
    mpq_init(d);
    mpfr_set_zero(slo, 1);
    mpfr_set_zero(shi, 1);
    for (size_t i = 0; i < M->n; i++) {
        mpq_sub(d, M->t[i], shift);
        em_exp_q_bounds(elo, ehi, d, s1, s2);
        if (mpq_sgn(M->q[i]) > 0) {
            mpfr_mul_q(x, elo, M->q[i], MPFR_RNDD);
            mpfr_add(slo, slo, x, MPFR_RNDD);
            mpfr_mul_q(x, ehi, M->q[i], MPFR_RNDU);
            mpfr_add(shi, shi, x, MPFR_RNDU);
        } else {
            mpfr_mul_q(x, ehi, M->q[i], MPFR_RNDD);
            mpfr_add(slo, slo, x, MPFR_RNDD);
            mpfr_mul_q(x, elo, M->q[i], MPFR_RNDU);
            mpfr_add(shi, shi, x, MPFR_RNDU);
        }
    }
    mpq_clear(d);
    mpfr_clears(elo, ehi, s1, s2, x, (mpfr_ptr)0);
}

/* bounds of sum q exp(t - tmax) of a merged polynomial (largest exponent last) */
static int merged_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    const em_expoly *M = ctx;
    em_expoly_eval(M, M->t[M->n - 1], prec, lo, hi);
    return EM_OK;
}

int em_expoly_sign(em_expoly *P, int *sign)
{
    em_expoly M;
    int st = em_expoly_merged(P, &M);
    if (st != EM_OK)
        return st;
    if (M.n == 0) {
        *sign = 0;
    } else {
        /* the sign of 0 decided by the bounds alone: M is non-zero (Lindemann-Weierstrass) */
        em_rval v = {merged_bounds, NULL, &M};
        mpq_t zero;
        mpq_init(zero);
        st = em_round_cmp(&v, 64, zero, sign);
        mpq_clear(zero);
    }
    em_expoly_clear(&M);
    return st;
}
