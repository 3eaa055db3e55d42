/* em_cdf_file.h: reading another implementation's CDF table, one point per line `x,cdf`:
 * x exact (decimal, hex float or fraction a/b; num/em_rational.h), cdf a number read
 * exactly, or nan / inf / -inf as values to judge (judge/em_cdf_compare.h). */
#ifndef EM_IO_CDF_FILE_H
#define EM_IO_CDF_FILE_H

#include <stddef.h>

#include "em_base.h"

#include "num/em_cdf_table.h"

/* Parse `x,cdf` lines (spaces and tabs around fields, blank lines and '#' comments
 * skipped, a UTF-8 byte-order mark and CRLF accepted).  EM_OK, EM_ERR_PARSE with
 * "NAME:LINE: message" in err, EM_ERR_NOMEM.  An empty table is EM_OK with n == 0. */
int em_cdf_table_parse(em_cdf_table *T, const char *buf, size_t len, const char *name,
                       em_error *err);

#endif
