/* test_score_aggregated.c: `expmech score --aggregated` (lines `value,count`, a GROUP BY's
 * output) gives byte for byte the scenario of the rows themselves, on several datasets and
 * every function that takes it; bad aggregate lines exit 2 with a message naming the line
 * and nothing on standard output; and the SQLite pipeline of examples/sqlite runs. */
#include "em_check_main.h"
#define EM_CLI_OUT_SIZE (1 << 20)
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_scoreagg_XXXXXX");
}

/* The aggregate of a one-value-per-line file, made by the shell (not by expmech): one line
   'value,count' per distinct value, in sorted order, as GROUP BY prints it. */
#define AGGREGATE(in, outname) \
    "grep -v '^$' " in " | sort | uniq -c | awk '{print $2 \",\" $1 > \"" outname "\"}'"

/* expmech score ARGS on the rows file and on its aggregate: both succeed, same bytes (the
   braces keep run()'s own redirection of standard output off the command's). */
static void same_scenario(const char *rows, const char *args)
{
    ck_assert_int_eq(run(AGGREGATE("%s", "agg.txt"), rows), 0);
    ck_assert_int_eq(run("{ $E score %s --data %s > r.out; }", args, rows), 0);
    ck_assert_msg(run("{ $E score %s --data agg.txt --aggregated > a.out; }", args) == 0, "%s: %s", args,
                  errtxt);
    ck_assert_msg(run("cmp r.out a.out") == 0, "%s: the aggregated scenario differs", args);
    ck_assert_int_eq(run("grep -c '^# sensitivity: ' a.out"), 0); /* a real scenario */
    ck_assert_str_eq(out, "1\n");
}

/* Every function that takes --aggregated, categorical and numeric, each on a dataset of
   its kind. */
START_TEST(same_bytes)
{
    put("cat.txt", "b\na\nb\nc\nb\na\n");
    put("cands.txt", "a\nb\nc\nd\n");
    /* numbers as categories: "3.0" and "3" are separate lines of the aggregate and both
       count for the candidate 3, as the rows do */
    put("n.txt", "3\n3.0\n1\n3\n2.50\n");
    put("a.txt", "1\n100\n102\n104\n105\n200\n365\n104\n104\n1/3\n0.5\n200\n");
    put("bids.txt", "1\n3.01\n1\n1\n0.5\n2\n2\n7\n");
    static const char *const cases[][2] = {
        {"cat.txt", "count --candidates cands.txt"},
        {"cat.txt", "count --candidates cands.txt --neighbours substitution"},
        {"cat.txt", "frequency --candidates cands.txt"},
        {"cat.txt", "frequency --candidates cands.txt --neighbours add-remove"},
        {"cat.txt", "maxnorm --candidates cands.txt"},
        {"cat.txt", "maxnorm --candidates cands.txt --neighbours substitution"},
        {"n.txt", "count --candidates 0:4:0.5"},
        {"n.txt", "frequency --candidates 0:4:0.5"},
        {"a.txt", "median --candidates 0:400:5"},
        {"a.txt", "median --candidates 0:400:5 --neighbours substitution"},
        {"a.txt", "quantile --candidates 0:400:5 --alpha 0.3"},
        {"a.txt", "quantile --candidates 0:400:5 --alpha 2/3 --neighbours substitution"},
        {"a.txt", "median --range 0:400"},
        {"a.txt", "median --range 50:150 --convention diffprivlib"},
        {"a.txt", "quantile --range 0:400 --alpha 1/4"},
        {"a.txt", "quantile --range -10:1000 --alpha 0.9 --convention diffprivlib"},
        {"a.txt", "laplace --candidates 0:20"},
        {"a.txt", "laplace --range -inf:inf --delta-f 2"},
        {"bids.txt", "revenue --candidates 0:3.5:0.25"},
        {"bids.txt", "revenue --candidates 0:3:0.5 --p-max 4 --neighbours substitution"},
        {"bids.txt", "revenue --range 0:3.5"},
        {"bids.txt", "revenue --range 0.75:3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        same_scenario(cases[i][0], cases[i][1]);
}
END_TEST

/* A larger dataset from a fixed generator: 3000 rows over 40 values. */
START_TEST(larger_dataset)
{
    static char rows[3000 * 8];
    char *p = rows;
    uint32_t x = 12345;
    for (int i = 0; i < 3000; i++) {
        x = x * 1103515245u + 12345u;
        p += sprintf(p, "%u\n", (x >> 16) % 40 + (x >> 8) % 3);
    }
    put("big.txt", rows);
    same_scenario("big.txt", "count --candidates 0:45");
    same_scenario("big.txt", "maxnorm --candidates 0:45");
    same_scenario("big.txt", "median --candidates 0:45");
    same_scenario("big.txt", "quantile --range 0:45 --alpha 0.1");
    same_scenario("big.txt", "revenue --range 0:45");
}
END_TEST

/* Lines with count 0 stand for no rows; the header line says how many rows the counts
   add up to. */
START_TEST(zero_counts_and_rows)
{
    put("agg.txt", "a,2\nz,0\nb,5\n");
    ck_assert_int_eq(run("$E score count --data agg.txt --aggregated --candidates-from-data"), 0);
    ck_assert_msg(strstr(out, "; 7 rows, 2 candidates\n") != NULL, "%s", out);
    ck_assert(strstr(out, "\na,2\nb,5\n") != NULL && !strstr(out, "z,"));
    ck_assert(strstr(errtxt, "warning: --candidates-from-data") != NULL);
    put("zero.txt", "a,0\n");
    ck_assert_int_eq(run("$E score count --data zero.txt --aggregated --candidates-from-data"), 2);
    ck_assert_str_eq(errtxt, "expmech score: --data zero.txt: no data rows\n");
    /* frequency's Delta 1/n uses the total of the counts */
    put("f.txt", "x,3\ny,1\n");
    ck_assert_int_eq(run("$E score frequency --data f.txt --aggregated --candidates-from-data"), 0);
    ck_assert(strstr(out, "# sensitivity: 0.25\n") && strstr(out, "\nx,0.75\ny,0.25\n"));
}
END_TEST

START_TEST(bad_aggregate_lines)
{
    put("c.txt", "a\nb\n");
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"v,COUNT(*)\na,3\n", "g.txt:1: count 'COUNT(*)' is not a non-negative integer (a header "
                              "line? --aggregated reads none: run sqlite3 without -header)"},
        {"a,3\nb,-1\n", "g.txt:2: count '-1' is not a non-negative integer"},
        {"a,1.5\n", "g.txt:1: count '1.5' is not a non-negative integer"},
        {"a,1e3\n", "g.txt:1: count '1e3' is not a non-negative integer"},
        {"a,\n", "g.txt:1: count '' is not a non-negative integer"},
        {"a,3\nb,2\na,1\n", "g.txt:3: value 'a' appears twice (first on line 1): the aggregate "
                            "holds one line per value"},
        {"a,18446744073709551616\n", "g.txt:1: count '18446744073709551616' does not fit in 64 bits"},
        {"a,18446744073709551615\nb,1\n", "g.txt:2: the counts add up to more than "
                                          "18446744073709551615 rows"},
        {"a\n", "g.txt:1: 1 field: --aggregated reads lines 'value,count' (SELECT v, COUNT(*) ... "
                "GROUP BY v)"},
        {"a,1,2\n", "g.txt:1: 3 fields: --aggregated reads lines 'value,count' (SELECT v, "
                    "COUNT(*) ... GROUP BY v)"},
        {",4\n", "g.txt:1: empty value (an SQL NULL? leave it out with WHERE v IS NOT NULL)"},
        {"\"a,1\n", "g.txt:1: bad quoting (an unterminated \"field\" or text after its closing "
                    "quote)"},
        {"a,1\nq,2\n", "g.txt:2: value 'q' is not one of the candidates"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put("g.txt", bad[i].text);
        ck_assert_int_eq(run("$E score count --data g.txt --aggregated --candidates c.txt"), 2);
        ck_assert_str_eq(out, "");
        ck_assert_msg(!strncmp(errtxt, "expmech score: ", 15) && strstr(errtxt, bad[i].msg),
                      "%zu: %s", i, errtxt);
    }
    /* a number the rank scores cannot read, named with its line */
    put("g.txt", "1,2\nx,1\n");
    ck_assert_int_eq(run("$E score median --data g.txt --aggregated --range 0:4"), 2);
    ck_assert_str_eq(errtxt, "expmech score: g.txt:2: 'x' is not an exact number (not a number (expected digits, a hex float 0x..., a fraction a/b or -inf))\n");
    /* options that do not go with --aggregated */
    ck_assert_int_eq(run("$E score rr --x 1 --aggregated"), 2);
    ck_assert_str_eq(errtxt, "expmech score: option --aggregated does not apply to 'rr'\n");
    ck_assert_int_eq(run("$E score count --data g.txt --aggregated --column v --candidates c.txt"), 2);
    ck_assert(strstr(errtxt, "no --column") != NULL);
    ck_assert_int_eq(run("$E score laplace --f 3 --aggregated --candidates 0:4"), 2);
    ck_assert(strstr(errtxt, "option --aggregated needs --data FILE") != NULL);
    ck_assert_int_eq(run("$E score count --data g.txt --aggregated --aggregated --candidates c.txt"), 2);
    ck_assert_str_eq(errtxt, "expmech score: --aggregated given twice\n");
}
END_TEST

/* examples/sqlite/pipeline.sh: SQLite rows -> GROUP BY -> score --aggregated -> sample,
   identical to the row-level path (the script compares and exits 1 on a difference). */
START_TEST(sqlite_pipeline)
{
    char *cwd = getcwd(NULL, 0);
    ck_assert_ptr_nonnull(cwd);
    int rc = run("bash %s/examples/sqlite/pipeline.sh \"$E\"", cwd);
    free(cwd);
    ck_assert_msg(rc == 0, "pipeline: %s%s", out, errtxt);
    ck_assert(strstr(out, "scenarios and draws identical to the row-level path") != NULL);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("score_aggregated");
    TCase *t = tcase_create("aggregated");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 120);
    tcase_add_test(t, same_bytes);
    tcase_add_test(t, larger_dataset);
    tcase_add_test(t, zero_counts_and_rows);
    tcase_add_test(t, bad_aggregate_lines);
    tcase_add_test(t, sqlite_pipeline);
    suite_add_tcase(s, t);
    return s;
}

EM_CHECK_MAIN(suite)
