/* em_spawn.h: running a program (a sampler of the conformance suite, gnuplot for a figure):
 * posix_spawnp (no shell), standard input /dev/null or a file given, standard output and
 * error through pipes read with poll() up to a deadline and caps, the program in a process
 * group of its own that is killed at the deadline or a cap.  Never installed. */
#ifndef EM_IO_SPAWN_H
#define EM_IO_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#include "em_base.h"

/* How a run ended (the values of em_conform.h's EM_RUN_*, which the runner checks). */
#define EM_SPAWN_EXITED 0      /* code: the exit status */
#define EM_SPAWN_SIGNALED 1    /* code: the signal */
#define EM_SPAWN_TIMEOUT 2     /* killed at the deadline */
#define EM_SPAWN_NOT_STARTED 3 /* code: errno of the start (a missing program) */
#define EM_SPAWN_FLOOD 4       /* killed: more output than the caps (lines or bytes) */

/* The fields of em_conform.h's em_run_output, which the runner fills from it. */
typedef struct em_spawn_out {
    int how, code;           /* EM_SPAWN_*; the exit status, the signal or the errno */
    char *out, *err;         /* standard output (up to the caps), the end of standard
                                error; both malloc'd */
    size_t out_len, err_len;
    double seconds;          /* wall time of the run */
} em_spawn_out;

typedef struct em_spawn_opts {
    double timeout;          /* seconds */
    uint64_t max_out_bytes;  /* standard output beyond this: EM_SPAWN_FLOOD */
    uint64_t max_lines;      /* lines beyond this: EM_SPAWN_FLOOD */
    size_t err_keep;         /* bytes of the end of standard error kept */
    int in_fd;               /* > 0: the program's standard input (read from its start);
                                0: /dev/null */
} em_spawn_opts;

/* Runs argv (argv[0] found on PATH) and fills *o (how, code, out, err, seconds).  EM_OK, or
 * EM_ERR_NOMEM / EM_ERR_DOMAIN (pipes could not be made): the run did not happen. */
int em_spawn_run(const char *const *argv, const em_spawn_opts *opts, em_spawn_out *o);

#endif
