/* em_draws.h: a file of draws (another implementation's output on a continuous range),
 * read for the check against the exact law. */
#ifndef EM_IO_DRAWS_H
#define EM_IO_DRAWS_H

#include <stddef.h>

#include "em_base.h"

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

#endif
