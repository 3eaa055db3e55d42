/* em_scoring.h: scenarios computed from data by the proven scoring functions (the command
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
typedef struct em_scoring_opts {
    const char *function;   /* count, frequency, maxnorm (max-normalised), median, quantile,
                               revenue, rr (randomized-response), laplace */
    const char *data;       /* raw data: a file, "-" for standard input */
    int aggregated;         /* data lines are `value,count` (a GROUP BY's output, no header):
                               count, frequency, maxnorm, median, quantile, revenue, laplace */
    const char *column;     /* read this column of a CSV file with a header line */
    const char *candidates; /* a:b[:step] or a file with one candidate per line */
    int candidates_from_data; /* count, frequency, maxnorm: the distinct values (NOT
                                 private: em_scoring_get's warning says so) */
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
} em_scoring_opts;

#define EM_SCORING_OPTS_INIT {0}

typedef struct em_scoring em_scoring;

/* 1 when `function` names a scoring function em_scoring_new knows (NULL: 0). */
EM_API int em_scoring_known(const char *function);

/* Score: read the data and candidates, compute the utilities with the proven core, and
 * make the scenario with its declared sensitivity (and '# monotone: yes' where proven).
 * With o->aggregated the data is a histogram: for count, frequency and maxnorm the counts
 * are the core's Count(x, r); for the rank scores, revenue and laplace the rows are
 * rebuilt in the core's integer form (8 bytes a row, no text) and the same core functions
 * run, so the scenario is the row-level one (the row count in the definition line is the
 * total of the counts).  Errors: EM_ERR_NULL, EM_ERR_PARSE (any bad option, file or data
 * line: the message names it, "FILE:LINE: ..."; an unusable combination of options; a
 * result the core refuses), EM_ERR_NOMEM. */
EM_API int em_scoring_new(const em_scoring_opts *o, em_scoring **out, em_error *err);


/* What a score holds (owned by r; valid until em_free(r)). */
typedef struct em_scoring_info {
    em_scn *scn;                 /* the scenario */
    size_t n_comments;
    const char *const *comments; /* the definition lines (what was computed, from which
                                    lemma; without the leading "# ") */
    const char *warning;         /* a warning a caller should show (candidates_from_data:
                                    not private), or NULL */
} em_scoring_info;

/* r not NULL. */
EM_API em_scoring_info em_scoring_get(const em_scoring *r);

/* em_write (em_scn.h) of a score: em_write of its scenario with its comment lines (the
 * options are not read). */

#ifdef __cplusplus
}
#endif
#endif
