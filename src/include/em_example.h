/* em_example.h: the seed documents' scenarios (`expmech example`), as scenario text. */
#ifndef EM_EXAMPLE_H
#define EM_EXAMPLE_H

#include <stddef.h>

#include "em_scn.h" /* EM_API */

#ifdef __cplusplus
extern "C" {
#endif

/* Example `name` as a scenario file (em_scn_new reads it: '# ' comment lines, a
 * '# sensitivity:' header, lines 'label,utility' with exact utilities), into *text
 * (NUL-terminated, em_free); name NULL: the examples, one line each, its name ("marital",
 * ...), a tab and one line saying what it is.  Errors: EM_ERR_NULL, EM_ERR_DOMAIN (no such
 * example), EM_ERR_NOMEM. */
EM_API int em_example(const char *name, char **text, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
