/* Input of proofs/acsl/gen.py: one function whose postconditions mention every ACSL
   definition of spec/ that a Why3 theorem uses.  WP is run on it with -wp-gen (goals
   generated, never proved: these postconditions are not meant to hold) and prints, for
   Why3, the theories of the definitions those goals need; gen.py keeps exactly those
   theories (proofs/acsl/Acsl.mlw).  A definition missing here is missing there, and the
   Why3 files that use it do not load. */
#include <stddef.h>
#include <stdint.h>
#include "spec/Count.acsl"
#include "spec/Frequency.acsl"
#include "spec/Neighbours.acsl"
#include "spec/Rank.acsl"
#include "spec/Revenue.acsl"
#include "spec/ScoreRR.acsl"
#include "spec/ScoreLaplace.acsl"
#include "spec/Sum.acsl"
#include "spec/Selection.acsl"
#include "spec/ExactSelection.acsl"

/*@ assigns \nothing;
    ensures count: Count(a, n, v) == x;
    ensures frequency: Frequency(a, n, v) == x && MaxNorm(a, n, k, v) == x;
    ensures neighbours: SubstAt(a, b, n, j) && InsertAt(a, n, b, j) &&
      SubstAt64(c, d, n, j) && InsertAt64(c, n, d, j);
    ensures rank: MedianScore(c, n, v) == x && QuantileScore(c, n, v, k, j) == x;
    ensures revenue: Revenue(c, n, v) == x;
    ensures misc: RRScore(x, v, k, j) == n && LaplaceScore(x, v) == n;
    ensures selection: Selected(w, n, v, x);
    ensures exact: ExactDecision(w, lo, n, v, k, x);
 */
void acsl_probe(int *a, int *b, int64_t *c, int64_t *d, uint64_t *w, uint64_t *lo,
                int n, int v, int k, int j, int x)
{
}
