/* em_exact_vec.h: the first pass of em_exact_new_d's cheap bounds (em_exact_new.c) four
 * candidates at a time with AVX2, over runs in which each four are all on the chain or all
 * in the tail (the bulk of a large set); the caller takes every other four one by one.
 * Internal to src/oracle/.
 *
 * Each lane performs the caller's operations on one candidate in the same order, each an
 * IEEE binary64 operation rounded to nearest (no FMA), and the integer steps exactly: the
 * enclosure [xlo, xhi] of x = c (umax - u_i), the lower bound L of exp(-x) (em_wbound.h's
 * em_wb_exp_lo_dbl), D = next-up(xhi - xlo), floor(L 2^P) by shifts of L's significand,
 * and the products D L added to dsum one after another in index order: the same sums and
 * the same words bit for bit as the one-by-one pass (tests/test_exact_vec.c). */
#ifndef EM_EXACT_VEC_H
#define EM_EXACT_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/em_wbound.h"

enum { EM_XRUN_END, EM_XRUN_MIXED, EM_XRUN_FLUSH };

typedef struct em_xrun {
    /* in: the caller's arrays and constants (cheap_bounds, em_exact_new.c) */
    const double *u;
    const unsigned char *excluded; /* NULL: none */
    double *ud;
    unsigned char *cls;
    uint64_t *lo, *hi;          /* floor(L 2^P): low and high 64 bits; 0 in the tail */
    double umax, clo, chi, uthr, xcut;
    unsigned P;
    em_wb_poly pc;
    /* in and out: the sums the caller also adds to (dsum in index order) */
    em_u128 zlo;
    uint64_t k, tail;
    double dsum;
    int why;                    /* out: EM_XRUN_END, _MIXED or _FLUSH */
} em_xrun;

/* 1 when em_exact_vec_run can run here (the CPU has AVX2, and not disabled by
 * em_exact_vec_set). */
int em_exact_vec_ok(void);

/* Test hook: 0 turns the vector pass off for this process (the one-by-one pass then
 * takes every candidate), 1 back on where the CPU has AVX2. */
void em_exact_vec_set(int on);

/* Candidates i, i + 1, ... four at a time while i + 4 <= n and each four are all on the
 * chain (neither excluded nor a mode, x_lo < xcut, x_hi < EM_WB_XCUT, D <= 1/8) or all in
 * the tail (u <= uthr, not -inf); returns where it stopped, with r->why: EM_XRUN_END (fewer
 * than four left), EM_XRUN_MIXED (the four at the returned index are neither), or
 * EM_XRUN_FLUSH (a chain four while chain_ok = 0: the caller's waiting candidates come
 * first in dsum). */
size_t em_exact_vec_run(em_xrun *r, size_t i, size_t n, int chain_ok);

#endif
