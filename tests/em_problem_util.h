/* em_problem_util.h: the oracles' constructors with the problem (oracle/em_problem.h) built
 * from loose arguments, as the tests and statistical programs state their cases: each
 * builds the problem with the library's builder, calls the constructor, and clears it
 * (the constructors keep copies, never the problem).  The first failing check's status is
 * returned, the builder's (epsilon, sensitivity, variant) before the constructor's.
 * Header-only, static inline; the messages go nowhere except where an err buffer is given. */
#ifndef EM_PROBLEM_UTIL_H
#define EM_PROBLEM_UTIL_H

#include <string.h>

#include "num/em_pieces.h"
#include "oracle/em_accuracy.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "oracle/em_pf_law.h"
#include "oracle/em_problem.h"

/* e's message into err[0..errlen) (err may be NULL), truncated. */
static inline void tp_copy_msg(char *err, size_t errlen, const em_error *e)
{
    if (!err || !errlen)
        return;
    size_t k = strlen(e->msg);
    if (k >= errlen)
        k = errlen - 1;
    memcpy(err, e->msg, k);
    err[k] = 0;
}

/* The constructor call C (an expression using the problem P) on n rationals. */
#define TP_FINITE(n, u, ex, eps, delta, variant, C) \
    do { \
        em_problem P; \
        em_problem_init(&P); \
        st = em_problem_finite(&P, (n), (u), (ex), (eps), (delta), (variant), NULL); \
        if (st == EM_OK) \
            st = (C); \
        em_problem_clear(&P); \
    } while (0)

static inline int tp_oracle_new(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                                const mpq_t delta, int variant, int digits, em_oracle **res)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_oracle_new(&P, digits, res, NULL));
    return st;
}

static inline int tp_oracle_doubles(size_t n, mpq_t *u, const unsigned char *ex,
                                    const mpq_t eps, const mpq_t delta, int variant, double *p,
                                    double *logp)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_oracle_doubles(&P, p, logp, NULL));
    return st;
}

static inline int tp_exact_new(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                               const mpq_t delta, int variant, em_exact **res)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_exact_new(&P, res, NULL));
    return st;
}

static inline int tp_pf_new(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                            const mpq_t delta, int variant, em_pf **res)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_pf_new(&P, res, NULL));
    return st;
}

static inline int tp_pf_pmf(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                            const mpq_t delta, int variant, double *p, int digits, char **dec)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_pf_pmf(&P, p, digits, dec));
    return st;
}

static inline int tp_pf_pmf_bounds(size_t n, mpq_t *u, const unsigned char *ex,
                                   const mpq_t eps, const mpq_t delta, int variant,
                                   mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_pf_pmf_brute_bounds(&P, prec, lo, hi));
    return st;
}

static inline int tp_pfl_new(size_t n, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                             const mpq_t delta, int variant, em_pfl **res)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_pfl_new(&P, res, NULL));
    return st;
}

static inline int tp_pf_utility_new(size_t n, mpq_t *u, const unsigned char *ex,
                                    const mpq_t eps, const mpq_t delta, int variant, int digits,
                                    em_pf_utility **res)
{
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant, em_pf_utility_new(&P, digits, res, NULL));
    return st;
}

/* Utilities through a reader (src may be NULL: no utilities). */
static inline int tp_oracle_new_src(size_t n, const em_utility_reader *src,
                                    const unsigned char *ex, const mpq_t eps, const mpq_t delta,
                                    int variant, int digits, em_oracle **res)
{
    int st;
    TP_FINITE(n, NULL, ex, eps, delta, variant,
              (P.reader = src ? *src : P.reader, em_oracle_new(&P, digits, res, NULL)));
    return st;
}

static inline int tp_exact_new_src(size_t n, const em_utility_reader *src,
                                   const unsigned char *ex, const mpq_t eps, const mpq_t delta,
                                   int variant, em_exact **res)
{
    int st;
    TP_FINITE(n, NULL, ex, eps, delta, variant,
              (P.reader = src ? *src : P.reader, em_exact_new(&P, res, NULL)));
    return st;
}

/* Doubles: the exact dyadic rationals they denote. */
static inline int tp_exact_new_d(size_t n, const double *u, const unsigned char *ex, double eps,
                                 double delta, int variant, em_exact **res)
{
    em_problem P;
    em_problem_init(&P);
    int st = em_problem_doubles(&P, n, u, ex, eps, delta, variant, NULL);
    if (st == EM_OK)
        st = em_exact_new_d(&P, res, NULL);
    em_problem_clear(&P);
    return st;
}

/* The weighted law (m NULL: all 1), its message (if any) into err[0..errlen). */
static inline int tp_cont_new_atoms(size_t n, mpq_t *u, const unsigned char *ex, mpq_t *m,
                                    const mpq_t eps, const mpq_t delta, int variant, int digits,
                                    em_cont **res, char *err, size_t errlen)
{
    em_error e = {EM_OK, ""};
    int st;
    TP_FINITE(n, u, ex, eps, delta, variant,
              (P.measure = m, em_cont_new(&P, digits, res, &e)));
    tp_copy_msg(err, errlen, &e);
    return st;
}

/* The continuous law of ps, its message (if any) into err[0..errlen). */
static inline int tp_cont_new_pieces(const em_pieces *ps, const mpq_t eps, const mpq_t delta,
                                     int variant, int digits, em_cont **res, char *err,
                                     size_t errlen)
{
    em_error e = {EM_OK, ""};
    em_problem P;
    em_problem_init(&P);
    int st = em_problem_params(&P, eps, delta, variant, &e);
    P.pieces = ps;
    if (st == EM_OK)
        st = em_cont_new(&P, digits, res, &e);
    em_problem_clear(&P);
    tp_copy_msg(err, errlen, &e);
    return st;
}

#endif
