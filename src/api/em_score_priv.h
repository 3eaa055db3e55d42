/* em_score_priv.h: the scoring of rows already read (em_scores.c), for the group analysis
 * (em_groups.c), which reads the data once and scores each group's rows over one candidate
 * set.  Library-internal; never installed. */
#ifndef EM_ORACLE_SCORE_PRIV_H
#define EM_ORACLE_SCORE_PRIV_H

#include "em_score.h"
#include "io/em_data.h"

/* The candidates of o (o->function count, frequency or maxnorm, else EM_ERR_PARSE; the
 * options checked as em_score_new checks them): --candidates, or the distinct values of
 * all of d (*warning then says it is not private; malloc'd).  c is freed by the caller
 * (em_cands_free) even after a failure. */
int em_score_cands(const em_score_opts *o, const em_lines *d, em_cands *c, char **warning,
                   em_error *err);

/* em_score_new of o over the rows d and the candidates c (from em_score_cands);
 * note: a first comment line (without "# "), or NULL. */
int em_score_rows(const em_score_opts *o, const em_lines *d, const em_cands *c,
                  const char *note, em_score **out, em_error *err);

#endif
