/* Proofs (by WP) of the ghost lemma functions declared in ScoreCount_lemmas.h.
   A loop over i is an induction over the first i rows (or categories). */
#include "proofs/lemmas/ScoreCount_lemmas.h"

/*@ ghost
  void Count_Range(const int *a, size_t n)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant bounded: \forall integer m, v; 0 <= m <= i ==> 0 <= Count(a, m, v) <= m;
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
  }
*/

/*@ ghost
  void Count_Own(const int *a, size_t n)
  {
    /@ loop invariant range: 1 <= i <= n;
       loop invariant own: Count(a, i, a[0]) >= 1;
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 1; i < n; i++) { }
  }
*/

/*@ ghost
  void Count_Subst(const int *a, const int *b, size_t n, size_t j)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant before: i <= j ==> \forall integer v; Count(b, i, v) == Count(a, i, v);
       loop invariant after: i > j ==> \forall integer v;
         Count(b, i, v) == Count(a, i, v) - (a[j] == v ? 1 : 0) + (b[j] == v ? 1 : 0);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) { }
  }
*/

/*@ ghost
  void Count_Insert(const int *a, const int *b, size_t n, size_t j)
  {
    /@ loop invariant range: 0 <= i <= n;
       loop invariant before: i <= j ==> \forall integer v; Count(b, i, v) == Count(a, i, v);
       loop invariant after: i >= j ==> \forall integer v;
         Count(b, i + 1, v) == Count(a, i, v) + (b[j] == v ? 1 : 0);
       loop assigns i;
       loop variant n - i; @/
    for (size_t i = 0; i < n; i++) {
      /@ assert step_a: \forall integer v; Count(a, i + 1, v) == Count(a, i, v) + (a[i] == v ? 1 : 0); @/
      /@ assert step_b: \forall integer v; Count(b, i + 2, v) == Count(b, i + 1, v) + (b[i + 1] == v ? 1 : 0); @/
    }
  }
*/

/*@ ghost
  void Frequency_Subst(const int *a, const int *b, size_t n, size_t j, int v)
  {
    Count_Subst(a, b, n, j);
    /@ assert count: n > 0 && -1 <= Count(b, n, v) - Count(a, n, v) <= 1; @/
  }
*/

/*@ ghost
  void Frequency_Insert(const int *a, const int *b, size_t n, size_t j, int v)
  {
    Count_Insert(a, b, n, j);
    Count_Range(a, n);
    /@ assert count: 0 <= Count(a, n, v) <= n &&
         Count(a, n, v) <= Count(b, n + 1, v) <= Count(a, n, v) + 1; @/
    /@ assert half: 1.0 / (n + 1) <= 0.5; @/
  }
*/

/*@ ghost
  void MaxCount_Props(const int *a, size_t n, size_t k)
  {
    Count_Range(a, n);
    /@ loop invariant range: 0 <= m <= k;
       loop invariant upper: \forall integer r; 0 <= r < m ==> Count(a, n, r) <= MaxCount(a, n, m);
       loop invariant attained: m >= 1 ==> \exists integer r; 0 <= r < m && Count(a, n, r) == MaxCount(a, n, m);
       loop invariant bounded: 0 <= MaxCount(a, n, m) <= n;
       loop assigns m;
       loop variant k - m; @/
    for (size_t m = 0; m < k; m++) {
      /@ assert grow: Count(a, n, m) <= MaxCount(a, n, m + 1) && MaxCount(a, n, m) <= MaxCount(a, n, m + 1); @/
    }
  }
*/

/*@ ghost
  void MaxNorm_Range(const int *a, size_t n, size_t k, int v)
  {
    MaxCount_Props(a, n, k);
    Count_Range(a, n);
    /@ assert count: 0 <= v < k ==> 0 <= Count(a, n, v) <= MaxCount(a, n, k); @/
  }
*/

/*@ ghost
  void MaxNorm_Sensitivity(const int *a, size_t na, const int *b, size_t nb, size_t k, int v)
  {
    MaxNorm_Range(a, na, k, v);
    MaxNorm_Range(b, nb, k, v);
  }
*/

/*@ ghost
  void MaxCount_Insert(const int *a, const int *b, size_t n, size_t j, size_t k)
  {
    Count_Insert(a, b, n, j);
    /@ loop invariant range: 0 <= m <= k;
       loop invariant upper: \forall integer r; 0 <= r < m ==> Count(a, n, r) <= MaxCount(a, n, m);
       loop invariant max_step: MaxCount(b, n + 1, m) == MaxCount(a, n, m) +
         (0 <= b[j] < m && Count(a, n, b[j]) == MaxCount(a, n, m) ? 1 : 0);
       loop assigns m;
       loop variant k - m; @/
    for (size_t m = 0; m < k; m++) {
      /@ assert new_count: Count(b, n + 1, m) == Count(a, n, m) + (b[j] == m ? 1 : 0); @/
    }
  }
*/

/*@ ghost
  void MaxNorm_Insert_At(const int *a, const int *b, size_t n, size_t j, size_t k, size_t v)
  {
    Count_Insert(a, b, n, j);
    Count_Range(a, n);
    MaxCount_Props(a, n, k);
    MaxCount_Insert(a, b, n, j, k);
    /@ assert counts: 0 <= Count(a, n, v) && Count(b, n + 1, v) == Count(a, n, v) + (b[j] == v ? 1 : 0); @/
    /@ assert max_a: 0 <= v < k ==> Count(a, n, v) <= MaxCount(a, n, k); @/
    /@ assert top: JoinsTop(a, n, b, j, k) ==> MaxCount(b, n + 1, k) == MaxCount(a, n, k) + 1; @/
    /@ assert top_same: JoinsTop(a, n, b, j, k) && v == b[j] ==>
         Count(b, n + 1, v) == MaxCount(b, n + 1, k) && Count(a, n, v) == MaxCount(a, n, k); @/
    /@ assert top_other: JoinsTop(a, n, b, j, k) && v != b[j] ==> Count(b, n + 1, v) == Count(a, n, v); @/
    /@ assert same: !JoinsTop(a, n, b, j, k) && MaxCount(a, n, k) > 0 ==>
         MaxCount(b, n + 1, k) == MaxCount(a, n, k); @/
    /@ assert empty: MaxCount(a, n, k) <= 0 ==> MaxNorm(a, n, k, v) == 0.0; @/
  }
*/

/*@ ghost
  void MaxNorm_Insert(const int *a, const int *b, size_t n, size_t j, size_t k)
  {
    /@ loop invariant range: 0 <= v <= k;
       loop invariant down: JoinsTop(a, n, b, j, k) ==>
         \forall integer w; 0 <= w < v ==> MaxNorm(b, n + 1, k, w) <= MaxNorm(a, n, k, w);
       loop invariant up: !JoinsTop(a, n, b, j, k) ==>
         \forall integer w; 0 <= w < v ==> MaxNorm(b, n + 1, k, w) >= MaxNorm(a, n, k, w);
       loop assigns v;
       loop variant k - v; @/
    for (size_t v = 0; v < k; v++)
      MaxNorm_Insert_At(a, b, n, j, k, v);
  }
*/

/*@ ghost
  void MaxNorm_Tight(void)
  {
    int x[1] = {0};
    int y[2] = {0, 1};
    int z[2] = {0, 0};
    /@ assert add_pair: InsertAt(&x[0], 1, &y[0], 1); @/
    /@ assert add_jump: MaxNorm(&x[0], 1, 2, 1) == 0.0 && MaxNorm(&y[0], 2, 2, 1) == 1.0; @/
    /@ assert subst_pair: SubstAt(&y[0], &z[0], 2, 1); @/
    /@ assert subst_jump: MaxNorm(&y[0], 2, 2, 1) == 1.0 && MaxNorm(&z[0], 2, 2, 1) == 0.0; @/
  }
*/
