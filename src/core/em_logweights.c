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

/* The same log-weight when the difference cannot overflow and c == 2^k is a
   normal double: t * c is the correctly rounded value of t * 2^k, as ldexp(t, k)
   is, so the two agree bit for bit (overflow to -inf and subnormal results
   included), without a libm call per candidate.  The last clamp never fires
   for c > 0; it is there because em_ldexp's contract does not give c's sign.
   The clamps of shifted_logweight on h and t are not repeated: umax is the
   largest utility and ratio > 0, so h <= 0 and t <= 0 already, and the one
   clamp on the result is all the contract needs. */
/*@ assigns \nothing;
    ensures nonpositive: \le_double(\result, (double)0.0);
 */
static double scaled_logweight(double ui, double umax, double ratio, double c)
{
    double r = ((ui - umax) * ratio) * c;
    if (!(r <= 0.0))
        r = 0.0;
    return r;
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

    /* The first arg-max, in four interleaved lanes (index mod 4) so that
       the compare-and-select chains run in parallel; the lanes are merged with
       ties to the smaller index, which is the first arg-max of the whole.
       NaN and +inf are still reported at the first such index. */
#define EM_LANE_STEP(b, m, j)                                                  \
    {                                                                          \
        double x = u[j];                                                       \
        if (x != x)                                                            \
            return EM_ERR_NAN;                                                 \
        if (x > 0x1.fffffffffffffp1023)                                        \
            return EM_ERR_POS_INF;                                             \
        if (!(x < -0x1.fffffffffffffp1023) && (b == n || x > m)) {             \
            b = j; /* -inf (excluded) is skipped */                            \
            m = x;                                                             \
        }                                                                      \
    }
    size_t b0 = n, b1 = n, b2 = n, b3 = n; /* n: no finite utility seen yet */
    double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
    size_t pos = 0;
    /*@ loop invariant range: 0 <= pos <= n;
        loop invariant lanes: (b0 == n || b0 < pos) && (b1 == n || b1 < pos) &&
                              (b2 == n || b2 < pos) && (b3 == n || b3 < pos);
        loop assigns pos, b0, b1, b2, b3, m0, m1, m2, m3;
        loop variant n - pos; */
    while (n - pos >= 4) {
        EM_LANE_STEP(b0, m0, pos)
        EM_LANE_STEP(b1, m1, pos + 1)
        EM_LANE_STEP(b2, m2, pos + 2)
        EM_LANE_STEP(b3, m3, pos + 3)
        pos += 4;
    }
    /*@ loop invariant range: 0 <= pos <= n;
        loop invariant lanes: (b0 == n || b0 < pos) && (b1 == n || b1 < pos) &&
                              (b2 == n || b2 < pos) && (b3 == n || b3 < pos);
        loop assigns pos, b0, m0;
        loop variant n - pos; */
    for (; pos < n; pos++)
        EM_LANE_STEP(b0, m0, pos)
#undef EM_LANE_STEP
    size_t best = b0;
    double umax = m0;
    if (b1 != n && (best == n || m1 > umax || (m1 == umax && b1 < best))) {
        best = b1;
        umax = m1;
    }
    if (b2 != n && (best == n || m2 > umax || (m2 == umax && b2 < best))) {
        best = b2;
        umax = m2;
    }
    if (b3 != n && (best == n || m3 > umax || (m3 == umax && b3 < best))) {
        best = b3;
        umax = m3;
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
    /* Within these bounds every non-excluded difference ui - umax is taken
       directly (no halving) and scaled by the exact power of two c. */
    int direct = k >= -1022 && k <= 1022 && umax <= 0x1p1022;
    double c = direct ? em_ldexp(1.0, k) : 1.0;
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
        else if (direct && u[i] >= -0x1p1022)
            lw[i] = scaled_logweight(u[i], umax, ratio, c);
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
