/* em_mistake_priv.h: the laws of known mistakes (em_conform.h) for a mechanism, on the cells of
 * its checks, their power and the diagnosis of a reject.  Used by em_diagnose (every reject of
 * em_draws_check) and the conformance runner.  Never installed. */
#ifndef EM_API_MISTAKE_PRIV_H
#define EM_API_MISTAKE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "em_conform.h"

/* cells pooled until each expects this many draws: em_draws_check's default (the G-test
 * keeps its nominal level at 1e-6 there; the textbook 5 is calibrated for 0.05) */
#define EM_DIAG_MIN_EXPECTED 20.0

/* permute-and-flip's exact law costs O(n^2): its law as a mistake (pf_for_em) is computed
 * for at most this many candidates */
#define EM_DIAG_PF_MAX 512

typedef struct em_mistake_laws em_mistake_laws;

/* What the mistakes of m need, computed once (kind: EM_KIND_*, or -1 to take it from m).
 * m must outlive it. */
int em_mistake_laws_new(em_mech *m, int kind, em_mistake_laws **out, em_error *err);
void em_mistake_laws_free(em_mistake_laws *L);
/* 1 when L is the laws of a continuous mechanism (cells: bins), 0 finite (candidates) */
int em_mistake_laws_continuous(const em_mistake_laws *L);

/* The names of em_conform_name's tables (NULL when unknown) and the kind of a name (-1). */
const char *em_kind_name(int kind);
int em_kind_from_name(const char *name);
const char *em_mistake_name(int mistake);
const char *em_conform_verdict_name(int verdict);

/* The law of a mistake in a few symbols ("exp(ε·u/Δ)") and the mistake in words ("the
 * factor 1/2 is missing"); NULL when unknown. */
const char *em_mistake_law(int mistake);
const char *em_mistake_words(int mistake);
/* The mistake of an identifier (em_mistake_name's), or -1. */
int em_mistake_from_name(const char *name);

/* The draws behind a check result r of m (em_draws_check) tested against the law of every
 * known mistake that applies to m: counts[] per candidate for a finite m (em_scn_get's size
 * entries), NULL for a continuous one (r's bins and draws outside R are used).
 * em_draws_check calls this on every reject (unless em_check_opts.skip_diagnosis) and keeps
 * the result in r->diagnosis.  Errors: EM_ERR_NULL, EM_ERR_DOMAIN (counts missing or
 * present for the wrong kind), the law's errors, EM_ERR_NOMEM. */
int em_diagnose(em_mech *m, const em_check_result *r, const uint64_t *counts,
                em_diagnosis **out, em_error *err);

/* The cells a check r counts draws in: finite, the candidates (counts[] per candidate);
 * continuous, r's bins and one cell for draws outside R.  *n cells; p (exact law) and obs
 * malloc'd. */
int em_mistake_cells(em_mistake_laws *L, const em_check_result *r, const uint64_t *counts,
                     size_t *n, double **p, uint64_t **obs, em_error *err);

/* q[0..n): the mistake's law on those cells (summing to 1); *applies 0 when the mistake
 * does not apply to this law or gives the exact law itself. */
int em_mistake_alt(em_mistake_laws *L, int mistake, const em_check_result *r, size_t n,
                   const double *p, double *q, int *applies, em_error *err);

/* em_diagnose with L made once (the conformance runner keeps it for a case). */
int em_mistake_diagnose(em_mistake_laws *L, const em_check_result *r, const uint64_t *counts,
                        em_diagnosis **out, em_error *err);

#endif
