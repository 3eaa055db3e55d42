#include "expmech.h"
#include "trusted/em_libm.h"

/* Every clamp below is a no-op in exact arithmetic and under glibc's rounding;
   it is there so that each bound in the contract follows from a comparison
   rather than from reasoning about rounding, and so that a NaN (which fails
   every comparison) could never escape.  WP's smoke tests flag any clamp that
   is provably dead, so the ones that remain are needed for the proof. */

/* The log-weight of one non-maximal, non-excluded candidate.  Halving first
   keeps u/2 - umax/2 finite for every pair of finite doubles; the scaling by
   eps/delta is ordered so that no intermediate overflows spuriously: h/delta
   first when eps >= 1, h*eps first when eps < 1. */
/*@ assigns \nothing;
    ensures nonpositive: \le_double(\result, (double)0.0);
 */
static double shifted_logweight(double ui, double half_max, double eps, double delta, int variant)
{
    double h = ui * 0.5 - half_max;
    if (!(h <= 0.0))
        h = 0.0;
    double l = eps >= 1.0 ? (h / delta) * eps : (h * eps) / delta;
    if (variant == EM_MONOTONE)
        l = l * 2.0;
    if (!(l <= 0.0))
        l = 0.0;
    return l;
}

int em_logweights(size_t n, const double *u, double eps, double delta, int variant,
                  double *lw, size_t *argmax)
{
    if (u == NULL || lw == NULL || argmax == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (n > EM_N_MAX)
        return EM_ERR_TOO_MANY;
    int st = em_check_params(eps, delta, variant);
    if (st != EM_OK)
        return st;

    size_t best = n; /* n: no finite utility seen yet */
    double umax = 0.0;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant best: best == n || best < i;
        loop assigns i, best, umax;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        double x = u[i];
        if (x != x)
            return EM_ERR_NAN;
        if (x > 0x1.fffffffffffffp1023)
            return EM_ERR_POS_INF;
        if (x < -0x1.fffffffffffffp1023)
            continue; /* -inf: excluded */
        if (best == n || x > umax) {
            best = i;
            umax = x;
        }
    }
    if (best == n)
        return EM_ERR_ALL_EXCLUDED;

    double half_max = umax * 0.5;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant shifted: \forall integer j; 0 <= j < i ==> \le_double(lw[j], (double)0.0);
        loop invariant argmax: best < i ==> \eq_double(lw[best], (double)0.0);
        loop assigns i, lw[0 .. n - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        if (i == best)
            lw[i] = 0.0;
        else if (u[i] < -0x1.fffffffffffffp1023)
            lw[i] = u[i]; /* -inf: excluded stays excluded */
        else
            lw[i] = shifted_logweight(u[i], half_max, eps, delta, variant);
    }
    *argmax = best;
    return EM_OK;
}

int em_normalize(size_t n, const double *lw, double *logp, double *p)
{
    if (lw == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (n > EM_N_MAX)
        return EM_ERR_TOO_MANY;

    /* exp(x) is 0 in double for x < -745.2, so clamping at -800 changes nothing. */
    double s = 0.0;
    /*@ loop invariant range: 0 <= i <= n;
        loop assigns i, s;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        double x = lw[i];
        if (!(x >= -800.0))
            x = -800.0;
        s += em_exp_nonpos(x);
    }
    /* s >= 1 (the arg-max contributes exactly 1) and s <= n <= 2^30. */
    if (!(s >= 1.0))
        s = 1.0;
    if (!(s <= 0x1p31))
        s = 0x1p31;
    double log_s = em_log_sum(s);

    /*@ loop invariant range: 0 <= i <= n;
        loop invariant logp: logp != \null ==> \forall integer j; 0 <= j < i ==> \le_double(logp[j], (double)0.0);
        loop invariant p: p != \null ==> \forall integer j; 0 <= j < i ==>
          \le_double((double)0.0, p[j]) && \le_double(p[j], (double)1.0);
        loop assigns i, logp[0 .. n - 1], p[0 .. n - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        double l = lw[i] - log_s;
        if (logp != NULL)
            logp[i] = l;
        if (p != NULL) {
            double x = l;
            if (!(x >= -800.0))
                x = -800.0;
            p[i] = em_exp_nonpos(x);
        }
    }
    return EM_OK;
}
