/* test_sweep_cli.c: sweeps of epsilon on the command line (--epsilon E1,E2,... | LO:HI:N,
 * --epsilon-log LO:HI:N): every command's sweep output is its single-epsilon outputs, each
 * line after an epsilon column, under one header line (JSON: a list of the objects); the
 * epsilons are the exact texts of the sweep; check, compare and audit refuse a sweep. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EM_CLI_OUT_SIZE (1 << 18)
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_sweep_cli_XXXXXX");
    put("socks.csv", "# sensitivity: 1\nViolent,0.1\nNonViolent,0.9\n");
    put("c.csv", "# output: continuous\n0,1,0,1\n1,3,1,-1/2\n");
}

static char want[EM_CLI_OUT_SIZE];

/* append to want the lines of text, each after "eps," */
static void add_prefixed(const char *eps, const char *text)
{
    size_t k = strlen(want);
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        k += (size_t)snprintf(want + k, sizeof want - k, "%s,%.*s", eps, (int)len, p);
        p += len;
    }
}

/* `$E ARGS --epsilon SWEEP FILE` prints header and then, for each epsilon of eps[0..n), the
 * output of `$E ARGS --epsilon eps[i] FILE` after an epsilon column; the line on standard
 * error once */
static void sweep_matches(const char *args, const char *sweep, const char *file,
                          const char *header, const char *const *eps, size_t n)
{
    snprintf(want, sizeof want, "epsilon,%s\n", header);
    static char one[EM_CLI_OUT_SIZE];
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(run("$E %s --epsilon %s %s", args, eps[i], file) == 0, "%s %s: %s", args,
                      eps[i], errtxt);
        strcpy(one, out);
        add_prefixed(eps[i], one);
    }
    ck_assert_msg(run("$E %s %s %s", args, sweep, file) == 0, "%s %s: %s", args, sweep, errtxt);
    ck_assert_msg(!strcmp(out, want), "%s %s:\n%s\nwant\n%s", args, sweep, out, want);
    const char *line = strchr(errtxt, '\n');
    ck_assert_msg(line && !strstr(line + 1, "variant "), "provenance more than once: %s", errtxt);
}

#define SWEEP_MATCHES(args, sweep, file, header, ...)                                      \
    do {                                                                                   \
        static const char *const e_[] = {__VA_ARGS__};                                     \
        sweep_matches(args, sweep, file, header, e_, sizeof e_ / sizeof e_[0]);            \
    } while (0)

START_TEST(probs_list)
{
    SWEEP_MATCHES("probs", "--epsilon 1,2", "socks.csv", "label,probability,log_probability",
                  "1", "2");
    /* the values themselves, independently: P(NonViolent) = 1/(1 + exp(-0.8 E/2)) (Python
       decimal at 50 digits, rounded to 17) */
    ck_assert_str_eq(out, "epsilon,label,probability,log_probability\n"
                          "1,Violent,0.40131233988754800,-0.91301525239995262\n"
                          "1,NonViolent,0.59868766011245200,-0.51301525239995262\n"
                          "2,Violent,0.31002551887238756,-1.1711006659477777\n"
                          "2,NonViolent,0.68997448112761244,-0.37110066594777773\n");
    ck_assert_str_eq(errtxt, "expmech probs: variant standard (default), sensitivity 1 (header "
                             "of socks.csv)\n");
    /* the texts as given, in the order given, '=' form too */
    SWEEP_MATCHES("probs --digits 5", "--epsilon=2/3,0.50,2/3", "socks.csv",
                  "label,probability,log_probability", "2/3", "0.50", "2/3");
    SWEEP_MATCHES("probs", "--epsilon 1:2:3", "c.csv", "lo,hi,probability,log_probability", "1",
                  "1.5", "2");
}
END_TEST

START_TEST(seed_grid)
{
    /* the seed's np.arange(0.001, 100, 10): exactly 0.001, 10.001, ..., 90.001 */
    ck_assert_int_eq(run("$E probs --digits 3 --epsilon 0.001:90.001:10 socks.csv"), 0);
    const char *p = strchr(out, '\n') + 1;
    for (int k = 0; k < 10; k++)
        for (int j = 0; j < 2; j++) {
            char e[16];
            snprintf(e, sizeof e, "%d.001,", 10 * k);
            ck_assert_msg(!strncmp(p, e, strlen(e)), "row %d: %.30s", 2 * k + j, p);
            p = strchr(p, '\n') + 1;
        }
    ck_assert_str_eq(p, "");
    /* thirds: exact fractions */
    SWEEP_MATCHES("probs --digits 6", "--epsilon 1:2:4", "socks.csv",
                  "label,probability,log_probability", "1", "4/3", "5/3", "2");
}
END_TEST

START_TEST(log_spaced)
{
    SWEEP_MATCHES("probs --digits 6", "--epsilon-log 0.01:100:5", "socks.csv",
                  "label,probability,log_probability", "0.01", "0.1", "1", "10", "100");
    /* sqrt 2 = 1.41421356237309504... at 17 digits */
    SWEEP_MATCHES("probs --digits 6", "--epsilon-log=1:2:3", "socks.csv",
                  "label,probability,log_probability", "1", "1.414213562373095", "2");
}
END_TEST

/* probs --format json at SWEEP of two epsilons is "[\n", the object of e1, ",\n", the
 * object of e2, "]\n" (each object alone ends "}\n") */
static void json_matches(const char *sweep, const char *file, const char *e1, const char *e2)
{
    static char a[EM_CLI_OUT_SIZE], b[EM_CLI_OUT_SIZE];
    ck_assert_int_eq(run("$E probs --format json --epsilon %s %s", e1, file), 0);
    strcpy(a, out);
    a[strlen(a) - 1] = 0;
    ck_assert_int_eq(run("$E probs --format json --epsilon %s %s", e2, file), 0);
    strcpy(b, out);
    ck_assert_int_eq(run("$E probs --format json %s %s", sweep, file), 0);
    ck_assert_uint_lt(strlen(a) + strlen(b) + 8, sizeof want);
    strcat(strcat(strcat(strcat(strcpy(want, "[\n"), a), ",\n"), b), "]\n");
    ck_assert_str_eq(out, want);
}

START_TEST(json_list)
{
    json_matches("--epsilon 1,2", "socks.csv", "1", "2");
    json_matches("--epsilon 0.5:1.5:2", "c.csv", "0.5", "1.5");
    ck_assert_ptr_nonnull(strstr(out, "},\n{\n  \"epsilon\": \"1.5\""));
}
END_TEST

START_TEST(sample_blocks)
{
    /* block k: the draws of a run at epsilon k alone with the same seed */
    SWEEP_MATCHES("sample --seed 42 -n 6", "--epsilon 0.5,3,0.5", "socks.csv", "value", "0.5",
                  "3", "0.5");
    SWEEP_MATCHES("sample --seed 0x9 -n 4", "--epsilon-log 1:4:3", "c.csv", "value", "1", "2",
                  "4");
    /* no draws: nothing, not even the header */
    ck_assert_int_eq(run("$E sample --seed 1 -n 0 --epsilon 1,2 socks.csv"), 0);
    ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(continuous_commands)
{
    SWEEP_MATCHES("cdf --at 0.5,1,3", "--epsilon 1,2", "c.csv", "x,cdf", "1", "2");
    SWEEP_MATCHES("cdf --between 0:1,1:2", "--epsilon 1,2", "c.csv", "a,b,probability", "1", "2");
    SWEEP_MATCHES("density --grid 0:3:4", "--epsilon 1:3:3", "c.csv", "x,density,log_density", "1",
                  "2", "3");
    SWEEP_MATCHES("quantile --at 0,0.5,1", "--epsilon-log 1:100:3", "c.csv", "p,x", "1", "10",
                  "100");
}
END_TEST

START_TEST(refused)
{
    const char *const want_msg = ": a sweep of epsilon applies to probs, sample, cdf, density, "
                                 "quantile, utility, groups\n";
    put("d.txt", "Violent\nNonViolent\n");
    put("p.txt", "0.5\n0.5\n");
    static const char *const cmds[] = {
        "check --epsilon 1,2 --samples d.txt socks.csv",
        "check --epsilon-log 1:2:3 --samples d.txt socks.csv",
        "compare --epsilon 1:2:3 --probs p.txt socks.csv",
        "compare --epsilon-log 1:2:3 --probs p.txt socks.csv",
        "audit --epsilon 1,2 socks.csv socks.csv",
        "audit --epsilon-log=1:2:3 socks.csv socks.csv",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        ck_assert_msg(run("$E %s", cmds[i]) == 2, "%s", cmds[i]);
        ck_assert_str_eq(out, "");
        char w[256];
        snprintf(w, sizeof w, "expmech %.*s%s", (int)strcspn(cmds[i], " "), cmds[i], want_msg);
        ck_assert_str_eq(errtxt, w);
    }
    /* one of --epsilon and --epsilon-log */
    ck_assert_int_eq(run("$E probs --epsilon 1 --epsilon-log 1:2:3 socks.csv"), 2);
    ck_assert_str_eq(errtxt, "expmech probs: --epsilon and --epsilon-log exclude each other\n");
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(run("$E sample --epsilon-log 1:2:3 --epsilon 1 socks.csv"), 2);
    ck_assert_str_eq(errtxt, "expmech sample: --epsilon and --epsilon-log exclude each other\n");
    /* a plain value keeps its message; a sweep's names the value at fault */
    ck_assert_int_eq(run("$E probs --epsilon abc socks.csv"), 2);
    ck_assert_str_eq(errtxt, "expmech probs: --epsilon: bad value 'abc': not a number (expected "
                             "digits, a hex float 0x..., a fraction a/b or -inf)\n");
    ck_assert_int_eq(run("$E probs --epsilon 1,-2 socks.csv"), 2);
    ck_assert_str_eq(errtxt, "expmech probs: --epsilon: bad value '1,-2': bad number '-2': must "
                             "be > 0\n");
    ck_assert_int_eq(run("$E cdf --at 1 --epsilon-log 1:2 c.csv"), 2);
    ck_assert_str_eq(errtxt, "expmech cdf: --epsilon-log: bad value '1:2': sweep '1:2': expected "
                             "LO:HI:N\n");
}
END_TEST

START_TEST(help_texts)
{
    static const char *const cmds[] = {"probs", "sample", "cdf", "density", "quantile"};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_int_eq(run("$E %s --help", cmds[i]), 0);
        ck_assert_msg(strstr(out, "--epsilon-log LO:HI:N") && strstr(out, "A sweep of epsilon"),
                      "%s --help", cmds[i]);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sweep_cli");
    TCase *tc = tcase_create("sweep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, probs_list);
    tcase_add_test(tc, seed_grid);
    tcase_add_test(tc, log_spaced);
    tcase_add_test(tc, json_list);
    tcase_add_test(tc, sample_blocks);
    tcase_add_test(tc, continuous_commands);
    tcase_add_test(tc, refused);
    tcase_add_test(tc, help_texts);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
