/* em_round.c: correct rounding of a real value to K decimal digits and to a double
 * (em_round.h): Ziv's test on interval bounds at rising precision, then, where the bounds
 * straddle a rounding boundary, a walk to the correct neighbour by exact comparisons. */
#include "num/em_round.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "num/em_bounds.h"
#include "num/em_dec10.h"
#include "num/em_format.h"
#include "num/em_rational.h"

#define FAST_LEVELS 3          /* interval levels tried before an exact comparison */
#define WALK_MAX 64            /* neighbour steps of a rounding walk (a guard, never reached) */

void em_cval_init(em_cval *v)
{
    v->str = NULL;
    v->d = 0;
    v->flags = 0;
}

void em_cval_clear(em_cval *v)
{
    free(v->str);
    v->str = NULL;
}

struct rounder {
    const em_rval *v;
    mpfr_prec_t p, pmax_fast;
    mpfr_t lo, hi;
    int have;
};

/* Twice the bits (at most EM_ROUND_MAX_PREC) and v's bounds again at that precision. */
static int rounder_refine(struct rounder *R)
{
    R->p = R->p > EM_ROUND_MAX_PREC / 2 ? EM_ROUND_MAX_PREC : 2 * R->p;
    mpfr_set_prec(R->lo, R->p);
    mpfr_set_prec(R->hi, R->p);
    int st = R->v->bounds(R->v->ctx, R->p, R->lo, R->hi);
    R->have = st == EM_OK;
    return st;
}

/* sign(v - B): the cached interval, refined a few times, then the exact comparison; a
 * value without one (cmp NULL) is refined up to EM_ROUND_MAX_PREC bits, so that a value
 * exactly at B is EM_ERR_UNDECIDED, never a guess */
static int rcmp(struct rounder *R, const mpq_t B, int *sign)
{
    for (;;) {
        if (R->have) {
            if (mpfr_cmp_q(R->lo, B) > 0) {
                *sign = 1;
                return EM_OK;
            }
            if (mpfr_cmp_q(R->hi, B) < 0) {
                *sign = -1;
                return EM_OK;
            }
        }
        if (R->v->cmp && (!R->v->bounds || R->p >= R->pmax_fast))
            return R->v->cmp(R->v->ctx, B, sign);
        if (!R->v->bounds || R->p >= EM_ROUND_MAX_PREC)
            return EM_ERR_UNDECIDED;
        int st = rounder_refine(R);
        if (st != EM_OK)
            return st;
    }
}

/* The rounder of v with its first bounds at prec0 bits (at least 64). */
static int rounder_init(struct rounder *R, const em_rval *v, mpfr_prec_t prec0)
{
    R->v = v;
    R->p = prec0 < 64 ? 64 : prec0;
    R->pmax_fast = R->p << FAST_LEVELS;
    mpfr_inits2(R->p, R->lo, R->hi, (mpfr_ptr)0);
    int st = v->bounds ? v->bounds(v->ctx, R->p, R->lo, R->hi) : EM_OK;
    R->have = st == EM_OK && v->bounds;
    return st;
}

/* K-digit decimal m * 10^e (|m| in [10^(K-1), 10^K)) neighbours */
static void dec_next(mpz_t m, long *e, int K, int dir)
{
    /* dir +1: next larger value; -1: next smaller */
    mpz_t lim;
    mpz_init(lim);
    int s = mpz_sgn(m);
    if ((s > 0) == (dir > 0)) {
        /* magnitude grows */
        mpz_add_ui(m, m, 0);
        if (s > 0)
            mpz_add_ui(m, m, 1);
        else
            mpz_sub_ui(m, m, 1);
        mpz_ui_pow_ui(lim, 10, (unsigned long)K);
        if (mpz_cmpabs(m, lim) == 0) {
            mpz_ui_pow_ui(m, 10, (unsigned long)K - 1);
            if (s < 0)
                mpz_neg(m, m);
            (*e)++;
        }
    } else {
        if (s > 0)
            mpz_sub_ui(m, m, 1);
        else
            mpz_add_ui(m, m, 1);
        mpz_ui_pow_ui(lim, 10, (unsigned long)K - 1);
        if (mpz_cmpabs(m, lim) < 0) {
            mpz_ui_pow_ui(m, 10, (unsigned long)K);
            mpz_sub_ui(m, m, 1);
            if (s < 0)
                mpz_neg(m, m);
            (*e)--;
        }
    }
    mpz_clear(lim);
}

static void dec_value(mpq_t q, const mpz_t m, long e)
{
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, (unsigned long)(e < 0 ? -e : e));
    mpq_set_z(q, m);
    if (e >= 0) {
        mpz_mul(mpq_numref(q), mpq_numref(q), p);
    } else {
        mpz_mul(mpq_denref(q), mpq_denref(q), p);
    }
    mpq_canonicalize(q);
    mpz_clear(p);
}

static void dec_mid(mpq_t B, const mpz_t m1, long e1, const mpz_t m2, long e2)
{
    mpq_t x;
    mpq_init(x);
    dec_value(B, m1, e1);
    dec_value(x, m2, e2);
    mpq_add(B, B, x);
    mpz_mul_ui(mpq_denref(B), mpq_denref(B), 2);
    mpq_canonicalize(B);
    mpq_clear(x);
}

static char *dec_string(const mpz_t m, long e, int K)
{
    char *d = mpz_get_str(NULL, 10, m);
    if (!d)
        return NULL;
    int neg = d[0] == '-';
    mpz_t E;
    mpz_init_set_si(E, e + K);
    char *s = em_format_decimal(neg, d + neg, E);
    mpz_clear(E);
    free(d);
    return s;
}

/* A rounding walk from a candidate to the correct one, a neighbour at a time.  side sets B,
 * the boundary between the candidate and its neighbour towards dir (-1 below, +1 above);
 * take, when cmp puts x beyond B or on it (sg 0), moves to that neighbour or settles a tie,
 * and says whether the walk goes on. */
typedef void (*walk_side)(void *w, int dir, mpq_t B);
typedef int (*walk_take)(void *w, int sg, unsigned *flags);

static int walk(em_cmp_fn cmp, void *ctx, walk_side side, walk_take take, void *w,
                unsigned *flags)
{
    mpq_t B;
    mpq_init(B);
    int st = EM_OK, done = 0;
    for (int it = 0; it < WALK_MAX && st == EM_OK && !done; it++) {
        int moved = 0;
        for (int dir = -1; dir <= 1 && !moved && !done; dir += 2) {
            int sg;
            side(w, dir, B);
            if ((st = cmp(ctx, B, &sg)) != EM_OK)
                break;
            if (sg == 0 || (sg < 0) == (dir < 0)) {
                moved = take(w, sg, flags);
                done = !moved;
            }
        }
        if (st == EM_OK && !moved)
            done = 1;
    }
    mpq_clear(B);
    return st == EM_OK && !done ? EM_ERR_UNDECIDED : st;
}

/* the K-digit decimal m 10^e and its neighbour m2 10^e2 */
struct dec_walk {
    mpz_t m, m2;
    long e, e2;
    int K;
};

static void dec_side(void *w, int dir, mpq_t B)
{
    struct dec_walk *d = w;
    mpz_set(d->m2, d->m);
    d->e2 = d->e;
    dec_next(d->m2, &d->e2, d->K, dir);
    if (dir < 0)
        dec_mid(B, d->m2, d->e2, d->m, d->e);
    else
        dec_mid(B, d->m, d->e, d->m2, d->e2);
}

static int dec_take(void *w, int sg, unsigned *flags)
{
    struct dec_walk *d = w;
    if (sg == 0) /* tie between m2 and m: the even one */
        *flags |= EM_CV_TIE;
    if (sg != 0 || mpz_odd_p(d->m)) {
        mpz_set(d->m, d->m2);
        d->e = d->e2;
    }
    return sg != 0;
}

/* walk from the approximation x (non-zero) to the correct K-digit decimal */
static int walk_decimal(em_cmp_fn cmp, void *ctx, const mpfr_t x, int K, char **out, unsigned *flags)
{
    char *buf = malloc((size_t)K + 16);
    if (!buf)
        return EM_ERR_NOMEM;
    mpfr_exp_t E;
    mpfr_get_str(buf, &E, 10, (size_t)K, x, MPFR_RNDN);
    struct dec_walk d = {.e = (long)E - K, .K = K};
    mpz_inits(d.m, d.m2, (mpz_ptr)0);
    mpz_set_str(d.m, buf, 10);
    free(buf);
    int st = EM_ERR_UNDECIDED; /* the boundaries would be 10^|e|: beyond the documented range */
    if (d.e <= EM_ROUND_MAX_EXP10 && d.e >= -EM_ROUND_MAX_EXP10)
        st = walk(cmp, ctx, dec_side, dec_take, &d, flags);
    if (st == EM_OK) {
        *out = dec_string(d.m, d.e, K);
        if (!*out)
            st = EM_ERR_NOMEM;
    }
    mpz_clears(d.m, d.m2, (mpz_ptr)0);
    return st;
}

static double dnext(double y, int dir)
{
    return nextafter(y, dir > 0 ? INFINITY : -INFINITY);
}

/* the double y and its neighbour yn */
struct dbl_walk {
    double y, yn;
};

static void dbl_side(void *w, int dir, mpq_t B)
{
    struct dbl_walk *d = w;
    d->yn = dnext(d->y, dir);
    em_d_boundary(B, d->y, dir);
}

/* an infinite neighbour is taken at its boundary too, and ends the walk */
static int dbl_take(void *w, int sg, unsigned *flags)
{
    struct dbl_walk *d = w;
    if (sg == 0 && !isinf(d->yn)) {
        *flags |= EM_CV_TIE;
        uint64_t bits;
        memcpy(&bits, &d->y, sizeof bits);
        if (bits & 1)
            d->y = d->yn;
        return 0;
    }
    d->y = d->yn;
    return !isinf(d->yn);
}

static int walk_double(em_cmp_fn cmp, void *ctx, const mpfr_t x, double *out, unsigned *flags)
{
    struct dbl_walk d = {.y = mpfr_get_d(x, MPFR_RNDN)};
    if (isinf(d.y))
        d.y = d.y > 0 ? DBL_MAX : -DBL_MAX;
    int st = walk(cmp, ctx, dbl_side, dbl_take, &d, flags);
    if (st == EM_OK)
        *out = d.y;
    return st;
}

static int rcmp_cb(void *ctx, const mpq_t B, int *sign)
{
    return rcmp((struct rounder *)ctx, B, sign);
}

int em_cval_exact(em_cval *out, const char *s, double d)
{
    em_cval_clear(out);
    out->str = strdup(s);
    out->d = d;
    out->flags = EM_CV_EXACT;
    return out->str ? EM_OK : EM_ERR_NOMEM;
}

int em_cval_below_one(em_cval *v, int K)
{
    if (!em_format_is_one(v->str))
        return EM_OK;
    char *nines = em_format_nines(K);
    if (!nines)
        return EM_ERR_NOMEM;
    free(v->str);
    v->str = nines;
    v->flags |= EM_CV_NEAR_ONE;
    return EM_OK;
}

int em_round_walk(em_cmp_fn cmp, void *ctx, mpfr_t approx, int K, em_cval *out)
{
    em_cval_clear(out);
    out->flags = 0;
    int st = walk_decimal(cmp, ctx, approx, K, &out->str, &out->flags);
    if (st == EM_OK)
        st = walk_double(cmp, ctx, approx, &out->d, &out->flags);
    return st;
}

/* Both ends of [lo, hi] (finite, non-zero, same sign) round to the same K-digit decimal?
 * Then 1 with it in *str (NULL when out of memory), else 0.  em_dec10_decide decides
 * (WP-proven on the codes of the ends); decimal exponents beyond its scales fall back to
 * comparing mpfr_get_str's roundings of the ends (src/trusted/em_mpfr.h, M4). */
static int ends_decimal(const mpfr_t lo, const mpfr_t hi, int K, char **str)
{
    em_dec10 c;
    em_dec10_init_single(&c, K);
    mpz_t q, E;
    mpz_inits(q, E, (mpz_ptr)0);
    long ex;
    int d = em_dec10_decide(&c, lo, hi, q, &ex);
    if (d == 1) {
        char *digits = malloc((size_t)K + 1);
        if (digits) {
            em_dec10_digits(&c, q, digits);
            mpz_set_si(E, ex);
            *str = em_format_decimal(mpfr_sgn(lo) < 0, digits, E);
            free(digits);
        }
    }
    mpz_clears(q, E, (mpz_ptr)0);
    em_dec10_clear(&c);
    if (d >= 0)
        return d;
    mpfr_exp_t e1, e2;
    char *s1 = mpfr_get_str(NULL, &e1, 10, (size_t)K, lo, MPFR_RNDN);
    char *s2 = mpfr_get_str(NULL, &e2, 10, (size_t)K, hi, MPFR_RNDN);
    int same = s1 && s2 && e1 == e2 && !strcmp(s1, s2);
    if (same) {
        int neg = s1[0] == '-';
        mpz_init_set_si(E, (long)e1);
        *str = em_format_decimal(neg, s1 + neg, E);
        mpz_clear(E);
    }
    if (s1)
        mpfr_free_str(s1);
    if (s2)
        mpfr_free_str(s2);
    return same;
}

/* a nonzero bound in the lower half of MPFR's exponent range: what an underflow rounded
 * away from zero leaves (times a modest factor), which no precision lifts */
static int at_emin(const mpfr_t b)
{
    return mpfr_regular_p(b) && mpfr_get_exp(b) <= mpfr_get_emin() / 2;
}

static int em_round_impl(const em_rval *v, int K, mpfr_prec_t prec0, em_cval *out)
{
    struct rounder R;
    int st = rounder_init(&R, v, prec0);
    if (st == EM_OK) {
        /* exact zero? */
        if (mpfr_sgn(R.lo) <= 0 && mpfr_sgn(R.hi) >= 0) {
            mpq_t z;
            mpq_init(z);
            int s = 0;
            st = rcmp(&R, z, &s);
            mpq_clear(z);
            if (st == EM_OK && s == 0) {
                st = em_cval_exact(out, "0", 0.0);
                goto done;
            }
            /* refine until the sign is visible, so the approximation has it; an end at
             * MPFR's smallest magnitude is an underflow that no precision lifts: undecided
             * at once (the caller may decide from logarithms) */
            while (st == EM_OK && mpfr_sgn(R.lo) <= 0 && mpfr_sgn(R.hi) >= 0) {
                if (R.p >= EM_ROUND_MAX_PREC || at_emin(R.lo) || at_emin(R.hi)) {
                    st = EM_ERR_UNDECIDED;
                    break;
                }
                st = rounder_refine(&R);
            }
            if (st != EM_OK)
                goto done;
        }
        /* an end still infinite (a log of a bound below MPFR's range, a denominator's
         * interval reaching 0): a few more bits, then undecided at once (the caller may
         * decide from logarithms); never a walk from infinity */
        for (int more = 0; st == EM_OK && (!mpfr_number_p(R.lo) || !mpfr_number_p(R.hi));
             more++) {
            if (more == 3 || R.p >= EM_ROUND_MAX_PREC) {
                st = EM_ERR_UNDECIDED;
                break;
            }
            st = rounder_refine(&R);
        }
        if (st != EM_OK)
            goto done;
        /* Ziv's test first: both ends round to the same decimal and double, then so does
         * every number between them (rounding is monotone) */
        if (!mpfr_inf_p(R.lo) && !mpfr_inf_p(R.hi) && mpfr_sgn(R.lo) == mpfr_sgn(R.hi)) {
            double d1 = mpfr_get_d(R.lo, MPFR_RNDN), d2 = mpfr_get_d(R.hi, MPFR_RNDN);
            if (d1 == d2 && !isinf(d1)) {
                char *str = NULL;
                int same = ends_decimal(R.lo, R.hi, K, &str);
                if (same) {
                    em_cval_clear(out);
                    out->str = str;
                    out->d = d1;
                    out->flags = 0;
                    st = out->str ? EM_OK : EM_ERR_NOMEM;
                    goto done;
                }
            }
        }
        mpfr_t x;
        mpfr_init2(x, R.p + 8);
        mpfr_add(x, R.lo, R.hi, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
        st = em_round_walk(rcmp_cb, &R, x, K, out);
        mpfr_clear(x);
    }
done:
    mpfr_clears(R.lo, R.hi, (mpfr_ptr)0);
    return st;
}

int em_round(const em_rval *v, int K, mpfr_prec_t prec0, em_cval *out)
{
    em_range r = em_range_enter();
    int st = em_round_impl(v, K, prec0, out);
    em_range_leave(r);
    return st;
}

int em_round_cmp(const em_rval *v, mpfr_prec_t prec0, const mpq_t B, int *sign)
{
    em_range r = em_range_enter();
    struct rounder R;
    int st = rounder_init(&R, v, prec0);
    if (st == EM_OK)
        st = rcmp(&R, B, sign);
    mpfr_clears(R.lo, R.hi, (mpfr_ptr)0);
    em_range_leave(r);
    return st;
}

/* ------------------------------------------------------ from the logarithm */

/* exp(a) to a double for a in [lo, hi]: 1 when both ends give the same one */
static int exp_double(mpfr_srcptr lo, mpfr_srcptr hi, double *d)
{
    if (mpfr_cmp_d(hi, -745.2) < 0) { /* below 2^-1075 = exp(-745.13...): rounds to 0 */
        *d = 0.0;
        return 1;
    }
    if (mpfr_cmp_d(lo, 709.8) > 0) { /* above DBL_MAX's rounding boundary */
        *d = INFINITY;
        return 1;
    }
    mpfr_prec_t p = mpfr_get_prec(lo) > 64 ? mpfr_get_prec(lo) : 64;
    mpfr_t y1, y2;
    mpfr_inits2(p, y1, y2, (mpfr_ptr)0);
    mpfr_exp(y1, lo, MPFR_RNDD);
    mpfr_exp(y2, hi, MPFR_RNDU);
    double d1 = mpfr_get_d(y1, MPFR_RNDN), d2 = mpfr_get_d(y2, MPFR_RNDN);
    mpfr_clears(y1, y2, (mpfr_ptr)0);
    *d = d1;
    return d1 == d2;
}

/* 10^x for every x in [xlo, xhi] (x's precision carries its integer part) rounds to the
 * same K-digit decimal?  Then 1 with it in d (0.d 10^e), else 0; e2 scratch.  The ends are
 * 10^floor(x) times 10^frac(x) rounded down and up (MPFR, src/trusted/em_mpfr.h M1), in
 * [1, 10]; em_dec10_decide (WP-proven on the codes) decides on the two significands,
 * the upper one times ten when its decade is the next (exact at 4 more bits). */
static int pow10_decide(mpfr_srcptr xlo, mpfr_srcptr xhi, int K, char *d, mpz_t e, mpz_t e2)
{
    em_dec10 c;
    em_dec10_init_single(&c, K);
    mpfr_prec_t p = mpfr_get_prec(xlo) > mpfr_get_prec(xhi) ? mpfr_get_prec(xlo) : mpfr_get_prec(xhi);
    mpfr_t fl, f, Ml, Mh;
    mpfr_inits2(p, fl, f, Ml, (mpfr_ptr)0);
    mpfr_init2(Mh, p + 4);
    mpfr_floor(fl, xlo);                   /* exact: same precision */
    mpfr_sub(f, xlo, fl, MPFR_RNDN);       /* exact: 0 <= f < 1 */
    mpfr_exp10(Ml, f, MPFR_RNDD);
    mpfr_get_z(e, fl, MPFR_RNDN);
    mpfr_floor(fl, xhi);
    mpfr_sub(f, xhi, fl, MPFR_RNDN);
    mpfr_prec_round(Mh, p, MPFR_RNDN);
    mpfr_exp10(Mh, f, MPFR_RNDU);
    mpfr_get_z(e2, fl, MPFR_RNDN);
    mpfr_prec_round(Mh, p + 4, MPFR_RNDN); /* exact: more bits */
    mpz_sub(e2, e2, e);
    int same = 0;
    if (mpz_cmp_ui(e2, 1) <= 0 && mpz_sgn(e2) >= 0) {
        if (mpz_sgn(e2) > 0)
            mpfr_mul_ui(Mh, Mh, 10, MPFR_RNDN); /* exact: p + 4 bits hold 10 M */
        mpz_t q;
        mpz_init(q);
        long ex;
        same = em_dec10_decide(&c, Ml, Mh, q, &ex) == 1;
        if (same) {
            em_dec10_digits(&c, q, d);
            if (ex >= 0)
                mpz_add_ui(e, e, (unsigned long)ex);
            else
                mpz_sub_ui(e, e, (unsigned long)-ex);
        }
        mpz_clear(q);
    }
    mpfr_clears(fl, f, Ml, Mh, (mpfr_ptr)0);
    em_dec10_clear(&c);
    return same;
}

int em_round_exp_digits(mpfr_srcptr lo, mpfr_srcptr hi, int K, char *d1, char *d2, mpz_t e1,
                        mpz_t e2)
{
    mpfr_prec_t p = mpfr_get_prec(lo) > mpfr_get_prec(hi) ? mpfr_get_prec(lo) : mpfr_get_prec(hi);
    mpfr_t l10lo, l10hi, xlo, xhi;
    mpfr_inits2(p + 8, l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
    mpfr_log_ui(l10lo, 10, MPFR_RNDD);
    mpfr_log_ui(l10hi, 10, MPFR_RNDU);
    mpfr_div(xlo, lo, mpfr_sgn(lo) < 0 ? l10lo : l10hi, MPFR_RNDD);
    mpfr_div(xhi, hi, mpfr_sgn(hi) < 0 ? l10hi : l10lo, MPFR_RNDU);
    (void)d2; /* scratch no longer needed: kept in the signature for the callers */
    int same = pow10_decide(xlo, xhi, K, d1, e1, e2);
    mpfr_clears(l10lo, l10hi, xlo, xhi, (mpfr_ptr)0);
    return same;
}

static int round_exp(const em_rval *a, int neg, int K, mpfr_prec_t prec0, em_cval *out)
{
    char *d1 = malloc((size_t)K + 16), *d2 = malloc((size_t)K + 16);
    mpz_t e1, e2;
    mpz_inits(e1, e2, (mpz_ptr)0);
    mpfr_t lo, hi;
    mpfr_prec_t p = prec0 < 64 ? 64 : prec0;
    mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
    int st = d1 && d2 ? EM_ERR_UNDECIDED : EM_ERR_NOMEM;
    for (; st == EM_ERR_UNDECIDED && p <= EM_ROUND_MAX_PREC; p *= 2) {
        mpfr_set_prec(lo, p);
        mpfr_set_prec(hi, p);
        int sb = a->bounds(a->ctx, p, lo, hi);
        double d;
        if (sb != EM_OK) {
            st = sb;
        } else if (exp_double(lo, hi, &d) && em_round_exp_digits(lo, hi, K, d1, d2, e1, e2)) {
            em_cval_clear(out);
            out->str = em_format_decimal(neg, d1, e1);
            out->d = neg ? -d : d;
            out->flags = 0;
            st = out->str ? EM_OK : EM_ERR_NOMEM;
        }
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpz_clears(e1, e2, (mpz_ptr)0);
    free(d1);
    free(d2);
    return st;
}

int em_round_exp(const em_rval *a, int neg, int K, mpfr_prec_t prec0, em_cval *out)
{
    em_range r = em_range_enter();
    int st = round_exp(a, neg, K, prec0, out);
    em_range_leave(r);
    return st;
}

static int q_bounds_of(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    (void)prec;
    em_q_bounds(lo, hi, (mpq_srcptr)ctx);
    return EM_OK;
}

static int q_cmp_of(void *ctx, const mpq_t B, int *sign)
{
    int c = mpq_cmp((mpq_srcptr)ctx, B);
    *sign = (c > 0) - (c < 0);
    return EM_OK;
}

int em_round_q(const mpq_t q, int K, em_cval *out)
{
    em_rval v = {q_bounds_of, q_cmp_of, (void *)q};
    int st = em_round(&v, K, (mpfr_prec_t)(K * 3.33) + 64, out);
    if (st == EM_OK && !(out->flags & EM_CV_EXACT)) {
        /* exact when the decimal is the value */
        mpq_t r;
        mpq_init(r);
        int kind;
        if (em_q_parse_str(out->str, 0, r, &kind, NULL) == EM_OK && mpq_equal(r, q))
            out->flags |= EM_CV_EXACT;
        mpq_clear(r);
    }
    return st;
}
