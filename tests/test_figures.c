/* test_figures.c: README's figures and `expmech plot`.  `make figures` regenerates the
 * committed tables byte for byte (mk/figures.sh --data-only into a temporary directory);
 * every committed SVG parses as XML and README shows it; `expmech plot` writes the same
 * bytes twice, takes file names and texts with spaces and quotes (no shell, gnuplot's
 * quoting) and replaces a figure only on success.  Its bad inputs are rows of test_bad_input.c. */
#include "em_check_main.h"
#include "em_cli_util.h"

static char root[4096];

static void setup(void)
{
    em_cli_setup("/tmp/em_test_figures_XXXXXX");
    ck_assert(getcwd(root, sizeof root) != NULL);
}

/* The figures README.md shows (mk/figures.sh draws them). */
static const char *const svgs[] = {"marital_probs", "occupation_probs", "pricing_density",
                                   "pricing_loss",  "rr_probs",         "socks_groups",
                                   "frontier"};

static int xml_ok(const char *path)
{
    return run("python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \"%s\"",
               path);
}

START_TEST(tables_regenerate)
{
    /* The Monte Carlo columns (mc_expected_loss, mc_se: the last two) are sums of doubles
     * over exact draws: the same draws everywhere, but the last digits may differ with
     * the libm or under valgrind, so they are compared to 1e-9 relative; the rest, every
     * exact number, byte for byte. */
    const char *mc = "pricing_loss_mc.csv";
    int st = run("EXPMECH=\"$E\" bash %s/mk/figures.sh --data-only fig && "
                 "diff -r -x %s %s/docs/figures/data fig/data && "
                 "cut -d, -f1-8 %s/docs/figures/data/%s >a && cut -d, -f1-8 fig/data/%s >b && "
                 "cmp a b && paste -d, %s/docs/figures/data/%s fig/data/%s | "
                 "awk -F, 'NR > 1 { for (k = 9; k <= 10; k++) { d = $k - $(k + 10); "
                 "if (d < 0) d = -d; if (d > 1e-9 * $k) bad = 1 } } END { exit bad }'",
                 root, mc, root, root, mc, mc, root, mc, mc);
    ck_assert_msg(st == 0, "exit %d: %s%s", st, out, errtxt);
    ck_assert_int_eq(run("head -1 fig/data/%s", mc), 0);
    ck_assert_str_eq(out, "epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,"
                          "expected_loss_bound,mc_n,mc_expected_loss,mc_se\n");
}
END_TEST

START_TEST(svgs_parse_and_are_shown)
{
    char sec[1 << 16];
    ck_assert_int_eq(run("cat %s/docs/figures.md", root), 0);
    snprintf(sec, sizeof sec, "%s", out);
    for (size_t i = 0; i < sizeof svgs / sizeof *svgs; i++) {
        char path[4200], ref[128];
        snprintf(path, sizeof path, "%s/docs/figures/%s.svg", root, svgs[i]);
        snprintf(ref, sizeof ref, "](figures/%s.svg)", svgs[i]);
        ck_assert_msg(strstr(sec, ref) != NULL, "docs/figures.md lacks %s", ref);
        ck_assert_msg(xml_ok(path) == 0, "%s: %s", path, errtxt);
    }
}
END_TEST

START_TEST(plot_quotes_and_bytes)
{
    put("t.csv", "# a comment line is skipped\nepsilon,label,probability\n"
                 "1,it's,0.25\n1,\"a,b\",0.75\n2,it's,0.5\n2,\"a,b\",0.5\n");
    const char *args = "--x label --y probability --series epsilon --style bars --logy "
                       "--title \"Bob's \\\"plot\\\"\" t.csv";
    ck_assert_int_eq(run("$E plot %s --output \"a b'c.svg\"", args), 0);
    ck_assert_msg(out[0] == 0 && errtxt[0] == 0, "out '%s' err '%s'", out, errtxt);
    ck_assert_int_eq(run("$E plot %s --output second.svg && cmp \"a b'c.svg\" second.svg", args),
                     0);
    ck_assert_int_eq(xml_ok("a b'c.svg"), 0);
    /* the texts arrive whole: the title, the labels (a comma inside quotes), the series */
    ck_assert_int_eq(run("cat second.svg"), 0);
    ck_assert_msg(strstr(out, "Bob's &quot;plot&quot;") || strstr(out, "Bob's \"plot\""),
                  "%.2000s", out);
    ck_assert(strstr(out, ">it's<") && strstr(out, ">a,b<"));
    ck_assert(strstr(out, "epsilon = 1<") && strstr(out, "epsilon = 2<"));
    /* lines from standard input, with an overlay of another table as points */
    put("u.csv", "epsilon,expected_loss,mc\n0.5,2,2.1\n1,1,0.9\n");
    ck_assert_int_eq(run("$E plot --x epsilon --y expected_loss --logx "
                         "--overlay 'u.csv:epsilon:mc:Monte Carlo' --output l.svg < u.csv"),
                     0);
    ck_assert_int_eq(xml_ok("l.svg"), 0);
    ck_assert_int_eq(run("grep -c 'Monte Carlo' l.svg"), 0);
    /* a failure (here: no gnuplot) leaves an existing figure as it was, and no temporary
     * file; a success writes it with the umask's mode, not mkstemp's 0600 */
    ck_assert_int_eq(run("umask 022 && $E plot --x epsilon --y mc --output l.svg u.csv && "
                         "stat -c %%a l.svg"), 0);
    ck_assert_str_eq(out, "644\n");
    put("old.svg", "old");
    ck_assert_int_eq(run(EM_NO_GNUPLOT_PATH), 0);
    ck_assert_int_eq(
        run("PATH=$PWD/nognuplot $E plot --x epsilon --y mc --output old.svg u.csv"), 2);
    ck_assert_int_eq(run("{ cat old.svg; ls; }"), 0);
    ck_assert_msg(!strncmp(out, "old", 3) && !strstr(out, "old.svg."), "%s", out);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("figures");
    TCase *tc = tcase_create("figures");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, tables_regenerate);
    tcase_add_test(tc, svgs_parse_and_are_shown);
    tcase_add_test(tc, plot_quotes_and_bytes);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
