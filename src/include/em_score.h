/* em_score.h: scenarios computed from data by the proven scoring functions (the command
 * `expmech score`): the utilities of the core's em_score_* and em_range_* (src/core, proofs
 * in proofs/lemmas/Score*_lemmas.h), headed by the proven sensitivity and, where it holds,
 * the monotone declaration; and the writer of the scenario file format.
 *
 * Conventions: em_scn.h.  Numbers in the options are exact text (decimals, a/b).
 */
#ifndef EM_SCORE_H
#define EM_SCORE_H

#include "em_scn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to score; unused members NULL (or 0).  The options mean what the options of the
 * same names of `expmech score` mean (expmech(1), `expmech score --help`). */
typedef struct em_score_opts {
    const char *function;   /* count, frequency, maxnorm (max-normalised), median, quantile,
                               revenue, rr (randomized-response), laplace */
    const char *data;       /* raw data: a file, "-" for standard input */
    int aggregated;         /* data lines are `value,count` (a GROUP BY's output, no header):
                               count, frequency, maxnorm, median, quantile, revenue, laplace */
    const char *column;     /* read this column of a CSV file with a header line */
    const char *candidates; /* a:b[:step] or a file with one candidate per line */
    int candidates_from_data; /* count, frequency, maxnorm: the distinct values (NOT
                                 private: em_score_warning says so) */
    const char *range;      /* LO:HI: a continuous scenario (revenue, median, quantile,
                               laplace) */
    const char *convention; /* median, quantile with range: rank-distance or diffprivlib */
    const char *neighbours; /* add-remove or substitution; NULL: the function's default */
    const char *alpha;      /* quantile level, 0 < alpha < 1 */
    const char *p_max;      /* revenue with candidates: the largest price */
    const char *beta, *gamma; /* rr scores (default -1/4, 1/4) */
    const char *x;          /* rr: the private bit "0" or "1" instead of data */
    const char *f;          /* laplace: the query value (default: the number of rows) */
    const char *delta_f;    /* laplace: the sensitivity of f (default 1) */
} em_score_opts;

#define EM_SCORE_OPTS_INIT {0}

typedef struct em_score em_score;

/* 1 when `function` names a scoring function em_score_new knows (NULL: 0). */
EM_API int em_score_known(const char *function);

/* Score: read the data and candidates, compute the utilities with the proven core, and
 * make the scenario with its declared sensitivity (and '# monotone: yes' where proven).
 * With o->aggregated the data is a histogram: for count, frequency and maxnorm the counts
 * are the core's Count(x, r); for the rank scores, revenue and laplace the rows are
 * rebuilt in the core's integer form (8 bytes a row, no text) and the same core functions
 * run, so the scenario is the row-level one (the row count in the definition line is the
 * total of the counts).  Errors: EM_ERR_NULL, EM_ERR_PARSE (any bad option, file or data
 * line: the message names it, "FILE:LINE: ..."; an unusable combination of options; a
 * result the core refuses), EM_ERR_NOMEM. */
EM_API int em_score_new(const em_score_opts *o, em_score **out, em_error *err);

EM_API void em_score_free(em_score *r);

/* The scenario (owned by r; valid until em_score_free). */
EM_API em_scn *em_score_scn(const em_score *r);
/* The definition lines (what was computed, from which lemma; without the leading "# "). */
EM_API size_t em_score_comments(const em_score *r);
EM_API const char *em_score_comment(const em_score *r, size_t i); /* NULL when i too large */
/* A warning a caller should show (candidates_from_data: not private), or NULL. */
EM_API const char *em_score_warning(const em_score *r);

/* Write s in the scenario file format (expmech(1) FILES) to f: the comment lines ("# "
 * before each), then the headers ('# output: continuous', '# sensitivity: D',
 * '# monotone: yes|no', '# measure: yes' as declared), then one line per candidate
 * `label,utility[,measure]` or per piece `lo,hi,a,b`.  Numbers are exact: short decimals
 * where they exist, else num/den; labels are CSV-quoted where needed, so em_scn_parse reads
 * the text back to the same scenario.  comments may be NULL when n_comments is 0.
 * Errors: EM_ERR_NULL, EM_ERR_PARSE (a comment holds a line break), EM_ERR_NOMEM, and
 * EM_ERR_DOMAIN when writing to f fails. */
EM_API int em_scn_write(FILE *f, const em_scn *s, const char *const *comments,
                        size_t n_comments, em_error *err);

/* em_scn_write of the scenario of r with its comment lines. */
EM_API int em_score_write(FILE *f, const em_score *r, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
