/* em_sweep.h: privacy-utility reports over several values of epsilon: the sweep
 * of epsilon a report runs over, as the exact texts em_mech_new takes.
 *
 * Conventions: em_scn.h.
 */
#ifndef EM_REPORT_H
#define EM_REPORT_H

#include <stddef.h>

#include "em_scn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An epsilon sweep as exact texts (em_mech_new's epsilon).  spec: "E" (one value),
 * "E1,E2,..." (a list, in the order given), "LO:HI:N" (N >= 2 points lo + i (hi-lo)/(N-1),
 * exact; LO < HI), or with log_spaced != 0 only "LO:HI:N" with 0 < LO < HI: points
 * LO (HI/LO)^(i/(N-1)) rounded to 17 significant digits (the ends exact).  Every value
 * > 0, exact, finite; N <= EM_SWEEP_MAX.  *out is an array of *n texts (em_free frees
 * the array and its texts).  Errors: EM_ERR_NULL, EM_ERR_PARSE ("bad number 'X': why", a
 * malformed spec, N out of range), EM_ERR_EPSILON (a value <= 0), EM_ERR_NOMEM.
 * Also EM_ERR_PARSE: a linear point with more digits than a number may have (10000:
 * em_mech_new could not read it), and points whose texts together pass 64 MiB;
 * EM_ERR_DOMAIN: a log-spaced point not decided at 2^20 bits (an irrational point is
 * decided long before).
 *
 * The texts: a value or list item as given; a linear point as its exact decimal when it
 * has one of at most 40 significant digits ("0.001:90.001:10": "0.001", "10.001", ...,
 * "90.001"), else "num/den" ("1:2:4": "1", "4/3", "5/3", "2"); a log-spaced inner point
 * correctly rounded to nearest (ties to even) at 17 significant digits, written without
 * trailing zeros ("0.01:100:5": "0.01", "0.1", "1", "10", "100"; "1:2:3": "1",
 * "1.414213562373095", "2", as sqrt 2 = 1.41421356237309504...), its ends as the linear
 * ones.  N is written with digits only (no sign, no exponent); the values in any form
 * em_mech_new accepts. */
#define EM_SWEEP_MAX 100000
EM_API int em_epsilon_sweep(const char *spec, int log_spaced, char ***out, size_t *n,
                            em_error *err);
/* Frees the n texts of an em_epsilon_sweep result and the array (v NULL: harmless). */

#ifdef __cplusplus
}
#endif
#endif
