/* em_mpfr: what the oracle's correct rounding takes of GMP and MPFR, as contracts.
   Trusted, not proven (proofs/TRUSTED.md, entry "MPFR and GMP"): MPFR documents correct
   rounding in every mode for every function below, and GMP's integer functions are exact.
   The decision itself is proven (src/core/em_round_decide.h); these contracts are what
   connects it to a real number.  tests/test_mpfr_contract.c checks each one against an
   independent evaluation (exact rationals, rational Taylor series with a remainder bound).

   Notation: [v] is the real value of an MPFR number v; p its precision; for a real y,
   down_p(y) is the largest number of p bits <= y, up_p(y) the smallest >= y (both in the
   exponent range em_range_enter sets, src/num/em_bounds.h).

   M1 directed rounding.  For f one of exp, exp10, expm1, log, log_ui, log1p (x in the
      domain), add, sub, mul, div (and their _ui, _z, _q, _2ui variants), set_q, sqrt:
        mpfr_f(r, args, MPFR_RNDD) sets [r] = down_p(f([args])),
        mpfr_f(r, args, MPFR_RNDU) sets [r] = up_p(f([args])),
      hence [r_D] <= f <= [r_U]: every enclosure lo <= v <= hi the oracle builds from these
      calls (its bounds callbacks, em_rval in src/num/em_round.h; the exact sampler's
      cumulative bounds) holds for the exact real v.
   M2 exact reading.  For a regular (non-zero, finite) x of precision p, with
      n = ceil(p / GMP_NUMB_BITS) limbs at mpfr_custom_get_significand(x), the top one
      non-zero, read as the integer M: |[x]| = M 2^(mpfr_get_exp(x) - n GMP_NUMB_BITS).
      em_mpfr_sig below; the proven decision's inputs are computed from M and that exponent.
   M3 exact integers.  mpz_mul, mpz_mul_2exp, mpz_fdiv_q_2exp, mpz_fdiv_qr, mpz_fdiv_q_ui,
      mpz_fdiv_ui, mpz_tstbit, mpz_scan1, mpz_add_ui, mpz_sub, mpz_cmp compute the exact
      integer results (floor division), for operands of any size; so do the limb-array
      forms em_dec10 uses at small sizes (mpn_mul, mpn_rshift, mpn_copyi, mpn_sub,
      mpn_add_1, mpn_divrem_1, mpn_cmp).
   M4 decimal conversion.  mpfr_get_str(d, &e, 10, K, x, MPFR_RNDN) for regular x writes the
      K-digit decimal nearest to [x], ties to even: [x] rounds to 0.d 10^e.  Used where the
      proven decision does not reach (decimal exponents beyond em_dec10's scales, and the
      walk's starting point, src/num/em_round.c). */
#ifndef EM_TRUSTED_MPFR_H
#define EM_TRUSTED_MPFR_H
#include <gmp.h>
#include <mpfr.h>

/* M2: |x| = Mx 2^result for a regular x, Mx the significand read in place (no copy;
   mpz_roinit_n needs the top limb non-zero, which MPFR keeps). */
static inline mpfr_exp_t em_mpfr_sig(mpfr_srcptr x, mpz_t Mx)
{
    const mp_size_t nl = (mp_size_t)((mpfr_get_prec(x) - 1) / GMP_NUMB_BITS + 1);
    mpz_roinit_n(Mx, (const mp_limb_t *)mpfr_custom_get_significand(x), nl);
    return mpfr_get_exp(x) - (mpfr_exp_t)nl * GMP_NUMB_BITS;
}

#endif
