/* Ghost lemma functions: sensitivity of count, frequency and max-normalised
   count (spec/Count.acsl, spec/Frequency.acsl) under the two neighbour
   relations of spec/Neighbours.acsl.  Each contract is the lemma; the loops in
   ScoreCount_lemmas.c are the proofs by induction, checked by WP.
   Summary (spec/README.md, "Scoring functions"):
     count        add/remove: Delta 1, monotone;  substitution: Delta 1.
     frequency    substitution (n public): Delta 1/n;
                  add/remove (n private): |c/n - c'/(n+1)| <= 1/(n+1).
     max-norm     any two datasets: Delta 1, attained under both relations
                  (MaxNorm_Tight); monotone under add/remove. */
#ifndef EM_SCORECOUNT_LEMMAS_H
#define EM_SCORECOUNT_LEMMAS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Count.acsl"
#include "spec/Frequency.acsl"
#include "spec/Neighbours.acsl"

/* ---- count */

/*@ ghost
  /@ assigns \nothing;
     ensures bounded: \forall integer m, v; 0 <= m <= n ==> 0 <= Count(a, m, v) <= m;
  @/
  void Count_Range(const int *a, size_t n);
*/

/* A non-empty dataset contains its first row. */
/*@ ghost
  /@ requires nonempty: n >= 1;
     assigns \nothing;
     ensures own: Count(a, n, a[0]) >= 1;
  @/
  void Count_Own(const int *a, size_t n);
*/

/*@ ghost
  /@ requires subst: SubstAt(a, b, n, j);
     assigns \nothing;
     ensures exact: \forall integer v;
       Count(b, n, v) == Count(a, n, v) - (a[j] == v ? 1 : 0) + (b[j] == v ? 1 : 0);
     ensures sensitivity: \forall integer v; -1 <= Count(b, n, v) - Count(a, n, v) <= 1;
  @/
  void Count_Subst(const int *a, const int *b, size_t n, size_t j);
*/

/*@ ghost
  /@ requires insert: InsertAt(a, n, b, j);
     assigns \nothing;
     ensures exact: \forall integer v; Count(b, n + 1, v) == Count(a, n, v) + (b[j] == v ? 1 : 0);
     ensures monotone: \forall integer v; Count(a, n, v) <= Count(b, n + 1, v);
     ensures sensitivity: \forall integer v; 0 <= Count(b, n + 1, v) - Count(a, n, v) <= 1;
  @/
  void Count_Insert(const int *a, const int *b, size_t n, size_t j);
*/

/* ---- facts about RatioOf (spec/Frequency.acsl).  No induction: plain
   lemmas, proven by the SMT solvers on their own.  Stated over the function
   symbol RatioOf so that they apply to Frequency and MaxNorm without the
   solvers having to do non-linear arithmetic next to the recursive Count. */
/*@
  // facts about fractions of integers, each in the smallest context (before the others)
  lemma Frac_Half: \forall integer n; n >= 1 ==> 1.0 / (n + 1) <= 0.5;
  lemma Frac_Shrink: \forall integer c, n; n > 0 && 0 <= c <= n ==>
    0.0 <= (real)c / n - (real)c / (n + 1) <= 1.0 / (n + 1);
  lemma Frac_Succ: \forall integer c, n; n > 0 ==>
    (real)(c + 1) / (n + 1) == (real)c / (n + 1) + 1.0 / (n + 1);
  lemma Frac_Step: \forall integer x, y, n; n > 0 && x <= y + 1 ==>
    (real)x / n <= (real)y / n + 1.0 / n;
  lemma Frac_Mono: \forall integer x, y, n; n > 0 && x <= y ==> (real)x / n <= (real)y / n;
  lemma Frac_Unit: \forall integer c, m; m > 0 && 0 <= c <= m ==> 0.0 <= (real)c / m <= 1.0;
  lemma Frac_One: \forall integer m; m > 0 ==> (real)m / m == 1.0;
  // the same facts about RatioOf (linear consequences of the above)
  lemma RatioOf_Def: \forall integer c, d; d > 0 ==> RatioOf(c, d) == (real)c / d;
  lemma RatioOf_Add: \forall integer c, c2, n; n > 0 && 0 <= c <= n && c <= c2 <= c + 1 ==>
    \abs(RatioOf(c2, n + 1) - RatioOf(c, n)) <= 1.0 / (n + 1);
  lemma RatioOf_Sub: \forall integer x, y, n; n > 0 && -1 <= x - y <= 1 ==>
    \abs(RatioOf(x, n) - RatioOf(y, n)) <= 1.0 / n;
  lemma RatioOf_Unit: \forall integer c, m; 0 <= c <= m ==> 0.0 <= RatioOf(c, m) <= 1.0;
  lemma RatioOf_Num: \forall integer x, y, m; x <= y ==> RatioOf(x, m) <= RatioOf(y, m);
  lemma RatioOf_Den: \forall integer c, m; m > 0 && 0 <= c <= m ==> RatioOf(c, m + 1) <= RatioOf(c, m);
  lemma RatioOf_One: \forall integer m; m > 0 ==> RatioOf(m, m) == 1.0;
  lemma RatioOf_Nonneg: \forall integer c, m; c >= 0 ==> RatioOf(c, m) >= 0.0;
*/

/* ---- frequency */

/*@ ghost
  /@ requires subst: SubstAt(a, b, n, j);
     assigns \nothing;
     ensures sensitivity: \abs(Frequency(b, n, v) - Frequency(a, n, v)) <= 1.0 / n;
  @/
  void Frequency_Subst(const int *a, const int *b, size_t n, size_t j, int v);
*/

/* n private (add/remove): the change is at most 1/(n+1) <= 1/2 for n >= 1. */
/*@ ghost
  /@ requires insert: InsertAt(a, n, b, j);
     requires nonempty: n >= 1;
     assigns \nothing;
     ensures sensitivity: \abs(Frequency(b, n + 1, v) - Frequency(a, n, v)) <= 1.0 / (n + 1);
     ensures global: \abs(Frequency(b, n + 1, v) - Frequency(a, n, v)) <= 0.5;
  @/
  void Frequency_Insert(const int *a, const int *b, size_t n, size_t j, int v);
*/

/* ---- max count and max-normalised count */

/*@ ghost
  /@ assigns \nothing;
     ensures upper: \forall integer r; 0 <= r < k ==> Count(a, n, r) <= MaxCount(a, n, k);
     ensures attained: k >= 1 ==> \exists integer r; 0 <= r < k && Count(a, n, r) == MaxCount(a, n, k);
     ensures bounded: 0 <= MaxCount(a, n, k) <= n;
  @/
  void MaxCount_Props(const int *a, size_t n, size_t k);
*/

/*@ ghost
  /@ assigns \nothing;
     ensures range: 0 <= v < k ==> 0.0 <= MaxNorm(a, n, k, v) <= 1.0;
  @/
  void MaxNorm_Range(const int *a, size_t n, size_t k, int v);
*/

/* Any two datasets, hence both neighbour relations: Delta = 1. */
/*@ ghost
  /@ assigns \nothing;
     ensures sensitivity: 0 <= v < k ==> \abs(MaxNorm(b, nb, k, v) - MaxNorm(a, na, k, v)) <= 1.0;
  @/
  void MaxNorm_Sensitivity(const int *a, size_t na, const int *b, size_t nb, size_t k, int v);
*/

/* Adding a row raises the max count by one exactly when the row's category
   had the max count. */
/*@ ghost
  /@ requires insert: InsertAt(a, n, b, j);
     assigns \nothing;
     ensures max_step: MaxCount(b, n + 1, k) == MaxCount(a, n, k) +
       (0 <= b[j] < k && Count(a, n, b[j]) == MaxCount(a, n, k) ? 1 : 0);
  @/
  void MaxCount_Insert(const int *a, const int *b, size_t n, size_t j, size_t k);
*/

/* The two cases of MaxNorm_Insert: the new row joins a top category (every
   score falls or stays), or not (every score rises or stays). */
/*@
  predicate JoinsTop{L}(int *a, integer n, int *b, integer j, integer k) =
    MaxCount{L}(a, n, k) > 0 && 0 <= b[j] < k && Count{L}(a, n, b[j]) == MaxCount{L}(a, n, k);
*/

/*@ ghost
  /@ requires insert: InsertAt(a, n, b, j);
     assigns \nothing;
     ensures down: JoinsTop(a, n, b, j, k) && 0 <= v < k ==>
       MaxNorm(b, n + 1, k, v) <= MaxNorm(a, n, k, v);
     ensures up: !JoinsTop(a, n, b, j, k) && 0 <= v < k ==>
       MaxNorm(b, n + 1, k, v) >= MaxNorm(a, n, k, v);
  @/
  void MaxNorm_Insert_At(const int *a, const int *b, size_t n, size_t j, size_t k, size_t v);
*/

/* Monotone under add/remove: adding a row either lowers (or keeps) every
   score (the row joins a top category) or raises (or keeps) every score. */
/*@ ghost
  /@ requires insert: InsertAt(a, n, b, j);
     assigns \nothing;
     ensures monotone:
       (\forall integer v; 0 <= v < k ==> MaxNorm(b, n + 1, k, v) <= MaxNorm(a, n, k, v)) ||
       (\forall integer v; 0 <= v < k ==> MaxNorm(b, n + 1, k, v) >= MaxNorm(a, n, k, v));
  @/
  void MaxNorm_Insert(const int *a, const int *b, size_t n, size_t j, size_t k);
*/

/* The bound 1 cannot be improved: witnesses under each relation (k = 2).
   add/remove:   {0} -> {0, 1}:  MaxNorm(., 1) goes 0 -> 1;
   substitution: {0, 1} -> {0, 0}: MaxNorm(., 1) goes 1 -> 0. */
/*@ ghost
  /@ assigns \nothing; @/
  void MaxNorm_Tight(void);
*/
#endif
