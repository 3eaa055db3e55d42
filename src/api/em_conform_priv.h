/* em_conform_priv.h: what the conformance suite (em_conform.h) needs from the library's
 * insides, in one place: exact arithmetic on number texts, a scenario's measure and pieces
 * as texts.  Every other file of the suite goes through the public API (and the G-test
 * under any law, judge/em_gof_alt.h).  Never installed. */
#ifndef EM_API_CONFORM_PRIV_H
#define EM_API_CONFORM_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "em_scn.h"

/* x * num / den as exact text (x an exact number, not -inf); NULL when x is not one or on
 * lack of memory. */
char *em_conform_q_scale(const char *x, long num, unsigned long den);
/* The coefficient c = eps / (2 delta) (or eps / delta when monotone) as exact text; NULL
 * when eps or delta is no number (or delta is 0). */
char *em_conform_q_coef(const char *eps, const char *delta, int monotone);
/* -x (x exact or "-inf"); NULL as above. */
char *em_conform_q_neg(const char *x);
/* The double nearest to x; -inf for "-inf", +inf for "inf"; NAN when x is no number. */
double em_conform_q_double(const char *x);
/* 1 when x is an exact number (allow_neg_inf: or "-inf"). */
int em_conform_q_is_number(const char *x, int allow_neg_inf);
/* sign(a - b) of two exact numbers ("-inf" allowed, below everything); 2 on a bad text. */
int em_conform_q_cmp(const char *a, const char *b);

/* The pieces of the quantile kind (em_conform.h): the data clipped to [lo, hi] and sorted,
 * the gaps between consecutive values (and the bounds) as pieces, gap i with the constant
 * utility -|i - alpha n|.  *k pieces; lo/hi/a/b malloc'd arrays of malloc'd texts.
 * EM_OK, EM_ERR_PARSE (a number; alpha outside (0, 1); lo >= hi; no data) with err set,
 * EM_ERR_NOMEM. */
int em_conform_quantile_pieces(size_t nd, const char *const *data, const char *alpha,
                               const char *lo, const char *hi, size_t *k, char ***plo,
                               char ***phi, char ***pa, char ***pb, em_error *err);

/* Candidate i's base measure as exact text (malloc'd), or NULL (none, or no memory). */
char *em_conform_scn_measure(const em_scn *s, size_t i);
/* Piece j's lo, hi, a, b as exact texts ("-inf"/"inf" at a ray's end), malloc'd: EM_OK,
 * EM_ERR_DOMAIN (no such piece), EM_ERR_NOMEM. */
int em_conform_scn_piece(const em_scn *s, size_t j, char **lo, char **hi, char **a, char **b);
/* 1 when the mechanism's scenario was declared monotone. */
int em_conform_scn_monotone(const em_scn *s);

#endif
