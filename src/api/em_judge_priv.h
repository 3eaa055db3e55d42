/* em_judge_priv.h: what the files behind em_judge.h share: the law of a mechanism, file
 * reading with the command line's messages, and status messages.  Never installed. */
#ifndef EM_JUDGE_PRIV_H
#define EM_JUDGE_PRIV_H

#include <stddef.h>

#include "em_judge.h"
#include "api/em_scn_priv.h"
#include "oracle/em_cont.h"

/* The weighted / continuous oracle's law of m at `digits`.  Refuses pf (EM_ERR_VARIANT). */
int em_judge_law(em_mech *m, int digits, em_cont **law, em_error *err);

/* err from a status of the oracle (em_cont_strerror), prefixed "what: " when what. */
int em_judge_fail(em_error *err, int st, const char *what);

/* The whole of path (NULL or "-": standard input, "<stdin>") up to max bytes, into *buf
 * (malloc'd); *name for messages.  EM_ERR_PARSE: "NAME: cannot open: ..." or "NAME: cannot
 * read". */
int em_judge_read(const char *path, size_t max, const char **name, char **buf, size_t *len,
                  em_error *err);

/* em_label_find_fn over a scenario (ctx: const em_scn *). */
long em_judge_find_label(const void *ctx, const char *label, size_t len);

/* The expanded exact utilities of a finite m (and, with doubles, ud[]): EM_OK or NOMEM. */
int em_judge_finite(em_mech *m, int doubles, em_error *err);

/* Refuse permute-and-flip's exact pmf beyond EM_PF_PROBS_MAX_N candidates. */
int em_judge_pf_limit(const em_mech *m, em_error *err);

#endif
