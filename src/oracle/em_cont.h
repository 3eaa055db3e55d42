/* em_cont.h: the exact oracle for weighted and continuous laws of the exponential mechanism.
 *
 * Two kinds of law, one machinery (spec/Continuous.md):
 *   - PIECES: R = a finite union of intervals [lo_j, hi_j] (increasing, interiors disjoint;
 *     lo_0 may be -inf, hi_{n-1} may be +inf), utility u(r) = a_j + b_j r on piece j,
 *     density f(r) = exp(c u(r)) / Z with respect to Lebesgue measure on R;
 *   - ATOMS: finite candidates with a base measure m_j >= 0:
 *     P(j) = m_j exp(c u_j) / Z (diffprivlib's Exponential(measure=...)).
 * c = eps/(2 delta) (EM_STANDARD) or eps/delta (EM_MONOTONE).
 *
 * Every quantity is a ratio (or the logarithm of a ratio) of exponential polynomials
 * sum_k q_k exp(t_k) with exact rational q_k, t_k.  Outputs are correctly rounded: interval
 * bounds in MPFR with directed rounding give a fast decision; when they cannot decide (the
 * value is within the interval's width of a rounding boundary B), the sign of value - B is
 * decided exactly as the sign of an exponential polynomial (em_expoly_sign): equal
 * exponents are merged exactly, and by Lindemann-Weierstrass a non-zero polynomial with
 * distinct rational exponents is non-zero as a real number, so raising the precision
 * terminates.  An exact tie (the value is a rounding boundary: possible only for rational
 * values) is rounded half to even.  So no answer is ever a guess, and none loops forever:
 * the only failure is EM_ERR_UNDECIDED past EM_ROUND_MAX_PREC bits (none known).
 *
 * Conventions of em_cval strings: like the finite oracle (C's "%#.Kg" style, any exponent
 * length); "0", "1", "-inf", "inf" only when exactly so.
 */
#ifndef EM_CONT_H
#define EM_CONT_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>

#include "em_base.h"
#include "num/em_expoly.h"
#include "num/em_pieces.h"
#include "num/em_round.h"
#include "oracle/em_exact.h"
#include "oracle/em_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A weight exp(c u - max c u) below exp(EM_CONT_MIN_EXPONENT) lies outside MPFR's widest
 * exponent range: the weighted oracle (atoms) refuses it with EM_ERR_UNDECIDED (exit 3)
 * and a message; the continuous one decides what lies there from logarithms, up to
 * exponents of EM_CONT_MAX_EXPONENT_BITS bits (|c u - max c u| < 2^65536, about
 * 10^19728). */
#define EM_CONT_MIN_EXPONENT (-3000000000000000000L)
#define EM_CONT_MAX_EXPONENT_BITS 65536

enum { EM_CONT_PIECES = 0, EM_CONT_ATOMS = 1 };

/* ------------------------------------------------------------------ laws */

typedef struct em_cont em_cont;

/* Prepare the law of the problem P (em_problem.h) with results of K = digits significant
 * digits in [1, 1000]: continuous when P->pieces is set, else weighted finite (its
 * candidates, excluded, and measure m_j >= 0, NULL: all 1).  Every failure has a message
 * in err; pieces are named by their line ("NAME:LINE: ..."): unsorted or overlapping
 * (lo_j > hi_j, or lo_{j+1} < hi_j), an infinite end whose integral diverges (-inf needs
 * c b > 0 on the first piece, +inf needs c b < 0 on the last), total mass 0 (every piece
 * has lo = hi).  Errors: EM_ERR_NULL, EM_ERR_EMPTY, EM_ERR_TOO_MANY (> EM_PIECES_MAX
 * pieces, > EM_N_MAX candidates), EM_ERR_EPSILON, EM_ERR_SENSITIVITY, EM_ERR_VARIANT,
 * EM_ERR_DOMAIN (the checks above, a negative measure, digits), EM_ERR_ALL_EXCLUDED (every
 * candidate excluded or of measure 0), EM_ERR_UNDECIDED (a weight below
 * exp(EM_CONT_MIN_EXPONENT)), EM_ERR_NOMEM. */
int em_cont_new(const em_problem *P, int digits, em_cont **out, em_error *err);

void em_cont_free(em_cont *C);

int em_cont_kind(const em_cont *C);
size_t em_cont_size(const em_cont *C);
int em_cont_digits(const em_cont *C);
/* Change the number of digits of later results (1..1000; EM_ERR_DOMAIN otherwise). */
int em_cont_set_digits(em_cont *C, int digits);

/* Probability of piece (or atom) j and its logarithm.  "0" / "-inf" for a piece of zero
 * length or an atom of measure 0 or excluded; "1" / "0" when it is the only one with
 * mass; a probability below 1 that rounds to 1 prints as K nines (EM_CV_NEAR_ONE).  Errors: EM_ERR_DOMAIN (j >= n), EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
int em_cont_prob(em_cont *C, size_t j, em_cval *p, em_cval *logp);

/* The correctly rounded double of every probability of a law (em_cont_prob(.).d), for the
 * finite check of scenarios with a base measure.  p has em_cont_size(C) entries. */
int em_cont_doubles(em_cont *C, double *p);

/* The correctly rounded K-digit decimal and double of an exact rational (e.g. a grid point). */
int em_cont_round_q(em_cont *C, const mpq_t q, em_cval *out);

/* A message for an em_status or EM_ERR_UNDECIDED. */
const char *em_cont_strerror(int st);

/* The expected utility E[u(X)], the best utility OPT = max u over the support (attained
 * at a finite end of a piece, or by a candidate of positive mass), and the expected loss
 * OPT - E[u]: exact integrals (closed forms, exponential polynomials), correctly rounded.
 * Pieces and atoms. */
int em_cont_utility(em_cont *C, em_cval *eu, em_cval *loss, em_cval *opt);
/* OPT exactly (em_cont_utility rounds it): the Monte Carlo loss of a draw needs it. */
void em_cont_opt(const em_cont *C, mpq_t opt);
/* The standard deviation of u(X) (= that of the loss OPT - u(X)), exactly: sqrt of
 * (N2 Z - N1^2) / Z^2 with N1, N2 the integrals of u e^{cu} and u^2 e^{cu}; "0" when all
 * the mass sits at one utility.  The exact comparison multiplies exponential polynomials
 * (O(n^2) terms): EM_ERR_UNDECIDED past 4e6 terms if the intervals cannot decide. */
int em_cont_sd(em_cont *C, em_cval *out);
/* P(u(X) = OPT): the mass of the atoms at OPT, or of constant pieces at OPT ("0" when none:
 * a continuous law puts probability 0 on a point). */
int em_cont_p_best(em_cont *C, em_cval *out);
/* P(OPT - u(X) > t), t >= 0: exact (the set where a linear piece falls below OPT - t is an
 * interval).  EM_ERR_DOMAIN for t < 0. */
int em_cont_loss_tail(em_cont *C, const mpq_t t, em_cval *out);

/* Pieces only (EM_ERR_DOMAIN for atoms). */
/* F(x) = P(X <= x); "0" left of R, "1" right of it. */
int em_cont_cdf(em_cont *C, const mpq_t x, em_cval *out);
/* P(a < X <= b) = F(b) - F(a) for a <= b, exactly (one correctly rounded number, not a
 * difference of two rounded ones); "0" / "1" only when exact. */
int em_cont_interval_prob(em_cont *C, const mpq_t a, const mpq_t b, em_cval *out);
/* The density, right-continuous: f(x) = lim_{y -> x+} f(y) (so at a breakpoint the piece
 * starting there; 0 at the right end of R, in gaps and outside R, where log f = -inf). */
int em_cont_density(em_cont *C, const mpq_t x, em_cval *dens, em_cval *logdens);
/* Q(p) = inf { x in R : F(x) >= p } for p in (0, 1); Q(0) = the left end of R (may be
 * "-inf"), Q(1) = the right end (may be "inf").  EM_ERR_DOMAIN for p outside [0, 1]. */
int em_cont_quantile(em_cont *C, const mpq_t p, em_cval *x);

/* Interval of F(x) at about `prec` bits, for judges that need many fast evaluations:
 * lo <= F(x) <= hi (lo, hi initialised by the caller; their precision is set). */
int em_cont_cdf_bounds(em_cont *C, const mpq_t x, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi);
/* Exact sign of F(x) - q (q rational): *sign in {-1, 0, 1}. */
int em_cont_cdf_cmp(em_cont *C, const mpq_t x, const mpq_t q, int *sign);

/* Exact c (the coefficient of u) and log of the normaliser: log Z = log sum_j mass_j, as
 * an interval at about prec bits (Z = integral of exp(c u) over R, or sum m_j exp(c u_j)). */
void em_cont_coef(const em_cont *C, mpq_t c);
int em_cont_logz_bounds(em_cont *C, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi);

/* The piece holding x on the right (lo_j <= x < hi_j, pieces of length 0 skipped), or n
 * when x is outside R, in a gap, or at the right end of R.  The left piece
 * (lo_j < x <= hi_j) likewise with em_cont_piece_left. */
size_t em_cont_piece_right(const em_cont *C, const mpq_t x);
size_t em_cont_piece_left(const em_cont *C, const mpq_t x);
/* Exact data of piece / atom j: ends (lo_inf/hi_inf set for infinite ends; NULL pointers
 * allowed), the utility's a and b (atoms: a = u_j, b = 0), measure (atoms; pieces: the
 * length, or 0 if infinite). */
void em_cont_piece(const em_cont *C, size_t j, mpq_t lo, mpq_t hi, int *lo_inf, int *hi_inf,
                   mpq_t a, mpq_t b);

/* ------------------------------------------------------------- sampling */

/* One exact draw: *index = the piece (or atom) drawn; for pieces *x = the double nearest to
 * an ideal draw X from the continuous law (ties to even), found by a lazy inverse CDF:
 * the piece by em_exact_select (proven) on 63-bit bounds of the cumulative masses, then
 * random bits only until the rounding of X to double is certain.  x may be NULL for atoms.
 * Errors: EM_ERR_RNG (bit source failed or a script ran out), EM_ERR_DOMAIN (more than
 * EM_EXACT_MAX_BITS bits), EM_ERR_UNDECIDED, EM_ERR_NOMEM. */
int em_cont_sample(em_cont *C, em_bits *b, size_t *index, double *x);

/* Bits of the first read of each draw, 1..63 (default 63: one word, one proven scan for
 * almost every draw).  Exactness does not depend on it; the bit-enumeration tests use a
 * small one.  EM_ERR_DOMAIN outside 1..63. */
int em_cont_set_first_chunk(em_cont *C, unsigned k);

/* Test hook only: bug 1 makes the continuous sampler round down (a planted error that the
 * enumeration test must catch); 0 restores it. */
void em_cont_set_test_bug(em_cont *C, int bug);

/* The fast path: a double-precision inverse CDF from two 64-bit words (53 bits for the
 * piece, 53 for the position inside it): no exactness guarantee (spec/Continuous.md says what
 * it does not guarantee).  Errors: EM_ERR_RNG. */
int em_cont_sample_float(em_cont *C, em_rng *rng, size_t *index, double *x);

/* Exact probability that the sampler returns the double y (pieces): F(B+) - F(B-) with B-+
 * the rounding boundaries of y, as an interval at about prec bits; for the bit-enumeration
 * tests and judges. */
int em_cont_double_mass_bounds(em_cont *C, double y, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi);

/* ---------------------------------------------------- exponential polynomials */

/* Append coef * exp(shift) * Z, Z the law's normaliser (the integral of exp(c u) over R,
 * or sum m_j exp(c u_j)), exactly. */
int em_cont_append_z(const em_cont *C, em_expoly *P, const mpq_t coef, const mpq_t shift);

#ifdef __cplusplus
}
#endif
#endif
