#include "em_base.h"
#include "core/em_fixed.h"
#include "core/em_logweights_priv.h"
#include "core/em_vec.h"
#include "trusted/em_libm.h"
#include "proofs/lemmas/Sum_lemmas.h"
#include "proofs/lemmas/Weights_lemmas.h"

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

/* The weights W[wo + j] of one block of log-weights lw[lo + j], j < len
   (EM_EXP_BLOCK at most), as em_weights_fixed's contract gives them: exp a block
   at a time (vector code in the trusted wrapper), on arguments clamped to its
   domain [-800, 0]: e^-800 is 0 in double, and a NaN or positive log-weight is
   clamped as before (to 0 weight, resp. S).  Offsets, not shifted pointers: the
   callers' invariants over W then follow without reasoning about W + wo. */
/*@ requires size: 1 <= len <= EM_EXP_BLOCK;
    requires fits: lo + len <= EM_N_MAX && wo + len <= EM_N_MAX;
    requires scale: S >= 1;
    requires valid: \valid_read(lw + (lo .. lo + len - 1)) && \valid(W + (wo .. wo + len - 1));
    requires separated: \separated(lw + (lo .. lo + len - 1), W + (wo .. wo + len - 1));
    assigns W[wo .. wo + len - 1];
    ensures bounded: \forall integer j; wo <= j < wo + len ==> W[j] <= S;
    ensures argmax: \forall integer j; wo <= j < wo + len &&
      \eq_double(lw[lo + (j - wo)], (double)0.0) ==> W[j] == S;
 */
EM_VECTOR_CLONES static void fixed_block(size_t len, const double *lw, size_t lo, uint64_t S, double scale_d,
                        uint64_t *W, size_t wo)
{
    double xb[EM_EXP_BLOCK], eb[EM_EXP_BLOCK];
    int tiny = 1; /* every log-weight of the block in [-745, -44] */
    /* The tiny weights are written as we go (kept when the whole block is
       tiny, overwritten below otherwise). */
    /*@ loop invariant range: 0 <= j <= len;
        loop invariant bounded: \forall integer k; wo <= k < wo + j ==> W[k] <= S;
        loop invariant argmax: \forall integer k; wo <= k < wo + j &&
          \eq_double(lw[lo + (k - wo)], (double)0.0) ==> W[k] == S;
        loop assigns j, tiny, W[wo .. wo + len - 1];
        loop variant len - j; */
    for (size_t j = 0; j < len; j++) {
        double x = lw[lo + j];
        int below = x <= -44.0, above = x >= -745.0;
        tiny &= below & above; /* no branch: the loop vectorises */
        W[wo + j] = tiny_weight(x, S);
    }
    if (tiny)
        return;
    /* exp(x) is in (0, 2^-63] for x in [-745, -44] (e^-44 < 0.8 * 2^-63, with
       room for any exp within 4 ulp; e^-745 > 0 is a subnormal), so
       ceil(exp(x) * S) = 1 for every S <= 2^63: a tiny block's weights are the
       ones fixed_weight would give, without computing exp; other blocks need it. */
    /*@ loop invariant range: 0 <= j <= len;
        loop invariant clamped: \forall integer k; 0 <= k < j ==>
          \le_double((double)-800.0, xb[k]) && \le_double(xb[k], (double)0.0);
        loop assigns j, xb[0 .. len - 1];
        loop variant len - j; */
    for (size_t j = 0; j < len; j++) {
        double x = lw[lo + j];
        x = x >= -800.0 ? x : -800.0;
        x = x <= 0.0 ? x : 0.0;
        xb[j] = x;
    }
    em_exp_nonpos_block(len, xb, eb);
    /*@ loop invariant range: 0 <= j <= len;
        loop invariant bounded: \forall integer k; wo <= k < wo + len ==> W[k] <= S;
        loop invariant argmax: \forall integer k; wo <= k < wo + len &&
          \eq_double(lw[lo + (k - wo)], (double)0.0) ==> W[k] == S;
        loop assigns j, W[wo .. wo + len - 1];
        loop variant len - j; */
    for (size_t j = 0; j < len; j++)
        W[wo + j] = fixed_weight(lw[lo + j], eb[j], S, scale_d);
}

/* S = 2^63 / m, m = the smallest power of two >= n: then n * S <= 2^63, so no
   prefix sum of weights in [0, S] can overflow. */
/*@ requires n: 1 <= n <= EM_N_MAX;
    assigns \nothing;
    ensures positive: \result >= 1;
    ensures fits: n * \result <= 9223372036854775808;
 */
static uint64_t fixed_scale(size_t n)
{
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
    return S;
}

/* *total = sum and *scale = S, with the fact WP cannot see on its own (they
   share the uint64_t memory with W): Sum(W, n) does not change.  The ghost
   loop is the induction over the prefix. */
/*@ requires valid: \valid(total) && \valid(scale);
    requires valid_W: \valid_read(W + (0 .. n - 1));
    requires separated: \separated(total, scale, W + (0 .. n - 1));
    assigns *total, *scale;
    ensures total: *total == sum;
    ensures scale: *scale == S;
    ensures sum: Sum(W, n) == Sum{Pre}(W, n);
 */
static void put_total(uint64_t *total, uint64_t sum, uint64_t *scale, uint64_t S,
                      const uint64_t *W, size_t n)
{
    (void)W; /* used by the ghost induction only */
    (void)n;
    *total = sum;
    *scale = S;
    /*@ ghost
      /@ loop invariant range: 0 <= j <= n;
         loop invariant frame: Sum(W, j) == Sum{Pre}(W, j);
         loop assigns j;
         loop variant n - j; @/
      for (size_t j = 0; j < n; j++) { }
    */
}

int em_weights_fixed(size_t n, const double *lw, uint64_t *W, uint64_t *total, uint64_t *scale)
{
    if (lw == NULL || W == NULL || total == NULL || scale == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (n > EM_N_MAX)
        return EM_ERR_TOO_MANY;

    const uint64_t S = fixed_scale(n);
    double scale_d = (double)S;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant bounded: \forall integer j; 0 <= j < i ==> W[j] <= S;
        loop invariant argmax: \forall integer j; 0 <= j < i && \eq_double(lw[j], (double)0.0) ==> W[j] == S;
        loop assigns i, W[0 .. n - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n;) {
        size_t len = n - i < EM_EXP_BLOCK ? n - i : EM_EXP_BLOCK;
        fixed_block(len, lw, i, S, scale_d, W, i);
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
        //@ ghost Weights_ScaleMonotone(i, n, S);
        sum += W[i];
    }
    //@ assert fixed_scale: 1 <= S && n * S <= 9223372036854775808;
    //@ assert fixed_bounded: \forall integer j; 0 <= j < n ==> W[j] <= S;
    //@ ghost Weights_FixedIntro(W, n, S);
    put_total(total, sum, scale, S, W, n);
    //@ assert still_fixed: \forall integer j; 0 <= j < n ==> W[j] <= *scale;
    return EM_OK;
}

int em_weights_fixed_u(size_t n, const double *u, double eps, double delta, int variant,
                       uint64_t *W, uint64_t *total, uint64_t *scale, size_t *argmax)
{
    if (u == NULL || W == NULL || total == NULL || scale == NULL || argmax == NULL)
        return EM_ERR_NULL;
    size_t best;
    em_lw_scale sc;
    int st = em_lw_setup(n, u, eps, delta, variant, &best, &sc);
    if (st != EM_OK)
        return st;
    /* Stored now, so that the stores after the sum are those put_total frames. */
    *argmax = best;

    const uint64_t S = fixed_scale(n);
    double scale_d = (double)S;
    /* Each block's log-weights go to the stack, then straight into its weights,
       which are summed while the block is still in the cache: the log-weight
       array of em_logweights is never written, and W is read once more only
       by the selection. */
    double lwb[EM_EXP_BLOCK];
    uint64_t sum = 0;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant bounded: \forall integer j; 0 <= j < i ==> W[j] <= S;
        loop invariant argmax: best < i ==> W[best] == S;
        loop invariant sum: sum == Sum(W, i);
        loop invariant sum_bounded: sum <= i * S;
        loop invariant positive: sum >= 1 || \forall integer j; 0 <= j < i ==> W[j] == 0;
        loop assigns i, sum, W[0 .. n - 1], lwb[0 .. EM_EXP_BLOCK - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n;) {
        size_t len = n - i < EM_EXP_BLOCK ? n - i : EM_EXP_BLOCK;
        em_lw_run(len, u + i, &sc, lwb);
        if (best >= i && best - i < len)
            lwb[best - i] = 0.0;
        //@ ghost block: ;
        fixed_block(len, lwb, 0, S, scale_d, W, i);
        /* `bounded` and `argmax` for the next round, here next to the block's
           contract: proved at the end of the round, through the loops below, they
           took CVC5 2-3 s each. */
        //@ assert w_bounded: \forall integer j; 0 <= j < i + len ==> W[j] <= S;
        //@ assert w_argmax: best < i + len ==> W[best] == S;
        /* The block's writes leave W[0 .. i-1], hence Sum(W, i), as they were:
           by induction over the prefix. */
        /*@ ghost
          /@ loop invariant range: 0 <= j <= i;
             loop invariant frame: Sum(W, j) == Sum{block}(W, j);
             loop assigns j;
             loop variant i - j; @/
          for (size_t j = 0; j < i; j++) { }
        */
        size_t j = i;
        /*@ loop invariant range: i <= j <= i + len;
            loop invariant sum: sum == Sum(W, j);
            loop invariant sum_bounded: sum <= j * S;
            loop invariant positive: sum >= 1 || \forall integer k; 0 <= k < j ==> W[k] == 0;
            loop assigns j, sum;
            loop variant i + len - j; */
        for (; j < i + len; j++) {
            //@ assert step: j * S + W[j] <= (j + 1) * S;
            //@ ghost Weights_ScaleMonotone(j, n, S);
            sum += W[j];
        }
        //@ assert block_end: j == i + len;
        //@ assert block_bounded: sum <= (i + len) * S;
        i += len;
    }
    //@ assert fixed_scale: 1 <= S && n * S <= 9223372036854775808;
    //@ assert fixed_bounded: \forall integer j; 0 <= j < n ==> W[j] <= S;
    //@ ghost Weights_FixedIntro(W, n, S);
    //@ assert total_positive: sum >= 1;
    put_total(total, sum, scale, S, W, n);
    //@ assert still_fixed: \forall integer j; 0 <= j < n ==> W[j] <= *scale;
    //@ assert scale_out: 1 <= *scale && n * *scale <= 9223372036854775808;
    //@ assert fixed_out: FixedWeights(W, n, *scale);
    return EM_OK;
}
