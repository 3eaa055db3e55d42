/* em_error.h: filling an em_error (em_base.h), the library's one error convention. */
#ifndef EM_BASE_ERROR_H
#define EM_BASE_ERROR_H

#include "em_base.h"

/* Set err (may be NULL) to status and a formatted message; returns status. */
int em_err(em_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a place in a file: "NAME:LINE: message" ("NAME: message" when line is 0). */
int em_err_at(em_error *err, int status, const char *name, unsigned long line,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* err made "no error" (NULL is harmless). */
void em_err_ok(em_error *err);

/* The end of an entry that built the object r: on EM_OK r goes out through *out and err
 * is cleared, otherwise free_r(r) frees it.  Evaluates to st.  A macro so that every
 * object type keeps its own typed pointer and free function. */
#define EM_HAND_OUT(st, r, free_r, out, err) \
    ((st) == EM_OK ? (*(out) = (r), em_err_ok(err), EM_OK) : (free_r(r), (st)))

#endif
