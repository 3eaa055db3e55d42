/* test_harden3.c: the third hardening round, table-driven as test_harden2.c: each row is
 * one command line (run by sh in a fresh directory holding the files of fixtures(), $E the
 * program), its expected exit status, a fragment its standard error must hold and one its
 * standard output must hold (NULL: not checked; "" for stdout: must be empty).  The
 * classes: a mistyped name names the nearest valid one, in score's and plot's own parsers.
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
