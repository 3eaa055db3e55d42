/* test_conform.c: the conformance suite (em_conform.h): the draw reader, command lines,
 * case files, the laws of known mistakes and their power, the diagnosis of a reject, the
 * runner's verdicts on in-process and misbehaving programs, and every planted-bug sampler
 * of conformance/samplers/ rejected and named.
 *
 * Expected numbers come from outside the code under test: closed forms computed here in
 * long double, and the power figures of the project's statistics notes (N = 247 draws
 * detect "eps not halved" on u = 0..6 at eps = 1 with power 0.99 at alpha = 1e-6; 6.8e3
 * at eps = 0.1).  Seeds are fixed. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "expmech.h"
#include "io/em_draws.h"
#include "api/em_judge_priv.h" /* em_judge_find_label */
#include "api/em_mistake_priv.h"
#include "judge/em_gof_alt.h"
#include "api/em_obj.h"

#define CASES "conformance/cases"

static char tmp[64];

static void setup(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/em_conform_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    if (strstr(name, ".sh"))
        chmod(path, 0755);
}

/* copies battery cases into tmp/DIR */
static void copy_cases(const char *dir, const char *const *ids)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/%s", tmp, dir);
    ck_assert_int_eq(system(cmd), 0);
    for (; *ids; ids++) {
        snprintf(cmd, sizeof cmd, "cp " CASES "/%s.json %s/%s/", *ids, tmp, dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}

/* ------------------------------------------------------------ the draw reader */

static em_scn *abc(void)
{
    const char *u[] = {"0", "0.5", "1"}, *l[] = {"a", "b", "c"};
    em_scn *s;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 3, .utilities = u, .labels = l}, &s, NULL), EM_OK);
    return s;
}

static const char *label_of(const void *s, size_t i)
{
    return em_scn_label(s, i);
}

/* em_conform_name: the three tables, codes 0 .. count - 1 each with a name of its own, and
 * nothing past a table's end or for an unknown table */
START_TEST(code_names)
{
    ck_assert_str_eq(em_conform_name(EM_NAME_KIND, EM_KIND_LAPLACE), "laplace");
    ck_assert_str_eq(em_conform_name(EM_NAME_MISTAKE, EM_MISTAKE_EPS_NOT_HALVED),
                     "eps_not_halved");
    ck_assert_str_eq(em_conform_name(EM_NAME_VERDICT, EM_CONFORM_IMPOSSIBLE), "impossible draw");
    static const int count[] = {EM_KIND_COUNT, EM_MISTAKE_COUNT, EM_CONFORM_NVERDICTS};
    for (int t = EM_NAME_KIND; t <= EM_NAME_VERDICT; t++) {
        for (int v = 0; v < count[t]; v++) {
            ck_assert_ptr_nonnull(em_conform_name(t, v));
            for (int w = 0; w < v; w++) /* a name gives back its code alone */
                ck_assert_str_ne(em_conform_name(t, w), em_conform_name(t, v));
        }
        ck_assert_ptr_null(em_conform_name(t, count[t]));
        ck_assert_ptr_null(em_conform_name(t, -1));
    }
    ck_assert_ptr_null(em_conform_name(3, 0));
}
END_TEST

START_TEST(draws_labels)
{
    em_scn *s = abc();
    double ud[3] = {0, 0.5, 1};
    em_draws_cands dc = {3, em_judge_find_label, s, label_of, ud};
    uint64_t c[3] = {0}, lines;
    em_error e;
    const char *msg = e.msg;
    const char ok[] = "a\r\nc\nc\nb"; /* CRLF, no final line end */
    ck_assert_int_eq(em_draws_read_labels(ok, strlen(ok), 4, &dc, c, &lines, &e), EM_OK);
    ck_assert(c[0] == 1 && c[1] == 1 && c[2] == 2 && lines == 4);
    struct {
        const char *in;
        uint64_t n;
        const char *want;
    } bad[] = {
        {"a\nb\n", 3, "2 lines where 3 draws were asked for"},
        {"a\nb\nc\na\n", 3, "more than the 3 lines"},
        {"a\nzz\n", 2, "line 2: 'zz' is not a label of this case"},
        {"a\n0.5\n", 2, "line 2: '0.5' is not a label of this case; it is the utility of 'b'"},
        {"a\n\n", 2, "line 2: empty"},
        {"a\nb\xff\n", 2, "line 2: not UTF-8 text: 'b\\xff'"},
        {"a\nb\rc\n", 2, "line 2: a stray carriage return or byte-order mark: 'b\\x0dc'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(c, 0, sizeof c);
        ck_assert_int_eq(em_draws_read_labels(bad[i].in, strlen(bad[i].in), bad[i].n, &dc, c,
                                              &lines, &e),
                         EM_ERR_PARSE);
        ck_assert_msg(strstr(msg, bad[i].want), "%zu: '%s' lacks '%s'", i, msg, bad[i].want);
    }
    const char nul[] = "a\nb\0c\n";
    ck_assert_int_eq(em_draws_read_labels(nul, sizeof nul - 1, 2, &dc, c, &lines, &e),
                     EM_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(msg, "line 2: a NUL byte (binary output?): 'b\\x00c'"));
    em_free(s);
}
END_TEST

START_TEST(draws_numbers)
{
    double x[5];
    uint64_t lines;
    em_error e;
    const char *msg = e.msg;
    const char ok[] = "0x1.8p1\n 2.5 \n-inf\nnan\n1e-320";
    ck_assert_int_eq(em_draws_read_numbers(ok, strlen(ok), 5, x, &lines, &e), EM_OK);
    ck_assert(x[0] == 3.0 && x[1] == 2.5 && isinf(x[2]) && x[2] < 0 && isnan(x[3]));
    ck_assert(x[4] == 1e-320);
    ck_assert_int_eq(em_draws_read_numbers("1\nabc\n", 6, 2, x, &lines, &e), EM_ERR_PARSE);
    ck_assert_str_eq(msg, "line 2: 'abc' is not a number");
    ck_assert_int_eq(em_draws_read_numbers("1\n2 3\n", 6, 2, x, &lines, &e), EM_ERR_PARSE);
    ck_assert_str_eq(msg, "line 2: '2 3' is not a number");
}
END_TEST

START_TEST(command_split)
{
    char **v;
    em_error e;
    ck_assert_int_eq(em_command_split(" a 'b c'  \"d \\\" e\" f\\ g h''i ", &v, &e), EM_OK);
    const char *want[] = {"a", "b c", "d \" e", "f g", "hi"};
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(v[i], want[i]);
    ck_assert_ptr_null(v[5]);
    em_free(v);
    ck_assert_int_eq(em_command_split("a 'b", &v, &e), EM_ERR_PARSE);
    ck_assert_str_eq(e.msg, "sampler: an unclosed single quote");
    ck_assert_int_eq(em_command_split("   ", &v, &e), EM_ERR_PARSE);
}
END_TEST

/* ------------------------------------------------------------ case files */

static const char minimal[] =
    "{\"schema\": \"expmech-conformance-1\", \"id\": \"X1\", \"title\": \"t\", \"kind\": \"finite\",\n"
    " \"expect\": \"law\", \"epsilon\": \"1\", \"sensitivity\": \"1\", \"variant\": \"standard\",\n"
    " \"scenario\": {\"labels\": [\"a\", \"b\"], \"utilities\": [\"0\", \"1\"]}}\n";

START_TEST(case_parse)
{
    em_case *c;
    em_error e;
    /* a file and a text at once: two forms, refused before either is read */
    ck_assert_int_eq(em_case_new(&(em_case_spec){.path = "/nonexistent.json", .text = minimal,
                                                 .len = strlen(minimal)}, &c, &e),
                     EM_ERR_DOMAIN);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(e.msg, "give one of def, path or text"));
    ck_assert_int_eq(em_case_new(&(em_case_spec){.text = minimal, .len = strlen(minimal), .name = "m.json"}, &c, &e), EM_OK);
    ck_assert_str_eq(c->id, "X1");
    ck_assert_int_eq(c->kind, EM_KIND_FINITE);
    ck_assert_uint_eq(c->n, 2);
    ck_assert_str_eq(c->labels[1], "b");
    ck_assert_str_eq(c->utilities[1], "1");
    em_scn *s;
    em_mech *m;
    ck_assert_int_eq(em_case_mech(c, &s, &m, &e), EM_OK);
    em_prob p;
    ck_assert_int_eq(em_probs_get(m, 1, &p, &e), EM_OK);
    /* e^(1/2) / (1 + e^(1/2)) */
    ck_assert(fabs(p.prob_d - 1 / (1 + exp(-0.5))) < 1e-15);
    em_free(m);
    em_free(s);
    em_free(c);
    struct {
        const char *text, *want;
    } bad[] = {
        {"{\"schema\": 1", "bad.json:1:"},
        {"[1]", "bad.json: expected a JSON object"},
        {"{\"schema\": \"x\"}", "bad.json: schema: expected \"expmech-conformance-1\""},
        {"{\"schema\": \"expmech-conformance-1\", \"schema\": \"expmech-conformance-1\"}",
         "duplicate"},
        {"{\"schema\": \"expmech-conformance-1\", \"id\": \"\xff\"}", "bad.json:1:"},
        /* an id is a file name of the figures (DIR/ID.svg): no path, no hidden file */
        {"{\"schema\": \"expmech-conformance-1\", \"id\": \"../x\", \"title\": \"t\", "
         "\"kind\": \"finite\"}", "bad.json: id: expected letters"},
        {"{\"schema\": \"expmech-conformance-1\", \"id\": \"a/b\", \"title\": \"t\", "
         "\"kind\": \"finite\"}", "bad.json: id: expected letters"},
        {"{\"schema\": \"expmech-conformance-1\", \"id\": \"\", \"title\": \"t\", "
         "\"kind\": \"finite\"}", "bad.json: id: expected letters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(em_case_new(&(em_case_spec){.text = bad[i].text, .len = strlen(bad[i].text), .name = "bad.json"}, &c, &e),
                         EM_ERR_PARSE);
        ck_assert_msg(strstr(e.msg, bad[i].want), "%zu: '%s'", i, e.msg);
    }
    /* half an array read is not kept (fuzz_draws found it leaking), and a case read without
       its law is written without one */
    const char *half = "{\"schema\": \"expmech-conformance-1\", \"id\": \"Q\", \"title\": \"t\", "
                       "\"kind\": \"quantile\", \"expect\": \"law\", \"epsilon\": \"1\", "
                       "\"sensitivity\": \"1\", \"variant\": \"standard\", \"scenario\": "
                       "{\"data\": [\"1\", 2], \"alpha\": \"1/2\", \"bounds\": [\"0\", \"4\"]}}";
    ck_assert_int_eq(em_case_new(&(em_case_spec){.text = half, .len = strlen(half), .name = "h.json"}, &c, &e), EM_ERR_PARSE);
    ck_assert_str_eq(e.msg, "h.json: data[1]: expected a string");
    ck_assert_int_eq(em_case_new(&(em_case_spec){.text = minimal, .len = strlen(minimal), .name = "m.json"}, &c, &e), EM_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    ck_assert_int_eq(em_case_write(c, mf, &e), EM_OK);
    fclose(mf);
    ck_assert_ptr_null(strstr(buf, "\"law\": {"));
    ck_assert_ptr_nonnull(strstr(buf, "\"catches\": []"));
    free(buf);
    em_free(c);
    /* a label that is not one line */
    char t[1024];
    const char *q = strstr(minimal, "\"b\"");
    snprintf(t, sizeof t, "%.*s\"\\n\"%s", (int)(q - minimal), minimal, q + 3);
    ck_assert_int_eq(em_case_new(&(em_case_spec){.text = t, .len = strlen(t), .name = "bad.json"}, &c, &e), EM_ERR_PARSE);
    ck_assert_str_eq(e.msg, "bad.json: labels[1]: a label must be a non-empty line");
}
END_TEST

/* the battery's files read back and written again are the same bytes */
START_TEST(case_roundtrip)
{
    const char *ids[] = {"T03", "T31", "T46", "T59", "T68", "T80"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        char path[128];
        snprintf(path, sizeof path, CASES "/%s.json", ids[i]);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        static char orig[1 << 20];
        size_t n = fread(orig, 1, sizeof orig, f);
        fclose(f);
        em_case *c;
        em_error e;
        ck_assert_int_eq(em_case_new(&(em_case_spec){.text = orig, .len = n, .name = path}, &c, &e), EM_OK);
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        ck_assert_int_eq(em_case_write(c, m, &e), EM_OK);
        fclose(m);
        ck_assert_uint_eq(len, n);
        ck_assert_int_eq(memcmp(buf, orig, n), 0);
        free(buf);
        em_free(c);
    }
}
END_TEST

/* the law written in a case is the oracle's: T07's first probability against a closed form */
START_TEST(case_law)
{
    em_case *c;
    em_error e;
    ck_assert_int_eq(em_case_new(&(em_case_spec){.path = CASES "/T07.json"}, &c, &e), EM_OK);
    long double u[5] = {0, -1, -2.5L, -4, -7}, z = 0;
    for (int i = 0; i < 5; i++)
        z += expl(u[i] / 2);
    ck_assert_int_eq(c->digits, 40);
    ck_assert(fabsl(strtold(c->probability[0], NULL) - 1 / z) < 1e-18L);
    ck_assert_uint_ge(c->ncatches, 4);
    ck_assert_int_eq(c->catches[0], EM_MISTAKE_EPS_NOT_HALVED);
    em_free(c);
    /* an expect-error case carries the library's refusal */
    ck_assert_int_eq(em_case_new(&(em_case_spec){.path = CASES "/T76.json"}, &c, &e), EM_OK);
    ck_assert_int_eq(c->expect_error, 1);
    ck_assert_ptr_nonnull(strstr(c->error, "NaN"));
    em_free(c);
}
END_TEST

/* ------------------------------------------------------------ power */

START_TEST(power_matches_the_notes)
{
    double p[7], q[7], sp = 0, sq = 0;
    for (int i = 0; i < 7; i++) {
        p[i] = exp(i / 2.0), q[i] = exp(i);
        sp += p[i], sq += q[i];
    }
    for (int i = 0; i < 7; i++)
        p[i] /= sp, q[i] /= sq;
    /* 247 draws: power 0.99 (no pooling) */
    double pw = em_gof_alt_power(7, p, q, 247, 1e-6, 1e-9);
    ck_assert_msg(pw > 0.985 && pw < 0.995, "power %g", pw);
    ck_assert(em_gof_alt_power(7, p, q, 150, 1e-6, 1e-9) < 0.9);
    for (int i = 0; i < 7; i++) {
        p[i] = exp(i * 0.05), q[i] = exp(i * 0.1);
    }
    sp = sq = 0;
    for (int i = 0; i < 7; i++)
        sp += p[i], sq += q[i];
    for (int i = 0; i < 7; i++)
        p[i] /= sp, q[i] /= sq;
    pw = em_gof_alt_power(7, p, q, 6800, 1e-6, 20);
    ck_assert_msg(pw > 0.98 && pw < 0.995, "power %g", pw);
    /* a law putting mass where p is 0 is caught by an impossible draw */
    double p2[3] = {0.5, 0.5, 0}, q2[3] = {0.45, 0.45, 0.1};
    ck_assert(em_gof_alt_power(3, p2, q2, 100, 1e-6, 20) > 0.9999);
}
END_TEST

/* ------------------------------------------------------------ diagnosis */

static em_mech *mech(const char *const *u, size_t n, const char *eps, const char *delta,
                     int variant)
{
    em_scn *s;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = n, .utilities = u}, &s, NULL), EM_OK);
    if (variant == EM_MONOTONE)
        ck_assert_int_eq(em_scn_declare(s, NULL, 1, NULL), EM_OK);
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    o.sensitivity = delta;
    o.variant = variant;
    em_mech *m;
    ck_assert_int_eq(em_mech_new(s, &o, &m, NULL), EM_OK);
    return m;
}

static void free_mech(em_mech *m)
{
    em_scn *s = em_mech_get(m).scn;
    em_free(m);
    em_free(s);
}

/* em_draws_check of counts per candidate, and of values of a continuous m */
static int check_counts(em_mech *m, const uint64_t *c, size_t n, em_check_result **r,
                        em_error *e)
{
    em_draws d = EM_DRAWS_INIT;
    d.counts = c;
    d.n = n;
    return em_draws_check(m, &d, NULL, r, e);
}

static int check_values(em_mech *m, const double *x, size_t n, em_check_result **r,
                        em_error *e)
{
    em_draw *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (em_draw){0, x[i]};
    em_draws d = EM_DRAWS_INIT;
    d.draw = v;
    d.n = n;
    int st = em_draws_check(m, &d, NULL, r, e);
    free(v);
    return st;
}

/* counts of N draws of weights w (their expectations, rounded: a sample that fits) */
static void expected_counts(const long double *w, int n, uint64_t N, uint64_t *c)
{
    long double z = 0;
    for (int i = 0; i < n; i++)
        z += w[i];
    for (int i = 0; i < n; i++)
        c[i] = (uint64_t)llroundl(N * w[i] / z);
}

START_TEST(diagnose_finite)
{
    const char *u[] = {"0", "1", "2", "3", "4", "5", "6"};
    em_mech *m = mech(u, 7, "1", "1", EM_STANDARD);
    long double w[7];
    uint64_t c[7];
    /* exp(u): the factor 1/2 missing (and, the same law, eps doubled) */
    for (int i = 0; i < 7; i++)
        w[i] = expl(i);
    expected_counts(w, 7, 20000, c);
    em_check_result *r;
    em_error e;
    ck_assert_int_eq(check_counts(m, c, 7, &r, &e), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    const em_diagnosis *d = r->diagnosis;
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->best, EM_MISTAKE_EPS_NOT_HALVED);
    ck_assert(d->same == (1ul << EM_MISTAKE_EPS_NOT_HALVED | 1ul << EM_MISTAKE_EPS_DOUBLED));
    ck_assert(d->best_p > 0.5);
    ck_assert_msg(!strncmp(d->sentence, "the draws fit exp(ε·u/Δ): the factor 1/2 is missing (p = ",
                           strlen("the draws fit exp(ε·u/Δ): the factor 1/2 is missing (p = ")),
                  "%s", d->sentence);
    em_free(r);
    /* exp(-u/2): negated */
    for (int i = 0; i < 7; i++)
        w[i] = expl(-i / 2.0L);
    expected_counts(w, 7, 20000, c);
    ck_assert_int_eq(check_counts(m, c, 7, &r, &e), EM_OK);
    ck_assert_int_eq(r->diagnosis->best, EM_MISTAKE_NEGATED);
    em_free(r);
    /* uniform */
    for (int i = 0; i < 7; i++)
        c[i] = 3000;
    ck_assert_int_eq(check_counts(m, c, 7, &r, &e), EM_OK);
    ck_assert_int_eq(r->diagnosis->best, EM_MISTAKE_UNIFORM);
    em_free(r);
    /* none: u^2 weights fit no known mistake */
    for (int i = 0; i < 7; i++)
        w[i] = 1 + (long double)i * i;
    expected_counts(w, 7, 20000, c);
    ck_assert_int_eq(check_counts(m, c, 7, &r, &e), EM_OK);
    ck_assert_int_eq(r->diagnosis->best, -1);
    ck_assert_ptr_nonnull(strstr(r->diagnosis->sentence, "fit none of the known mistakes"));
    em_free(r);
    /* a pass carries no diagnosis */
    for (int i = 0; i < 7; i++)
        w[i] = expl(i / 2.0L);
    expected_counts(w, 7, 20000, c);
    ck_assert_int_eq(check_counts(m, c, 7, &r, &e), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_PASS);
    ck_assert_ptr_null(r->diagnosis);
    em_free(r);
    free_mech(m);
    /* the monotone variant: exp(2u) is eps doubled, and "not halved" does not apply */
    const char *u4[] = {"0", "1", "2", "3"};
    m = mech(u4, 4, "0.5", "1", EM_MONOTONE);
    for (int i = 0; i < 4; i++)
        w[i] = expl(i);
    expected_counts(w, 4, 20000, c);
    ck_assert_int_eq(check_counts(m, c, 4, &r, &e), EM_OK);
    ck_assert_int_eq(r->diagnosis->best, EM_MISTAKE_EPS_DOUBLED);
    for (size_t i = 0; i < r->diagnosis->nrows; i++)
        ck_assert_int_ne(r->diagnosis->rows[i].mistake, EM_MISTAKE_EPS_NOT_HALVED);
    em_free(r);
    free_mech(m);
}
END_TEST

/* A mistake's law (em_mistake_alt) against the exact law of the mistaken mechanism, built
 * as its own scenario and read from the oracle (correctly rounded doubles): the doubles
 * path (ordinary numbers, |c u| <= 2^20) within 1e-8 relatively, the exact fallback (a
 * utility of 1e300, a measure below the normal doubles) and permute-and-flip's midpoints
 * of a 48-bit enclosure within 2^-40. */
static em_mech *wmech(const char *const *u, const char *const *w, size_t n, const char *eps,
                      const char *delta, int variant)
{
    em_scn *s;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = n, .utilities = u, .measure = w}, &s, NULL), EM_OK);
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    o.sensitivity = delta;
    o.variant = variant;
    o.force = 1;
    em_mech *m;
    ck_assert_int_eq(em_mech_new(s, &o, &m, NULL), EM_OK);
    return m;
}

static void law_of(em_mech *m, size_t n, double *p)
{
    for (size_t i = 0; i < n; i++) {
        em_prob pr;
        ck_assert_int_eq(em_probs_get(m, i, &pr, NULL), EM_OK);
        p[i] = pr.prob_d;
    }
}

static void alt_matches(const char *const *u, const char *const *neg, const char *const *w,
                        size_t n, const char *eps, const char *eps2, int variant, double tol)
{
    em_mech *m = wmech(u, w, n, eps, "2", variant);
    em_mech *m2 = wmech(u, w, n, eps2, "2", variant);  /* eps doubled */
    em_mech *mn = wmech(neg, w, n, eps, "2", variant); /* negated */
    double p[16], q[16], x[16];
    law_of(m, n, p);
    em_mistake_laws *L;
    ck_assert_int_eq(em_mistake_laws_new(m, -1, &L, NULL), EM_OK);
    const int mk[] = {EM_MISTAKE_EPS_DOUBLED, EM_MISTAKE_NEGATED};
    em_mech *ex[] = {m2, mn};
    for (int k = 0; k < 2; k++) {
        int applies;
        ck_assert_int_eq(em_mistake_alt(L, mk[k], NULL, n, p, q, &applies, NULL), EM_OK);
        law_of(ex[k], n, x);
        if (!applies) { /* only when the mistake's law is the exact one in doubles */
            for (size_t i = 0; i < n; i++)
                ck_assert_msg(x[i] == p[i], "%s, mistake %d: said not to apply", u[0], mk[k]);
            continue;
        }
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(fabs(q[i] - x[i]) <= tol * x[i] + 1e-300,
                          "%s, mistake %d, candidate %zu: %.17g, exact %.17g", u[0], mk[k], i,
                          q[i], x[i]);
    }
    em_mistake_laws_free(L);
    free_mech(m), free_mech(m2), free_mech(mn);
}

START_TEST(mistake_laws_match_exact)
{
    /* ties, an excluded candidate, fractions: the doubles path */
    const char *u[] = {"3", "-inf", "1.5", "3", "0.25", "-7", "1/3", "0x1p-3"};
    const char *nu[] = {"-3", "-inf", "-1.5", "-3", "-0.25", "7", "-1/3", "-0x1p-3"};
    alt_matches(u, nu, NULL, 8, "1/3", "2/3", EM_STANDARD, 1e-8);
    alt_matches(u, nu, NULL, 8, "0.7", "1.4", EM_STANDARD, 1e-8);
    /* a base measure (0 excludes): the doubles path; one below the normal doubles: exact */
    const char *w[] = {"1", "0", "2.5", "1e-300", "7", "1", "0.5", "3"};
    alt_matches(u, nu, w, 8, "1", "2", EM_STANDARD, 1e-8);
    const char *wt[] = {"1", "0", "2.5", "1e-310", "7", "1", "0.5", "3"};
    alt_matches(u, nu, wt, 8, "1", "2", EM_STANDARD, 0);
    /* a measure below every double is not a measure 0: with c = 1 its candidate outweighs
     * the other by 1e-400 e^2000 = e^1079 */
    const char *du[] = {"2000", "0"}, *dn[] = {"-2000", "0"}, *dw[] = {"1e-400", "1"};
    alt_matches(du, dn, dw, 2, "4", "8", EM_STANDARD, 0);
    /* |c u| beyond 2^20: the exact oracle answers, the same doubles */
    const char *h[] = {"1e300", "0", "-1e300", "1e300"};
    const char *nh[] = {"-1e300", "0", "1e300", "-1e300"};
    alt_matches(h, nh, NULL, 4, "1", "2", EM_STANDARD, 0);
    /* permute-and-flip: midpoints of an enclosure */
    const char *pu[] = {"0", "1", "2", "3", "4", "5", "6", "6", "2.5", "-1"};
    const char *pn[] = {"0", "-1", "-2", "-3", "-4", "-5", "-6", "-6", "-2.5", "1"};
    alt_matches(pu, pn, NULL, 10, "1", "2", EM_PF, 0x1p-40);
}
END_TEST

/* Laplace(f = 0, scale 1) drawn where the EM at eps = 1, Delta_f = 1 (scale 2) was asked */
START_TEST(diagnose_laplace)
{
    const char *lo[] = {"-inf", "0"}, *hi[] = {"0", "inf"}, *a[] = {"0", "0"}, *b[] = {"1", "-1"};
    em_scn *s;
    ck_assert_int_eq(em_scn_new(&(em_scn_spec){.n = 2, .lo = lo, .hi = hi, .a = a, .b = b}, &s, NULL), EM_OK);
    em_opts o = EM_OPTS_INIT;
    o.epsilon = "1";
    em_mech *m;
    ck_assert_int_eq(em_mech_new(s, &o, &m, NULL), EM_OK);
    size_t n = 20000;
    double *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) { /* inverse CDF on a midpoint grid: a fitting sample */
        double v = ((double)i + 0.5) / (double)n;
        x[i] = v < 0.5 ? log(2 * v) : -log(2 * (1 - v));
    }
    em_check_result *r;
    em_error e;
    ck_assert_int_eq(check_values(m, x, n, &r, &e), EM_OK);
    ck_assert_int_eq(r->verdict, EM_VERDICT_REJECT);
    ck_assert_ptr_nonnull(r->diagnosis);
    ck_assert_int_eq(r->diagnosis->best, EM_MISTAKE_EPS_NOT_HALVED);
    ck_assert(r->diagnosis->same >> EM_MISTAKE_LAPLACE_SCALE & 1);
    em_free(r);
    free(x);
    em_free(m);
    em_free(s);
}
END_TEST

/* ------------------------------------------------------------ the runner in process */

typedef struct plan {
    int mode; /* 0 exact, 1 not halved (monotone forced), 2 garbage, 3 skip */
} plan;

static int sampler(void *ctx, const em_case *c, uint64_t n, uint64_t seed, uint64_t maxb,
                   em_run_output *o)
{
    (void)maxb;
    const plan *p = ctx;
    o->how = EM_RUN_EXITED;
    if (p->mode == 3) {
        o->code = EM_EXIT_SKIP;
        return EM_OK;
    }
    em_scn *s;
    em_mech *m;
    em_error e;
    if (em_case_mech(c, &s, &m, &e) != EM_OK) {
        o->code = p->mode == 2 ? 0 : 1; /* the garbage sampler accepts anything */
        if (p->mode == 2) {
            ck_assert_ptr_nonnull(o->out = strdup("x\n"));
            o->out_len = 2;
        }
        ck_assert_ptr_nonnull(o->err = strdup(e.msg));
        o->err_len = strlen(e.msg);
        return EM_OK;
    }
    if (p->mode == 1) {
        em_free(m);
        em_opts op = EM_OPTS_INIT;
        op.epsilon = c->epsilon;
        op.sensitivity = c->sensitivity;
        op.variant = EM_MONOTONE;
        op.force = 1;
        ck_assert_int_eq(em_mech_new(s, &op, &m, NULL), EM_OK);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    em_sample_opts so = EM_SAMPLE_OPTS_INIT;
    so.seed = seed;
    so.seeded = 1;
    if (p->mode == 2) {
        fputs("garbage\n", f);
    } else {
        const int cont = em_scn_get(s).continuous;
        em_draw *d = malloc(n * sizeof *d);
        em_sampler *sp = NULL;
        ck_assert_int_eq(em_sampler_new(m, &so, &sp, NULL), EM_OK);
        ck_assert_int_eq(em_sampler_draw(sp, n, d, NULL), EM_OK);
        em_free(sp);
        for (uint64_t i = 0; i < n; i++) {
            if (cont)
                fprintf(f, "%.17g\n", d[i].value);
            else
                fprintf(f, "%s\n", em_scn_label(s, d[i].index));
        }
        free(d);
    }
    fclose(f);
    o->out = buf; /* the library frees it */
    o->out_len = len;
    em_free(m);
    em_free(s);
    return EM_OK;
}

static em_conform_result *run_plan(const char *dir, int mode, int quick)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, dir);
    em_conform_opts o = EM_CONFORM_OPTS_INIT;
    o.cases = path;
    o.quick = quick;
    plan p = {mode};
    em_conform_result *r;
    em_error e;
    ck_assert_msg(em_conform_run(&o, sampler, &p, &r, &e) == EM_OK, "%s", e.msg);
    return r;
}

START_TEST(runner_verdicts)
{
    const char *ids[] = {"T01", "T19", "T46", "T76", NULL};
    copy_cases("b", ids);
    em_conform_result *r = run_plan("b", 0, 0);
    ck_assert_uint_eq(r->ncases, 4);
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(r->cases[i].verdict == EM_CONFORM_PASS, "%s %d %s", r->cases[i].id,
                      r->cases[i].verdict, r->cases[i].message);
    ck_assert_int_eq(r->exit_status, 0);
    ck_assert(r->cases[0].power >= 0.99);
    /* alpha: 1e-6 over 4 cases, 3 runs of 4 tests */
    ck_assert(fabs(r->alpha_case - 2.5e-7) < 1e-20);
    ck_assert(fabs(r->cases[0].alpha - 2.5e-7 / 12) < 1e-20);
    /* em_write: the table as text, the report as JSON, no CSV */
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    ck_assert_int_eq(em_write(r, mf, NULL, NULL), EM_OK);
    fflush(mf);
    ck_assert_ptr_nonnull(strstr(buf, "T76   finite      pass"));
    ck_assert_ptr_nonnull(strstr(buf, "4 cases: 4 pass;"));
    rewind(mf);
    em_write_opts wo = {.format = EM_WRITE_JSON};
    ck_assert_int_eq(em_write(r, mf, &wo, NULL), EM_OK);
    fflush(mf);
    ck_assert_ptr_nonnull(strstr(buf, "\"schema\": \"expmech-conformance-report-1\""));
    wo.format = EM_WRITE_CSV;
    em_error we;
    ck_assert_int_eq(em_write(r, mf, &wo, &we), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(we.msg, "text or JSON only"));
    fclose(mf);
    free(buf);
    em_free(r);
    /* the factor 1/2 missing: T01 and T46 rejected and named; T19 (monotone) passes and
       rules out "eps doubled" */
    r = run_plan("b", 1, 0);
    ck_assert_int_eq(r->cases[0].verdict, EM_CONFORM_REJECT);
    ck_assert_int_eq(r->cases[1].verdict, EM_CONFORM_PASS);
    ck_assert_int_eq(r->cases[2].verdict, EM_CONFORM_REJECT);
    ck_assert_int_eq(r->cases[0].diagnosis->best, EM_MISTAKE_EPS_NOT_HALVED);
    ck_assert(r->cases[1].ruled_out >> EM_MISTAKE_EPS_DOUBLED & 1);
    ck_assert(r->suspects == 1ul << EM_MISTAKE_EPS_NOT_HALVED);
    ck_assert_int_eq(r->exit_status, 1);
    em_free(r);
    /* garbage: malformed; refusing everything: crash on law cases, a pass on T76 */
    r = run_plan("b", 2, 0);
    ck_assert_int_eq(r->cases[0].verdict, EM_CONFORM_MALFORMED);
    ck_assert_str_eq(r->cases[0].message, "line 1: 'garbage' is not a label of this case");
    ck_assert_int_eq(r->cases[2].verdict, EM_CONFORM_MALFORMED);
    ck_assert_int_eq(r->cases[3].verdict, EM_CONFORM_ACCEPTED_INVALID);
    em_free(r);
    r = run_plan("b", 3, 0);
    ck_assert_uint_eq(r->count[EM_CONFORM_SKIPPED], 4);
    ck_assert_int_eq(r->exit_status, 0);
    em_free(r);
}
END_TEST

START_TEST(runner_bad_case_file)
{
    const char *ids[] = {"T01", NULL};
    copy_cases("c", ids);
    write_file("c/T00.json", "{\"schema\": \"expmech-conformance-1\", \"id\": 3}");
    em_conform_result *r = run_plan("c", 0, 1);
    ck_assert_uint_eq(r->ncases, 2);
    ck_assert_int_eq(r->cases[0].verdict, EM_CONFORM_BAD_CASE);
    ck_assert_ptr_nonnull(strstr(r->cases[0].message, "T00.json: id: expected a string"));
    ck_assert_int_eq(r->cases[1].verdict, EM_CONFORM_PASS);
    ck_assert_int_eq(r->exit_status, 2);
    em_free(r);
    em_conform_opts o = EM_CONFORM_OPTS_INIT;
    em_error e;
    o.cases = "/nonexistent/cases";
    plan p = {0};
    ck_assert_int_eq(em_conform_run(&o, sampler, &p, &r, &e), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(e.msg, "cases '/nonexistent/cases'"));
}
END_TEST

/* ------------------------------------------------------------ programs that misbehave */

static em_conform_result *run_program(const char *script, double timeout)
{
    char path[256], cases[256];
    snprintf(path, sizeof path, "%s/%s", tmp, script);
    snprintf(cases, sizeof cases, CASES "/T01.json");
    em_conform_opts o = EM_CONFORM_OPTS_INIT;
    o.cases = cases;
    o.timeout = timeout;
    o.quick = 1;
    const char *argv[] = {path, NULL};
    em_conform_result *r;
    em_error e;
    ck_assert_msg(em_conform_command(&o, argv, &r, &e) == EM_OK, "%s", e.msg);
    ck_assert_uint_eq(r->ncases, 1);
    return r;
}

START_TEST(programs_misbehave)
{
    struct {
        const char *name, *body;
        int verdict;
        const char *msg, *err;
    } t[] = {
        {"crash.sh", "echo 'Traceback: boom' >&2; exit 3\n", EM_CONFORM_CRASH,
         "exited with status 3", "Traceback: boom"},
        {"signal.sh", "kill -SEGV $$\n", EM_CONFORM_CRASH, "killed by signal 11", ""},
        {"early.sh", "printf '6\\n6\\n'\n", EM_CONFORM_MALFORMED,
         "2 lines where 10000 draws were asked for", ""},
        {"flood.sh", "yes 6\n", EM_CONFORM_MALFORMED, "more output than 10000 draws", ""},
        {"binary.sh", "head -c 3000 /dev/urandom\n", EM_CONFORM_MALFORMED, "line ", ""},
        {"hang.sh", "sleep 30\n", EM_CONFORM_TIMEOUT, "no answer within 0.5 s", ""},
        {"skip.sh", "exit 77\n", EM_CONFORM_SKIPPED, "exit 77", ""},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        char body[512];
        snprintf(body, sizeof body, "#!/bin/sh\n%s", t[i].body);
        write_file(t[i].name, body);
        em_conform_result *r = run_program(t[i].name, 0.5);
        const em_conform_case *c = &r->cases[0];
        ck_assert_msg(c->verdict == t[i].verdict, "%s: verdict %d (%s)", t[i].name, c->verdict,
                      c->message);
        ck_assert_msg(strstr(c->message, t[i].msg), "%s: '%s'", t[i].name, c->message);
        ck_assert_msg(strstr(c->stderr_tail, t[i].err), "%s: stderr '%s'", t[i].name,
                      c->stderr_tail);
        em_free(r);
    }
    /* a program that does not exist */
    em_conform_result *r = run_program("missing", 5);
    ck_assert_int_eq(r->cases[0].verdict, EM_CONFORM_CRASH);
    ck_assert_str_eq(r->cases[0].message, "cannot start the sampler: No such file or directory");
    em_free(r);
}
END_TEST

/* ------------------------------------------------------------ planted bugs */

/* each planted sampler, on a few battery cases, is rejected and named (the cases chosen so
 * that the mistakes sharing its law on a rejected case are ruled out by a passing one) */
START_TEST(planted_samplers_are_named)
{
    struct {
        const char *sampler;
        const char *ids[4];
        int mistake; /* -1: crash / malformed */
        int verdict;
    } t[] = {
        {"eps_not_halved", {"T01", "T19", NULL}, EM_MISTAKE_EPS_NOT_HALVED, EM_CONFORM_REJECT},
        {"eps_doubled", {"T19", NULL}, EM_MISTAKE_EPS_DOUBLED, EM_CONFORM_REJECT},
        {"delta_ignored", {"T16", "T01", NULL}, EM_MISTAKE_DELTA_IGNORED, EM_CONFORM_REJECT},
        {"measure_ignored", {"T29", NULL}, EM_MISTAKE_MEASURE_IGNORED, EM_CONFORM_REJECT},
        {"pf_for_em", {"T01", NULL}, EM_MISTAKE_PF_FOR_EM, EM_CONFORM_REJECT},
        {"em_for_pf", {"T36", NULL}, EM_MISTAKE_EM_FOR_PF, EM_CONFORM_REJECT},
        {"negated", {"T01", NULL}, EM_MISTAKE_NEGATED, EM_CONFORM_REJECT},
        {"uniform", {"T01", NULL}, EM_MISTAKE_UNIFORM, EM_CONFORM_REJECT},
        {"argmax", {"T01", NULL}, EM_MISTAKE_ARGMAX, EM_CONFORM_REJECT},
        {"laplace_scale", {"T68", "T01", NULL}, EM_MISTAKE_LAPLACE_SCALE, EM_CONFORM_REJECT},
        {"uniform_in_pieces", {"T47", NULL}, EM_MISTAKE_UNIFORM_IN_PIECES, EM_CONFORM_REJECT},
        {"crash_on_underflow", {"T09", NULL}, -1, EM_CONFORM_CRASH},
        {"value_not_index", {"T07", NULL}, -1, EM_CONFORM_MALFORMED},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        copy_cases(t[i].sampler, t[i].ids);
        char dir[256], prog[256];
        snprintf(dir, sizeof dir, "%s/%s", tmp, t[i].sampler);
        snprintf(prog, sizeof prog, "conformance/samplers/planted/%s.py", t[i].sampler);
        em_conform_opts o = EM_CONFORM_OPTS_INIT;
        o.cases = dir;
        o.max_draws = 10000;
        const char *argv[] = {"/usr/bin/python3", prog, NULL};
        em_conform_result *r;
        em_error e;
        ck_assert_msg(em_conform_command(&o, argv, &r, &e) == EM_OK, "%s", e.msg);
        const em_conform_case *c = &r->cases[0];
        for (size_t k = 0; k < r->ncases; k++)
            if (!strcmp(r->cases[k].id, t[i].ids[0]))
                c = &r->cases[k];
        ck_assert_msg(c->verdict == t[i].verdict, "%s on %s: %s (%s; %s)", t[i].sampler, c->id,
                      em_conform_verdict_name(c->verdict), c->message, c->stderr_tail);
        if (t[i].mistake >= 0) {
            ck_assert_msg(r->suspects == 1ul << t[i].mistake, "%s: suspects %lx: %s",
                          t[i].sampler, r->suspects, r->diagnosis);
            ck_assert_ptr_nonnull(strstr(r->diagnosis, em_mistake_words(t[i].mistake)));
        } else if (t[i].verdict == EM_CONFORM_CRASH) {
            ck_assert_ptr_nonnull(strstr(c->stderr_tail, "ZeroDivisionError"));
        } else {
            ck_assert_ptr_nonnull(strstr(c->message, "a value written where a label was due"));
        }
        em_free(r);
    }
}
END_TEST

/* ------------------------------------------------------------ the command line */

static int sh(const char *fmt, const char *arg, char *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, fmt, arg);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(cli_conform)
{
    static char out[1 << 16];
    const char *e = getenv("EM_EXPMECH") ? getenv("EM_EXPMECH") : "build/expmech";
    ck_assert_int_eq(sh("%s conform --help", e, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "CMD ARGS... CASE.json N SEED"));
    ck_assert_int_eq(sh("%s conform 2>&1", e, out, sizeof out), 2);
    ck_assert_ptr_nonnull(strstr(out, "--sampler 'CMD ARGS' is required"));
    ck_assert_int_eq(sh("%s conform --sampler x --kinds nope 2>&1", e, out, sizeof out), 2);
    ck_assert_ptr_nonnull(strstr(out, "unknown kind 'nope'"));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s conform --sampler build/conformance/c_sampler --cases "
             CASES "/T03.json --report %s/r.json", e, tmp);
    ck_assert_int_eq(sh("%s", cmd, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "T03   finite      pass"));
    ck_assert_ptr_nonnull(strstr(out, "1 case: 1 pass;"));
    snprintf(cmd, sizeof cmd, "%s/r.json", tmp);
    em_case *c;
    em_error er;
    ck_assert_int_eq(em_case_new(&(em_case_spec){.path = cmd}, &c, &er), EM_ERR_PARSE); /* a report, not a case */
    ck_assert_ptr_nonnull(strstr(er.msg, "schema"));
    /* --report-svg: a figure for each rejected case (gnuplot, when installed) */
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "%s conform --sampler '/usr/bin/python3 "
                 "conformance/samplers/planted/eps_not_halved.py' --cases " CASES "/T07.json "
                 "--report-svg %s/svg", e, tmp);
        ck_assert_int_eq(sh("%s", cmd, out, sizeof out), 1);
        snprintf(cmd, sizeof cmd, "%s/svg/T07.svg", tmp);
        FILE *f = fopen(cmd, "r");
        ck_assert_ptr_nonnull(f);
        char head[256] = "";
        ck_assert_uint_gt(fread(head, 1, sizeof head - 1, f), 0);
        fclose(f);
        ck_assert_ptr_nonnull(strstr(head, "<svg"));
    }
    /* expmech check names the mistake of draws with the factor 1/2 missing */
    write_file("s.csv", "a,0\nb,-1\nc,-2.5\nd,-4\ne,-7\n");
    snprintf(cmd, sizeof cmd, "%s sample --variant monotone --force --epsilon 1 -n 20000 --seed 5 "
             "%s/s.csv 2>/dev/null > %s/d.txt; %s check --epsilon 1 --samples %s/d.txt %s/s.csv "
             "2>&1", e, tmp, tmp, e, tmp, tmp);
    ck_assert_int_eq(sh("%s", cmd, out, sizeof out), 1);
    ck_assert_ptr_nonnull(strstr(out, "diagnosis: the draws fit exp(ε·u/Δ): the factor 1/2 is "
                                 "missing (p = "));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conform");
    TCase *t = tcase_create("conform");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 300);
    tcase_add_test(t, code_names);
    tcase_add_test(t, draws_labels);
    tcase_add_test(t, draws_numbers);
    tcase_add_test(t, command_split);
    tcase_add_test(t, case_parse);
    tcase_add_test(t, case_roundtrip);
    tcase_add_test(t, case_law);
    tcase_add_test(t, power_matches_the_notes);
    tcase_add_test(t, diagnose_finite);
    tcase_add_test(t, mistake_laws_match_exact);
    tcase_add_test(t, diagnose_laplace);
    tcase_add_test(t, runner_verdicts);
    tcase_add_test(t, runner_bad_case_file);
    tcase_add_test(t, programs_misbehave);
    tcase_add_test(t, planted_samplers_are_named);
    tcase_add_test(t, cli_conform);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int f = srunner_ntests_failed(r);
    srunner_free(r);
    return f ? 1 : 0;
}
