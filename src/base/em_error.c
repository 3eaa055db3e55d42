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
