#include "em_base.h"
#include "core/em_score_range.h"
#include "core/em_rank_of.h"
#include "core/em_rows.h"
#include "proofs/lemmas/ScoreRange_lemmas.h"

/* Which score pieces_of computes (plain macros: ACSL reads them too). */
#define RANGE_REVENUE 0
#define RANGE_MEDIAN 1
#define RANGE_QUANTILE 2

/* 1 iff data[0 .. n-1] is in ascending order. */
/*@ requires nonempty: n >= 1;
    requires valid_data: \valid_read(data + (0 .. n - 1));
    assigns \nothing;
    ensures sorted: \result == 1 <==> SortedUp(data, n);
    ensures boolean: \result == 0 || \result == 1;
 */
static int is_sorted(size_t n, const int64_t *data)
{
    /*@ loop invariant range: 1 <= t <= n;
        loop invariant sorted: SortedUp(data, t);
        loop assigns t;
        loop variant n - t; */
    for (size_t t = 1; t < n; t++)
        if (data[t - 1] > data[t])
            return 0;
    return 1;
}

/* The score on a piece with i rows below it and n - i above (b is the
   revenue's slope, computed by the caller: the count n - i). */
/*@ requires kind: kind == RANGE_REVENUE || kind == RANGE_MEDIAN || kind == RANGE_QUANTILE;
    requires rows: 1 <= n <= INT64_MAX && i <= n;
    requires median: kind == RANGE_MEDIAN ==> n <= INT64_MAX / 2;
    requires quantile: kind == RANGE_QUANTILE ==> 0 < qa < qb && n <= INT64_MAX / qb;
    assigns \nothing;
    ensures revenue: kind == RANGE_REVENUE ==> \result == 0;
    ensures median: kind == RANGE_MEDIAN ==> \result == -2 * MedianOf(n, i, n - i) && -2 * n <= \result <= 0;
    ensures quantile: kind == RANGE_QUANTILE ==> \result == QuantileOf(i, n - i, qa, qb) && -qb * n <= \result <= 0;
 */
static int64_t piece_value(int kind, size_t n, size_t i, int64_t qa, int64_t qb)
{
    if (kind == RANGE_MEDIAN)
        return em_median_of(i, n - i, n);
    if (kind == RANGE_QUANTILE)
        return em_quantile_of(i, n - i, n, qa, qb);
    return 0;
}

/* p[j] = {lo, hi, a, b}, appended to a tiling of pieces 0 .. j-1, with the facts
   WP cannot see on its own (p and data share the int64_t memory): the counts
   over data do not change, nor do the rows and the earlier pieces, and the
   tiling grows by one.  Stated here, in a small context, so that the caller's
   tiling goals are instances of this contract: proved in the caller, among all
   of its hypotheses, they took up to 8 s. */
/*@ requires valid_p: \valid(p + j);
    requires valid_data: \valid_read(data + (0 .. n - 1));
    requires separated: \separated(p + j, data + (0 .. n - 1));
    requires adjacent: \forall integer t; 0 <= t < j - 1 ==> p[t].hi == p[t + 1].lo;
    requires joined: j > 0 ==> p[j - 1].hi == lo;
    requires inside: \forall integer t, r; 0 <= t < j && 0 <= r < n ==> !(p[t].lo < data[r] < p[t].hi);
    requires gap: \forall integer r; 0 <= r < n ==> !(lo < data[r] < hi);
    assigns p[j];
    ensures written: p[j].lo == lo && p[j].hi == hi && p[j].a == a && p[j].b == b;
    ensures kept: \forall integer t; 0 <= t < j ==> p[t].lo == \old(p[t].lo) &&
      p[t].hi == \old(p[t].hi) && p[t].a == \old(p[t].a) && p[t].b == \old(p[t].b);
    ensures data: \forall integer t; 0 <= t < n ==> data[t] == \old(data[t]);
    ensures adjacent: \forall integer t; 0 <= t < j ==> p[t].hi == p[t + 1].lo;
    ensures inside: \forall integer t, r; 0 <= t <= j && 0 <= r < n ==> !(p[t].lo < data[r] < p[t].hi);
    ensures lt: \forall integer c; CountLt(data, n, c) == CountLt{Pre}(data, n, c);
    ensures gt: \forall integer c; CountGt(data, n, c) == CountGt{Pre}(data, n, c);
    ensures ge: \forall integer c; CountGe(data, n, c) == CountGe{Pre}(data, n, c);
 */
static void put_piece(em_piece *p, size_t j, int64_t lo, int64_t hi, int64_t a, int64_t b,
                      const int64_t *data, size_t n)
{
    em_rows_put(&p[j].lo, lo, data, n);
    em_rows_put(&p[j].hi, hi, data, n);
    em_rows_put(&p[j].a, a, data, n);
    em_rows_put(&p[j].b, b, data, n);
}

/* The first index after i whose row is above cur (data[i] == cur): skips the ties of a
   breakpoint, so that the next piece starts above it. */
/*@ requires valid_data: \valid_read(data + (0 .. n - 1));
    requires index: i < n && data[i] == cur;
    requires below: \forall integer t; 0 <= t < i ==> data[t] <= cur;
    assigns \nothing;
    ensures moved: i < \result <= n;
    ensures below: \forall integer t; 0 <= t < \result ==> data[t] <= cur;
    ensures next: \result < n ==> data[\result] > cur;
 */
static size_t skip_ties(size_t n, const int64_t *data, size_t i, int64_t cur)
{
    size_t j = i + 1;
    /*@ loop invariant range: i < j <= n;
        loop invariant below: \forall integer t; 0 <= t < j ==> data[t] <= cur;
        loop assigns j;
        loop variant n - j; */
    while (j < n && data[j] <= cur)
        j++;
    return j;
}

/* Cut [lo, hi] at every distinct row strictly inside it, in one pass over the
   sorted rows: i is the number of rows at or below the current left end cur,
   so every r of the open piece after cur has i rows below it and n - i above.
   Returns the number of pieces. */
/*@ requires kind: kind == RANGE_REVENUE || kind == RANGE_MEDIAN || kind == RANGE_QUANTILE;
    requires rows: 1 <= n <= INT64_MAX;
    requires median: kind == RANGE_MEDIAN ==> n <= INT64_MAX / 2;
    requires quantile: kind == RANGE_QUANTILE ==> 0 < qa < qb && n <= INT64_MAX / qb;
    requires range: lo < hi;
    requires valid_p: \valid(p + (0 .. n));
    requires valid_data: \valid_read(data + (0 .. n - 1));
    requires separated: \separated(p + (0 .. n), data + (0 .. n - 1));
    requires sorted: SortedUp(data, n);
    assigns p[0 .. n];
    ensures count: 1 <= \result <= n + 1;
    ensures tiling: Tiling(p, \result, lo, hi);
    ensures cut: CutAtData(p, \result, data, n);
    ensures revenue_linear: kind == RANGE_REVENUE ==> \forall integer j; 0 <= j < \result ==>
      p[j].a == 0 && 0 <= p[j].b <= n;
    ensures revenue: kind == RANGE_REVENUE ==> \forall integer j, r; 0 <= j < \result &&
      p[j].lo < r < p[j].hi ==> CountGe(data, n, r) == p[j].b;
    ensures median_constant: kind == RANGE_MEDIAN ==> \forall integer j; 0 <= j < \result ==>
      p[j].b == 0 && -2 * n <= p[j].a <= 0;
    ensures median: kind == RANGE_MEDIAN ==> \forall integer j, r; 0 <= j < \result &&
      p[j].lo < r < p[j].hi ==> MedianScore(data, n, r) == p[j].a;
    ensures quantile_constant: kind == RANGE_QUANTILE ==> \forall integer j; 0 <= j < \result ==>
      p[j].b == 0 && -qb * n <= p[j].a <= 0;
    ensures quantile: kind == RANGE_QUANTILE ==> \forall integer j, r; 0 <= j < \result &&
      p[j].lo < r < p[j].hi ==> QuantileScore(data, n, r, qa, qb) == p[j].a;
 */
static size_t pieces_of(int kind, size_t n, const int64_t *data, int64_t lo, int64_t hi, int64_t qa,
                        int64_t qb, em_piece *p)
{
    size_t i = 0;
    /*@ loop invariant range: 0 <= i <= n;
        loop invariant below: \forall integer t; 0 <= t < i ==> data[t] <= lo;
        loop assigns i;
        loop variant n - i; */
    while (i < n && data[i] <= lo)
        i++;
    int64_t cur = lo;
    size_t k = 0;
    /*@ loop invariant range: 0 <= k <= i <= n;
        loop invariant cur: lo <= cur < hi;
        loop invariant below: \forall integer t; 0 <= t < i ==> data[t] <= cur;
        loop invariant next: i < n ==> data[i] > cur;
        loop invariant first: k == 0 ==> cur == lo;
        loop invariant start: k > 0 ==> p[0].lo == lo;
        loop invariant last: k > 0 ==> p[k - 1].hi == cur;
        loop invariant nonempty: \forall integer j; 0 <= j < k ==> p[j].lo < p[j].hi;
        loop invariant adjacent: \forall integer j; 0 <= j < k - 1 ==> p[j].hi == p[j + 1].lo;
        loop invariant inside: \forall integer j, t; 0 <= j < k && 0 <= t < n ==>
          !(p[j].lo < data[t] < p[j].hi);
        loop invariant frame: \forall integer c; CountLt(data, n, c) == CountLt{Pre}(data, n, c) &&
          CountGt(data, n, c) == CountGt{Pre}(data, n, c) && CountGe(data, n, c) == CountGe{Pre}(data, n, c);
        loop invariant revenue_linear: kind == RANGE_REVENUE ==> \forall integer j; 0 <= j < k ==>
          p[j].a == 0 && 0 <= p[j].b <= n;
        loop invariant revenue: kind == RANGE_REVENUE ==> \forall integer j, r; 0 <= j < k &&
          p[j].lo < r < p[j].hi ==> CountGe{Pre}(data, n, r) == p[j].b;
        loop invariant median_constant: kind == RANGE_MEDIAN ==> \forall integer j; 0 <= j < k ==>
          p[j].b == 0 && -2 * n <= p[j].a <= 0;
        loop invariant median: kind == RANGE_MEDIAN ==> \forall integer j, r; 0 <= j < k &&
          p[j].lo < r < p[j].hi ==> MedianScore{Pre}(data, n, r) == p[j].a;
        loop invariant quantile_constant: kind == RANGE_QUANTILE ==> \forall integer j; 0 <= j < k ==>
          p[j].b == 0 && -qb * n <= p[j].a <= 0;
        loop invariant quantile: kind == RANGE_QUANTILE ==> \forall integer j, r; 0 <= j < k &&
          p[j].lo < r < p[j].hi ==> QuantileScore{Pre}(data, n, r, qa, qb) == p[j].a;
        loop assigns i, k, cur, p[0 .. n];
        loop variant n - i; */
    while (i < n && data[i] < hi) {
        int64_t v = data[i];
        //@ assert above: \forall integer t; i <= t < n ==> data[t] >= v;
        //@ ghost Range_Counts(data, n, i, cur, v);
        //@ assert counts: \forall integer r; cur < r < v ==> CountLt{Pre}(data, n, r) == i && CountGt{Pre}(data, n, r) == n - i && CountGe{Pre}(data, n, r) == n - i;
        int64_t a = piece_value(kind, n, i, qa, qb);
        int64_t b = kind == RANGE_REVENUE ? (int64_t)(n - i) : 0;
        //@ assert gap: \forall integer t; 0 <= t < n ==> !(cur < data[t] < v);
        put_piece(p, k, cur, v, a, b, data, n);
        /* the invariants for k + 1 pieces, one fact at a time (adjacent and
           inside: put_piece's contract) */
        //@ assert new_piece: p[k].lo == cur && p[k].hi == v && cur < v;
        //@ assert next_start: p[0].lo == lo;
        //@ assert next_nonempty: \forall integer j; 0 <= j <= k ==> p[j].lo < p[j].hi;
        /*@ assert next_revenue_linear: kind == RANGE_REVENUE ==> \forall integer j; 0 <= j <= k ==>
              p[j].a == 0 && 0 <= p[j].b <= n; */
        /*@ assert next_revenue: kind == RANGE_REVENUE ==> \forall integer j, r; 0 <= j <= k &&
              p[j].lo < r < p[j].hi ==> CountGe{Pre}(data, n, r) == p[j].b; */
        /*@ assert next_median_constant: kind == RANGE_MEDIAN ==> \forall integer j; 0 <= j <= k ==>
              p[j].b == 0 && -2 * n <= p[j].a <= 0; */
        /*@ assert next_median: kind == RANGE_MEDIAN ==> \forall integer j, r; 0 <= j <= k &&
              p[j].lo < r < p[j].hi ==> MedianScore{Pre}(data, n, r) == p[j].a; */
        /*@ assert next_quantile_constant: kind == RANGE_QUANTILE ==> \forall integer j; 0 <= j <= k ==>
              p[j].b == 0 && -qb * n <= p[j].a <= 0; */
        /*@ assert old_quantile: kind == RANGE_QUANTILE ==> \forall integer j, r; 0 <= j < k &&
              p[j].lo < r < p[j].hi ==> QuantileScore{Pre}(data, n, r, qa, qb) == p[j].a; */
        /*@ assert new_quantile: kind == RANGE_QUANTILE ==> \forall integer r;
              p[k].lo < r < p[k].hi ==> QuantileScore{Pre}(data, n, r, qa, qb) == p[k].a; */
        /*@ assert next_quantile: kind == RANGE_QUANTILE ==> \forall integer j, r; 0 <= j <= k &&
              p[j].lo < r < p[j].hi ==> QuantileScore{Pre}(data, n, r, qa, qb) == p[j].a; */
        k++;
        cur = v;
        i = skip_ties(n, data, i, cur);
    }
    //@ assert above: \forall integer t; i <= t < n ==> data[t] >= hi;
    //@ ghost Range_Counts(data, n, i, cur, hi);
    //@ assert counts: \forall integer r; cur < r < hi ==> CountLt{Pre}(data, n, r) == i && CountGt{Pre}(data, n, r) == n - i && CountGe{Pre}(data, n, r) == n - i;
    int64_t a = piece_value(kind, n, i, qa, qb);
    int64_t b = kind == RANGE_REVENUE ? (int64_t)(n - i) : 0;
    //@ assert gap: \forall integer t; 0 <= t < n ==> !(cur < data[t] < hi);
    put_piece(p, k, cur, hi, a, b, data, n);
    /*@ assert frame: \forall integer c; CountLt(data, n, c) == CountLt{Pre}(data, n, c) &&
          CountGt(data, n, c) == CountGt{Pre}(data, n, c) && CountGe(data, n, c) == CountGe{Pre}(data, n, c); */
    //@ assert frame_median: \forall integer c; MedianScore(data, n, c) == MedianScore{Pre}(data, n, c);
    //@ assert frame_quantile: \forall integer c; QuantileScore(data, n, c, qa, qb) == QuantileScore{Pre}(data, n, c, qa, qb);
    //@ assert cut_inside: \forall integer j, t; 0 <= j <= k && 0 <= t < n ==> !(p[j].lo < data[t] < p[j].hi);
    //@ assert tiling_start: p[0].lo == lo;
    //@ assert tiling_end: p[k].hi == hi;
    //@ assert tiling_nonempty: \forall integer j; 0 <= j <= k ==> p[j].lo < p[j].hi;
    //@ assert tiling_adjacent: \forall integer j; 0 <= j < k ==> p[j].hi == p[j + 1].lo;
    /*@ assert last_revenue: kind == RANGE_REVENUE ==> p[k].a == 0 && 0 <= p[k].b <= n &&
          \forall integer r; p[k].lo < r < p[k].hi ==> CountGe(data, n, r) == p[k].b; */
    /*@ assert last_median: kind == RANGE_MEDIAN ==> p[k].b == 0 && -2 * n <= p[k].a <= 0 &&
          \forall integer r; p[k].lo < r < p[k].hi ==> MedianScore(data, n, r) == p[k].a; */
    /*@ assert last_quantile: kind == RANGE_QUANTILE ==> p[k].b == 0 && -qb * n <= p[k].a <= 0 &&
          \forall integer r; p[k].lo < r < p[k].hi ==> QuantileScore(data, n, r, qa, qb) == p[k].a; */
    /*@ assert old_median: kind == RANGE_MEDIAN ==> \forall integer j, r; 0 <= j < k &&
          p[j].lo < r < p[j].hi ==> MedianScore(data, n, r) == p[j].a; */
    /*@ assert old_quantile: kind == RANGE_QUANTILE ==> \forall integer j, r; 0 <= j < k &&
          p[j].lo < r < p[j].hi ==> QuantileScore(data, n, r, qa, qb) == p[j].a; */
    return k + 1;
}

/* The checks of the three scores over a range, in their contracts' order: the
   pointers, the size, the score's own arguments (domain_ok), the size against
   the largest that the score's values fit (nmax), the order of the rows. */
/*@ requires valid_data: data == \null || \valid_read(data + (0 .. n - 1));
    assigns \nothing;
    ensures null: p == \null || k == \null || data == \null ==> \result == EM_ERR_NULL;
    ensures empty: p != \null && k != \null && data != \null && n == 0 ==> \result == EM_ERR_EMPTY;
    ensures domain: p != \null && k != \null && data != \null && n > 0 && domain_ok == 0 ==>
      \result == EM_ERR_DOMAIN;
    ensures overflow: p != \null && k != \null && data != \null && n > 0 && domain_ok != 0 &&
      n > nmax ==> \result == EM_ERR_OVERFLOW;
    ensures unsorted: p != \null && k != \null && data != \null && n > 0 && domain_ok != 0 &&
      n <= nmax && !SortedUp(data, n) ==> \result == EM_ERR_DOMAIN;
    ensures ok: p != \null && k != \null && data != \null && n > 0 && domain_ok != 0 &&
      n <= nmax && SortedUp(data, n) ==> \result == EM_OK;
 */
static int range_args(const em_piece *p, const size_t *k, const int64_t *data, size_t n,
                      int domain_ok, uint64_t nmax)
{
    if (p == NULL || k == NULL || data == NULL)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (!domain_ok)
        return EM_ERR_DOMAIN;
    if (n > nmax)
        return EM_ERR_OVERFLOW;
    if (!is_sorted(n, data))
        return EM_ERR_DOMAIN;
    return EM_OK;
}

int em_range_revenue(size_t n, const int64_t *bids, int64_t lo, int64_t hi, em_piece *p, size_t *k)
{
    int st = range_args(p, k, bids, n, lo >= 0 && lo < hi, INT64_MAX);
    if (st != EM_OK)
        return st;
    size_t m = pieces_of(RANGE_REVENUE, n, bids, lo, hi, 0, 1, p);
    //@ assert linear: \forall integer j; 0 <= j < m ==> p[j].a == 0 && 0 <= p[j].b <= n;
    /*@ assert buyers: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
          CountGe(bids, n, r) == p[j].b; */
    //@ ghost Revenue_Pieces(p, m, bids, n);
    *k = m;
    return EM_OK;
}

int em_range_median(size_t n, const int64_t *data, int64_t lo, int64_t hi, em_piece *p, size_t *k)
{
    int st = range_args(p, k, data, n, lo < hi, INT64_MAX / 2);
    if (st != EM_OK)
        return st;
    size_t m = pieces_of(RANGE_MEDIAN, n, data, lo, hi, 0, 1, p);
    //@ assert constant: \forall integer j; 0 <= j < m ==> p[j].b == 0 && -2 * n <= p[j].a <= 0;
    /*@ assert score: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
          MedianScore(data, n, r) == p[j].a; */
    //@ assert flat: \forall integer j; 0 <= j < m ==> p[j].b == 0;
    //@ ghost Median_Pieces(p, m, data, n);
    *k = m;
    return EM_OK;
}

int em_range_quantile(size_t n, const int64_t *data, int64_t lo, int64_t hi, int64_t qa, int64_t qb,
                      em_piece *p, size_t *k)
{
    const int alpha = 0 < qa && qa < qb;
    int st = range_args(p, k, data, n, lo < hi && alpha, alpha ? (uint64_t)(INT64_MAX / qb) : 0);
    if (st != EM_OK)
        return st;
    size_t m = pieces_of(RANGE_QUANTILE, n, data, lo, hi, qa, qb, p);
    //@ assert constant: \forall integer j; 0 <= j < m ==> p[j].b == 0 && -qb * n <= p[j].a <= 0;
    /*@ assert score: \forall integer j, r; 0 <= j < m && p[j].lo < r < p[j].hi ==>
          QuantileScore(data, n, r, qa, qb) == p[j].a; */
    //@ assert flat: \forall integer j; 0 <= j < m ==> p[j].b == 0;
    //@ ghost Quantile_Pieces(p, m, data, n, qa, qb);
    *k = m;
    return EM_OK;
}

/* em_range_laplace's three decisions, each in a function of its own: written
   inline, their short-circuit operators give the rest of the function one
   copy per way through them in the goals WP builds, and its
   `pieces` clause a goal too large for the provers. */
/*@ assigns \nothing;
    ensures in_range: \result != 0 <==> (\abs(f) <= EM_RANGE_ABS_MAX &&
              (lo_inf || \abs(lo) <= EM_RANGE_ABS_MAX) && (hi_inf || \abs(hi) <= EM_RANGE_ABS_MAX));
 */
static int laplace_in_range(int64_t f, int lo_inf, int64_t lo, int hi_inf, int64_t hi)
{
    if (f < -EM_RANGE_ABS_MAX || f > EM_RANGE_ABS_MAX)
        return 0;
    if (!lo_inf && (lo < -EM_RANGE_ABS_MAX || lo > EM_RANGE_ABS_MAX))
        return 0;
    if (!hi_inf && (hi < -EM_RANGE_ABS_MAX || hi > EM_RANGE_ABS_MAX))
        return 0;
    return 1;
}

/*@ assigns \nothing;
    ensures nonempty: \result != 0 <==> (lo_inf || hi_inf || lo < hi);
 */
static int laplace_nonempty(int lo_inf, int64_t lo, int hi_inf, int64_t hi)
{
    if (lo_inf || hi_inf)
        return 1;
    return lo < hi;
}

/*@ assigns \nothing;
    ensures inside: \result != 0 <==> ((lo_inf || lo < f) && (hi_inf || f < hi));
 */
static int laplace_inside(int64_t f, int lo_inf, int64_t lo, int hi_inf, int64_t hi)
{
    if (!lo_inf && lo >= f)
        return 0;
    if (!hi_inf && f >= hi)
        return 0;
    return 1;
}

int em_range_laplace(int64_t f, int lo_inf, int64_t lo, int hi_inf, int64_t hi, em_piece *p, size_t *k)
{
    if (p == NULL || k == NULL)
        return EM_ERR_NULL;
    if (!laplace_in_range(f, lo_inf, lo, hi_inf, hi))
        return EM_ERR_OVERFLOW;
    if (!laplace_nonempty(lo_inf, lo, hi_inf, hi))
        return EM_ERR_DOMAIN;
    if (laplace_inside(f, lo_inf, lo, hi_inf, hi)) {
        /* r <= f: u = r - f; r >= f: u = f - r */
        p[0].lo = lo;
        p[0].hi = f;
        p[0].a = -f;
        p[0].b = 1;
        p[1].lo = f;
        p[1].hi = hi;
        p[1].a = f;
        p[1].b = -1;
        *k = 2;
    } else {
        p[0].lo = lo;
        p[0].hi = hi;
        if (!lo_inf && f <= lo) {  /* every r of the range is above f */
            p[0].a = f;
            p[0].b = -1;
        } else {                   /* f >= hi: every r is below f */
            p[0].a = -f;
            p[0].b = 1;
        }
        *k = 1;
    }
    //@ ghost Laplace_Pieces(p, *k, f, lo_inf, hi_inf);
    return EM_OK;
}
