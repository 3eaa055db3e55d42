/* em_bounds.h: the interval arithmetic every exact computation starts from: a rational
 * between two MPFR numbers, and exp of a rational between two, with directed rounding;
 * and MPFR's widest exponent range (about 2^(+-4.6e18)), in which 1e-3247 is an ordinary
 * number. */
#ifndef EM_NUM_BOUNDS_H
#define EM_NUM_BOUNDS_H

#include <stddef.h>
#include <gmp.h>
#include <mpfr.h>

/* Set MPFR's exponent range to its widest (for the rest of the thread). */
void em_mpfr_widest_range(void);

/* A caller's exponent range, saved by em_range_enter (which then sets the widest) and
 * restored by em_range_leave: every entry that computes in MPFR on a caller's behalf. */
typedef struct em_range {
    mpfr_exp_t emin, emax;
} em_range;
em_range em_range_enter(void);
void em_range_leave(em_range r);

/* The body of such an entry: return the status of expr computed in the widest range. */
#define EM_WIDEST(expr) \
    do { \
        em_range r_ = em_range_enter(); \
        int st_ = (expr); \
        em_range_leave(r_); \
        return st_; \
    } while (0)

/* n MPFR numbers at prec bits, or NULL when out of memory; em_mpfr_array_free clears and
 * frees them (NULL is harmless). */
mpfr_t *em_mpfr_array_new(size_t n, mpfr_prec_t prec);
void em_mpfr_array_free(mpfr_t *a, size_t n);

/* em_mpfr_array_free of each of the k arrays of v, all of n numbers: a structure's
 * parallel arrays (lower and upper bounds) in one call. */
void em_mpfr_arrays_free(mpfr_t *const *v, size_t k, size_t n);

/* lo <= q <= hi, at the precisions of lo and hi. */
void em_q_bounds(mpfr_t lo, mpfr_t hi, const mpq_t q);

/* lo <= exp(t) <= hi for a rational t with one exponential (s1, s2: scratch at the same
 * precision): exp(t) <= nextabove(RNDD(exp(t1))) (1 + 2 (t2 - t1)) for [t1, t2] the bounds
 * of t, since exp(d) <= 1 + 2d for 0 <= d <= 1. */
void em_exp_q_bounds(mpfr_t lo, mpfr_t hi, const mpq_t t, mpfr_t s1, mpfr_t s2);

/* [0, tiny] with tiny at the bottom of MPFR's widest range: no precision separates such a
 * value from 0, so a rounding of it stops (EM_ERR_UNDECIDED) instead of refining. */
int em_bounds_below_range(mpfr_srcptr lo, mpfr_srcptr hi);

#endif
