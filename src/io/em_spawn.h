/* em_spawn.h: running a sampler program for the conformance suite: posix_spawnp (no shell),
 * standard input /dev/null, standard output and error through pipes read with poll() up to
 * a deadline and caps, the program in a process group of its own that is killed at the
 * deadline or a cap.  Never installed. */
#ifndef EM_IO_SPAWN_H
#define EM_IO_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#include "em_conform.h"

typedef struct ems_opts {
    double timeout;          /* seconds */
    uint64_t max_out_bytes;  /* standard output beyond this: EM_RUN_FLOOD */
    uint64_t max_lines;      /* lines beyond this: EM_RUN_FLOOD */
    size_t err_keep;         /* bytes of the end of standard error kept */
} ems_opts;

/* Runs argv (argv[0] found on PATH) and fills *o (how, code, out, err, seconds).  EM_OK, or
 * EM_ERR_NOMEM / EM_ERR_DOMAIN (pipes could not be made): the run did not happen. */
int ems_run(const char *const *argv, const ems_opts *opts, em_run_output *o);

#endif
