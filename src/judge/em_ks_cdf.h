/* em_ks_cdf.h: a fast enclosure of the CDF of an exact continuous law (em_cont.h, pieces)
 * at many doubles, for the Kolmogorov-Smirnov statistic of em_gof_cont.
 *
 * Per piece, once: F at its ends and the log-density at an end, from the exact law (MPFR
 * intervals, em_cont_cdf_bounds at 64 bits), rounded to doubles.  Per point: the piece by a
 * binary search on doubles, then F(x) = F(lo) + (e^{lf(lo) + k (x - lo)} - e^{lf(lo)}) / k
 * (k = c b, the slope of the log-density; a Taylor series of expm1 for |k| len < 2^-10;
 * e^{lf(x)} / k on a piece from -inf), in double arithmetic, with a bound on its error from
 * the rounding of every operation (IEEE rounding to nearest: 2^-53 relative) and glibc's exp
 * (faithfully rounded, the trusted fact of src/trusted/em_libm.h; 2^-52 relative).  A point
 * within two doubles of a piece's end, or whose bound exceeds EM_KS_CDF_MAX_ERR, gets no
 * value: the caller takes the exact path (em_cont_cdf_bounds) there. */
#ifndef EM_KS_CDF_H
#define EM_KS_CDF_H

#include <stddef.h>

#include "oracle/em_cont.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the largest error bound a fast value may have (larger: the exact path) */
#define EM_KS_CDF_MAX_ERR 0x1p-30

typedef struct em_ks_cdf em_ks_cdf;

/* The per-piece constants of the law C (pieces: EM_ERR_DOMAIN for atoms).  Errors:
 * those of em_cont_cdf_bounds / em_cont_logz_bounds, EM_ERR_NOMEM. */
int em_ks_cdf_new(em_cont *C, em_ks_cdf **out);
void em_ks_cdf_free(em_ks_cdf *K);

/* F(x) for a finite x: 1 and *F, *err with |*F - F(x)| <= *err <= EM_KS_CDF_MAX_ERR; 0
 * when x needs the exact path (near a piece's end, or the bound is too wide). */
int em_ks_cdf_eval(const em_ks_cdf *K, double x, double *F, double *err);

#ifdef __cplusplus
}
#endif
#endif
