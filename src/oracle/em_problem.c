/* em_problem.c: what is being sampled (em_problem.h). */
#include "oracle/em_problem.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/em_error.h"
#include "core/em_params.h"

void em_coef(mpq_t c, const mpq_t eps, const mpq_t delta, int variant)
{
    mpq_div(c, eps, delta);
    if (variant == EM_STANDARD) {
        mpz_mul_2exp(mpq_denref(c), mpq_denref(c), 1);
        mpq_canonicalize(c);
    }
}

void em_problem_init(em_problem *P)
{
    memset(P, 0, sizeof *P);
    mpq_inits(P->eps, P->delta, P->c, (mpq_ptr)0);
}

void em_problem_clear(em_problem *P)
{
    mpq_clears(P->eps, P->delta, P->c, (mpq_ptr)0);
    memset(P, 0, sizeof *P);
}

int em_problem_params(em_problem *P, const mpq_t eps, const mpq_t delta, int variant,
                      em_error *err)
{
    if (!P || !eps || !delta)
        return em_err(err, EM_ERR_NULL, "problem, epsilon or sensitivity NULL");
    if (mpq_sgn(eps) <= 0)
        return em_err(err, EM_ERR_EPSILON, "epsilon must be > 0");
    if (mpq_sgn(delta) <= 0)
        return em_err(err, EM_ERR_SENSITIVITY, "the sensitivity must be > 0");
    if (variant != EM_STANDARD && variant != EM_MONOTONE)
        return em_err(err, EM_ERR_VARIANT, "unknown variant %d", variant);
    mpq_set(P->eps, eps);
    mpq_set(P->delta, delta);
    P->variant = variant;
    em_coef(P->c, eps, delta, variant);
    return EM_OK;
}

int em_problem_finite(em_problem *P, size_t n, mpq_t *u, const unsigned char *excluded,
                      const mpq_t eps, const mpq_t delta, int variant, em_error *err)
{
    int st = em_problem_params(P, eps, delta, variant, err);
    if (st != EM_OK)
        return st;
    P->n = n;
    P->u = u;
    P->excluded = excluded;
    return EM_OK;
}

/* x = m 2^e, m odd (x > 0 finite) */
static void odd_split(double x, uint64_t *m, int *e)
{
    int k;
    double f = frexp(x, &k); /* x = f 2^k, f in [1/2, 1): f 2^53 an integer */
    uint64_t a = (uint64_t)ldexp(f, 53);
    int z = __builtin_ctzll(a);
    *m = a >> z;
    *e = k - 53 + z;
}

/* em_coef of two doubles in word arithmetic (mpq_div's temporaries cost more than the
 * exact sampler of a few candidates): eps / (s delta) = (a / b) 2^(x - y - [s = 2]) with
 * a, b odd, so the gcd is that of a and b, and the power of two goes to one side. */
static void coef_d(mpq_t c, double eps, double delta, int variant)
{
    uint64_t a, b;
    int x, y;
    odd_split(eps, &a, &x);
    odd_split(delta, &b, &y);
    uint64_t g = a, h = b;
    while (h) {
        uint64_t r = g % h;
        g = h;
        h = r;
    }
    a /= g;
    b /= g;
    long p = (long)x - y - (variant == EM_STANDARD);
    mpz_set_ui(mpq_numref(c), (unsigned long)a);
    mpz_set_ui(mpq_denref(c), (unsigned long)b);
    if (p >= 0)
        mpz_mul_2exp(mpq_numref(c), mpq_numref(c), (mp_bitcnt_t)p);
    else
        mpz_mul_2exp(mpq_denref(c), mpq_denref(c), (mp_bitcnt_t)-p);
}

int em_problem_doubles(em_problem *P, size_t n, const double *u, const unsigned char *excluded,
                       double eps, double delta, int variant, em_error *err)
{
    int st = em_check_params(eps, delta, variant);
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    /* em_check_params has checked what em_problem_params would */
    mpq_set_d(P->eps, eps);
    mpq_set_d(P->delta, delta);
    P->variant = variant;
    coef_d(P->c, eps, delta, variant);
    P->eps_d = eps;
    P->delta_d = delta;
    P->n = n;
    P->ud = u;
    P->excluded = excluded;
    return st;
}

int em_problem_check(const em_problem *P, em_error *err)
{
    if (!P || (!P->u && !P->reader.get && !P->ud))
        return em_err(err, EM_ERR_NULL, "no utilities");
    if (P->n == 0)
        return em_err(err, EM_ERR_EMPTY, "no candidates");
    if (P->n > EM_N_MAX)
        return em_err(err, EM_ERR_TOO_MANY, "more than %zu candidates", (size_t)EM_N_MAX);
    if (mpq_sgn(P->eps) <= 0)
        return em_err(err, EM_ERR_EPSILON, "epsilon must be > 0");
    if (mpq_sgn(P->delta) <= 0)
        return em_err(err, EM_ERR_SENSITIVITY, "the sensitivity must be > 0");
    return EM_OK;
}

int em_problem_check_new(const em_problem *P, const void *out, const char *who, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "%s: out is NULL", who);
    return em_problem_check(P, err);
}

void em_utility_array_get(const void *ctx, size_t i, mpq_t q)
{
    mpq_set(q, ((const mpq_t *)ctx)[i]);
}

void em_problem_get(const em_problem *P, size_t i, mpq_t q)
{
    if (P->u)
        mpq_set(q, P->u[i]);
    else if (P->reader.get)
        P->reader.get(P->reader.ctx, i, q);
    else
        mpq_set_d(q, P->ud[i]);
}

em_utility_reader em_problem_reader(const em_problem *P)
{
    if (P->reader.get)
        return P->reader;
    return (em_utility_reader){em_utility_array_get, P->u};
}
