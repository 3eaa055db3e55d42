/* test_exact_enum.h: exhaustive bit-level enumeration of a sampler driven by a scripted
 * bit source (em_bits), and the scenarios with oracle intervals, shared by
 * tests/test_exact.c and tests/test_pf.c.  Header-only (static functions). */
#ifndef TEST_EXACT_ENUM_H
#define TEST_EXACT_ENUM_H

#include <math.h>
#include <stdio.h>

#include "em_test_util.h"

#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "em_problem_util.h"
#include "num/em_rational.h"

#define MAXL 40
#define ORACLE_DIGITS 40

/* ------------------------------------------------------------ enumeration */

typedef int (*sampler_fn)(void *ctx, em_bits *b, size_t *out);

typedef struct enum_state {
    sampler_fn f;
    void *ctx;
    size_t n;
    unsigned L;
    unsigned char bits[MAXL];
    mpz_t *count; /* count[i] / 2^L = finished mass of cell i */
    mpz_t unf;    /* unf / 2^L = unfinished mass */
    uint64_t runs;
    int bad;      /* a sampler error other than "script ran out" */
} enum_state;

static inline void run_prefix(enum_state *e, unsigned len);

/* acc += 2^k.  A leaf below 64 bits is one mpz_add_ui, without an allocation: the
   enumerations visit up to 2^24 leaves, and an mpz temporary per leaf made them 50 times
   slower under AddressSanitizer (make sanitize) than the sampler they test. */
static inline void add_pow2(mpz_t acc, unsigned k)
{
    if (k < 64) {
        mpz_add_ui(acc, acc, (unsigned long)1 << k);
        return;
    }
    mpz_t one;
    mpz_init_set_ui(one, 1);
    mpz_mul_2exp(one, one, k);
    mpz_add(acc, acc, one);
    mpz_clear(one);
}

static inline void extend(enum_state *e, unsigned len, unsigned target)
{
    if (len == target) {
        run_prefix(e, len);
        return;
    }
    e->bits[len] = 0;
    extend(e, len + 1, target);
    e->bits[len] = 1;
    extend(e, len + 1, target);
}

static inline void run_prefix(enum_state *e, unsigned len)
{
    em_bits b;
    em_bits_init_script(&b, e->bits, len);
    size_t r = SIZE_MAX;
    int st = e->f(e->ctx, &b, &r);
    e->runs++;
    if (st == EM_OK) {
        if (r >= e->n || b.used != len) {
            e->bad = 1;
            return;
        }
        add_pow2(e->count[r], e->L - len);
    } else if (st == EM_ERR_RNG && b.wanted > len) {
        if (b.wanted > e->L) {
            add_pow2(e->unf, e->L - len);
        } else {
            extend(e, len, (unsigned)b.wanted);
        }
    } else {
        e->bad = 1;
    }
}

static inline void enum_init(enum_state *e, sampler_fn f, void *ctx, size_t n, unsigned L)
{
    memset(e, 0, sizeof *e);
    e->f = f;
    e->ctx = ctx;
    e->n = n;
    e->L = L;
    e->count = malloc(n * sizeof *e->count);
    for (size_t i = 0; i < n; i++)
        mpz_init(e->count[i]);
    mpz_init(e->unf);
    run_prefix(e, 0);
}

static inline void enum_free(enum_state *e)
{
    for (size_t i = 0; i < e->n; i++)
        mpz_clear(e->count[i]);
    free(e->count);
    mpz_clear(e->unf);
}

/* Exact check: count_i / 2^L <= plo_i... with p_i in [plo_i, phi_i]:
 * violated when count_i / 2^L > phi_i or (count_i + unf) / 2^L < plo_i.
 * Returns the number of violating cells; also checks the total mass is 1. */
static inline int enum_violations(const enum_state *e, mpq_t *plo, mpq_t *phi)
{
    int bad = 0;
    mpz_t tot;
    mpz_init_set(tot, e->unf);
    mpq_t m, mu;
    mpq_inits(m, mu, NULL);
    for (size_t i = 0; i < e->n; i++) {
        mpz_add(tot, tot, e->count[i]);
        mpq_set_z(m, e->count[i]);
        mpq_div_2exp(m, m, e->L);
        mpz_add(mpq_numref(mu), e->count[i], e->unf);
        mpz_set_ui(mpq_denref(mu), 1);
        mpq_div_2exp(mu, mu, e->L);
        if (mpq_cmp(m, phi[i]) > 0 || mpq_cmp(mu, plo[i]) < 0)
            bad++;
    }
    mpz_t full;
    mpz_init_set_ui(full, 1);
    mpz_mul_2exp(full, full, e->L);
    ck_assert(mpz_cmp(tot, full) == 0);
    mpz_clears(tot, full, NULL);
    mpq_clears(m, mu, NULL);
    return bad;
}

static inline double enum_unf(const enum_state *e)
{
    return ldexp(mpz_get_d(e->unf), -(int)e->L);
}

/* Enumerate the sampler f(ctx) with n cells to length L into e (freed by the caller),
 * asserting that it never fails and never draws a candidate excluded in ex; returns the
 * number of cells violating [plo_i, phi_i] (enum_violations). */
static inline int enum_check(enum_state *e, sampler_fn f, void *ctx, size_t n, unsigned L,
                             const unsigned char *ex, mpq_t *plo, mpq_t *phi)
{
    enum_init(e, f, ctx, n, L);
    ck_assert(!e->bad);
    int v = enum_violations(e, plo, phi);
    for (size_t i = 0; i < n; i++)
        if (ex[i])
            ck_assert(mpz_sgn(e->count[i]) == 0); /* an excluded candidate is never drawn */
    return v;
}

/* ------------------------------------------------------------- scenarios */

/* the seed's marital-status utilities (counts / 1000), in the seed's order */
static const char *const marital_u[] = {"10.683", "14.976", "4.443", "0.418",
                                        "1.025",  "0.023",  "0.993"};
/* the same as the doubles nearest them */
static const double marital_d[7] = {10.683, 14.976, 4.443, 0.418, 1.025, 0.023, 0.993};

typedef struct scen {
    size_t n;
    mpq_t u[16];
    unsigned char ex[16];
    mpq_t eps, delta;
    int variant;
    mpq_t plo[16], phi[16];
} scen;

static inline void scen_init(scen *s, size_t n, const char *const *u, const char *eps,
                      const char *delta, int variant)
{
    s->n = n;
    s->variant = variant;
    mpq_inits(s->eps, s->delta, NULL);
    int kind;
    ck_assert_int_eq(em_q_parse_str(eps, 0, s->eps, &kind, NULL), EM_OK);
    ck_assert_int_eq(em_q_parse_str(delta, 0, s->delta, &kind, NULL), EM_OK);
    for (size_t i = 0; i < n; i++) {
        mpq_init(s->u[i]);
        mpq_inits(s->plo[i], s->phi[i], NULL);
        ck_assert_int_eq(em_q_parse_str(u[i], 1, s->u[i], &kind, NULL), EM_OK);
        s->ex[i] = kind == EM_Q_NEG_INF;
    }
    /* ideal probabilities: the oracle's correctly rounded 40-digit decimal d, so
     * |p - d| <= 10^-39 |d| (within one unit of the last digit, generously) */
    em_oracle *o;
    ck_assert_int_eq(tp_oracle_new(n, s->u, s->ex, s->eps, s->delta, variant, ORACLE_DIGITS, &o),
                     EM_OK);
    mpq_t d, tol;
    mpq_inits(d, tol, NULL);
    mpq_set_ui(tol, 1, 1);
    mpz_ui_pow_ui(mpq_denref(tol), 10, ORACLE_DIGITS - 1);
    for (size_t i = 0; i < n; i++) {
        em_oracle_cand c;
        ck_assert_int_eq(em_oracle_get(o, i, &c), EM_OK);
        if (c.flags & EM_OF_FROM_LOG) {
            /* below MPFR's range (e.g. 10^-(4.3e299)): p in [0, 2^-10000] */
            mpq_set_ui(s->plo[i], 0, 1);
            mpq_set_ui(s->phi[i], 1, 1);
            mpq_div_2exp(s->phi[i], s->phi[i], 10000);
            continue;
        }
        ck_assert_int_eq(em_q_parse_str(c.prob, 0, d, &kind, NULL), EM_OK);
        mpq_t h;
        mpq_init(h);
        mpq_mul(h, d, tol);       /* d >= 0 */
        mpq_sub(s->plo[i], d, h);
        mpq_add(s->phi[i], d, h);
        mpq_clear(h);
        if (c.flags & (EM_OF_ZERO | EM_OF_ONE | EM_OF_RATIONAL)) {
            mpq_set(s->plo[i], d); /* exact */
            mpq_set(s->phi[i], d);
        }
    }
    mpq_clears(d, tol, NULL);
    em_oracle_free(o);
}

/* floor(F(1) 2^63) for the two utilities {0, -1} at epsilon = delta = 1 (standard variant):
 * F(1) = 1/(1 + e^-1/2), from MPFR at 256 bits.  U's bits F1 then zeros lie below F(1)
 * (cell 0), then ones above it (cell 1): a draw the cheap words leave undecided. */
static inline uint64_t two_cell_f1(void)
{
    mpfr_t f;
    mpfr_init2(f, 256);
    mpfr_set_si(f, -1, MPFR_RNDN);
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);
    mpfr_exp(f, f, MPFR_RNDN);
    mpfr_add_ui(f, f, 1, MPFR_RNDN);
    mpfr_ui_div(f, 1, f, MPFR_RNDN);
    mpfr_mul_2ui(f, f, 63, MPFR_RNDN);
    uint64_t F1 = (uint64_t)mpfr_get_uj(f, MPFR_RNDD);
    mpfr_clear(f);
    return F1;
}

/* scen_init of the reals that doubles denote (each as a C99 hex float: exact); an excluded
 * candidate (ex[i] set, or u[i] = -inf) as "-inf". */
static inline void scen_init_d(scen *s, size_t n, const double *u, const unsigned char *ex,
                               double eps, double delta, int variant)
{
    char buf[16][64], se[64], sd[64];
    const char *us[16];
    for (size_t i = 0; i < n; i++) {
        if ((ex && ex[i]) || u[i] == -HUGE_VAL)
            snprintf(buf[i], sizeof buf[i], "-inf");
        else
            snprintf(buf[i], sizeof buf[i], "%a", u[i]);
        us[i] = buf[i];
    }
    snprintf(se, sizeof se, "%a", eps);
    snprintf(sd, sizeof sd, "%a", delta);
    scen_init(s, n, us, se, sd, variant);
}

static inline void scen_free(scen *s)
{
    for (size_t i = 0; i < s->n; i++)
        mpq_clears(s->u[i], s->plo[i], s->phi[i], NULL);
    mpq_clears(s->eps, s->delta, NULL);
}

#endif
