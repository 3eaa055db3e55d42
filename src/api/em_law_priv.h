/* em_law_priv.h: what the files of the law of a mechanism (em_law.h) share: em_law.c
 * (the law built once and cached in the mechanism; probabilities; points of continuous
 * laws), em_law_sample.c (the samplers), em_law_utility.c (the utility report, loss tails
 * and bounds, Monte Carlo). */
#ifndef EM_API_LAW_PRIV_H
#define EM_API_LAW_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "em_base.h"
#include "em_law.h"
#include "api/em_scn_priv.h"
#include "num/em_round.h"
#include "oracle/em_accuracy.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"

typedef struct pf_table {
    char **dec, **log;   /* log[i] NULL: undecided ("nan") */
    double *pd, *ld;
    unsigned *fl;        /* EM_OF_FROM_LOG, EM_OF_LOG_FROM_LOG (= EM_PROB_*) */
    char *nines;         /* K nines: a probability below 1 that rounds to 1 */
    size_t n, left;      /* candidates; those not excluded */
} pf_table;

struct em_law_cache {
    em_oracle *oracle;
    em_cont *law;
    pf_table *pf;
    em_pf_utility *pf_utility;        /* permute-and-flip's utility report */
    em_cval p, lp;       /* the last em_probs_get of the law */
    em_exact *exact;
    unsigned chunk0;     /* the exact sampler's own first chunk (variable timing) */
    em_pf *pfs;
    uint64_t *W, total;  /* the float sampler's fixed-point weights */
    uint64_t *C;         /* their cumulative table (em_cumulative), built for many draws */
    double *od;          /* the finite oracle's correctly rounded doubles as em_probs_get
                            found them (NaN: not yet), od_n of them: em_draws_check takes
                            them once all are known instead of a second oracle */
    size_t od_n;
};

/* One or two exact numbers in, one em_cont computation, one or two strings out. */
enum { F_CDF, F_DENSITY, F_QUANTILE, F_INTERVAL, F_TAIL };

/* ------------------------------------------------ shared by the parts */

/* err set to st with "what: " and em_cont_strerror's message; returns st. */
int em_law_fail(em_error *err, int st, const char *what);

/* The cache of m, made the first time (NULL when out of memory, with err set). */
struct em_law_cache *em_law_cache_of(em_mech *m, em_error *err);

/* The weighted or continuous law (em_cont) of m, built once. */
int em_law_cont(em_mech *m, em_cont **out, em_error *err);

/* The continuous law of m (em_law_cont) after checking that m is a continuous mechanism;
 * fn names the caller in messages. */
int em_law_continuous(em_mech *m, const char *fn, em_cont **out, em_error *err);

/* An exact number of the API's text (em_scn.h) into q. */
int em_law_parse_num(const char *text, mpq_t q, em_error *err);

/* em_pf's pmf is limited to EM_PF_PROBS_MAX_N candidates. */
int em_law_pf_limit(em_mech *m, em_error *err);

/* A failure of a computation over PF's pmf (message in err). */
int em_law_pf_fail(em_error *err, int st);

/* One draw: the index, and x for a continuous law. */
int em_law_draw1(em_sampler *s, size_t *idx, double *x);

/* The computation f (F_*) of m's continuous law at x (and y), its strings to *out (and
 * *out2); fn names the entry in messages. */
int em_law_pointwise(em_mech *m, int f, const char *fn, const char *x, const char *y,
                     char **out, char **out2, em_error *err);

/* The strings of v1 and v2 handed to *o1 and *o2 (a NULL o1 or o2: not wanted). */
void em_law_take(em_cval *v1, char **o1, em_cval *v2, char **o2);

#endif
