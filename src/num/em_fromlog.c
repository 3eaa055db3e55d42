/* em_fromlog.c: a positive value below MPFR's exponent range, correctly rounded to K
 * decimal digits from bounds on its natural logarithm (em_fromlog.h). */
#include "num/em_fromlog.h"

#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "num/em_format.h"

/* K digits of 10^f for f in [0, 1), rounded up or down first, and the decade carry */
static void digits_of(const mpfr_t x, int up, int K, char *d, mpz_t e)
{
    mpfr_prec_t p = mpfr_get_prec(x);
    mpfr_t fl, f, M;
    mpfr_inits2(p, fl, f, M, (mpfr_ptr)0);
    mpfr_floor(fl, x);             /* exact */
    mpfr_sub(f, x, fl, MPFR_RNDN); /* exact: 0 <= f < 1 */
    mpfr_exp10(M, f, up ? MPFR_RNDU : MPFR_RNDD);
    mpfr_get_z(e, fl, MPFR_RNDN);
    mpfr_exp_t em;
    mpfr_get_str(d, &em, 10, (size_t)K, M, MPFR_RNDN); /* M in [1, 10]: em is 1 or 2 */
    if (em >= 0)
        mpz_add_ui(e, e, (unsigned long)em);
    else
        mpz_sub_ui(e, e, (unsigned long)(-em));
    mpfr_clears(fl, f, M, (mpfr_ptr)0);
}

int em_round_from_log(em_round_bounds_fn lnb, void *ctx, int K, mpfr_prec_t p0, em_cval *out)
{
    if (K < 1)
        return EM_ERR_DOMAIN;
    char *d1 = malloc((size_t)K + 8), *d2 = malloc((size_t)K + 8);
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
        mpfr_t alo, ahi, l10lo, l10hi, xlo, xhi;
        mpfr_inits2(p, alo, ahi, l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
        int s = lnb(ctx, p, alo, ahi);
        int same = 0;
        if (s == EM_OK && mpfr_number_p(alo) && mpfr_number_p(ahi)) {
            mpfr_log_ui(l10lo, 10, MPFR_RNDD);
            mpfr_log_ui(l10hi, 10, MPFR_RNDU);
            mpfr_div(xlo, alo, mpfr_sgn(alo) < 0 ? l10lo : l10hi, MPFR_RNDD);
            mpfr_div(xhi, ahi, mpfr_sgn(ahi) < 0 ? l10hi : l10lo, MPFR_RNDU);
            digits_of(xlo, 0, K, d1, e1);
            digits_of(xhi, 1, K, d2, e2);
            same = mpz_cmp(e1, e2) == 0 && strcmp(d1, d2) == 0;
        }
        mpfr_clears(alo, ahi, l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
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
