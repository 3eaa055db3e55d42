/* test_harden2.c: the second hardening round, table-driven: each row is one command line
 * (run by sh in a fresh directory holding the files of fixtures(), $E the program), its
 * expected exit status, a fragment its standard error must hold and one its standard
 * output must hold (NULL: not checked; "" for stdout: must be empty).  The classes: a
 * sampler that must return, lines misread in silence, the audit from draws, privacy
 * warnings, valid input refused, errors that say what is wrong.
 *
 * Expected values are written here from the definitions (the double nearest a real
 * beyond DBL_MAX is inf; a two-candidate law's probabilities 1/(1 + e^x)), never
 * computed by the code under test. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_harden2_XXXXXX");
}

static void fixtures(void)
{
    put("big.csv", "# output: continuous\n0,1e400,0,0\n");
    put("edge.csv", "# output: continuous\n1.79e308,1.8e308,0,0\n");
    put("negbig.csv", "# output: continuous\n-1e400,0,0,0\n");
    put("slope.csv", "# output: continuous\n0,1e400,0,1e-398\n");
    put("inf5.txt", "inf\ninf\ninf\ninf\ninf\n");
}

typedef struct row {
    const char *id;
    const char *cmd;   /* sh command line, $E the program */
    int exit;
    const char *err;   /* fragment of stderr (NULL: not checked) */
    const char *out;   /* fragment of stdout (NULL: not checked; "": stdout empty) */
} row;

static const row rows[] = {
    /* ---- a sampler that returns: an ideal draw beyond DBL_MAX rounds to +-inf */
    {"hang: uniform on [0, 1e400]",
     "timeout 60 $E sample --epsilon 1 --seed 1 big.csv", 0, NULL, "inf\n"},
    {"hang: the fourth draw on [1.79e308, 1.8e308], all four written",
     "(timeout 60 $E sample --epsilon 1 --seed 1 -n 4 edge.csv | wc -l)", 0, NULL, "4\n"},
    {"hang: the fourth draw on [1.79e308, 1.8e308] is inf",
     "(timeout 60 $E sample --epsilon 1 --seed 1 -n 4 edge.csv | tail -1)", 0, NULL, "inf\n"},
    {"hang: stdin as in the report",
     "printf '# output: continuous\\n0,1e400,0,0\\n' | timeout 60 $E sample --epsilon 1 --seed 1",
     0, NULL, "inf\n"},
    {"hang: the mirror, [-1e400, 0]",
     "timeout 60 $E sample --epsilon 1 --seed 1 -n 2 negbig.csv", 0, NULL, "-inf\n-inf\n"},
    {"hang: utility --mc, slope 0: the loss at inf is 0",
     "timeout 60 $E utility --epsilon 1 --seed 1 --mc 10 big.csv", 0, NULL, ",10,0,0\n"},
    {"hang: utility --mc, nonzero slope: no finite loss at inf, said",
     "timeout 60 $E utility --epsilon 1 --seed 1 --mc 10 slope.csv", 2,
     "beyond the largest double", ""},
    {"hang: check of draws at inf judges the atom",
     "timeout 60 $E check --epsilon 1 --samples inf5.txt big.csv", 0, NULL,
     "verdict: PASS"},
};

START_TEST(table)
{
    fixtures();
    const row *r = &rows[_i];
    int st = run("%s", r->cmd);
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
    Suite *s = suite_create("harden2");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, table, 0, (int)(sizeof rows / sizeof rows[0]));
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
