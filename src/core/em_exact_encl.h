/* em_exact_encl: the exact sampler's enclosure arithmetic, proven by WP from MPFR's
   directed-rounding contracts (src/trusted/em_mpfr_acsl.h, M1 of src/trusted/em_mpfr.h).
   Logic: spec/ExactEnclosure.acsl.  Used by src/oracle/em_exact_levels.c, which computes
   the weights' enclosures, runs the downward pass of T checkpoints and carries the sums
   from block to block, and calls em_encl_suffix and em_encl_upward for the loops of each
   block.  Tests: tests/test_exact*.c.

   The chain, index by index (F(i) = C(i) / (C(i) + T(i)), spec/ExactEnclosure.acsl):
   em_encl_add keeps [Clo, Chi] around C(i) and [Tlo, Thi] around T(i) as each weight's
   enclosure is added; em_encl_ratio turns them into [Flo, Fhi] around F(i); em_encl_words
   into the 63-bit words lo <= F(i) 2^63 <= hi; em_encl_monotone makes the words monotone,
   each a word of a neighbour on the right side, so they still bracket a nondecreasing F,
   and em_exact_select's premises (ordered, monotone) hold. */
#ifndef EM_EXACT_ENCL_H
#define EM_EXACT_ENCL_H
#include <stddef.h>
#include <stdint.h>
#include "trusted/em_mpfr_acsl.h"
#include "spec/ExactEnclosure.acsl"

/* [lo, hi] := [RNDD(lo + wlo), RNDU(hi + whi)]: an enclosure of a partial sum and one of
   the next weight give one of the next partial sum. */
/*@ requires valid: \valid(lo) && \valid(hi) && \valid_read(wlo) && \valid_read(whi);
    requires sep: \separated(lo, hi, wlo, whi);
    requires nonneg: EmVal(lo) >= 0 && EmVal(wlo) >= 0 && EmVal(hi) >= 0 && EmVal(whi) >= 0;
    requires bounded: EmVal(hi) <= 1.0e300 && EmVal(whi) <= 1.0e300;
    assigns *lo, *hi;
    ensures encl: SumEncl(EmVal(lo), EmVal(hi), EmVal{Pre}(lo), EmVal{Pre}(hi),
                          EmVal{Pre}(wlo), EmVal{Pre}(whi));
    ensures nonneg: EmVal(lo) >= 0 && EmVal(hi) >= 0;
 */
void em_encl_add(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr wlo, mpfr_srcptr whi);

/* [flo, fhi] around F = C / (C + T) from [clo, chi] around C and [tlo, thi] around T:
     flo = RNDD(clo / RNDU(clo + thi)) (0 when clo = 0),
     fhi = RNDU(chi / RNDD(chi + tlo)),  both 0 when chi = 0 (then C = 0).
   d is scratch. */
/*@ requires valid: \valid(flo) && \valid(fhi) && \valid(d) && \valid_read(clo) &&
                    \valid_read(chi) && \valid_read(tlo) && \valid_read(thi);
    requires sep: \separated(flo, fhi, d, clo, chi, tlo, thi);
    requires nonneg: EmVal(clo) >= 0 && EmVal(chi) >= 0 && EmVal(tlo) >= 0 && EmVal(thi) >= 0;
    requires bounded: EmVal(clo) <= 1.0e300 && EmVal(thi) <= 1.0e300;
    assigns *flo, *fhi, *d;
    ensures below: RatioBelow(EmVal(flo), EmVal{Pre}(clo), EmVal{Pre}(chi), EmVal{Pre}(tlo),
                              EmVal{Pre}(thi));
    ensures above: RatioAbove(EmVal(fhi), EmVal{Pre}(clo), EmVal{Pre}(chi), EmVal{Pre}(tlo),
                              EmVal{Pre}(thi));
    ensures unit: 0 <= EmVal(flo) <= 1 && 0 <= EmVal(fhi) <= 1;
    ensures below_from: \forall real a, b; 0 <= EmVal{Pre}(clo) <= a ==>
      RatioBelow(EmVal(flo), a, b, EmVal{Pre}(tlo), EmVal{Pre}(thi));
    ensures above_to: \forall real a, b; 0 <= a && b <= EmVal{Pre}(chi) ==>
      RatioAbove(EmVal(fhi), a, b, EmVal{Pre}(tlo), EmVal{Pre}(thi));
    ensures frame: \forall mpfr_srcptr x; \separated(x, flo) && \separated(x, fhi) &&
                     \separated(x, d) ==> EmVal(x) == EmVal{Pre}(x);
 */
void em_encl_ratio(mpfr_ptr flo, mpfr_ptr fhi, mpfr_ptr d, mpfr_srcptr clo, mpfr_srcptr chi,
                   mpfr_srcptr tlo, mpfr_srcptr thi);

/* A block's T sums, downward: [tlo[k], thi[k]] := [RNDD(tlo[k + 1] + wlo[k]),
   RNDU(thi[k + 1] + whi[k])] for k = m - 1 .. 0, from [tlo[m], thi[m]] (T after the
   block), as em_encl_add would make them one by one.  Each upper sum is checked against
   cap (the upward rounding's contract bounds it from below only, and the next sum's
   operand must be at most 10^300); 1 if one exceeds it, the sums then unfinished (the
   oracle's never do: weights <= 1, fewer than 2^64, far below its cap of 2^996). */
/*@ requires valid: \valid(tlo + (0 .. m)) && \valid(thi + (0 .. m)) &&
                    \valid_read(wlo + (0 .. m - 1)) && \valid_read(whi + (0 .. m - 1)) &&
                    \valid_read(cap);
    requires sep: \separated(tlo + (0 .. m), thi + (0 .. m), wlo + (0 .. m - 1),
                             whi + (0 .. m - 1), cap);
    requires nonneg: 0 <= EmVal(tlo + m) && 0 <= EmVal(thi + m) &&
                     \forall integer j; 0 <= j < m ==> 0 <= EmVal(wlo + j) && 0 <= EmVal(whi + j);
    requires bounded: EmVal(cap) <= 1.0e300 &&
                      \forall integer j; 0 <= j < m ==> EmVal(whi + j) <= 1.0e300;
    assigns tlo[0 .. m - 1], thi[0 .. m - 1];
    ensures sums: \result == 0 ==> \forall integer k; 0 <= k <= m ==>
      0 <= EmVal(tlo + k) && 0 <= EmVal(thi + k) <= EmVal{Pre}(cap) &&
      EmVal(tlo + k) <= EmVal{Pre}(tlo + m) + EnclSuffix{Pre}(wlo, k, m) &&
      EmVal(thi + k) >= EmVal{Pre}(thi + m) + EnclSuffix{Pre}(whi, k, m);
 */
int em_encl_suffix(size_t m, mpfr_ptr tlo, mpfr_ptr thi, mpfr_srcptr wlo, mpfr_srcptr whi,
                   mpfr_srcptr cap);

/* A block's C sums, upward, with each index's F enclosure: for k = 0 .. m - 1,
   [rlo[k], rhi[k]] := em_encl_ratio of [clo, chi] and [tlo[k], thi[k]], then
   [clo, chi] := [RNDD(clo + wlo[k]), RNDU(chi + whi[k])] (em_encl_add's two calls), so
   [clo, chi] enters as C(st) and leaves as C(st + m).  rlo[k] and rhi[k] then hold F for
   every C between the sums of the ends from the entering [clo, chi], and every T in
   [tlo[k], thi[k]]: with C(st) in the entering enclosure and each weight between its
   ends, F(st + k).  1 if chi exceeds cap before an index (as em_encl_suffix; never in the
   oracle). */
/*@ requires valid: \valid(rlo + (0 .. m - 1)) && \valid(rhi + (0 .. m - 1)) && \valid(d) &&
                    \valid(clo) && \valid(chi) && \valid_read(tlo + (0 .. m - 1)) &&
                    \valid_read(thi + (0 .. m - 1)) && \valid_read(wlo + (0 .. m - 1)) &&
                    \valid_read(whi + (0 .. m - 1)) && \valid_read(cap);
    requires sep: \separated(rlo + (0 .. m - 1), rhi + (0 .. m - 1), d, clo, chi,
                             tlo + (0 .. m - 1), thi + (0 .. m - 1), wlo + (0 .. m - 1),
                             whi + (0 .. m - 1), cap);
    requires c: 0 <= EmVal(clo) <= EmVal(chi);
    requires t: \forall integer j; 0 <= j < m ==>
                  0 <= EmVal(tlo + j) && 0 <= EmVal(thi + j) <= 1.0e300;
    requires w: \forall integer j; 0 <= j < m ==>
                  0 <= EmVal(wlo + j) <= EmVal(whi + j) <= 1.0e300;
    requires cap: EmVal(cap) <= 1.0e300;
    assigns rlo[0 .. m - 1], rhi[0 .. m - 1], *d, *clo, *chi;
    ensures below: \result == 0 ==> \forall integer k; 0 <= k < m ==>
      RatioBelow(EmVal(rlo + k), EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, k),
                 EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, k), EmVal{Pre}(tlo + k),
                 EmVal{Pre}(thi + k));
    ensures above: \result == 0 ==> \forall integer k; 0 <= k < m ==>
      RatioAbove(EmVal(rhi + k), EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, k),
                 EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, k), EmVal{Pre}(tlo + k),
                 EmVal{Pre}(thi + k));
    ensures unit: \result == 0 ==> \forall integer k; 0 <= k < m ==>
      0 <= EmVal(rlo + k) <= 1 && 0 <= EmVal(rhi + k) <= 1;
    ensures sums: \result == 0 ==> 0 <= EmVal(clo) <= EmVal(chi) &&
      EmVal(clo) <= EmVal{Pre}(clo) + EnclPrefix{Pre}(wlo, m) &&
      EmVal(chi) >= EmVal{Pre}(chi) + EnclPrefix{Pre}(whi, m);
 */
int em_encl_upward(size_t m, mpfr_ptr rlo, mpfr_ptr rhi, mpfr_ptr d, mpfr_ptr clo,
                   mpfr_ptr chi, mpfr_srcptr tlo, mpfr_srcptr thi, mpfr_srcptr wlo,
                   mpfr_srcptr whi, mpfr_srcptr cap);

/* *lo = floor(2^63 flo), *hi = ceil(2^63 fhi) (t is scratch). */
/*@ requires valid: \valid(lo) && \valid(hi) && \valid(t) && \valid_read(flo) && \valid_read(fhi);
    requires sep: \separated(lo, hi) && \separated(t, flo, fhi);
    requires unit: 0 <= EmVal(flo) <= 1 && 0 <= EmVal(fhi) <= 1;
    assigns *lo, *hi, *t;
    ensures lo: *lo <= EM_ENCL_SCALE * EmVal{Pre}(flo);
    ensures hi: *hi >= EM_ENCL_SCALE * EmVal{Pre}(fhi);
    ensures scale: *hi <= EM_ENCL_SCALE;
 */
void em_encl_words(uint64_t *lo, uint64_t *hi, mpfr_ptr t, mpfr_srcptr flo, mpfr_srcptr fhi);

/* lo[i] := max(lo[0 .. i]), hi[i] := min(hi[i .. n]). */
/*@ requires n_fits: n < SIZE_MAX;
    requires valid: \valid(lo + (0 .. n)) && \valid(hi + (0 .. n));
    requires sep: \separated(lo + (0 .. n), hi + (0 .. n));
    assigns lo[0 .. n], hi[0 .. n];
    ensures lo_monotone: \forall integer i; 0 < i <= n ==> lo[i - 1] <= lo[i];
    ensures hi_monotone: \forall integer i, j; 0 <= i <= j <= n ==> hi[i] <= hi[j];
    ensures lo_max: \forall integer i; 0 <= i <= n ==> lo[i] == MaxUpTo{Pre}(lo, i);
    ensures hi_min: \forall integer i; 0 <= i <= n ==> hi[i] == MinFrom{Pre}(hi, i, n);
 */
void em_encl_monotone(size_t n, uint64_t *lo, uint64_t *hi);

#endif
