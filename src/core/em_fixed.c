#include "em_base.h"
#include "core/em_fixed.h"
#include "trusted/em_libm.h"
#include "proofs/lemmas/Sum_lemmas.h"

/* ceil(exp(x) * S) clamped to [0, S]; exactly S at x == 0. */
/*@ requires scale: S >= 1;
    assigns \nothing;
    ensures bounded: \result <= S;
    ensures argmax: \eq_double(x, (double)0.0) ==> \result == S;
 */
static uint64_t fixed_weight(double x, uint64_t S, double scale_d)
{
    if (x == 0.0)
        return S;
    if (!(x >= -800.0))
        x = -800.0;
    if (!(x <= 0.0))
        x = 0.0;
    double s = em_exp_nonpos(x) * scale_d;
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

    /*@ loop invariant range: 0 <= i <= n;
        loop invariant bounded: \forall integer j; 0 <= j < i ==> W[j] <= S;
        loop invariant argmax: \forall integer j; 0 <= j < i && \eq_double(lw[j], (double)0.0) ==> W[j] == S;
        loop assigns i, W[0 .. n - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n; i++)
        W[i] = fixed_weight(lw[i], S, scale_d);

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
