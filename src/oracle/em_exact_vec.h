/* em_exact_vec.h: the first pass of em_exact_new_d's cheap bounds (em_exact_new.c) four
 * candidates at a time with AVX2: every candidate that is excluded, a mode, in the tail or
 * on the chain with a narrow enclosure (all but overflows); a four holding any other
 * candidate goes back to the caller, who takes it one by one.  Internal to src/oracle/.
 *
 * Each lane performs the caller's operations on one candidate in the same order, each an
 * IEEE binary64 operation rounded to nearest (no FMA), and the integer steps exactly: the
 * enclosure [xlo, xhi] of x = c (umax - u_i), the lower bound L of exp(-x) (em_wbound.h's
 * em_wb_exp_lo_dbl), D = next-up(xhi - xlo), floor(L 2^P) by shifts of L's significand,
 * and the products D L added to dsum one after another in index order (+0 for the
 * candidates off the chain, which leaves a sum >= 0 unchanged): the same sums and the same
 * words bit for bit as the one-by-one pass (tests/test_exact_vec.c). */
#ifndef EM_EXACT_VEC_H
#define EM_EXACT_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/em_wbound.h"

enum { EM_XRUN_END, EM_XRUN_MIXED };

typedef struct em_xrun {
    /* in: the caller's arrays and constants (cheap_bounds, em_exact_new.c) */
    const double *u;
    const unsigned char *excluded; /* NULL: none */
    double *ud;
    unsigned char *cls;
    uint64_t *lo, *hi;          /* floor(L 2^P): low and high 64 bits (a mode: 2^P; no
                                   lower bound: 0) */
    double umax, clo, chi, uthr, xcut;
    unsigned P;
    em_wb_poly pc;
    /* in and out: the sums the caller also adds to (dsum in index order: the caller's
     * candidates before i first) */
    em_u128 zlo;
    uint64_t k, tail, modes;
    double dsum;
    int why;                    /* out: EM_XRUN_END or EM_XRUN_MIXED */
} em_xrun;

/* 1 when em_exact_vec_run can run here (the CPU has AVX2, and not disabled by
 * em_exact_vec_set). */
int em_exact_vec_ok(void);

/* Test hook: 0 turns the vector pass off for this process (the one-by-one pass then
 * takes every candidate), 1 back on where the CPU has AVX2. */
void em_exact_vec_set(int on);

/* Candidates i, i + 1, ... up to n, four at a time (the last four may be fewer), while
 * each four holds only candidates excluded, modes, in the tail (u <= uthr, or x_lo >=
 * xcut) or on the chain (x_lo < xcut, x_hi < EM_WB_XCUT, D <= 1/8); returns where it
 * stopped, with r->why: EM_XRUN_END (at n), or EM_XRUN_MIXED (the four at the returned
 * index hold another). */
size_t em_exact_vec_run(em_xrun *r, size_t i, size_t n);

/* em_exact_new.c's umax_d over the first 4 floor(n / 4) utilities (where
 * em_exact_vec_ok()): lane j of m the running x > m ? x : m over u[j], u[j + 4], ... in
 * index order from -inf, as its four scalar lanes; returns 1 when one of them is NaN or
 * +inf (then m is of no use). */
int em_exact_vec_max4(size_t n, const double *u, double m[4]);

#endif
