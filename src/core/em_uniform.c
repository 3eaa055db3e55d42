#include "em_base.h"
#include "core/em_uniform.h"
#include "core/em_select.h"

/* b = bit length of m - 1 (m >= 2, so 1 <= b <= 64): the fewest bits that can
   express every value below m, which keeps the rejection rate < 1/2. */
/*@ requires two: m >= 2;
    assigns \nothing;
    ensures b_range: 1 <= \result <= 64;
 */
static unsigned reject_bits(uint64_t m)
{
    /* Binary search in six steps, each s = 32, 16, ..., 1: with L the bit
       length, b <= L < b + 2s holds before the step, and the test v >> (b+s-1)
       != 0 is L >= b + s.  The shift counts (at most 63) and b <= 64 follow
       from the steps alone, whatever v is. */
    uint64_t v = m - 1;
    unsigned b = 1;
    if ((v >> (b + 31)) != 0)
        b += 32;
    if ((v >> (b + 15)) != 0)
        b += 16;
    if ((v >> (b + 7)) != 0)
        b += 8;
    if ((v >> (b + 3)) != 0)
        b += 4;
    if ((v >> (b + 1)) != 0)
        b += 2;
    if ((v >> b) != 0)
        b += 1;
    //@ assert b_range: 1 <= b <= 64;
    return b;
}

int em_uniform_below(em_rng *rng, uint64_t m, uint64_t *out)
{
    if (rng == NULL || out == NULL)
        return EM_ERR_NULL;
    if (m == 0)
        return EM_ERR_DOMAIN;
    if (m == 1) {
        *out = 0;
        return EM_OK;
    }
    unsigned b = reject_bits(m);
    /*@ loop invariant tries: 0 <= k <= EM_UNIFORM_TRIES;
        loop assigns k, *rng, *out;
        loop variant EM_UNIFORM_TRIES - k; */
    for (unsigned k = 0; k < EM_UNIFORM_TRIES; k++) {
        uint64_t x;
        int st = em_rng_u64(rng, &x);
        if (st != EM_OK)
            return EM_ERR_RNG;
        x >>= (64 - b);
        if (x < m) {
            *out = x;
            return EM_OK;
        }
    }
    return EM_ERR_RNG;
}

int em_sample_fixed(size_t n, const uint64_t *W, uint64_t total, em_rng *rng, size_t *out)
{
    if (W == NULL || rng == NULL || out == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (total == 0)
        return EM_ERR_DOMAIN;
    uint64_t t;
    int st = em_uniform_below(rng, total, &t);
    if (st != EM_OK)
        return st;
    /* The draw wrote the random source's state, which shares WP's memory model
       with W; this ghost induction re-establishes Sum(W, n) from W's frame. */
    /*@ ghost
      /@ loop invariant range: 0 <= j <= n;
         loop invariant frame: Sum(W, j) == Sum{Pre}(W, j);
         loop assigns j;
         loop variant n - j; @/
      for (size_t j = 0; j < n; j++) { }
    */
    *out = em_select(n, W, t);
    return EM_OK;
}

/* em_select_cumulative's search (its contract is in em_select.h).  Here, not in
   em_select.c, so that the batch below gets it inlined: core objects are built
   with -fno-semantic-interposition (Makefile), which lets the compiler inline an
   exported function into its own unit's callers also in the shared library. */
size_t em_select_cumulative(size_t n, const uint64_t *C, uint64_t t)
{
    /* The answer lies in [base, base + len): C[j] <= t for every j < base and
       t < C[base + len - 1].  Each step keeps the upper ceil(len / 2) cells or
       moves base past the lower floor(len / 2): a conditional move, not a branch,
       and ceil(log2 n) steps whatever t is. */
    size_t base = 0, len = n;
    /*@ loop invariant range: 0 <= base && 1 <= len && base + len <= n;
        loop invariant smallest: \forall integer j; 0 <= j < base ==> C[j] <= t;
        loop invariant above: t < C[base + len - 1];
        loop assigns base, len;
        loop variant len; */
    while (len > 1) {
        size_t half = len / 2;
        base = C[base + half - 1] <= t ? base + half : base;
        len -= half;
    }
    return base;
}

/* out[d + j] = the cell of t[j] for each j < cnt: the searches of a batch's accepted
   words, after the rejection (a search for every word, rejected ones too, was half the
   batch's time at a rejection rate near 1/2). */
/*@ requires nonempty: n >= 1;
    requires valid: \valid_read(C + (0 .. n - 1));
    requires valid_t: \valid_read(t + (0 .. cnt - 1));
    requires valid_out: \valid(out + (d .. d + cnt - 1));
    requires sep: \separated(out + (d .. d + cnt - 1), C + (0 .. n - 1), t + (0 .. cnt - 1));
    requires sorted: \forall integer i, j; 0 <= i <= j < n ==> C[i] <= C[j];
    requires in_range: \forall integer j; 0 <= j < cnt ==> t[j] < C[n - 1];
    requires small: cnt <= EM_UNIFORM_BATCH;
    requires fits: d + cnt <= SIZE_MAX;
    assigns out[d .. d + cnt - 1];
    ensures cells: \forall integer i; d <= i < d + cnt ==>
      out[i] < n && (out[i] == 0 ? C[0] > 0 : C[out[i] - 1] < C[out[i]]);
 */
static void search_into(size_t n, const uint64_t *C, const uint64_t *t, size_t cnt, size_t *out,
                        size_t d)
{
    /*@ loop invariant j_range: 0 <= j <= cnt;
        loop invariant drawn: \forall integer i; d <= i < d + j ==>
          out[i] < n && (out[i] == 0 ? C[0] > 0 : C[out[i] - 1] < C[out[i]]);
        loop assigns j, out[d .. d + cnt - 1];
        loop variant cnt - j; */
    for (size_t j = 0; j < cnt; j++) {
        const size_t i = em_select_cumulative(n, C, t[j]);
        //@ assert cell: i == 0 ? C[0] > 0 : C[i - 1] < C[i];
        out[d + j] = i;
        /* `written` in three steps, as em_sample_cumulative_many's were */
        //@ assert fresh: out[d + j] < n && (out[d + j] == 0 ? C[0] > 0 : C[out[d + j] - 1] < C[out[d + j]]);
        /*@ assert kept: \forall integer q; d <= q < d + j ==>
              out[q] < n && (out[q] == 0 ? C[0] > 0 : C[out[q] - 1] < C[out[q]]); */
        /*@ assert written: \forall integer q; d <= q <= d + j ==>
              out[q] < n && (out[q] == 0 ? C[0] > 0 : C[out[q] - 1] < C[out[q]]); */
    }
}

int em_sample_cumulative_many(size_t n, const uint64_t *C, em_rng *rng, size_t k, size_t *out)
{
    if (C == NULL || rng == NULL || out == NULL)
        return EM_ERR_NULL;
    if (n == 0 || k == 0)
        return EM_ERR_EMPTY;
    const uint64_t m = C[n - 1];
    if (m == 0)
        return EM_ERR_DOMAIN;
    if (m == 1) { /* em_uniform_below gives 0 without drawing: one cell, always */
        const size_t i0 = em_select_cumulative(n, C, 0);
        /*@ loop invariant range: 0 <= j <= k;
            loop invariant drawn: \forall integer i; 0 <= i < j ==> out[i] == i0;
            loop assigns j, out[0 .. k - 1];
            loop variant k - j; */
        for (size_t j = 0; j < k; j++)
            out[j] = i0;
        return EM_OK;
    }
    const unsigned b = reject_bits(m);
    uint64_t words[EM_UNIFORM_BATCH];
    size_t done = 0;
    unsigned tries = 0; /* rejections in a row: those of the draw out[done] */
    /* Each word accepted (cnt + 1, tries back to 0) or rejected (tries + 1) lowers
       (k - done - cnt) * T + (T - tries) by at least one: the variant of the rounds. */
    /*@ loop invariant done_range: 0 <= done <= k;
        loop invariant tries_range: 0 <= tries < EM_UNIFORM_TRIES;
        loop invariant drawn: \forall integer j; 0 <= j < done ==>
          out[j] < n && (out[j] == 0 ? C[0] > 0 : C[out[j] - 1] < C[out[j]]);
        loop assigns done, tries, words[0 .. EM_UNIFORM_BATCH - 1], *rng, out[0 .. k - 1];
        loop variant (k - done) * EM_UNIFORM_TRIES + (EM_UNIFORM_TRIES - tries); */
    while (done < k) {
        const size_t need = k - done < EM_UNIFORM_BATCH ? k - done : EM_UNIFORM_BATCH;
        if (em_rng_fill(rng, need, words) != EM_OK)
            return EM_ERR_RNG;
        /* The accepted values, in order, to the front of words (each write at cnt <= w,
           behind the words still to read); the searches come after, on them alone. */
        size_t cnt = 0;
        /*@ loop invariant w_range: 0 <= w <= need;
            loop invariant cnt_range: 0 <= cnt <= w;
            loop invariant room: done + cnt + (need - w) <= k;
            loop invariant tries_range: 0 <= tries < EM_UNIFORM_TRIES;
            loop invariant below: \forall integer j; 0 <= j < cnt ==> words[j] < m;
            loop invariant progress: (k - done - cnt) * EM_UNIFORM_TRIES + (EM_UNIFORM_TRIES - tries) + w
              <= \at((k - done) * EM_UNIFORM_TRIES + (EM_UNIFORM_TRIES - tries), LoopEntry);
            loop assigns w, cnt, tries, words[0 .. EM_UNIFORM_BATCH - 1];
            loop variant need - w; */
        for (size_t w = 0; w < need; w++) {
            const uint64_t x = words[w] >> (64 - b);
            const int accept = x < m;
            words[cnt] = x;
            cnt += (size_t)accept;
            /* a product, not a ternary: gcc made that a branch, mispredicted on
               about every other word when the acceptance rate is near 1/2 */
            tries = (tries + 1u) * (unsigned)(1 - accept);
            if (tries == EM_UNIFORM_TRIES)
                return EM_ERR_RNG;
        }
        //@ assert fits: cnt <= need && done + cnt <= k;
        search_into(n, C, words, cnt, out, done);
        done += cnt;
    }
    return EM_OK;
}
