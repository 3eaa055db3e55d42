/* em_judge.h: another implementation judged against the exact law of a mechanism (em_scn.h):
 * its draws (check), its probabilities or CDF (compare), and the privacy loss between two
 * neighbouring mechanisms (audit).  Verdicts, statistics and tables come back as data;
 * the conventions (status, em_error, ownership) are those of em_scn.h.
 *
 * Statistics are doubles (p-values, G); numbers the judge must not round twice come back
 * as decimal text beside them.  Files are read by the same readers as the command line
 * (path NULL or "-": standard input; messages "NAME:LINE: ...").
 */
#ifndef EM_JUDGE_H
#define EM_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "em_law.h"
#include "em_mech.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_VERDICT_PASS 0
#define EM_VERDICT_REJECT 1
#define EM_VERDICT_INSUFFICIENT 2 /* the test could not have detected a departure (exit 4 in
                                     the CLI): never a pass */
#define EM_VERDICT_UNDECIDED 3    /* audit: 320-bit intervals could not decide (exit 3) */

#define EM_JUDGE_NONE SIZE_MAX /* "no such index" in the results below */

/* ------------------------------------------------------------------ check */

/* What the draws of a finite scenario's samples file are (em_draws.samples_are) */
#define EM_SAMPLES_ARE_AUTO 0     /* a label, else digits as a 0-based index; a draw that is
                                     the label of one candidate and the index of another is
                                     refused as ambiguous */
#define EM_SAMPLES_ARE_LABELS 1
#define EM_SAMPLES_ARE_INDICES 2

/* The draws a judge takes (em_draws_check, em_audit), in one of three forms: exactly one
 * of draw, counts and path is set. */
typedef struct em_draws {
    const em_draw *draw;      /* n draws as em_sampler_draw gives them: a finite mechanism's
                                 index, a continuous one's value (NaN and inf are draws to
                                 judge) */
    size_t n;
    const uint64_t *counts;   /* or the draws of each candidate of a finite mechanism
                                 (em_scn_get's size entries) */
    const char *path;         /* or a samples file ("-": standard input), as `expmech check
                                 --samples` reads it: finite, a label or a 0-based index per
                                 line (samples_are); continuous, one number per line */
    int samples_are;          /* a finite mechanism's file: EM_SAMPLES_ARE_* */
} em_draws;

#define EM_DRAWS_INIT {NULL, 0, NULL, NULL, EM_SAMPLES_ARE_AUTO}

typedef struct em_check_opts {
    double alpha;          /* significance level of each test, in (0, 1); default 1.0e-6 */
    double min_expected;   /* cells pooled until each expects >= this many draws (>= 1);
                              default 20 */
    int skip_diagnosis;    /* 1: no diagnosis on a reject (result.diagnosis stays NULL) */
} em_check_opts;
#define EM_CHECK_OPTS_INIT {1.0e-6, 20.0, 0}

/* Why a check rejected (em_check_result.reasons). */
#define EM_CHECK_R_FIT 1u       /* the G-test: p_value < alpha */
#define EM_CHECK_R_TAIL 2u      /* the pooled tail over-represented: tail_p < alpha */
#define EM_CHECK_R_CELL 4u      /* one candidate (bin) over-represented: cand_p < cand_alpha */
#define EM_CHECK_R_SUPPORT 8u   /* a draw of probability 0 (finite) or outside R (continuous) */
#define EM_CHECK_R_KS 16u       /* continuous: Kolmogorov-Smirnov p < alpha */

/* Finite: one row per pooled cell.  Continuous: one row per bin (first == last == bin). */
typedef struct em_check_row {
    size_t first, last;    /* the candidates (indices, inclusive) merged into this cell: the
                              smallest and largest (pooling goes by expected count, so the
                              members need not be contiguous: see count and cell_of); for a
                              continuous check: cell index */
    uint64_t observed;
    double expected;
    double probability;    /* exact probability of the cell, as a double */
    double std_resid;      /* (observed - expected) / sqrt(expected) */
    size_t count;          /* finite: candidates in the cell; continuous: 1 */
    size_t pool;           /* continuous: the pooled cell of the bin; finite: the row */
    double lo, hi;         /* continuous: the bin [lo, hi) over doubles (+-inf at the ends of
                              an unbounded R); finite: NaN */
    int from_breakpoint;   /* continuous: lo is a piece breakpoint (not a quantile) */
} em_check_row;

typedef struct em_check_result {
    int verdict;           /* EM_VERDICT_* */
    double statistic;      /* the G statistic (likelihood ratio) over the pooled cells */
    double p_value;        /* its chi-square upper tail (1 when df == 0) */
    double min_detectable; /* the smallest relative error on the most probable cell detected
                              with probability 0.99 at alpha; +inf when df == 0 */
    double alpha;
    size_t df;
    uint64_t n;            /* draws */
    size_t nrows;
    em_check_row *rows;
    /* the rest of what the command line reports */
    double min_expected;
    unsigned reasons;      /* EM_CHECK_R_* when verdict == EM_VERDICT_REJECT */
    size_t ncells;         /* pooled cells */
    double pearson_x2, max_std_resid;
    double tail_p;         /* one-sided exact binomial test of the pooled tail (1: none) */
    double cand_p;         /* smallest exact binomial tail P(Bin(N, p_i) >= k_i) */
    size_t cand_index;     /* its candidate (bin), or EM_JUDGE_NONE */
    double cand_alpha;     /* its Bonferroni level alpha / (positive cells) */
    /* finite */
    size_t ncand;          /* candidates */
    size_t nzero;          /* candidates of probability 0 in double (in no cell) */
    size_t *cell_of;       /* ncand entries: the row of each candidate, EM_JUDGE_NONE for
                              probability 0 */
    size_t support_index;  /* the first probability-0 candidate drawn, or EM_JUDGE_NONE */
    uint64_t support_count;/* its draws (finite); draws outside R (continuous) */
    /* continuous */
    size_t nbreak;         /* bins whose left edge is a piece breakpoint */
    size_t nquantile;      /* bins the quantile edges k/K make (K: quantile_bins) */
    int quantile_bins;     /* K */
    size_t first_outside;  /* the first draw outside R (index into the draws), or NONE */
    double outside_value;  /* that draw */
    unsigned long outside_line; /* its line in the samples file (0: not read from a file) */
    double ks_d, ks_x;     /* Kolmogorov-Smirnov D, attained at the draw ks_x */
    int ks_side;           /* +1: F_N(x) - F(x) there; -1: F(x) - F_N(x-) */
    uint64_t ks_n;         /* draws in D (all but NaN) */
    double ks_p;           /* its p-value (approximate when ks_approximate) */
    double ks_p_upper;     /* a rigorous upper bound on it (= ks_p unless approximate) */
    int ks_approximate;
    const char *ks_method; /* the method's name (static) */
    /* on a reject: the draws against the laws of known mistakes (em_conform.h), else NULL */
    struct em_diagnosis *diagnosis;
} em_check_result;

/* Test the draws d of m against its exact distribution.  A finite m: the G-test with cells
 * pooled to min_expected, the support (a draw of a candidate of probability 0 in double
 * rejects), the exact binomial test of the pooled tail and of each candidate
 * (Bonferroni), and the power (expmech(1) check); the probabilities are the oracle's
 * correctly rounded doubles (the weighted oracle with a measure; permute-and-flip's exact
 * pmf for EM_PF, at most EM_PF_PROBS_MAX_N candidates).  A continuous m: 20 bins of equal exact
 * probability (and the piece breakpoints), the G-test over them, Kolmogorov-Smirnov
 * against the exact CDF, and the support (a draw outside R, or NaN, rejects).  Errors:
 * EM_ERR_NULL, EM_ERR_EMPTY (no draws), EM_ERR_DOMAIN (not exactly one form of draws, an
 * index >= size, counts of a continuous m, alpha or min_expected out of range, pf with too
 * many candidates), EM_ERR_PARSE (a samples file: "NAME:LINE: ..."; "NAME: cannot open:
 * ..."; "NAME: no draws"), EM_ERR_UNDECIDED, EM_ERR_NOMEM.  o NULL: the defaults. */
EM_API int em_draws_check(em_mech *m, const em_draws *d, const em_check_opts *o,
                          em_check_result **out, em_error *err);

/* ---------------------------------------------------------------- compare */

typedef struct em_compare_opts { double rtol, atol; } em_compare_opts;
#define EM_COMPARE_OPTS_INIT {1.0e-9, 0x1p-1074}

/* A failing value (the first EM_COMPARE_SHOW of them). */
#define EM_COMPARE_SHOW 10
typedef struct em_compare_row {
    size_t index;          /* the candidate (probabilities) or the point (CDF table) */
    unsigned long line;    /* CDF table: the line of the point */
    char *x;               /* CDF table: the point, 17 digits (exact when shorter) */
    char *given;           /* the value as given (nan, inf, -inf, or a decimal) */
    char *exact;           /* the exact value (probabilities: to 40 digits; CDF: %.17g) */
    const char *why;       /* probabilities: "NaN", "negative", "error above tolerance", ... */
} em_compare_row;

typedef struct em_compare_result {
    int passed;             /* every given probability within tolerance of the exact one */
    double max_abs_error, max_rel_error;
    size_t worst;           /* index of the worst candidate (absolute error) */
    size_t nfail;           /* candidates out of tolerance */
    /* more */
    size_t n;               /* candidates, or points of a CDF table */
    double rtol, atol;
    int rel_infinite;       /* an error where the exact value is 0 */
    size_t worst_rel;       /* where max_rel_error is */
    double max_ulp_error;   /* probabilities: in ulps of double at the exact value */
    size_t worst_ulp;
    /* the same three, and the sum, as 6-digit decimals of the 256-bit values (a double
       may overflow: 1 given for 1.0e-320 is 2^1074 ulps) */
    char *max_abs_text, *max_rel_text, *max_ulp_text, *sum_minus_one_text;
    size_t nzero;           /* zeros given where the exact probability is positive */
    size_t nzero_repr;      /* ... of which a double could have held the exact one */
    size_t nnan, ninf, nneg, nbig;  /* NaN, +-inf, < 0, > 1 */
    size_t nshow;
    em_compare_row show[EM_COMPARE_SHOW];
    /* CDF table */
    double max_tail_error;  /* |given - F| / (1 - F) */
    size_t worst_tail;
    size_t ndecrease;       /* pairs of points where the given values decrease */
    unsigned long line_abs, line_rel, line_tail;
    char *x_abs, *x_rel, *x_tail;   /* the points, 17 digits */
} em_compare_result;

/* Another implementation's probabilities or CDF against the exact ones, exactly (256
 * bits).  A finite m: given[0..n) the claimed probability of each candidate (n ==
 * em_scn_get's size; NaN and infinities are values to judge), or path a file as `expmech
 * compare --probs` reads it (one number per line, 'label,probability' lines, or `expmech
 * probs`' CSV or JSON; numbers read exactly); each is compared with the exact probability
 * (the oracle to 40 digits; weighted or permute-and-flip as em_draws_check) and fails
 * when |given - exact| > max(rtol * exact, atol), or is NaN, infinite, negative or above
 * 1.  A continuous m: path a table of 'x,cdf' lines (x exact; cdf a number, nan or inf),
 * each value against the exact F(x); the fields of the CDF table are set, and show[]
 * holds x, line, given and exact.  Exactly one of given and path.  Errors: EM_ERR_NULL,
 * EM_ERR_EMPTY ("NAME: no points"), EM_ERR_PARSE, EM_ERR_DOMAIN (n, rtol or atol < 0 or
 * NaN, given for a continuous m, pf with too many candidates), EM_ERR_UNDECIDED,
 * EM_ERR_NOMEM.  o NULL: the defaults. */
EM_API int em_compare(em_mech *m, const double *given, size_t n, const char *path,
                      const em_compare_opts *o, em_compare_result **out, em_error *err);

/* ------------------------------------------------------------------ audit */

/* One law pair judged in 320-bit interval arithmetic (the ideal finite mechanism, or the
 * float sampler as implemented). */
typedef struct em_audit_block {
    int computed;          /* 0: not run (no float sampler for pf or a measure; or inputs
                              beyond double's range: then beyond_range) */
    int beyond_range;
    int verdict;           /* EM_VERDICT_PASS, _REJECT or _UNDECIDED */
    int equal;             /* the two laws are equal, decided on the exact inputs: all 0 */
    int infinite;          /* probability 0 on one side only */
    size_t where;          /* the candidate attaining the loss (X's order), or NONE */
    char *loss;            /* the upper end of the enclosure, 17 digits ("%.17g") */
    char *loss_lo, *loss_hi;            /* the enclosure, 7 digits ("%.6e") */
    char *delta_xy, *delta_xy_lo, *delta_xy_hi; /* delta(eps) = sum max(0, P_X - e^eps P_Y):
                                           "%.6g" of the upper end, and "%.3e" ends */
    char *delta_yx, *delta_yx_lo, *delta_yx_hi;
    /* the bounded-range width sup ln(P_X/P_Y) + sup ln(P_Y/P_X) over the common support:
       the upper end, 17 digits ("inf" with infinite), and the enclosure, 7 digits */
    char *width, *width_lo, *width_hi;
} em_audit_block;

#define EM_AUDIT_SUPPORT 1   /* infinite: positive mass under one law only */
#define EM_AUDIT_SLOPE 2     /* infinite: the log-ratio grows without bound on a ray */

/* One direction of the exact loss, sup ln(P_X/P_Y) (d[0]) or sup ln(P_Y/P_X) (d[1]). */
typedef struct em_audit_dir {
    int infinite;
    int reason;            /* EM_AUDIT_* when infinite */
    char *value;           /* finite: correctly rounded to the mechanism's digits */
    size_t atom;           /* finite scenarios: the candidate (X's order) */
    /* continuous: where, as exact text with 17 digits beside when it is no short decimal
       (NULL then) */
    char *at, *at_approx;
    int at_inf;            /* -1 / +1: as r -> -inf / +inf */
    int side;              /* -1 limit from the left, +1 from the right, 0 both */
    int everywhere;        /* the log-ratio is constant on the common support */
    int lo_inf, hi_inf;    /* infinite: the interval of the cause, (lo, hi) */
    char *lo, *lo_approx, *hi, *hi_approx;
} em_audit_dir;

typedef struct em_audit_result {
    char *loss;             /* the exact privacy loss max_r |ln P_x(r) - ln P_y(r)| (densities
                               for continuous scenarios), correctly rounded to nearest to the
                               mechanism's digits ("inf" when infinite); for permute-and-flip,
                               and where a weight is below exp(-3.0e18) (exact == 0), the upper
                               end of a 320-bit enclosure to 17 digits */
    double loss_d;          /* the same, correctly rounded to double (+inf) */
    int within;             /* loss <= epsilon, decided exactly (pf: by the enclosure) */
    /* more */
    int verdict;            /* PASS, REJECT (the ideal loss, the float sampler or the draws
                               exceed epsilon) or UNDECIDED */
    int continuous;
    int exact;              /* the exact block d[] is set */
    em_audit_dir d[2];
    int worst;              /* the direction of the loss (0 on a tie) */
    em_audit_block ideal;   /* finite: the interval report of the ideal law */
    em_audit_block fp;      /* finite, standard or monotone, no measure: the float sampler
                               (em_weights_fixed on the utilities rounded to doubles) */
    /* empirical audit (em_audit with draws) */
    int empirical;
    uint64_t nx, ny;        /* draws */
    double confidence;
    double eps_lower;       /* Clopper-Pearson lower bound on epsilon (max of both ways) */
    double eps_lower_xy, eps_lower_yx;
    size_t event_xy, event_yx;   /* outcomes in the event chosen in advance */
    int empirical_violation;     /* eps_lower > epsilon */
    /* continuous draws: the cells of the grid fixed in advance, and the interval (lo, hi]
       of the event that gives each direction's bound (+-inf: open) */
    size_t ev_cells;
    double ev_xy_lo, ev_xy_hi, ev_yx_lo, ev_yx_hi;
    /* bounded range (the accounting of composition under zCDP): the pair's width, the
       span sup ln(P_X/P_Y) + sup ln(P_Y/P_X) of the log-ratio ("inf" when a side is);
       width_exact 1: correctly rounded as loss is, 0: the upper end of the enclosure.  The
       EM's width is at most eps on neighbours (em_bounded_range, proofs/theorems/
       BoundedRange.mlw); rho = width^2 / 8 is the zCDP parameter that width implies for
       the EM (Cesar and Rogers 2021: eps-bounded-range implies eps^2/8-zCDP; not proven
       here), NULL for permute-and-flip, which is not bounded-range (pf_not_bounded_range) */
    char *width;
    double width_d;
    int width_exact;
    char *rho;
    double rho_d;
} em_audit_result;

/* x, y: the mechanisms on two neighbouring datasets (same candidate labels, in any order;
 * or both continuous), with the same epsilon, sensitivity and variant.  With draws dx of
 * a sampler on X and dy on Y (NULL both: none), also the Clopper-Pearson lower bound on
 * epsilon at confidence (in (0, 1); each side at (1 + confidence)/2), on the event chosen
 * in advance from the exact laws and the numbers of draws (never from the draws): finite,
 * every candidate and the prefixes of the exact order by P_X/P_Y; continuous (the draws
 * numbers: a file or the values of em_draw arrays, NaN refused), the intervals made of
 * runs of cells of a grid of both laws' piece ends and 15 quantiles each, event_xy and
 * event_yx counting the cells of the event, ev_* giving it.  Errors: EM_ERR_NULL,
 * EM_ERR_DOMAIN (different labels or kinds, parameters that differ, pf with a measure or
 * too many candidates, draws of one side only, "dx, dy: ..." of a finite and a continuous
 * scenario, "dx->samples_are ..." for numbers, confidence), the errors of reading the
 * draws (em_draws_check), EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
EM_API int em_audit(em_mech *x, em_mech *y, const em_draws *dx, const em_draws *dy,
                    double confidence, em_audit_result **out, em_error *err);
/* Are x and y neighbours at x's sensitivity (the same candidates, |u_x - u_y| <= Delta on
 * each, the same exclusions)?  *note: NULL when they are, else a malloc'd sentence saying
 * where not (em_free).  Two different '# sensitivity:' headers with sensitivity_given 0:
 * EM_ERR_DOMAIN.  Errors: EM_ERR_NULL, EM_ERR_DOMAIN, EM_ERR_NOMEM. */
EM_API int em_audit_neighbours(const em_mech *x, const em_mech *y, int sensitivity_given,
                               char **note, em_error *err);


/* em_write (em_scn.h) of a result of em_audit, em_draws_check or em_compare: the report of
 * expmech audit, check or compare (expmech(1)) from the result and the mechanisms it was
 * computed over (which must still exist), format EM_WRITE_TEXT (o NULL: the defaults);
 * labels in the form for a person (em_scn_human_label).  The verdict is a line of the
 * text; the exit status it implies is the caller's.  A check's table also as EM_WRITE_CSV
 * (its mechanism not read: it may be gone): the header cell,expected,observed, a row per
 * cell (its index, or "[lo, hi)" to 6 digits), and "outside,0,N" for N draws outside the
 * support (the table of expmech conform --report-svg's figures).  Errors: EM_ERR_NULL,
 * EM_ERR_DOMAIN (another format; writing to f failed). */

#ifdef __cplusplus
}
#endif
#endif
