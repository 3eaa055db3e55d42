/* test_utility_report.c: the utility report beyond the standard mechanism:
 * permute-and-flip's E[u], loss, sd, P(best) and tail against its closed-form pmf for 2
 * and 3 candidates (computed here with Python's decimal module, 60 digits, not by the
 * code under test), the accuracy theorem's bounds by hand, the exact values never above
 * the bounds (several scenarios, every variant, several epsilons), Monte Carlo within 5
 * standard errors of the exact expected loss (fixed seed), and the command line's CSV
 * and JSON. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"
#include "expmech.h"

static em_error err;

static void setup(void) { em_cli_setup("/tmp/em_utility_XXXXXX"); }

/* The lines Python prints for `prog` (after the decimal import, 60 digits; f(x) formats
 * x to K significant digits, ties to even, as the library does in fixed notation). */
static char pyout[8192];
static char *lines[32];

static size_t python(int K, const char *prog)
{
    char cmd[6144];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'from decimal import Decimal as D, getcontext\n"
             "getcontext().prec = 60\n"
             "def f(x): return format(x, \".%dg\")\n"
             "%s'", K, prog);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(pyout, 1, sizeof pyout - 1, p);
    pyout[n] = 0;
    ck_assert_int_eq(pclose(p), 0);
    size_t k = 0;
    for (char *s = strtok(pyout, "\n"); s && k < 32; s = strtok(NULL, "\n"))
        lines[k++] = s;
    return k;
}

static em_mech *mk(size_t n, const char *const *u, const char *const *measure, const char *eps,
                   const char *delta, int variant, int digits, em_scn **s)
{
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = n, .utilities = u, .measure = measure}, s, &err), EM_OK);
    em_opts o = {eps, delta, variant, 1, digits};
    em_mech *m = NULL;
    ck_assert_int_eq(em_mech_new(*s, &o, &m, &err), EM_OK);
    return m;
}

/* m's report with the nt thresholds t and an estimate of mc_n draws with mc */
static em_utility_result *report(em_mech *m, size_t nt, const char *const *t, uint64_t mc_n,
                                 const em_sample_opts *mc)
{
    em_utility_result *r = NULL;
    const em_utility_opts o = {nt, t, mc_n, mc};
    ck_assert_msg(em_utility(m, &o, &r, &err) == EM_OK, "%s", err.msg);
    return r;
}

static void tail_is(em_mech *m, const char *t, const char *want)
{
    em_utility_result *r = report(m, 1, &t, 0, NULL);
    ck_assert_str_eq(r->t[0], t);
    ck_assert_str_eq(r->p_loss_gt[0], want);
    em_free(r);
}

/* E[u], the loss, its sd and P(best) are the first four lines Python printed */
static void report_is(const em_utility_result *r)
{
    ck_assert_str_eq(r->expected_utility, lines[0]);
    ck_assert_str_eq(r->expected_loss, lines[1]);
    ck_assert_str_eq(r->sd_loss, lines[2]);
    ck_assert_str_eq(r->p_best, lines[3]);
}

/* PF over u = (0, -3), c = 1.5/2: the best is visited first (1/2) or after the other is
 * refused (1/2 (1 - p)), p = exp(-c 3): P(other) = q = p/2, P(best) = 1 - q. */
START_TEST(pf_two_closed_form)
{
    const char *u[] = {"0", "-3", NULL};
    em_scn *s;
    em_mech *m = mk(3, u, NULL, "1.5", NULL, EM_PF, 17, &s);
    em_utility_result *r;
    ck_assert_int_eq(em_utility(m, NULL, &r, &err), EM_OK);
    ck_assert_uint_eq(python(17, "q = (D(\"-2.25\")).exp() / 2\n"
                                 "print(f(-3 * q)); print(f(3 * q))\n"
                                 "print(f(3 * (q * (1 - q)).sqrt())); print(f(1 - q)); print(f(q))\n"
                                 "print(repr(float(3 * q)))"),
                      6);
    ck_assert_str_eq(r->opt, "0");
    report_is(r);
    /* the double nearest the loss (Python's float of a Decimal is correctly rounded), not
     * the one nearest its 17-digit decimal: here they differ */
    ck_assert(r->expected_loss_d == strtod(lines[5], NULL));
    ck_assert(r->expected_loss_d != strtod(lines[1], NULL));
    tail_is(m, "0", lines[4]);
    tail_is(m, "2.999", lines[4]);
    tail_is(m, "3", "0");
    em_free(r);
    em_free(m);
    em_free(s);
}
END_TEST

/* PF over u = (0, -1, -2.5), c = 1: P(r) = p_r integral_0^1 prod_{j != r} (1 - p_j x) dx,
 * P0 = 1 - (p1 + p2)/2 + p1 p2/3, P1 = p1 (1/2 - p2/6), P2 = p2 (1/2 - p1/6); at 17 and
 * at 30 digits. */
START_TEST(pf_three_closed_form)
{
    const char *u[] = {"0", "-1", "-2.5"};
    static const int Ks[] = {17, 30};
    for (int k = 0; k < 2; k++) {
        em_scn *s;
        em_mech *m = mk(3, u, NULL, "2", NULL, EM_PF, Ks[k], &s);
        em_utility_result *r;
        ck_assert_int_eq(em_utility(m, NULL, &r, &err), EM_OK);
        ck_assert_uint_eq(
            python(Ks[k], "p1 = D(-1).exp(); p2 = D(\"-2.5\").exp()\n"
                          "P0 = 1 - (p1 + p2) / 2 + p1 * p2 / 3\n"
                          "P1 = p1 * (D(1) / 2 - p2 / 6); P2 = p2 * (D(1) / 2 - p1 / 6)\n"
                          "L = P1 + D(\"2.5\") * P2\n"
                          "print(f(-L)); print(f(L)); print(f((P1 + D(\"6.25\") * P2 - L * L).sqrt()))\n"
                          "print(f(P0)); print(f(P1 + P2)); print(f(P2)); print(f(P0 + P1 + P2))"),
            7);
        report_is(r);
        ck_assert_str_eq(lines[6], Ks[k] == 17 ? "1.0000000000000000" : "1.00000000000000000000000000000");
        tail_is(m, "0.5", lines[4]);
        tail_is(m, "1", lines[5]);
        tail_is(m, "2.5", "0");
        em_free(r);
        em_free(m);
        em_free(s);
    }
}
END_TEST

/* Ties: every output at opt is exact (no loss, P(best) = 1, the bound 1/c). */
/* P(best) below 1 but rounding to 1 prints as K nines, like the probabilities (and the
 * groups report) do, never "1.0000" read as certainty: u = (10, 0), eps = 20, c = 10, so
 * P(best) = 1/(1 + e^-100) = 1 - 3.7e-44; with the other candidate excluded it is exactly 1. */
START_TEST(p_best_near_one)
{
    const char *u[] = {"10", "0"};
    static const int variants[] = {EM_STANDARD, EM_PF};
    for (int k = 0; k < 2; k++) {
        em_scn *s;
        em_mech *m = mk(2, u, NULL, "20", NULL, variants[k], 5, &s);
        em_utility_result *r;
        ck_assert_int_eq(em_utility(m, NULL, &r, &err), EM_OK);
        ck_assert_str_eq(r->p_best, "0.99999");
        ck_assert(r->p_best_d == 1.0);
        em_free(r);
        em_free(m);
        em_free(s);
    }
    const char *u1[] = {"10", NULL};
    em_scn *s;
    em_mech *m = mk(2, u1, NULL, "20", NULL, EM_STANDARD, 5, &s);
    em_utility_result *r;
    ck_assert_int_eq(em_utility(m, NULL, &r, &err), EM_OK);
    ck_assert_str_eq(r->p_best, "1");
    em_free(r);
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(pf_ties_exact)
{
    const char *u[] = {"2.5", NULL, "2.5"};
    em_scn *s;
    em_mech *m = mk(3, u, NULL, "1", "4", EM_PF, 5, &s);
    em_utility_result *r;
    ck_assert_int_eq(em_utility(m, NULL, &r, &err), EM_OK);
    ck_assert_str_eq(r->opt, "2.5000");
    ck_assert_str_eq(r->expected_utility, "2.5000");
    ck_assert_str_eq(r->expected_loss, "0");
    ck_assert_str_eq(r->sd_loss, "0");
    ck_assert_str_eq(r->p_best, "1");
    tail_is(m, "0", "0");
    ck_assert_str_eq(r->expected_loss_bound, "8.0000"); /* ratio 1: 1/c = 2 D / eps */
    em_free(r);
    const char *zero = "0";
    r = report(m, 1, &zero, 0, NULL);
    ck_assert_str_eq(r->p_bound[0], "1");
    em_free(r);
    em_free(m);
    em_free(s);
}
END_TEST

static void bounds_are(em_mech *m, const char *t, const char *eb_want, const char *pb_want)
{
    em_utility_result *r = report(m, 1, &t, 0, NULL);
    ck_assert_str_eq(r->expected_loss_bound, eb_want);
    ck_assert_str_eq(r->p_bound[0], pb_want);
    em_free(r);
}

/* The theorem's numbers by hand: socks (u = 0.9, 0.1; ratio 2), a measure (ratio
 * (2 + 3 + 0.5) / (2 + 0.5) = 2.2). */
START_TEST(bounds_closed_form)
{
    const char *u[] = {"0.9", "0.1"};
    ck_assert_uint_eq(python(17, "l2 = D(2).ln(); l22 = D(\"2.2\").ln()\n"
                                 "print(f(2 * (l2 + 1))); print(f(l2 + 1)); print(f(2 * D(-1).exp()))\n"
                                 "print(f(2 * D(\"-1.2\").exp())); print(f(2 * (l22 + 1)))\n"
                                 "print(f(D(\"2.2\") * D(\"-1.5\").exp()))"),
                      6);
    static const int variants[] = {EM_STANDARD, EM_PF, EM_MONOTONE};
    for (int v = 0; v < 3; v++) {
        em_scn *s;
        em_mech *m = mk(2, u, NULL, "1", NULL, variants[v], 17, &s);
        /* c = 1/2 (standard, pf): 2 e^-0.5 > 1 at t = 1; c = 1 (monotone): 2 e^-1 */
        bounds_are(m, "1", lines[v == 2], v == 2 ? lines[2] : "1");
        if (v < 2)
            bounds_are(m, "2.4", lines[0], lines[3]);
        bounds_are(m, "0", lines[v == 2], "1");
        em_free(m);
        em_free(s);
    }
    const char *um[] = {"1", "0", "1"}, *mu[] = {"2", "3", "0.5"};
    em_scn *s;
    em_mech *m = mk(3, um, mu, "1", NULL, EM_STANDARD, 17, &s);
    bounds_are(m, "3", lines[4], lines[5]);
    em_utility_result *r = report(m, 0, NULL, 0, NULL);
    ck_assert_str_eq(r->expected_loss_bound, lines[4]);
    ck_assert_uint_eq(r->nt, 0);
    em_free(r);
    const char *neg[] = {"-1"}, *bad[] = {"x"};
    ck_assert_int_eq(em_utility(m, &(em_utility_opts){1, neg, 0, NULL}, &r, &err), EM_ERR_DOMAIN);
    ck_assert_msg(!strncmp(err.msg, "loss_at: ", 9), "%s", err.msg);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(em_utility(m, &(em_utility_opts){1, bad, 0, NULL}, &r, &err), EM_ERR_PARSE);
    ck_assert_int_eq(em_utility(NULL, NULL, &r, &err), EM_ERR_NULL);
    ck_assert_int_eq(em_utility(m, &(em_utility_opts){1, NULL, 0, NULL}, &r, &err), EM_ERR_NULL);
    em_free(m);
    em_free(s);
    /* no bound for a continuous scenario */
    const char *lo[] = {"0"}, *hi[] = {"1"}, *a[] = {"0"}, *b[] = {"1"};
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 1, .lo = lo, .hi = hi, .a = a, .b = b}, &s, &err), EM_OK);
    em_opts o = {"1", NULL, EM_STANDARD, 0, 17};
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    const char *one = "1";
    r = report(m, 1, &one, 0, NULL);
    ck_assert_ptr_null(r->expected_loss_bound);
    ck_assert_ptr_null(r->p_bound[0]);
    ck_assert_ptr_nonnull(r->p_loss_gt[0]);
    em_free(r);
    em_free(m);
    em_free(s);
}
END_TEST

/* m's expected loss and tails never above the theorem's bounds; its expected loss as a
 * double returned */
static double within_bounds(em_mech *m, const char *what)
{
    static const char *const ts[] = {"0", "0.1", "0.5", "1", "2", "4"};
    em_utility_result *r = report(m, 6, ts, 0, NULL);
    const char *eb = r->expected_loss_bound;
    for (size_t j = 0; j < 6; j++) {
        const char *pb = r->p_bound[j], *tail = r->p_loss_gt[j];
        ck_assert_msg(r->expected_loss_d <= strtod(eb, NULL) && strtod(tail, NULL) <= strtod(pb, NULL),
                      "%s, t %s: loss %s > %s or tail %s > %s", what, ts[j], r->expected_loss, eb,
                      tail, pb);
    }
    double loss = r->expected_loss_d;
    em_free(r);
    return loss;
}

/* The exact numbers never exceed the theorem's, for every variant (and PF's expected loss
 * never exceeds the standard one's: McKenna & Sheldon, Theorem 2); with a measure column,
 * ratio = total measure / measure at opt (standard, monotone). */
START_TEST(bounds_hold)
{
    static const char *const sc[][8] = {
        {"0.9", "0.1"},
        {"0", "-1", "-1", "-2", "-5", "-0.5", "0", "-3"},
        {"10", "7.5", "7.5", "1", "-inf", "3", "9.99", "0"},
        {"1", "0.25", "1/3", "0.5", "0.125", "0", "0.9", "0.99"},
        {"1", "0", "1", "0.5", "-2"},
    };
    static const size_t len[] = {2, 8, 7, 8, 5};
    static const char *const eps[] = {"0.1", "1", "5", "20"};
    const char *mu[] = {"2", "3", "0.5", "1", "7"};
    for (size_t k = 0; k < 5; k++)
        for (size_t e = 0; e < 4; e++) {
            double std_loss = 0;
            for (int v = 0; v < (k == 4 ? 2 : 3); v++) {
                const char *u[8];
                for (size_t i = 0; i < len[k]; i++)
                    u[i] = strcmp(sc[k][i], "-inf") ? sc[k][i] : NULL;
                em_scn *s;
                em_mech *m = mk(len[k], u, k == 4 ? mu : NULL, eps[e], NULL, v == 2 ? EM_PF : v,
                                17, &s);
                char what[64];
                snprintf(what, sizeof what, "scenario %zu, eps %s, variant %d", k, eps[e], v);
                double loss = within_bounds(m, what);
                if (v == EM_STANDARD)
                    std_loss = loss;
                if (v == 2)
                    ck_assert(loss <= std_loss);
                em_free(m);
                em_free(s);
            }
        }
}
END_TEST

static void mc_near(em_mech *m, uint64_t n)
{
    em_sample_opts o = EM_SAMPLE_OPTS_INIT;
    o.seeded = 1;
    o.seed = 3;
    em_utility_result *r = report(m, 0, NULL, n, &o);
    ck_assert_uint_eq(r->mc_n, n);
    double mean = r->mc_mean, se = r->mc_se;
    ck_assert_msg(se > 0 && fabs(mean - r->expected_loss_d) < 5 * se, "mc %.17g (se %.3g), exact %s",
                  mean, se, r->expected_loss);
    em_free(r);
}

/* seed 003's pricing: bids 1, 1, 1, 3.01, revenue r #{x >= r} at r = 0, 0.001, ..., 3.5 */
static const char *price_u(size_t i, char *buf)
{
    double r = (double)i / 1000;
    snprintf(buf, 16, "%.3f", r <= 1 ? 4 * r : r <= 3.01 ? r : 0);
    return buf;
}

START_TEST(monte_carlo)
{
    const char *u[] = {"0.9", "0.1"};
    for (int v = 0; v < 3; v++) {
        em_scn *s;
        em_mech *m = mk(2, u, NULL, "1", NULL, v == 2 ? EM_PF : v, 17, &s);
        mc_near(m, 10000);
        em_free(m);
        em_free(s);
    }
    static char buf[3501][16];
    const char *pu[3501];
    for (size_t i = 0; i < 3501; i++)
        pu[i] = price_u(i, buf[i]);
    for (int v = 0; v < 3; v += 2) {
        em_scn *s;
        em_mech *m = mk(3501, pu, NULL, "1", "3.5", v == 2 ? EM_PF : v, 17, &s);
        mc_near(m, v == 2 ? 2000 : 10000);
        em_free(m);
        em_free(s);
    }
    /* the continuous pricing: revenue 4r, r, 0 on [0, 1], [1, 3.01], [3.01, 3.5] */
    const char *lo[] = {"0", "1", "3.01"}, *hi[] = {"1", "3.01", "3.5"}, *a[] = {"0", "0", "0"},
               *b[] = {"4", "1", "0"};
    em_scn *s;
    em_mech *m;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .lo = lo, .hi = hi, .a = a, .b = b}, &s, &err), EM_OK);
    em_opts o = {"1", "3.5", EM_STANDARD, 0, 17};
    ck_assert_int_eq(em_mech_new(s, &o, &m, &err), EM_OK);
    mc_near(m, 10000);
    em_utility_result *r = NULL;
    ck_assert_int_eq(em_utility(m, &(em_utility_opts){0, NULL, 1, NULL}, &r, &err),
                     EM_ERR_DOMAIN);
    ck_assert_msg(!strncmp(err.msg, "mc: ", 4), "%s", err.msg);
    ck_assert_ptr_null(r);
    em_free(m);
    em_free(s);
}
END_TEST

/* The command line: CSV columns, JSON keys (read back by Python's json module), the
 * empty bound of a continuous scenario. */
START_TEST(cli_formats)
{
    put("socks.csv", "Violent,0.1\nNonViolent,0.9\n");
    ck_assert_int_eq(run("$E utility --epsilon 1 --variant pf --loss-at 0.5,1 socks.csv"), 0);
    ck_assert_uint_eq(python(17, "p = D(\"-0.4\").exp() / 2\n"
                                 "print(f(D(\"0.9\") - D(\"0.8\") * p)); print(f(D(\"0.8\") * p))\n"
                                 "print(f(D(\"0.8\") * (p * (1 - p)).sqrt())); print(f(1 - p))\n"
                                 "print(f(2 * (D(2).ln() + 1))); print(f(p))"),
                      6);
    char want[1024];
    snprintf(want, sizeof want,
             "epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,expected_loss_bound,"
             "p_loss_gt_0.5,bound_p_loss_gt_0.5,p_loss_gt_1,bound_p_loss_gt_1\n"
             "1,0.90000000000000000,%s,%s,%s,%s,%s,%s,1,0,1\n",
             lines[0], lines[1], lines[2], lines[3], lines[4], lines[5]);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(run("$E utility --epsilon 1 --variant pf --loss-at 0.5 --format json "
                         "--mc 100 --seed 7 socks.csv | python3 -c 'import json, sys\n"
                         "o = json.load(sys.stdin)\n"
                         "print(sorted(o)); print(o[\"loss_at\"]); print(o[\"mc_n\"], o[\"variant\"])'"),
                     0);
    snprintf(want, sizeof want,
             "['digits', 'epsilon', 'expected_loss', 'expected_loss_bound', 'expected_utility', "
             "'loss_at', 'mc_expected_loss', 'mc_n', 'mc_se', 'opt', 'p_best', 'sd_loss', "
             "'sensitivity', 'variant']\n"
             "[{'t': '0.5', 'p_loss_gt': '%s', 'bound': '1'}]\n100 pf\n", lines[5]);
    ck_assert_str_eq(out, want);
    /* the same seed, the same estimate */
    ck_assert_int_eq(run("$E utility --epsilon 1 --mc 50 --seed 9 socks.csv >a.txt && "
                         "$E utility --epsilon 1 --mc 50 --seed 9 socks.csv | cmp - a.txt"), 0);
    put("c.csv", "# output: continuous\n# sensitivity: 3.5\n0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n");
    ck_assert_int_eq(run("$E utility --epsilon 1 --loss-at 1 c.csv | tail -n 1 | cut -d, -f6-"), 0);
    ck_assert_ptr_nonnull(strstr(out, "0,,")); /* p_best 0, no bound */
    ck_assert_int_eq(run("$E utility --epsilon 1 --loss-at 1 --format json c.csv | python3 -c "
                         "'import json, sys; o = json.load(sys.stdin); "
                         "print(o[\"expected_loss_bound\"], o[\"loss_at\"][0][\"bound\"])'"),
                     0);
    ck_assert_str_eq(out, "None None\n");
    /* a tail bound of ratio exp(-5e29) lies below MPFR's range: decided from its log
     * (10^-2.17e29: the exponent -5e29 / ln 10 = -217147240951625913825564459458.3...);
     * a pf tail of that size is decided from its logarithm too: P(b) = exp(-5e29) (1/2 -
     * exp(-1/2)/6) (Python's decimal at 80 digits: log10 P = -5e29 / ln 10 + log10(1/2 -
     * exp(-1/2)/6)) */
    put("h.csv", "a,0\nb,-1e30\nc,-1\n");
    ck_assert_int_eq(run("$E utility --epsilon 1 --loss-at 1e30 socks.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "e-2171472409516259138255644594"));
    ck_assert_int_eq(run("$E utility --epsilon 1 --variant pf --loss-at 2 h.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, ",1.9876296704362811e-217147240951625913825564459459,1\n"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("utility_report");
    TCase *tc = tcase_create("report");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, pf_two_closed_form);
    tcase_add_test(tc, pf_three_closed_form);
    tcase_add_test(tc, pf_ties_exact);
    tcase_add_test(tc, p_best_near_one);
    tcase_add_test(tc, bounds_closed_form);
    tcase_add_test(tc, bounds_hold);
    tcase_add_test(tc, monte_carlo);
    tcase_add_test(tc, cli_formats);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
