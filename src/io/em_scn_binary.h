/* em_scn_binary.h: a finite scenario from an array of doubles, each read as the exact
 * rational it is (a double is m 2^e: no decimal text, no parse), into the same compact
 * encoding the text parser gives that value (em_scn_text.h), labels "0" ... "n-1". */
#ifndef EM_IO_SCN_BINARY_H
#define EM_IO_SCN_BINARY_H

#include <stddef.h>

#include "em_base.h"
#include "io/em_scn_text.h"

/* s: initialised, compact, empty; n >= 1 (the caller checks the limit).  -inf excludes a
 * candidate; NaN and +inf are refused (EM_ERR_PARSE, "NAME[i]: ...").  name names the
 * array in later messages.  EM_OK, or EM_ERR_PARSE / EM_ERR_NOMEM with err set. */
int em_scn_read_doubles(em_scn *s, size_t n, const double *u, const char *name, em_error *err);

#endif
