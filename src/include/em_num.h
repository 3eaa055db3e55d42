/* em_num.h: exact numbers as the API writes them (em_scn.h: decimals, hex floats,
 * fractions): their exact order, for checking arguments before computing.
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


#ifdef __cplusplus
}
#endif
#endif
