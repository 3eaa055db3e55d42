/* em_scn.h: scenarios, what every exact computation of libexpmech is over (a mechanism,
 * em_mech.h, is a scenario with its parameters resolved).
 *
 * A scenario (em_scn) is what is being computed over: finite candidates with exact
 * utilities (and optionally a base measure), or a continuous output range cut into pieces
 * with linear utilities; with the sensitivity and monotonicity its author declared.
 *
 * Conventions of the whole high-level API (em_scn.h, em_mech.h, em_law.h, em_judge.h,
 * em_scoring.h, em_groups.h, em_sweep.h, em_num.h):
 *   - every function returns an em_status (EM_OK = 0) unless it is an accessor;
 *   - numbers that must be exact cross the API as text: a decimal ("0.1" is 1/10), a C99
 *     hex float ("0x1.8p3", the exact value of a double), a fraction ("4100/4140"), or
 *     "-inf" where a candidate is excluded; results are correctly rounded decimal strings,
 *     with doubles beside them where a double is what a caller compares against;
 *   - err may be NULL; otherwise on failure err->status is the returned status and
 *     err->msg one line of English naming the offending argument, file and line; on
 *     success err->status is EM_OK and err->msg is empty;
 *   - an object, string or array returned through `**out` belongs to the caller, who
 *     frees it with em_free (and with nothing else: it is not a malloc'd pointer); *out is
 *     NULL after a failure;
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

/* Frees what the library returned to a caller: an object (em_scn, em_mech, em_sampler,
 * a result, ...), a string, an array of strings (NULL is harmless). */
EM_API void em_free(void *p);

/* ------------------------------------------------------------------ scenarios */

typedef struct em_scn em_scn;

/* A scenario, finite or continuous alike, from arrays, a file or text: set n and one of
 * utilities, utilities_d or lo (with hi, a, b), or path, or text (with len, name); the
 * fields of the other forms stay NULL (n and len 0).
 *  - utilities: n >= 1 candidates, utilities[i] exact text (see the conventions above;
 *    NULL or "-inf": excluded); labels NULL for "0", "1", ..., "n-1", else n distinct
 *    non-empty labels without line breaks or NUL; measure NULL for none, else n exact
 *    texts >= 0 (P(r) proportional to measure[r] exp(c u(r))).
 *  - utilities_d: the same from doubles, each the exact rational it is (0.1 is
 *    0x1.999999999999ap-4), read without text: -inf excludes a candidate, NaN and +inf
 *    are refused; labels "0" ... "n-1"; measure_d NULL for none, else n doubles >= 0.
 *  - lo: a continuous range of n >= 1 pieces [lo[j], hi[j]] tiling an interval, with
 *    utility a[j] + b[j] r on piece j (b NULL: all slopes 0).  lo[0] may be "-inf" and
 *    hi[n-1] "inf" (rays need slopes that make the density integrable).
 *  - path: a file in the scenario file format (io/em_scn_text.h, expmech(1) FILES), "-"
 *    for standard input.  Utilities are kept compactly (about 10 bytes each), so that
 *    10^7 candidates fit in memory.
 *  - text: the same format from text[0..len) (text may be NULL when len is 0); name is
 *    used in messages ("NAME:LINE: ..."; NULL: "<text>").
 * Messages name the element ("utilities[3]: ...", "lo[2] is NULL"); no form, two forms
 * or a field of another form: EM_ERR_DOMAIN.  A file or text: EM_ERR_NULL (text NULL
 * with len), EM_ERR_PARSE (any malformed line, no candidates, a duplicate label, a file
 * that cannot be read), EM_ERR_TOO_MANY (more than 2^25 candidates, or the limit set by
 * EXPMECH_MAX_CANDIDATES), EM_ERR_NOMEM. */
typedef struct em_scn_spec {
    size_t n;                       /* candidates, or pieces */
    const char *const *utilities;   /* a finite range as exact text ... */
    const char *const *labels;
    const char *const *measure;
    const double *utilities_d;      /* ... or as doubles */
    const double *measure_d;
    const char *const *lo;          /* a continuous range */
    const char *const *hi;
    const char *const *a;
    const char *const *b;
    const char *path;               /* a scenario file ... */
    const char *text;               /* ... or its text */
    size_t len;
    const char *name;
} em_scn_spec;

EM_API int em_scn_new(const em_scn_spec *spec, em_scn **out, em_error *err);

/* Declare what the headers '# sensitivity: D' and '# monotone: yes' declare (sensitivity
 * NULL: leave as it is): the proven bound a caller may not go below without force, and
 * that the monotone variant is valid.  Errors: EM_ERR_NULL, EM_ERR_PARSE (sensitivity
 * not an exact number), EM_ERR_SENSITIVITY (not > 0). */
EM_API int em_scn_declare(em_scn *s, const char *sensitivity, int monotone, em_error *err);


/* What a scenario is (s not NULL; name belongs to s). */
typedef struct em_scn_info {
    size_t size;        /* candidates; 0 when continuous */
    size_t pieces;      /* pieces; 0 when finite */
    int continuous;
    int has_measure;
    const char *name;   /* for messages */
} em_scn_info;

EM_API em_scn_info em_scn_get(const em_scn *s);
EM_API const char *em_scn_label(const em_scn *s, size_t i); /* NULL when i >= size */
/* Index of a label, or -1. */
EM_API long em_scn_find(const em_scn *s, const char *label);
/* Candidate i's exact utility as text ("-inf" when excluded): short decimal when it has
 * one, else "num/den".  *text malloc'd (em_free).  Errors: EM_ERR_NULL, EM_ERR_DOMAIN
 * (i >= size), EM_ERR_NOMEM. */
EM_API int em_scn_utility(const em_scn *s, size_t i, char **text, em_error *err);


/* A label for its reader (docs/cli.md, "Labels"; the library's writers put a label in a
 * CSV field as its exact bytes, quoted where needed, which em_scn_new reads back): the
 * form for a person (C0 controls, DEL and bytes that are not UTF-8 as \xHH, C1 controls as
 * \u00HH, a backslash doubled) into buf (cap bytes, NUL-terminated, truncated with "..."
 * past max_in bytes of s when max_in > 0); returns buf. */
EM_API char *em_scn_human_label(char *buf, size_t cap, const char *s, size_t max_in);

/* How em_write writes: the one options struct of every object it writes.  A writer documents the formats it accepts; another is
 * EM_ERR_DOMAIN.  NULL options: EM_WRITE_OPTS_INIT. */
#define EM_WRITE_TEXT 0      /* for a person: the report of expmech(1) */
#define EM_WRITE_CSV 1       /* a header line, then rows */
#define EM_WRITE_JSON 2
typedef struct em_write_opts {
    int format;              /* EM_WRITE_* */
    size_t sweep_i, sweep_n; /* run sweep_i of a sweep of sweep_n epsilons (0: no sweep):
                                CSV: one header line at run 0, rows led by the epsilon;
                                JSON: the objects of the runs in one list */
    const char *epsilon;     /* a sweep: this run's epsilon as given (NULL: the mechanism's) */
    int terminal;            /* CSV labels for a person (em_scn_human_label, quoted) when
                                they hold control characters; 0: their exact bytes */
    const char *const *comments; /* a scenario: its first lines, "# " before each (NULL when */
    size_t n_comments;           /* n_comments is 0) */
    struct em_probs_notes *notes; /* a mechanism: the counts of its rows' notes (em_law.h;
                                     NULL: not wanted) */
    uint64_t draws;          /* a sampler: the draws to write (em_law.h) ... */
    uint64_t *done;          /* ... and those written (NULL: not wanted) */
    const char *dir;         /* groups: the directory of their files (em_groups.h) */
    const struct em_points *points; /* a continuous mechanism: its law at these points ... */
    int law;                 /* ... EM_LAW_* (em_law.h); points NULL: its probabilities */
} em_write_opts;
#define EM_WRITE_OPTS_INIT {EM_WRITE_TEXT, 0, 0, NULL, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, 0}

/* Write obj, a result the library returned, as the command that computed it writes it: a
 * result of em_audit, em_draws_check or em_compare (em_judge.h), of em_utility (em_law.h),
 * of em_groups_analyse (em_groups.h), a score of em_scoring_new (em_scoring.h), a case
 * (em_conform.h), a scenario, a mechanism or a sampler (em_law.h), groups (em_groups.h);
 * what each is written as, and in which formats, is said beside it.  What the result was computed over (its mechanisms, its groups) must still
 * exist.  o NULL: the defaults.  Errors: EM_ERR_NULL (obj or f), EM_ERR_DOMAIN (an object
 * em_write does not write, a format it is not written in, writing to f failed), the
 * writer's.
 *
 * A scenario (em_scn_new) is written in the scenario file format (expmech(1) FILES),
 * whatever o->format: the comment lines o->comments ("# " before each), then the headers
 * ('# output: continuous', '# sensitivity: D', '# monotone: yes|no', '# measure: yes' as
 * declared), then one line per candidate `label,utility[,measure]` or per piece
 * `lo,hi,a,b`.  Numbers are exact: short decimals where they exist, else num/den; labels
 * are CSV-quoted where needed, so em_scn_new reads the text back to the same scenario.
 * Errors: EM_ERR_NULL (a comment NULL), EM_ERR_PARSE (a comment holds a line break),
 * EM_ERR_NOMEM. */
EM_API int em_write(const void *obj, FILE *f, const em_write_opts *o, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
