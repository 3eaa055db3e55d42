/* test_harden3.c: the third hardening round, table-driven as test_harden2.c: each row is
 * one command line (run by sh in a fresh directory holding the files of fixtures(), $E the
 * program), its expected exit status, a fragment its standard error must hold and one its
 * standard output must hold (NULL: not checked; "" for stdout: must be empty).  The
 * classes: a mistyped name names the nearest valid one, in score's and plot's own parsers;
 * compare judges every column it is given, in JSON as in CSV.
 *
 * Expected values are written here from the definitions, never computed by the code under
 * test. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_harden3_XXXXXX");
}

static void fixtures(void)
{
    put("d.txt", "1\n2\n3\n");
    /* two candidates, utilities 1 and 0, epsilon 1: P(a) = 1/(1 + e^-1/2), log P(a) =
     * -log(1 + e^-1/2) = -0.47407698418010668..., log P(b) = log P(a) - 1/2 */
    put("ab.csv", "a,1\nb,0\n");
    put("ok.json", "{\"candidates\": [\n"
                   "{\"label\": \"a\", \"probability\": \"0.62245933120185456\", "
                   "\"log_probability\": \"-0.47407698418010668\"},\n"
                   "{\"label\": \"b\", \"probability\": \"0.37754066879814544\", "
                   "\"log_probability\": \"-0.97407698418010668\"}]}\n");
    put("plus5.json", "{\"candidates\": [\n"
                      "{\"label\": \"a\", \"probability\": \"0.62245933120185456\", "
                      "\"log_probability\": \"+5\"},\n"
                      "{\"label\": \"b\", \"probability\": \"0.37754066879814544\", "
                      "\"log_probability\": \"-0.97407698418010668\"}]}\n");
    put("num.json", "[{\"label\": \"b\", \"probability\": 0.37754066879814544, "
                    "\"log_probability\": -0.97407698418010668},\n"
                    "{\"label\": \"a\", \"probability\": 0.62245933120185456, "
                    "\"log_probability\": 5}]\n");
    put("bool.json", "[{\"label\": \"a\", \"probability\": \"0.62245933120185456\", "
                     "\"log_probability\": true},\n"
                     "{\"label\": \"b\", \"probability\": \"0.37754066879814544\"}]\n");
    put("plus5.csv", "a,0.62245933120185456,5\nb,0.37754066879814544,-0.97407698418010668\n");
}

typedef struct row {
    const char *id;
    const char *cmd;   /* sh command line, $E the program */
    int exit;
    const char *err;   /* fragment of stderr (NULL: not checked) */
    const char *out;   /* fragment of stdout (NULL: not checked; "": stdout empty) */
} row;

static const row rows[] = {
    /* ---- a mistyped name names the nearest valid one: score and plot */
    {"names: score --epsilonn, in FUNCTION's place",
     "$E score --epsilonn 1", 2,
     "unknown option '--epsilonn' (did you mean --epsilon?  score takes no --epsilon", ""},
    {"names: score --epsilon after the function says score takes none",
     "$E score median --data d.txt --range 0:4 --epsilon 1", 2,
     "unknown option '--epsilon' (score takes no --epsilon", ""},
    {"names: a mistyped score option",
     "$E score median --data d.txt --rnage 0:4", 2,
     "unknown option '--rnage' (did you mean --range?", ""},
    {"names: a mistyped score option with =VALUE",
     "$E score median --data d.txt --candidate=0:4", 2,
     "unknown option '--candidate=0:4' (did you mean --candidates?", ""},
    {"names: a mistyped scoring function",
     "$E score mediam --data d.txt --range 0:4", 2,
     "unknown scoring function 'mediam' (did you mean median?", ""},
    {"names: a scoring function far from every one lists them",
     "$E score mode --data d.txt", 2,
     "unknown scoring function 'mode' (one of count, frequency, maxnorm, median, quantile, "
     "revenue, rr, laplace;", ""},
    {"names: an option in FUNCTION's place says the function comes first",
     "$E score --data d.txt median", 2, "the scoring function comes first, before --data", ""},
    {"names: a score option far from every one is only unknown",
     "$E score median --data d.txt --zzzzzz 1", 2,
     "unknown option '--zzzzzz' (see expmech score --help)", ""},
    {"names: the misspelt score command still runs when spelt right",
     "$E score median --data d.txt --candidates 1:3", 0, NULL, "\n2,0\n"},
    {"names: plot --foo lists plot's options",
     "$E plot --foo", 2,
     "unknown option '--foo' (one of --x, --y, --series, --style, --title, --xlabel, --ylabel, "
     "--output, --logx, --logy, --overlay, --help;", ""},
    {"names: a mistyped plot option",
     "$E plot --outptu f.svg", 2, "unknown option '--outptu' (did you mean --output?", ""},
    {"names: a mistyped plot flag",
     "$E plot --logg", 2, "unknown option '--logg' (did you mean --logx?", ""},
    /* ---- compare judges every column it is given: JSON's log_probability as the CSV's */
    {"columns: CSV, a log-probability of +5 fails (as before)",
     "$E compare --epsilon 1 --probs plus5.csv ab.csv", 1, NULL,
     "FAIL a: given 5, exact -0.47407698418010668"},
    {"columns: JSON, a log-probability of +5 fails",
     "$E compare --epsilon 1 --probs plus5.json ab.csv", 1, NULL,
     "FAIL a: given 5, exact -0.47407698418010668"},
    {"columns: JSON, ... and only that candidate",
     "$E compare --epsilon 1 --probs plus5.json ab.csv", 1, NULL, "verdict: FAIL: 1 of 2"},
    {"columns: JSON numbers, a log-probability of 5 fails",
     "$E compare --epsilon 1 --probs num.json ab.csv", 1, NULL, "FAIL a: given 5"},
    {"columns: JSON with right log-probabilities passes",
     "$E compare --epsilon 1 --probs ok.json ab.csv", 0, NULL, "verdict: PASS"},
    {"columns: JSON, a log_probability neither string nor number",
     "$E compare --epsilon 1 --probs bool.json ab.csv", 2,
     "bool.json: candidates[0]: bad \"log_probability\" (a string or a number)", ""},
    {"columns: probs --format json judged by compare passes",
     "$E probs --epsilon 1 --format json ab.csv > p.json && "
     "$E compare --epsilon 1 --probs p.json ab.csv", 0, NULL, "verdict: PASS"},
};

START_TEST(table)
{
    fixtures();
    const row *r = &rows[_i];
    int st = run("(%s)", r->cmd);
    ck_assert_msg(st == r->exit, "[%s] %s: exit %d (expected %d)\nstdout: %s\nstderr: %s", r->id,
                  r->cmd, st, r->exit, out, errtxt);
    if (r->err)
        ck_assert_msg(strstr(errtxt, r->err) != NULL, "[%s] %s: stderr lacks '%s':\n%s", r->id,
                      r->cmd, r->err, errtxt);
    if (r->out && !r->out[0])
        ck_assert_msg(out[0] == 0, "[%s] %s: stdout not empty:\n%s", r->id, r->cmd, out);
    else if (r->out)
        ck_assert_msg(strstr(out, r->out) != NULL, "[%s] %s: stdout lacks '%s':\n%s", r->id,
                      r->cmd, r->out, out);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("harden3");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, table, 0, (int)(sizeof rows / sizeof rows[0]));
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
