/* em_expoly.h: exponential polynomials sum_k q_k exp(t_k) with exact rational q_k, t_k,
 * and their exact signs.  By Lindemann-Weierstrass a polynomial with distinct rational
 * exponents and non-zero coefficients is non-zero as a real number, so once equal
 * exponents are merged, raising the precision decides the sign (spec/Continuous.md). */
#ifndef EM_NUM_EXPOLY_H
#define EM_NUM_EXPOLY_H

#include <stddef.h>
#include <gmp.h>
#include <mpfr.h>

/* sum_k q_k exp(t_k), q_k and t_k exact rationals. */
typedef struct em_expoly {
    size_t n, cap;
    mpq_t *q, *t;
} em_expoly;

void em_expoly_init(em_expoly *P);
void em_expoly_clear(em_expoly *P);
void em_expoly_reset(em_expoly *P);
/* Append q exp(t); EM_OK or EM_ERR_NOMEM. */
int em_expoly_add(em_expoly *P, const mpq_t q, const mpq_t t);
/* P with equal exponents merged exactly, zero terms dropped, exponents ascending (M fresh:
 * the caller clears it).  EM_OK or EM_ERR_NOMEM. */
int em_expoly_merged(const em_expoly *P, em_expoly *M);
/* slo <= sum q exp(t - shift) <= shi at precision p (slo, shi at precision p). */
void em_expoly_eval(const em_expoly *M, const mpq_t shift, mpfr_prec_t p, mpfr_t slo, mpfr_t shi);
/* Exact sign of the value of P: merges equal exponents, then interval evaluation at rising
 * precision.  EM_OK with *sign in {-1, 0, 1}, or EM_ERR_UNDECIDED / EM_ERR_NOMEM. */
int em_expoly_sign(em_expoly *P, int *sign);

#endif
