/* em_conform_int.h: what the conformance suite (em_conform.h) needs from the library's
 * insides, in one place: exact arithmetic on number texts, a scenario's measure and pieces
 * as texts, the G-test with pooling and the power of a chi-square test.  Every other file
 * of the suite goes through the public API.  Never installed. */
#ifndef EM_JUDGE_CONFORM_INT_H
#define EM_JUDGE_CONFORM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "em_scn.h"

/* x * num / den as exact text (x an exact number, not -inf); NULL when x is not one or on
 * lack of memory. */
char *eci_scale(const char *x, long num, unsigned long den);
/* The coefficient c = eps / (2 delta) (or eps / delta when monotone) as exact text; NULL
 * when eps or delta is no number (or delta is 0). */
char *eci_coef(const char *eps, const char *delta, int monotone);
/* -x (x exact or "-inf"); NULL as above. */
char *eci_neg(const char *x);
/* The double nearest to x; -inf for "-inf", +inf for "inf"; NAN when x is no number. */
double eci_double(const char *x);
/* 1 when x is an exact number (allow_neg_inf: or "-inf"). */
int eci_is_number(const char *x, int allow_neg_inf);
/* sign(a - b) of two exact numbers ("-inf" allowed, below everything); 2 on a bad text. */
int eci_cmp(const char *a, const char *b);

/* The pieces of the quantile kind (em_conform.h): the data clipped to [lo, hi] and sorted,
 * the gaps between consecutive values (and the bounds) as pieces, gap i with the constant
 * utility -|i - alpha n|.  *k pieces; lo/hi/a/b malloc'd arrays of malloc'd texts.
 * EM_OK, EM_ERR_PARSE (a number; alpha outside (0, 1); lo >= hi; no data) with err set,
 * EM_ERR_NOMEM. */
int eci_quantile_pieces(size_t nd, const char *const *data, const char *alpha, const char *lo,
                        const char *hi, size_t *k, char ***plo, char ***phi, char ***pa,
                        char ***pb, em_error *err);

/* Candidate i's base measure as exact text (malloc'd), or NULL (none, or no memory). */
char *eci_scn_measure(const em_scn *s, size_t i);
/* Piece j's lo, hi, a, b as exact texts ("-inf"/"inf" at a ray's end), malloc'd: EM_OK,
 * EM_ERR_DOMAIN (no such piece), EM_ERR_NOMEM. */
int eci_scn_piece(const em_scn *s, size_t j, char **lo, char **hi, char **a, char **b);
/* 1 when the mechanism's scenario was declared monotone. */
int eci_scn_monotone(const em_scn *s);

/* em_check's pooling of cells p[0..n) at N draws (min_expected each): cell_of[i] the pool,
 * SIZE_MAX where p is 0; returns the number of pools (0: none, or no memory). */
size_t eci_pool(size_t n, const double *p, uint64_t N, double min_expected, size_t *cell_of);

/* The G-test of counts[0..n) against probabilities p[] (summing to 1 within 1e-9), cells
 * pooled smallest expected first until each expects >= min_expected: *g, *df, *pv (1 when
 * df = 0), *impossible (a draw where p is 0: then *pv = 0).  cell_of: NULL or n entries
 * (SIZE_MAX for p = 0).  EM_OK, EM_ERR_DOMAIN (p does not sum to 1, no draw),
 * EM_ERR_NOMEM. */
int eci_gof(size_t n, const double *p, const uint64_t *counts, double min_expected, double *g,
            size_t *df, double *pv, int *impossible, size_t *cell_of);

/* The level-alpha critical value of the chi-square with df degrees of freedom, and the
 * probability that a noncentral chi-square (df, lambda) exceeds it. */
double eci_power(double df, double lambda, double alpha);

#endif
