/* cli_suggest.h: the one-line message for an unknown option or word, naming the nearest
 * valid one (em_cli_nearest) where there is one, for the commands with their own parsers
 * (score, plot). */
#ifndef EM_CLI_SUGGEST_H
#define EM_CLI_SUGGEST_H

#include <stddef.h>

/* Writes "expmech CMD: unknown WHAT 'A' (did you mean N?  see expmech CMD --help)" to
 * standard error (the '=VALUE' of a --name=VALUE not compared), or, with no name near A,
 * the message with the names listed: "(one of N1, N2, ...; see ...)" when list is set,
 * else only "(see ...)".  Returns EM_EXIT_USAGE. */
int em_cli_unknown(const char *cmd, const char *what, const char *a, const char *const *names,
                   size_t n, int list);

#endif
