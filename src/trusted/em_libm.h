/* em_libm: the two libm facts the float module relies on, as contracts.
   Trusted, not proven (proofs/TRUSTED.md, entry "libm"): glibc's exp and log are
   faithfully rounded and monotone, so these bounds hold for every argument in
   range; tests/test_libm.c checks them at the ends and across the range. */
#ifndef EM_LIBM_H
#define EM_LIBM_H

/* exp(x) for x in [-800, 0]: a double in [0, 1], exactly 1 at 0. */
/*@ requires range: \le_double((double)-800.0, x) && \le_double(x, (double)0.0);
    assigns \nothing;
    ensures range: \le_double((double)0.0, \result) && \le_double(\result, (double)1.0);
    ensures one: \eq_double(x, (double)0.0) ==> \eq_double(\result, (double)1.0);
 */
double em_exp_nonpos(double x);

/* log(x) for x in [1, 2^31]: a double in [0, 22]. */
/*@ requires range: \le_double((double)1.0, x) && \le_double(x, (double)0x1p31);
    assigns \nothing;
    ensures range: \le_double((double)0.0, \result) && \le_double(\result, (double)22.0);
 */
double em_log_sum(double x);

#endif
