/* em_scn_priv.h: the insides of em_scn and em_mech (src/include/em_scn.h, em_mech.h),
 * shared by the library files that implement the high-level API; never installed. */
#ifndef EM_API_SCN_PRIV_H
#define EM_API_SCN_PRIV_H

#include <stdarg.h>
#include <gmp.h>

#include "em_mech.h"
#include "em_scn.h"
#include "io/em_scn_text.h"
#include "oracle/em_problem.h"

struct em_mech {
    em_scn *scn;
    mpq_t eps, delta;           /* exact */
    int variant;                /* EM_STANDARD, EM_MONOTONE or EM_PF */
    int digits;
    int forced;
    char *eps_s, *delta_s;      /* exact text */
    char *provenance;
    /* What is sampled (the scenario's utilities through a reader, its exclusions, measure or
     * pieces; epsilon, the sensitivity, and the coefficient of the variant: permute-and-flip
     * takes the standard one), built by em_mech_new for every oracle, sampler and judge. */
    em_problem prob;
    /* What em_law.h computed (em_law.c), NULL until then, and the function that frees it:
     * set by em_law.c, so that a mechanism's lifetime does not depend on the law's code. */
    struct em_law_cache *law;
    void (*law_free)(struct em_law_cache *law);
};

/* "standard", "monotone", "pf" */
const char *em_variant_text(int variant);

/* em_scn_new's forms (em_scn.h), for the library's own callers, which hold one.  The file
 * and the text form are one: path set (a file, "-" standard input), else text[0..len). */
int em_scn_from_source(const char *path, const char *text, size_t len, const char *name,
                       em_scn **out, em_error *err);
int em_scn_from_text(size_t n, const char *const *utilities, const char *const *labels,
                     const char *const *measure, em_scn **out, em_error *err);
int em_scn_from_doubles(size_t n, const double *utilities, const double *measure,
                        em_scn **out, em_error *err);
int em_scn_from_pieces(size_t k, const char *const *lo, const char *const *hi,
                       const char *const *a, const char *const *b, em_scn **out,
                       em_error *err);

#endif
