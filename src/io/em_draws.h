/* em_draws.h: the draws a sampler wrote, as the conformance protocol defines them
 * (conformance/README.md): one draw a line, "\n" or "\r\n" ending each (the last line may
 * lack it); a label of the case's scenario for the finite kinds, a number in any C
 * floating syntax (strtod: decimal, hex float, inf, nan; blanks around it) for the
 * continuous kinds.  Exactly n lines.  Anything else is malformed output, told in one line
 * naming the line and showing its bytes safely (controls and bytes that are not UTF-8 as
 * \xHH).  Fuzzed by fuzz/fuzz_draws.c.  Never installed. */
#ifndef EM_IO_DRAWS_H
#define EM_IO_DRAWS_H

#include <stddef.h>
#include <stdint.h>

#include "em_scn.h"

/* The longest line read (a label may have up to 4096 bytes). */
#define EMD_MAX_LINE 8192

/* Counts per candidate of s (counts[em_scn_size(s)], zeroed by the caller) from the n lines
 * of buf.  ud: the candidates' utilities as doubles (or NULL), to say when an unknown line
 * is a utility (a value written where a label was due).  EM_OK, or EM_ERR_PARSE with msg;
 * *lines: the lines read. */
int emd_read_labels(const char *buf, size_t len, uint64_t n, const em_scn *s, const double *ud,
                    uint64_t *counts, uint64_t *lines, char *msg, size_t cap);

/* The n numbers of buf into x[n].  EM_OK, or EM_ERR_PARSE with msg. */
int emd_read_numbers(const char *buf, size_t len, uint64_t n, double *x, uint64_t *lines,
                     char *msg, size_t cap);

/* bytes[0..len) for a message: printable ASCII and valid UTF-8 (not C1 controls) as they
 * are, a backslash doubled, every other byte \xHH; at most max input bytes ("..." after). */
void emd_show(char *out, size_t cap, const char *bytes, size_t len, size_t max);

/* 1 when bytes[0..len) is valid UTF-8. */
int emd_utf8(const char *bytes, size_t len);

#endif
