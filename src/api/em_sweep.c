/* em_sweep.c: the epsilon sweep of the reports (em_sweep.h).  Every point is exact (GMP
 * rationals) or, for the inner points of a log-spaced sweep, correctly rounded at 17
 * significant digits by em_round (num/em_round.h) over directed-rounding MPFR bounds; a
 * point that is itself rational (then possibly a tie) is rounded with exact comparisons. */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "em_base.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
#include "base/em_mem.h"
#include "core/em_params.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "em_sweep.h"
#include "api/em_obj.h"

#define SWEEP_DIGITS 17        /* significant digits of a log-spaced inner point */
#define LINEAR_DIGITS 40       /* an exact decimal up to this many digits, else num/den */
#define TEXT_MAX (1L << 26)    /* bytes of all the points' texts: 64 MiB */

/* One value s[0..len) of the spec into q: exact, finite and > 0. */
static int value(const char *s, size_t len, mpq_t q, em_error *err)
{
    int kind;
    const char *msg = NULL;
    if (em_q_parse(s, len, 0, q, &kind, &msg) != EM_OK)
        return em_err(err, EM_ERR_PARSE, "bad number '%.*s': %s", (int)(len > 60 ? 60 : len), s,
                      msg ? msg : "malformed");
    if (mpq_sgn(q) <= 0)
        return em_err(err, EM_ERR_EPSILON, "bad number '%.*s': must be > 0",
                      (int)(len > 60 ? 60 : len), s);
    return EM_OK;
}

/* The number of points of LO:HI:N: digits only, 2..EM_SWEEP_MAX. */
static int points(const char *s, size_t *n, em_error *err)
{
    size_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((v = v * 10 + (size_t)(*p - '0')) > EM_SWEEP_MAX)
            break;
    if (p == s || (*p && v <= EM_SWEEP_MAX))
        return em_err(err, EM_ERR_PARSE, "bad number of points '%.60s': digits expected", s);
    if (v < 2 || v > EM_SWEEP_MAX)
        return em_err(err, EM_ERR_PARSE, "bad number of points '%.60s': must be 2 to %d", s,
                      EM_SWEEP_MAX);
    *n = v;
    return EM_OK;
}

/* r = the value of c (a decimal em_round wrote: em_q_parse reads every one), after st. */
static int read_back(int st, em_cval *c, mpq_t r)
{
    int kind;
    if (st == EM_OK && em_q_parse_str(c->str, 0, r, &kind, NULL) != EM_OK)
        st = EM_ERR_PARSE;
    em_cval_clear(c);
    return st;
}

/* lo ratio^(i/m) (every step increasing in its argument, so rounding each in direction rnd
 * bounds the result in that direction) */
struct point {
    mpq_srcptr lo, ratio;
    unsigned long i, m;
};

static int point_bounds(void *ctx, mpfr_prec_t prec, mpfr_t lo, mpfr_t hi)
{
    const struct point *P = ctx;
    for (int up = 0; up < 2; up++) {
        mpfr_rnd_t rnd = up ? MPFR_RNDU : MPFR_RNDD;
        mpfr_ptr x = up ? hi : lo;
        mpfr_set_prec(x, prec);
        mpfr_set_q(x, P->ratio, rnd);
        mpfr_log(x, x, rnd);
        mpfr_mul_ui(x, x, P->i, rnd);
        mpfr_div_ui(x, x, P->m, rnd);
        mpfr_exp(x, x, rnd);
        mpfr_mul_q(x, x, P->lo, rnd);
    }
    return EM_OK;
}

/* r = lo ratio^(i/m) (0 < i < m) correctly rounded at SWEEP_DIGITS digits. */
static int log_point(const mpq_t lo, const mpq_t ratio, unsigned long i, unsigned long m,
                     mpq_t r, em_error *err)
{
    unsigned long a = i, b = m;
    while (b) { /* gcd(i, m) */
        unsigned long t = a % b;
        a = b;
        b = t;
    }
    unsigned long p = i / a, q = m / a;
    mpz_t rn, rd;
    mpz_inits(rn, rd, (mpz_ptr)0);
    mpq_t x;
    mpq_init(x);
    em_cval c;
    em_cval_init(&c);
    int st;
    /* ratio^(p/q) with gcd(p, q) = 1 is rational iff the numerator and denominator of
       ratio (coprime) are q-th powers: rounded exactly, else known by its bounds */
    if (mpz_root(rn, mpq_numref(ratio), q) && mpz_root(rd, mpq_denref(ratio), q)) {
        mpz_pow_ui(mpq_numref(x), rn, p);
        mpz_pow_ui(mpq_denref(x), rd, p);
        mpq_mul(x, x, lo);
        st = read_back(em_round_q(x, SWEEP_DIGITS, &c), &c, r);
    } else {
        struct point P = {lo, ratio, i, m};
        em_rval v = {point_bounds, NULL, &P};
        st = read_back(em_round(&v, SWEEP_DIGITS, 64, &c), &c, r);
    }
    if (st == EM_ERR_UNDECIDED)
        st = em_err(err, EM_ERR_DOMAIN, "log-spaced point %lu of %lu: not decided at %ld bits",
                    i + 1, m + 1, (long)EM_ROUND_MAX_PREC);
    else if (st != EM_OK)
        st = em_err(err, st, "log-spaced point %lu of %lu: %s", i + 1, m + 1, em_strerror(st));
    mpz_clears(rn, rd, (mpz_ptr)0);
    mpq_clear(x);
    return st;
}

/* The text of point i (x, which it overwrites) of the sweep s: one em_mech_new reads back
 * (a point between two numbers of 10^4 digits may have more), with *total, the bytes of
 * the texts so far, at most TEXT_MAX (10^5 such points would take gigabytes). */
static int text(const char *s, mpq_t x, unsigned long i, char **out, size_t *total,
                em_error *err)
{
    int kind;
    const char *msg = NULL;
    if (!(*out = em_q_to_string(x, LINEAR_DIGITS)))
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    if ((*total += strlen(*out)) > TEXT_MAX)
        return em_err(err, EM_ERR_PARSE, "sweep '%.60s': the points' texts pass %ld MiB", s,
                      TEXT_MAX >> 20);
    if (em_q_parse_str(*out, 0, x, &kind, &msg) != EM_OK)
        return em_err(err, EM_ERR_PARSE, "sweep '%.60s': point %lu: %s", s, i + 1,
                      msg ? msg : "malformed");
    return EM_OK;
}

/* The points of LO:HI:N (s has exactly two colons) into v[0..n). */
static int range(const char *s, int log_spaced, char ***v, size_t *n, em_error *err)
{
    const char *c1 = strchr(s, ':'), *c2 = strchr(c1 + 1, ':');
    mpq_t lo, hi, step, x;
    mpq_inits(lo, hi, step, x, (mpq_ptr)0);
    size_t total = 0;
    int st = value(s, (size_t)(c1 - s), lo, err);
    if (st == EM_OK)
        st = value(c1 + 1, (size_t)(c2 - c1 - 1), hi, err);
    if (st == EM_OK)
        st = points(c2 + 1, n, err);
    if (st == EM_OK && mpq_cmp(lo, hi) >= 0)
        st = em_err(err, EM_ERR_PARSE, "sweep '%.60s': LO must be below HI", s);
    if (st == EM_OK && !(*v = em_obj_strv(*n)))
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK) {
        unsigned long m = (unsigned long)*n - 1;
        /* linear: the step; log-spaced: the ratio hi/lo */
        if (log_spaced) {
            mpq_div(step, hi, lo);
        } else {
            mpq_sub(step, hi, lo);
            mpz_mul_ui(mpq_denref(step), mpq_denref(step), m);
            mpq_canonicalize(step);
        }
        for (unsigned long i = 0; i <= m && st == EM_OK; i++) {
            if (i == 0 || i == m) {
                mpq_set(x, i ? hi : lo);
            } else if (log_spaced) {
                st = log_point(lo, step, i, m, x, err);
            } else {
                mpq_set_ui(x, i, 1);
                mpq_mul(x, x, step);
                mpq_add(x, x, lo);
            }
            if (st == EM_OK)
                st = text(s, x, i, &(*v)[i], &total, err);
        }
    }
    mpq_clears(lo, hi, step, x, (mpq_ptr)0);
    return st;
}

/* The values of "E" or "E1,E2,...", kept as given. */
static int list(const char *s, char ***v, size_t *n, em_error *err)
{
    size_t k = 1;
    for (const char *p = s; *p; p++)
        k += *p == ',';
    if (k > EM_SWEEP_MAX)
        return em_err(err, EM_ERR_PARSE, "more than %d values of epsilon", EM_SWEEP_MAX);
    if (!(*v = em_obj_strv(k)))
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    *n = k;
    mpq_t q;
    mpq_init(q);
    int st = EM_OK;
    const char *p = s;
    for (size_t i = 0; i < k && st == EM_OK; i++) {
        size_t len = strcspn(p, ",");
        st = value(p, len, q, err);
        if (st == EM_OK && !((*v)[i] = strndup(p, len)))
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        p += len + 1;
    }
    mpq_clear(q);
    return st;
}

int em_epsilon_sweep(const char *spec, int log_spaced, char ***out, size_t *n, em_error *err)
{
    if (!out || !n)
        return em_err(err, EM_ERR_NULL, "em_epsilon_sweep: out or n is NULL");
    *out = NULL;
    *n = 0;
    if (!spec)
        return em_err(err, EM_ERR_NULL, "em_epsilon_sweep: spec is NULL");
    size_t colons = 0;
    for (const char *p = spec; *p; p++)
        colons += *p == ':';
    char **v = NULL;
    size_t k = 0;
    int st;
    if (colons == 2)
        st = range(spec, log_spaced, &v, &k, err);
    else if (colons || log_spaced)
        st = em_err(err, EM_ERR_PARSE, "sweep '%.60s': expected %sLO:HI:N", spec,
                    log_spaced ? "" : "E, E1,E2,... or ");
    else
        st = list(spec, &v, &k, err);
    if (st != EM_OK) {
        em_free(v);
        return st;
    }
    *out = v;
    *n = k;
    em_err_ok(err);
    return EM_OK;
}
