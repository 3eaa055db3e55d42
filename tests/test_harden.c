/* test_harden.c: the hardening of the command line, run as a program (build/expmech,
 * or $EM_EXPMECH): write errors, too little data in check, one samples reader, labels with
 * control characters, strict integer options, defaults that must not weaken privacy,
 * interfaces that read their own outputs, --version and the terminal hint.
 *
 * Expected values are independent of the code under test: closed forms (two-candidate
 * probabilities 1/(1 + e^x), binomial tails p^N), the proofs' sensitivities, or bytes
 * written here. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"
#include "expmech.h"
#include "api/em_params_src.h"
#include "judge/em_gof.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_harden_XXXXXX");
}

/* the number printed after key in out (NaN when absent) */
static double after(const char *key)
{
    const char *p = strstr(out, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

static void scenarios(void)
{
    put("s.csv", "# sensitivity: 2\na,1\nb,0\nc,-1\n");
    put("d.txt", "a\nb\na\nc\n");
    put("p.txt", "0.4\n0.35\n0.25\n");
    put("u.csv", "# output: continuous\n# sensitivity: 2\n0,1,0\n");
}

/* ------------------------------------------------------------ 1. write errors */

START_TEST(write_errors_every_command)
{
    scenarios();
    static const char *const cmds[] = {
        "demo",
        "example marital",
        "probs --epsilon 1 s.csv",
        "probs --epsilon 1 --format json s.csv",
        "sample --epsilon 1 -n 3 --seed 1 s.csv",
        "sample --epsilon 1 -n 3 --seed 1 --sampler float s.csv",
        "check --epsilon 1 --samples d.txt s.csv",
        "compare --epsilon 1 --probs p.txt s.csv",
        "audit --epsilon 1 s.csv s.csv",
        "cdf --epsilon 1 --at 0.5 u.csv",
        "density --epsilon 1 --at 0.5 u.csv",
        "quantile --epsilon 1 --at 0.5 u.csv",
        "utility --epsilon 1 s.csv",
        "probs --help",
        "--help",
        "--version",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int st = run("($E %s > /dev/full)", cmds[i]);
        ck_assert_msg(st == 3, "'%s' > /dev/full: exit %d, stderr %s", cmds[i], st, errtxt);
        ck_assert_msg(strstr(errtxt, "write error on standard output") != NULL,
                      "'%s' > /dev/full: stderr '%s'", cmds[i], errtxt);
    }
    /* a verdict that could not be written is no verdict: check's reject (1) becomes 3 too */
    put("bad.txt", "c\nc\nc\nc\nc\nc\nc\nc\nc\nc\nc\nc\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples bad.txt s.csv"), 1);
    ck_assert_int_eq(run("($E check --epsilon 1 --samples bad.txt s.csv > /dev/full)"), 3);
}
END_TEST

START_TEST(write_error_stops_sampling)
{
    scenarios();
    /* 10^9 draws would take minutes; the first failed write (one stdio buffer, a few
     * thousand draws) must stop the loop */
    ck_assert_int_eq(run("(timeout 60 $E sample --epsilon 1 -n 1000000000 --seed 1 s.csv > /dev/full)"), 3);
    const char *p = strstr(errtxt, "write error on standard output after ");
    ck_assert_msg(p != NULL, "%s", errtxt);
    unsigned long long k = strtoull(p + strlen("write error on standard output after "), NULL, 10);
    ck_assert_msg(k > 0 && k <= 100000, "stopped after %llu draws", k);
    ck_assert_ptr_nonnull(strstr(errtxt, "stopped"));
    ck_assert_int_eq(run("(timeout 60 $E sample --epsilon 1 -n 1000000000 --seed 1 --sampler float s.csv > /dev/full)"), 3);
    ck_assert_ptr_nonnull(strstr(errtxt, "stopped"));
}
END_TEST

/* ------------------------------------------------------- 2. too little data */

START_TEST(check_too_little_data)
{
    /* P(b) = 1/(1 + e^3.8) (c = 1/2); ten draws of b: P(all ten) = P(b)^10 = 2.5e-17,
     * far below alpha / 2 = 5e-7: reject on the exact binomial tail */
    put("t.txt", "a,0\nb,-7.6\n");
    put("s.txt", "b\nb\nb\nb\nb\nb\nb\nb\nb\nb\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples s.txt t.txt"), 1);
    const double pb = 1 / (1 + exp(3.8));
    double got = after("exact binomial tail of each candidate: smallest p = ");
    ck_assert_msg(fabs(got / pow(pb, 10) - 1) < 1e-5, "tail p %.6g, expected %.6g", got, pow(pb, 10));
    ck_assert_ptr_nonnull(strstr(out, "verdict: REJECT"));
    ck_assert_ptr_nonnull(strstr(out, "b over-represented"));
    /* ten draws of a: likely, and nothing to test: not a pass, exit 4 */
    put("a.txt", "a\na\na\na\na\na\na\na\na\na\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples a.txt t.txt"), 4);
    ck_assert_ptr_nonnull(strstr(out, "verdict: INSUFFICIENT DATA"));
    ck_assert_ptr_null(strstr(out, "PASS"));
    ck_assert_ptr_nonnull(strstr(errtxt, "insufficient data: not a pass"));
    /* a single candidate of positive probability: the support check is the whole test */
    put("one.csv", "a,0\nb,-inf\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples a.txt one.csv"), 0);
    /* continuous: three draws of the uniform law on [0, 1] */
    put("u.csv", "# output: continuous\n0,1,0\n");
    put("x.txt", "0.1\n0.5\n0.9\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples x.txt u.csv"), 4);
    ck_assert_ptr_nonnull(strstr(out, "verdict: INSUFFICIENT DATA"));
    /* and a count impossible at alpha there: 30 draws in the first of 20 equal bins,
     * P = (1/20)^30 */
    char buf[512] = "";
    for (int i = 0; i < 30; i++)
        strcat(buf, "0.01\n");
    put("y.txt", buf);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples y.txt u.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "over-represented (exact binomial tail"));
}
END_TEST

START_TEST(gof_verdict_library)
{
    em_gof_result r;
    const double p[2] = {0.9995, 0.0005};
    uint64_t c1[2] = {0, 10}, c2[2] = {10, 0};
    ck_assert_int_eq(em_gof_test(2, p, c1, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_int_eq(r.verdict, EM_GOF_REJECT);
    ck_assert(fabs(r.cand_p / 9.765625e-34 - 1) < 1e-6); /* 0.0005^10 */
    ck_assert_uint_eq(r.cand_index, 1);
    ck_assert_int_eq(em_gof_test(2, p, c2, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_int_eq(r.verdict, EM_GOF_INSUFFICIENT);
    ck_assert_int_eq(r.reject, 0);
    ck_assert(fabs(r.cand_p - pow(0.9995, 10)) < 1e-12); /* P(Bin(10, .9995) >= 10) */
    /* enough data, as expected: pass */
    const double q[2] = {0.5, 0.5};
    uint64_t c3[2] = {500, 500};
    ck_assert_int_eq(em_gof_test(2, q, c3, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_int_eq(r.verdict, EM_GOF_PASS);
    /* one candidate: the support is the whole law */
    const double one[1] = {1};
    uint64_t c4[1] = {3};
    ck_assert_int_eq(em_gof_test(1, one, c4, 1e-6, 20, &r, NULL), EM_OK);
    ck_assert_int_eq(r.verdict, EM_GOF_PASS);
}
END_TEST

/* ----------------------------------------------------- 3. one samples reader */

START_TEST(samples_reader_shared)
{
    put("x.csv", "a,0\nb,0\n");
    /* what audit's own reader took and must not: a NUL byte, an over-long line */
    put("nul.txt", "a\nb\0junk\n");
    ck_assert_int_eq(run("printf 'a\\nb\\000junk\\n' > nul.txt; $E audit --epsilon 1 --samples-x nul.txt --samples-y nul.txt x.csv x.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "nul.txt:2: NUL byte"));
    ck_assert_int_eq(run("$E check --epsilon 1 --samples nul.txt x.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "nul.txt:2: NUL byte"));
    static char longl[5000];
    memset(longl, 'a', 4999);
    put("long.txt", longl);
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-x long.txt --samples-y long.txt x.csv x.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "long.txt:1: line too long"));
    /* quoted labels, comments, CRLF, BOM: read alike by check and audit */
    put("q.csv", "\"a,1\",0\nb,0\n");
    put("qs.txt", "\xEF\xBB\xBF# draws\r\n\"a,1\"\r\nb\r\n  b  \n");
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-x qs.txt --samples-y qs.txt q.csv q.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "draws: 3 from X, 3 from Y"));
    ck_assert_int_eq(run("$E check --epsilon 1 --samples qs.txt q.csv"), 4);
    ck_assert_ptr_nonnull(strstr(out, "draws: 3 over 2 candidates"));
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-x missing.txt --samples-y qs.txt q.csv q.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "missing.txt: cannot open"));
}
END_TEST

START_TEST(samples_are)
{
    /* labels 1, 2, 3: is '1' the first candidate or the second? */
    put("n.csv", "1,0\n2,0\n3,0\n");
    put("d.txt", "1\n2\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt n.csv"), 2);
    ck_assert_str_eq(out, "");
    ck_assert_ptr_nonnull(strstr(errtxt, "d.txt:1: '1' is ambiguous"));
    ck_assert_ptr_nonnull(strstr(errtxt, "--samples-are"));
    ck_assert_int_eq(run("$E check --epsilon 1 --samples-are labels --samples d.txt n.csv"), 4);
    ck_assert_ptr_nonnull(strstr(out, "draws: 2 over 3"));
    put("i.txt", "0\n3\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples-are indices --samples i.txt n.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "i.txt:2: index 3 out of range (the scenario has 3 candidates)"));
    ck_assert_int_eq(run("$E check --epsilon 1 --samples-are labels --samples i.txt n.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "i.txt:1: unknown label '0' (--samples-are indices"));
    ck_assert_int_eq(run("$E check --epsilon 1 --samples-are words --samples i.txt n.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "expected 'labels' or 'indices'"));
    /* labels equal to their own index (0..n-1 in order, as `example median` writes): no
     * ambiguity */
    put("m.csv", "0,0\n1,0\n2,0\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt m.csv"), 4);
    /* indices into labels that are words: the old behaviour stays */
    put("w.csv", "x,0\ny,0\n");
    put("wi.txt", "0\n1\ny\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples wi.txt w.csv"), 4);
    ck_assert_ptr_nonnull(strstr(out, "draws: 3 over 2"));
    /* audit takes the same option and the same rule */
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-x d.txt --samples-y d.txt n.csv n.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "ambiguous"));
    ck_assert_int_eq(run("$E audit --epsilon 1 --samples-are labels --samples-x d.txt --samples-y d.txt n.csv n.csv"), 0);
}
END_TEST

/* ----------------------------------------------------------------- 4. labels */

START_TEST(labels_with_control_characters)
{
    put("e.csv", "a\x1b[31m,1\nb\\n,0\n");
    /* CSV: the exact bytes (a file, not a terminal), read back by compare */
    ck_assert_int_eq(run("$E probs --epsilon 1 e.csv > p.csv && $E compare --epsilon 1 --probs p.csv e.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "verdict: PASS"));
    char pc[4096];
    em_cli_slurp("p.csv", pc, sizeof pc);
    ck_assert_ptr_nonnull(strstr(pc, "a\x1b[31m,0.62245933120185456,"));
    /* JSON: \u001b, read back too */
    ck_assert_int_eq(run("$E probs --epsilon 1 --format json e.csv > p.json && $E compare --epsilon 1 --probs p.json e.csv"), 0);
    char pj[4096];
    em_cli_slurp("p.json", pj, sizeof pj);
    ck_assert_ptr_nonnull(strstr(pj, "\"label\": \"a\\u001b[31m\""));
    ck_assert_ptr_nonnull(strstr(pj, "\"label\": \"b\\\\n\""));
    ck_assert_ptr_null(strchr(pj, 0x1b));
    /* human output: escaped, never raw */
    put("d.txt", "\"a\x1b[31m\"\nb\\n\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt e.csv"), 4);
    ck_assert_ptr_null(strchr(out, 0x1b));
    ck_assert_ptr_nonnull(strstr(out, "a\\x1b[31m"));
    ck_assert_ptr_nonnull(strstr(out, "b\\\\n")); /* a backslash is doubled: unambiguous */
    put("bad.txt", "a\x1b[31m,0.9\nb\\n,0.1\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs bad.txt e.csv"), 1);
    ck_assert_ptr_null(strchr(out, 0x1b));
    ck_assert_ptr_nonnull(strstr(out, "FAIL a\\x1b[31m: given 0.9"));
    put("f.csv", "a\x1b[31m,0\nb\\n,-1490\n");
    put("g.csv", "a\x1b[31m,0\nb\\n,-1491\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 f.csv g.csv"), 1);
    ck_assert_ptr_null(strchr(out, 0x1b));
    ck_assert_ptr_nonnull(strstr(out, "at 'b\\\\n'"));
    /* messages: escaped too */
    put("h.csv", "a\x1b[31m,0\nc,0\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 f.csv h.csv"), 2);
    ck_assert_ptr_null(strchr(errtxt, 0x1b));
    /* a C1 control (U+009B, CSI on some terminals) */
    put("c1.csv", "x\xc2\x9b" "2J,0\ny,0\n");
    put("c1d.txt", "x\xc2\x9b" "2J\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples c1d.txt c1.csv"), 4);
    ck_assert_ptr_nonnull(strstr(out, "x\\u009b2J"));
    /* CSV written to a terminal is read by a person: escaped */
    ck_assert_int_eq(run("script -qec '$E probs --epsilon 1 e.csv' /dev/null < /dev/null"), 0);
    ck_assert_ptr_null(strchr(out, 0x1b));
    ck_assert_ptr_nonnull(strstr(out, "\"a\\x1b[31m\",0.62245933120185456"));
}
END_TEST

/* ------------------------------------------------------ 5. strict integers */

START_TEST(strict_integer_options)
{
    put("s.csv", "a,0\nb,1\n");
    put("u.csv", "# output: continuous\n0,1,0\n");
    static const char *const bad[] = {
        "demo --seed 99999999999999999999999",
        "demo --seed 18446744073709551616",
        "demo --seed 1x",
        "demo --seed +1",
        "demo --seed ' 1'",
        "demo --seed 0x",
        "demo --draws 1e3",
        "demo --draws 99999999999999999999",
        "sample --epsilon 1 --seed 18446744073709551616 s.csv",
        "sample --epsilon 1 --seed -1 s.csv",
        "sample --epsilon 1 -n 18446744073709551616 s.csv",
        "sample --epsilon 1 -n -1 s.csv",
        "sample --epsilon 1 -n 1.5 s.csv",
        "sample --epsilon 1 -n '' s.csv",
        "probs --epsilon 1 --digits 99999999999999999999 s.csv",
        "probs --epsilon 1 --digits 17x s.csv",
        "probs --epsilon 1 --digits -3 s.csv",
        "cdf --epsilon 1 --grid 0:1:99999999999999999999 u.csv",
        "cdf --epsilon 1 --grid 0:1:3x u.csv",
        "cdf --epsilon 1 --grid 0:1:-3 u.csv",
        "audit --epsilon 1 --confidence 0.9x s.csv s.csv",
        "audit --epsilon 1 --confidence 1e999 s.csv s.csv",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = run("$E %s", bad[i]);
        ck_assert_msg(st == 2, "'%s': exit %d", bad[i], st);
        ck_assert_msg(out[0] == 0, "'%s': wrote '%s'", bad[i], out);
        ck_assert_msg(strstr(errtxt, "expmech") != NULL && strlen(errtxt) > 10, "'%s': %s", bad[i], errtxt);
    }
    /* the largest values are accepted */
    ck_assert_int_eq(run("$E demo --draws 1 --seed 18446744073709551615"), 0);
    ck_assert_int_eq(run("$E demo --draws 1 --seed 0xffffffffffffffff"), 0);
    ck_assert_int_eq(run("$E sample --epsilon 1 -n 2 --seed 18446744073709551615 s.csv"), 0);
}
END_TEST

/* ------------------------------------------ 6. defaults that must not weaken */

START_TEST(example_headers_are_proven)
{
    /* the sensitivity each example must declare, from the proofs (README, Why3 table):
     * median: median_private, Delta = 2; counts: count_sensitivity_*, 1 (the seeds'
     * scaled counts count/1000, count/4140, count/100 have smaller bounds: 1 is the
     * seeds' conservative choice); revenue: revenue_private, p_max = 3.5; Laplace:
     * laplace_score_private, Delta_f = 1 */
    static const struct { const char *name, *delta; } ex[] = {
        {"marital", "1"},  {"marital-raw", "1"}, {"occupation", "1"},   {"socks", "1"},
        {"socks-red", "1"}, {"socks-blue", "1"}, {"median", "2"},       {"median-worst", "2"},
        {"pricing", "3.5"}, {"laplace", "1"},
    };
    const size_t n = sizeof ex / sizeof ex[0];
    ck_assert_int_eq(run("$E example --list"), 0);
    size_t listed = 0;
    for (const char *p = out; *p; p++)
        listed += *p == '\n';
    ck_assert_msg(listed == n, "example --list has %zu names, the table %zu: add the new one", listed, n);
    for (size_t i = 0; i < n; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s ", ex[i].name);
        static char list[sizeof out + 1];
        ck_assert_int_eq(run("$E example --list"), 0);
        list[0] = '\n';
        memcpy(list + 1, out, strlen(out) + 1);
        ck_assert_msg(strstr(list, line) != NULL, "%s not listed", ex[i].name);
        ck_assert_int_eq(run("$E example %s | grep '^# sensitivity:'", ex[i].name), 0);
        char want[64];
        snprintf(want, sizeof want, "# sensitivity: %s\n", ex[i].delta);
        ck_assert_msg(!strcmp(out, want), "example %s declares '%s', proven %s", ex[i].name, out,
                      ex[i].delta);
    }
    /* the rank-distance score moves by 2 when one row changes: A = {1, 100, 102, 104, 105,
     * 200, 365} has score 0 at 104; replacing 104 by 0 makes 104 need one replacement:
     * -2 (so a header of 1 would have been wrong) */
    ck_assert_int_eq(run("$E example median | grep '^104,'"), 0);
    ck_assert_str_eq(out, "104,0\n");
}
END_TEST

START_TEST(variant_and_sensitivity_provenance)
{
    put("m.csv", "# sensitivity: 2\n# monotone: yes\na,1\nb,0\n");
    /* the header permits monotone, never switches to it: standard, c = 1/4:
     * P(a) = 1/(1 + e^-1/4) = 0.56217650088579810 */
    ck_assert_int_eq(run("$E probs --epsilon 1 m.csv"), 0);
    ck_assert(fabs(strtod(out + 2, NULL) - 1 / (1 + exp(-0.25))) < 1e-15);
    ck_assert_str_eq(errtxt, "expmech probs: variant standard (default), sensitivity 2 (header of m.csv)\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant monotone m.csv"), 0);
    ck_assert(fabs(strtod(out + 2, NULL) - 1 / (1 + exp(-0.5))) < 1e-15);
    ck_assert_str_eq(errtxt, "expmech probs: variant monotone (option), sensitivity 2 (header of m.csv)\n");
    /* refused: monotone without the header, a sensitivity below the header; nothing on
     * standard output; --force runs it and says so */
    put("s.csv", "# sensitivity: 2\na,1\nb,0\n");
    put("u.csv", "# output: continuous\n# sensitivity: 2\n0,1,0,1\n");
    put("d.txt", "a\nb\n");
    put("x.txt", "0.5\n");
    put("p.txt", "0.5\n0.5\n");
    static const char *const cmds[] = {
        "probs --epsilon 1 %s s.csv",         "sample --epsilon 1 --seed 1 %s s.csv",
        "check --epsilon 1 --samples d.txt %s s.csv", "compare --epsilon 1 --probs p.txt %s s.csv",
        "cdf --epsilon 1 --at 0.5 %s u.csv",  "density --epsilon 1 --at 0.5 %s u.csv",
        "quantile --epsilon 1 --at 0.5 %s u.csv", "utility --epsilon 1 %s s.csv",
        "audit --epsilon 1 %s s.csv s.csv",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char cmd[256];
        const char *name = cmds[i];
        snprintf(cmd, sizeof cmd, cmds[i], "");
        int st = run("$E %s", cmd);
        ck_assert_msg(st == 0 || st == 1 || st == 4, "%s: exit %d %s", cmd, st, errtxt);
        ck_assert_msg(strstr(errtxt, "variant standard (default), sensitivity 2 (header of ") != NULL,
                      "%s: stderr '%s'", cmd, errtxt);
        snprintf(cmd, sizeof cmd, cmds[i], "--variant monotone");
        ck_assert_msg(run("$E %s", cmd) == 2, "%s", cmd);
        ck_assert_msg(out[0] == 0 && strstr(errtxt, "needs '# monotone: yes'"), "%s: %s", cmd, errtxt);
        snprintf(cmd, sizeof cmd, cmds[i], "--sensitivity 1");
        ck_assert_msg(run("$E %s", cmd) == 2, "%s", cmd);
        ck_assert_msg(out[0] == 0 && strstr(errtxt, "is below the sensitivity 2"), "%s: %s", cmd, errtxt);
        snprintf(cmd, sizeof cmd, cmds[i], "--sensitivity 1 --force");
        st = run("$E %s", cmd);
        ck_assert_msg(st == 0 || st == 1 || st == 4, "%s: exit %d %s", cmd, st, errtxt);
        ck_assert_msg(strstr(errtxt, "FORCED") != NULL, "%s: %s", cmd, errtxt);
        (void)name;
    }
    /* no header at all: the default 1, said so */
    put("n.csv", "a,1\nb,0\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 n.csv"), 0);
    ck_assert_str_eq(errtxt, "expmech probs: variant standard (default), sensitivity 1 (default)\n");
}
END_TEST

START_TEST(float_sampler_is_labelled)
{
    put("x.csv", "a,0\nb,-1490\n");
    put("y.csv", "a,0\nb,-1491\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "float sampler as implemented (W[i]/total of em_weights_fixed):\n"
                                      "  privacy loss: inf"));
    /* the ideal mechanism's loss here is c |(-1490) - (-1491)| = 1/2 */
    ck_assert_ptr_nonnull(strstr(out, "ideal mechanism (= the exact sampler):\n  privacy loss: 0.5 "));
    ck_assert_int_eq(run("$E sample --help"), 0);
    ck_assert_ptr_nonnull(strstr(out, "WARNING: the float sampler can break pure epsilon-DP"));
    ck_assert_int_eq(run("$E sample --epsilon 1 --seed 1 --sampler float x.csv"), 0);
    ck_assert_ptr_nonnull(strstr(errtxt, "--sampler float: the float path can break pure epsilon-DP"));
    ck_assert_int_eq(run("$E sample --epsilon 1 --seed 1 x.csv"), 0);
    ck_assert_ptr_null(strstr(errtxt, "break pure"));
    ck_assert_int_eq(run("$E demo --draws 0"), 0);
    ck_assert_ptr_nonnull(strstr(out, "float path: the verified core in double precision"));
    ck_assert_ptr_nonnull(strstr(out, "float probability"));
    ck_assert_int_eq(run("$E demo --draws 1 --seed 1"), 0);
    ck_assert_ptr_nonnull(strstr(out, "1 draws (ChaCha20, explicit seed), float sampler:"));
}
END_TEST

START_TEST(audit_equal_laws_exactly_zero)
{
    put("x.csv", "a,0\nb,-1490\nc,1/3\n");
    /* the same utilities shifted by 5: the same law exactly */
    put("y.csv", "a,5\nb,-1485\nc,16/3\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv x.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "ideal mechanism (= the exact sampler):\n  privacy loss: 0 (exactly"));
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "ideal mechanism (= the exact sampler):\n  privacy loss: 0 (exactly"));
    ck_assert_ptr_null(strstr(out, "e-9"));
    ck_assert_int_eq(run("$E audit --epsilon 1 --variant pf x.csv y.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "privacy loss: 0 (exactly"));
    /* a shift by a different amount on one candidate is no longer 0: the loss is
     * c |d_i - d_j| at most, here (1/2)(1/1000) in the two-point extreme, > 0 */
    put("z.csv", "a,0\nb,-1490\nc,0.334\n");
    ck_assert_int_eq(run("$E audit --epsilon 1 x.csv z.csv"), 0);
    ck_assert_ptr_null(strstr(out, "ideal mechanism (= the exact sampler):\n  privacy loss: 0 (exactly"));
}
END_TEST

/* the provenance rule as a library function: every case of the table */
START_TEST(params_resolve_table)
{
    mpq_t one, two, four, d;
    mpq_inits(one, two, four, d, NULL);
    mpq_set_ui(one, 1, 1);
    mpq_set_ui(two, 2, 1);
    mpq_set_ui(four, 4, 1);
    enum { STD = 0, MON = 1 };
    static const struct {
        int opt_d;       /* 0 none, 1 one, 4 four */
        int hdr_d;       /* 0 none, 2 two */
        int opt_v;       /* -1 none, else the variant */
        int hdr_mono, force;
        int ret;         /* 0 / -1 */
        int d;           /* the sensitivity used */
        int variant;
        em_src dsrc, vsrc;
        unsigned refusal;
        int forced;
    } t[] = {
        {0, 0, -1, 0, 0, 0, 1, STD, EM_SRC_DEFAULT, EM_SRC_DEFAULT, 0, 0},
        {0, 2, -1, 0, 0, 0, 2, STD, EM_SRC_HEADER, EM_SRC_DEFAULT, 0, 0},
        {0, 2, -1, 1, 0, 0, 2, STD, EM_SRC_HEADER, EM_SRC_DEFAULT, 0, 0}, /* header: still standard */
        {0, 2, MON, 1, 0, 0, 2, MON, EM_SRC_HEADER, EM_SRC_OPTION, 0, 0},
        {0, 2, MON, 0, 0, -1, 2, MON, EM_SRC_HEADER, EM_SRC_OPTION, EM_PARAMS_MONOTONE_UNDECLARED, 0},
        {1, 2, -1, 0, 0, -1, 1, STD, EM_SRC_OPTION, EM_SRC_DEFAULT, EM_PARAMS_DELTA_BELOW_HEADER, 0},
        {1, 2, -1, 0, 1, 0, 1, STD, EM_SRC_OPTION, EM_SRC_DEFAULT, EM_PARAMS_DELTA_BELOW_HEADER, 1},
        {1, 2, MON, 0, 1, 0, 1, MON, EM_SRC_OPTION, EM_SRC_OPTION,
         EM_PARAMS_DELTA_BELOW_HEADER | EM_PARAMS_MONOTONE_UNDECLARED, 1},
        {4, 2, STD, 0, 0, 0, 4, STD, EM_SRC_OPTION, EM_SRC_OPTION, 0, 0}, /* above: allowed */
        {1, 0, -1, 0, 0, 0, 1, STD, EM_SRC_OPTION, EM_SRC_DEFAULT, 0, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        em_params_in in = {
            .opt_delta_given = t[i].opt_d != 0, .opt_delta = t[i].opt_d == 4 ? four : one,
            .hdr_delta_given = t[i].hdr_d != 0, .hdr_delta = two,
            .opt_variant_given = t[i].opt_v >= 0, .opt_variant = t[i].opt_v,
            .hdr_monotone = t[i].hdr_mono, .monotone_value = MON, .standard_value = STD,
            .force = t[i].force,
        };
        em_params_out o;
        ck_assert_int_eq(em_params_resolve(&in, d, &o), t[i].ret);
        ck_assert_msg(mpq_cmp_ui(d, (unsigned long)t[i].d, 1) == 0, "case %zu: delta", i);
        ck_assert_int_eq(o.variant, t[i].variant);
        ck_assert_int_eq(o.delta_src, t[i].dsrc);
        ck_assert_int_eq(o.variant_src, t[i].vsrc);
        ck_assert_uint_eq(o.refusal, t[i].refusal);
        ck_assert_int_eq(o.forced, t[i].forced);
    }
    mpq_clears(one, two, four, d, NULL);
}
END_TEST

/* ---------------------------------------------- 7. reading its own outputs */

START_TEST(compare_reads_probs_output)
{
    put("ab.csv", "a,0\nb,1\n\"c,d\",1/2\n\"q\"\"\",0.25\n");
    static const char *const forms[] = {"", "--format json", "--digits 40", "--digits 40 --format json",
                                        "--variant pf", "--variant pf --format json"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const char *pf = strstr(forms[i], "pf") ? "--variant pf" : "";
        int st = run("$E probs --epsilon 1 %s ab.csv > p.out && $E compare --epsilon 1 %s --probs p.out ab.csv",
                     forms[i], pf);
        ck_assert_msg(st == 0, "probs %s | compare: exit %d: %s", forms[i], st, errtxt);
        ck_assert_ptr_nonnull(strstr(out, "verdict: PASS"));
    }
    /* a tampered value in probs' own CSV and JSON is judged (not a parse error) */
    ck_assert_int_eq(run("$E probs --epsilon 1 ab.csv | sed 's/^a,0\\.[0-9]*/a,0.5/' > t.csv && "
                         "$E compare --epsilon 1 --probs t.csv ab.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "FAIL a: given 0.5"));
    ck_assert_int_eq(run("$E probs --epsilon 1 --format json ab.csv | sed 's/\"probability\": \"0\\.[0-9]*\"/\"probability\": 0.25/' > t.json && "
                         "$E compare --epsilon 1 --probs t.json ab.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "verdict: FAIL"));
    /* malformed: a bad log-probability, JSON without candidates, text after the JSON */
    put("bl.csv", "a,0.1,xyz\nb,0.2,-1\n\"c,d\",0.3,-1\n\"q\"\"\",0.4,-1\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs bl.csv ab.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "bl.csv:1: bad log-probability 'xyz'"));
    put("nc.json", "{\"epsilon\": \"1\"}\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs nc.json ab.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "nc.json: no \"candidates\""));
    put("tr.json", "[{\"label\": \"a\", \"probability\": 0.1}] x");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs tr.json ab.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "text after the JSON value"));
    put("uk.json", "[{\"label\": \"zz\", \"probability\": \"0.1\"}]");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs uk.json ab.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "unknown label 'zz'"));
}
END_TEST

/* ------------------------------------------------ 8. version, terminal hint */

START_TEST(version_and_hint)
{
    ck_assert_int_eq(run("$E --version"), 0);
    /* MAJOR.MINOR.PATCH, and the library's own string */
    unsigned a, b, c;
    char rest[8];
    ck_assert_int_eq(sscanf(out, "expmech %u.%u.%u%1[\n]", &a, &b, &c, rest), 4);
    char want[64];
    snprintf(want, sizeof want, "expmech %s\n", em_version());
    ck_assert_str_eq(out, want);
    ck_assert_str_eq(em_version(), EM_VERSION_STRING);
    ck_assert_int_eq(EM_VERSION_NUMBER, (int)(a * 10000 + b * 100 + c));
    ck_assert_int_eq(run("$E -V"), 0);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(run("$E --help"), 0);
    ck_assert_ptr_nonnull(strstr(out, "--version"));
    /* a terminal on standard input: the hint (script gives the program a terminal; \004
     * is Ctrl-D) */
    ck_assert_int_eq(run("printf 'a,1\\nb,0\\n\\004' | script -qec '$E probs --epsilon 1' /dev/null"), 0);
    ck_assert_ptr_nonnull(strstr(out, "reading the scenario from standard input (Ctrl-D to end)"));
    ck_assert_ptr_nonnull(strstr(out, "a,0.62245933120185456"));
    /* a pipe: no hint */
    ck_assert_int_eq(run("printf 'a,1\\nb,0\\n' | $E probs --epsilon 1"), 0);
    ck_assert_ptr_null(strstr(errtxt, "Ctrl-D"));
}
END_TEST

/* ------------------------------------------- the output-independent timing mode */

START_TEST(timing_fixed_mode)
{
    /* The law is unchanged (the library's enumeration test, test_exact bits_first_chunk_63,
     * shows it exactly): here the command's draws pass the G-test at N = 10^5, and the same
     * draws judged as draws of the ε-not-halved law (--epsilon 2) are rejected, so the
     * check could fail (power 0.99 against ε 1 -> 2 needs N = 247 on 7 cells: the G-test
     * noncentrality, stats/stat_marital.c rejects the same bug with G = 1.5e5 at 10^6). */
    ck_assert_int_eq(run("($E example marital > m.csv)"), 0);
    ck_assert_msg(run("($E sample --epsilon 1 -n 100000 --seed 12 --timing fixed m.csv > d.txt)") == 0, "%s", errtxt);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt m.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "verdict: PASS"));
    ck_assert_int_eq(run("$E check --epsilon 2 --samples d.txt m.csv"), 1);
    /* --timing variable is the default: the same draws */
    ck_assert_int_eq(run("($E sample --epsilon 1 -n 20 --seed 12 m.csv > v.txt); "
                         "$E sample --epsilon 1 -n 20 --seed 12 --timing=variable m.csv | cmp - v.txt"), 0);
    /* refused where no output-independent mode exists, and bad words: exit 2, no stdout */
    static const char *const refused[] = {
        "sample --epsilon 1 --timing fixed --variant pf m.csv",
        "sample --epsilon 1 --timing fixed --sampler float m.csv",
        "sample --epsilon 1 --timing fixed u.csv",
        "sample --epsilon 1 --timing often m.csv",
        "sample --epsilon 1 m.csv --timing",
    };
    scenarios();
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        ck_assert_int_eq(run("$E %s", refused[i]), 2);
        ck_assert_str_eq(out, "");
        ck_assert_ptr_nonnull(strstr(errtxt, "--timing"));
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("harden");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, write_errors_every_command);
    tcase_add_test(tc, write_error_stops_sampling);
    tcase_add_test(tc, check_too_little_data);
    tcase_add_test(tc, gof_verdict_library);
    tcase_add_test(tc, samples_reader_shared);
    tcase_add_test(tc, samples_are);
    tcase_add_test(tc, labels_with_control_characters);
    tcase_add_test(tc, strict_integer_options);
    tcase_add_test(tc, example_headers_are_proven);
    tcase_add_test(tc, variant_and_sensitivity_provenance);
    tcase_add_test(tc, params_resolve_table);
    tcase_add_test(tc, float_sampler_is_labelled);
    tcase_add_test(tc, audit_equal_laws_exactly_zero);
    tcase_add_test(tc, compare_reads_probs_output);
    tcase_add_test(tc, version_and_hint);
    tcase_add_test(tc, timing_fixed_mode);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
