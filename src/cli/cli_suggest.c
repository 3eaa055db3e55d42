/* cli_suggest.c: "did you mean ...?" for the commands with their own option parsers. */
#include "cli/cli_suggest.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"

int em_cli_unknown(const char *cmd, const char *what, const char *a, const char *const *names,
                   size_t n, int list)
{
    const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
    const char *near = em_cli_nearest(a, eq ? (size_t)(eq - a) : strlen(a), names, n);
    fprintf(stderr, "expmech %s: unknown %s '%s' (", cmd, what, a);
    if (near)
        fprintf(stderr, "did you mean %s?  ", near);
    else if (list) {
        fputs("one of ", stderr);
        for (size_t k = 0; k < n; k++)
            fprintf(stderr, "%s%s", names[k], k + 1 < n ? ", " : "; ");
    }
    fprintf(stderr, "see expmech %s --help)\n", cmd);
    return EM_EXIT_USAGE;
}
