#include "em_base.h"
#include "core/em_logweights.h"
#include "core/em_logweights_priv.h"
#include "core/em_vec.h"
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

/* The stores of em_lw_setup's result, apart: in em_lw_setup's long context
   (float paths, and no pruning, proofs/verify.sh) the access to each field
   took CVC5 3 s; here they are immediate. */
/*@ requires valid: \valid(sc);
    assigns *sc;
    ensures k: sc->k == k;
 */
static inline void put_scale(em_lw_scale *sc, double umax, double ratio, double c, int k, int direct)
{
    sc->umax = umax;
    sc->ratio = ratio;
    sc->c = c;
    sc->k = k;
    sc->direct = direct;
}

/* em_logweights up to the log-weights (its contract in em_logweights_priv.h). */
int em_lw_setup(size_t n, const double *u, double eps, double delta, int variant,
                size_t *best_out, em_lw_scale *sc)
{
    if (n == 0)
        return EM_ERR_EMPTY;
    if (n > EM_N_MAX)
        return EM_ERR_TOO_MANY;
    int st = em_check_params(eps, delta, variant);
    if (st != EM_OK)
        return st;

    /* The largest utility, in four interleaved lanes (index mod 4) whose chains
       run in parallel: `x > m ? x : m` is one maxsd, and skips NaN and -inf
       (excluded) whatever the lane holds.  Beside it a plain sum per lane, which
       is NaN if any u[j] is NaN (or on +inf meeting -inf); +inf shows as the
       maximum.  Either sends us to the scan below for the first NaN or +inf, in
       index order, as the errors are reported (a sum that overflowed finite
       values into NaN finds nothing there and goes on).  No branch per element. */
    double m0 = u[0], m1 = u[0], m2 = u[0], m3 = u[0];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t pos = 0;
    /*@ loop invariant range: 0 <= pos <= n;
        loop assigns pos, m0, m1, m2, m3, s0, s1, s2, s3;
        loop variant n - pos; */
    while (n - pos >= 4) {
        double x0 = u[pos], x1 = u[pos + 1], x2 = u[pos + 2], x3 = u[pos + 3];
        m0 = x0 > m0 ? x0 : m0;
        m1 = x1 > m1 ? x1 : m1;
        m2 = x2 > m2 ? x2 : m2;
        m3 = x3 > m3 ? x3 : m3;
        s0 = s0 + x0;
        s1 = s1 + x1;
        s2 = s2 + x2;
        s3 = s3 + x3;
        pos += 4;
    }
    /*@ loop invariant range: 0 <= pos <= n;
        loop assigns pos, m0, s0;
        loop variant n - pos; */
    for (; pos < n; pos++) {
        double x = u[pos];
        m0 = x > m0 ? x : m0;
        s0 = s0 + x;
    }
    double umax = m0;
    umax = m1 > umax ? m1 : umax;
    umax = m2 > umax ? m2 : umax;
    umax = m3 > umax ? m3 : umax;
    double sum = (s0 + s1) + (s2 + s3);
    if (sum != sum || umax > 0x1.fffffffffffffp1023) {
        /*@ loop invariant range: 0 <= i <= n;
            loop assigns i;
            loop variant n - i; */
        for (size_t i = 0; i < n; i++) {
            if (u[i] != u[i])
                return EM_ERR_NAN;
            if (u[i] > 0x1.fffffffffffffp1023)
                return EM_ERR_POS_INF;
        }
    }
    /* Every finite utility is excluded (-inf) when the maximum is not finite
       (a NaN here was reported above). */
    if (!(umax >= -0x1.fffffffffffffp1023 && umax <= 0x1.fffffffffffffp1023))
        return EM_ERR_ALL_EXCLUDED;
    /* The first arg-max: the first index holding the maximum (== equates the
       zeros, so a -0 before a +0 is it, as the first maximal utility). */
    size_t best = n;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant found: best == n || best < i;
        loop assigns i, best;
        loop variant n - i; */
    for (size_t i = 0; i < n && best == n; i++)
        if (u[i] == umax)
            best = i;
    if (best == n)
        return EM_ERR_ALL_EXCLUDED;
    umax = u[best];

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
    *best_out = best;
    put_scale(sc, umax, ratio, c, k, direct);
    return EM_OK;
}

/* The log-weights of a run of candidates (em_logweights_priv.h). */
EM_VECTOR_CLONES void em_lw_run(size_t len, const double *u, const em_lw_scale *sc, double *out)
{
    const double umax = sc->umax, ratio = sc->ratio, c = sc->c;
    const int k = sc->k, direct = sc->direct;
    /* The common case in one branch-free pass: scaled_logweight for every
       candidate.  On an excluded -inf it gives -inf, as the loop below, and it
       differs from that loop only on a finite utility below -2^1022 (which the
       loop halves first): on meeting one, the run is redone by the loop. */
    int slow = !direct;
    if (direct && len >= 1) {
        /* A flag comes along: only a utility below -2^1022 can be such a
           finite one, and only when one is there, or a -inf (an exclusion), is
           the run searched.  An integer or, not a running minimum: a min chain
           costs a float latency per element and keeps the loop from vectorising. */
        int low = 0;
        /*@ loop invariant range: 0 <= i <= len;
            loop invariant shifted: \forall integer j; 0 <= j < i ==> \le_double(out[j], (double)0.0);
            loop assigns i, low, out[0 .. len - 1];
            loop variant len - i; */
        for (size_t i = 0; i < len; i++) {
            double x = u[i];
            low |= x < -0x1p1022;
            out[i] = scaled_logweight(x, umax, ratio, c);
        }
        if (low) {
            /*@ loop invariant range: 0 <= i <= len;
                loop assigns i, slow;
                loop variant len - i; */
            for (size_t i = 0; i < len; i++)
                if (u[i] < -0x1p1022 && u[i] >= -0x1.fffffffffffffp1023)
                    slow = 1;
        }
    }
    if (slow) {
        /*@ loop invariant range: 0 <= i <= len;
            loop invariant shifted: \forall integer j; 0 <= j < i ==> \le_double(out[j], (double)0.0);
            loop assigns i, out[0 .. len - 1];
            loop variant len - i; */
        for (size_t i = 0; i < len; i++) {
            if (u[i] < -0x1.fffffffffffffp1023)
                out[i] = u[i]; /* -inf: excluded stays excluded */
            else if (direct && u[i] >= -0x1p1022)
                out[i] = scaled_logweight(u[i], umax, ratio, c);
            else
                out[i] = shifted_logweight(u[i], umax, ratio, k);
        }
    }
}

int em_logweights(size_t n, const double *u, double eps, double delta, int variant,
                  double *lw, size_t *argmax)
{
    if (u == NULL || lw == NULL || argmax == NULL)
        return EM_ERR_NULL;
    size_t best;
    em_lw_scale sc;
    int st = em_lw_setup(n, u, eps, delta, variant, &best, &sc);
    if (st == EM_OK) {
        em_lw_run(n, u, &sc, lw);
        lw[best] = 0.0;
        *argmax = best;
    }
    return st;
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
