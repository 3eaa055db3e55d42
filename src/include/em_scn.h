/* em_scn.h: scenarios and mechanisms, the two values every exact computation of libexpmech
 * takes (probabilities, sampling, check, compare, audit: em_law.h, em_judge.h).
 *
 * A scenario (em_scn) is what is being computed over: finite candidates with exact
 * utilities (and optionally a base measure), or a continuous output range cut into pieces
 * with linear utilities; with the sensitivity and monotonicity its author declared.  A
 * mechanism (em_mech) is a scenario with epsilon, the sensitivity and the variant resolved
 * by the one rule that keeps privacy as declared (docs/cli.md, "Sensitivity
 * and variant"), and the line that says where each came from.
 *
 * Conventions of the whole high-level API (em_scn.h, em_law.h, em_judge.h, em_score.h):
 *   - every function returns an em_status (EM_OK = 0) unless it is an accessor;
 *   - numbers that must be exact cross the API as text: a decimal ("0.1" is 1/10), a C99
 *     hex float ("0x1.8p3", the exact value of a double), a fraction ("4100/4140"), or
 *     "-inf" where a candidate is excluded; results are correctly rounded decimal strings,
 *     with doubles beside them where a double is what a caller compares against;
 *   - err may be NULL; otherwise on failure err->status is the returned status and
 *     err->msg one line of English naming the offending argument, file and line; on
 *     success err->status is EM_OK and err->msg is empty;
 *   - an object returned through `**out` belongs to the caller, who frees it with the
 *     function named beside it; *out is NULL after a failure;
 *   - strings returned as `char *` are malloc'd: free them with em_free;
 *   - nothing prints: messages go to err, results to the caller.
 */
#ifndef EM_SCN_H
#define EM_SCN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "em_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The functions of the high-level API are exported from libexpmech.so; everything else
 * in the library is hidden (-fvisibility=hidden and mk/libexpmech.map). */
#if defined(__GNUC__)
#define EM_API __attribute__((visibility("default")))
#else
#define EM_API
#endif

/* em_error and EM_ERRLEN: em_base.h */

/* Variants accepted by em_opts.variant: EM_STANDARD and EM_MONOTONE (em_base.h), and */
#define EM_PF 2              /* permute-and-flip (McKenna & Sheldon 2020), finite only */
#define EM_VARIANT_AUTO (-1) /* not chosen: standard (a '# monotone: yes' header never
                                switches the default) */

/* Frees a string or array the library returned (NULL is harmless). */
EM_API void em_free(void *p);

/* ------------------------------------------------------------------ scenarios */

typedef struct em_scn em_scn;

/* Parse the scenario file format (io/em_scn_text.h, expmech(1) FILES) from text[0..len);
 * name is used in messages ("NAME:LINE: ..."; NULL: "<text>").  Errors: EM_ERR_NULL,
 * EM_ERR_PARSE (any malformed line, no candidates, a duplicate label), EM_ERR_TOO_MANY
 * (more than 2^25 candidates, or the limit set by EXPMECH_MAX_CANDIDATES), EM_ERR_NOMEM. */
EM_API int em_scn_parse(const char *text, size_t len, const char *name, em_scn **out,
                        em_error *err);

/* Read and parse a file (NULL or "-": standard input).  Utilities are kept compactly
 * (about 10 bytes each), so that 10^7 candidates fit in memory. */
EM_API int em_scn_load(const char *path, em_scn **out, em_error *err);

/* A finite scenario from arrays: n >= 1 candidates, utilities[i] exact text (see the
 * conventions above; NULL or "-inf": excluded); labels NULL for "0", "1", ..., "n-1",
 * else n distinct non-empty labels without line breaks or NUL; measure NULL for none,
 * else n exact texts >= 0 (P(r) proportional to measure[r] exp(c u(r))).  Messages name
 * the element ("utilities[3]: ..."). */
EM_API int em_scn_new(size_t n, const char *const *utilities, const char *const *labels,
                      const char *const *measure, em_scn **out, em_error *err);

/* The same from doubles, each the exact rational it is (0.1 is 0x1.999999999999ap-4),
 * read without text: -inf excludes a candidate, NaN and +inf are refused; labels "0" ...
 * "n-1"; measure NULL for none, else n doubles >= 0.  Errors as em_scn_new. */
EM_API int em_scn_new_d(size_t n, const double *utilities, const double *measure,
                        em_scn **out, em_error *err);

/* A continuous scenario: k >= 1 pieces [lo[j], hi[j]] tiling an interval, with utility
 * a[j] + b[j] r on piece j (b NULL: all slopes 0).  lo[0] may be "-inf" and hi[k-1]
 * "inf" (rays need slopes that make the density integrable).  Messages name the piece. */
EM_API int em_scn_new_pieces(size_t k, const char *const *lo, const char *const *hi,
                             const char *const *a, const char *const *b, em_scn **out,
                             em_error *err);

/* Declare what the headers '# sensitivity: D' and '# monotone: yes' declare (sensitivity
 * NULL: leave as it is): the proven bound a caller may not go below without force, and
 * that the monotone variant is valid.  Errors: EM_ERR_NULL, EM_ERR_PARSE (sensitivity
 * not an exact number), EM_ERR_SENSITIVITY (not > 0). */
EM_API int em_scn_declare(em_scn *s, const char *sensitivity, int monotone, em_error *err);

EM_API void em_scn_free(em_scn *s);

/* Accessors (s not NULL). */
EM_API size_t em_scn_size(const em_scn *s);           /* candidates; 0 when continuous */
EM_API size_t em_scn_pieces(const em_scn *s);         /* pieces; 0 when finite */
EM_API int em_scn_is_continuous(const em_scn *s);
EM_API int em_scn_has_measure(const em_scn *s);
EM_API const char *em_scn_name(const em_scn *s);      /* for messages */
EM_API const char *em_scn_label(const em_scn *s, size_t i); /* NULL when i >= size */
/* Index of a label, or -1. */
EM_API long em_scn_find(const em_scn *s, const char *label);
/* Candidate i's exact utility as text ("-inf" when excluded): short decimal when it has
 * one, else "num/den".  *text malloc'd (em_free).  Errors: EM_ERR_NULL, EM_ERR_DOMAIN
 * (i >= size), EM_ERR_NOMEM. */
EM_API int em_scn_utility(const em_scn *s, size_t i, char **text, em_error *err);

/* ------------------------------------------------------------------ mechanisms */

typedef struct em_opts {
    const char *epsilon;      /* exact, > 0 (required) */
    const char *sensitivity;  /* exact, > 0; NULL: the scenario's declared sensitivity,
                                 else 1 */
    int variant;              /* EM_VARIANT_AUTO, EM_STANDARD, EM_MONOTONE or EM_PF */
    int force;                /* run a refused choice anyway (the provenance says FORCED) */
    int digits;               /* significant digits of decimal results, 1..1000; 0: 17 */
} em_opts;

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

EM_API void em_mech_free(em_mech *m);

/* Accessors (m not NULL). */
EM_API em_scn *em_mech_scn(const em_mech *m);
EM_API int em_mech_variant(const em_mech *m);        /* EM_STANDARD, EM_MONOTONE or EM_PF */
EM_API int em_mech_digits(const em_mech *m);
EM_API const char *em_mech_epsilon(const em_mech *m);     /* exact text */
EM_API const char *em_mech_sensitivity(const em_mech *m); /* exact text */
EM_API int em_mech_forced(const em_mech *m);         /* a refusal was overridden */
/* One line (no newline) naming the variant and sensitivity and where each came from,
 * e.g. "variant standard (default), sensitivity 1 (header of counts.csv)". */
EM_API const char *em_mech_provenance(const em_mech *m);

#ifdef __cplusplus
}
#endif
#endif
