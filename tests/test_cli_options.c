/* test_cli_options.c: the one option parser of every command (em_cli_options), as a table:
 * each row one command line (run by sh in a fresh directory holding the files of
 * fixtures(), $E the program), its exit status and fragments of its standard error and
 * standard output (NULL: not checked; "" for stdout: must be empty).  Every command:
 * a mistyped option names the nearest one; --opt=VALUE is --opt VALUE; -h prints the
 * help; and the parser's messages (given twice, needs a value, takes no value, a refused
 * number) are the same wherever the situation arises.
 *
 * Expected values are written here from the definitions, never computed by the code under
 * test. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_table.h"
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_cli_options_XXXXXX");
}

static void fixtures(void)
{
    /* utilities 1 and 0 at epsilon 1, sensitivity 1: P(a) = 1/(1 + e^-1/2) =
     * 0.62245933120185456..., 0.62246 to 5 digits */
    put("ab.csv", "a,1\nb,0\n");
    put("ba.csv", "a,0\nb,1\n");
    /* u = 0 on [0, 1]: uniform, F(1/2) = 1/2 */
    put("u01.csv", "# output: continuous\n0,1,0,0\n");
    put("d.txt", "1\n2\n2\n");
}

static const em_cli_row rows[] = {
    /* a mistyped option: the nearest of the command's own options */
    {"probs: did you mean", "$E probs --epsilom 1 ab.csv", 2,
     "expmech probs: unknown option '--epsilom' (did you mean --epsilon?  see --help)", ""},
    {"sample: did you mean --seed", "$E sample --epsilon 1 --seeed 1 ab.csv", 2,
     "expmech sample: unknown option '--seeed' (did you mean --seed?  see --help)", ""},
    {"sample: did you mean --sampler", "$E sample --epsilon 1 --sampeler float ab.csv", 2,
     "unknown option '--sampeler' (did you mean --sampler?", ""},
    {"check: did you mean", "$E check --epsilon 1 --sample s.txt ab.csv", 2,
     "expmech check: unknown option '--sample' (did you mean --samples?  see --help)", ""},
    {"compare: did you mean", "$E compare --epsilon 1 --prob p.txt ab.csv", 2,
     "expmech compare: unknown option '--prob' (did you mean --probs?  see --help)", ""},
    {"cdf: did you mean", "$E cdf --epsilon 1 --gird 0:1:3 u01.csv", 2,
     "expmech cdf: unknown option '--gird' (did you mean --grid?  see --help)", ""},
    {"density: did you mean", "$E density --epsilon 1 --att 0.5 u01.csv", 2,
     "expmech density: unknown option '--att' (did you mean --at?  see --help)", ""},
    {"quantile: did you mean", "$E quantile --epsilon 1 --at 0.5 --digts 5 u01.csv", 2,
     "expmech quantile: unknown option '--digts' (did you mean --digits?  see --help)", ""},
    {"utility: did you mean", "$E utility --epsilon 1 --mcc 5 ab.csv", 2,
     "expmech utility: unknown option '--mcc' (did you mean --mc?  see --help)", ""},
    {"groups: did you mean its own option", "$E groups --epsilon 1 --splt equal", 2,
     "expmech groups: unknown option '--splt' (did you mean --split?  see --help)", ""},
    {"audit: did you mean", "$E audit --epsilon 1 --confidnce 0.9 ab.csv ba.csv", 2,
     "expmech audit: unknown option '--confidnce' (did you mean --confidence?  see --help)", ""},
    {"score: did you mean", "$E score count --dta d.txt", 2,
     "expmech score: unknown option '--dta' (did you mean --data?  see --help)", ""},
    {"plot: did you mean", "$E plot --titel T", 2,
     "expmech plot: unknown option '--titel' (did you mean --title?  see --help)", ""},
    {"conform: did you mean", "$E conform --sampel x", 2,
     "expmech conform: unknown option '--sampel' (did you mean --sampler?  see --help)", ""},
    {"demo: did you mean", "$E demo --drws 5", 2,
     "expmech demo: unknown option '--drws' (did you mean --draws?  see --help)", ""},
    {"example: did you mean", "$E example --lst", 2,
     "expmech example: unknown option '--lst' (did you mean --list?  see --help)", ""},

    /* --opt=VALUE is --opt VALUE, in every command */
    {"probs: --opt=VALUE", "$E probs --epsilon=1 --digits=5 ab.csv", 0, NULL, "a,0.62246"},
    {"sample: --opt=VALUE", "$E sample --epsilon=1 -n=3 --seed=7 --sampler=float ab.csv", 0,
     "--sampler float: the float path can break pure epsilon-DP", NULL},
    {"cdf: --opt=VALUE", "$E cdf --epsilon=1 --at=0.5 u01.csv", 0, NULL, "0.5"},
    {"audit: --opt=VALUE", "$E audit --epsilon=1 ab.csv ba.csv", 0, NULL,
     "verdict: eps-DP holds on this pair"},
    {"score: --opt=VALUE", "$E score count --data=d.txt --candidates=1:2", 0, NULL,
     "# sensitivity: 1"},
    {"conform: --opt=VALUE refused as --opt VALUE", "$E conform --sampler=x --max-draws=0", 2,
     "expmech conform: --max-draws: bad value '0': expected an integer from 1 to 2^32", ""},
    {"demo: --opt=VALUE", "$E demo --draws=2 --seed=1", 0, NULL,
     "2 draws (ChaCha20, explicit seed)"},

    /* "--" ends the options */
    {"example: -- then a name", "$E example -- socks", 0, NULL, "Violent,0.1"},
    {"probs: -- then a FILE", "$E probs --epsilon 1 --digits 5 -- ab.csv", 0, NULL, "a,0.62246"},

    /* the parser's own messages, the same in every command */
    {"given twice", "$E probs --epsilon 1 --digits 3 --digits 4 ab.csv", 2,
     "expmech probs: --digits given twice", ""},
    {"given twice: sample's --sampler", "$E sample --epsilon 1 --sampler exact --sampler float "
     "ab.csv", 2, "expmech sample: --sampler given twice", ""},
    {"given twice: groups' own option", "$E groups --epsilon 1 --split equal --split full", 2,
     "expmech groups: --split given twice", ""},
    {"needs a value", "$E probs --epsilon", 2, "expmech probs: --epsilon needs a value", ""},
    {"needs a value: conform", "$E conform --sampler", 2,
     "expmech conform: --sampler needs a value", ""},
    {"takes no value", "$E probs --epsilon 1 --force=yes ab.csv", 2,
     "expmech probs: --force takes no value", ""},
    {"takes no value: plot", "$E plot --logx=1", 2, "expmech plot: --logx takes no value", ""},
    {"takes no value: conform", "$E conform --quick=1", 2,
     "expmech conform: --quick takes no value", ""},
    {"takes no value: example", "$E example --list=1", 2,
     "expmech example: --list takes no value", ""},
    {"a refused number", "$E demo --draws=5x", 2,
     "expmech demo: --draws: bad value '5x': not a non-negative integer", ""},
    {"a refused number: the same text", "$E sample --epsilon 1 -n 5x ab.csv", 2,
     "expmech sample: -n: bad value '5x': not a non-negative integer", ""},
    {"a word from a fixed list", "$E probs --epsilon 1 --format xml ab.csv", 2,
     "expmech probs: --format: bad value 'xml': expected 'csv' or 'json'", ""},

    /* -h everywhere */
    {"-h: probs", "$E probs -h", 0, NULL, "usage: expmech probs"},
    {"-h: audit", "$E audit -h", 0, NULL, "usage: expmech audit"},
    {"-h: score", "$E score count -h", 0, NULL, "usage: expmech score"},
    {"-h: plot", "$E plot -h", 0, NULL, "usage: expmech plot"},
    {"-h: conform", "$E conform -h", 0, NULL, "usage: expmech conform"},
    {"-h: demo", "$E demo -h", 0, NULL, "usage: expmech demo"},
    {"-h: example", "$E example -h", 0, NULL, "usage: expmech example"},
    {"-h: groups", "$E groups -h", 0, NULL, "usage: expmech groups"},
};

START_TEST(table)
{
    fixtures();
    em_cli_table_check(&rows[_i]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli_options");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, table, 0, (int)(sizeof rows / sizeof rows[0]));
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
