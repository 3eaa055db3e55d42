/* em_round_decide: the decision of correct rounding, on the integer grid.  Whether every
   real of an enclosure rounds (half to even) to one integer, given the codes of the
   enclosure's ends (spec/RoundDecide.acsl: 2 floor(2t) + sticky bit); the caller scales
   the K-digit grid to the integers and reduces the codes by a multiple of 8
   (src/num/em_round.c).  Logic: spec/RoundDecide.acsl.  Tests: tests/test_round_decide.c. */
#ifndef EM_ROUND_DECIDE_H
#define EM_ROUND_DECIDE_H
#include <stdint.h>
#include "spec/RoundDecide.acsl"

/* The largest code difference the decision takes: a wider enclosure spans a whole grid step
   and is never decided. */
#define EM_ROUND_DECIDE_SPAN 16

/* 1 when every real between one of code a and one of code b rounds to *m (then *m is
   that integer), else 0 ("undecided": the caller refines the enclosure).  A single point
   (a == b, a tie included) is always decided. */
/*@ requires valid_m: \valid(m);
    requires codes: 0 <= a <= b && b - a <= EM_ROUND_DECIDE_SPAN && a < 8;
    assigns *m;
    ensures bool: \result == 0 || \result == 1;
    ensures decided: \result == 1 ==> DecidedBy(a, b, *m);
    ensures exact: \result == 1 <==> RoundCode(a) == RoundCode(b);
    ensures value: \result == 1 ==> *m == RoundCode(a);
 */
int em_round_decide(int64_t a, int64_t b, int64_t *m);

#endif
