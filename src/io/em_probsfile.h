/* em_probsfile.h: the reader of probability vectors to judge (em_compare's path).
 *
 * What expmech writes, expmech reads: the forms accepted are
 *   - one number per line, in the scenario's order;
 *   - 'label,probability' lines in any order (an unquoted label may contain commas: the
 *     probability follows the last comma);
 *   - 'label,probability,log_probability' lines: `expmech probs`' own CSV output (the
 *     log-probability must be a value, and is judged too: em_pvalue's has_log);
 *   - JSON: `expmech probs --format json`'s output (an object whose "candidates" array
 *     holds objects with "label" and "probability", and "log_probability" judged like
 *     the CSV's third column where given), or such an array by itself; a probability may
 *     be a JSON string (read exactly) or number (read by Jansson as the nearest double,
 *     then taken exactly); messages name the candidate ("candidates[3]").
 * CSV lines follow the scenario rules: BOM, CRLF, blank and '#' lines; a label may be
 * a CSV-quoted field ("a,b" or "a ""b"""), as `expmech probs` writes labels with commas.
 * Numbers are exact (decimal, 0x hex float, a/b); nan, inf, -inf are values to judge.
 * Refused with "NAME:LINE: ...": unknown labels, a second value for a label, a count of
 * numbers other than n, mixed number-only and labelled lines, malformed JSON.
 */
#ifndef EM_IO_PROBSFILE_H
#define EM_IO_PROBSFILE_H

#include <stddef.h>
#include <gmp.h>

#include "em_base.h"
#include "io/em_samples.h" /* em_label_find_fn */

enum { EM_PV_NUM = 0, EM_PV_NAN = 1, EM_PV_PINF = 2, EM_PV_NINF = 3 };

typedef struct em_pvalue {
    int kind;            /* EM_PV_* */
    mpq_t q;             /* the number when EM_PV_NUM (mpq_init'ed by the caller) */
    int set;
    unsigned long line;  /* 0 for JSON without line tracking... the line of the value */
    int has_log;         /* a log-probability was given beside it (probs' third column) */
    double logv;         /* that log-probability, the nearest double (nan, -inf as given) */
} em_pvalue;

/* One value: a number (exact) or nan / inf / -inf (any case, optional sign).  EM_OK or
 * EM_ERR_PARSE with *msg. */
int em_pvalue_parse(const char *p, size_t n, em_pvalue *g, const char **msg);

/* Fills gv[0..n) (each .q initialised by the caller, .set 0).  Returns EM_OK, EM_ERR_NOMEM,
 * or EM_ERR_PARSE with the message in err. */
int em_probs_file_parse(const char *buf, size_t len, const char *name, size_t n,
                        em_label_find_fn find, const void *ctx, em_pvalue *gv,
                        em_error *err);

#endif
