/* em_gof_alt.c: the G-test under any law, and its power against another (em_gof_alt.h). */
#include "judge/em_gof_alt.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "em_base.h"
#include "judge/em_gof.h" /* em_ncx2_Q, em_chisq_crit */

typedef struct item {
    double p;
    size_t i;
} item;

static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->p < y->p)
        return -1;
    if (x->p > y->p)
        return 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* em_check's pooling (judge/em_gof.c): the positive cells by probability, smallest first,
 * added to an open pool that closes once it expects min_expected; an unfinished last pool
 * joins the one before.  cell_of[i]: the pool (numbered in closing order), SIZE_MAX for
 * p = 0.  Returns the number of pools (0 on lack of memory, or no positive cell). */
size_t em_gof_alt_pool(size_t n, const double *p, uint64_t N, double min_expected, size_t *cell_of)
{
    size_t npos = 0;
    long double s = 0;
    for (size_t i = 0; i < n; i++) {
        cell_of[i] = SIZE_MAX;
        if (p[i] > 0)
            npos++, s += p[i];
    }
    item *it = malloc((npos ? npos : 1) * sizeof *it);
    if (!it || !npos) {
        free(it);
        return 0;
    }
    for (size_t i = 0, k = 0; i < n; i++)
        if (p[i] > 0)
            it[k].p = p[i], it[k].i = i, k++;
    qsort(it, npos, sizeof *it, item_cmp);
    size_t np = 0, last_first = 0;
    int open = 0;
    long double prob = 0;
    for (size_t k = 0; k < npos; k++) {
        if (!open) {
            np++;
            open = 1;
            prob = 0;
            last_first = k;
        }
        prob += (long double)it[k].p / s;
        cell_of[it[k].i] = np - 1;
        if ((long double)N * prob >= (long double)min_expected)
            open = 0;
    }
    if (open && np >= 2) {
        for (size_t k = last_first; k < npos; k++)
            cell_of[it[k].i] = np - 2;
        np--;
    }
    free(it);
    return np;
}

int em_gof_alt_test(size_t n, const double *p, const uint64_t *counts, double min_expected,
                    double *g, size_t *df, double *pv, int *impossible, size_t *cell_of)
{
    uint64_t N = 0;
    long double s = 0;
    *impossible = 0;
    for (size_t i = 0; i < n; i++) {
        N += counts[i];
        s += p[i] > 0 ? p[i] : 0;
        if (!(p[i] > 0) && counts[i])
            *impossible = 1;
    }
    if (N == 0 || fabsl(s - 1.0L) > 1e-9L)
        return EM_ERR_DOMAIN;
    size_t *cell = cell_of ? cell_of : malloc(n * sizeof *cell);
    if (!cell)
        return EM_ERR_NOMEM;
    size_t np = em_gof_alt_pool(n, p, N, min_expected, cell);
    long double *e = calloc(np ? np : 1, sizeof *e), *o = calloc(np ? np : 1, sizeof *o);
    if (!e || !o || !np) {
        free(e), free(o);
        if (!cell_of)
            free(cell);
        return np ? EM_ERR_NOMEM : EM_ERR_DOMAIN;
    }
    for (size_t i = 0; i < n; i++)
        if (cell[i] != SIZE_MAX) {
            e[cell[i]] += (long double)N * p[i] / s;
            o[cell[i]] += (long double)counts[i];
        }
    long double G = 0;
    for (size_t k = 0; k < np; k++)
        if (o[k] > 0)
            G += o[k] * logl(o[k] / e[k]);
    G = 2 * G;
    *g = G > 0 ? (double)G : 0.0;
    *df = np - 1;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    *pv = *impossible ? 0.0 : np > 1 ? gsl_cdf_chisq_Q(*g, (double)*df) : 1.0;
    gsl_set_error_handler(old);
    free(e), free(o);
    if (!cell_of)
        free(cell);
    return EM_OK;
}

double em_gof_alt_chisq_power(double df, double lambda, double alpha)
{
    if (!(df > 0) || !(lambda >= 0))
        return 0.0;
    if (isinf(lambda))
        return 1.0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    /* the tolerance its recorded power thresholds were computed with */
    double crit = em_chisq_crit(df, alpha, 1e-12, 200);
    /* far beyond (or below) the critical value the answer is 1 (0) to double precision,
     * and the Poisson mixture would sum some sqrt(lambda) terms to say so */
    double mean = df + lambda, sd = sqrt(2 * (df + 2 * lambda));
    if (mean - 12 * sd > crit || mean + 12 * sd < crit) {
        gsl_set_error_handler(old);
        return mean > crit ? 1.0 : 0.0;
    }
    double q = em_ncx2_Q(crit, df, lambda);
    gsl_set_error_handler(old);
    return isnan(q) ? 0.0 : q;
}

double em_gof_alt_power(size_t n, const double *p, const double *q, uint64_t N, double alpha,
                        double min_expected)
{
    if (n == 0 || N == 0)
        return 0.0;
    size_t *cell = malloc(n * sizeof *cell);
    double *pp = NULL, *qq = NULL, power = 0;
    size_t np = cell ? em_gof_alt_pool(n, p, N, min_expected, cell) : 0;
    if (np) {
        pp = calloc(np, sizeof *pp);
        qq = calloc(np, sizeof *qq);
    }
    if (pp && qq) {
        double q0 = 0, w2 = 0;
        for (size_t i = 0; i < n; i++) {
            if (cell[i] == SIZE_MAX) {
                q0 += q[i];
                continue;
            }
            pp[cell[i]] += p[i];
            qq[cell[i]] += q[i];
        }
        for (size_t k = 0; k < np; k++)
            if (pp[k] > 0)
                w2 += (qq[k] - pp[k]) * (qq[k] - pp[k]) / pp[k];
        double pg = np > 1 ? em_gof_alt_chisq_power((double)(np - 1), (double)N * w2, alpha) : 0.0;
        double pi = q0 > 0 ? -expm1((double)N * log1p(-fmin(q0, 1.0))) : 0.0;
        power = fmax(pg, pi);
    }
    free(cell), free(pp), free(qq);
    return power;
}
