/* em_exponents.h: the exact inputs shared by the MPFR oracles (em_oracle_*.c, em_exact_*.c,
 * em_pf.c): the exponents t_i = c (u_i - u*) <= 0 of a problem (em_problem.h: c its
 * coefficient, u* the largest utility) and the class of each candidate.  Internal to
 * src/oracle/.
 */
#ifndef EM_EXPONENTS_H
#define EM_EXPONENTS_H

#include <stddef.h>
#include <gmp.h>
#include <mpfr.h>

#include "oracle/em_problem.h"

/* class of a candidate: excluded (u = -inf), mode (t = 0), other (t < 0) */
enum { CL_EXCLUDED = 0, CL_MODE = 1, CL_OTHER = 2 };

/* t[i] (initialised by the caller) and cls[i] for the n candidates of P; t is 0 where
 * excluded.  *m is the number not excluded.  EM_OK, or EM_ERR_ALL_EXCLUDED. */
int em_exponents(const em_problem *P, mpq_t *t, unsigned char *cls, size_t *m);

/* em_exponents into fresh arrays: *t (n initialised mpq_t) and *cls (n classes), owned
 * by the caller (em_exponents_free).  EM_OK, EM_ERR_NOMEM, or the error of em_exponents;
 * on error nothing stays allocated and *t, *cls are NULL.  Callers run
 * em_problem_check first. */
int em_exponents_new(const em_problem *P, mpq_t **t, unsigned char **cls, size_t *m);

/* The flags cls[i] == CL_EXCLUDED of n classes (an em_problem's excluded), malloc'd;
 * NULL when out of memory. */
unsigned char *em_excluded_flags(const unsigned char *cls, size_t n);

/* Frees what em_exponents_new returned (t may be NULL). */
void em_exponents_free(size_t n, mpq_t *t, unsigned char *cls);

/* The same through a reader of P's utilities, without n rationals: umax = the largest
 * utility, cls[i] the classes, *m the number not excluded; t_i is then em_exponent_t with
 * P's coefficient (two passes over src here).  EM_OK or EM_ERR_ALL_EXCLUDED. */
int em_exponents_classes(const em_problem *P, const em_utility_reader *src, mpq_t umax,
                         unsigned char *cls, size_t *m);

/* t = c (u_i - umax), the exact exponent of candidate i (not excluded): the same rational
 * em_exponents gives. */
void em_exponent_t(const em_utility_reader *src, size_t i, const mpq_t c, const mpq_t umax, mpq_t t);

/* RNDD(t_i) at lo's precision without canonical rationals (no gcd): with u_i = a/b,
 * umax = A/B, c = cn/cd, t_i = (a cn B - b cn A) / (b cd B) is divided once, correctly
 * rounded like mpfr_set_q of the canonical t_i, so the result is the same number.
 * Returns the ternary value (0: t_i exact).  Scratch in f (em_tfast_init/clear). */
typedef struct em_tfast {
    mpz_t P, Q, R, N, D;
    mpq_t u;
    mpfr_t Nf, Df;
} em_tfast;
void em_tfast_init(em_tfast *f, const mpq_t c, const mpq_t umax);
void em_tfast_clear(em_tfast *f);
int em_exponent_t_lo(em_tfast *f, const em_utility_reader *src, size_t i, mpfr_t lo);

/* A copy of P's utilities (excluded entries 0) for the constructors, which keep the
 * caller's values while the caller may free its own at once; NULL when out of memory. */
mpq_t *em_q_array_copy(const em_problem *P);


#endif
