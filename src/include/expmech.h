/* expmech.h: the one public header of libexpmech.
 *
 * The exponential mechanism over a finite output set {0, ..., n-1}: output r with
 * probability proportional to exp(c * u[r]) where c = eps/(2*delta) (standard) or
 * c = eps/delta (monotone).  Every function returns an em_status; outputs are
 * written only on EM_OK.
 *
 * The functions declared here with ACSL contracts form the verified core
 * (src/core/, proven by `make verify`).  The random sources and libm wrappers (src/trusted/) are
 * trusted, not proven: their contract is the ledger entry in proofs/TRUSTED.md.
 */
#ifndef EXPMECH_H
#define EXPMECH_H

#ifdef __cplusplus
extern "C" {
#endif

#include "em_base.h"

/* ----------------------------------------------------- the verified core */
/* Contracts: src/core/<name>.h; logic: spec/<Concept>.acsl; proofs: proofs/.  The proven
 * scores (core/em_score_*.h, em_count.h) and the exact sampler's integer decision
 * (core/em_exact_select.h) are the library's own: a caller scores through em_scoring_new
 * (em_scoring.h) and draws exactly through em_sampler_new (em_law.h). */

#include "core/em_params.h"
#include "core/em_logweights.h"
#include "core/em_fixed.h"
#include "core/em_select.h"
#include "core/em_uniform.h"

/* ------------------------------------------------------ the high-level API */
/* Exact computations over a scenario: numbers cross as exact text, results come back as
 * correctly rounded decimals and data (never printed).  Implemented in src/io, src/oracle
 * and src/judge over the core; tested, not proven (the boundary: README, "What is proven"). */

#include "em_scn.h"
#include "em_mech.h"
#include "em_law.h"
#include "em_judge.h"
#include "em_scoring.h"
#include "em_groups.h"
#include "em_sweep.h"
#include "em_num.h"
#include "em_conform.h"
#include "em_example.h"
#include "em_plot.h"

/* ---------------------------------------------------------------- version */
/* The library's version (the command line prints it for --version).  MAJOR.MINOR.PATCH;
 * the numeric form is MAJOR * 10000 + MINOR * 100 + PATCH. */
#define EM_VERSION_MAJOR 1
#define EM_VERSION_MINOR 0
#define EM_VERSION_PATCH 0
#define EM_VERSION_STRING "1.0.0"
#define EM_VERSION_NUMBER (EM_VERSION_MAJOR * 10000 + EM_VERSION_MINOR * 100 + EM_VERSION_PATCH)

/* EM_VERSION_STRING of the library linked in (which may differ from the header's when a
 * program is linked against another build). */
const char *em_version(void);

#ifdef __cplusplus
}
#endif
#endif
