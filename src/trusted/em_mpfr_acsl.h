/* em_mpfr_acsl: M1 of src/trusted/em_mpfr.h (directed rounding) as ACSL contracts, for WP.
   Trusted, not proven: part of the "MPFR and GMP" entry of proofs/TRUSTED.md (T3(c)).
   src/core/em_exact_encl.c, the exact sampler's enclosure arithmetic, calls MPFR only
   through the wrappers below; WP proves it from their contracts alone.  For the compiler
   each wrapper is one or two MPFR calls (static inline, below); for Frama-C, which does not
   read mpfr.h, an MPFR number is an opaque structure whose real value is EmVal, a logic
   symbol declared without a definition (ACSL takes such a declaration only in a block of its
   own, the one such block here, which proofs/verify.sh checks holds that line alone): it
   adds no fact, and every fact about it is a contract below.

   EmVal{L}(x) is [x] of em_mpfr.h: the real value of a finite MPFR number x in state L.
   Every contract speaks of finite numbers in the widest exponent range
   (em_mpfr_widest_range: |exponent| < 2^62), where no value here overflows (operands of an
   upward sum are at most 1.0e300) and a downward result of a non-negative exact value is
   never below 0.  Each contract is what MPFR documents (correct rounding in every mode:
   RNDD gives the largest number of the destination's precision <= the exact result, RNDU
   the smallest >= it, hence the inequalities; 0 and 1, and 2^63, are numbers of every
   precision, hence the bounds); `frame`: a call changes the value of its destination
   only, as every MPFR function writes only its destination (distinct mpfr_t never share
   limbs).  tests/test_mpfr_contract.c checks each wrapper against exact rationals. */
#ifndef EM_TRUSTED_MPFR_ACSL_H
#define EM_TRUSTED_MPFR_ACSL_H
#include <stdint.h>

#ifdef __FRAMAC__
typedef struct { long em_opaque; } __mpfr_struct;
typedef __mpfr_struct *mpfr_ptr;
typedef const __mpfr_struct *mpfr_srcptr;
/*@ axiomatic EmMpfrValue {
      logic real EmVal{L}(mpfr_srcptr x) reads *x;
    } */
#define EM_MPFR_WRAP
#else
#define EM_MPFR_WRAP static inline
#include <gmp.h>
#define MPFR_USE_INTMAX_T 1
#include <mpfr.h>
#endif

/* 2^63: the fixed-point scale of the exact sampler's words (FIX_BITS) */
#define EM_ENCL_SCALE 9223372036854775808.0

/* RNDD(a + b) */
/*@ requires valid: \valid(r) && \valid_read(a) && \valid_read(b);
    assigns *r;
    ensures down: EmVal(r) <= EmVal{Pre}(a) + EmVal{Pre}(b);
    ensures nonneg: EmVal{Pre}(a) >= 0 && EmVal{Pre}(b) >= 0 ==> EmVal(r) >= 0;
    ensures frame: \forall mpfr_srcptr x; \separated(x, r) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP void em_mpfr_add_rd(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);

/* RNDU(a + b) */
/*@ requires valid: \valid(r) && \valid_read(a) && \valid_read(b);
    requires bounded: EmVal(a) <= 1.0e300 && EmVal(b) <= 1.0e300;
    assigns *r;
    ensures up: EmVal(r) >= EmVal{Pre}(a) + EmVal{Pre}(b);
    ensures frame: \forall mpfr_srcptr x; \separated(x, r) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP void em_mpfr_add_ru(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);

/* RNDD(a / b) for 0 <= a <= b, b > 0: in [0, 1], and r <= a / b (as r b <= a) */
/*@ requires valid: \valid(r) && \valid_read(a) && \valid_read(b);
    requires range: 0 <= EmVal(a) <= EmVal(b) && EmVal(b) > 0;
    assigns *r;
    ensures down: EmVal(r) * EmVal{Pre}(b) <= EmVal{Pre}(a);
    ensures unit: 0 <= EmVal(r) <= 1;
    ensures frame: \forall mpfr_srcptr x; \separated(x, r) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP void em_mpfr_div_rd(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);

/* RNDU(a / b) for 0 <= a <= b, b > 0: in [0, 1], and r >= a / b (as r b >= a) */
/*@ requires valid: \valid(r) && \valid_read(a) && \valid_read(b);
    requires range: 0 <= EmVal(a) <= EmVal(b) && EmVal(b) > 0;
    assigns *r;
    ensures up: EmVal(r) * EmVal{Pre}(b) >= EmVal{Pre}(a);
    ensures unit: 0 <= EmVal(r) <= 1;
    ensures frame: \forall mpfr_srcptr x; \separated(x, r) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP void em_mpfr_div_ru(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b);

/* r := v, v = 0 or 1 (exact at every precision) */
/*@ requires valid: \valid(r);
    requires small: v == 0 || v == 1;
    assigns *r;
    ensures exact: EmVal(r) == v;
    ensures frame: \forall mpfr_srcptr x; \separated(x, r) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP void em_mpfr_set_01(mpfr_ptr r, unsigned v);

/* [x] == 0 */
/*@ requires valid: \valid_read(x);
    assigns \nothing;
    ensures zero: \result != 0 <==> EmVal(x) == 0;
 */
EM_MPFR_WRAP int em_mpfr_is_zero(mpfr_srcptr x);

/* [a] > [b] */
/*@ requires valid: \valid_read(a) && \valid_read(b);
    assigns \nothing;
    ensures greater: \result != 0 <==> EmVal(a) > EmVal(b);
 */
EM_MPFR_WRAP int em_mpfr_greater(mpfr_srcptr a, mpfr_srcptr b);

/* floor(2^63 [v]) for [v] in [0, 1], through t := RNDD(2^63 v) and mpfr_get_uj(t, RNDD) */
/*@ requires valid: \valid(t) && \valid_read(v) && \separated(t, v);
    requires unit: 0 <= EmVal(v) <= 1;
    assigns *t;
    ensures down: \result <= EM_ENCL_SCALE * EmVal{Pre}(v);
    ensures frame: \forall mpfr_srcptr x; \separated(x, t) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP uint64_t em_mpfr_word_rd(mpfr_ptr t, mpfr_srcptr v);

/* ceil(2^63 [v]) for [v] in [0, 1], through t := RNDU(2^63 v) and mpfr_get_uj(t, RNDU) */
/*@ requires valid: \valid(t) && \valid_read(v) && \separated(t, v);
    requires unit: 0 <= EmVal(v) <= 1;
    assigns *t;
    ensures up: \result >= EM_ENCL_SCALE * EmVal{Pre}(v);
    ensures scale: \result <= EM_ENCL_SCALE;
    ensures frame: \forall mpfr_srcptr x; \separated(x, t) ==> EmVal(x) == EmVal{Pre}(x);
 */
EM_MPFR_WRAP uint64_t em_mpfr_word_ru(mpfr_ptr t, mpfr_srcptr v);

#ifndef __FRAMAC__
static inline void em_mpfr_add_rd(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { mpfr_add(r, a, b, MPFR_RNDD); }
static inline void em_mpfr_add_ru(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { mpfr_add(r, a, b, MPFR_RNDU); }
static inline void em_mpfr_div_rd(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { mpfr_div(r, a, b, MPFR_RNDD); }
static inline void em_mpfr_div_ru(mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) { mpfr_div(r, a, b, MPFR_RNDU); }
static inline void em_mpfr_set_01(mpfr_ptr r, unsigned v) { mpfr_set_ui(r, v, MPFR_RNDN); }
static inline int em_mpfr_is_zero(mpfr_srcptr x) { return mpfr_zero_p(x); }
static inline int em_mpfr_greater(mpfr_srcptr a, mpfr_srcptr b) { return mpfr_cmp(a, b) > 0; }
static inline uint64_t em_mpfr_word_rd(mpfr_ptr t, mpfr_srcptr v)
{
    mpfr_mul_2ui(t, v, 63, MPFR_RNDD);
    return (uint64_t)mpfr_get_uj(t, MPFR_RNDD);
}
static inline uint64_t em_mpfr_word_ru(mpfr_ptr t, mpfr_srcptr v)
{
    mpfr_mul_2ui(t, v, 63, MPFR_RNDU);
    return (uint64_t)mpfr_get_uj(t, MPFR_RNDU);
}
#endif

#endif
