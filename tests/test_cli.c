/* test_cli.c: the expmech commands of the oracle (probs, sample, check, compare, example),
 * run as a program (build/expmech, or $EM_EXPMECH): outputs, exit codes, messages. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_cli_util.h"
#include "em_pf_brute.h"

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
    /* the monotone header permits --variant monotone but never switches the default:
     * standard, c = 1/2: P(b) = 1/(1 + e^-1/2) = 0.62246 */
    put("mono.csv", "# monotone: yes\na,0\nb,1\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 5 mono.csv"), 0);
    ck_assert_str_eq(out, "a,0.37754,-0.97408\nb,0.62246,-0.47408\n");
    ck_assert(strstr(errtxt, "variant standard (default), sensitivity 1 (default)"));
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 5 --variant monotone mono.csv"), 0);
    ck_assert_str_eq(out, "a,0.26894,-1.3133\nb,0.73106,-0.31326\n");
    ck_assert(strstr(errtxt, "variant monotone (option)"));
    /* the sensitivity header, and --sensitivity overriding it */
    put("sens.csv", "# sensitivity: 2\na,0\nb,2\n");
    ck_assert_int_eq(run("$E probs --epsilon 2 --digits 5 sens.csv"), 0);
    ck_assert_str_eq(out, "a,0.26894,-1.3133\nb,0.73106,-0.31326\n");
    /* --sensitivity below the header's proven bound: refused, nothing written; --force runs
     * it (c = 1: P(a) = 1/(1 + e^2) = 0.11920) and says so */
    ck_assert_int_eq(run("$E probs --epsilon 2 --digits 5 --sensitivity 1 sens.csv"), 2);
    ck_assert_str_eq(out, "");
    ck_assert(strstr(errtxt, "--sensitivity 1 is below the sensitivity 2 declared by sens.csv's header"));
    ck_assert_int_eq(run("$E probs --epsilon 2 --digits 5 --sensitivity 1 --force sens.csv"), 0);
    ck_assert_str_eq(out, "a,0.11920,-2.1269\nb,0.88080,-0.12693\n");
    ck_assert(strstr(errtxt, "sensitivity 1 (option; the header of sens.csv says 2); FORCED"));
    /* above the header: allowed (more noise is never less private) */
    ck_assert_int_eq(run("$E probs --epsilon 2 --digits 5 --sensitivity 4 sens.csv"), 0);
    ck_assert(strstr(errtxt, "variant standard (default), sensitivity 4 (option; the header of sens.csv says 2)\n"));
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

/* ------------------------------------------------------------- --variant pf */

START_TEST(probs_pf_marital)
{
    ck_assert_int_eq(run("$E example marital | $E probs --epsilon 1 --variant pf"), 0);
    /* regression: the correctly rounded values (both columns) */
    ck_assert_str_eq(out,
                     "Never-married,0.058285320103216459,-2.8424050165911691\n"
                     "Married-civ-spouse,0.93774603112810884,-0.064276122363824663\n"
                     "Divorced,0.0024777448505927019,-6.0004064669390440\n"
                     "Married-spouse-absent,0.00033067727960199296,-8.0143676442920196\n"
                     "Separated,0.00044796841791789517,-7.7107878237532129\n"
                     "Married-AF-spouse,0.00027140239587412265,-8.2119079827685624\n"
                     "Widowed,0.00044085582468798423,-7.7267926641152451\n");
    /* against the brute force over all 7! orders (as tests/test_pf.c), the sum, and the
     * log column against the probability column */
    static const double cnt[7] = {10683, 14976, 4443, 418, 1025, 23, 993};
    double p[7];
    for (int i = 0; i < 7; i++)
        p[i] = exp((cnt[i] - 14976) / 2000.0);
    long double B[7];
    pf_brute(7, p, B);
    const char *s = out;
    double sum = 0;
    for (int i = 0; i < 7; i++) {
        const char *c1 = strchr(s, ',');
        ck_assert(c1 != NULL);
        char *e;
        double P = strtod(c1 + 1, &e);
        ck_assert(*e == ',');
        double L = strtod(e + 1, &e);
        ck_assert(*e == '\n');
        s = e + 1;
        ck_assert_msg(fabsl(B[i] - P) <= 1e-13L * P, "cell %d: brute %Lg vs %g", i, B[i], P);
        ck_assert_msg(fabs(log(P) - L) <= 4e-16 * fabs(L), "cell %d: log %g vs %g", i, log(P), L);
        sum += P;
    }
    ck_assert_msg(fabs(sum - 1) <= 1e-15, "sum - 1 = %g", sum - 1);
    /* JSON names the variant; 40 digits agree with the 17 */
    ck_assert_int_eq(run("$E example marital | $E probs --epsilon 1 --variant=pf --digits 40 --format json"), 0);
    ck_assert(strstr(out, "\"variant\": \"pf\""));
    ck_assert(strstr(out, "\"probability\": \"0.9377460311281088436894782961858509181299\", "
                          "\"log_probability\": \"-0.06427612236382466333625103022908601250575\""));
    /* far tails and a probability below 1 that rounds to 1: K nines, a note, and the
     * log-probability carries the distance (1 - P is about P(Never-married)) */
    ck_assert_int_eq(run("$E example marital-raw | $E probs --epsilon 1 --variant pf"), 0);
    ck_assert(strstr(out, "Never-married,3.0610089470754886e-933,-2147.1931471805599\n"));
    ck_assert(strstr(out, "Married-civ-spouse,0.99999999999999999,-3.0610089470754886e-933\n"));
    ck_assert(strstr(out, "Married-AF-spouse,4.9690807542615628e-3248,-7477.1931471805599\n"));
    ck_assert(strstr(errtxt, "note: 1 probability below 1 rounds to 1"));
    /* ties with an excluded candidate: 1/4 each; the only candidate: exactly 1 */
    put("t.csv", "a,1\nb,1\nc,-inf\nd,1\ne,1\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant pf --digits 5 t.csv"), 0);
    ck_assert_str_eq(out, "a,0.25000,-1.3863\nb,0.25000,-1.3863\nc,0,-inf\nd,0.25000,-1.3863\ne,0.25000,-1.3863\n");
    put("one.csv", "a,1\nb,-inf\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant pf one.csv"), 0);
    ck_assert_str_eq(out, "a,1,0\nb,0,-inf\n");
    /* the --help texts mention pf */
    const char *cmds[] = {"probs", "sample", "check", "compare"};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(run("$E %s --help", cmds[i]), 0);
        ck_assert_msg(strstr(out, "pf") != NULL, "%s --help lacks pf", cmds[i]);
    }
}
END_TEST

/* check --variant pf: draws of `sample --variant pf` pass; draws of the exponential
 * mechanism are rejected.  Separation on the marital example (epsilon 1): the
 * probabilities differ strongly (Never-married 0.1039 under EM, 0.0583 under PF), so
 * KL(EM || PF) = 0.0169 and the G statistic of N = 10^5 EM draws against PF is about
 * 2 N KL = 3.4e3 (standard deviation about sqrt(4 * 3.4e3) = 1.2e2) against a critical
 * value of 36 at alpha = 1e-6 with df = 6: rejection is certain, for any seed. */
START_TEST(check_pf)
{
    ck_assert_int_eq(run("$E example marital > m.csv && $E sample --epsilon 1 --variant pf -n 100000 --seed 5 m.csv > pf.txt && "
                         "$E check --epsilon 1 --variant pf --samples pf.txt m.csv"), 0);
    ck_assert(strstr(out, "verdict: PASS"));
    ck_assert(strstr(out, "5828.53")); /* expected Never-married count: N P_pf */
    ck_assert_int_eq(run("$E example marital > m.csv && $E sample --epsilon 1 -n 100000 --seed 6 m.csv > em.txt && "
                         "$E check --epsilon 1 --variant pf --samples em.txt m.csv"), 1);
    ck_assert(strstr(out, "verdict: REJECT"));
    /* and the other way round: PF draws are not the exponential mechanism's */
    ck_assert_int_eq(run("$E check --epsilon 1 --samples pf.txt m.csv"), 1);
    ck_assert(strstr(out, "verdict: REJECT"));
}
END_TEST

START_TEST(compare_pf)
{
    ck_assert_int_eq(run("$E example marital > m.csv && $E probs --epsilon 1 --variant pf --digits 40 m.csv | cut -d, -f2 > p.txt && "
                         "$E compare --epsilon 1 --variant pf --probs p.txt m.csv"), 0);
    ck_assert(strstr(out, "verdict: PASS"));
    ck_assert(strstr(out, "max absolute error: 0 "));
    /* the exponential mechanism's probabilities are not permute-and-flip's */
    ck_assert_int_eq(run("$E probs --epsilon 1 --digits 40 m.csv | cut -d, -f2 > e.txt && "
                         "$E compare --epsilon 1 --variant pf --probs e.txt m.csv"), 1);
    ck_assert(strstr(out, "verdict: FAIL: 7 of 7"));
    /* a value below 1 that rounds to 1 at 40 digits is judged at its true distance */
    ck_assert_int_eq(run("$E example marital-raw > r.csv && $E probs --epsilon 1 --variant pf --digits 40 r.csv 2>/dev/null | cut -d, -f2 > r.txt && "
                         "$E compare --epsilon 1 --variant pf --probs r.txt r.csv"), 0);
    ck_assert(strstr(out, "verdict: PASS"));
}
END_TEST

/* Utilities 1e300, 0, -1e300: permute-and-flip's probabilities lie below MPFR's range and
 * are printed from their logarithms, as the exponential mechanism's are (its tails are
 * twice PF's here: P(b) = exp(-5e299) / 2 against exp(-5e299) / (1 + ...)); check judges
 * against them; the utility report's sums below the range come from logarithms too */
START_TEST(pf_extreme)
{
    put("x.csv", "a,1e300\nb,0\nc,-1e300\n");
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant pf x.csv"), 0);
    ck_assert(!strncmp(out, "a,0.99999999999999999,-6.7789306057237929e-2171472409516259138", 62));
    ck_assert(strstr(out, "\nb,6.7789306057237929e-2171472409516259138"));
    ck_assert(strstr(out, ",-5.0000000000000000e+299\nc,9.1907800314437499e-4342944819032518276"));
    ck_assert(strstr(errtxt, "3 value(s) lie below MPFR's exponent range"));
    ck_assert_int_eq(run("$E probs --epsilon 1 x.csv | cut -c1-60"), 0);
    ck_assert(strstr(out, "\nb,1.3557861211447586e-2171472409516259138")); /* 2 x 6.7789 */
    put("d.txt", "a\na\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --variant pf --samples d.txt x.csv"), 0);
    ck_assert(strstr(out, "verdict: PASS"));
    /* the utility report: the loss 1e300 P(b) (+ 2e300 P(c)) from logarithms (test_pf.c
     * checks every digit), P(best) = 1 - P(b) - P(c) as nines */
    ck_assert_int_eq(run("$E utility --epsilon 1 --variant pf x.csv"), 0);
    ck_assert_msg(!strncmp(out, "epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,"
                                "expected_loss_bound\n1,1.0000000000000000e+300,"
                                "1.0000000000000000e+300,6.7789306057237929e-2171472409516259138",
                           167), "%s", out);
    ck_assert(strstr(out, "670,2.6036379559615797e-10857362047581295691"));
    ck_assert(strstr(out, ",0.99999999999999999,4.1972245773362194\n"));
}
END_TEST

START_TEST(pf_bad)
{
    /* past the brute force's 4096 candidates (the law at scale has no limit of its own):
     * 4097 ties, each exactly 1/4097 (Python's decimal: 0.000244081034903587991...,
     * ln 4097 = 8.31801027754687107...) */
    ck_assert_int_eq(run("seq 0 4096 | sed 's/.*/c&,0/' > big.csv && echo c0 > d.txt && echo 0 > q.txt && true"), 0);
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant pf big.csv | tail -n 1"), 0);
    ck_assert_str_eq(out, "c4096,0.00024408103490358799,-8.3180102775468711\n");
    /* one draw is too few to judge (exit 4), not a refusal; one value for 4097 candidates
     * is a usage error */
    ck_assert_int_eq(run("$E check --epsilon 1 --variant pf --samples d.txt big.csv"), 4);
    ck_assert_int_eq(run("$E compare --epsilon 1 --variant pf --probs q.txt big.csv"), 2);
    ck_assert_msg(strstr(errtxt, "1 values for 4097 candidates"), "%s", errtxt);
    /* pf has no float sampler; an unknown variant names the three */
    put("x.csv", "a,0\nb,1\n");
    ck_assert_int_eq(run("$E sample --epsilon 1 --variant pf --sampler float x.csv"), 2);
    ck_assert(strstr(errtxt, "only the exact sampler"));
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant PF x.csv"), 2);
    ck_assert(strstr(errtxt, "'pf'"));
    ck_assert_int_eq(run("$E probs --epsilon 1 --variant pf --variant pf x.csv"), 2);
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
    tcase_add_test(tc, probs_pf_marital);
    tcase_add_test(tc, check_pf);
    tcase_add_test(tc, compare_pf);
    tcase_add_test(tc, pf_bad);
    tcase_add_test(tc, pf_extreme);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
