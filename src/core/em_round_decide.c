#include "core/em_round_decide.h"

/* The rounding of every real of code c (all round alike: the code keeps the floor and
   the fraction's class). */
/*@ requires 0 <= c <= 8 + EM_ROUND_DECIDE_SPAN;
    assigns \nothing;
    ensures rounds: \result == RoundCode(c);
 */
static int64_t round_code(int64_t c)
{
    int64_t q = c / 4, r = c % 4;
    if (r < 2 || (r == 2 && q % 2 == 0))
        return q;
    return q + 1;
}

int em_round_decide(int64_t a, int64_t b, int64_t *m)
{
    int64_t ma = round_code(a), mb = round_code(b);
    *m = ma;
    /* rounding is monotone: both ends to ma, so every real between them */
    return ma == mb;
}
