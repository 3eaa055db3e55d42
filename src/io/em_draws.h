/* em_draws.h: draws of another implementation, read to be judged against the exact law:
 * a file of draws (expmech check on a continuous range), and a sampler's output under the
 * conformance protocol (conformance/README.md).  Fuzzed by fuzz/fuzz_io.c and
 * fuzz/fuzz_draws.c. */
#ifndef EM_IO_DRAWS_H
#define EM_IO_DRAWS_H

#include <stddef.h>
#include <stdint.h>

#include "em_base.h"
#include "io/em_samples.h" /* em_label_find_fn */

/* The longest line of a draws file (bytes). */
#define EM_DRAWS_MAX_LINE 4096

/* One number per line: decimal ([+-] digits [. digits] [e [+-] digits], also .5 and 5.),
 * C99 hex float (0x1.8p3), or nan / inf / infinity (any case, signed) as values to judge;
 * spaces and tabs around it ignored; blank lines and lines starting with '#' skipped; a
 * UTF-8 byte-order mark at the start and CRLF line ends accepted.  Each value is read as
 * the nearest double (strtod; beyond the range of double: +-inf, or +-0 below it).
 * On success EM_OK with *x and *line (the line number of each, 1-based) malloc'd and *n
 * set (possibly 0); on a malformed line EM_ERR_PARSE with "NAME:LINE: message" in err;
 * EM_ERR_NOMEM. */
int em_read_draws(const char *buf, size_t len, const char *name, double **x,
                  unsigned long **line, size_t *n, em_error *err);

/* ---------------------------------------------------- the conformance protocol */
/* One draw a line, "\n" or "\r\n" ending each (the last line may lack it): a label of the
 * case's scenario for the finite kinds, a number in any C floating syntax (strtod: decimal,
 * hex float, inf, nan; blanks around it) for the continuous kinds.  Exactly n lines.
 * Anything else is malformed output, told in err as one line "line L: ..." showing the
 * line's bytes safely (em_label.h's human form; a NUL as \x00). */

/* The longest line read (a label may have up to 4096 bytes). */
#define EM_DRAWS_PROTO_MAX_LINE 8192

/* The candidates a label may name. */
typedef struct em_draws_cands {
    size_t n;                   /* candidates */
    em_label_find_fn find;      /* a label's candidate, or -1 */
    const void *ctx;            /* find's and label's context */
    const char *(*label)(const void *ctx, size_t i);  /* candidate i's label */
    const double *ud;           /* their utilities as doubles, or NULL: to say when an
                                   unknown line is a utility (a value where a label was due) */
} em_draws_cands;

/* Counts per candidate (counts[c->n], zeroed by the caller) from the n lines of buf.
 * EM_OK, EM_ERR_PARSE or EM_ERR_NOMEM with err set; *lines: the lines read. */
int em_draws_read_labels(const char *buf, size_t len, uint64_t n, const em_draws_cands *c,
                         uint64_t *counts, uint64_t *lines, em_error *err);

/* The n numbers of buf into x[n].  EM_OK, or EM_ERR_PARSE with err set. */
int em_draws_read_numbers(const char *buf, size_t len, uint64_t n, double *x, uint64_t *lines,
                          em_error *err);

/* bytes[0..len) for a message into out[0..cap): em_label_human_str's form, a NUL byte as
 * \x00, at most max input bytes ("..." after). */
void em_draws_show(char *out, size_t cap, const char *bytes, size_t len, size_t max);

#endif
