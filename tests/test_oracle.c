/* test_oracle.c: exact parsing, the MPFR oracle, and the test vectors.
 *
 *   build/tests/test_oracle                  run the Check tests (make unit)
 *   build/tests/test_oracle --write-vectors  regenerate tests/vectors/NAME.json
 *
 * The vectors are defined here (vector_families); the test "vectors_regenerate" rebuilds
 * every file in memory and fails on any byte of difference, and "vectors_independent"
 * checks every stored number against tests/vectors_independent.h, which shares no code
 * with the oracle. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpfr.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "io/em_scn_text.h"
#include "io/em_text.h"
#include "expmech.h"
#include "num/em_format.h"
#include "api/em_write_priv.h"
#include "oracle/em_oracle.h"
#include "em_problem_util.h"
#include "num/em_rational.h"
#include "vectors_independent.h"

static const char *vectors_dir(void)
{
    const char *d = getenv("EM_VECTORS_DIR");
    return d ? d : "tests/vectors";
}

/* ------------------------------------------------------------- parsing */

static int q_is(const char *s, const char *expect /* "num/den" or "num" */)
{
    mpq_t q, e;
    mpq_init(q);
    mpq_init(e);
    int kind = -1;
    const char *msg;
    int ok = em_q_parse_str(s, 1, q, &kind, &msg) == EM_OK && kind == EM_Q_FINITE;
    if (ok) {
        mpq_set_str(e, expect, 10);
        mpq_canonicalize(e);
        ok = mpq_equal(q, e);
    }
    mpq_clear(q);
    mpq_clear(e);
    return ok;
}

static int q_rejects(const char *s, const char *msg_part)
{
    mpq_t q;
    mpq_init(q);
    int kind;
    const char *msg = NULL;
    int st = em_q_parse_str(s, 0, q, &kind, &msg);
    mpq_clear(q);
    return st == EM_ERR_PARSE && msg && (!msg_part || strstr(msg, msg_part));
}

START_TEST(parse_decimal)
{
    ck_assert(q_is("0.1", "1/10"));
    ck_assert(q_is("-12.5e3", "-12500"));
    ck_assert(q_is("10.683", "10683/1000"));
    ck_assert(q_is("+7", "7"));
    ck_assert(q_is(".5", "1/2"));
    ck_assert(q_is("5.", "5"));
    ck_assert(q_is("1E2", "100"));
    ck_assert(q_is("-0", "0"));
    ck_assert(q_is("4100/4140", "205/207"));
    ck_assert(q_is("-1/3", "-1/3"));
    /* 1e300 and 1e-300 exactly */
    char big[400] = "1";
    for (int i = 0; i < 300; i++) strcat(big, "0");
    ck_assert(q_is("1e300", big));
    char small[420] = "1/";
    strcat(small, big);
    ck_assert(q_is("1e-300", small));
    mpq_t q;
    mpq_init(q);
    int kind;
    const char *msg;
    ck_assert_int_eq(em_q_parse_str("1e10000", 0, q, &kind, &msg), EM_OK);
    ck_assert_int_eq(em_q_parse_str("1e-10000", 0, q, &kind, &msg), EM_OK);
    mpq_clear(q);
}
END_TEST

START_TEST(parse_hex)
{
    ck_assert(q_is("0x1.8p3", "12"));
    ck_assert(q_is("0X10", "16"));
    ck_assert(q_is("-0x.8p1", "-1"));
    ck_assert(q_is("0x1p-2", "1/4"));
    ck_assert(q_is("0x1.fffffffffffffp+1023",
                   "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"));
    ck_assert(q_rejects("0x", "hex digits"));
    ck_assert(q_rejects("0x1p", "exponent"));
    ck_assert(q_rejects("0x1g", NULL));
    ck_assert(q_rejects("0x1p40000", "binary exponent"));
}
END_TEST

START_TEST(parse_special_and_errors)
{
    mpq_t q;
    mpq_init(q);
    int kind = -1;
    const char *msg = NULL;
    ck_assert_int_eq(em_q_parse_str("-inf", 1, q, &kind, &msg), EM_OK);
    ck_assert_int_eq(kind, EM_Q_NEG_INF);
    ck_assert_int_eq(em_q_parse_str("-Infinity", 1, q, &kind, &msg), EM_OK);
    ck_assert_int_eq(kind, EM_Q_NEG_INF);
    ck_assert_int_eq(em_q_parse_str("-inf", 0, q, &kind, &msg), EM_ERR_PARSE);
    mpq_clear(q);
    ck_assert(q_rejects("inf", "+inf"));
    ck_assert(q_rejects("+inf", "+inf"));
    ck_assert(q_rejects("nan", "NaN"));
    ck_assert(q_rejects("-NaN", "NaN"));
    ck_assert(q_rejects("", "empty"));
    ck_assert(q_rejects("-", NULL));
    ck_assert(q_rejects("abc", "not a number"));
    ck_assert(q_rejects("1.2.3", "two decimal points"));
    ck_assert(q_rejects("1e", "exponent"));
    ck_assert(q_rejects("1e+", "exponent"));
    ck_assert(q_rejects("e5", NULL));
    ck_assert(q_rejects("--1", NULL));
    ck_assert(q_rejects(" 1", NULL));
    ck_assert(q_rejects("1 ", NULL));
    ck_assert(q_rejects("1,5", NULL));
    ck_assert(q_rejects("1_000", NULL));
    ck_assert(q_rejects("1e10001", "exponent too large"));
    ck_assert(q_rejects("1e-99999999999999999999", "exponent too large"));
    ck_assert(q_rejects("1/0", "zero denominator"));
    ck_assert(q_rejects("1/", "denominator"));
    ck_assert(q_rejects("1.5/2", "integers"));
    ck_assert(q_rejects("1/2/3", NULL));
    ck_assert_int_eq(em_q_parse(NULL, 0, 0, NULL, NULL, NULL), EM_ERR_NULL);
}
END_TEST

START_TEST(q_to_double)
{
    mpq_t q;
    mpq_init(q);
    int kind, ovf;
    const char *msg;
    em_q_parse_str("0.1", 0, q, &kind, &msg);
    ck_assert(em_q_get_d(q, &ovf) == 0.1 && !ovf);
    em_q_parse_str("1e400", 0, q, &kind, &msg);
    ck_assert(isinf(em_q_get_d(q, &ovf)) && ovf);
    em_q_parse_str("-1e400", 0, q, &kind, &msg);
    ck_assert(em_q_get_d(q, &ovf) == -INFINITY && ovf);
    em_q_parse_str("0x1p-1075", 0, q, &kind, &msg); /* a tie: to even, 0 */
    ck_assert(em_q_get_d(q, NULL) == 0.0);
    em_q_parse_str("0x1.8p-1075", 0, q, &kind, &msg); /* above the tie: 2^-1074 */
    ck_assert(em_q_get_d(q, NULL) == 0x1p-1074);
    em_q_parse_str("0x3p-1075", 0, q, &kind, &msg); /* 1.5 * 2^-1074: tie to even 2^-1073 */
    ck_assert(em_q_get_d(q, NULL) == 0x1p-1073);
    em_q_parse_str("1e-320", 0, q, &kind, &msg);
    ck_assert(em_q_get_d(q, NULL) == 1e-320);
    em_q_parse_str("10.683", 0, q, &kind, &msg);
    ck_assert(em_q_get_d(q, NULL) == 10.683);
    mpq_clear(q);
}
END_TEST

static int qs_is(const char *in, const char *out)
{
    mpq_t q;
    mpq_init(q);
    int kind;
    const char *msg;
    em_q_parse_str(in, 0, q, &kind, &msg);
    char *s = em_q_to_string(q, 60);
    int ok = s && !strcmp(s, out);
    if (!ok)
        fprintf(stderr, "em_q_to_string(%s) = %s, expected %s\n", in, s ? s : "NULL", out);
    free(s);
    mpq_clear(q);
    return ok;
}

START_TEST(q_to_string)
{
    ck_assert(qs_is("10.683", "10.683"));
    ck_assert(qs_is("1e300", "1e+300"));
    ck_assert(qs_is("-1e-300", "-1e-300"));
    ck_assert(qs_is("1/3", "1/3"));
    ck_assert(qs_is("0.5", "0.5"));
    ck_assert(qs_is("-2.5e-7", "-2.5e-7"));
    ck_assert(qs_is("0x1.8p3", "12"));
    ck_assert(qs_is("0", "0"));
    ck_assert(qs_is("1234567", "1234567"));
    ck_assert(qs_is("0.000123", "0.000123"));
}
END_TEST

/* -------------------------------------------------------------- oracle */

typedef struct run {
    size_t n;
    char **p, **l;
    double *pd, *ld;
    unsigned *flags;
} run;

static int oracle_run(const char *text, const char *eps, const char *delta, int variant, int K, run *r)
{
    em_scn sc;
    em_scn_init(&sc);
    em_error err;
    if (em_scn_read(&sc, text, strlen(text), "t", &err) != EM_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    mpq_t e, d;
    mpq_init(e);
    mpq_init(d);
    int kind;
    const char *msg;
    em_q_parse_str(eps, 0, e, &kind, &msg);
    em_q_parse_str(delta, 0, d, &kind, &msg);
    em_oracle *o;
    int st = tp_oracle_new(sc.n, sc.u, sc.excluded, e, d, variant, K, &o);
    if (st == EM_OK) {
        r->n = sc.n;
        r->p = calloc(sc.n, sizeof *r->p);
        r->l = calloc(sc.n, sizeof *r->l);
        r->pd = calloc(sc.n, sizeof *r->pd);
        r->ld = calloc(sc.n, sizeof *r->ld);
        r->flags = calloc(sc.n, sizeof *r->flags);
        for (size_t i = 0; i < sc.n && st == EM_OK; i++) {
            em_oracle_cand c;
            st = em_oracle_get(o, i, &c);
            if (st == EM_OK) {
                r->p[i] = strdup(c.prob);
                r->l[i] = strdup(c.logprob);
                r->pd[i] = c.prob_d;
                r->ld[i] = c.logprob_d;
                r->flags[i] = c.flags;
            }
        }
        em_oracle_free(o);
    }
    mpq_clear(e);
    mpq_clear(d);
    em_scn_clear(&sc);
    return st;
}

static void run_free(run *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->p[i]);
        free(r->l[i]);
    }
    free(r->p);
    free(r->l);
    free(r->pd);
    free(r->ld);
    free(r->flags);
}

static const char marital_text[] =
    "Never-married,10.683\nMarried-civ-spouse,14.976\nDivorced,4.443\nMarried-spouse-absent,0.418\n"
    "Separated,1.025\nMarried-AF-spouse,0.023\nWidowed,0.993\n";
static const char marital_raw_text[] =
    "Never-married,10683\nMarried-civ-spouse,14976\nDivorced,4443\nMarried-spouse-absent,418\n"
    "Separated,1025\nMarried-AF-spouse,23\nWidowed,993\n";

START_TEST(oracle_marital)
{
    /* checked against mpmath at 200 digits */
    static const char *const P[7] = {"0.10388931391755686", "0.88875894265787771", "0.0045874579316639006",
                                     "0.00061313265907759164", "0.00083054434411843069",
                                     "0.00050324711014115648", "0.00081736137956434570"};
    static const char *const L[7] = {"-2.2644292358529990", "-0.11792923585299897", "-5.3844292358529990",
                                     "-7.3969292358529990", "-7.0934292358529990", "-7.5944292358529990",
                                     "-7.1094292358529990"};
    run r;
    ck_assert_int_eq(oracle_run(marital_text, "1", "1", EM_STANDARD, 17, &r), EM_OK);
    for (int i = 0; i < 7; i++) {
        ck_assert_str_eq(r.p[i], P[i]);
        ck_assert_str_eq(r.l[i], L[i]);
        ck_assert(fabs(r.pd[i] - strtod(P[i], NULL)) <= 2e-16 * r.pd[i]);
        ck_assert_uint_eq(r.flags[i], 0);
    }
    run_free(&r);
}
END_TEST

START_TEST(oracle_marital_raw)
{
    run r;
    ck_assert_int_eq(oracle_run(marital_raw_text, "1", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "6.1220178941509772e-933");
    ck_assert_str_eq(r.l[0], "-2146.5000000000000");
    ck_assert_str_eq(r.p[1], "0.99999999999999999"); /* 1 - 6.1e-933: never printed as 1 */
    ck_assert_str_eq(r.l[1], "-6.1220178941509772e-933");
    ck_assert(r.flags[1] & EM_OF_NEAR_ONE);
    ck_assert(r.pd[1] == 1.0);      /* the correctly rounded double is 1 */
    ck_assert(r.ld[1] == 0.0 && signbit(r.ld[1]));
    ck_assert_str_eq(r.p[5], "9.9381615085231256e-3248");
    ck_assert_str_eq(r.l[5], "-7476.5000000000000");
    ck_assert(r.pd[5] == 0.0);
    ck_assert(r.ld[5] == -7476.5);
    run_free(&r);
}
END_TEST

START_TEST(oracle_exact_cases)
{
    run r;
    ck_assert_int_eq(oracle_run("a,5\nb,-inf\n", "1", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "1");
    ck_assert_str_eq(r.l[0], "0");
    ck_assert_str_eq(r.p[1], "0");
    ck_assert_str_eq(r.l[1], "-inf");
    ck_assert(r.flags[0] == EM_OF_ONE && r.flags[1] == EM_OF_ZERO);
    ck_assert(r.pd[0] == 1.0 && r.ld[0] == 0.0 && r.pd[1] == 0.0 && r.ld[1] == -INFINITY);
    run_free(&r);
    /* ties: 1/8 = 0.125 exactly, K = 2: a decimal tie, to even: 0.12 */
    ck_assert_int_eq(oracle_run("a,1\nb,1\nc,1\nd,1\ne,1\nf,1\ng,1\nh,1\n", "1", "1", EM_STANDARD, 2, &r), EM_OK);
    for (int i = 0; i < 8; i++) {
        ck_assert_str_eq(r.p[i], "0.12");
        ck_assert_str_eq(r.l[i], "-2.1");
        ck_assert(r.flags[i] & EM_OF_RATIONAL);
        ck_assert(r.pd[i] == 0.125);
    }
    run_free(&r);
    ck_assert_int_eq(oracle_run("a,0\nb,0\nc,0\n", "1", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "0.33333333333333333");
    ck_assert_str_eq(r.l[0], "-1.0986122886681097");
    run_free(&r);
    ck_assert_int_eq(oracle_run("a,0\nb,0\n", "1", "1", EM_STANDARD, 5, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "0.50000");
    run_free(&r);
}
END_TEST

START_TEST(oracle_extremes)
{
    run r;
    /* +-1e300: the tail is exp(-1e300): its decimal exponent has 300 digits */
    ck_assert_int_eq(oracle_run("hi,1e300\nlo,-1e300\n", "1", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "0.99999999999999999");
    ck_assert(!strncmp(r.l[0], "-1.8381560062887500e-4342944819032518276511289189166050822943970058036665661144537831658646492088707747292249493384317483187061067447663037336416792871589639065692210646628122658521270865686703295933708696588266883311636077384905142844348666768646586085135561482123487653435434357317253835622281395603048646652366095539377", 200));
    ck_assert(r.flags[0] & EM_OF_LOG_FROM_LOG);
    ck_assert_str_eq(r.l[1], "-1.0000000000000000e+300");
    ck_assert(r.flags[1] & EM_OF_FROM_LOG);
    ck_assert(!strncmp(r.p[1], "1.8381560062887500e-434294481903251827651128918916605082294", 50));
    ck_assert(r.pd[1] == 0.0 && r.ld[1] == -1e300);
    run_free(&r);
    /* the same utilities, three candidates and two tied modes: 1/2 - infinitesimal */
    ck_assert_int_eq(oracle_run("a,1e300\nb,1e300\nc,-1e300\n", "1", "1", EM_STANDARD, 3, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "0.500");
    ck_assert_str_eq(r.l[0], "-0.693");
    run_free(&r);
    /* utilities 1e-300 apart: 1/2 + 2.5e-301 */
    ck_assert_int_eq(oracle_run("a,1e-300\nb,0\n", "1", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.p[0], "0.50000000000000000");
    ck_assert_str_eq(r.l[0], "-0.69314718055994531");
    run_free(&r);
    /* eps = 1e-12 and 1e12 */
    ck_assert_int_eq(oracle_run("a,0\nb,1\n", "1e-12", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.p[1], "0.50000000000012500"); /* 1/2 + eps/8 */
    run_free(&r);
    ck_assert_int_eq(oracle_run("a,0\nb,1\n", "1e12", "1", EM_STANDARD, 17, &r), EM_OK);
    ck_assert_str_eq(r.l[0], "-500000000000.00000");
    ck_assert_str_eq(r.p[1], "0.99999999999999999");
    run_free(&r);
}
END_TEST

/* rounding the 100-digit result to K digits gives the K-digit result (for every K) */
static void round_str(const char *in, int K, char *out)
{
    /* in: "0.000ddd..." or "d.ddde-X": use mpfr at high precision then get_str */
    mpfr_t x;
    mpfr_init2(x, 1000);
    mpfr_strtofr(x, in, NULL, 10, MPFR_RNDN);
    mpfr_exp_t e;
    char d[200];
    mpfr_get_str(d, &e, 10, (size_t)K, x, MPFR_RNDN);
    mpz_t ez;
    mpz_init_set_si(ez, (long)e);
    char *s = em_format_decimal(d[0] == '-', d[0] == '-' ? d + 1 : d, ez);
    strcpy(out, s);
    free(s);
    mpz_clear(ez);
    mpfr_clear(x);
}

START_TEST(oracle_digits_consistent)
{
    run r100;
    ck_assert_int_eq(oracle_run(marital_text, "0.7", "1.5", EM_MONOTONE, 100, &r100), EM_OK);
    for (int K = 1; K <= 60; K++) {
        run r;
        ck_assert_int_eq(oracle_run(marital_text, "0.7", "1.5", EM_MONOTONE, K, &r), EM_OK);
        for (size_t i = 0; i < r.n; i++) {
            char buf[300];
            round_str(r100.p[i], K, buf);
            ck_assert_msg(!strcmp(buf, r.p[i]), "K=%d i=%zu: %s vs %s", K, i, buf, r.p[i]);
            round_str(r100.l[i], K, buf);
            ck_assert_msg(!strcmp(buf, r.l[i]), "K=%d i=%zu: %s vs %s", K, i, buf, r.l[i]);
            ck_assert(r.pd[i] == r100.pd[i] && r.ld[i] == r100.ld[i]);
        }
        run_free(&r);
    }
    /* the doubles are the correctly rounded ones (strtod of 100 digits rounds correctly) */
    for (size_t i = 0; i < r100.n; i++) {
        ck_assert(r100.pd[i] == strtod(r100.p[i], NULL));
        ck_assert(r100.ld[i] == strtod(r100.l[i], NULL));
    }
    run_free(&r100);
}
END_TEST

START_TEST(oracle_errors)
{
    mpq_t u[2], e, d, z;
    mpq_init(u[0]);
    mpq_init(u[1]);
    mpq_init(e);
    mpq_init(d);
    mpq_init(z);
    mpq_set_ui(e, 1, 1);
    mpq_set_ui(d, 1, 1);
    em_oracle *o;
    unsigned char ex[2] = {1, 1};
    ck_assert_int_eq(tp_oracle_new(0, u, NULL, e, d, 0, 17, &o), EM_ERR_EMPTY);
    ck_assert_int_eq(tp_oracle_new(2, u, NULL, z, d, 0, 17, &o), EM_ERR_EPSILON);
    ck_assert_int_eq(tp_oracle_new(2, u, NULL, e, z, 0, 17, &o), EM_ERR_SENSITIVITY);
    ck_assert_int_eq(tp_oracle_new(2, u, NULL, e, d, 7, 17, &o), EM_ERR_VARIANT);
    ck_assert_int_eq(tp_oracle_new(2, u, NULL, e, d, 0, 0, &o), EM_ERR_DOMAIN);
    ck_assert_int_eq(tp_oracle_new(2, u, NULL, e, d, 0, 1001, &o), EM_ERR_DOMAIN);
    ck_assert_int_eq(tp_oracle_new(2, u, ex, e, d, 0, 17, &o), EM_ERR_ALL_EXCLUDED);
    ck_assert_int_eq(tp_oracle_new(2, NULL, NULL, e, d, 0, 17, &o), EM_ERR_NULL);
    ck_assert_int_eq(tp_oracle_new(2, u, NULL, e, d, 0, 17, &o), EM_OK);
    em_oracle_cand c;
    ck_assert_int_eq(em_oracle_get(o, 2, &c), EM_ERR_DOMAIN);
    ck_assert_int_eq(em_oracle_get(o, 0, &c), EM_OK);
    ck_assert_str_eq(c.prob, "0.50000000000000000");
    em_oracle_free(o);
    mpq_clear(u[0]);
    mpq_clear(u[1]);
    mpq_clear(e);
    mpq_clear(d);
    mpq_clear(z);
}
END_TEST

/* ------------------------------------------------------------- vectors */

typedef struct vcase {
    const char *id, *comment;
    const char *example; /* expmech example NAME, or NULL */
    const char *text;    /* scenario text, or NULL */
    const char *eps, *delta, *variant;
    int gen;             /* generated modular case: n, a, b, m, scale */
    unsigned long gn, ga, gb, gm;
    const char *gscale;
} vcase;

typedef struct vfamily {
    const char *name, *description;
    const vcase *cases;
} vfamily;

static const vcase seeds_cases[] = {
    {"marital-eps1", "seed 000: marital status, score count/1000, epsilon 1 (the seed's setting)",
     "marital", NULL, "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"marital-eps0.1", "seed 000's scenario at epsilon 0.1", "marital", NULL, "0.1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"marital-raw-eps1", "raw counts: the mode is 1 - 6.1e-933 (printed as 40 nines), Married-AF-spouse 9.9e-3248",
     "marital-raw", NULL, "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"occupation-eps1", "seed 004: occupations, score count/4140 (exact fractions), epsilon 1",
     "occupation", NULL, "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"socks-eps5.5", "seed 001: frequencies 0.1/0.9, epsilon 5.5 (the seed prints 0.09975049 0.90024951)",
     "socks", NULL, "5.5", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"socks-eps1", "seed 001 at epsilon 1", "socks", NULL, "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"socks-eps10", "seed 001 at epsilon 10", "socks", NULL, "10", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"socks-monotone-eps1", "seed 001's logsumexp implementation with monotonic=True (coefficient 1)",
     "socks", NULL, "1", "1", "monotone", 0, 0, 0, 0, 0, NULL},
    {"socks-red-eps7", "seed 001: the Red group (9/70, 61/70) at 0.7 * 10 (the seed prints 0.06913842034334683)",
     "socks-red", NULL, "7", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"socks-blue-eps3", "seed 001: the Blue group (1/30, 29/30) at 0.3 * 10 (the seed prints 0.19781611144141822)",
     "socks-blue", NULL, "3", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"median-eps1", "seed 002: median by rank distance of A = {1, 100, 102, 104, 105, 200, 365}, candidates 0..400",
     "median", NULL, "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"pricing-eps1", "seed 003: revenue of a posted price, bids {1, 1, 1, 3.01}, 3501 prices, sensitivity 3.5",
     "pricing", NULL, "1", "3.5", "standard", 0, 0, 0, 0, 0, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL},
};

static const vcase edge_cases[] = {
    {"single", "one candidate: probability exactly 1, log 0", NULL, "only,3.5\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"single-left", "all but one excluded: exactly 1 and 0 (log -inf)", NULL, "a,-inf\nb,2\nc,-inf\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"ties-3", "three ties: 1/3 exactly, rounded", NULL, "a,7\nb,7\nc,7\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"ties-8-excluded", "eight ties and one excluded: 1/8 = 0.125 exactly", NULL,
     "a,0\nb,0\nc,0\nd,0\ne,0\nf,0\ng,0\nh,0\nx,-inf\n", "2", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"excluded-middle", "excluded candidates between others", NULL, "a,1\nb,-inf\nc,2\nd,-inf\ne,3\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"pm1e300", "utilities +-1e300: the tail exp(-1e300) has a 300-digit exponent; the mode's log is -exp(-1e300)",
     NULL, "hi,1e300\nlo,-1e300\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"pm1e300-zero", "+1e300, 0, -1e300 at epsilon 1e-12", NULL, "hi,1e300\nmid,0\nlo,-1e300\n", "1e-12", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"two-modes-1e300", "two tied modes and a tail below MPFR's range: 1/2 minus an infinitesimal",
     NULL, "a,1e300\nb,1e300\nc,-1e300\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"tiny-gap", "utilities 1e-300 apart: 1/2 +- 2.5e-301", NULL, "a,1e-300\nb,0\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"hex-floats", "C99 hex floats (exact doubles), including the smallest subnormal and the largest double",
     NULL, "a,0x1.8p3\nb,0x1p-1074\nc,-0x1.fffffffffffffp1023\nd,0x1.921fb54442d18p1\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"fractions", "exact fractions that no decimal or double holds", NULL, "a,1/3\nb,2/3\nc,-5/7\n", "3", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"monotone", "the monotone variant: exp(eps u / delta)", NULL, "a,0\nb,1\nc,2\nd,3\n", "1", "1", "monotone", 0, 0, 0, 0, 0, NULL},
    {"sensitivity-large", "sensitivity 1e6 with utilities of order 1e6", NULL, "a,1e6\nb,2e6\nc,3.5e6\n", "1", "1e6", "standard", 0, 0, 0, 0, 0, NULL},
    {"sensitivity-small", "sensitivity 1e-9 with nearby utilities", NULL, "a,1e-9\nb,2e-9\nc,0\n", "0.5", "1e-9", "standard", 0, 0, 0, 0, 0, NULL},
    {"long-decimals", "utilities with 30 significant digits", NULL,
     "a,3.14159265358979323846264338328\nb,2.71828182845904523536028747135\nc,1.41421356237309504880168872421\n",
     "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"negative", "all utilities negative and large", NULL, "a,-1000000\nb,-1000001\nc,-1000002.5\n", "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL},
};

#define U06 "u0,0\nu1,1\nu2,2\nu3,3\nu4,4\nu5,5\nu6,6\n"
static const vcase epsilon_cases[] = {
    {"eps-1e-12", "u = 0..6, epsilon 1e-12: almost uniform", NULL, U06, "1e-12", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e-9", "u = 0..6, epsilon 1e-9", NULL, U06, "1e-9", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e-6", "u = 0..6, epsilon 1e-6", NULL, U06, "1e-6", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e-3", "u = 0..6, epsilon 1e-3", NULL, U06, "1e-3", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-0.1", "u = 0..6, epsilon 0.1", NULL, U06, "0.1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1", "u = 0..6, epsilon 1", NULL, U06, "1", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1-monotone", "u = 0..6, epsilon 1, monotone: equals standard at epsilon 2", NULL, U06, "1", "1", "monotone", 0, 0, 0, 0, 0, NULL},
    {"eps-10", "u = 0..6, epsilon 10", NULL, U06, "10", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e3", "u = 0..6, epsilon 1e3", NULL, U06, "1e3", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e6", "u = 0..6, epsilon 1e6: the mode is 1 - 1e-217147", NULL, U06, "1e6", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e9", "u = 0..6, epsilon 1e9", NULL, U06, "1e9", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {"eps-1e12", "u = 0..6, epsilon 1e12", NULL, U06, "1e12", "1", "standard", 0, 0, 0, 0, 0, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL},
};

static const vcase large_cases[] = {
    {"modular-1e6", "10^6 candidates, u_i = ((7919 i) mod 1000003) / 1000, epsilon 1: generated, a few indices stored",
     NULL, NULL, "1", "1", "standard", 1, 1000000, 7919, 0, 1000003, "1000"},
    {"modular-1e4-fine", "10^4 candidates, u_i = ((104729 i + 17) mod 10007) / 100000, epsilon 2",
     NULL, NULL, "2", "1", "standard", 1, 10000, 104729, 17, 10007, "100000"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL},
};

static const vfamily families[] = {
    {"seeds", "the seed documents' scenarios (expmech example NAME) at the seeds' parameters", seeds_cases},
    {"edge", "edge cases: exact 0 and 1, ties, exclusions, +-1e300, hex floats, fractions, variants", edge_cases},
    {"epsilon", "epsilon from 1e-12 to 1e12 on u = 0..6", epsilon_cases},
    {"large", "generated scenarios (10^6 and 10^4 candidates): generator parameters and selected results", large_cases},
    {NULL, NULL, NULL},
};

#define VDIGITS 40

static char *capture_example(const char *name)
{
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 1);
    char *argv[3] = {(char *)"example", (char *)name, NULL};
    int rc = cmd_example(2, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    if (rc != 0) {
        fclose(tmp);
        return NULL;
    }
    fseek(tmp, 0, SEEK_END);
    long len = ftell(tmp);
    fseek(tmp, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, tmp);
    buf[got] = 0;
    fclose(tmp);
    return buf;
}

/* Write one family's JSON to f.  Returns 0 or -1. */

static int write_family(FILE *f, const vfamily *fam)
{
    fprintf(f, "{\n  \"schema\": \"expmech-test-vectors-1\",\n  \"family\": ");
    em_write_json_string(f, fam->name);
    fprintf(f, ",\n  \"description\": ");
    em_write_json_string(f, fam->description);
    fprintf(f, ",\n  \"digits\": %d,\n  \"cases\": [\n", VDIGITS);
    for (const vcase *c = fam->cases; c->id; c++) {
        mpq_t e, d;
        mpq_init(e);
        mpq_init(d);
        int kind;
        const char *msg;
        em_q_parse_str(c->eps, 0, e, &kind, &msg);
        em_q_parse_str(c->delta, 0, d, &kind, &msg);
        int variant = strcmp(c->variant, "monotone") ? EM_STANDARD : EM_MONOTONE;
        fprintf(f, "    {\n      \"id\": ");
        em_write_json_string(f, c->id);
        fprintf(f, ",\n      \"comment\": ");
        em_write_json_string(f, c->comment);
        fprintf(f, ",\n      \"epsilon\": ");
        em_write_json_string(f, c->eps);
        fprintf(f, ",\n      \"sensitivity\": ");
        em_write_json_string(f, c->delta);
        fprintf(f, ",\n      \"variant\": \"%s\",\n", c->variant);
        int st = EM_OK;
        if (c->gen) {
            size_t n = c->gn;
            mpq_t *u = malloc(n * sizeof *u);
            size_t imax = 0, imin = 0;
            for (size_t i = 0; i < n; i++) {
                mpq_init(u[i]);
                unsigned long v = (unsigned long)(((unsigned long long)c->ga * i + c->gb) % c->gm);
                mpz_set_ui(mpq_numref(u[i]), v);
                mpz_set_str(mpq_denref(u[i]), c->gscale, 10);
                mpq_canonicalize(u[i]);
                if (mpq_cmp(u[i], u[imax]) > 0) imax = i;
                if (mpq_cmp(u[i], u[imin]) < 0) imin = i;
            }
            size_t chk[] = {0, 1, 2, 3, n / 2, n - 1, imax, imin};
            fprintf(f, "      \"generator\": {\"kind\": \"modular\", \"n\": \"%lu\", \"a\": \"%lu\", \"b\": \"%lu\", "
                       "\"m\": \"%lu\", \"scale\": \"%s\", \"utility\": \"((a i + b) mod m) / scale, i = 0 .. n-1\"},\n",
                    c->gn, c->ga, c->gb, c->gm, c->gscale);
            fprintf(f, "      \"checks\": [\n");
            em_oracle *o;
            st = tp_oracle_new(n, u, NULL, e, d, variant, VDIGITS, &o);
            for (size_t k = 0; st == EM_OK && k < sizeof chk / sizeof chk[0]; k++) {
                em_oracle_cand r;
                st = em_oracle_get(o, chk[k], &r);
                if (st)
                    break;
                fprintf(f, "        {\"index\": \"%zu\", \"probability\": \"%s\", \"log_probability\": \"%s\"}%s\n",
                        chk[k], r.prob, r.logprob, k + 1 < sizeof chk / sizeof chk[0] ? "," : "");
            }
            if (st == EM_OK)
                em_oracle_free(o);
            fprintf(f, "      ]\n");
            for (size_t i = 0; i < n; i++)
                mpq_clear(u[i]);
            free(u);
        } else {
            char *text = c->example ? capture_example(c->example) : strdup(c->text);
            em_scn sc;
            em_scn_init(&sc);
            em_error err;
            if (!text || em_scn_read(&sc, text, strlen(text), c->id, &err) != EM_OK) {
                free(text);
                em_scn_clear(&sc);
                return -1;
            }
            free(text);
            em_oracle *o;
            st = tp_oracle_new(sc.n, sc.u, sc.excluded, e, d, variant, VDIGITS, &o);
            fprintf(f, "      \"candidates\": [\n");
            for (size_t i = 0; st == EM_OK && i < sc.n; i++) {
                em_oracle_cand r;
                st = em_oracle_get(o, i, &r);
                if (st)
                    break;
                char *us = sc.excluded[i] ? strdup("-inf") : em_q_to_string(sc.u[i], 60);
                fprintf(f, "        {\"label\": ");
                em_write_json_string(f, sc.labels[i]);
                fprintf(f, ", \"utility\": ");
                em_write_json_string(f, us);
                fprintf(f, ", \"probability\": \"%s\", \"log_probability\": \"%s\"}%s\n", r.prob, r.logprob,
                        i + 1 < sc.n ? "," : "");
                free(us);
            }
            if (st == EM_OK)
                em_oracle_free(o);
            fprintf(f, "      ]\n");
            em_scn_clear(&sc);
        }
        fprintf(f, "    }%s\n", c[1].id ? "," : "");
        mpq_clear(e);
        mpq_clear(d);
        if (st != EM_OK)
            return -1;
    }
    fprintf(f, "  ]\n}\n");
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf;
    if (em_read_all(f, (size_t)1 << 30, &buf, len) != EM_OK)
        buf = NULL;
    fclose(f);
    return buf;
}

START_TEST(vectors_regenerate)
{
    const vfamily *fam = &families[_i];
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = open_memstream(&mem, &memlen);
    ck_assert_int_eq(write_family(f, fam), 0);
    fclose(f);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", vectors_dir(), fam->name);
    size_t len;
    char *disk = slurp(path, &len);
    ck_assert_msg(disk != NULL, "cannot read %s (regenerate with build/tests/test_oracle --write-vectors)", path);
    size_t k = 0;
    while (k < len && k < memlen && disk[k] == mem[k])
        k++;
    ck_assert_msg(len == memlen && k == len, "%s differs from the regenerated text at byte %zu", path, k);
    free(disk);
    free(mem);
}
END_TEST

START_TEST(vectors_independent)
{
    const vfamily *fam = &families[_i];
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", vectors_dir(), fam->name);
    indep_stats st = {0, 0, ""};
    ck_assert_msg(indep_check_file(path, &st) == 0, "cannot read or parse %s", path);
    ck_assert_msg(st.failed == 0, "%s: %ld of %ld numbers disagree with the independent computation; first: %s",
                  path, st.failed, st.checked, st.first_failure);
    ck_assert(st.checked > 0);
}
END_TEST

static int write_vectors(void)
{
    for (const vfamily *fam = families; fam->name; fam++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.json", vectors_dir(), fam->name);
        FILE *f = fopen(path, "w");
        if (!f || write_family(f, fam) != 0) {
            fprintf(stderr, "failed: %s\n", path);
            return 1;
        }
        fclose(f);
        printf("wrote %s\n", path);
    }
    return 0;
}

static Suite *suite(void)
{
    Suite *s = suite_create("oracle");
    TCase *tp = tcase_create("parse");
    tcase_add_test(tp, parse_decimal);
    tcase_add_test(tp, parse_hex);
    tcase_add_test(tp, parse_special_and_errors);
    tcase_add_test(tp, q_to_double);
    tcase_add_test(tp, q_to_string);
    suite_add_tcase(s, tp);
    TCase *to = tcase_create("oracle");
    tcase_set_timeout(to, 120);
    tcase_add_test(to, oracle_marital);
    tcase_add_test(to, oracle_marital_raw);
    tcase_add_test(to, oracle_exact_cases);
    tcase_add_test(to, oracle_extremes);
    tcase_add_test(to, oracle_digits_consistent);
    tcase_add_test(to, oracle_errors);
    suite_add_tcase(s, to);
    TCase *tv = tcase_create("vectors");
    tcase_set_timeout(tv, 300);
    int nf = 0;
    while (families[nf].name)
        nf++;
    tcase_add_loop_test(tv, vectors_regenerate, 0, nf);
    tcase_add_loop_test(tv, vectors_independent, 0, nf);
    suite_add_tcase(s, tv);
    return s;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--write-vectors"))
        return write_vectors();
    return em_check_run(suite());
}
