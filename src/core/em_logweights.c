#include "em_base.h"
#include "core/em_logweights.h"
#include "core/em_params.h"
#include "trusted/em_libm.h"

/* Every clamp below is a no-op in exact arithmetic and under glibc's rounding;
   it is there so that each bound in the contract follows from a comparison
   rather than from reasoning about rounding, and so that a NaN (which fails
   every comparison) could never escape.  WP's smoke tests flag any clamp that
   is provably dead, so the ones that remain are needed for the proof. */

/* The log-weight c*(ui - umax) of one non-maximal, non-excluded candidate, with
   c = ratio * 2^k.  The difference is taken directly when it cannot overflow and
   of the halves otherwise (one more power of two in k); ratio is in (0.5, 1], so
   the product cannot overflow either, and the power of two is applied last and
   exactly: at most three roundings, and no intermediate overflow or underflow
   unless the log-weight itself is below -DBL_MAX (then -inf, weight 0) or above
   -DBL_MIN (then its weight is exactly 1 in double). */
/*@ requires scale: -2200 <= k <= 2200;
    assigns \nothing;
    ensures nonpositive: \le_double(\result, (double)0.0);
 */
static double shifted_logweight(double ui, double umax, double ratio, int k)
{
    double h;
    if (ui >= -0x1p1022 && umax <= 0x1p1022) {
        h = ui - umax;
    } else {
        h = ui * 0.5 - umax * 0.5;
        k = k + 1;
    }
    if (!(h <= 0.0))
        h = 0.0;
    double t = h * ratio;
    if (!(t <= 0.0))
        t = 0.0;
    return em_ldexp(t, k);
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

    /* c = eps/(2 delta) or eps/delta as ratio * 2^k with ratio in (0.5, 1]. */
    int e_eps, e_delta;
    double m_eps = em_frexp(eps, &e_eps);
    double m_delta = em_frexp(delta, &e_delta);
    double ratio = m_eps / m_delta;
    int k = e_eps - e_delta - (variant == EM_MONOTONE ? 0 : 1);
    if (!(ratio <= 1.0)) {
        ratio = ratio * 0.5;
        k = k + 1;
    }
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
            lw[i] = shifted_logweight(u[i], umax, ratio, k);
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

    /* log S = log1p(y), y = the sum of the weights other than the first arg-max
       (whose weight is exactly 1).  exp(x) is 0 in double for x < -745.2, so
       clamping at -800 changes nothing. */
    double y = 0.0;
    int seen_max = 0;
    /*@ loop invariant range: 0 <= i <= n;
        loop assigns i, y, seen_max;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        double x = lw[i];
        if (!seen_max && x == 0.0) {
            seen_max = 1;
            continue;
        }
        if (!(x >= -800.0))
            x = -800.0;
        y += em_exp_nonpos(x);
    }
    /* 0 <= y < n <= 2^30. */
    if (!(y >= 0.0))
        y = 0.0;
    if (!(y <= 0x1p31))
        y = 0x1p31;
    double log_s = em_log1p_sum(y);

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
