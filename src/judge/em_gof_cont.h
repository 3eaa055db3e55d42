/* em_gof_cont.h: draws of another implementation against an exact continuous law (pieces of
 * oracle/em_cont.h), and the weighted finite law's probabilities as doubles.
 *
 * Part of the judges (outside the verified core).  Method (src/judge/README.md, "expmech
 * check on a continuous scenario"):
 *   - bins: K (default EM_GOF_CONT_BINS = 20) cells of equal exact probability; their edges are
 *     the exact quantiles Q(k/K), k = 1..K-1 (em_cont_quantile), correctly rounded to
 *     doubles; when the law has at most K pieces, each internal piece breakpoint (rounded
 *     to nearest) becomes an edge: added when both parts of the cell it splits keep
 *     probability >= 1/(4K), else the quantile edge next to it is moved onto it (the small
 *     part joins the neighbouring cell), so no cell straddles a breakpoint by less than
 *     1/(4K).  Each cell is [e_k, e_(k+1)) over doubles (the first from the left end of R,
 *     the last to its right end), and its exact probability F(e_(k+1)) - F(e_k) is recomputed at the rounded
 *     edges (em_cont_cdf_bounds at 160 bits: absolute error below 2^-150).  Draws are
 *     doubles, the rounding of ideal draws, so the cell probabilities are those of the
 *     rounded draws up to the mass of half an ulp at each edge (density x 2^-53 relative:
 *     invisible at any feasible N);
 *   - support: the draws must lie in R up to rounding: a value v is in R when
 *     RD(lo_j) <= v <= RU(hi_j) for a piece of positive length (RD, RU: the rational end
 *     rounded down / up to a double; +-inf only where R is unbounded on that side).  Any
 *     other value (beyond the ends, in a gap between pieces, NaN) rejects;
 *   - G-test over the cells (em_gof_test: pooling to >= min_expected per cell, chi-square
 *     p-value, power), the draws outside R in a probability-0 cell (a support violation);
 *   - Kolmogorov-Smirnov D against the exact CDF (em_cont_cdf_bounds at 64 bits at every
 *     distinct draw; NaN draws left out) and its p-value (judge/em_ks.h, method named);
 *   - reject when the G-test, the pooled-tail test or KS has p < alpha, or a draw is
 *     outside R.
 */
#ifndef EM_JUDGE_GOF_CONT_H
#define EM_JUDGE_GOF_CONT_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/em_cont.h"
#include "judge/em_gof.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_GOF_CONT_BINS 20

/* the kind of a cell's left edge */
enum { EM_CC_EDGE_END = 0, EM_CC_EDGE_QUANTILE = 1, EM_CC_EDGE_BREAK = 2 };

typedef struct em_gof_cont_cell {
    double lo, hi;     /* [lo, hi) over doubles; the first from the left end of R rounded
                        * down (or -inf), the last to its right end rounded up (or +inf),
                        * both ends included */
    int lo_kind;       /* EM_CC_EDGE_*: what the left edge is */
    double p;          /* exact probability of the cell (correct to 2^-150 absolute) */
    uint64_t obs;      /* draws inside R that fall in the cell */
    size_t pool;       /* the pooled cell of em_gof_test it belongs to */
} em_gof_cont_cell;

typedef struct em_gof_cont_result {
    size_t ncells;
    em_gof_cont_cell *cells;    /* malloc'd (em_gof_cont_free) */
    em_gof_result gof;        /* over the cells and one probability-0 cell "outside R" */
    uint64_t n;               /* draws */
    uint64_t outside;         /* draws outside R (including NaN) */
    size_t first_outside;     /* index in x[] of the first, SIZE_MAX if none */
    double ks_d;              /* the Kolmogorov-Smirnov statistic */
    double ks_p;              /* its p-value (approximate when ks_method == EM_KS_ASYMPTOTIC) */
    double ks_p_upper;        /* a rigorous upper bound on it (= ks_p but for the asymptotic) */
    int ks_method;            /* EM_KS_* of judge/em_ks.h */
    double ks_x;              /* the draw at which ks_d is attained */
    int ks_side;              /* +1: F_N(x) - F(x) there; -1: F(x) - F_N(x-) */
    uint64_t ks_n;            /* draws in the KS statistic (all but NaN) */
    int reject_gof, reject_ks, reject_support;
    int reject;
    /* EM_GOF_PASS / EM_GOF_REJECT / EM_GOF_INSUFFICIENT (judge/em_gof.h): the same rule as
     * the finite check; KS alone on draws that all fall in one pooled cell is no pass */
    em_gof_verdict verdict;
} em_gof_cont_result;

void em_gof_cont_free(em_gof_cont_result *r);

/* Tests the n draws x[] against the continuous law C (EM_CONT_PIECES) at level alpha
 * (in (0, 1)), pooling cells to >= min_expected (<= 0: 20), with K bins (0: 20; at most
 * 10000).  x is not modified.  Returns EM_OK with *r filled, or EM_ERR_NULL, EM_ERR_EMPTY
 * (n == 0), EM_ERR_DOMAIN (atoms, alpha or K out of range), EM_ERR_UNDECIDED,
 * EM_ERR_NOMEM. */
int em_gof_cont(em_cont *C, const double *x, size_t n, double alpha, double min_expected,
                int K, em_gof_cont_result *r);

#ifdef __cplusplus
}
#endif
#endif
