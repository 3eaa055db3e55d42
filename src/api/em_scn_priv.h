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

/* em_mech_get's view, for the units em_mech.c itself calls (the writer of a mechanism,
 * em_law_write.c), which may not call back into it. */
static inline em_mech_info em_mech_view(const em_mech *m)
{
    em_mech_info i = {m->scn, m->variant, m->digits, m->forced, m->eps_s, m->delta_s,
                      m->provenance};
    return i;
}

/* A new scenario, empty, compact (10 bytes per utility instead of a rational's 100), that
 * em_free frees and em_write writes; NULL when out of memory. */
em_scn *em_scn_obj(void);

/* The scenario file format of s (em_write of a scenario, em_scn.h) with the n_comments
 * comment lines first, and em_write's writer of a scenario (the comments of o). */
int em_scn_text_write(FILE *f, const em_scn *s, const char *const *comments,
                      size_t n_comments, em_error *err);
int em_scn_obj_write(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                     em_error *err);

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
