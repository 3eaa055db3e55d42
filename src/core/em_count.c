#include "em_base.h"
#include "core/em_count.h"
#include "proofs/lemmas/Sum_lemmas.h"
#include "proofs/lemmas/Count_lemmas.h"

size_t em_count(size_t n, const int *data, int v)
{
    size_t c = 0;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant count: c == Count(data, i, v);
        loop invariant bounded: c <= i;
        loop assigns i, c;
        loop variant n - i; */
    for (size_t i = 0; i < n; i++)
        if (data[i] == v)
            c++;
    return c;
}

/* hist[j] += 1, with the fact WP cannot see on its own: the total grows by one.
   The ghost loop after the increment is the induction over the k cells. */
/*@ requires valid: \valid(hist + (0 .. k - 1));
    requires index: j < k;
    requires room: hist[j] < UINT64_MAX;
    assigns hist[j];
    ensures incremented: hist[j] == \old(hist[j]) + 1;
    ensures others: \forall integer r; 0 <= r < k && r != j ==> hist[r] == \old(hist[r]);
    ensures sum: Sum(hist, k) == \old(Sum(hist, k)) + 1;
 */
static void hist_inc(uint64_t *hist, size_t k, size_t j)
{
    (void)k; /* used by the ghost induction only */
    hist[j]++;
    /*@ ghost
      /@ loop invariant range: 0 <= m <= k;
         loop invariant sum: Sum(hist, m) == Sum{Pre}(hist, m) + (m > j ? 1 : 0);
         loop assigns m;
         loop variant k - m; @/
      for (size_t m = 0; m < k; m++) { }
    */
}

int em_histogram(size_t n, const int *data, size_t k, uint64_t *hist)
{
    if (hist == NULL || data == NULL)
        return EM_ERR_NULL;
    if (k == 0)
        return EM_ERR_EMPTY;
    //@ ghost Count_Bounded((int *)data, n);
    /*@ loop invariant range: 0 <= r <= k;
        loop invariant zero: \forall integer q; 0 <= q < r ==> hist[q] == 0;
        loop assigns r, hist[0 .. k - 1];
        loop variant k - r; */
    for (size_t r = 0; r < k; r++)
        hist[r] = 0;
    /*@ ghost
      /@ loop invariant range: 0 <= m <= k;
         loop invariant zero: Sum(hist, m) == 0;
         loop assigns m;
         loop variant k - m; @/
      for (size_t m = 0; m < k; m++) { }
    */
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant valid_rows: \forall integer q; 0 <= q < i ==> 0 <= data[q] < k;
        loop invariant count: \forall integer r; 0 <= r < k ==> hist[r] == Count(data, i, r);
        loop invariant sum: Sum(hist, k) == i;
        loop assigns i, hist[0 .. k - 1];
        loop variant n - i; */
    for (size_t i = 0; i < n; i++) {
        int v = data[i];
        if (v < 0 || (size_t)v >= k) {
            /*@ loop invariant range: 0 <= r <= k;
                loop invariant zero: \forall integer q; 0 <= q < r ==> hist[q] == 0;
                loop assigns r, hist[0 .. k - 1];
                loop variant k - r; */
            for (size_t r = 0; r < k; r++)
                hist[r] = 0;
            return EM_ERR_DOMAIN;
        }
        //@ assert bounded: hist[v] == Count(data, i, v) <= i < n;
        hist_inc(hist, k, (size_t)v);
    }
    return EM_OK;
}
