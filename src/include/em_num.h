/* em_num.h: exact numbers as the API writes them (em_scn.h: decimals, hex floats,
 * fractions): their exact order, and the points of an exact grid, for checking and making
 * arguments before computing.
 *
 * Conventions: em_scn.h.
 */
#ifndef EM_NUM_H
#define EM_NUM_H

#include <stdint.h>

#include "em_mech.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exact sign of a - b (-1, 0 or 1) of two exact texts; for checking arguments
 * (grid ends, probabilities, thresholds) before computing.  Errors: EM_ERR_NULL,
 * EM_ERR_PARSE ("bad number 'X': why", naming the first bad one). */
EM_API int em_num_cmp(const char *a, const char *b, int *sign, em_error *err);

/* Point i of the grid lo + i (hi - lo) / (n - 1), i < n (n = 1: lo, which must equal hi):
 * *exact is its exact text (for em_cdf and the others), *shown what to print: the
 * exact decimal when it has at most 20 digits, else its correct rounding to m's digits.
 * m is a continuous mechanism; shown may be NULL, and then m too (no rounding).
 * Errors: EM_ERR_NULL, EM_ERR_PARSE, EM_ERR_DOMAIN (n = 0, i >= n, lo > hi, n = 1 with
 * lo != hi, a finite m), the law's errors, EM_ERR_NOMEM. */
EM_API int em_num_grid_point(em_mech *m, const char *lo, const char *hi, uint64_t n,
                             uint64_t i, char **exact, char **shown, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
