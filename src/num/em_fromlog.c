/* em_fromlog.c: a positive value below MPFR's exponent range, correctly rounded to K
 * decimal digits from bounds on its natural logarithm (em_fromlog.h). */
#include "num/em_fromlog.h"

#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "num/em_format.h"

int em_round_from_log(em_round_bounds_fn lnb, void *ctx, int K, mpfr_prec_t p0, em_cval *out)
{
    if (K < 1)
        return EM_ERR_DOMAIN;
    char *d1 = malloc((size_t)K + 16), *d2 = malloc((size_t)K + 16);
    if (!d1 || !d2) {
        free(d1);
        free(d2);
        return EM_ERR_NOMEM;
    }
    mpz_t e1, e2;
    mpz_inits(e1, e2, (mpz_ptr)0);
    int st = EM_ERR_UNDECIDED;
    /* Ziv: the value is never a decimal boundary when the caller says so (transcendental);
     * the precision doubles up to EM_ROUND_MAX_PREC, past that: undecided, not a guess */
    for (mpfr_prec_t p = p0 + 4 * K + 64; p <= EM_ROUND_MAX_PREC; p *= 2) {
        mpfr_t alo, ahi;
        mpfr_inits2(p, alo, ahi, (mpfr_ptr)0);
        int s = lnb(ctx, p, alo, ahi);
        int same = 0;
        /* v = exp(ln v): the decision of em_round_exp's, on 10^(ln v / ln 10) */
        if (s == EM_OK && mpfr_number_p(alo) && mpfr_number_p(ahi))
            same = em_round_exp_digits(alo, ahi, K, d1, d2, e1, e2);
        mpfr_clears(alo, ahi, (mpfr_ptr)0);
        if (s != EM_OK && s != EM_ERR_UNDECIDED) {
            st = s;
            break;
        }
        if (same) {
            em_cval_clear(out);
            out->str = em_format_decimal(0, d1, e1);
            out->d = 0.0; /* below MPFR's range: far below the least double */
            out->flags = 0;
            st = out->str ? EM_OK : EM_ERR_NOMEM;
            break;
        }
    }
    mpz_clears(e1, e2, (mpz_ptr)0);
    free(d1);
    free(d2);
    return st;
}
