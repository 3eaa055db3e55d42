/* em_cdf_compare.h: another implementation's CDF table judged against the exact CDF of a
 * continuous law (oracle/em_cont.h).
 *
 * Part of the judges (outside the verified core).  The table has one point per line,
 * `x,cdf`: x exact (decimal, hex float or fraction a/b; em_rational.h), cdf a number read
 * exactly, or nan / inf / -inf as values to judge.  Every given value is compared with the
 * exact F(x) = P(X <= x) (em_cont_cdf_bounds at 256 bits: the errors below are correct to
 * about 2^-240 absolute, and an error within the bounds' width is decided exactly by
 * em_cont_cdf_cmp, so 0 is printed only for an exact value): a value fails when
 *     |given - F(x)| > max(rtol * F(x), atol)
 * (as `expmech compare` judges probabilities: rtol 1e-9 and atol 2^-1074 by default), or
 * when it is NaN, infinite, negative or above 1.  Reported: the largest absolute error and
 * where, the largest relative error |given - F| / F and where (infinite when F = 0 and the
 * value is not), the largest error relative to the upper tail |given - F| / (1 - F) (the
 * accuracy a right tail needs), the failures, and the pairs of points where the given
 * values decrease while x increases (a CDF never does; reported, not failed on its own).
 */
#ifndef EM_JUDGE_CDF_COMPARE_H
#define EM_JUDGE_CDF_COMPARE_H

#include <stddef.h>
#include <gmp.h>

#include "num/em_cdf_table.h"
#include "oracle/em_cont.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_CDF_COMPARE_SHOW 10

typedef struct em_cdf_compare_result {
    size_t n;
    double max_abs; size_t i_abs;          /* over the numeric values */
    double max_rel; size_t i_rel;          /* +inf when F = 0 and the value is not */
    double max_tail; size_t i_tail;        /* |given - F| / (1 - F); +inf when F = 1 */
    size_t nfail, nnan, ninf, nneg, nbig;  /* failures; NaN; +-inf; < 0; > 1 */
    size_t ndecrease;                      /* consecutive points (sorted by x) with given
                                            * values decreasing */
    size_t nshow, show[EM_CDF_COMPARE_SHOW];    /* the first failures (indices into the table) */
    double F_show[EM_CDF_COMPARE_SHOW];         /* the exact F there, as doubles */
    int reject;
} em_cdf_compare_result;

/* Judge the table against C (pieces).  EM_OK, EM_ERR_NULL, EM_ERR_EMPTY (no points),
 * EM_ERR_DOMAIN (atoms; rtol or atol negative or NaN), EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
int em_cdf_compare(em_cont *C, const em_cdf_table *T, double rtol, double atol,
                   em_cdf_compare_result *r);

#ifdef __cplusplus
}
#endif
#endif
