#include "em_base.h"
#include "core/em_fixed.h"
#include "trusted/em_libm.h"
#include "proofs/lemmas/Sum_lemmas.h"

/* ceil(e * S) clamped to [0, S], e = exp(x) from em_exp_nonpos_block; exactly
   S at x == 0. */
/*@ requires scale: S >= 1;
    assigns \nothing;
    ensures bounded: \result <= S;
    ensures argmax: \eq_double(x, (double)0.0) ==> \result == S;
 */
static uint64_t fixed_weight(double x, double e, uint64_t S, double scale_d)
{
    if (x == 0.0)
        return S;
    double s = e * scale_d;
    if (!(s >= 0.0))
        s = 0.0;
    if (!(s <= 0x1p63))
        s = 0x1p63;
    uint64_t w = (uint64_t)s;
    if ((double)w < s)
        w++; /* round up: a positive weight never becomes 0 */
    if (w > S)
        w = S;
    return w;
}

/* The weight 1 of a log-weight in [-745, -44] (see em_weights_fixed).  The test
   for the arg-max never succeeds there; it lets the contract follow without
   reasoning about float order. */
/*@ requires scale: S >= 1;
    assigns \nothing;
    ensures bounded: \result <= S;
    ensures argmax: \eq_double(x, (double)0.0) ==> \result == S;
 */
static uint64_t tiny_weight(double x, uint64_t S)
{
    return x == 0.0 ? S : 1;
}

int em_weights_fixed(size_t n, const double *lw, uint64_t *W, uint64_t *total, uint64_t *scale)
{
    if (lw == NULL || W == NULL || total == NULL || scale == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (n > EM_N_MAX)
        return EM_ERR_TOO_MANY;

    /* m = the smallest power of two >= n, and S = 2^63 / m: then n * S <= 2^63,
       so no prefix sum of weights in [0, S] can overflow. */
    uint64_t m = 1;
    /*@ loop invariant m_range: 1 <= m < 2 * n;
        loop assigns m;
        loop variant n - m; */
    while (m < n)
        m *= 2;
    uint64_t S = ((uint64_t)1 << 63) / m;
    //@ assert scale_fits: m * S <= 9223372036854775808;
    //@ assert n_fits: n * S <= m * S;
    //@ assert scale_positive: S >= 1;
    double scale_d = (double)S;

    /* exp a block at a time (vector code in the trusted wrapper), on
       arguments clamped to its domain [-800, 0]: e^-800 is 0 in double, and a
       NaN or positive log-weight is clamped as before (to 0 weight, resp. S). */
    double xb[EM_EXP_BLOCK], eb[EM_EXP_BLOCK];
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant bounded: \forall integer j; 0 <= j < i ==> W[j] <= S;
        loop invariant argmax: \forall integer j; 0 <= j < i && \eq_double(lw[j], (double)0.0) ==> W[j] == S;
        loop assigns i, W[0 .. n - 1], xb[0 .. EM_EXP_BLOCK - 1], eb[0 .. EM_EXP_BLOCK - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n;) {
        size_t len = n - i < EM_EXP_BLOCK ? n - i : EM_EXP_BLOCK;
        int tiny = 1; /* every log-weight of the block in [-745, -44] */
        /*@ loop invariant range: 0 <= j <= len;
            loop invariant clamped: \forall integer k; 0 <= k < j ==>
              \le_double((double)-800.0, xb[k]) && \le_double(xb[k], (double)0.0);
            loop assigns j, tiny, xb[0 .. len - 1];
            loop variant len - j; */
        for (size_t j = 0; j < len; j++) {
            double x = lw[i + j];
            if (!(x <= -44.0 && x >= -745.0))
                tiny = 0;
            if (!(x >= -800.0))
                x = -800.0;
            if (!(x <= 0.0))
                x = 0.0;
            xb[j] = x;
        }
        if (tiny) {
            /* exp(x) is in (0, 2^-63] for x in [-745, -44] (e^-44 < 0.8 * 2^-63, with
               room for any exp within 4 ulp; e^-745 > 0 is a subnormal), so
               ceil(exp(x) * S) = 1 for every S <= 2^63: the weight fixed_weight
               would give, without computing exp. */
            /*@ loop invariant range: 0 <= j <= len;
                loop invariant bounded: \forall integer k; 0 <= k < i + j ==> W[k] <= S;
                loop invariant argmax: \forall integer k; 0 <= k < i + j && \eq_double(lw[k], (double)0.0) ==> W[k] == S;
                loop assigns j, W[i .. i + len - 1];
                loop variant len - j; */
            for (size_t j = 0; j < len; j++)
                W[i + j] = tiny_weight(lw[i + j], S);
        } else {
            em_exp_nonpos_block(len, xb, eb);
            /*@ loop invariant range: 0 <= j <= len;
                loop invariant bounded: \forall integer k; 0 <= k < i + j ==> W[k] <= S;
                loop invariant argmax: \forall integer k; 0 <= k < i + j && \eq_double(lw[k], (double)0.0) ==> W[k] == S;
                loop assigns j, W[i .. i + len - 1];
                loop variant len - j; */
            for (size_t j = 0; j < len; j++)
                W[i + j] = fixed_weight(lw[i + j], eb[j], S, scale_d);
        }
        i += len;
    }

    /* Summed in a second, read-only pass so that Sum(W, i) is never disturbed
       by a write to W. */
    uint64_t sum = 0;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant sum: sum == Sum(W, i);
        loop invariant sum_bounded: sum <= i * S;
        loop invariant positive: sum >= 1 || \forall integer j; 0 <= j < i ==> W[j] == 0;
        loop assigns i, sum;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        //@ assert step: i * S + W[i] <= (i + 1) * S;
        sum += W[i];
    }
    //@ assert fixed: FixedWeights(W, n, S);
    //@ ghost summed: ;
    *total = sum;
    *scale = S;
    /* Those two writes share WP's memory model with W: re-establish Sum(W, n)
       from W's frame, by induction over the prefix. */
    /*@ ghost
      /@ loop invariant range: 0 <= j <= n;
         loop invariant frame: Sum(W, j) == Sum{summed}(W, j);
         loop assigns j;
         loop variant n - j; @/
      for (size_t j = 0; j < n; j++) { }
    */
    //@ assert still_fixed: \forall integer j; 0 <= j < n ==> W[j] <= *scale;
    return EM_OK;
}
