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

/* Inputs past the sizes where the parser changes course, at a fraction of the cost of the
   10^6-candidate runs above (make valgrind chooses its runs by the edges they reach, and
   these reach the parser's large-input edges cheaply): 400 001 lines (3.9 MB), which take
   the label arena past its largest block, hold labels whose hash bits collide (about five
   pairs among 400 000) and a duplicate found at the end; and a scenario text over 1 MiB
   read from memory (the scoring's own output, as every `expmech score` reads it). */
START_TEST(large_inputs)
{
    ck_assert_int_eq(run("(seq 0 399999 | sed 's/.*/c&,1/;$a c17,2' >big.txt)"), 0);
    ck_assert_int_eq(run("$E probs --epsilon 1 big.txt"), 2);
    ck_assert_msg(strstr(errtxt, "big.txt:400001: duplicate label 'c17' (first on line 18)"), "%s",
                  errtxt);
    put("d.txt", "3\n5\n5\n");
    ck_assert_int_eq(run("$E score count --data d.txt --candidates 0:130000 | sed -n '10p;$p'"), 0);
    ck_assert_str_eq(out, "5,2\n130000,0\n");
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
    /* without --candidates: refused (the distinct values leak which values occur); the
       explicit --candidates-from-data takes them, with a warning */
    ck_assert_int_eq(run("$E score count --data socks.txt"), 2);
    ck_assert(strstr(errtxt, "--candidates is required") && out[0] == 0);
    ck_assert_int_eq(run("$E score count --data socks.txt --candidates-from-data"), 0);
    ck_assert(strstr(errtxt, "warning") && strstr(errtxt, "not differentially private"));
    ck_assert(has_line(out, "Violent,10"));
    ck_assert_int_eq(run("$E score frequency --data socks.txt --candidates-from-data --neighbours add-remove"), 0);
    ck_assert(has_line(out, "# sensitivity: 1") && has_line(out, "Violent,0.1"));
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

/* Scores over a range: the continuous scenarios of the seeds, end to end. */
START_TEST(range_seeds)
{
    put("bids.txt", "1\n1\n1\n3.01\n");
    ck_assert_int_eq(run("$E score revenue --data bids.txt --range 0:3.5 | grep -v '^# [en0-9]'"), 0);
    ck_assert_str_eq(out, "# output: continuous\n# sensitivity: 3.5\n# monotone: yes\n"
                          "0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n");
    /* README's numbers (the standard weight of the seed; '# monotone: yes' only says the
       monotone one would be valid too) */
    ck_assert_int_eq(run("$E score revenue --data bids.txt --range 0:3.5 | $E probs --epsilon 1 --variant standard"), 0);
    ck_assert_str_eq(out, "0,1,0.29811469928128105,-1.2102769696134990\n"
                          "1,3.01,0.59359175840237769,-0.52156347131838076\n"
                          "3.01,3.5,0.10829354231634125,-2.2229097544876106\n");
    ck_assert_int_eq(run("$E score revenue --data bids.txt --range 0:3.5 | $E cdf --variant standard --epsilon 1 --between 0.99:1"), 0);
    ck_assert(strstr(out, "0.0039024244564941443"));
    /* a bid at the range's end, bids outside it, substitution: no monotone header */
    put("b2.txt", "0\n-2\n3.5\n7\n2\n");
    ck_assert_int_eq(run("$E score revenue --data b2.txt --range 0:3.5 --neighbours substitution | grep -v '^# [en0-9]'"), 0);
    ck_assert_str_eq(out, "# output: continuous\n# sensitivity: 3.5\n0,2,0,3\n2,3.5,0,2\n");

    put("a.txt", "1\n100\n102\n104\n105\n200\n365\n");
    ck_assert_int_eq(run("$E score median --data a.txt --range 0:400 | grep -v '^# [en0-9]'"), 0);
    ck_assert_str_eq(out, "# output: continuous\n# sensitivity: 2\n0,1,-8,0\n1,100,-6,0\n100,102,-4,0\n"
                          "102,104,-2,0\n104,105,-2,0\n105,200,-4,0\n200,365,-6,0\n365,400,-8,0\n");
    ck_assert_int_eq(run("$E score median --data a.txt --range 0:400 | $E cdf --epsilon 1 --between 102:105"), 0);
    ck_assert_msg(strstr(out, "0.017965542209326918"), "%s", out);
    ck_assert_int_eq(run("$E score median --data a.txt --range 0:400 | $E quantile --epsilon 1 --at 0.5"), 0);
    ck_assert_str_eq(out, "0.5,175.29638036438123\n");
    /* the order is all that matters: the same pieces from shuffled decimals */
    put("a2.txt", "365\n1e2\n102\n104.0\n105\n200\n1\n");
    ck_assert_int_eq(run("$E score median --data a2.txt --range 0:400 | grep -v '^#'"), 0);
    ck_assert(has_line(out, "100,102,-4,0") && has_line(out, "365,400,-8,0"));

    /* Laplace over the whole line: the Laplace(3.5, 2) CDF */
    ck_assert_int_eq(run("$E score laplace --f 3.5 --range -inf:inf | grep -v '^# [entf0-9]'"), 0);
    ck_assert_str_eq(out, "# output: continuous\n# sensitivity: 1\n-inf,3.5,-3.5,1\n3.5,inf,3.5,-1\n");
    ck_assert_int_eq(run("$E score laplace --f 3.5 --range -inf:inf | $E cdf --epsilon 1 --at 0,3.5,5"), 0);
    /* 0.5 exp(-1.75) and 1 - 0.5 exp(-0.75), correctly rounded to 17 digits */
    ck_assert_msg(has_line(out, "0,0.086886971725222563") && has_line(out, "3.5,0.50000000000000000") &&
                  has_line(out, "5,0.76381672362949265"), "%s", out);
    ck_assert_int_eq(run("$E score laplace --data bids.txt --delta-f 2 --range 0:10 | grep -v '^#'"), 0);
    ck_assert_str_eq(out, "0,4,-4,1\n4,10,4,-1\n");
    ck_assert_int_eq(run("$E score laplace --f 1/3 --range 1:inf | grep -v '^#'"), 0);
    ck_assert_str_eq(out, "1,inf,1/3,-1\n");
}
END_TEST

START_TEST(range_quantile_conventions)
{
    put("a.txt", "1\n100\n102\n104\n105\n200\n365\n");
    ck_assert_int_eq(run("$E score quantile --alpha 1/4 --data a.txt --range 0:400 | grep -v '^# [en0-9]'"), 0);
    /* -|(3/4) i - (1/4)(7 - i)| = -|i - 7/4| between rows */
    ck_assert_str_eq(out, "# output: continuous\n# sensitivity: 0.75\n0,1,-1.75,0\n1,100,-0.75,0\n"
                          "100,102,-0.25,0\n102,104,-1.25,0\n104,105,-2.25,0\n105,200,-3.25,0\n"
                          "200,365,-4.25,0\n365,400,-5.25,0\n");
    /* diffprivlib: the same pieces, its Delta 1 */
    ck_assert_int_eq(run("$E score quantile --alpha 1/4 --convention diffprivlib --data a.txt --range 0:400 | grep -v '^# [en0-9]'"), 0);
    ck_assert(has_line(out, "# sensitivity: 1") && has_line(out, "100,102,-0.25,0"));
    ck_assert(strstr(out, "105,200,-3.25,0"));
    ck_assert_int_eq(run("$E score median --convention diffprivlib --data a.txt --range 0:400 | grep -v '^# [en0-9]'"), 0);
    ck_assert_str_eq(out, "# output: continuous\n# sensitivity: 1\n0,1,-3.5,0\n1,100,-2.5,0\n"
                          "100,102,-1.5,0\n102,104,-0.5,0\n104,105,-0.5,0\n105,200,-1.5,0\n"
                          "200,365,-2.5,0\n365,400,-3.5,0\n");
    ck_assert_int_eq(run("$E score quantile --alpha 1/4 --neighbours substitution --data a.txt --range 0:400"), 0);
    ck_assert(has_line(out, "# sensitivity: 1"));
}
END_TEST

START_TEST(csv_column)
{
    put("t.csv", "id,\"bid, in $\",name\n1,1,a\n2,\"1\",\"b, \"\"c\"\"\"\n3,1,d\n4,3.01,e\n");
    ck_assert_int_eq(run("$E score revenue --data t.csv --column 'bid, in $' --range 0:3.5 | grep -v '^#'"), 0);
    ck_assert_str_eq(out, "0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n");
    put("c.txt", "a\nb, \"c\"\nd\ne\nz\n");
    ck_assert_int_eq(run("$E score count --data t.csv --column name --candidates c.txt | grep -v '^#'"), 0);
    ck_assert_str_eq(out, "a,1\n\"b, \"\"c\"\"\",1\nd,1\ne,1\nz,0\n");
    put("r.csv", "x,y\n1,2\n3\n");
    ck_assert_int_eq(run("$E score median --data r.csv --column y --range 0:5"), 2);
    ck_assert_msg(strstr(errtxt, "r.csv:3:") && strstr(errtxt, "1 field, the header has 2"), "%s", errtxt);
    ck_assert(out[0] == 0);
    ck_assert_int_eq(run("$E score median --data r.csv --column z --range 0:5"), 2);
    ck_assert(strstr(errtxt, "r.csv:1:") && strstr(errtxt, "no column 'z'") && out[0] == 0);
    put("q.csv", "x\n\"1\n");
    ck_assert_int_eq(run("$E score median --data q.csv --column x --range 0:5"), 2);
    ck_assert(strstr(errtxt, "q.csv:2:") && strstr(errtxt, "quoting") && out[0] == 0);
    put("e.csv", "x,y\n1,\n");
    ck_assert_int_eq(run("$E score median --data e.csv --column y --range 0:5"), 2);
    ck_assert(strstr(errtxt, "e.csv:2:") && strstr(errtxt, "empty value") && out[0] == 0);
    put("n.csv", "x\nabc\n");
    ck_assert_int_eq(run("$E score median --data n.csv --column x --range 0:5"), 2);
    ck_assert(strstr(errtxt, "n.csv:2:") && strstr(errtxt, "not an exact number") && out[0] == 0);
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
        {"$E score frequency --data empty.txt --candidates c.txt", "no data rows"},
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
        {"$E score count --data socks.txt", "--candidates is required"},
        {"$E score count --data socks.txt --candidates c.txt --candidates-from-data", "not both"},
        {"$E score median --data a.txt --candidates-from-data --range 0:4", "does not apply"},
        {"$E score median --data a.txt --range 4:4", "LO must be < HI"},
        {"$E score median --data a.txt --range 5:1", "LO must be < HI"},
        {"$E score median --data a.txt --range 0", "expected LO:HI"},
        {"$E score median --data a.txt --range 0:x", "HI is not an exact number"},
        {"$E score median --data a.txt --range -inf:4", "only laplace"},
        {"$E score revenue --data a.txt --range 0:inf", "only laplace"},
        {"$E score revenue --data a.txt --range -1:4", "0 <= LO"},
        {"$E score revenue --data a.txt --range 0:4 --p-max 4", "p_max is HI"},
        {"$E score revenue --data a.txt --range 0:4 --candidates 0:4", "not both"},
        {"$E score revenue --data empty.txt --range 0:4", "no data rows"},
        {"$E score revenue --data socks.txt --range 0:4", "socks.txt:1: 'Violent' is not an exact number"},
        {"$E score median --data a.txt --range 0:4 --convention other", "rank-distance or diffprivlib"},
        {"$E score revenue --data a.txt --range 0:4 --convention diffprivlib", "does not apply"},
        {"$E score median --data a.txt --candidates 0:4 --convention diffprivlib", "applies to --range"},
        {"$E score count --data socks.txt --range 0:4", "does not apply"},
        {"$E score laplace --f 1 --range inf:4", "LO is not an exact number"},
        {"$E score laplace --f 1 --range 0:-inf", "HI is not an exact number"},
        {"$E score laplace --f 1 --range 1e30:1e31", "too large"},
        {"$E score median --column x --range 0:4", "--data FILE is required"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run("%s", cases[i].args);
        ck_assert_msg(rc == 2, "%s: exit %d", cases[i].args, rc);
        ck_assert_msg(strstr(errtxt, cases[i].msg) != NULL, "%s: message '%s'", cases[i].args, errtxt);
        ck_assert_msg(out[0] == 0, "%s: wrote output", cases[i].args);
    }
    ck_assert_int_eq(run("$E score --help"), 0);
    ck_assert(strstr(out, "usage: expmech score"));
    ck_assert(strstr(out, "--range LO:HI") && strstr(out, "--candidates-from-data") && strstr(out, "--column NAME"));
    ck_assert(strstr(out, "1 (add-remove)")); /* frequency under add/remove is accepted */
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
    tcase_add_test(tc, large_inputs);
    tcase_add_test(tc, counts_socks_occupations);
    tcase_add_test(tc, revenue_rr_laplace_quantile);
    tcase_add_test(tc, range_seeds);
    tcase_add_test(tc, range_quantile_conventions);
    tcase_add_test(tc, csv_column);
    tcase_add_test(tc, bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
