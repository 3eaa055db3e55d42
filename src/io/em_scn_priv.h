/* em_scn_priv.h: the insides of em_scn and em_mech (src/include/em_scn.h), shared by the
 * library files that implement the high-level API; never installed. */
#ifndef EM_IO_SCN_PRIV_H
#define EM_IO_SCN_PRIV_H

#include <stdarg.h>
#include <gmp.h>

#include "em_scn.h"
#include "io/em_scenario.h"

struct em_scn {
    em_scenario sc;   /* compact when loaded from text; expanded on demand */
};

struct em_mech {
    em_scn *scn;
    mpq_t eps, delta;           /* exact */
    int variant;                /* EM_STANDARD, EM_MONOTONE or EM_PF */
    int digits;
    int forced;
    char *eps_s, *delta_s;      /* exact text */
    char *provenance;
    struct em_law_cache *law;   /* what em_law.h computed (oracle/em_law.c); NULL until then */
};

/* Frees the caches of em_law.h (NULL is harmless). */
void em_law_cache_free(struct em_law_cache *c);

/* Set err (may be NULL) to status and a formatted message; returns status. */
int em_err(em_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* err made "no error". */
void em_err_ok(em_error *err);

/* The end of an entry that built the object r: on EM_OK r goes out through *out and err
 * is cleared, otherwise free_r(r) frees it.  Evaluates to st.  A macro so that every
 * object type keeps its own typed pointer and free function. */
#define EM_HAND_OUT(st, r, free_r, out, err) \
    ((st) == EM_OK ? (*(out) = (r), em_err_ok(err), EM_OK) : (free_r(r), (st)))

/* The scenario's utilities as an array of rationals (sc.u), made from the compact form
 * the first time: EM_OK or EM_ERR_NOMEM (with err set). */
int em_scn_expand(em_scn *s, em_error *err);
/* The scenario's utilities as doubles (sc.ud): EM_OK or EM_ERR_NOMEM (with err set). */
int em_scn_doubles(em_scn *s, em_error *err);

/* "standard", "monotone", "pf" */
const char *em_variant_text(int variant);

#endif
