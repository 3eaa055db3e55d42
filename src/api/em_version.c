/* em_version.c: the library's version string (expmech.h). */
#include "expmech.h"

const char *em_version(void)
{
    return EM_VERSION_STRING;
}
