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

#include "em_cli_table.h"
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

typedef em_cli_row row;

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
    /* ---- silent misreads: extra fields */
    {"fields: a,0,2 is not label 'a,0'",
     "printf 'a,0,2\\nb,1\\n' | $E probs --epsilon 1", 2,
     "<stdin>:1: 3 fields in 'a,0,2' where 'label,utility' has 2: a label with a comma must be quoted", ""},
    {"fields: a,1,000 (a thousands separator?) names '# measure: yes'",
     "printf 'a,1,000\\nb,1\\n' | $E probs --epsilon 1", 2, "was '# measure: yes' meant?", ""},
    {"fields: a pieces file without '# output: continuous'",
     "printf '0,1,0\\n1,2,0\\n' | $E probs --epsilon 1", 2,
     "was '# output: continuous' meant?", ""},
    {"fields: one field too many with a measure",
     "printf '# measure: yes\\na,1,2,3\\nb,0,1\\n' | $E probs --epsilon 1", 2,
     "<stdin>:2: 4 fields in 'a,1,2,3' where 'label,utility,measure' has 3", ""},
    {"fields: a quoted label with a comma is one label",
     "printf '\"a,0\",2\\nb,1\\n' | $E probs --epsilon 1", 0, NULL, "\"a,0\",0.62245933120185456,"},
    {"fields: text after the closing quote says so",
     "printf '\"a\"x,2\\nb,1\\n' | $E probs --epsilon 1", 2,
     "<stdin>:1: text 'x,2' after the closing quote of the label", ""},
    {"fields: an extra field after a quoted label",
     "printf '\"a\",0,2\\nb,1\\n' | $E probs --epsilon 1", 2, "3 fields in '\"a\",0,2'", ""},
    /* ---- rows beginning with '#' */
    {"hash rows: ids #1, #2 in a CSV read with --column are rows (3 rows, not 1)",
     "printf 'id,g,v\\n#1,x,a\\n#2,x,b\\n3,y,a\\n' > d.csv && printf 'a\\nb\\n' > c.txt && "
     "$E groups --epsilon 1 --split equal --data d.csv --column v --group-by g --candidates c.txt",
     0, NULL, "1,x,2,"},
    {"hash rows: a '#' row among a scenario's data lines is an error",
     "printf 'a,1\\n#b,0\\n' | $E probs --epsilon 1", 2,
     "<stdin>:2: a line starting with '#' among the data lines: a label starting with '#' must be quoted", ""},
    {"hash rows: a quoted '#1' label is a label",
     "printf 'a,1\\n\"#1\",0\\n' | $E probs --epsilon 1", 0, NULL, "\"#1\",0.37754066879814544"},
    {"hash rows: a draw '#1' of a scenario label is not dropped as a comment",
     "printf 'a,1\\n\"#1\",0\\n' > h.csv && printf 'a\\n#1\\na\\n' > hd.txt && "
     "$E check --epsilon 1 --samples hd.txt h.csv", 2,
     "hd.txt:2: '#1' is a label of the scenario, but a line starting with '#' is a comment", ""},
    /* ---- comments that look like headers */
    {"header-like: '# sensitivity = 1000'",
     "printf '# sensitivity = 1000\\na,1\\nb,0\\n' | $E probs --epsilon 1", 2,
     "<stdin>:1: the comment '# sensitivity = 1000' looks like the header '# sensitivity: ...'", ""},
    {"header-like: '# sensitivty: 2' (misspelt)",
     "printf '# sensitivty: 2\\na,1\\nb,0\\n' | $E probs --epsilon 1", 2,
     "looks like the header '# sensitivity: ...'", ""},
    {"header-like: '# Monotone yes' (no colon)",
     "printf '# Monotone yes\\na,1\\nb,0\\n' | $E probs --epsilon 1", 2,
     "looks like the header '# monotone: ...'", ""},
    {"header-like: '# output continuous' (no colon)",
     "printf '# output continuous\\n0,1,0\\n' | $E probs --epsilon 1", 2,
     "looks like the header '# output: ...'", ""},
    {"header-like: prose naming the key stays a comment",
     "printf '# sensitivity of this data is unclear\\na,1\\nb,0\\n' | $E probs --epsilon 1", 0,
     NULL, "a,0.62245933120185456"},
    /* ---- numeric candidates compare as numbers */
    {"numbers: 2 and 2.0 are one candidate",
     "printf '2,1\\n2.0,0\\n' | $E probs --epsilon 1", 2,
     "<stdin>:2: label '2.0' is the number '2' of line 1", ""},
    {"numbers: 02 and 2",
     "printf '02,1\\n2,0\\n' | $E probs --epsilon 1", 2, "label '02' is the number '2'", ""},
    {"numbers: 2.50 and 5/2",
     "printf '2.50,1\\n5/2,0\\n' | $E probs --epsilon 1", 2, "label '2.50' is the number '5/2'", ""},
    {"numbers: data 2, 2.0, 02 count alike for candidate 2",
     "printf '2\\n3\\n' > c2.txt && printf '2\\n2.0\\n02\\n3\\n' > d2.txt && "
     "$E score count --data d2.txt --candidates c2.txt", 0, NULL, "\n2,3\n3,1\n"},
    {"numbers: --candidates 2 and 2.0",
     "printf '2\\n2.0\\n' > c3.txt && printf '2\\n' > d3.txt && "
     "$E score count --data d3.txt --candidates c3.txt", 2, "'2' and '2.0' are the same number", ""},
    {"numbers: --candidates-from-data merges 2, 2.0, 02",
     "printf '2\\n2.0\\n02\\n3\\n' > d2.txt && $E score count --data d2.txt --candidates-from-data",
     0, NULL, "\n2,3\n3,1\n"},
    /* ---- compare */
    {"compare: a log-probability column with +5 fails",
     "printf 'a,1\\nb,0\\n' > s.csv && printf 'a,0.62245933120185456,4.5259230158198933\\n"
     "b,0.37754066879814544,-0.97407698418010668\\n' > p.csv && $E compare --epsilon 1 --probs p.csv s.csv",
     1, NULL, "exact -0.4740769841801066808729973550811707497556 (log-probability error above tolerance)"},
    {"compare: the log column of probs' own output passes",
     "printf 'a,1\\nb,0\\n' > s.csv && $E probs --epsilon 1 s.csv > p.csv && "
     "$E compare --epsilon 1 --probs p.csv s.csv", 0, NULL, "verdict: PASS"},
    {"compare: NaN given is never 'max absolute error: 0'",
     "printf 'a,1\\nb,0\\n' > s.csv && printf 'nan\\nnan\\n' > pn.txt && "
     "$E compare --epsilon 1 --probs pn.txt s.csv", 1, NULL, "max absolute error: NaN (2 NaN, 0 infinite"},
    {"compare --cdf: the exact F printed correctly rounded, not the nearest double",
     "printf '# output: continuous\\n0,3,0\\n' > u3.csv && printf '1,0.3\\n' > t.csv && "
     "$E compare --epsilon 1 --cdf t.csv u3.csv", 1, NULL,
     "given 0.29999999999999999, exact 0.33333333333333333"},
    /* ---- options that do not apply */
    {"options: --samples-are on a continuous scenario",
     "printf '# output: continuous\\n0,1,0\\n' > u.csv && printf '0.5\\n' > x.txt && "
     "$E check --epsilon 1 --samples x.txt --samples-are labels u.csv", 2,
     "--samples-are: a continuous scenario's draws are numbers", ""},
    {"options: --samples-are indices on a continuous scenario",
     "printf '# output: continuous\\n0,1,0\\n' > u.csv && printf '0.5\\n' > x.txt && "
     "$E check --epsilon 1 --samples x.txt --samples-are indices u.csv", 2, "--samples-are", ""},
    /* ---- the audit from draws: events searched in both directions (alpha 0.05: the
     * confidence 0.95 the bound is stated at; the planted sampler's 200 draws give a bound
     * of ln(CP_lo(200 of 200)/CP_hi(0 of 200)) > 3 at the corrected level, far above 1) */
    {"audit: two-sided sampler (always b on X, a on Y) is VIOLATED",
     "printf 'a,0\\nb,1\\n' > x.csv && printf 'a,1\\nb,0\\n' > y.csv && yes b | head -200 > sx.txt && "
     "yes a | head -200 > sy.txt && $E audit --epsilon 1 --samples-x sx.txt --samples-y sy.txt x.csv y.csv",
     1, NULL, "verdict: VIOLATED: the draws show a loss above eps"},
    {"audit: the same sampler, files swapped, is VIOLATED too",
     "printf 'a,0\\nb,1\\n' > x.csv && printf 'a,1\\nb,0\\n' > y.csv && yes b | head -200 > sx.txt && "
     "yes a | head -200 > sy.txt && $E audit --epsilon 1 --samples-x sy.txt --samples-y sx.txt x.csv y.csv",
     1, NULL, "verdict: VIOLATED"},
    {"audit: always b on both sides is consistent (the law of neither, but no loss shown)",
     "printf 'a,0\\nb,1\\n' > x.csv && printf 'a,1\\nb,0\\n' > y.csv && yes b | head -200 > sx.txt && "
     "$E audit --epsilon 1 --samples-x sx.txt --samples-y sx.txt x.csv y.csv",
     0, NULL, "consistent with eps"},
    {"audit: the exact sampler's draws are consistent",
     "printf 'a,0\\nb,1\\n' > x.csv && printf 'a,1\\nb,0\\n' > y.csv && "
     "$E sample --epsilon 1 -n 2000 --seed 1 x.csv > gx.txt && $E sample --epsilon 1 -n 2000 --seed 2 y.csv > gy.txt && "
     "$E audit --epsilon 1 --samples-x gx.txt --samples-y gy.txt x.csv y.csv", 0, NULL, "consistent with eps"},
    {"audit: X and Y not neighbours at the sensitivity used is said",
     "printf 'a,0\\nb,1\\n' > x.csv && printf 'a,0\\nb,5\\n' > z.csv && $E audit --epsilon 1 x.csv z.csv",
     1, "X and Y are not neighbours at sensitivity 1: |u_X - u_Y| = 4 at 'b'", NULL},
    {"audit: an exclusion on one side only is said",
     "printf 'a,0\\nb,1\\n' > x.csv && printf 'a,0\\nb,-inf\\n' > w.csv && $E audit --epsilon 1 x.csv w.csv",
     1, "'b' is excluded (-inf) in w.csv only", NULL},
    {"audit: two different '# sensitivity:' headers without --sensitivity",
     "printf '# sensitivity: 2\\na,0\\nb,1\\n' > x2.csv && printf '# sensitivity: 3\\na,0\\nb,1\\n' > y3.csv && "
     "$E audit --epsilon 1 x2.csv y3.csv", 2,
     "x2.csv declares '# sensitivity: 2', y3.csv '# sensitivity: 3': which one holds for both?", ""},
    {"audit: ... with --sensitivity chosen",
     "printf '# sensitivity: 2\\na,0\\nb,1\\n' > x2.csv && printf '# sensitivity: 3\\na,0\\nb,1\\n' > y3.csv && "
     "$E audit --epsilon 1 --sensitivity 3 x2.csv y3.csv", 0, NULL, "verdict: eps-DP holds"},
    /* ---- settings that weaken privacy get a word */
    {"warning: a fixed --seed",
     "printf 'a,1\\nb,0\\n' > s.csv && $E sample --epsilon 1 --seed 7 s.csv", 0,
     "expmech sample: --seed 7: the draws are reproducible by anyone who knows the seed", NULL},
    {"warning: no --seed, no such line",
     "printf 'a,1\\nb,0\\n' > s.csv && $E sample --epsilon 1 s.csv 2>&1 | grep -c reproducible", 1,
     NULL, "0\n"},
    /* ---- valid input that was refused (exit 3): decided from logarithms, no bits of the
     * value itself.  Laplace over R, eps 1, Delta 1: f(x) = exp(-|x|/2)/4, F(x) = exp(x/2)/2
     * for x < 0; the expected digits from log10 by hand (Python's decimal at 80 digits) */
    {"refused: cdf --at -1e19 on a Laplace over R",
     "printf '# output: continuous\\n-inf,0,0,1\\n0,inf,0,-1\\n' > lap.csv && $E cdf --epsilon 1 --at -1e19 lap.csv",
     0, NULL, "-1e19,2.7753988867538304e-2171472409516259139\n"},
    {"refused: density --at 1e20 on a Laplace over R",
     "printf '# output: continuous\\n-inf,0,0,1\\n0,inf,0,-1\\n' > lap.csv && $E density --epsilon 1 --at 1e20 lap.csv",
     0, NULL, "1e20,6.9421511116497239e-21714724095162591384,-5.0000000000000000e+19\n"},
    {"refused: density --at -1e20 (the mirror)",
     "printf '# output: continuous\\n-inf,0,0,1\\n0,inf,0,-1\\n' > lap.csv && $E density --epsilon 1 --at -1e20 lap.csv",
     0, NULL, "-1e20,6.9421511116497239e-21714724095162591384,"},
    {"refused: cdf --at 1e19 is 1 to the digits asked",
     "printf '# output: continuous\\n-inf,0,0,1\\n0,inf,0,-1\\n' > lap.csv && $E cdf --epsilon 1 --at 1e19 lap.csv",
     0, NULL, "1e19,1.0000000000000000\n"},
    {"refused: utility --loss-at 1e400: P = 0, the bound 2 exp(-1e400/2) from its log",
     "printf 'a,1\\nb,0\\n' > s.csv && $E utility --epsilon 1 --loss-at 1e400 s.csv", 0, NULL,
     ",0,3.2801594237785197e-21714724095162591382556445945830254114719850290183328305722689158"},
    {"refused: utility --loss-at 1e10 (was already decided)",
     "printf 'a,1\\nb,0\\n' > s.csv && $E utility --epsilon 1 --loss-at 1e10 s.csv", 0, NULL,
     ",0,6.0921537801749137e-2171472410\n"},
    {"options: audit --confidence without draws",
     "printf 'a,0\\nb,1\\n' > x.csv && $E audit --epsilon 1 --confidence 0.9 x.csv x.csv", 2,
     "--confidence goes with --samples-x and --samples-y", ""},
    {"options: audit --samples-are without draws",
     "printf 'a,0\\nb,1\\n' > x.csv && $E audit --epsilon 1 --samples-are labels x.csv x.csv", 2,
     "--samples-are goes with --samples-x", ""},
    /* ---- clearer errors */
    {"errors: audit - - cannot read standard input twice",
     "printf 'a,1\\nb,0\\n' | $E audit --epsilon 1 - -", 2,
     "X and Y cannot both be standard input ('-')", ""},
    {"errors: audit --samples-x - --samples-y -",
     "printf 'a,1\\nb,0\\n' > s.csv && $E audit --epsilon 1 --samples-x - --samples-y - s.csv s.csv < s.csv", 2,
     "--samples-x and --samples-y cannot both be standard input", ""},
    {"errors: score --data - --candidates -",
     "printf 'a\\n' | $E score count --data - --candidates -", 2,
     "--data and --candidates cannot both be standard input ('-')", ""},
    {"errors: a directory",
     "mkdir -p dir && $E probs --epsilon 1 dir", 2, "dir: is a directory, not a file", ""},
    {"errors: a directory as --data",
     "mkdir -p dir && printf 'a\\n' > c.txt && $E score count --data dir --candidates c.txt", 2,
     "is a directory, not a file", ""},
    {"errors: a closed standard input",
     "$E probs --epsilon 1 <&-", 2, "standard input is closed", ""},
    {"errors: compare on a sweep's output says it is a sweep",
     "printf 'a,1\\nb,0\\n' > s.csv && $E probs --epsilon 1,2 s.csv > sw.csv && "
     "$E compare --epsilon 1 --probs sw.csv s.csv", 2,
     "sw.csv:1: this is the output of a sweep (its first column is epsilon)", ""},
    {"errors: a mistyped option names the nearest",
     "printf 'a,1\\nb,0\\n' > s.csv && $E probs --epsilom 1 s.csv", 2,
     "unknown option '--epsilom' (did you mean --epsilon?", ""},
    {"errors: audit's own options name the nearest too",
     "printf 'a,0\\nb,1\\n' > x.csv && $E audit --epsilon 1 --sample-x d.txt x.csv x.csv", 2,
     "unknown option '--sample-x' (did you mean --samples-x?  see --help)", ""},
    {"errors: a mistyped command names the nearest",
     "$E prob --epsilon 1", 2, "unknown command 'prob' (did you mean probs?)", NULL},
    {"errors: an option far from every one is only unknown",
     "printf 'a,1\\nb,0\\n' > s.csv && $E probs --zzzzzz 1 s.csv", 2,
     "unknown option '--zzzzzz' (see --help)", ""},
    {"errors: raw data with a header line given to probs",
     "printf 'id,v\\n1,a\\n' | $E probs --epsilon 1", 2,
     "<stdin>:1: bad utility 'v'", ""},
    {"errors: ... says to run expmech score",
     "printf 'id,v\\n1,a\\n' | $E probs --epsilon 1", 2, "`expmech score` makes a scenario", ""},
    {"errors: one value per line given to probs",
     "printf 'a\\nb\\n' | $E probs --epsilon 1", 2, "(no comma); raw data?", ""},
    {"errors: a bidi control in a label is escaped",
     "printf 'a\\342\\200\\256b,1\\nc,0\\n' > bidi.csv && printf '0\\n0\\n1\\n' > bi.txt && "
     "$E check --epsilon 1 --samples bi.txt bidi.csv", 4, NULL, "a\\u202eb"},
    /* ---- the figure draws what its legend names: the seed's 10 Monte Carlo estimates
     * (and the legend's sample) as points beside the exact curve */
    {"figure: pricing_loss.svg draws the Monte Carlo points",
     "test $(grep -c \"xlink:href='#gpPt5'\" \"$(dirname \"$(dirname \"$E\")\")/docs/figures/pricing_loss.svg\") "
     "-ge 11 && echo drawn", 0, NULL, "drawn\n"},
};

START_TEST(table)
{
    fixtures();
    em_cli_table_check(&rows[_i]);
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
