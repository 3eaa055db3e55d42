/* em_score_priv.h: the insides of the scores (em_score.h), shared by their files:
 * em_score_new.c (options, the function run, the result), em_score_text.c (the scenario
 * text), em_score_categorical.c, em_score_numeric.c, em_score_pieces.c (the functions);
 * and the scoring of rows already read, for the group analysis (em_groups.c), which reads
 * the data once and scores each group's rows over one candidate set.  Library-internal;
 * never installed. */
#ifndef EM_API_SCORE_PRIV_H
#define EM_API_SCORE_PRIV_H

#include <stdio.h>
#include <gmp.h>

#include "em_score.h"
#include "io/em_data.h"

/* The candidates of o (o->function count, frequency or maxnorm, else EM_ERR_PARSE; the
 * options checked as em_score_new checks them): --candidates, or the distinct values of
 * all of d (*warning then says it is not private; malloc'd).  c is freed by the caller
 * (em_cands_free) even after a failure. */
int em_score_cands(const em_score_opts *o, const em_rows *d, em_cands *c, char **warning,
                   em_error *err);

/* em_score_new of o over the rows d and the candidates c (from em_score_cands);
 * note: a first comment line (without "# "), or NULL. */
int em_score_rows(const em_score_opts *o, const em_rows *d, const em_cands *c,
                  const char *note, em_score **out, em_error *err);

/* The scoring functions and neighbour relations. */
enum { F_COUNT, F_FREQUENCY, F_MAXNORM, F_MEDIAN, F_QUANTILE, F_REVENUE, F_RR, F_LAPLACE };

enum { NB_ADD_REMOVE, NB_SUBSTITUTION };

/* The definition line of the median's score, and the note on Laplace's factor of 2. */
extern const char em_scoring_median_def[];
extern const char em_scoring_laplace_factor[];

/* ------------------------------------------------ shared by the parts */

int em_scoring_parse_q(em_error *err, const char *s, mpq_t q, const char *what);

/* q as a short exact decimal or a/b ("?" when out of memory: the parse of the text then
   fails, and the caller reports it). */
void em_scoring_put_q(FILE *out, const mpq_t q);

/* The canonical text of a number ("3.0" -> "3"), or NULL when s is not a number. */
char *em_scoring_canon_number(const char *s);

/* ------------------------------------------------------------ output */

void em_scoring_puts(FILE *out, const char *s);

void em_scoring_header(FILE *out, const char *fn, const char *def, size_t rows, size_t m, int neigh,
                   const char *lemma);

void em_scoring_put_sensitivity(FILE *out, const mpq_t delta, int monotone);

/* The candidates of o: --candidates, or the distinct values of d. */
int em_scoring_load_cands(const em_score_opts *o, const em_rows *d, em_cands *c, char **warning,
                          em_error *err);

/* The scenario text of count, frequency or maxnorm over the rows d and candidates c;
   note: a first comment line (without "# "), or NULL. */
int em_scoring_write_categorical(int fn, const char *fname, int neigh, const em_rows *d,
                                 const em_cands *c, const char *note, FILE *out, em_error *err);

int em_scoring_run_categorical(int fn, const char *fname, const em_score_opts *o, int neigh,
                           FILE *out, char **warning, em_error *err);

/* ------------------------------------------------------------ numeric scores */

int em_scoring_cmp_q(const void *x, const void *y);

/* Ranks: the sorted distinct values of all and, for each value, its index there.  Only
   the order matters to the rank scores, so they are computed on these ranks exactly. */
int em_scoring_rank_of(mpq_t *sorted, size_t ns, const mpq_t v, int64_t *out);

/* The rows of o->data (column, aggregated); none: "--data NAME: no ROWS". */
int em_scoring_read_rows(const em_score_opts *o, em_rows *d, const char *rows, em_error *err);

/* The values of d as exact rationals (*out: em_q_array_free(*out, d->n), also after an
 * error). */
int em_scoring_read_numbers(const em_rows *d, mpq_t **out, em_error *err);

/* v * scale as int64 (scale a common denominator, so the product is an integer). */
int em_scoring_to_int64(const mpq_t v, const mpz_t scale, int64_t *out);

void em_scoring_put_scaled(FILE *out, int64_t v, const mpz_t scale);

/* The core's rows from one integer per line: with an aggregate, each repeated as often as
   its count (the proven functions read rows; 8 bytes a row, no text). */
int em_scoring_expand_rows(const em_rows *d, int64_t **xi, em_error *err);

/* The quantile score's proven sensitivity under the relation, and its lemma. */
const char *em_scoring_quantile_delta(const mpq_t alpha, int neigh, mpq_t delta);

const char *em_scoring_median_lemma(int neigh);

/* --alpha of the quantile score: required, exact, 0 < alpha < 1, a denominator that fits
   the core's integers.  EM_OK or an error. */
int em_scoring_quantile_alpha(const em_score_opts *o, mpq_t alpha, em_error *err);

int em_scoring_run_rank(int fn, const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err);

const char *em_scoring_revenue_lemma(int neigh);

int em_scoring_run_revenue(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err);

/* The em_scoring_header's definition line of the Laplace score, with the query value f. */
void em_scoring_laplace_definition(char *def, size_t len, const mpq_t f, const em_score_opts *o);

/* A failed status of the exact Laplace arithmetic (grid and range forms) as its message. */
int em_scoring_laplace_fail(int st, const char *fname, em_error *err);

/* The Laplace score's query value f (--f, or the number of rows of --data) and its
   sensitivity Δf (--delta-f, default 1), shared by the grid and the range forms.
   EM_OK or an error. */
int em_scoring_laplace_query(const em_score_opts *o, em_rows *d, mpq_t f, mpq_t df, size_t *rows,
                             em_error *err);

int em_scoring_run_laplace(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err);

int em_scoring_run_rr(const char *fname, const em_score_opts *o, FILE *out, em_error *err);

int em_scoring_range_laplace(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err);

/* revenue, median and quantile over [LO, HI]: the data converted to the core's integers,
   sorted here (the core checks the order), the pieces from the core, printed. */
int em_scoring_range_data(int fn, const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err);

#endif
