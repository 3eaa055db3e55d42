/* em_samples.h: the one reader of samples files (draws of another implementation over a
 * finite scenario), shared by every command that reads them (check, audit).
 *
 * Format: one draw per line; a UTF-8 byte-order mark at the start, CRLF line ends, spaces
 * and tabs around the draw, blank lines and '#' comment lines are accepted; a draw is a
 * label, written as in a scenario file (a CSV-quoted field "a ""b""" is unquoted), or a
 * 0-based index (decimal digits only).  Refused, with "NAME:LINE: ...": a NUL byte, a line
 * longer than EM_SAMPLES_MAX_LINE bytes, malformed quoting, an unknown label, an index out
 * of range, and (see below) an ambiguous draw.
 *
 * What a draw is (--samples-are):
 *   EM_SAMPLES_LABELS   every draw is a label; a number that is no label is refused;
 *   EM_SAMPLES_INDICES  every draw is a 0-based index (digits only, below n);
 *   EM_SAMPLES_AUTO     (no option given; labels first) a draw that is a label is that
 *                       label; a draw of digits that is no label is an index.  Refused as
 *                       ambiguous: a draw of digits that is the label of one candidate and
 *                       the index of ANOTHER (labels "1", "2", "3": is "1" the first or the
 *                       second?).  Labels that equal their own index (0..n-1 in order, as
 *                       `expmech example median` writes) are not ambiguous.
 */
#ifndef EM_IO_SAMPLES_H
#define EM_IO_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "em_base.h"

#define EM_SAMPLES_AUTO 0
#define EM_SAMPLES_LABELS 1
#define EM_SAMPLES_INDICES 2
#define EM_SAMPLES_MAX_LINE 4096

/* "labels" / "indices" into *are; 0, or -1 for anything else. */
int em_samples_are_parse(const char *v, int *are);

/* Index of a label of exactly len bytes, or -1. */
typedef long (*em_label_find_fn)(const void *ctx, const char *label, size_t len);




/* Counts of the draws in buf (name for messages) over n candidates: counts[0..n) are set
 * (zeroed first), *total the number of draws.  Returns EM_OK, or EM_ERR_PARSE with
 * "NAME:LINE: ..." in err (also for a file without draws: "NAME: no draws"). */
int em_samples_count(const char *buf, size_t len, const char *name, size_t n,
                     em_label_find_fn find, const void *ctx, int are, uint64_t *counts,
                     uint64_t *total, em_error *err);

/* The quoted-label rule shared by the readers: p[0..n) a CSV field; when quoted, unquote
 * into out (n bytes at least) and set *outn; returns 0, -1 on malformed quoting; when not
 * quoted, *outn = n and out untouched, returns 1. */
int em_csv_field_unquote(const char *p, size_t n, char *out, size_t *outn);

#endif
