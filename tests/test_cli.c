/* test_cli.c: the expmech commands of the oracle (probs, sample, check, compare, example),
 * run as a program (build/expmech, or $EM_EXPMECH): outputs, exit codes, messages. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_cli_XXXXXX");
}

START_TEST(help_lists_commands)
{
    ck_assert_int_eq(run("$E --help"), 0);
    static char top[sizeof out];
    strcpy(top, out);
    const char *cmds[] = {"probs", "sample", "check", "compare", "example"};
    for (int i = 0; i < 5; i++) {
        ck_assert_msg(strstr(top, cmds[i]) != NULL, "expmech --help lacks %s", cmds[i]);
        ck_assert_int_eq(run("$E %s --help", cmds[i]), 0);
        ck_assert_msg(strstr(out, "usage: expmech") != NULL, "%s --help", cmds[i]);
        ck_assert_msg(strstr(out, "Exit status") != NULL || !strcmp(cmds[i], "example"), "%s --help: exit codes", cmds[i]);
    }
}
END_TEST

START_TEST(probs_marital)
{
    ck_assert_int_eq(run("$E example marital | $E probs --epsilon 1"), 0);
    ck_assert_str_eq(out,
                     "Never-married,0.10388931391755686,-2.2644292358529990\n"
                     "Married-civ-spouse,0.88875894265787771,-0.11792923585299897\n"
                     "Divorced,0.0045874579316639006,-5.3844292358529990\n"
                     "Married-spouse-absent,0.00061313265907759164,-7.3969292358529990\n"
                     "Separated,0.00083054434411843069,-7.0934292358529990\n"
                     "Married-AF-spouse,0.00050324711014115648,-7.5944292358529990\n"
                     "Widowed,0.00081736137956434570,-7.1094292358529990\n");
    /* a file argument, '-' and --opt=value forms agree */
    ck_assert_int_eq(run("$E example marital > m.csv && $E probs --epsilon=1 m.csv > a && $E probs --epsilon 1 - < m.csv > b && cmp a b"), 0);
}
END_TEST

START_TEST(probs_raw_and_json)
{
    ck_assert_int_eq(run("$E example marital-raw | $E probs --epsilon 1"), 0);
    ck_assert(strstr(out, "Married-civ-spouse,0.99999999999999999,-6.1220178941509772e-933\n"));
    ck_assert(strstr(out, "Married-AF-spouse,9.9381615085231256e-3248,-7476.5000000000000\n"));
    ck_assert(strstr(errtxt, "note"));
    ck_assert_int_eq(run("$E example socks | $E probs --epsilon 5.5 --digits 8 --format json"), 0);
    ck_assert(strstr(out, "\"variant\": \"standard\""));
    ck_assert(strstr(out, "{\"label\": \"Violent\", \"utility\": \"0.1\", \"probability\": \"0.099750489\""));
    /* the monotone header and --variant */
    put("mono.csv", "# monotone: yes\na,0\nb,1\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 5 mono.csv"), 0);
    ck_assert_str_eq(out, "a,0.26894,-1.3133\nb,0.73106,-0.31326\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 5 --variant standard mono.csv"), 0);
    ck_assert_str_eq(out, "a,0.37754,-0.97408\nb,0.62246,-0.47408\n");
    /* the sensitivity header, and --sensitivity overriding it */
    put("sens.csv", "# sensitivity: 2\na,0\nb,2\n");
    ck_assert_int_eq(run("$E probs --epsilon 2 --digits 5 sens.csv"), 0);
    ck_assert_str_eq(out, "a,0.26894,-1.3133\nb,0.73106,-0.31326\n");
    ck_assert_int_eq(run("$E probs --epsilon 2 --digits 5 --sensitivity 1 sens.csv"), 0);
    ck_assert_str_eq(out, "a,0.11920,-2.1269\nb,0.88080,-0.12693\n");
}
END_TEST

START_TEST(probs_usage_errors)
{
    put("m.csv", "a,1\nb,2\n");
    ck_assert_int_eq(run("$E probs m.csv"), 2);
    ck_assert(strstr(errtxt, "--epsilon is required"));
    ck_assert_int_eq(run("$E probs --epsilon abc m.csv"), 2);
    ck_assert(strstr(errtxt, "--epsilon: bad value 'abc'"));
    ck_assert_int_eq(run("$E probs --epsilon 0 m.csv"), 2);
    ck_assert(strstr(errtxt, "must be > 0"));
    ck_assert_int_eq(run("$E probs --epsilon -1 m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon nan m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon inf m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --sensitivity 0 m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 0 m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 1001 m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 1.5 m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant fancy m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --format xml m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 --bogus m.csv"), 2);
    ck_assert(strstr(errtxt, "unknown option '--bogus'"));
    ck_assert_int_eq(run("$E probs --epsilon 1 --epsilon 2 m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 m.csv m.csv"), 2);
    ck_assert_int_eq(run("$E probs --epsilon"), 2);
    ck_assert_int_eq(run("$E probs --epsilon 1 nonexistent.csv"), 2);
    ck_assert(strstr(errtxt, "nonexistent.csv: cannot open"));
    ck_assert_int_eq(run("$E nosuchcommand"), 2);
}
END_TEST

/* every malformed scenario: exit 2, message naming the file and the line */
START_TEST(probs_parse_errors)
{
    static const struct {
        const char *text;
        int line;
        const char *part;
    } bad[] = {
        {"a,1\nnocomma\n", 2, "no comma"},
        {"a,1\n,2\n", 2, "empty label"},
        {"a,\n", 1, "missing utility"},
        {"a,1\nb,xyz\n", 2, "bad utility"},
        {"a,nan\n", 1, "NaN"},
        {"a,inf\n", 1, "+inf"},
        {"a,1\nb,2\na,3\n", 3, "duplicate label 'a'"},
        {"# sensitivity: 0\na,1\n", 1, "must be > 0"},
        {"# monotone: perhaps\na,1\n", 1, "yes or no"},
        {"a,1\r\nb,1e99999\r\n", 2, "exponent too large"},
        {"\xEF\xBB\xBF" "a,1\n\"b,2\n", 2, "unterminated"},
        {"a,1\n\xFF,2\n", 2, "invalid UTF-8"},
        {"a,1\rb,2\n", 1, "carriage return"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        put("bad.csv", bad[k].text);
        ck_assert_int_eq(run("$E probs --epsilon 1 bad.csv"), 2);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "bad.csv:%d: ", bad[k].line);
        ck_assert_msg(strstr(errtxt, prefix) && strstr(errtxt, bad[k].part), "case %zu: stderr '%s'", k, errtxt);
        ck_assert_str_eq(out, "");
    }
    /* overlong line */
    char *big = malloc(10000);
    memset(big, 'x', 9000);
    strcpy(big + 9000, ",1\n");
    put("long.csv", big);
    free(big);
    ck_assert_int_eq(run("$E probs --epsilon 1 long.csv"), 2);
    ck_assert(strstr(errtxt, "long.csv:1: line too long"));
    /* standard input is named */
    ck_assert_int_eq(run("printf 'a,1\\nb\\n' | $E probs --epsilon 1"), 2);
    ck_assert(strstr(errtxt, "<stdin>:2: "));
    put("empty.csv", "# nothing\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 empty.csv"), 2);
    ck_assert(strstr(errtxt, "no candidates"));
    put("allx.csv", "a,-inf\nb,-inf\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 allx.csv"), 2);
    ck_assert(strstr(errtxt, "excluded"));
}
END_TEST

START_TEST(example_names)
{
    ck_assert_int_eq(run("$E example --list"), 0);
    const char *names[] = {"marital", "marital-raw", "occupation", "socks", "socks-red", "socks-blue",
                           "median", "pricing", "laplace"};
    for (int i = 0; i < 9; i++) {
        ck_assert_msg(strstr(out, names[i]) != NULL, "--list lacks %s", names[i]);
    }
    for (int i = 0; i < 9; i++) {
        ck_assert_int_eq(run("$E example %s | $E probs --epsilon 1 --digits 3 > /dev/null", names[i]), 0);
    }
    ck_assert_int_eq(run("$E example median | grep -c -v '^#'"), 0);
    ck_assert_str_eq(out, "401\n");
    ck_assert_int_eq(run("$E example median | grep -E '^(104|102|103|105|100|101|0),'"), 0);
    ck_assert_str_eq(out, "0,-8\n100,-4\n101,-4\n102,-2\n103,-2\n104,0\n105,-2\n");
    ck_assert_int_eq(run("$E example nosuch"), 2);
    ck_assert_int_eq(run("$E example"), 2);
}
END_TEST

START_TEST(sample_seeded)
{
    ck_assert_int_eq(run("$E example marital > m.csv && $E sample --epsilon 1 -n 1000 --seed 7 m.csv > a && "
                         "$E sample --epsilon 1 -n 1000 --seed 7 m.csv > b && cmp a b && wc -l < a"), 0);
    ck_assert_str_eq(out, "1000\n");
    ck_assert_int_eq(run("$E example marital | $E sample --epsilon 1 -n 5 --seed 0x10 | sort -u | "
                         "grep -v -E '^(Never-married|Married-civ-spouse|Divorced|Married-spouse-absent|Separated|Married-AF-spouse|Widowed)$' | wc -l"), 0);
    ck_assert_str_eq(out, "0\n");
    ck_assert_int_eq(run("$E example marital | $E sample --epsilon 1"), 0); /* OS randomness */
    ck_assert_int_eq(run("$E example marital | $E sample --epsilon 1 -n -3"), 2);
    ck_assert_int_eq(run("$E example marital | $E sample --epsilon 1 --seed x"), 2);
    put("huge.csv", "a,1e400\nb,0\n");
    ck_assert_int_eq(run("$E sample --sampler float --epsilon 1 huge.csv"), 2);
    ck_assert(strstr(errtxt, "beyond double's range"));
    ck_assert_int_eq(run("$E sample --epsilon 1 huge.csv"), 0); /* exact (default): fine */
    ck_assert_str_eq(out, "a\n");
}
END_TEST

START_TEST(check_pass_and_reject)
{
    /* draws of the verified sampler pass; draws with epsilon not halved are rejected */
    ck_assert_int_eq(run("$E example marital > m.csv && $E sample --epsilon 1 -n 200000 --seed 1 m.csv > ok.txt && "
                         "$E check --epsilon 1 --samples ok.txt m.csv"), 0);
    ck_assert(strstr(out, "verdict: PASS"));
    ck_assert(strstr(out, "p-value"));
    ck_assert(strstr(out, "detectable"));
    ck_assert_int_eq(run("$E example marital > m.csv && $E sample --epsilon 2 -n 200000 --seed 2 m.csv > bad.txt && "
                         "$E check --epsilon 1 --samples bad.txt m.csv"), 1);
    ck_assert(strstr(out, "verdict: REJECT"));
    /* indices are accepted; an excluded candidate drawn is a support violation */
    put("x.csv", "a,0\nb,1\nc,-inf\n");
    put("d.txt", "0\n1\n1\n# comment\n\nb\n2\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt x.csv"), 1);
    ck_assert(strstr(out, "support: VIOLATION: 'c'"));
    /* bad draws: exit 2 naming the file and line */
    put("u.txt", "a\nb\nzzz\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples u.txt x.csv"), 2);
    ck_assert(strstr(errtxt, "u.txt:3: unknown label 'zzz'"));
    put("i.txt", "0\n7\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples i.txt x.csv"), 2);
    ck_assert(strstr(errtxt, "i.txt:2: index 7 out of range"));
    put("e.txt", "# nothing\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples e.txt x.csv"), 2);
    ck_assert_int_eq(run("$E check --epsilon 1 x.csv"), 2);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples - < x.csv"), 2);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt --alpha 2 x.csv"), 2);
}
END_TEST

START_TEST(compare_verdicts)
{
    ck_assert_int_eq(run("$E example marital > m.csv && $E probs --epsilon 1 --digits 40 m.csv | cut -d, -f2 > p.txt && "
                         "$E compare --epsilon 1 --probs p.txt m.csv"), 0);
    ck_assert(strstr(out, "verdict: PASS"));
    /* label,probability lines in another order */
    put("lp.txt", "Widowed,0.0008173613795643457\nNever-married,0.10388931391755686\nMarried-civ-spouse,0.8887589426578777\n"
                  "Divorced,0.0045874579316639\nMarried-spouse-absent,0.0006131326590775916\nSeparated,0.0008305443441184307\n"
                  "Married-AF-spouse,0.0005032471101411565\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs lp.txt m.csv"), 0);
    /* the seed's naive float computation on raw counts: NaN and zeros */
    put("naive.txt", "nan\nnan\nnan\n0.0\n0.0\n0.0\n0.0\n");
    ck_assert_int_eq(run("$E example marital-raw > r.csv && $E compare --epsilon 1 --probs naive.txt r.csv"), 1);
    ck_assert(strstr(out, "NaN: 3"));
    ck_assert(strstr(out, "underflow): 4"));
    ck_assert(strstr(out, "verdict: FAIL"));
    /* a 1% error fails; inf, negative fail */
    put("off.txt", "0.105\n0.8877\n0.0045874579316639\n0.0006131326590775916\n0.0008305443441184307\n0.0005032471101411565\n0.0008173613795643457\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs off.txt m.csv"), 1);
    ck_assert(strstr(out, "FAIL Never-married"));
    put("inf.txt", "inf\n-0.1\n0\n0\n0\n0\n0\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs inf.txt m.csv"), 1);
    ck_assert(strstr(out, "infinite: 1, negative: 1"));
    /* bad input: exit 2 */
    put("short.txt", "0.5\n0.5\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs short.txt m.csv"), 2);
    ck_assert(strstr(errtxt, "2 values for 7 candidates"));
    put("junk.txt", "0.5\nabc\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs junk.txt m.csv"), 2);
    ck_assert(strstr(errtxt, "junk.txt:2: bad probability 'abc'"));
    put("mixed.txt", "0.5\nDivorced,0.5\n");
    ck_assert_int_eq(run("$E compare --epsilon 1 --probs mixed.txt m.csv"), 2);
    ck_assert(strstr(errtxt, "mixed.txt:2: mixed"));
    ck_assert_int_eq(run("$E compare --epsilon 1 m.csv"), 2);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, help_lists_commands);
    tcase_add_test(tc, probs_marital);
    tcase_add_test(tc, probs_raw_and_json);
    tcase_add_test(tc, probs_usage_errors);
    tcase_add_test(tc, probs_parse_errors);
    tcase_add_test(tc, example_names);
    tcase_add_test(tc, sample_seeded);
    tcase_add_test(tc, check_pass_and_reject);
    tcase_add_test(tc, compare_verdicts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
