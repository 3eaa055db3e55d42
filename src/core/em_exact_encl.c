#include "core/em_exact_encl.h"

void em_encl_add(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr wlo, mpfr_srcptr whi)
{
    em_mpfr_add_rd(lo, lo, wlo);
    em_mpfr_add_ru(hi, hi, whi);
}

int em_encl_suffix(size_t m, mpfr_ptr tlo, mpfr_ptr thi, mpfr_srcptr wlo, mpfr_srcptr whi,
                   mpfr_srcptr cap)
{
    if (em_mpfr_greater(thi + m, cap))
        return 1;
    /*@ loop invariant range: 0 <= k <= m;
        loop invariant frame: \forall mpfr_srcptr x; \separated(x, tlo + (0 .. m - 1)) &&
          \separated(x, thi + (0 .. m - 1)) ==> EmVal(x) == EmVal{Pre}(x);
        loop invariant ends: \forall integer j; k <= j <= m ==>
          0 <= EmVal(tlo + j) && 0 <= EmVal(thi + j) <= EmVal{Pre}(cap);
        loop invariant sums: \forall integer j; k <= j <= m ==>
          EmVal(tlo + j) <= EmVal{Pre}(tlo + m) + EnclSuffix{Pre}(wlo, j, m) &&
          EmVal(thi + j) >= EmVal{Pre}(thi + m) + EnclSuffix{Pre}(whi, j, m);
        loop assigns k, tlo[0 .. m - 1], thi[0 .. m - 1];
        loop variant k; */
    for (size_t k = m; k > 0; k--) {
        em_mpfr_add_rd(tlo + (k - 1), tlo + k, wlo + (k - 1));
        em_mpfr_add_ru(thi + (k - 1), thi + k, whi + (k - 1));
        /* the sums already made stay as they were, apart from the invariants (sums took
           CVC4 1.8 s with this inside) */
        /*@ assert kept: \forall integer j; k <= j <= m ==>
              EmVal(tlo + j) == \at(EmVal(tlo + j), LoopCurrent) &&
              EmVal(thi + j) == \at(EmVal(thi + j), LoopCurrent); */
        if (em_mpfr_greater(thi + (k - 1), cap))
            return 1;
    }
    return 0;
}

int em_encl_upward(size_t m, mpfr_ptr rlo, mpfr_ptr rhi, mpfr_ptr d, mpfr_ptr clo,
                   mpfr_ptr chi, mpfr_srcptr tlo, mpfr_srcptr thi, mpfr_srcptr wlo,
                   mpfr_srcptr whi, mpfr_srcptr cap)
{
    /*@ loop invariant range: 0 <= k <= m;
        loop invariant frame: \forall mpfr_srcptr x; \separated(x, rlo + (0 .. m - 1)) &&
          \separated(x, rhi + (0 .. m - 1)) && \separated(x, d) && \separated(x, clo) &&
          \separated(x, chi) ==> EmVal(x) == EmVal{Pre}(x);
        loop invariant c: 0 <= EmVal(clo) <= EmVal(chi);
        loop invariant clo: EmVal(clo) <= EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, k);
        loop invariant chi: EmVal(chi) >= EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, k);
        loop invariant below: \forall integer j; 0 <= j < k ==>
          RatioBelow(EmVal(rlo + j), EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, j),
                     EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, j), EmVal{Pre}(tlo + j),
                     EmVal{Pre}(thi + j));
        loop invariant above: \forall integer j; 0 <= j < k ==>
          RatioAbove(EmVal(rhi + j), EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, j),
                     EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, j), EmVal{Pre}(tlo + j),
                     EmVal{Pre}(thi + j));
        loop invariant unit: \forall integer j; 0 <= j < k ==>
          0 <= EmVal(rlo + j) <= 1 && 0 <= EmVal(rhi + j) <= 1;
        loop assigns k, rlo[0 .. m - 1], rhi[0 .. m - 1], *d, *clo, *chi;
        loop variant m - k; */
    for (size_t k = 0; k < m; k++) {
        if (em_mpfr_greater(chi, cap))
            return 1;
        em_encl_ratio(rlo + k, rhi + k, d, clo, chi, tlo + k, thi + k);
        /* index k's enclosure over the box of the exact sums, which [clo, chi] contains
           (em_encl_ratio's below_from and above_to), before the sums move on */
        /*@ assert below_k: RatioBelow(EmVal(rlo + k), EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, k),
              EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, k), EmVal{Pre}(tlo + k), EmVal{Pre}(thi + k)); */
        /*@ assert above_k: RatioAbove(EmVal(rhi + k), EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, k),
              EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, k), EmVal{Pre}(tlo + k), EmVal{Pre}(thi + k)); */
        em_mpfr_add_rd(clo, clo, wlo + k);
        em_mpfr_add_ru(chi, chi, whi + k);
        /* the ends already made stay as they were (the sums' frames), apart from the
           invariants (each at once took CVC4 2.3 s) */
        /*@ assert kept: \forall integer j; 0 <= j < k ==>
              EmVal(rlo + j) == \at(EmVal(rlo + j), LoopCurrent) &&
              EmVal(rhi + j) == \at(EmVal(rhi + j), LoopCurrent); */
    }
    return 0;
}

void em_encl_words(uint64_t *lo, uint64_t *hi, mpfr_ptr t, mpfr_srcptr flo, mpfr_srcptr fhi)
{
    uint64_t l = em_mpfr_word_rd(t, flo);
    uint64_t h = em_mpfr_word_ru(t, fhi);
    *lo = l;
    *hi = h;
}

void em_encl_monotone(size_t n, uint64_t *lo, uint64_t *hi)
{
    /* lo_monotone follows from max and MaxUpTo_Step (as an invariant of its own, its
       preservation took CVC4 1.8 s) */
    /*@ loop invariant range: 1 <= i <= n + 1;
        loop invariant max: \forall integer k; 0 <= k < i ==> lo[k] == MaxUpTo{Pre}(lo, k);
        loop invariant rest: \forall integer k; i <= k <= n ==> lo[k] == \at(lo[k], Pre);
        loop assigns i, lo[1 .. n];
        loop variant n + 1 - i; */
    for (size_t i = 1; i <= n; i++) {
        if (lo[i] < lo[i - 1])
            lo[i] = lo[i - 1];
        //@ assert step: lo[i - 1] <= lo[i];
    }
    /*@ loop invariant range: 0 <= k <= n;
        loop invariant sorted: \forall integer a, b; k <= a <= b <= n ==> hi[a] <= hi[b];
        loop invariant min: \forall integer m; k <= m <= n ==> hi[m] == MinFrom{Pre}(hi, m, n);
        loop invariant rest: \forall integer m; 0 <= m < k ==> hi[m] == \at(hi[m], Pre);
        loop assigns k, hi[0 .. n - 1];
        loop variant k; */
    for (size_t k = n; k > 0; k--) {
        /* MinFrom's definition at k - 1, the cell's new value, and the cells kept, apart
           from the invariants (min's preservation at once took CVC4 2.3 s) */
        /*@ assert unfold: \let j = k - 1; MinFrom{Pre}(hi, j, n) ==
              (\at(hi[j], Pre) > MinFrom{Pre}(hi, j + 1, n) ? MinFrom{Pre}(hi, j + 1, n) : \at(hi[j], Pre)); */
        if (hi[k - 1] > hi[k])
            hi[k - 1] = hi[k];
        //@ assert step: hi[k - 1] <= hi[k];
        //@ assert new_min: hi[k - 1] == MinFrom{Pre}(hi, k - 1, n);
        //@ assert new_head: \forall integer b; k - 1 <= b <= n ==> hi[k - 1] <= hi[b];
        //@ assert kept_sorted: \forall integer a, b; k <= a <= b <= n ==> hi[a] <= hi[b];
    }
}

/* The lower end RNDD(clo / RNDU(clo + thi)): the facts of the two directed calls. */
/*@ requires valid: \valid(flo) && \valid(d) && \valid_read(clo) && \valid_read(thi);
    requires sep: \separated(flo, d, clo, thi);
    requires range: 0 < EmVal(clo) <= 1.0e300 && 0 <= EmVal(thi) <= 1.0e300;
    assigns *flo, *d;
    ensures den: EmVal(d) >= EmVal{Pre}(clo) + EmVal{Pre}(thi);
    ensures quot: EmVal(flo) * EmVal(d) <= EmVal{Pre}(clo);
    ensures unit: 0 <= EmVal(flo) <= 1;
    ensures frame: \forall mpfr_srcptr x; \separated(x, flo) && \separated(x, d) ==>
                     EmVal(x) == EmVal{Pre}(x);
 */
static void ratio_lo(mpfr_ptr flo, mpfr_ptr d, mpfr_srcptr clo, mpfr_srcptr thi)
{
    em_mpfr_add_ru(d, clo, thi);
    em_mpfr_div_rd(flo, clo, d);
}

/* The upper end RNDU(chi / RNDD(chi + tlo)), or 1 if that denominator fell below chi (it
   does not when chi has d's precision, as in the oracle: chi is a number of d's precision
   <= chi + tlo). */
/*@ requires valid: \valid(fhi) && \valid(d) && \valid_read(chi) && \valid_read(tlo);
    requires sep: \separated(fhi, d, chi, tlo);
    requires range: 0 < EmVal(chi) && 0 <= EmVal(tlo);
    assigns *fhi, *d;
    ensures quot: EmVal(fhi) == 1 ||
                  (EmVal(d) <= EmVal{Pre}(chi) + EmVal{Pre}(tlo) &&
                   EmVal(fhi) * EmVal(d) >= EmVal{Pre}(chi));
    ensures unit: 0 <= EmVal(fhi) <= 1;
    ensures frame: \forall mpfr_srcptr x; \separated(x, fhi) && \separated(x, d) ==>
                     EmVal(x) == EmVal{Pre}(x);
 */
static void ratio_hi(mpfr_ptr fhi, mpfr_ptr d, mpfr_srcptr chi, mpfr_srcptr tlo)
{
    em_mpfr_add_rd(d, chi, tlo);
    if (em_mpfr_greater(chi, d))
        em_mpfr_set_01(fhi, 1); /* F <= 1 */
    else
        em_mpfr_div_ru(fhi, chi, d);
}

/* The ends over every box beyond the corner (em_encl_ratio's below_from, above_to): F is
   increasing in c and decreasing in t.  Proved once each, here, as ghost functions whose
   contracts the call sites instantiate (as assertions in em_encl_ratio they took CVC4 2 s
   each; as lemmas their instances were not found any faster) */
/*@ ghost
  /@ requires valid: \valid_read(f) && \valid_read(c) && \valid_read(tl) && \valid_read(th);
     requires corner: 0 <= EmVal(c) && 0 <= EmVal(tl) && 0 <= EmVal(f) <= 1 &&
                      EmVal(f) * (EmVal(c) + EmVal(th)) <= EmVal(c);
     assigns \nothing;
     ensures from: \forall real a, b; EmVal(c) <= a ==>
                     RatioBelow(EmVal(f), a, b, EmVal(tl), EmVal(th));
  @/
  static void ratio_below_from(mpfr_srcptr f, mpfr_srcptr c, mpfr_srcptr tl, mpfr_srcptr th) { }
*/
/*@ ghost
  /@ requires valid: \valid_read(f) && \valid_read(c) && \valid_read(tl) && \valid_read(th);
     requires corner: 0 <= EmVal(tl) && 0 <= EmVal(f) <= 1 &&
                      EmVal(f) * (EmVal(c) + EmVal(tl)) >= EmVal(c);
     assigns \nothing;
     ensures to: \forall real a, b; 0 <= a && b <= EmVal(c) ==>
                   RatioAbove(EmVal(f), a, b, EmVal(tl), EmVal(th));
  @/
  static void ratio_above_to(mpfr_srcptr f, mpfr_srcptr c, mpfr_srcptr tl, mpfr_srcptr th) { }
*/

void em_encl_ratio(mpfr_ptr flo, mpfr_ptr fhi, mpfr_ptr d, mpfr_srcptr clo, mpfr_srcptr chi,
                   mpfr_srcptr tlo, mpfr_srcptr thi)
{
    if (em_mpfr_is_zero(chi)) { /* C = 0, so F = 0 */
        em_mpfr_set_01(flo, 0);
        em_mpfr_set_01(fhi, 0);
        /*@ assert zero: \forall real c, t; EmVal{Pre}(clo) <= c <= EmVal{Pre}(chi) && c + t > 0 ==>
                           c / (c + t) == 0; */
        //@ assert below: RatioBelow(EmVal(flo), EmVal{Pre}(clo), EmVal{Pre}(chi), EmVal{Pre}(tlo), EmVal{Pre}(thi));
        //@ assert above: RatioAbove(EmVal(fhi), EmVal{Pre}(clo), EmVal{Pre}(chi), EmVal{Pre}(tlo), EmVal{Pre}(thi));
        return;
    }
    /* F is increasing in C and decreasing in T: the lower end at (clo, thi), the upper at
       (chi, tlo), each denominator rounded away from the quotient's side */
    if (em_mpfr_is_zero(clo))
        em_mpfr_set_01(flo, 0);
    else
        ratio_lo(flo, d, clo, thi);
    /* each end's facts first, then one product at the box's corner, which the lemma turns
       into the end's clause (the clause at once took CVC4 2.7 s) */
    /*@ assert lo_end: 0 <= EmVal(flo) <= 1 && (EmVal(flo) == 0 ||
          (EmVal{Pre}(clo) + EmVal{Pre}(thi) <= EmVal(d) && EmVal(flo) * EmVal(d) <= EmVal{Pre}(clo))); */
    //@ assert lo_corner: EmVal(flo) * (EmVal{Pre}(clo) + EmVal{Pre}(thi)) <= EmVal{Pre}(clo);
    //@ assert below: RatioBelow(EmVal(flo), EmVal{Pre}(clo), EmVal{Pre}(chi), EmVal{Pre}(tlo), EmVal{Pre}(thi));
    //@ ghost ratio_below_from(flo, clo, tlo, thi);
    /*@ assert below_from: \forall real a, b; 0 <= EmVal{Pre}(clo) <= a ==>
          RatioBelow(EmVal(flo), a, b, EmVal{Pre}(tlo), EmVal{Pre}(thi)); */
    //@ assert hi_args: EmVal(chi) == EmVal{Pre}(chi) && EmVal(tlo) == EmVal{Pre}(tlo);
    ratio_hi(fhi, d, chi, tlo);
    /*@ assert hi_end: 0 <= EmVal(fhi) <= 1 && (EmVal(fhi) == 1 ||
          (EmVal(d) <= EmVal{Pre}(chi) + EmVal{Pre}(tlo) && EmVal(fhi) * EmVal(d) >= EmVal{Pre}(chi))); */
    //@ assert hi_corner: EmVal(fhi) * (EmVal{Pre}(chi) + EmVal{Pre}(tlo)) >= EmVal{Pre}(chi);
    //@ assert above: RatioAbove(EmVal(fhi), EmVal{Pre}(clo), EmVal{Pre}(chi), EmVal{Pre}(tlo), EmVal{Pre}(thi));
    //@ ghost ratio_above_to(fhi, chi, tlo, thi);
    /*@ assert above_to: \forall real a, b; 0 <= a && b <= EmVal{Pre}(chi) ==>
          RatioAbove(EmVal(fhi), a, b, EmVal{Pre}(tlo), EmVal{Pre}(thi)); */
}
