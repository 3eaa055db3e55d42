/* em_rows: one int64_t stored beside int64_t rows, with the counts over the rows
   it keeps.  WP's typed memory model puts every int64_t in one memory, so after
   a store through another int64_t pointer it cannot tell, on its own, that
   CountLt, CountGt and CountGe of the rows are as they were: the ghost loop is
   that induction over the rows, once for every score of rows (the rank scores,
   revenue and their pieces over a range).  Internal; not installed.
   Logic: spec/Rank.acsl, spec/Revenue.acsl.  Tests: tests/test_score.c and
   tests/test_score_range.c, through the scores. */
#ifndef EM_ROWS_H
#define EM_ROWS_H
#include <stddef.h>
#include <stdint.h>
#include "spec/Rank.acsl"
#include "spec/Revenue.acsl"

/*@ requires valid_cell: \valid(cell);
    requires valid_rows: \valid_read(rows + (0 .. n - 1));
    requires separated: \separated(cell, rows + (0 .. n - 1));
    assigns *cell;
    ensures written: *cell == v;
    ensures lt: \forall integer c; CountLt(rows, n, c) == CountLt{Pre}(rows, n, c);
    ensures gt: \forall integer c; CountGt(rows, n, c) == CountGt{Pre}(rows, n, c);
    ensures ge: \forall integer c; CountGe(rows, n, c) == CountGe{Pre}(rows, n, c);
 */
static inline void em_rows_put(int64_t *cell, int64_t v, const int64_t *rows, size_t n)
{
    (void)rows; /* used by the ghost induction only */
    (void)n;
    *cell = v;
    /*@ ghost
      /@ loop invariant range: 0 <= i <= n;
         loop invariant lt: \forall integer c; CountLt(rows, i, c) == CountLt{Pre}(rows, i, c);
         loop invariant gt: \forall integer c; CountGt(rows, i, c) == CountGt{Pre}(rows, i, c);
         loop invariant ge: \forall integer c; CountGe(rows, i, c) == CountGe{Pre}(rows, i, c);
         loop assigns i;
         loop variant n - i; @/
      for (size_t i = 0; i < n; i++) { }
    */
}

#endif
