/* em_mech.h: mechanisms, a scenario (em_scn.h) with epsilon, the sensitivity and the
 * variant resolved by the one rule that keeps privacy as declared (docs/cli.md,
 * "Sensitivity and variant"), and the line that says where each came from.  Every exact
 * computation (em_law.h, em_judge.h) takes one.
 *
 * Conventions: em_scn.h.
 */
#ifndef EM_MECH_H
#define EM_MECH_H

#include "em_scn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants accepted by em_opts.variant: EM_STANDARD and EM_MONOTONE (em_base.h), and */
#define EM_PF 2              /* permute-and-flip (McKenna & Sheldon 2020), finite only */
#define EM_VARIANT_AUTO (-1) /* not chosen: standard (a '# monotone: yes' header never
                                switches the default) */

typedef struct em_opts {
    const char *epsilon;      /* exact, > 0 (required) */
    const char *sensitivity;  /* exact, > 0; NULL: the scenario's declared sensitivity,
                                 else 1 */
    int variant;              /* EM_VARIANT_AUTO, EM_STANDARD, EM_MONOTONE or EM_PF */
    int force;                /* run a refused choice anyway (the provenance says FORCED) */
    int digits;               /* significant digits of decimal results, 1..EM_DIGITS_MAX;
                                 0: 17 */
} em_opts;

#define EM_DIGITS_MAX 1000

#define EM_OPTS_INIT {NULL, NULL, EM_VARIANT_AUTO, 0, 0}

typedef struct em_mech em_mech;

/* Resolve the parameters of scenario s.  Refused with EM_ERR_DOMAIN unless o->force: a
 * sensitivity below the declared one (the mechanism would be only (D'/D) eps-DP), and
 * the monotone variant on a scenario not declared monotone (not eps-DP for a score that is
 * not monotone).  Other errors: EM_ERR_NULL, EM_ERR_PARSE (epsilon or sensitivity not an
 * exact number), EM_ERR_EPSILON / EM_ERR_SENSITIVITY (not > 0), EM_ERR_VARIANT (unknown,
 * or permute-and-flip on a continuous or weighted scenario), EM_ERR_DOMAIN (digits),
 * EM_ERR_ALL_EXCLUDED, EM_ERR_NOMEM.  s must outlive the mechanism; the library may fill
 * caches inside s (it is not thread-safe to share s between mechanisms in use at once). */
EM_API int em_mech_new(em_scn *s, const em_opts *o, em_mech **out, em_error *err);


/* What a mechanism resolved; the strings belong to the mechanism. */
typedef struct em_mech_info {
    em_scn *scn;
    int variant;             /* EM_STANDARD, EM_MONOTONE or EM_PF */
    int digits;
    int forced;              /* a refusal was overridden */
    const char *epsilon;     /* exact text */
    const char *sensitivity; /* exact text */
    const char *provenance;  /* one line (no newline) naming the variant and sensitivity and
                                where each came from, e.g. "variant standard (default),
                                sensitivity 1 (header of counts.csv)" */
} em_mech_info;

/* m not NULL. */
EM_API em_mech_info em_mech_get(const em_mech *m);

#ifdef __cplusplus
}
#endif
#endif
