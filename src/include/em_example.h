/* em_example.h: the seed documents' scenarios (`expmech example`), as scenario text. */
#ifndef EM_EXAMPLE_H
#define EM_EXAMPLE_H

#include <stddef.h>

#include "em_scn.h" /* EM_API */

#ifdef __cplusplus
extern "C" {
#endif

/* The name of example i ("marital", ...) and, in *what when what is not NULL, one line
 * saying what it is; NULL past the last. */
EM_API const char *em_example_name(size_t i, const char **what);

/* Example `name` as a scenario file (em_scn_new reads it: '# ' comment lines, a
 * '# sensitivity:' header, lines 'label,utility' with exact utilities), into *text
 * (NUL-terminated, em_free).  Errors: EM_ERR_NULL, EM_ERR_DOMAIN (no such example),
 * EM_ERR_NOMEM. */
EM_API int em_example(const char *name, char **text, em_error *err);

#ifdef __cplusplus
}
#endif
#endif
