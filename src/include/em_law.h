/* em_law.h: the law of a mechanism (em_scn.h): exact probabilities, exact sampling, the
 * CDF, density and quantile of continuous laws, and the utility report.
 *
 * Conventions: those of em_scn.h.  Decimal results are correctly rounded (round to
 * nearest; an exact tie, possible only for a rational value, to even) to em_mech_get(m).digits
 * significant digits, in the style of C's "%#.Kg" with an exponent of any length
 * ("9.9e-3248"); "0", "1", "-inf" and "inf" only when exactly so.  A probability below 1
 * whose rounding is 1 is written as K nines ("0.99...9"): its logarithm carries the
 * distance.  Doubles beside them are correctly rounded to double.
 *
 * The mechanism caches what it computes (the normaliser, the law, the samplers) inside m:
 * a mechanism is not to be used from two threads at once.
 */
#ifndef EM_LAW_H
#define EM_LAW_H

#include <stddef.h>
#include <stdint.h>

#include "em_mech.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- probabilities */

#define EM_PROB_ZERO 1u          /* P = 0 exactly: excluded (or measure 0, or a piece of
                                    length 0) */
#define EM_PROB_ONE 2u           /* P = 1 exactly: the only output with mass */
#define EM_PROB_RATIONAL 4u      /* P = 1/m exactly (all candidates tied) */
#define EM_PROB_NEAR_ONE 8u      /* P < 1 rounds to 1: prob is K nines, prob_d is 1 */
#define EM_PROB_FROM_LOG 16u     /* P below MPFR's exponent range: prob computed exactly
                                    from log P */
#define EM_PROB_LOG_FROM_LOG 32u /* |log P| below MPFR's range: computed from its log */
#define EM_PROB_UNDECIDED 64u    /* permute-and-flip only: log P not decided within 2^20
                                    bits: logprob is "nan" (never an unproven number); a
                                    double not decided there is NaN, with or without it */

typedef struct em_prob {
    const char *prob;      /* correctly rounded to em_mech_get(m).digits significant digits;
                              valid until the next call on m */
    const char *logprob;   /* the same for the natural log of the probability */
    double prob_d;         /* correctly rounded to double */
    double logprob_d;
    unsigned flags;        /* EM_PROB_* */
} em_prob;

/* The largest finite scenario of which the permute-and-flip probabilities are computed:
 * the law costs O(n) operations per precision level, and this bounds a run's time
 * (spec/PermuteAndFlip.md). */
#define EM_PF_PROBS_MAX_N ((size_t)10000000)

/* Candidate i's probability (finite scenarios: standard, monotone, pf, with or without a
 * measure), or piece i's mass P(lo_i <= X <= hi_i) (continuous scenarios).  The first call
 * on m computes what every candidate needs (the normaliser's first bounds for standard and
 * monotone, every probability at once for pf, the weighted or continuous law for a measure
 * or pieces); its failure, returned by every call, is the law's error: EM_ERR_NULL,
 * EM_ERR_TOO_MANY (pf beyond EM_PF_PROBS_MAX_N), EM_ERR_DOMAIN (pieces that overlap, a ray
 * whose integral diverges, no mass: the message names the file and line), EM_ERR_UNDECIDED
 * (a weight below exp(-3.0e18); pf: a probability not decided within 2^20 bits, which no
 * known input reaches), EM_ERR_NOMEM.  Errors of one candidate: EM_ERR_DOMAIN (i >=
 * em_scn_get's size, or em_scn_get's pieces), and EM_ERR_UNDECIDED. */
EM_API int em_probs_get(em_mech *m, size_t i, em_prob *out, em_error *err);

/* Every candidate's (or piece's) probability, or with log its log-probability, as
 * em_probs_get gives it, one per line ('\n' after each) in one malloc'd buffer *out (free
 * with em_free) of *len bytes (len may be NULL): one call for a binding instead of n. */
EM_API int em_probs_text(em_mech *m, int log, char **out, size_t *len, em_error *err);

/* The ends of piece j of a continuous scenario as exact text ("-inf" / "inf" for a ray;
 * otherwise a decimal when it has at most 40 digits, else "num/den"); malloc'd (em_free).
 * Errors: EM_ERR_NULL, EM_ERR_DOMAIN (not continuous, j >= em_scn_get's pieces),
 * EM_ERR_NOMEM. */
EM_API int em_piece_ends(em_mech *m, size_t j, char **lo, char **hi, em_error *err);

/* ------------------------------------------------------------------ sampling */

#define EM_SAMPLER_EXACT 0   /* exact: the ideal law given fair bits (spec/ExactSampling.md) */
#define EM_SAMPLER_FLOAT 1   /* the verified core's double-precision path: NOT pure
                                epsilon-DP (a weight rounding to 0 on one neighbour only) */

#define EM_TIMING_VARIABLE 0 /* the exact sampler reads bits as it needs them */
#define EM_TIMING_FIXED 1    /* exact sampler of a finite standard / monotone mechanism
                                only: one 63-bit read and one scan of all n + 1 bounds per
                                draw, so its work does not reveal the output (the slow path
                                runs with probability <= n 2^-60; SECURITY.md) */

typedef struct em_sample_opts {
    uint64_t seed;     /* used when seeded != 0: ChaCha20 keyed by seed (reproducible);
                          else the OS CSPRNG (getrandom), as privacy requires */
    int seeded;
    int sampler;       /* EM_SAMPLER_EXACT (default) or EM_SAMPLER_FLOAT */
    int timing;        /* EM_TIMING_VARIABLE (default) or EM_TIMING_FIXED */
} em_sample_opts;

#define EM_SAMPLE_OPTS_INIT {0, 0, EM_SAMPLER_EXACT, EM_TIMING_VARIABLE}

/* One draw of a mechanism, finite or continuous. */
typedef struct em_draw {
    size_t index;   /* the 0-based candidate (finite), or the piece the draw came from
                       (continuous) */
    double value;   /* continuous: the double nearest to an exact draw (exact sampler; ties
                       to even), or the float sampler's double; finite: NaN */
} em_draw;

/* A stream of draws: em_sampler_draw called k times with n_1, ..., n_k gives the same
 * draws as one call with n_1 + ... + n_k.  m must outlive the sampler. */
typedef struct em_sampler em_sampler;

/* Errors: EM_ERR_NULL, EM_ERR_DOMAIN (an unknown sampler or timing; timing fixed
 * with anything but the exact sampler of a finite standard / monotone mechanism without
 * measure; the float sampler with a utility beyond double's range, the message naming
 * the candidate), EM_ERR_VARIANT (pf with the float sampler), EM_ERR_EPSILON /
 * EM_ERR_SENSITIVITY (epsilon or the sensitivity rounds to a double the core refuses),
 * the law's errors (em_probs_get), EM_ERR_RNG (the OS random source failed; message
 * "random source: ..."), EM_ERR_NOMEM. */
EM_API int em_sampler_new(em_mech *m, const em_sample_opts *o, em_sampler **out,
                          em_error *err);
/* n >= 1 draws into out[0..n).  A sampler made with the same seed repeats the draws: those
 * of `expmech sample --seed S -n N`, which prints a finite draw's label and a continuous
 * draw's value with "%.17g".  Errors: EM_ERR_NULL, EM_ERR_EMPTY (n = 0), EM_ERR_RNG,
 * EM_ERR_UNDECIDED, EM_ERR_NOMEM; after an error out[0..n) is unspecified. */
EM_API int em_sampler_draw(em_sampler *s, size_t n, em_draw *out, em_error *err);


/* ----------------------------------------------------------- continuous laws */

#define EM_LAW_CDF 0      /* P(X <= x): "0" left of the output range, "1" right of it */
#define EM_LAW_DENSITY 1  /* the density at x, right-continuous (at a breakpoint, the piece
                             that starts there; 0 outside the range, in gaps and at its right
                             end), and its natural log ("-inf" where it is 0) in *log */
#define EM_LAW_QUANTILE 2 /* the p-quantile inf { x : F(x) >= p }, x = p: Q(0) the left end
                             of the range ("-inf" possible), Q(1) the right end ("inf") */
#define EM_LAW_INTERVAL 3 /* P(x < X <= y) = F(y) - F(x), x <= y, rounded once as one exact
                             number */

/* The law of a continuous mechanism at a point, what one of EM_LAW_*: *out (and *log)
 * malloc'd (em_free).  x (and y) are exact text (em_scn.h); y is EM_LAW_INTERVAL's only
 * and log EM_LAW_DENSITY's only (may be NULL there: the log density not wanted), both
 * NULL for the others.  Errors: EM_ERR_NULL, EM_ERR_PARSE (not an exact number; the
 * message "bad number 'X': why"), EM_ERR_DOMAIN (another what, a y or log it does not
 * take, a finite mechanism, p outside [0, 1], x > y), the law's errors
 * (em_probs_get), EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
EM_API int em_law_at(em_mech *m, int what, const char *x, const char *y, char **out,
                     char **log, em_error *err);

/* ------------------------------------------------------------ utility report */

/* Exact quantities of the utility of the output, correctly rounded to m's digits (text)
 * and to double, for every variant and scenario: standard / monotone over any scenario
 * (finite, with a measure, continuous: exact integrals, decided by exact comparisons at a
 * rounding boundary), permute-and-flip over a finite scenario without a measure of at most
 * EM_PF_PROBS_MAX_N candidates (sums over its exact pmf's interval bounds at rising
 * precision: Ziv's strategy, as for its probabilities; a value that is exactly a
 * rounding boundary, which the rational cases of ties and of one candidate never are, is
 * EM_ERR_UNDECIDED rather than a guess).
 *
 * With them, for a finite scenario, the accuracy theorem of the exponential mechanism
 * (McSherry & Talwar 2007; Dwork & Roth, Theorem 3.11): with c = eps/(2 D) (standard, pf)
 * or eps/D (monotone) and ratio = |R| / |R_OPT| (the outputs of positive probability over
 * those at opt; with a measure column, their total measures),
 *   P(loss >= s) <= ratio exp(-c s)   (the theorem: (2D/eps)(ln ratio + t) at s, e^-t),
 * so P(loss > t) <= min(1, ratio exp(-c t)), and, integrating the tail,
 * E[loss] <= (ln ratio + 1) / c.  Permute-and-flip meets the same bounds: for r not at
 * opt, P(r) = p_r integral_0^1 prod_{j != r} (1 - p_j x) dx <= p_r / (|R_OPT| + 1) (the
 * |R_OPT| modes have p_j = 1), with p_r = exp(-c loss_r); and its expected loss never
 * exceeds the standard mechanism's (McKenna & Sheldon 2020, Theorem 2).  Both correctly
 * rounded to m's digits (1/c and "1" exactly when so). */
typedef struct em_utility_result {
    char *opt;               /* max u over the outputs of positive probability
                                (continuous: the largest u at a finite end of a piece) */
    char *expected_utility;  /* E[u(X)] */
    char *expected_loss;     /* opt - E[u(X)] */
    char *sd_loss;           /* the standard deviation of u(X) */
    char *p_best;            /* P(u(X) = opt) ("0" for a continuous law without a constant
                                piece at opt); below 1 but rounding to 1: K nines "0.99...9",
                                as EM_PROB_NEAR_ONE */
    double opt_d, expected_utility_d, expected_loss_d, sd_loss_d, p_best_d;
    char *expected_loss_bound;  /* the theorem's bound on E[loss]; NULL when continuous */
    size_t nt;               /* the thresholds asked for (em_utility_opts) */
    char **t;                /* each as given */
    char **p_loss_gt;        /* P(opt - u(X) > t), exactly rounded */
    char **p_bound;          /* the theorem's bound on it; entries NULL when continuous */
    uint64_t mc_n;           /* the Monte Carlo estimate's draws (0: none) */
    double mc_mean, mc_se;   /* the mean loss of the draws and its standard error */
} em_utility_result;

/* What em_utility computes beyond the moments and the bound on E[loss] (NULL: nothing).
 * nt thresholds t[i] >= 0, exact text; mc_n >= 2: a Monte Carlo estimate of the expected
 * loss beside the exact one, mc_n draws of m's sampler with options mc (NULL:
 * EM_SAMPLE_OPTS_INIT, the OS CSPRNG), the loss of each (opt - u, opt exactly, then rounded
 * to double; a continuous draw's u is its piece's a + b x at the double x drawn), their
 * mean and its standard error (sample standard deviation / sqrt(n)). */
typedef struct em_utility_opts {
    size_t nt;
    const char *const *t;
    uint64_t mc_n;
    const em_sample_opts *mc;
} em_utility_opts;

/* The utility report of m, as expmech utility computes it; em_write (em_scn.h) writes it
 * as that command does: EM_WRITE_CSV (the header line at the first run, then one row) or
 * EM_WRITE_JSON (one object; a sweep: a list of them), m still existing.  Errors:
 * EM_ERR_NULL (m, out, o->t, a threshold: "loss_at: t[i] is NULL"), EM_ERR_VARIANT (pf
 * over a measure or pieces), EM_ERR_TOO_MANY (pf beyond EM_PF_PROBS_MAX_N), EM_ERR_PARSE
 * and EM_ERR_DOMAIN (a threshold below 0, "loss_at: ..."; mc_n 1, "mc: ..."), the law's
 * errors (em_probs_get), the sampler's (em_sampler_new, "mc: ..."), EM_ERR_UNDECIDED,
 * EM_ERR_NOMEM.  *out freed with em_free. */
EM_API int em_utility(em_mech *m, const em_utility_opts *o, em_utility_result **out,
                      em_error *err);

/* ----------------------------------------------------------------- writers */
/* The notes of a mechanism's law written by em_write (em_write_opts.notes): how many rows
 * carry each (expmech probs says them on standard error). */
typedef struct em_probs_notes {
    size_t near_one;   /* EM_PROB_NEAR_ONE, finite unweighted only */
    size_t from_log;   /* EM_PROB_FROM_LOG or EM_PROB_LOG_FROM_LOG */
    size_t undecided;  /* EM_PROB_UNDECIDED */
} em_probs_notes;

/* em_write (em_scn.h) of a mechanism m: its law written as expmech probs writes it:
 * EM_WRITE_CSV (a header line in a sweep only; rows label,probability,log_probability or
 * lo,hi,probability,log_probability) or EM_WRITE_JSON (one object; in a sweep, the runs'
 * objects in one list), computed row by row (em_probs_get): rows already written stay
 * written when one fails.  o->notes (may be NULL) counts the rows' notes.  Errors:
 * EM_ERR_DOMAIN (EM_WRITE_TEXT or an unknown format, a sweep_i beyond sweep_n, writing to f
 * failed), those of the law (em_probs_get: "candidate N: ..." / "piece N: ..."),
 * em_piece_ends's, em_scn_utility's. */

/* em_write (em_scn.h) of a sampler: o->draws draws written as expmech sample writes them,
 * one a line: a finite draw's label (a CSV field: em_write_opts.terminal as for a
 * mechanism), a continuous draw's value ("%.17g"); EM_WRITE_CSV only (the header line
 * "epsilon,value" and the epsilon first in a sweep only).  Drawn one at a time: the first
 * failed write (f in error) stops the drawing.  *o->done (may be NULL): the draws written
 * (the one whose write failed included).  Errors: EM_ERR_DOMAIN (another format, a sweep_i
 * beyond sweep_n, writing to f failed), em_sampler_draw's (the draws before it stay
 * written). */

/* The points at which em_write (em_scn.h) writes a continuous mechanism's law
 * (em_write_opts.points, .law): n texts as given (written as given), or, with at
 * NULL, the grid lo + i (hi - lo)/(n - 1) of em_num_grid_point (written exactly when short,
 * else rounded to the mechanism's digits; computed at the exact point). */
typedef struct em_points {
    size_t n;
    const char *const *at;
    const char *lo, *hi;
} em_points;

/* em_write of a continuous mechanism m with o->points p: its law there, o->law one of
 * EM_LAW_* (em_law_at), computed point by point and written as expmech cdf, density and
 * quantile write it (rows x,cdf; x,density,log_density; p,x; a,b,probability with p->at
 * "A:B" each): EM_WRITE_CSV only (no header line but in a sweep).  Rows already written
 * stay written when a point fails ("point N: ..."; an interval: "between: ..." for a
 * malformed one or A > B, "interval N: ..."); the writing stops when f is in error.
 * Errors: EM_ERR_NULL, EM_ERR_DOMAIN (another format or law, a sweep_i beyond sweep_n,
 * writing to f failed), EM_ERR_PARSE (an interval), those of the law (em_probs_get),
 * em_num_grid_point and em_law_at. */

/* The points of what (EM_LAW_*) from text, in *out (one block, freed by em_free): at
 * "X[,X...]" (at most EM_POINTS_MAX, each an exact number; EM_LAW_INTERVAL: "A:B[,A:B...]",
 * each two exact numbers, A <= B) or grid "LO:HI:N" (LO <= HI, 1 <= N <= EM_POINTS_MAX
 * decimal or 0x hex, N = 1 only with LO = HI), exactly one of them; EM_LAW_QUANTILE: every
 * point in [0, 1].  Errors: EM_ERR_NULL (out, or not exactly one of at and grid),
 * EM_ERR_PARSE and EM_ERR_DOMAIN with a message naming "at", "grid" or "between" first,
 * EM_ERR_NOMEM. */
#define EM_POINTS_MAX 10000000UL
EM_API int em_points_parse(int what, const char *at, const char *grid, em_points **out,
                           em_error *err);

#ifdef __cplusplus
}
#endif
#endif
