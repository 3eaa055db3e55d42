/* em_exact_priv.h: the insides of the exact sampler (em_exact.h), shared by its files:
 * em_exact_new.c (construction; cheap certified bounds from doubles or rationals),
 * em_exact_levels.c (the MPFR side: precision levels kept as checkpoints, blocks recomputed
 * bit for bit), em_exact_draw.c (a draw: the proven integer decision, then MPFR past 63
 * bits).  Method and exactness argument: spec/ExactSampling.md. */
#ifndef EM_ORACLE_EXACT_PRIV_H
#define EM_ORACLE_EXACT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#define MPFR_USE_INTMAX_T 1
#include <mpfr.h>

#include "oracle/em_exact.h"
#include "oracle/em_exponents.h"
#include "oracle/em_problem.h"

#define MAX_LEVELS 16
#define FIX_BITS 63          /* fixed-point scale 2^63 of the integer decision */
#define STEP_BITS 4          /* bits added per undecided fast-path step */
#define SLOW_STEP 8          /* bits added per undecided slow-path step */

/* A level holds the bounds Flo[i] <= F(i) <= Fhi[i], i = 0..n, at precision p, without
 * storing n + 1 of each (at 10^7 candidates two mpfr_t per index and per level were
 * 2.5 GB): only a checkpoint every BLOCK indices, from which one block's bounds are
 * recomputed, bit for bit the values a full computation gives (same operations, same
 * order, same rounding), so draws are unchanged:
 *   C(i) = w_0 + ... + w_{i-1} (rounded upward in order, C_lo down, C_hi up) at each
 *   block start; T(i) = w_i + ... + w_{n-1} (summed from the top) at each block end;
 *   the largest raw Flo before each block and the smallest raw Fhi after it (the running
 *   max / min that make the bounds monotone). */
#ifndef EM_EXACT_BLOCK
#define EM_EXACT_BLOCK 1024 /* -DEM_EXACT_BLOCK=3 runs the tests across many blocks */
#endif
#define BLOCK ((size_t)EM_EXACT_BLOCK)

/* decoded blocks kept per level: a slow draw's binary search ends in one or two adjacent
 * blocks (cell r and r + 1), which its next 8-bit steps probe again */
#define CACHE 4

struct xblock {
    long b;             /* block held, or -1 */
    unsigned long used; /* for replacement: larger = more recent */
    mpfr_t *Flo, *Fhi;  /* bcap each, final (monotone) bounds */
};

struct xlevel {
    mpfr_prec_t p;
    size_t nb;               /* blocks: ceil((n + 1) / BLOCK) */
    size_t bcap;             /* bounds per block: min(n + 1, BLOCK) */
    mpfr_t *Clo, *Chi;       /* C at block starts */
    mpfr_t *Tlo, *Thi;       /* T at block ends (b < nb - 1; the last block ends at n) */
    mpfr_t *maxlo;           /* max raw Flo over indices before block b (b >= 1) */
    mpfr_t *minhi;           /* min raw Fhi over indices after block b (b < nb - 1) */
    struct xblock cache[CACHE];
    unsigned long clock;
};

/* The MPFR side: created by em_exact_new at construction, and by
 * em_exact_new_d only on the first draw still undecided after 63 bits (slow_path), or at
 * construction when its cheap bounds are too wide. */
struct xmp {
    size_t n;
    em_utility_reader src;   /* utilities; t_j = c (u_j - umax) when needed */
    unsigned char *cls;      /* the sampler's */
    uint64_t *lo64, *hi64;   /* the sampler's: written by level 0 only when asked */
    em_exact_stats *st;      /* the sampler's */
    mpq_t c, umax, tq;
    em_tfast tf;
    int have_tf;
    struct xlevel lv[MAX_LEVELS];
    int nlev;
    mpz_t a;
    mpfr_t x, y;
    /* scratch of one block (scap = min(n, BLOCK) + 1 entries: a block never holds more
     * than n + 1 bounds, and 6 x 1025 MPFR numbers were most of a small draw's cost) at
     * the precision of the level in use */
    mpfr_t *welo, *wehi, *bTlo, *bThi, *rlo, *rhi;
    size_t scap;
    mpfr_prec_t wprec;
    mpfr_t tlo, thi, d, Clo_, Chi_, Tlo_, Thi_;
    mpfr_t cap; /* 2^996 (< 10^300): em_encl_suffix's and em_encl_upward's bound on an upper sum */
    /* while a level is computed: the weights of indices [0, wcn) from the downward pass,
     * for the upward one (packed limbs, exponents, kinds) */
    size_t wcn, wnl;
    mp_limb_t *wlimbs;
    mpfr_exp_t *wexp;
    signed char *wkind;
};

struct em_exact {
    size_t n;
    int variant;
    em_utility_reader src;   /* utilities (em_exact_new_d: a reader over ud) */
    mpq_t *own;              /* em_exact_new's copy (src reads it) */
    double *ud;              /* em_exact_new_d's copy (excluded: -inf) */
    double eps_d, delta_d;   /* em_exact_new_d's */
    unsigned char *cls;
    uint64_t *lo64, *hi64;
    unsigned first;
    em_exact_select_fn select;
    em_exact_stats st;
    struct xmp *mp;          /* NULL until needed (em_exact_new_d) */
    /* em_exact_new_d: lo64, hi64, ud and cls follow in the same allocation */
};

/* Bytes for the weights kept between the two passes: at 10^6 candidates all of them
 * (one exponential per weight, as with full arrays), at 10^7 the lowest 1.3 million
 * (50 bytes each at 128 bits): a bounded share of the 1 GB budget. */
#ifndef EM_EXACT_WCACHE_BYTES
#define EM_EXACT_WCACHE_BYTES ((size_t)64 << 20) /* -D...=200: tests with a partial cache */
#endif
#define WCACHE_BYTES ((size_t)EM_EXACT_WCACHE_BYTES)

/* ------------------------------------------------ shared by the parts */

/* The bit length of n. */
long em_exact_bitlen(size_t n);

/* Level k at precision p: a downward pass for the T checkpoints, an upward one for the C
 * checkpoints and the running max / min; at level 0 the upward pass also gives the
 * 63-bit words (floor and ceil commute with max and min, so the monotone fix-up can be
 * made on the words). */
int em_exact_compute_level(struct xmp *s, int k, mpfr_prec_t p, int words);

/* Flo[i] or Fhi[i] of level L (hi: which) */
int em_exact_F_at(struct xmp *s, struct xlevel *L, size_t i, int hi, mpfr_srcptr *v);

/* Frees the MPFR side (NULL is harmless). */
void em_exact_mp_free(struct xmp *m);

/* Level 0 at p0 (written into lo64 / hi64 when words). */
int em_exact_mp_level0(struct xmp *m, int words);

/* The MPFR side of s for the problem P: classes, exponents, and level 0 at p0 (written
 * into lo64 / hi64 when words = 1; not computed when words < 0).  EM_OK, EM_ERR_NOMEM, or
 * em_exponents_classes's error. */
int em_exact_mp_setup(em_exact *s, const em_problem *P, int words);

/* The rest of em_exact_sample's draw when the 63-bit words leave U's first 63 bits a
 * undecided: MPFR set up as needed, then the slow path. */
int em_exact_slow(em_exact *s, em_bits *b, uint64_t a, size_t *out);

/* em_exact_sample_d's draw without a sampler (em_exact_new.c): EM_OK with *out and
 * *fb = 0; or *fb = 1 (nothing drawn: the cheap bounds are too wide) or 2 (*a: U's first 63
 * bits, undecided by the words), when the sampler must be built to finish the draw; or an
 * error (with its message in err). */
int em_exact_once(const em_problem *P, em_bits *b, size_t *out, int *fb, uint64_t *a,
                  em_error *err);

/* em_exact_mp_setup for em_exact_new_d: eps, delta and the utilities are the exact
 * rationals the doubles denote. */
int em_exact_mp_setup_d(em_exact *s, int words);

#endif
