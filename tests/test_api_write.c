/* test_api_write.c: the result writers (em_*_write of em_law.h and em_judge.h) called
 * through the public API.  The expected texts are written out below by hand: the
 * probabilities of two tied candidates (1/2 and ln(1/2) = -0.693147180559945309...), the
 * uniform law on [0, 1] (F(x) = x, density 1, Q(p) = p), and
 * results filled in field by field, so that what is checked is the writing alone; and
 * every bad argument (NULL, a format a writer does not take, a sweep out of range, a
 * stream that cannot be written) an error status with a message, never a crash. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expmech.h"
#include "api/em_obj.h"

static em_error err;

/* a stream into memory, and what was written to it */
typedef struct sink {
    FILE *f;
    char *buf;
    size_t len;
} sink;

static void sink_open(sink *k)
{
    k->buf = NULL;
    k->len = 0;
    k->f = open_memstream(&k->buf, &k->len);
    ck_assert_ptr_nonnull(k->f);
}

static const char *sink_text(sink *k)
{
    fclose(k->f);
    k->f = NULL;
    return k->buf;
}

static em_mech *mech(const char *text, const char *eps, const char *delta, int variant,
                     int digits, em_scn **s)
{
    em_mech *m = NULL;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    o.sensitivity = delta;
    o.variant = variant;
    o.digits = digits;
    ck_assert_msg(em_scn_new(&(em_scn_spec){.text = text, .len = strlen(text), .name = "w.csv"}, s, &err) == EM_OK, "%s", err.msg);
    ck_assert_msg(em_mech_new(*s, &o, &m, &err) == EM_OK, "%s", err.msg);
    return m;
}

#define TIED "a,1\n\"q,r\",1\n"

/* ------------------------------------------------------------------- probs */

static void probs_is(em_mech *m, const em_write_opts *o, const char *want)
{
    sink k;
    em_probs_notes n = {9, 9, 9};
    sink_open(&k);
    em_write_opts w = *o;
    w.notes = &n;
    ck_assert_msg(em_write(m, k.f, &w, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(err.msg, "");
    ck_assert_str_eq(sink_text(&k), want);
    ck_assert_uint_eq(n.near_one + n.from_log + n.undecided, 0);
    free(k.buf);
}

START_TEST(probs_csv_and_json)
{
    em_scn *s;
    em_mech *m = mech(TIED, "1", NULL, EM_VARIANT_AUTO, 0, &s);
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    probs_is(m, &o, "a,0.50000000000000000,-0.69314718055994531\n"
                    "\"q,r\",0.50000000000000000,-0.69314718055994531\n");
    /* the first run of a sweep: the header line, then the rows led by the run's epsilon */
    o.sweep_n = 2;
    o.epsilon = "1.0";
    probs_is(m, &o, "epsilon,label,probability,log_probability\n"
                    "1.0,a,0.50000000000000000,-0.69314718055994531\n"
                    "1.0,\"q,r\",0.50000000000000000,-0.69314718055994531\n");
    o.sweep_i = 1; /* a later run: no header */
    probs_is(m, &o, "1.0,a,0.50000000000000000,-0.69314718055994531\n"
                    "1.0,\"q,r\",0.50000000000000000,-0.69314718055994531\n");
    /* JSON, the last run of a sweep closes the list */
    o.format = EM_WRITE_JSON;
    probs_is(m, &o, "{\n"
                    "  \"epsilon\": \"1\",\n"
                    "  \"sensitivity\": \"1\",\n"
                    "  \"variant\": \"standard\",\n"
                    "  \"digits\": 17,\n"
                    "  \"candidates\": [\n"
                    "    {\"label\": \"a\", \"utility\": \"1\", \"probability\": "
                    "\"0.50000000000000000\", \"log_probability\": \"-0.69314718055994531\"},\n"
                    "    {\"label\": \"q,r\", \"utility\": \"1\", \"probability\": "
                    "\"0.50000000000000000\", \"log_probability\": \"-0.69314718055994531\"}\n"
                    "  ]\n"
                    "}\n"
                    "]\n");
    em_free(m);
    em_free(s);
    /* 5 digits; no sweep: one object */
    m = mech(TIED, "2", "3", EM_VARIANT_AUTO, 5, &s);
    o = (em_write_opts)EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_JSON;
    probs_is(m, &o, "{\n"
                    "  \"epsilon\": \"2\",\n"
                    "  \"sensitivity\": \"3\",\n"
                    "  \"variant\": \"standard\",\n"
                    "  \"digits\": 5,\n"
                    "  \"candidates\": [\n"
                    "    {\"label\": \"a\", \"utility\": \"1\", \"probability\": \"0.50000\", "
                    "\"log_probability\": \"-0.69315\"},\n"
                    "    {\"label\": \"q,r\", \"utility\": \"1\", \"probability\": \"0.50000\", "
                    "\"log_probability\": \"-0.69315\"}\n"
                    "  ]\n"
                    "}\n");
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(probs_labels_for_a_terminal)
{
    em_scn *s;
    em_mech *m = mech("x\001y,1\nz,1\n", "1", NULL, EM_VARIANT_AUTO, 5, &s);
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    o.terminal = 1; /* the control character escaped, the field quoted */
    probs_is(m, &o, "\"x\\x01y\",0.50000,-0.69315\nz,0.50000,-0.69315\n");
    em_free(m);
    em_free(s);
}
END_TEST

/* ----------------------------------------------------------------- utility */

START_TEST(utility_csv_and_json)
{
    em_scn *s;
    em_mech *m = mech(TIED, "1", "2", EM_VARIANT_AUTO, 0, &s);
    em_utility_result r = {"2", "1.5", "0.5", "0.25", "0.5", 2, 1.5, 0.5, 0.25, 0.5,
                               NULL, 0, NULL, NULL, NULL, 0, 0, 0};
    const char *t[] = {"0.5", "1"}, *tail[] = {"0.125", "0"}, *bound[] = {"0.25", NULL};
    em_utility_report u = {&r, "0.75", 2, t, tail, bound, 10, 0.5, 0.125};
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    sink k;
    sink_open(&k);
    ck_assert_msg(em_utility_report_write(k.f, &u, m, &o, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k),
                     "epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,"
                     "expected_loss_bound,p_loss_gt_0.5,bound_p_loss_gt_0.5,p_loss_gt_1,"
                     "bound_p_loss_gt_1,mc_n,mc_expected_loss,mc_se\n"
                     "1,2,1.5,0.5,0.25,0.5,0.75,0.125,0.25,0,,10,0.5,0.125\n");
    free(k.buf);
    /* a later run of a sweep: the row only; no bound, no thresholds, no Monte Carlo */
    em_utility_report bare = {&r, NULL, 0, NULL, NULL, NULL, 0, 0, 0};
    o.sweep_i = 1;
    o.sweep_n = 3;
    sink_open(&k);
    ck_assert_msg(em_utility_report_write(k.f, &bare, m, &o, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), "1,2,1.5,0.5,0.25,0.5,\n");
    free(k.buf);
    o = (em_write_opts)EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_JSON;
    sink_open(&k);
    ck_assert_msg(em_utility_report_write(k.f, &u, m, &o, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k),
                     "{\"epsilon\": \"1\", \"sensitivity\": \"2\", \"variant\": \"standard\", "
                     "\"digits\": 17, \"opt\": \"2\", \"expected_utility\": \"1.5\", "
                     "\"expected_loss\": \"0.5\", \"sd_loss\": \"0.25\", \"p_best\": \"0.5\", "
                     "\"expected_loss_bound\": \"0.75\", \"loss_at\": [{\"t\": \"0.5\", "
                     "\"p_loss_gt\": \"0.125\", \"bound\": \"0.25\"}, {\"t\": \"1\", "
                     "\"p_loss_gt\": \"0\", \"bound\": null}], \"mc_n\": 10, "
                     "\"mc_expected_loss\": 0.5, \"mc_se\": 0.125}\n");
    free(k.buf);
    /* JSON over a sweep: the first run opens the list, the last closes it */
    o.sweep_n = 2;
    sink_open(&k);
    ck_assert_int_eq(em_utility_report_write(k.f, &bare, m, &o, &err), EM_OK);
    o.sweep_i = 1;
    ck_assert_int_eq(em_utility_report_write(k.f, &bare, m, &o, &err), EM_OK);
    ck_assert_str_eq(sink_text(&k),
                     "[\n{\"epsilon\": \"1\", \"sensitivity\": \"2\", \"variant\": \"standard\", "
                     "\"digits\": 17, \"opt\": \"2\", \"expected_utility\": \"1.5\", "
                     "\"expected_loss\": \"0.5\", \"sd_loss\": \"0.25\", \"p_best\": \"0.5\", "
                     "\"expected_loss_bound\": null, \"loss_at\": []},\n"
                     "{\"epsilon\": \"1\", \"sensitivity\": \"2\", \"variant\": \"standard\", "
                     "\"digits\": 17, \"opt\": \"2\", \"expected_utility\": \"1.5\", "
                     "\"expected_loss\": \"0.5\", \"sd_loss\": \"0.25\", \"p_best\": \"0.5\", "
                     "\"expected_loss_bound\": null, \"loss_at\": []}\n]\n");
    free(k.buf);
    em_free(m);
    em_free(s);
}
END_TEST

/* ------------------------------------------------------------------ judges */

START_TEST(audit_text)
{
    em_scn *sx, *sy;
    em_mech *x = mech(TIED, "1", NULL, EM_VARIANT_AUTO, 0, &sx);
    em_mech *y = mech("a,1\n\"q,r\",2\n", "1", NULL, EM_VARIANT_AUTO, 0, &sy);
    em_audit_result r;
    memset(&r, 0, sizeof r);
    r.ideal = (em_audit_block){1, 0, EM_VERDICT_REJECT, 0, 0, 1, "0.5", "4.999999e-01",
                               "5.000001e-01", "0.2", "1.9e-01", "2.1e-01", "0", "0.0e+00",
                               "1.0e-09", NULL, NULL, NULL};
    r.fp.beyond_range = 1;
    r.width = "1";
    r.width_exact = 1;
    r.rho = "0.125";
    r.verdict = EM_VERDICT_REJECT;
    sink k;
    sink_open(&k);
    ck_assert_msg(em_audit_result_write(k.f, &r, x, y, NULL, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k),
        "audit: X = w.csv, Y = w.csv, 2 candidates, epsilon = 1, sensitivity = 1, variant "
        "standard\n"
        "ideal mechanism (= the exact sampler):\n"
        "  privacy loss: 0.5  (in [4.999999e-01, 5.000001e-01]) at 'q,r'\n"
        "  delta(eps) X->Y: 0.2  (in [1.9e-01, 2.1e-01])\n"
        "  delta(eps) Y->X: 0  (in [0.0e+00, 1.0e-09])\n"
        "  verdict: VIOLATED: the privacy loss exceeds eps\n"
        "bounded range (for composition under zCDP):\n"
        "  width: 1 (correctly rounded to 17 digits) = sup ln(X/Y) + sup ln(Y/X), the span "
        "of the log-ratio over the outputs\n"
        "  zCDP: rho = width^2/8 = 0.125 on this pair (the EM's width is at most eps on "
        "neighbours, proven: em_bounded_range; eps-bounded-range => eps^2/8-zCDP is Cesar "
        "and Rogers 2021, not proven here)\n"
        "float sampler: cannot run on these inputs (beyond double's range)\n");
    free(k.buf);
    em_free(x);
    em_free(y);
    em_free(sx);
    em_free(sy);
}
END_TEST

START_TEST(check_text)
{
    em_scn *s;
    em_mech *m = mech(TIED, "1", NULL, EM_VARIANT_AUTO, 0, &s);
    em_check_row rows[1] = {{0, 1, 10, 10.0, 1.0, 0.0, 2, 0, NAN, NAN, 0}};
    em_check_result r;
    memset(&r, 0, sizeof r);
    r.verdict = EM_VERDICT_REJECT;
    r.reasons = EM_CHECK_R_TAIL | EM_CHECK_R_CELL;
    r.alpha = 0.01;
    r.n = 10;
    r.nrows = 1;
    r.rows = rows;
    r.min_expected = 5;
    r.ncells = 1;
    r.ncand = 2;
    r.p_value = 1;
    r.min_detectable = INFINITY;
    r.tail_p = 0.001;
    r.cand_p = 0.002;
    r.cand_index = 1;
    r.cand_alpha = 0.005;
    r.support_index = EM_JUDGE_NONE;
    sink k;
    sink_open(&k);
    ck_assert_msg(em_check_result_write(k.f, &r, m, NULL, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k),
        "cell         expected     observed  std.resid  candidates\n"
        "0               10.00           10      0.000  a (+1 pooled)\n"
        "\n"
        "draws: 10 over 2 candidates (0 of probability 0 in double), 1 pooled cells (each "
        "expecting >= 5)\n"
        "G = 0, df = 0, p-value = 1\n"
        "Pearson X^2 = 0, largest |standardised residual| = 0\n"
        "pooled-tail binomial test: p = 0.001\n"
        "support: ok (no draw of a probability-0 candidate)\n"
        "power: one cell only, nothing to detect\n"
        "exact binomial tail of each candidate: smallest p = 0.002 at q,r (Bonferroni level "
        "0.005)\n"
        "verdict: REJECT at alpha = 0.01: pooled tail over-represented (p = 0.001) q,r "
        "over-represented (exact binomial tail p = 0.002)\n");
    free(k.buf);
    /* the table as CSV, with no mechanism: finite cells by index, bins as [lo, hi) to 6
       digits, the draws outside the support last */
    em_check_row bins[2] = {{0, 0, 3, 2.5, 0.25, 0.0, 1, 0, -INFINITY, 1.0 / 3, 1},
                            {1, 1, 6, 7.5, 0.75, 0.0, 1, 1, 1.0 / 3, 1234567.0, 0}};
    const em_write_opts csv = {.format = EM_WRITE_CSV};
    sink_open(&k);
    ck_assert_msg(em_check_result_write(k.f, &r, NULL, &csv, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), "cell,expected,observed\n0,10,10\n");
    free(k.buf);
    r.nrows = 2;
    r.rows = bins;
    r.support_count = 4;
    sink_open(&k);
    ck_assert_msg(em_check_result_write(k.f, &r, NULL, &csv, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), "cell,expected,observed\n\"[-inf, 0.333333)\",2.5,3\n"
                                    "\"[0.333333, 1.23457e+06)\",7.5,6\noutside,0,4\n");
    free(k.buf);
    /* the report for a person still needs the mechanism */
    sink_open(&k);
    ck_assert_int_eq(em_check_result_write(k.f, &r, NULL, NULL, &err), EM_ERR_NULL);
    ck_assert_str_eq(sink_text(&k), "");
    free(k.buf);
    em_free(m);
    em_free(s);
}
END_TEST

START_TEST(compare_text)
{
    em_scn *s;
    em_mech *m = mech(TIED, "1", NULL, EM_VARIANT_AUTO, 0, &s);
    em_compare_result r;
    memset(&r, 0, sizeof r);
    r.n = 2;
    r.nfail = 1;
    r.rtol = 1e-9;
    r.atol = 0x1p-1074;
    r.nshow = 1;
    r.show[0] = (em_compare_row){1, 0, NULL, "0.6", "0.5", "error above tolerance"};
    r.max_abs_text = "0.1";
    r.max_rel_text = "0.2";
    r.max_ulp_text = "1.8e+15";
    r.sum_minus_one_text = "0.1";
    r.worst = r.worst_rel = r.worst_ulp = 1;
    sink k;
    sink_open(&k);
    ck_assert_msg(em_compare_result_write(k.f, &r, m, NULL, &err) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k),
        "FAIL q,r: given 0.6, exact 0.5 (error above tolerance)\n"
        "candidates: 2\n"
        "max absolute error: 0.1 at q,r\n"
        "max relative error: 0.2 at q,r\n"
        "max error in ulps of double: 1.8e+15 at q,r\n"
        "zeros where the exact probability is positive (underflow): 0\n"
        "NaN: 0, infinite: 0, negative: 0, above 1: 0\n"
        "sum of the finite values - 1: 0.1\n"
        "verdict: FAIL: 1 of 2 values outside tolerance (rtol 1e-09, floor 2^-1074) or "
        "invalid\n");
    free(k.buf);
    r.passed = 1;
    r.nfail = r.nshow = 0;
    r.atol = 0.001;
    sink_open(&k);
    ck_assert_int_eq(em_compare_result_write(k.f, &r, m, NULL, &err), EM_OK);
    ck_assert_ptr_nonnull(strstr(sink_text(&k),
        "verdict: PASS: every value within max(1e-09 * exact, 0.001)\n"));
    free(k.buf);
    em_free(m);
    em_free(s);
}
END_TEST

/* em_write of the sampler sp: n draws (o NULL: the default options), *done those written */
static int sample_written(FILE *f, em_sampler *sp, uint64_t n, const em_write_opts *o,
                          uint64_t *done)
{
    em_write_opts w = EM_WRITE_OPTS_INIT;
    if (o)
        w = *o;
    w.draws = n;
    w.done = done;
    return em_write(sp, f, &w, &err);
}

/* ------------------------------------------------------------- bad input */

/* st, with a message naming the writer */
static void refused(int st, int want, const char *fn)
{
    ck_assert_int_eq(st, want);
    ck_assert_int_eq(err.status, want);
    ck_assert_msg(strstr(err.msg, fn) != NULL, "'%s' names no %s", err.msg, fn);
}

/* em_utility's report of m with the nt thresholds t and mc_n draws of mc, written to f
 * (em_write) with o */
static int utility_written(FILE *f, em_mech *m, size_t nt, const char *const *t,
                           uint64_t mc_n, const em_sample_opts *mc, const em_write_opts *o)
{
    em_utility_result *r = NULL;
    int st = em_utility(m, &(em_utility_opts){nt, t, mc_n, mc}, &r, &err);
    if (st == EM_OK)
        st = em_write(r, f, o, &err);
    em_free(r);
    return st;
}

/* The report computed and written.  Two tied candidates at epsilon 1 (c = 1/2): opt 1, no
 * loss, the bounds 1/c = 2 and exp(-1/2) = 0.60653 at T = 1.  Utilities 0, -1 at epsilon 2
 * (c = 1): P(a) = 1/(1 + e^-1) = 0.73106, E[u] = -0.26894, sd = sqrt(p (1 - p)) = 0.44341,
 * ratio 2: (ln 2 + 1)/c = 1.6931, min(1, 2 e^-1/2) = 1. */
START_TEST(utility_computed)
{
    em_scn *s, *s2;
    em_mech *m = mech(TIED, "1", NULL, EM_VARIANT_AUTO, 5, &s);
    em_mech *m2 = mech("a,0\nb,-1\n", "2", NULL, EM_VARIANT_AUTO, 5, &s2);
    const em_write_opts csv = {.format = EM_WRITE_CSV};
    const char *t[] = {"0", "1"}, *half[] = {"1/2"};
    sink k;
    sink_open(&k);
    ck_assert_msg(utility_written(k.f, m, 2, t, 0, NULL, &csv) == EM_OK, "%s", err.msg);
    ck_assert_msg(utility_written(k.f, m2, 1, half, 0, NULL, &csv) == EM_OK, "%s",
                  err.msg);
    ck_assert_str_eq(sink_text(&k),
                     "epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,"
                     "expected_loss_bound,p_loss_gt_0,bound_p_loss_gt_0,p_loss_gt_1,"
                     "bound_p_loss_gt_1\n1,1.0000,1.0000,0,0,1,2.0000,0,1,0,0.60653\n"
                     "epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,"
                     "expected_loss_bound,p_loss_gt_1/2,bound_p_loss_gt_1/2\n"
                     "2,0,-0.26894,0.26894,0.44341,0.73106,1.6931,0.26894,1\n");
    free(k.buf);
    /* Monte Carlo over tied candidates: every loss 0 */
    const em_sample_opts seeded = {1, 1, EM_SAMPLER_EXACT, EM_TIMING_VARIABLE};
    const em_write_opts json = {.format = EM_WRITE_JSON};
    sink_open(&k);
    ck_assert_msg(utility_written(k.f, m, 0, NULL, 5, &seeded, &json) == EM_OK, "%s",
                  err.msg);
    ck_assert_str_eq(sink_text(&k),
                     "{\"epsilon\": \"1\", \"sensitivity\": \"1\", \"variant\": \"standard\", "
                     "\"digits\": 5, \"opt\": \"1.0000\", \"expected_utility\": \"1.0000\", "
                     "\"expected_loss\": \"0\", \"sd_loss\": \"0\", \"p_best\": \"1\", "
                     "\"expected_loss_bound\": \"2.0000\", \"loss_at\": [], \"mc_n\": 5, "
                     "\"mc_expected_loss\": 0, \"mc_se\": 0}\n");
    free(k.buf);
    /* refused: nothing written, the threshold or the estimate named */
    const char *bad[] = {"1", "x"}, *hole[] = {NULL};
    sink_open(&k);
    ck_assert_int_eq(utility_written(k.f, m, 2, bad, 0, NULL, &csv), EM_ERR_PARSE);
    ck_assert_msg(!strncmp(err.msg, "loss_at: ", 9), "%s", err.msg);
    ck_assert_int_eq(utility_written(k.f, m, 1, hole, 0, NULL, &csv), EM_ERR_NULL);
    ck_assert_msg(!strncmp(err.msg, "loss_at: t[0] is NULL", 21), "%s", err.msg);
    ck_assert_int_eq(utility_written(k.f, m, 0, NULL, 1, NULL, &csv), EM_ERR_DOMAIN);
    ck_assert_msg(!strncmp(err.msg, "mc: ", 4), "%s", err.msg);
    refused(utility_written(k.f, m, 1, NULL, 0, NULL, &csv), EM_ERR_NULL, "em_utility");
    refused(utility_written(NULL, m, 0, NULL, 0, NULL, &csv), EM_ERR_NULL, "em_write");
    refused(utility_written(k.f, NULL, 0, NULL, 0, NULL, &csv), EM_ERR_NULL, "em_utility");
    refused(utility_written(k.f, m, 0, NULL, 0, NULL, NULL), EM_ERR_DOMAIN, "em_write");
    ck_assert_str_eq(sink_text(&k), "");
    free(k.buf);
    em_free(m);
    em_free(m2);
    em_free(s);
    em_free(s2);
}
END_TEST

/* ------------------------------------------------------------------ sample */

/* A law with one possible draw ("q,r"; "x" excluded) makes the draws known in advance; the
 * uniform law on [0, 1) makes each value one to read back. */
START_TEST(sample_csv)
{
    em_scn *s, *su;
    em_mech *m = mech("x,-inf\n\"q,r\",0\n", "1", NULL, EM_VARIANT_AUTO, 0, &s);
    em_mech *mu = mech("# output: continuous\n0,1,0,0\n", "1", NULL, EM_VARIANT_AUTO, 0, &su);
    const em_sample_opts so = {7, 1, EM_SAMPLER_EXACT, EM_TIMING_VARIABLE};
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    em_sampler *sp;
    uint64_t done = 9;
    sink k;
    ck_assert_msg(em_sampler_new(m, &so, &sp, &err) == EM_OK, "%s", err.msg);
    sink_open(&k);
    ck_assert_msg(sample_written(k.f, sp, 3, &o, &done) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), "\"q,r\"\n\"q,r\"\n\"q,r\"\n");
    ck_assert_uint_eq(done, 3);
    free(k.buf);
    /* a sweep: the header at its first run, each row led by the epsilon as given */
    o.sweep_n = 2;
    o.epsilon = "1.0";
    sink_open(&k);
    ck_assert_msg(sample_written(k.f, sp, 2, &o, NULL) == EM_OK, "%s", err.msg);
    o.sweep_i = 1;
    o.epsilon = "2e0";
    ck_assert_msg(sample_written(k.f, sp, 1, &o, &done) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), "epsilon,value\n1.0,\"q,r\"\n1.0,\"q,r\"\n2e0,\"q,r\"\n");
    ck_assert_uint_eq(done, 1);
    free(k.buf);
    /* n = 0: nothing */
    o.sweep_n = 0;
    sink_open(&k);
    ck_assert_int_eq(sample_written(k.f, sp, 0, &o, &done), EM_OK);
    ck_assert_str_eq(sink_text(&k), "");
    ck_assert_uint_eq(done, 0);
    free(k.buf);
    em_free(sp);
    /* continuous: one "%.17g" value a line, each in [0, 1] and read back exactly */
    ck_assert_msg(em_sampler_new(mu, &so, &sp, &err) == EM_OK, "%s", err.msg);
    sink_open(&k);
    ck_assert_msg(sample_written(k.f, sp, 50, &o, &done) == EM_OK, "%s", err.msg);
    const char *t = sink_text(&k);
    size_t lines = 0;
    for (const char *p = t; *p; lines++) {
        char *end;
        double v = strtod(p, &end);
        char again[32];
        snprintf(again, sizeof again, "%.17g", v);
        ck_assert_msg(v >= 0 && v <= 1 && *end == '\n', "line %zu: %s", lines, p);
        ck_assert_int_eq(strncmp(p, again, (size_t)(end - p)), 0);
        ck_assert_uint_eq(strlen(again), (size_t)(end - p));
        p = end + 1;
    }
    ck_assert_uint_eq(lines, 50);
    ck_assert_uint_eq(done, 50);
    free(k.buf);
    /* bad arguments: an error naming the writer, nothing written */
    sink_open(&k);
    refused(sample_written(NULL, sp, 1, &o, &done), EM_ERR_NULL, "em_write");
    refused(sample_written(k.f, NULL, 1, &o, &done), EM_ERR_NULL, "em_write");
    o.format = EM_WRITE_JSON;
    refused(sample_written(k.f, sp, 1, &o, &done), EM_ERR_DOMAIN, "em_write");
    ck_assert_uint_eq(done, 0); /* the sampler's writer counts from 0, refusing or not */
    refused(sample_written(k.f, sp, 1, NULL, &done), EM_ERR_DOMAIN, "em_write");
    o.format = EM_WRITE_CSV;
    o.sweep_n = 2;
    o.sweep_i = 2;
    refused(sample_written(k.f, sp, 1, &o, &done), EM_ERR_DOMAIN, "em_write");
    ck_assert_str_eq(sink_text(&k), "");
    free(k.buf);
    /* a stream that cannot be written: the first draw's write fails and stops the drawing */
    o.sweep_n = o.sweep_i = 0;
    FILE *ro = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(ro);
    setvbuf(ro, NULL, _IONBF, 0);
    refused(sample_written(ro, sp, 1000, &o, &done), EM_ERR_DOMAIN, "em_write");
    ck_assert_uint_eq(done, 1);
    fclose(ro);
    em_free(sp);
    em_free(m);
    em_free(mu);
    em_free(s);
    em_free(su);
}
END_TEST

START_TEST(bad_arguments)
{
    em_scn *s;
    em_mech *m = mech(TIED, "1", NULL, EM_VARIANT_AUTO, 0, &s);
    em_audit_result ar;
    em_check_result cr;
    em_compare_result pr;
    em_utility_result ur = {"2", "1.5", "0.5", "0.25", "0.5", 2, 1.5, 0.5, 0.25, 0.5,
                               NULL, 0, NULL, NULL, NULL, 0, 0, 0};
    em_utility_report u = {&ur, NULL, 0, NULL, NULL, NULL, 0, 0, 0};
    memset(&ar, 0, sizeof ar);
    memset(&cr, 0, sizeof cr);
    memset(&pr, 0, sizeof pr);
    sink k;
    sink_open(&k);
    em_write_opts json = EM_WRITE_OPTS_INIT, text = EM_WRITE_OPTS_INIT, odd = EM_WRITE_OPTS_INIT,
                  sweep = EM_WRITE_OPTS_INIT;
    json.format = EM_WRITE_JSON;
    odd.format = 7;
    sweep.format = EM_WRITE_CSV;
    sweep.sweep_i = 2;
    sweep.sweep_n = 2;
    /* NULL results, mechanisms, streams */
    refused(em_audit_result_write(k.f, NULL, m, m, NULL, &err), EM_ERR_NULL,
            "em_write");
    refused(em_audit_result_write(k.f, &ar, m, NULL, NULL, &err), EM_ERR_NULL,
            "em_write");
    refused(em_check_result_write(k.f, NULL, m, NULL, &err), EM_ERR_NULL,
            "em_write");
    refused(em_compare_result_write(k.f, &pr, NULL, NULL, &err), EM_ERR_NULL,
            "em_write");
    refused(em_write(m, NULL, NULL, &err), EM_ERR_NULL, "em_write");
    refused(em_write(NULL, k.f, NULL, &err), EM_ERR_NULL, "em_write");
    refused(em_utility_report_write(k.f, NULL, m, NULL, &err), EM_ERR_NULL,
            "em_write");
    em_utility_report holes = {NULL, NULL, 0, NULL, NULL, NULL, 0, 0, 0};
    refused(em_utility_report_write(k.f, &holes, m, &json, &err), EM_ERR_NULL,
            "em_write");
    const char *t[] = {"1"}, *tail[] = {NULL};
    em_utility_report hole = {&ur, NULL, 1, t, tail, NULL, 0, 0, 0};
    refused(em_utility_report_write(k.f, &hole, m, &json, &err), EM_ERR_NULL,
            "em_write");
    /* formats a writer does not take, unknown formats, a sweep out of range */
    refused(em_audit_result_write(k.f, &ar, m, m, &json, &err), EM_ERR_DOMAIN,
            "em_write");
    refused(em_check_result_write(k.f, &cr, m, &odd, &err), EM_ERR_DOMAIN,
            "em_write");
    refused(em_compare_result_write(k.f, &pr, m, &json, &err), EM_ERR_DOMAIN,
            "em_write");
    refused(em_write(m, k.f, &text, &err), EM_ERR_DOMAIN, "em_write");
    refused(em_write(m, k.f, NULL, &err), EM_ERR_DOMAIN, "em_write");
    refused(em_write(m, k.f, &odd, &err), EM_ERR_DOMAIN, "em_write");
    refused(em_write(m, k.f, &sweep, &err), EM_ERR_DOMAIN, "em_write");
    refused(em_utility_report_write(k.f, &u, m, &text, &err), EM_ERR_DOMAIN,
            "em_write");
    refused(em_utility_report_write(k.f, &u, m, &sweep, &err), EM_ERR_DOMAIN,
            "em_write");
    /* nothing was written by a refused call; err may be NULL */
    ck_assert_str_eq(sink_text(&k), "");
    free(k.buf);
    ck_assert_int_eq(em_write(m, NULL, &json, NULL), EM_ERR_NULL);
    /* a stream that cannot be written */
    FILE *ro = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(ro);
    refused(em_utility_report_write(ro, &u, m, &json, &err), EM_ERR_DOMAIN,
            "em_write");
    fclose(ro);
    em_free(m);
    em_free(s);
}
END_TEST


/* ------------------------------------------------------ cdf, density, quantile */

/* the uniform law on [0, 1] (utility 0): F(x) = x, f = 1 on [0, 1), Q(p) = p */
#define UNIFORM "# output: continuous\n0,1,0,0\n"

/* em_write of m's law what at the points p with the options o */
static int points_written(FILE *f, em_mech *m, int what, const em_points *p,
                          const em_write_opts *o)
{
    em_write_opts w = *o;
    w.points = p;
    w.law = what;
    return em_write(m, f, &w, &err);
}

static void points_are(em_mech *m, int what, const em_points *p, const em_write_opts *o,
                       const char *want)
{
    sink k;
    sink_open(&k);
    ck_assert_msg(points_written(k.f, m, what, p, o) == EM_OK, "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), want);
    free(k.buf);
}

START_TEST(points_csv)
{
    em_scn *s;
    em_mech *m = mech(UNIFORM, "1", NULL, EM_VARIANT_AUTO, 5, &s);
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    const em_points grid = {5, NULL, "0", "1"};
    points_are(m, EM_LAW_CDF, &grid, &o, "0,0\n0.25,0.25000\n0.5,0.50000\n0.75,0.75000\n1,1\n");
    const char *at[] = {"0.5", "2"};
    const em_points two = {2, at, NULL, NULL};
    points_are(m, EM_LAW_DENSITY, &two, &o, "0.5,1.0000,0\n2,0,-inf\n");
    const char *ps[] = {"1/4", "1"}; /* written as given */
    const em_points q = {2, ps, NULL, NULL};
    o.sweep_n = 2;
    o.epsilon = "1";
    points_are(m, EM_LAW_QUANTILE, &q, &o, "epsilon,p,x\n1,1/4,0.25000\n1,1,1.0000\n");
    /* a point that fails: the rows before it written, the point named */
    const char *bad[] = {"0.5", "2"};
    const em_points qb = {2, bad, NULL, NULL};
    o = (em_write_opts)EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    sink k;
    sink_open(&k);
    ck_assert_int_eq(points_written(k.f, m, EM_LAW_QUANTILE, &qb, &o),
                     EM_ERR_DOMAIN);
    ck_assert_msg(!strncmp(err.msg, "point 2: ", 9), "%s", err.msg);
    ck_assert_str_eq(sink_text(&k), "0.5,0.50000\n");
    free(k.buf);
    /* bad arguments */
    sink_open(&k);
    refused(points_written(k.f, m, 3, &grid, &o), EM_ERR_DOMAIN,
            "em_write");
    const em_points holes = {2, NULL, "0", NULL};
    refused(points_written(k.f, m, EM_LAW_CDF, &holes, &o), EM_ERR_NULL,
            "em_write");
    o.format = EM_WRITE_JSON;
    refused(points_written(k.f, m, EM_LAW_CDF, &grid, &o), EM_ERR_DOMAIN,
            "em_write");
    ck_assert_str_eq(sink_text(&k), "");
    free(k.buf);
    em_free(m);
    em_free(s);
}
END_TEST

/* the points from text: each list, grid and refusal; intervals written row by row */
START_TEST(points_parsed)
{
    em_points *p = NULL;
    ck_assert_msg(em_points_parse(EM_LAW_CDF, "1/3,-2,0.5", NULL, &p, &err) == EM_OK, "%s",
                  err.msg);
    ck_assert_uint_eq(p->n, 3);
    ck_assert_str_eq(p->at[0], "1/3");
    ck_assert_str_eq(p->at[2], "0.5");
    em_free(p);
    ck_assert_int_eq(em_points_parse(EM_LAW_QUANTILE, NULL, "0:1/2:0x10", &p, &err), EM_OK);
    ck_assert_ptr_null(p->at);
    ck_assert_uint_eq(p->n, 16);
    ck_assert_str_eq(p->lo, "0");
    ck_assert_str_eq(p->hi, "1/2");
    em_free(p);
    ck_assert_int_eq(em_points_parse(EM_LAW_DENSITY, NULL, "2:2:1", &p, &err), EM_OK);
    ck_assert_uint_eq(p->n, 1);
    em_free(p);
    /* intervals: each A:B checked here, before any row is written (the item kept as given) */
    ck_assert_int_eq(em_points_parse(EM_LAW_INTERVAL, "0:1/4,-1:-1,1/2:0x1p0", NULL, &p, &err),
                     EM_OK);
    ck_assert_uint_eq(p->n, 3);
    ck_assert_str_eq(p->at[1], "-1:-1");
    ck_assert_str_eq(p->at[2], "1/2:0x1p0");
    em_free(p);
    static const struct { int what; const char *at, *grid; int st; const char *says; } bad[] = {
        {EM_LAW_CDF, "1,,2", NULL, EM_ERR_PARSE, "at: empty value in '1,,2'"},
        {EM_LAW_CDF, "1,x", NULL, EM_ERR_PARSE, "at: bad number 'x'"},
        {EM_LAW_CDF, NULL, "0:1", EM_ERR_PARSE, "grid: expected LO:HI:N, found '0:1'"},
        {EM_LAW_CDF, NULL, "0:1:2:3", EM_ERR_PARSE, "grid: expected LO:HI:N"},
        {EM_LAW_CDF, NULL, "0:1:0", EM_ERR_PARSE, "grid: N must be an integer in [1, 10000000]"},
        {EM_LAW_CDF, NULL, "0:1:+3", EM_ERR_PARSE, "found '+3'"},
        {EM_LAW_CDF, NULL, "0:1:10000001", EM_ERR_PARSE, "grid: N must be"},
        {EM_LAW_CDF, NULL, "1:0:3", EM_ERR_DOMAIN, "grid: LO > HI"},
        {EM_LAW_CDF, NULL, "0:1:1", EM_ERR_DOMAIN, "grid: N = 1 needs LO = HI"},
        {EM_LAW_CDF, NULL, "a:1:3", EM_ERR_PARSE, "grid: bad number 'a'"},
        {EM_LAW_QUANTILE, "0,1.5", NULL, EM_ERR_DOMAIN, "at: p must lie in [0, 1] (point 2: 1.5)"},
        {EM_LAW_QUANTILE, NULL, "-1:1:3", EM_ERR_DOMAIN,
         "grid: p must lie in [0, 1] (point 1: -1)"},
        {EM_LAW_QUANTILE, NULL, "0:2:5", EM_ERR_DOMAIN, "(point 4: 1.5)"}, /* 0, 1/2, 1, 3/2 */
        /* an interval: two numbers, A <= B, every one before any row is written */
        {EM_LAW_INTERVAL, "0:1/4,,1/2:1", NULL, EM_ERR_PARSE, "between: expected A:B, found ''"},
        {EM_LAW_INTERVAL, "0:1/4,1/2", NULL, EM_ERR_PARSE, "between: expected A:B, found '1/2'"},
        {EM_LAW_INTERVAL, "0:1/4,1:1/2", NULL, EM_ERR_DOMAIN, "between: A > B in '1:1/2'"},
        {EM_LAW_INTERVAL, "0:1/4,x:1", NULL, EM_ERR_PARSE, "between: bad number 'x'"},
        {EM_LAW_INTERVAL, "0:nan", NULL, EM_ERR_PARSE, "between: bad number 'nan'"},
        {EM_LAW_INTERVAL, "0:1:2", NULL, EM_ERR_PARSE, "between: bad number '1:2'"},
        {EM_LAW_INTERVAL, "0:1/4,", NULL, EM_ERR_PARSE, "between: expected A:B, found ''"},
        {EM_LAW_CDF, "1", "0:1:2", EM_ERR_NULL, "exactly one of at and grid"},
        {EM_LAW_CDF, NULL, NULL, EM_ERR_NULL, "exactly one of at and grid"},
        {EM_LAW_INTERVAL, NULL, "0:1:2", EM_ERR_NULL, "exactly one of at and grid"},
        {4, "1", NULL, EM_ERR_DOMAIN, "em_points_parse: what (4)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        p = (em_points *)&err; /* set to NULL on failure */
        ck_assert_int_eq(em_points_parse(bad[i].what, bad[i].at, bad[i].grid, &p, &err),
                         bad[i].st);
        ck_assert_ptr_null(p);
        ck_assert_msg(strstr(err.msg, bad[i].says) != NULL, "%zu: '%s'", i, err.msg);
    }
    ck_assert_int_eq(em_points_parse(EM_LAW_CDF, "1", NULL, NULL, NULL), EM_ERR_NULL);
    /* intervals of the uniform law on [0, 1]: P(A < X <= B) = B - A inside [0, 1] */
    em_scn *s;
    em_mech *m = mech(UNIFORM, "1", NULL, EM_VARIANT_AUTO, 5, &s);
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    ck_assert_int_eq(em_points_parse(EM_LAW_INTERVAL, "0:1/4,-1:1/2,1/2:2", NULL, &p, &err),
                     EM_OK);
    points_are(m, EM_LAW_INTERVAL, p, &o, "0,1/4,0.25000\n-1,1/2,0.50000\n1/2,2,0.50000\n");
    o.sweep_n = 2;
    o.epsilon = "1.0";
    points_are(m, EM_LAW_INTERVAL, p, &o, "epsilon,a,b,probability\n1.0,0,1/4,0.25000\n"
                                          "1.0,-1,1/2,0.50000\n1.0,1/2,2,0.50000\n");
    em_free(p);
    /* a bad interval in points made by hand (em_points_parse refuses them): the rows
       before it written, it named */
    static const struct { const char *at, *says; int st; } badi[] = {
        {"1/2", "between: expected A:B, found '1/2'", EM_ERR_PARSE},
        {"1:1/2", "between: A > B in '1:1/2'", EM_ERR_DOMAIN},
        {"x:1", "between: bad number 'x'", EM_ERR_PARSE},
        {"", "between: expected A:B, found ''", EM_ERR_PARSE},
    };
    o = (em_write_opts)EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    for (size_t i = 0; i < sizeof badi / sizeof *badi; i++) {
        sink k;
        const char *two[] = {"0:1/4", badi[i].at};
        const em_points hand = {2, two, NULL, NULL};
        sink_open(&k);
        ck_assert_int_eq(points_written(k.f, m, EM_LAW_INTERVAL, &hand, &o),
                         badi[i].st);
        ck_assert_msg(strstr(err.msg, badi[i].says) != NULL, "%zu: '%s'", i, err.msg);
        ck_assert_str_eq(sink_text(&k), "0,1/4,0.25000\n");
        free(k.buf);
    }
    const em_points grid = {2, NULL, "0", "1"};
    refused(points_written(stdout, m, EM_LAW_INTERVAL, &grid, &o), EM_ERR_DOMAIN,
            "em_write");
    em_free(m);
    em_free(s);
}
END_TEST

/* ------------------------------------------------------------------ groups */

/* groups A (x, y, y) and B (y, x, y) from a file; the report filled by hand */
/* em_write: a result knows the mechanisms it was computed over and writes what the
 * writer given them explicitly writes; an object it does not write is refused. */
START_TEST(one_writer)
{
    em_scn *s = NULL, *s2 = NULL;
    em_mech *m = mech("a,1\nb,0\n", "1", NULL, EM_VARIANT_AUTO, 0, &s);
    em_mech *m2 = mech("a,0\nb,0\n", "1", NULL, EM_VARIANT_AUTO, 0, &s2);
    double given[] = {0.6, 0.4};
    em_compare_result *cr = NULL;
    ck_assert_int_eq(em_compare(m, given, 2, NULL, NULL, &cr, &err), EM_OK);
    em_audit_result *ar = NULL;
    ck_assert_msg(em_audit(m, m2, NULL, NULL, 0.95, &ar, &err) == EM_OK, "%s", err.msg);
    sink a, b;
    sink_open(&a), sink_open(&b);
    ck_assert_int_eq(em_write(cr, a.f, NULL, &err), EM_OK);
    ck_assert_int_eq(em_compare_result_write(b.f, cr, m, NULL, &err), EM_OK);
    ck_assert_int_eq(em_write(ar, a.f, NULL, &err), EM_OK);
    ck_assert_int_eq(em_audit_result_write(b.f, ar, m, m2, NULL, &err), EM_OK);
    const char *ta = sink_text(&a), *tb = sink_text(&b);
    ck_assert_ptr_nonnull(strstr(ta, "loss"));
    ck_assert_str_eq(ta, tb);
    free(a.buf), free(b.buf);
    sink_open(&a);
    char *text = NULL; /* a string: not an object em_write writes */
    ck_assert_int_eq(em_scn_utility(s, 0, &text, &err), EM_OK);
    refused(em_write(text, a.f, NULL, &err), EM_ERR_DOMAIN, "em_write: the object is not one");
    em_free(text);
    refused(em_write(NULL, a.f, NULL, &err), EM_ERR_NULL, "em_write");
    refused(em_write(cr, NULL, NULL, &err), EM_ERR_NULL, "em_write");
    const em_write_opts json = {.format = EM_WRITE_JSON};
    refused(em_write(cr, a.f, &json, &err), EM_ERR_DOMAIN, "em_write");
    ck_assert_str_eq(sink_text(&a), "");
    free(a.buf);
    em_free(cr), em_free(ar), em_free(m), em_free(m2), em_free(s), em_free(s2);
}
END_TEST

START_TEST(groups_csv_and_json)
{
    char path[] = "/tmp/em_test_api_write_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *d = fdopen(fd, "w");
    fputs("g,v\nA,x\nA,y\nA,y\nB,y\nB,x\nB,y\n", d);
    fclose(d);
    em_scoring_opts so = EM_SCORING_OPTS_INIT;
    so.function = "frequency";
    so.data = path;
    so.column = "v";
    so.candidates_from_data = 1;
    em_groups *g = NULL;
    ck_assert_msg(em_groups_new(&so, "g", &g, &err) == EM_OK, "%s", err.msg);
    unlink(path);
    char *ma[] = {"y"}, *mb[] = {"x", "y"};
    em_group_report gr[2] = {
        {.epsilon = "1/2", .share = "1/2", .n_modes = 1, .modes = ma, .p_true_mode = "0.7",
         .expected_loss = "0.3"},
        {.epsilon = "1/2", .share = "1/2", .n_modes = 2, .modes = mb, .p_true_mode = "0.6",
         .expected_loss = "0.4"}};
    em_groups_report r = {.n = 2, .group = gr, .gap = "0.1"};
    em_write_opts o = EM_WRITE_OPTS_INIT;
    o.format = EM_WRITE_CSV;
    o.epsilon = "1";
    sink k;
    sink_open(&k);
    ck_assert_int_eq(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_OK);
    ck_assert_str_eq(sink_text(&k),
                     "epsilon,group,rows,share,epsilon_group,true_mode,p_true_mode,expected_loss,"
                     "gap\n1,A,3,1/2,1/2,y,0.7,0.3,0.1\n1,B,3,1/2,1/2,x|y,0.6,0.4,0.1\n");
    free(k.buf);
    o.format = EM_WRITE_JSON;
    sink_open(&k);
    ck_assert_int_eq(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_OK);
    ck_assert_str_eq(sink_text(&k),
                     "{\"epsilon\": \"1\", \"split\": \"equal\", \"groups\": [\n"
                     "  {\"group\": \"A\", \"rows\": 3, \"share\": \"1/2\", \"epsilon_group\": "
                     "\"1/2\", \"true_mode\": [\"y\"], \"p_true_mode\": \"0.7\", "
                     "\"expected_loss\": \"0.3\"},\n"
                     "  {\"group\": \"B\", \"rows\": 3, \"share\": \"1/2\", \"epsilon_group\": "
                     "\"1/2\", \"true_mode\": [\"x\", \"y\"], \"p_true_mode\": \"0.6\", "
                     "\"expected_loss\": \"0.4\"}\n"
                     "], \"gap\": \"0.1\"}\n");
    free(k.buf);
    /* a sweep of two: one list; in CSV the header once */
    o.sweep_n = 2;
    sink_open(&k);
    for (size_t i = 0; i < 2; i++) {
        o.sweep_i = i;
        o.epsilon = i ? "3" : "1";
        ck_assert_int_eq(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_OK);
    }
    const char *t = sink_text(&k);
    ck_assert_msg(!strncmp(t, "[\n  {\"epsilon\": \"1\"", 19) && strstr(t, "\n    {\"group\": \"A\"") &&
                      strstr(t, "\n  ], \"gap\": \"0.1\"},\n  {\"epsilon\": \"3\"") &&
                      strlen(t) > 22 && !strcmp(t + strlen(t) - 22, "\n  ], \"gap\": \"0.1\"}\n]\n"),
                  "%s", t);
    free(k.buf);
    o.format = EM_WRITE_CSV;
    sink_open(&k);
    for (size_t i = 0; i < 2; i++) {
        o.sweep_i = i;
        o.epsilon = i ? "3" : "1";
        ck_assert_int_eq(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_OK);
    }
    t = sink_text(&k);
    ck_assert_msg(strstr(t, "\n3,B,3,1/2,1/2,x|y,0.6,0.4,0.1\n") && !strstr(t + 1, "epsilon,"),
                  "%s", t);
    free(k.buf);
    /* bad arguments: each an error with the writer's name, nothing written */
    o.sweep_n = 0;
    o.sweep_i = 0;
    sink_open(&k);
    refused(em_groups_report_write(k.f, NULL, &r, "equal", &o, &err), EM_ERR_NULL,
            "em_write");
    o.epsilon = NULL;
    refused(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_ERR_NULL,
            "em_write");
    o.epsilon = "1";
    o.format = EM_WRITE_JSON;
    refused(em_groups_report_write(k.f, g, &r, NULL, &o, &err), EM_ERR_NULL,
            "em_write");
    o.format = EM_WRITE_TEXT;
    refused(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_ERR_DOMAIN,
            "em_write");
    o.format = EM_WRITE_CSV;
    r.n = 1;
    refused(em_groups_report_write(k.f, g, &r, "equal", &o, &err), EM_ERR_DOMAIN,
            "em_write");
    ck_assert_str_eq(sink_text(&k), "");
    free(k.buf);
    em_free(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("api_write");
    TCase *tc = tcase_create("writers");
    tcase_add_test(tc, probs_csv_and_json);
    tcase_add_test(tc, probs_labels_for_a_terminal);
    tcase_add_test(tc, utility_csv_and_json);
    tcase_add_test(tc, utility_computed);
    tcase_add_test(tc, audit_text);
    tcase_add_test(tc, check_text);
    tcase_add_test(tc, compare_text);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, sample_csv);
    tcase_add_test(tc, points_csv);
    tcase_add_test(tc, points_parsed);
    tcase_add_test(tc, groups_csv_and_json);
    tcase_add_test(tc, one_writer);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
