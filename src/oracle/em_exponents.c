/* em_exponents.c: the exact inputs shared by the MPFR oracles (see em_exponents.h). */
#include "oracle/em_exponents.h"

#include <stdint.h>
#include <stdlib.h>
#include <mpfr.h>

#include "em_base.h"
#include "num/em_qcmp.h"
#include "num/em_rational.h"

int em_exponents(const em_problem *P, mpq_t *t, unsigned char *cls, size_t *m)
{
    const size_t n = P->n;
    size_t imax = SIZE_MAX;
    mpq_t umax;
    mpq_init(umax);
    for (size_t i = 0; i < n; i++) {
        if (em_problem_excluded(P, i))
            continue;
        em_problem_get(P, i, t[i]);
        if (imax == SIZE_MAX || mpq_cmp(t[i], umax) > 0) {
            imax = i;
            mpq_set(umax, t[i]);
        }
    }
    if (imax == SIZE_MAX) {
        mpq_clear(umax);
        return EM_ERR_ALL_EXCLUDED;
    }
    *m = 0;
    for (size_t i = 0; i < n; i++) {
        if (em_problem_excluded(P, i)) {
            mpq_set_ui(t[i], 0, 1);
            cls[i] = CL_EXCLUDED;
            continue;
        }
        (*m)++;
        mpq_sub(t[i], t[i], umax);
        if (mpq_sgn(t[i]) == 0) {
            cls[i] = CL_MODE;
            continue;
        }
        mpq_mul(t[i], t[i], P->c);
        cls[i] = CL_OTHER;
    }
    mpq_clear(umax);
    return EM_OK;
}

int em_exponents_classes(const em_problem *P, const em_utility_reader *src, mpq_t umax,
                         unsigned char *cls, size_t *m)
{
    const size_t n = P->n;
    mpq_t v;
    mpq_init(v);
    int have = 0;
    for (size_t i = 0; i < n; i++) {
        if (em_problem_excluded(P, i))
            continue;
        src->get(src->ctx, i, v);
        if (!have || em_qcmp(v, umax) > 0) {
            mpq_set(umax, v);
            have = 1;
        }
    }
    if (!have) {
        mpq_clear(v);
        return EM_ERR_ALL_EXCLUDED;
    }
    *m = 0;
    for (size_t i = 0; i < n; i++) {
        if (em_problem_excluded(P, i)) {
            cls[i] = CL_EXCLUDED;
            continue;
        }
        (*m)++;
        src->get(src->ctx, i, v);
        cls[i] = mpq_equal(v, umax) ? CL_MODE : CL_OTHER;
    }
    mpq_clear(v);
    return EM_OK;
}

void em_exponent_t(const em_utility_reader *src, size_t i, const mpq_t c, const mpq_t umax, mpq_t t)
{
    src->get(src->ctx, i, t);
    mpq_sub(t, t, umax);
    mpq_mul(t, t, c);
}

void em_tfast_init(em_tfast *f, const mpq_t c, const mpq_t umax)
{
    mpz_inits(f->P, f->Q, f->R, f->N, f->D, (mpz_ptr)0);
    mpq_init(f->u);
    mpfr_inits2(64, f->Nf, f->Df, (mpfr_ptr)0);
    mpz_mul(f->P, mpq_numref(c), mpq_denref(umax));
    mpz_mul(f->Q, mpq_numref(c), mpq_numref(umax));
    mpz_mul(f->R, mpq_denref(c), mpq_denref(umax));
}

void em_tfast_clear(em_tfast *f)
{
    mpz_clears(f->P, f->Q, f->R, f->N, f->D, (mpz_ptr)0);
    mpq_clear(f->u);
    mpfr_clears(f->Nf, f->Df, (mpfr_ptr)0);
}

static void set_z_exact(mpfr_t x, const mpz_t z)
{
    size_t bits = mpz_sizeinbase(z, 2);
    mpfr_set_prec(x, bits < MPFR_PREC_MIN ? MPFR_PREC_MIN : (mpfr_prec_t)bits);
    mpfr_set_z(x, z, MPFR_RNDN); /* exact */
}

int em_exponent_t_lo(em_tfast *f, const em_utility_reader *src, size_t i, mpfr_t lo)
{
    src->get(src->ctx, i, f->u);
    mpz_mul(f->N, mpq_numref(f->u), f->P);
    mpz_submul(f->N, mpq_denref(f->u), f->Q);
    mpz_mul(f->D, mpq_denref(f->u), f->R);
    set_z_exact(f->Nf, f->N);
    set_z_exact(f->Df, f->D);
    return mpfr_div(lo, f->Nf, f->Df, MPFR_RNDD);
}

mpq_t *em_q_array_copy(const em_problem *P)
{
    const size_t n = P->n;
    mpq_t *own = em_q_array_new(n);
    for (size_t i = 0; own && i < n; i++)
        if (!em_problem_excluded(P, i))
            em_problem_get(P, i, own[i]);
    return own;
}

unsigned char *em_excluded_flags(const unsigned char *cls, size_t n)
{
    unsigned char *ex = malloc(n ? n : 1);
    if (ex)
        for (size_t i = 0; i < n; i++)
            ex[i] = cls[i] == CL_EXCLUDED;
    return ex;
}

int em_exponents_new(const em_problem *P, mpq_t **t, unsigned char **cls, size_t *m)
{
    const size_t n = P->n;
    *t = em_q_array_new(n);
    *cls = malloc(n);
    if (!*t || !*cls) {
        em_exponents_free(n, *t, *cls);
        *t = NULL;
        *cls = NULL;
        return EM_ERR_NOMEM;
    }
    int st = em_exponents(P, *t, *cls, m);
    if (st != EM_OK) {
        em_exponents_free(n, *t, *cls);
        *t = NULL;
        *cls = NULL;
    }
    return st;
}

void em_exponents_free(size_t n, mpq_t *t, unsigned char *cls)
{
    em_q_array_free(t, n);
    free(cls);
}
