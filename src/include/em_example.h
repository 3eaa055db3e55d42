/* em_example.h: the seed documents' scenarios (`expmech example`), as scenario text. */
#ifndef EM_EXAMPLE_H
#define EM_EXAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "em_scn.h" /* EM_API */

#ifdef __cplusplus
extern "C" {
#endif

/* Example `name` as a scenario file (em_scn_new reads it: '# ' comment lines, a
 * '# sensitivity:' header, lines 'label,utility' with exact utilities), into *text
 * (NUL-terminated, em_free); name NULL: the examples, one line each, its name ("marital",
 * ...), a tab and one line saying what it is.  Errors: EM_ERR_NULL, EM_ERR_DOMAIN (no such
 * example: the message names the known ones), EM_ERR_NOMEM. */
EM_API int em_example(const char *name, char **text, em_error *err);

/* `expmech demo` on out: seed 000's marital status (score count/1000, epsilon 1,
 * sensitivity 1, standard variant) through the verified core's float path (em_logweights,
 * em_normalize: a table of float probabilities), then `draws` draws of its float sampler
 * (em_sample_fixed) from ChaCha20 keyed by *seed, or from the operating system's CSPRNG
 * when seed is NULL.  Not the exact oracle: the exact values are em_example("marital")'s.
 * Errors: EM_ERR_NULL, EM_ERR_RNG (the random source), EM_ERR_DOMAIN (out in error). */
EM_API int em_demo_write(FILE *out, uint64_t draws, const uint64_t *seed, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
