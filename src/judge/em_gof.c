/* em_gof.c: G-test with pooling, support check, pooled-tail binomial test and power.
 *
 * Pooling.  The G statistic is compared with a chi-square distribution, an asymptotic
 * approximation that is poor when a cell expects few draws.  The false-alarm rate of the
 * G-test at nominal alpha = 1e-6 on an exponential-mechanism distribution is 1.02e-6 when
 * every cell expects >= 20 draws (Pearson's X^2 needs >= 100
 * for the same calibration, which is why G is the decision statistic and X^2 is only
 * reported).  So cells are pooled:
 *   1. probability-0 cells take no part (any draw there is a support violation);
 *   2. the positive cells are sorted by expected count, smallest first (ties by index);
 *   3. walking that order, cells are added to an open pool; the pool is closed as soon
 *      as it expects >= min_expected.  A cell that already expects >= min_expected on its
 *      own therefore stays alone unless a still-open pool of small cells precedes it;
 *   4. if a pool is still open at the end (all remaining mass < min_expected), it is
 *      merged into the last closed pool (or stays the only pool).
 * Pooling preserves the exact null distribution of the pooled counts (a multinomial on
 * the pooled probabilities), so the test stays exact in its null hypothesis; what it
 * loses is resolution inside pools.  That loss is covered in part by:
 *
 * The tail test.  The "pooled-away tail" is the set of positive cells whose own expected
 * count is below min_expected and that share a pool with another cell.  Its total count
 * is Binomial(N, p_T) under the null; a one-sided exact test (P(X >= observed), computed
 * as the regularised incomplete beta I_{p_T}(k, N-k+1), valid for any N, unlike
 * gsl_cdf_binomial_Q whose n is an unsigned int) catches an implementation that puts too
 * much mass on rare candidates (e.g. a floor of weight 1 on underflowed weights).
 *
 * Power.  For a broken distribution q, N draws give the G statistic approximately a
 * noncentral chi-square with noncentrality lambda = N * sum (q_i - p_i)^2 / p_i.  The
 * test rejects with probability 0.99 once lambda reaches lambda_0.99(alpha, df), found by
 * bisection on the exact noncentral upper tail.  A relative error r on the most probable
 * pooled cell (probability p), with the other cells rescaled to keep the total 1, gives
 * sum (q-p)^2/p = p r^2 / (1-p); hence min_rel_err = sqrt(lambda (1-p) / (N p)).
 */
#include "judge/em_gof.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#include "em_base.h"

/* ----------------------------------------------------- noncentral chi-square */

static double pois_logw(double m, double j)
{
    /* log of the Poisson(m) probability of j (m > 0) */
    return -m + j * log(m) - lgamma(j + 1.0);
}

double em_ncx2_Q(double x, double df, double lambda)
{
    if (!(df > 0) || !(lambda >= 0) || isnan(x) || isinf(df) || isinf(lambda))
        return NAN;
    if (x <= 0)
        return 1.0;
    if (isinf(x))
        return 0.0;
    if (lambda == 0)
        return gsl_cdf_chisq_Q(x, df);
    const double m = lambda / 2;
    const double j0 = floor(m);
    const double tol = 1e-17;
    double sum = 0;
    /* upwards from the mode: Poisson ratio w(j+1)/w(j) = m/(j+1) < 1 for j >= j0, so the
     * mass beyond j is at most w(j) / (1 - m/(j+1)); the chi-square tails are <= 1. */
    for (double j = j0;; j += 1) {
        double w = exp(pois_logw(m, j));
        sum += w * gsl_cdf_chisq_Q(x, df + 2 * j);
        double ratio = m / (j + 2);
        if (w * ratio / (1 - ratio) < tol)
            break;
    }
    /* downwards: ratio w(j-1)/w(j) = j/m < 1 for j <= j0 (< m). */
    for (double j = j0 - 1; j >= 0; j -= 1) {
        double w = exp(pois_logw(m, j));
        sum += w * gsl_cdf_chisq_Q(x, df + 2 * j);
        double ratio = j / m;
        if (ratio >= 1 || w * ratio / (1 - ratio) < tol)
            break;
    }
    return sum > 1 ? 1 : sum;
}

/* em_gof.h: why bisection and not gsl_cdf_chisq_Qinv */
double em_chisq_crit(double df, double alpha, double rtol, int max_iter)
{
    double lo = 0, hi = df + 10 * sqrt(2 * df) + 50;
    while (gsl_cdf_chisq_Q(hi, df) > alpha && hi < 1e300)
        hi *= 2;
    for (int it = 0; it < max_iter && hi - lo > rtol * hi; it++) {
        double mid = lo + (hi - lo) / 2;
        if (gsl_cdf_chisq_Q(mid, df) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double em_ncx2_lambda_for_power(double df, double alpha, double power)
{
    if (!(df > 0) || isinf(df) || !(alpha > 0 && alpha < 1) || !(power > alpha && power < 1))
        return NAN;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    const double crit = em_chisq_crit(df, alpha, 1e-13, 300);
    double lo = 0, hi = 1;
    while (em_ncx2_Q(crit, df, hi) < power && hi < 1e300)
        hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-10 * hi; it++) {
        double mid = lo + (hi - lo) / 2;
        if (em_ncx2_Q(crit, df, mid) < power)
            lo = mid;
        else
            hi = mid;
    }
    gsl_set_error_handler(old);
    return hi;
}

/* --------------------------------------------------------------- the test */

typedef struct item {
    double p;
    size_t i;
} item;

static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->p < y->p) return -1;
    if (x->p > y->p) return 1;
    return (x->i > y->i) - (x->i < y->i);
}

typedef struct pool {
    long double prob;  /* pooled exact probability (renormalised by the sum of p) */
    uint64_t obs;
    size_t minidx;     /* smallest member index, for numbering */
    size_t members;
} pool;

static int pool_cmp(const void *a, const void *b)
{
    const pool *x = a, *y = b;
    return (x->minidx > y->minidx) - (x->minidx < y->minidx);
}

int em_gof_test(size_t n, const double *p, const uint64_t *counts, double alpha,
                double min_expected, em_gof_result *res, size_t *cell_of)
{
    if (!p || !counts || !res)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (!(alpha > 0 && alpha < 1))
        return EM_ERR_DOMAIN;
    if (isnan(min_expected) || min_expected <= 0)
        min_expected = EM_GOF_MIN_EXPECTED;
    if (isinf(min_expected))
        return EM_ERR_DOMAIN;

    long double s = 0;
    uint64_t N = 0;
    size_t npos = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(p[i] >= 0) || isinf(p[i]))
            return EM_ERR_DOMAIN;
        s += p[i];
        if (p[i] > 0)
            npos++;
        if (counts[i] > UINT64_MAX - N)
            return EM_ERR_OVERFLOW;
        N += counts[i];
    }
    if (npos == 0 || fabsl(s - 1.0L) > 1e-9L || N == 0)
        return EM_ERR_DOMAIN;

    item *it = malloc(npos * sizeof *it);
    pool *pl = malloc(npos * sizeof *pl);
    size_t *pool_of = malloc(npos * sizeof *pool_of); /* by position in it[] */
    size_t *renum = malloc(npos * sizeof *renum);
    if (!it || !pl || !pool_of || !renum) {
        free(it); free(pl); free(pool_of); free(renum);
        return EM_ERR_NOMEM;
    }

    memset(res, 0, sizeof *res);
    res->n_draws = N;
    res->support_index = EM_GOF_NO_CELL;
    for (size_t i = 0, k = 0; i < n; i++) {
        if (p[i] > 0) {
            it[k].p = p[i];
            it[k].i = i;
            k++;
        } else if (counts[i] > 0 && !res->support_violation) {
            res->support_violation = 1;
            res->support_index = i;
        }
    }
    qsort(it, npos, sizeof *it, item_cmp);

    /* greedy pooling, smallest expected first */
    const long double Nl = (long double)N;
    size_t np = 0;
    int open = 0;
    for (size_t k = 0; k < npos; k++) {
        long double pk = (long double)it[k].p / s;
        if (!open) {
            pl[np].prob = 0;
            pl[np].obs = 0;
            pl[np].minidx = it[k].i;
            pl[np].members = 0;
            np++;
            open = 1;
        }
        pool *q = &pl[np - 1];
        q->prob += pk;
        q->obs += counts[it[k].i];
        if (it[k].i < q->minidx)
            q->minidx = it[k].i;
        q->members++;
        pool_of[k] = np - 1;
        if (Nl * q->prob >= (long double)min_expected)
            open = 0;
    }
    if (open && np >= 2) { /* merge the unfinished last pool into the previous one */
        pool *last = &pl[np - 1], *prev = &pl[np - 2];
        prev->prob += last->prob;
        prev->obs += last->obs;
        if (last->minidx < prev->minidx)
            prev->minidx = last->minidx;
        prev->members += last->members;
        for (size_t k = 0; k < npos; k++)
            if (pool_of[k] == np - 1)
                pool_of[k] = np - 2;
        np--;
    }

    /* tail: members of multi-cell pools whose own expected count is < min_expected */
    long double pT = 0;
    uint64_t oT = 0;
    int have_tail = 0;
    for (size_t k = 0; k < npos; k++) {
        long double pk = (long double)it[k].p / s;
        if (pl[pool_of[k]].members >= 2 && Nl * pk < (long double)min_expected) {
            pT += pk;
            oT += counts[it[k].i];
            have_tail = 1;
        }
    }

    /* statistics over pooled cells */
    long double g = 0, x2 = 0, maxr = 0, pmax = 0;
    for (size_t c = 0; c < np; c++) {
        long double E = Nl * pl[c].prob, O = (long double)pl[c].obs;
        if (O > 0)
            g += O * logl(O / E);
        x2 += (O - E) * (O - E) / E;
        long double r = fabsl(O - E) / sqrtl(E);
        if (r > maxr)
            maxr = r;
        if (pl[c].prob > pmax)
            pmax = pl[c].prob;
    }
    /* sum O ln(O/E) >= 0 when sum E == N; clamp rounding noise */
    g = 2 * g;
    if (g < 0)
        g = 0;

    gsl_error_handler_t *old = gsl_set_error_handler_off();
    res->g = (double)g;
    res->x2 = (double)x2;
    res->max_std_resid = (double)maxr;
    res->ncells = np;
    res->df = np - 1 > (size_t)2147483647 ? 2147483647 : (int)(np - 1);
    res->p_value = res->df >= 1 ? gsl_cdf_chisq_Q(res->g, res->df) : 1.0;
    if (have_tail && pT < 1 && oT > 0) {
        double k = (double)oT;
        res->tail_p = gsl_cdf_beta_P((double)pT, k, (double)N - k + 1);
    } else {
        res->tail_p = 1.0;
    }
    res->cand_p = 1.0;
    res->cand_index = EM_GOF_NO_CELL;
    res->cand_alpha = alpha / (double)npos;
    for (size_t k = 0; k < npos; k++) {
        uint64_t ki = counts[it[k].i];
        if (ki == 0)
            continue;
        double pk = (double)((long double)it[k].p / s);
        /* P(X >= k) = I_p(k, N - k + 1), the regularised incomplete beta */
        double t = pk >= 1 ? 1.0 : gsl_cdf_beta_P(pk, (double)ki, (double)(N - ki) + 1);
        if (t < res->cand_p || res->cand_index == EM_GOF_NO_CELL) {
            res->cand_p = t;
            res->cand_index = it[k].i;
        }
    }
    gsl_set_error_handler(old);
    if (res->df >= 1 && pmax < 1) {
        double lam = em_ncx2_lambda_for_power(res->df, alpha, EM_GOF_POWER);
        res->min_rel_err = sqrt(lam * (1 - (double)pmax) / ((double)N * (double)pmax));
    } else {
        res->min_rel_err = INFINITY;
    }
    res->reject = res->p_value < alpha || res->tail_p < alpha ||
                  res->cand_p < res->cand_alpha || res->support_violation;
    res->verdict = res->reject ? EM_GOF_REJECT
                   : (res->df == 0 && npos >= 2) ? EM_GOF_INSUFFICIENT
                                                  : EM_GOF_PASS;

    if (cell_of) {
        /* number pools by smallest member index */
        for (size_t c = 0; c < np; c++)
            pl[c].members = c; /* reuse: remember the old number */
        qsort(pl, np, sizeof *pl, pool_cmp);
        for (size_t c = 0; c < np; c++)
            renum[pl[c].members] = c;
        for (size_t i = 0; i < n; i++)
            cell_of[i] = EM_GOF_NO_CELL;
        for (size_t k = 0; k < npos; k++)
            cell_of[it[k].i] = renum[pool_of[k]];
    }
    free(it); free(pl); free(pool_of); free(renum);
    return EM_OK;
}
