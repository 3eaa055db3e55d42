/* test_score_cli.c: `expmech score` run as a program (build/expmech, or $EM_EXPMECH): the
 * seed numbers through the command line, the headers, the pipe into `probs`, and the
 * messages and exit status 2 on bad input. */
#include "em_check_main.h"
#define EM_CLI_OUT_SIZE (1 << 20) /* the score lists are long */
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_score_XXXXXX");
}

static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
        if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == 0))
            return 1;
    return 0;
}

START_TEST(median_seed_and_pipe)
{
    put("a.txt", "1\n100\n102\n104\n105\n200\n365\n");
    ck_assert_int_eq(run("$E score median --data a.txt --candidates 0:400"), 0);
    ck_assert(has_line(out, "# sensitivity: 2"));
    ck_assert(!strstr(out, "# monotone:"));
    ck_assert(has_line(out, "104,0"));
    ck_assert(has_line(out, "102,-2") && has_line(out, "103,-2") && has_line(out, "105,-2"));
    ck_assert(has_line(out, "100,-4") && has_line(out, "101,-4"));
    /* the pipe: weights exp(eps u / 4), so 104 is e^(1/2) times as likely as 102 */
    ck_assert_int_eq(run("$E score median --data a.txt --candidates 0:400 | $E probs --epsilon 1 --digits 6"), 0);
    ck_assert_msg(has_line(out, "104,0.00977686,-4.62774"), "%.300s", strstr(out, "104,"));
    ck_assert(has_line(out, "102,0.00592997,-5.12774"));
    /* decimals are fine: only the order matters */
    put("d.txt", "0.5\n1.5\n2.5\n");
    ck_assert_int_eq(run("$E score median --data d.txt --candidates 0:3:0.5"), 0);
    ck_assert(has_line(out, "1.5,0") && has_line(out, "1,-2") && has_line(out, "0,-4"));
}
END_TEST

START_TEST(median_worst_case)
{
    put("w.txt", "0\n0\n0\n0\n1000000\n1000000\n1000000\n");
    ck_assert_int_eq(run("$E score median --data w.txt --candidates 0:1000000 | grep -c ',-2$'"), 0);
    ck_assert_str_eq(out, "1000000\n");
    ck_assert_int_eq(run("$E score median --data w.txt --candidates 0:1000000 | grep -c ',0$'"), 0);
    ck_assert_str_eq(out, "1\n");
}
END_TEST

START_TEST(counts_socks_occupations)
{
    char socks[2000] = "";
    for (int i = 0; i < 100; i++)
        strcat(socks, i < 10 ? "Violent\n" : "NonViolent\n");
    put("socks.txt", socks);
    put("c.txt", "Violent\nNonViolent\n");
    ck_assert_int_eq(run("$E score frequency --data socks.txt --candidates c.txt"), 0);
    ck_assert(has_line(out, "# sensitivity: 0.01"));
    ck_assert(has_line(out, "Violent,0.1") && has_line(out, "NonViolent,0.9"));
    ck_assert(strstr(out, "substitute one row"));
    ck_assert_int_eq(run("$E score frequency --data socks.txt --candidates c.txt | $E probs --epsilon 1 --digits 5"), 0);
    ck_assert(has_line(out, "Violent,4.2484e-18,-40.000"));
    ck_assert_int_eq(run("$E score count --data socks.txt --candidates c.txt"), 0);
    ck_assert(has_line(out, "# sensitivity: 1") && has_line(out, "# monotone: yes"));
    ck_assert(has_line(out, "Violent,10") && has_line(out, "NonViolent,90"));
    ck_assert_int_eq(run("$E score count --data socks.txt --candidates c.txt --neighbours substitution"), 0);
    ck_assert(has_line(out, "# sensitivity: 1") && !strstr(out, "# monotone"));
    /* without --candidates: the distinct values, with a note */
    ck_assert_int_eq(run("$E score count --data socks.txt"), 0);
    ck_assert(strstr(errtxt, "not private"));
    ck_assert(has_line(out, "Violent,10"));
    /* max-normalised count of the occupations (seed 004, two categories scaled down) */
    put("occ.txt", "Sales\nSales\nSales\nArmed-Forces\n");
    put("oc.txt", "Sales\nArmed-Forces\nBaby\n");
    ck_assert_int_eq(run("$E score maxnorm --data occ.txt --candidates oc.txt"), 0);
    ck_assert(has_line(out, "Sales,1") && has_line(out, "Armed-Forces,1/3") && has_line(out, "Baby,0"));
    ck_assert(has_line(out, "# sensitivity: 1") && has_line(out, "# monotone: yes"));
}
END_TEST

START_TEST(revenue_rr_laplace_quantile)
{
    put("bids.txt", "1\n1\n1\n3.01\n");
    ck_assert_int_eq(run("$E score revenue --data bids.txt --candidates 0:3.499:0.001"), 0);
    ck_assert(has_line(out, "# sensitivity: 3.499") && has_line(out, "# monotone: yes"));
    ck_assert(has_line(out, "1,4") && has_line(out, "3,3") && has_line(out, "3.01,3.01"));
    ck_assert(has_line(out, "3.011,0") && has_line(out, "0.999,3.996"));
    ck_assert_int_eq(run("$E score revenue --data bids.txt --candidates 0:3.5:0.5 --p-max 3.5"), 0);
    ck_assert(has_line(out, "# sensitivity: 3.5") && has_line(out, "1,4") && has_line(out, "3,3"));
    ck_assert_int_eq(run("$E score rr --x 1"), 0);
    ck_assert(has_line(out, "# sensitivity: 0.5") && has_line(out, "# monotone: yes"));
    ck_assert(has_line(out, "0,0") && has_line(out, "1,0.25"));
    put("bit.txt", "0\n");
    ck_assert_int_eq(run("$E score rr --data bit.txt --beta -1/3 --gamma 1/6"), 0);
    ck_assert(has_line(out, "1,-1/3") && has_line(out, "# sensitivity: 0.5"));
    ck_assert_int_eq(run("$E score laplace --f 3.5 --candidates -20:20:0.5"), 0);
    ck_assert(has_line(out, "3.5,0") && has_line(out, "-20,-23.5") && has_line(out, "# sensitivity: 1"));
    ck_assert_int_eq(run("$E score laplace --data bids.txt --delta-f 2 --candidates 0:8"), 0);
    ck_assert(has_line(out, "4,0") && has_line(out, "0,-4") && has_line(out, "# sensitivity: 2"));
    put("a.txt", "1\n100\n102\n104\n105\n200\n365\n");
    ck_assert_int_eq(run("$E score quantile --data a.txt --candidates 100:106 --alpha 1/4"), 0);
    ck_assert(has_line(out, "# sensitivity: 0.75") && has_line(out, "101,-0.25"));
    ck_assert_int_eq(run("$E score quantile --data a.txt --candidates 100:106 --alpha 0.5 --neighbours substitution"), 0);
    ck_assert(has_line(out, "# sensitivity: 1") && has_line(out, "104,0") && has_line(out, "103,-0.5"));
}
END_TEST

START_TEST(bad_inputs)
{
    put("a.txt", "1\n100\n102\n");
    put("empty.txt", "# only a comment\n\n");
    put("socks.txt", "Violent\nBlue\n");
    put("c.txt", "Violent\nNonViolent\n");
    struct { const char *args, *msg; } cases[] = {
        {"$E score median --data empty.txt --candidates 0:4", "no data rows"},
        {"$E score frequency --data empty.txt", "no data rows"},
        {"$E score count --data socks.txt --candidates c.txt", "'Blue' is not one of the candidates"},
        {"$E score revenue --data a.txt --candidates 0:3 --p-max 0", "p_max must be > 0"},
        {"$E score revenue --data a.txt --candidates -1:3", "outside [0, p_max]"},
        {"$E score revenue --data a.txt --candidates 0:3 --p-max 2", "outside [0, p_max]"},
        {"$E score quantile --data a.txt --candidates 0:4 --alpha 1", "strictly between 0 and 1"},
        {"$E score quantile --data a.txt --candidates 0:4 --alpha -0.5", "strictly between 0 and 1"},
        {"$E score quantile --data a.txt --candidates 0:4", "--alpha is required"},
        {"$E score rr --x 2", "must be 0 or 1"},
        {"$E score rr --data a.txt", "exactly one row"},
        {"$E score rr --x 1 --neighbours add-remove", "only --neighbours substitution"},
        {"$E score median --data a.txt", "--candidates is required"},
        {"$E score median --data socks.txt --candidates 0:3", "not an exact number"},
        {"$E score median --data a.txt --candidates 5:1", "empty"},
        {"$E score median --data a.txt --candidates 0:4:0", "step must be > 0"},
        {"$E score mode --data a.txt", "unknown scoring function"},
        {"$E score count --data a.txt --alpha 1/2", "does not apply"},
        {"$E score median --candidates 0:4", "--data FILE is required"},
        {"$E score median --data missing.txt --candidates 0:4", "cannot open"},
        {"$E score laplace --candidates 0:4", "--f F"},
        {"$E score laplace --f 1 --delta-f 0 --candidates 0:4", "must be > 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run("%s", cases[i].args);
        ck_assert_msg(rc == 2, "%s: exit %d", cases[i].args, rc);
        ck_assert_msg(strstr(errtxt, cases[i].msg) != NULL, "%s: message '%s'", cases[i].args, errtxt);
        ck_assert_msg(out[0] == 0, "%s: wrote output", cases[i].args);
    }
    ck_assert_int_eq(run("$E score --help"), 0);
    ck_assert(strstr(out, "usage: expmech score"));
    ck_assert_int_eq(run("$E --help"), 0);
    ck_assert(strstr(out, "score FUNCTION"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("score_cli");
    TCase *tc = tcase_create("score_cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, median_seed_and_pipe);
    tcase_add_test(tc, median_worst_case);
    tcase_add_test(tc, counts_socks_occupations);
    tcase_add_test(tc, revenue_rr_laplace_quantile);
    tcase_add_test(tc, bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
