/* em_error.c: the one error convention (em_error.h). */
#include "base/em_error.h"

#include <stdarg.h>
#include <stdio.h>

int em_err(em_error *err, int status, const char *fmt, ...)
{
    if (err) {
        err->status = status;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

void em_err_ok(em_error *err)
{
    if (err) {
        err->status = EM_OK;
        err->msg[0] = 0;
    }
}

int em_err_at(em_error *err, int status, const char *name, unsigned long line,
              const char *fmt, ...)
{
    if (err) {
        err->status = status;
        int k = line ? snprintf(err->msg, sizeof err->msg, "%s:%lu: ", name, line)
                     : snprintf(err->msg, sizeof err->msg, "%s: ", name);
        if (k < 0)
            k = 0;
        if ((size_t)k < sizeof err->msg) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err->msg + k, sizeof err->msg - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return status;
}
