/* em_problem.h: what is being sampled, as one value.  Every oracle, sampler and judge of
 * the exponential mechanism takes an em_problem: the utilities (an array of rationals, a
 * reader of them, or doubles), which candidates are excluded, a base measure, or the
 * pieces of a continuous range; epsilon, the sensitivity, and the coefficient
 * c = eps / (2 delta) (EM_STANDARD) or eps / delta (EM_MONOTONE) computed from them by
 * em_coef, the one place it is computed.
 *
 * A problem refers to its arrays and pieces without owning them; constructors copy what
 * they keep, except a reader's context, which must outlive what is built on it. */
#ifndef EM_ORACLE_PROBLEM_H
#define EM_ORACLE_PROBLEM_H

#include <stddef.h>
#include <gmp.h>

#include "em_base.h"
#include "num/em_pieces.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exact utilities read one at a time, so that a caller holding them compactly
 * (io/em_scn_text.h: an int64 mantissa and an exponent, about 10 bytes each instead of a
 * rational's 100) never builds n rationals: at 10^7 candidates that array alone is a
 * gigabyte.  get(ctx, i, q) sets q to u_i exactly (canonical); it is not called for an
 * excluded candidate, and must give the same value every time. */
typedef struct em_utility_reader {
    void (*get)(const void *ctx, size_t i, mpq_t q);
    const void *ctx;
} em_utility_reader;

/* The reader over an array of rationals (ctx: the mpq_t array). */
void em_utility_array_get(const void *ctx, size_t i, mpq_t q);

typedef struct em_problem {
    size_t n;                       /* finite: the candidates (0 when continuous) */
    /* the utilities, one of (u_i is not read where excluded): */
    mpq_t *u;                       /*   exact rationals */
    em_utility_reader reader;       /*   read one at a time (get NULL: not given) */
    const double *ud;               /*   doubles, exact dyadic rationals (-inf: excluded) */
    const unsigned char *excluded;  /* excluded[i]: candidate i has utility -inf; NULL: none */
    mpq_t *measure;                 /* base measure m_i >= 0 (P(i) ~ m_i exp(c u_i)); NULL: 1 */
    const em_pieces *pieces;        /* continuous: the pieces; NULL when finite */
    int variant;                    /* EM_STANDARD or EM_MONOTONE: which coefficient */
    mpq_t eps, delta;               /* exact, > 0 */
    mpq_t c;                        /* the coefficient: em_coef(eps, delta, variant) */
    double eps_d, delta_d;          /* em_problem_doubles: eps and delta as the doubles they
                                       are (0: not given), read by em_exact_new_d */
} em_problem;

/* c = eps / (2 delta) (EM_STANDARD) or eps / delta (EM_MONOTONE), exactly. */
void em_coef(mpq_t c, const mpq_t eps, const mpq_t delta, int variant);

/* An empty problem (no utilities, eps = delta = c = 0), to be filled. */
void em_problem_init(em_problem *P);
void em_problem_clear(em_problem *P);

/* Set epsilon, the sensitivity and the variant, and the coefficient from them.  Errors,
 * with a message in err: EM_ERR_NULL, EM_ERR_EPSILON / EM_ERR_SENSITIVITY (not > 0),
 * EM_ERR_VARIANT (not EM_STANDARD or EM_MONOTONE). */
int em_problem_params(em_problem *P, const mpq_t eps, const mpq_t delta, int variant,
                      em_error *err);

/* A finite problem from n rationals: em_problem_params, then u and excluded (which may be
 * NULL) set; P initialised by the caller. */
int em_problem_finite(em_problem *P, size_t n, mpq_t *u, const unsigned char *excluded,
                      const mpq_t eps, const mpq_t delta, int variant, em_error *err);

/* A finite problem from doubles (the exact dyadic rationals they denote): eps and delta
 * finite and > 0 (EM_ERR_EPSILON / EM_ERR_SENSITIVITY), variant EM_STANDARD or
 * EM_MONOTONE, u[i] = -inf or excluded[i] excludes candidate i.  u is not copied. */
int em_problem_doubles(em_problem *P, size_t n, const double *u, const unsigned char *excluded,
                       double eps, double delta, int variant, em_error *err);

/* The checks every finite constructor makes: EM_ERR_NULL (P NULL, or no utilities),
 * EM_ERR_EMPTY (n == 0), EM_ERR_TOO_MANY (n > EM_N_MAX), EM_ERR_EPSILON /
 * EM_ERR_SENSITIVITY (parameters never set), with a message in err. */
int em_problem_check(const em_problem *P, em_error *err);

/* What every em_X_new(P, &out, err) checks first: EM_ERR_NULL ("who: out is NULL") when
 * out is NULL, then em_problem_check. */
int em_problem_check_new(const em_problem *P, const void *out, const char *who, em_error *err);

/* u_i exactly (from u, the reader or ud; i not excluded). */
void em_problem_get(const em_problem *P, size_t i, mpq_t q);

/* The reader of P's utilities: the given reader, else one over u (valid while P's array
 * is). */
em_utility_reader em_problem_reader(const em_problem *P);

/* Candidate i excluded. */
static inline int em_problem_excluded(const em_problem *P, size_t i)
{
    return P->excluded && P->excluded[i];
}

#ifdef __cplusplus
}
#endif
#endif
