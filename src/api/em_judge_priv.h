/* em_judge_priv.h: what the files behind em_judge.h share: the law of a mechanism, file
 * reading with the command line's messages, and status messages.  Never installed. */
#ifndef EM_JUDGE_PRIV_H
#define EM_JUDGE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "em_judge.h"
#include "api/em_scn_priv.h"
#include "oracle/em_cont.h"

/* The weighted / continuous oracle's law of m at `digits`.  Refuses pf (EM_ERR_VARIANT). */
int em_judge_law(em_mech *m, int digits, em_cont **law, em_error *err);

/* err from a status of the oracle (em_cont_strerror), prefixed "what: " when what. */
int em_judge_fail(em_error *err, int st, const char *what);

/* The two-sided Clopper-Pearson interval of a binomial proportion from k successes in n
 * trials at confidence (each side at (1 - confidence)/2), as R's binom.test: lo = 0 when
 * k == 0, hi = 1 when k == n.  Errors: EM_ERR_NULL, EM_ERR_DOMAIN (k > n, n == 0,
 * confidence outside (0, 1)). */
int em_clopper_pearson(uint64_t k, uint64_t n, double confidence, double *lo,
                       double *hi, em_error *err);

/* The whole of path (NULL or "-": standard input, "<stdin>") up to max bytes, into *buf
 * (malloc'd); *name for messages.  EM_ERR_PARSE: "NAME: cannot open: ..." or "NAME: cannot
 * read". */
int em_judge_read(const char *path, size_t max, const char **name, char **buf, size_t *len,
                  em_error *err);

/* em_label_find_fn over a scenario (ctx: const em_scn *). */
long em_judge_find_label(const void *ctx, const char *label, size_t len);

/* The expanded exact utilities of a finite m (and, with doubles, ud[]): EM_OK or NOMEM. */
int em_judge_finite(em_mech *m, int doubles, em_error *err);

/* Draws files may be large: the command line's limit. */
#define EM_JUDGE_SAMPLES_MAX ((size_t)16 << 30)

/* em_audit but for the draws of two continuous mechanisms (em_audit_draws.c: em_audit
 * sends those to em_audit_draws and everything else here). */
int em_audit_laws(em_mech *x, em_mech *y, const em_draws *dx, const em_draws *dy,
                  double confidence, em_audit_result **out, em_error *err);

/* The same from the numbers themselves (dx[0..nx), dy[0..ny)): the Clopper-Pearson lower
 * bound on epsilon over intervals (runs of cells of a grid of both laws' piece ends and 15
 * quantiles each, fixed before the draws are read), each direction searched with
 * Bonferroni as the finite events are; event_xy, event_yx count the cells of the event,
 * ev_* give its interval.  NaN draws: EM_ERR_DOMAIN. */
int em_audit_draws(em_mech *x, em_mech *y, const double *dx, size_t nx, const double *dy,
                   size_t ny, double confidence, em_audit_result **out, em_error *err);

/* EM_OK when exactly one form of d (draw, counts, path) is set; fn names the caller. */
int em_judge_draws_form(const em_draws *d, const char *fn, em_error *err);

/* The draws d of the finite scenario s as counts per candidate: *counts calloc'd with
 * em_scn_get(s).size entries, *total their sum. */
int em_judge_counts(const em_scn *s, const em_draws *d, uint64_t **counts, uint64_t *total,
                    em_error *err);

/* em_draws_check of a continuous m on the values x[0..n) (no em_draw array to build: the
 * conformance suite's draws are read as doubles). */
int em_judge_check_values(em_mech *m, const double *x, size_t n, const em_check_opts *o,
                          em_check_result **out, em_error *err);

/* Refuse permute-and-flip's exact pmf beyond EM_PF_PROBS_MAX_N candidates. */
int em_judge_pf_limit(const em_mech *m, em_error *err);

#endif
