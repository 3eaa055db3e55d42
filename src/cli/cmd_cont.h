/* cmd_cont.h: the continuous / weighted branches of `probs` and `sample` (cmd_cont.c).
 * Each returns -1 on success (the caller flushes and exits 0) or an exit status after a
 * message. */
#ifndef EM_CLI_CMD_CONT_H
#define EM_CLI_CMD_CONT_H

#include <gmp.h>

#include "cli/cli_util.h"
#include "io/em_scenario.h"

/* `probs` on a continuous scenario (lo,hi,probability,log_probability per piece) or a
 * finite one with a measure column (label,probability,log_probability). */
int em_cli_cont_probs(em_cli *c, em_scenario *sc, const mpq_t delta, int variant);

/* `sample` on the same: one number (%.17g) or label per line; use_float: the fast path. */
int em_cli_cont_sample(em_cli *c, em_scenario *sc, const mpq_t delta, int variant, int use_float);

#endif
