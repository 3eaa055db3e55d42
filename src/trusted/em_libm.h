/* em_libm: the two libm facts the float module relies on, as contracts.
   Trusted, not proven (proofs/TRUSTED.md, entry "libm"): glibc's exp and log are
   faithfully rounded and monotone, so these bounds hold for every argument in
   range; tests/test_libm.c checks them at the ends and across the range. */
#ifndef EM_LIBM_H
#define EM_LIBM_H
#include <stddef.h>

/* exp(x) for x in [-800, 0]: a double in [0, 1], exactly 1 at 0. */
/*@ requires range: \le_double((double)-800.0, x) && \le_double(x, (double)0.0);
    assigns \nothing;
    ensures range: \le_double((double)0.0, \result) && \le_double(\result, (double)1.0);
    ensures one: \eq_double(x, (double)0.0) ==> \eq_double(\result, (double)1.0);
 */
double em_exp_nonpos(double x);

/* The same exp for a block of n <= EM_EXP_BLOCK arguments at once (the per-
   element contract of em_exp_nonpos), so that the weights are computed four
   (AVX2) or two (SSE2) at a time by glibc's vector exp instead of one libm call
   per candidate.  The range and the exact 1 at 0 are enforced by the wrapper
   itself (a comparison per element), not assumed of the vector code. */
#define EM_EXP_BLOCK 64
/*@ requires size: n <= EM_EXP_BLOCK;
    requires valid: \valid_read(x + (0 .. n - 1)) && \valid(y + (0 .. n - 1));
    requires separated: \separated(x + (0 .. n - 1), y + (0 .. n - 1));
    requires range: \forall integer j; 0 <= j < n ==>
      \le_double((double)-800.0, x[j]) && \le_double(x[j], (double)0.0);
    assigns y[0 .. n - 1];
    ensures range: \forall integer j; 0 <= j < n ==>
      \le_double((double)0.0, y[j]) && \le_double(y[j], (double)1.0);
    ensures one: \forall integer j; 0 <= j < n && \eq_double(x[j], (double)0.0) ==>
      \eq_double(y[j], (double)1.0);
 */
void em_exp_nonpos_block(size_t n, const double *x, double *y);

/* log1p(y) = log(1 + y) for y in [0, 2^31]: a double in [0, 22].  log1p, not
   log(1 + y), keeps the log-probability of a dominant candidate when y < 2^-53. */
/*@ requires range: \le_double((double)0.0, y) && \le_double(y, (double)0x1p31);
    assigns \nothing;
    ensures range: \le_double((double)0.0, \result) && \le_double(\result, (double)22.0);
 */
double em_log1p_sum(double y);

/* frexp: x = m * 2^e with m in [0.5, 1), for finite x > 0 (subnormals included). */
/*@ requires valid: \valid(e);
    requires range: \gt_double(x, (double)0.0) && \le_double(x, (double)0x1.fffffffffffffp1023);
    assigns *e;
    ensures exponent: -1073 <= *e <= 1024;
    ensures mantissa: \le_double((double)0.5, \result) && \lt_double(\result, (double)1.0);
 */
double em_frexp(double x, int *e);

/* ldexp: x * 2^e, exact unless the result overflows (to -inf for x < 0) or is
   subnormal; the sign of x is kept. */
/*@ requires range: -4200 <= e <= 4200;
    assigns \nothing;
    ensures sign: \le_double(x, (double)0.0) ==> \le_double(\result, (double)0.0);
 */
double em_ldexp(double x, int e);

#endif
