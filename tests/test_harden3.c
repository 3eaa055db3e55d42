/* test_harden3.c: the third hardening round, table-driven as test_harden2.c: each row is
 * one command line (run by sh in a fresh directory holding the files of fixtures(), $E the
 * program), its expected exit status, a fragment its standard error must hold and one its
 * standard output must hold (NULL: not checked; "" for stdout: must be empty).  The
 * classes: a mistyped name names the nearest valid one, in score's and plot's own parsers;
 * compare judges every column it is given, in JSON as in CSV; valid continuous scenarios
 * whose values lie below MPFR's exponent range are decided (from logarithms), not refused;
 * the audit from draws takes continuous pairs (a planted non-private sampler must fail).
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

/* exp(-5e399) = 10^x, x = -5e399 / ln 10: its 17 digits and decimal exponent, worked out
 * by hand (Python's decimal at 500 digits: the fraction of x gives the digits, its floor
 * the exponent), not by expmech.  P0 is 1 / (1 + e^(5e399)), the probability of the flat
 * piece 1e400 below the other (c = 1/2), to 17 digits; HALF is P0 / 2 (F at the middle of
 * that piece); LOSS is 1e400 P0, the expected loss. */
#define EXP10 "2171472409516259138255644594583025411471985029018332830572268915829323246044353873646124746692158741593530533723831518668208396435794819532846105323314061329260635432843351647966854348294133441655818038692452571422174333384323293042567780741061743826717717178658626917811140697801524323326183047769688678088161715958355495705798947481496756228967463178827734538835541209575239955494837450051638768827"
#define P0 "1.6400797118892598e-" EXP10
#define HALF "8.2003985594462992e-2171472409516259138255644594583025411471985029018332830572268915829323246044353873646124746692158741593530533723831518668208396435794819532846105323314061329260635432843351647966854348294133441655818038692452571422174333384323293042567780741061743826717717178658626917811140697801524323326183047769688678088161715958355495705798947481496756228967463178827734538835541209575239955494837450051638768828"
#define LOSS "1.6400797118892598e-2171472409516259138255644594583025411471985029018332830572268915829323246044353873646124746692158741593530533723831518668208396435794819532846105323314061329260635432843351647966854348294133441655818038692452571422174333384323293042567780741061743826717717178658626917811140697801524323326183047769688678088161715958355495705798947481496756228967463178827734538835541209575239955494837450051638768427"
/* slope 1e400 on [0, 1] (k = c b = 5e399), then u = 0 on [1, 2]: P(second) = e^-k / Z with
 * Z = (1 - e^-k) / k + e^-k, so k e^-k to 17 digits (UP1), and f(1/2) = k e^(-k/2) / (k Z),
 * k e^(-k/2) to 17 digits (UPD): log10 of each by hand as above */
#define UP1 "8.2003985594462992e-2171472409516259138255644594583025411471985029018332830572268915829323246044353873646124746692158741593530533723831518668208396435794819532846105323314061329260635432843351647966854348294133441655818038692452571422174333384323293042567780741061743826717717178658626917811140697801524323326183047769688678088161715958355495705798947481496756228967463178827734538835541209575239955494837450051638768428"
#define UPD "2.0248948811538711e-1085736204758129569127822297291512705735992514509166415286134457914661623022176936823062373346079370796765266861915759334104198217897409766423052661657030664630317716421675823983427174147066720827909019346226285711087166692161646521283890370530871913358858589329313458905570348900762161663091523884844339044080857979177747852899473740748378114483731589413867269417770604787619977747418725025819384014"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_harden3_XXXXXX");
}

static void fixtures(void)
{
    put("d.txt", "1\n2\n3\n");
    /* a flat piece of utility 1e400 beside one of 0 (columns lo,hi,a,b: u = a + b r) */
    put("sl3.csv", "# output: continuous\n0,1,0,0\n1,2,1e400,0\n");
    put("mirror.csv", "# output: continuous\n1,2,1e400,0\n2,3,0,0\n");
    put("neg.csv", "# output: continuous\n0,1,-1e400,0\n1,2,0,0\n");
    /* slope -1e400 on [0, 1] from u = 0, then u = -1 on [1, 2]: mass (1 - e^-5e399) / 5e399
     * against e^-1/2, so P = 2e-400 e^1/2 / (1 + 2e-400 e^1/2) = 3.2974425414002563e-400 */
    /* neighbours at sensitivity 1: u = 0 and u = r on [0, 1] (exact loss 0.26 < 1) */
    put("ax.csv", "# output: continuous\n0,1,0,0\n");
    put("ay.csv", "# output: continuous\n0,1,0,1\n");
    put("nan.txt", "0.5\nnan\n");
    put("up.csv", "# output: continuous\n0,1,0,1e400\n1,2,0,0\n");
    put("slope.csv", "# output: continuous\n0,1,0,-1e400\n1,2,-1,0\n");
    /* u = r on [0, 1e400]: F(x) = expm1(c x) / expm1(c 1e400), c = eps / 2, far below MPFR's
     * range at every x of a modest size; the digits below from Python's decimal at 460
     * digits, log10 F = (ln expm1(c x) - c 1e400) / ln 10 */
    put("ramp.csv", "# output: continuous\n0,1e400,0,1\n");
    /* two candidates, utilities 1 and 0, epsilon 1: P(a) = 1/(1 + e^-1/2), log P(a) =
     * -log(1 + e^-1/2) = -0.47407698418010668..., log P(b) = log P(a) - 1/2 */
    put("ab.csv", "a,1\nb,0\n");
    put("ok.json", "{\"candidates\": [\n"
                   "{\"label\": \"a\", \"probability\": \"0.62245933120185456\", "
                   "\"log_probability\": \"-0.47407698418010668\"},\n"
                   "{\"label\": \"b\", \"probability\": \"0.37754066879814544\", "
                   "\"log_probability\": \"-0.97407698418010668\"}]}\n");
    put("plus5.json", "{\"candidates\": [\n"
                      "{\"label\": \"a\", \"probability\": \"0.62245933120185456\", "
                      "\"log_probability\": \"+5\"},\n"
                      "{\"label\": \"b\", \"probability\": \"0.37754066879814544\", "
                      "\"log_probability\": \"-0.97407698418010668\"}]}\n");
    put("num.json", "[{\"label\": \"b\", \"probability\": 0.37754066879814544, "
                    "\"log_probability\": -0.97407698418010668},\n"
                    "{\"label\": \"a\", \"probability\": 0.62245933120185456, "
                    "\"log_probability\": 5}]\n");
    put("bool.json", "[{\"label\": \"a\", \"probability\": \"0.62245933120185456\", "
                     "\"log_probability\": true},\n"
                     "{\"label\": \"b\", \"probability\": \"0.37754066879814544\"}]\n");
    put("plus5.csv", "a,0.62245933120185456,5\nb,0.37754066879814544,-0.97407698418010668\n");
}

typedef em_cli_row row;

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
     "unknown option '--candidate' (did you mean --candidates?", ""},
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
     "unknown option '--zzzzzz' (see --help)", ""},
    {"names: the misspelt score command still runs when spelt right",
     "$E score median --data d.txt --candidates 1:3", 0, NULL, "\n2,0\n"},
    {"names: plot --foo, far from every option, is only unknown",
     "$E plot --foo", 2, "expmech plot: unknown option '--foo' (see --help)", ""},
    {"names: a mistyped plot option",
     "$E plot --outptu f.svg", 2, "unknown option '--outptu' (did you mean --output?", ""},
    {"names: a mistyped plot flag",
     "$E plot --logg", 2, "unknown option '--logg' (did you mean --logx?", ""},
    /* ---- valid input decided beyond MPFR's range: a piece 1e400 above the other */
    {"deep: probs, the low piece from its logarithm",
     "$E probs --epsilon 1 sl3.csv", 0, NULL, "0,1," P0 ",-5.0000000000000000e+399\n"},
    {"deep: probs, the steep piece below 1 printed as K nines, its log from log |log P|",
     "$E probs --epsilon 1 sl3.csv", 0, NULL, "1,2,0.99999999999999999,-" P0 "\n"},
    {"deep: probs says the values came from logarithms",
     "$E probs --epsilon 1 sl3.csv", 0, "2 value(s) lie below MPFR's exponent range", NULL},
    {"deep: probs, the mirror (steep piece first)",
     "$E probs --epsilon 1 mirror.csv", 0, NULL,
     "1,2,0.99999999999999999,-" P0 "\n2,3," P0 ",-5.0000000000000000e+399\n"},
    {"deep: probs, utility -1e400: the same law",
     "$E probs --epsilon 1 neg.csv", 0, NULL,
     "0,1," P0 ",-5.0000000000000000e+399\n1,2,0.99999999999999999,-" P0 "\n"},
    {"deep: probs, JSON notes",
     "$E probs --epsilon 1 --format json sl3.csv", 0, NULL,
     "\"note\": \"below MPFR's exponent range: decimal computed from the log-probability\""},
    {"deep: probs, slope -1e400 (an end below the range, the mass not)",
     "$E probs --epsilon 1 slope.csv", 0, NULL, "0,1,3.2974425414002563e-400,"},
    {"deep: cdf at the middle, the end and past the low piece",
     "$E cdf --epsilon 1 --at 0.5,1,1.5 sl3.csv", 0, NULL,
     "0.5," HALF "\n1," P0 "\n1.5,0.50000000000000000\n"},
    {"deep: cdf under a ramp to 1e400 at 1/3, epsilon 1/3 (an underflow, not a long refinement)",
     "timeout 60 $E cdf --epsilon 1/3 --digits 6 --at 1/3 ramp.csv", 0, NULL,
     "1/3,1.45145e-723824136505419712751881531527675137157328343"},
    {"deep: cdf under a ramp to 1e400 at 7, epsilon 5",
     "timeout 60 $E cdf --epsilon 5 --digits 6 --at 7 ramp.csv", 0, NULL,
     "7,4.72583e-1085736204758129569"},
    {"deep: cdf --between inside the low piece",
     "$E cdf --epsilon 1 --between 0:0.5 sl3.csv", 0, NULL, HALF},
    {"deep: density in both pieces, with logs",
     "$E density --epsilon 1 --at 0.5,1.5 sl3.csv", 0, NULL,
     "0.5," P0 ",-5.0000000000000000e+399\n1.5,1.0000000000000000,-" P0 "\n"},
    {"deep: density, the mirror",
     "$E density --epsilon 1 --at 1.5,2.5 mirror.csv", 0, NULL,
     "1.5,1.0000000000000000,-" P0 "\n2.5," P0 ",-5.0000000000000000e+399\n"},
    {"deep: quantile",
     "$E quantile --epsilon 1 --at 0.5 sl3.csv", 0, NULL, "0.5,1.5000000000000000\n"},
    {"deep: quantile, the mirror",
     "$E quantile --epsilon 1 --at 0.5 mirror.csv", 0, NULL, "0.5,1.5000000000000000\n"},
    {"deep: sample, every draw in the steep piece (1, 2)",
     "$E sample --epsilon 1 --seed 1 -n 50 sl3.csv | awk '$1 <= 1 || $1 >= 2 {b = 1} "
     "END {print NR, b ? \"bad\" : \"ok\"}'", 0, NULL, "50 ok\n"},
    {"deep: sample, the mirror",
     "$E sample --epsilon 1 --seed 2 -n 50 mirror.csv | awk '$1 <= 1 || $1 >= 2 {b = 1} "
     "END {print NR, b ? \"bad\" : \"ok\"}'", 0, NULL, "50 ok\n"},
    {"deep: sample, utility -1e400",
     "$E sample --epsilon 1 --seed 3 -n 50 neg.csv | awk '$1 <= 1 || $1 >= 2 {b = 1} "
     "END {print NR, b ? \"bad\" : \"ok\"}'", 0, NULL, "50 ok\n"},
    {"deep: utility, the loss 1e400 P0",
     "$E utility --epsilon 1 sl3.csv", 0, NULL,
     "\n1,1.0000000000000000e+400,1.0000000000000000e+400," LOSS ","},
    {"deep: utility, E[u] = -1e400 P0 for utility -1e400",
     "$E utility --epsilon 1 neg.csv", 0, NULL, "\n1,0,-" LOSS "," LOSS ","},
    {"deep: slope 1e400, probs (the low end's weight below the range)",
     "$E probs --epsilon 1 up.csv", 0, NULL,
     "0,1,0.99999999999999999,-" UP1 "\n1,2," UP1 ",-5.0000000000000000e+399\n"},
    {"deep: slope 1e400, density at 1/2",
     "$E density --epsilon 1 --at 0.5 up.csv", 0, NULL, "0.5," UPD ","},
    {"deep: slope 1e400, quantile 1/4 = 1 - log(4) / 5e399, 1 to 17 digits",
     "$E quantile --epsilon 1 --at 0.25 up.csv", 0, NULL, "0.25,1.0000000000000000\n"},
    {"deep: slope 1e400, utility: loss and sd 1e400 / k = 2",
     "$E utility --epsilon 1 up.csv", 0, NULL,
     "\n1,1.0000000000000000e+400,1.0000000000000000e+400,2.0000000000000000,"
     "2.0000000000000000,0,"},
    {"deep: slope 1e400, sample: every draw rounds to 1",
     "$E sample --epsilon 1 --seed 4 -n 5 up.csv", 0, NULL, "1\n1\n1\n1\n1\n"},
    /* ---- the audit from draws of a continuous pair: intervals of a grid fixed in advance
     * (confidence 0.95: alpha 0.05, Bonferroni over the intervals, both directions) */
    {"draws: the exact sampler's draws on X and Y (fixed seeds) are consistent",
     "$E sample --epsilon 1 --seed 11 -n 2000 ax.csv > hx.txt && "
     "$E sample --epsilon 1 --seed 12 -n 2000 ay.csv > hy.txt && "
     "$E audit --epsilon 1 --samples-x hx.txt --samples-y hy.txt ax.csv ay.csv", 0, NULL,
     "draws: 2000 from X, 2000 from Y; Clopper-Pearson lower bound on epsilon at confidence "
     "0.95 over the intervals of 33 cells"},
    {"draws: ... verdict",
     "$E sample --epsilon 1 --seed 11 -n 2000 ax.csv > hx.txt && "
     "$E sample --epsilon 1 --seed 12 -n 2000 ay.csv > hy.txt && "
     "$E audit --epsilon 1 --samples-x hx.txt --samples-y hy.txt ax.csv ay.csv", 0, NULL,
     "verdict: consistent with eps\n"},
    {"draws: an honest sampler by the inverse CDFs (X: u; Y: 2 log(1 + u (e^1/2 - 1)))",
     "awk 'BEGIN {for (i = 0; i < 2000; i++) print (i + 0.5) / 2000}' > ix.txt && "
     "awk 'BEGIN {for (i = 0; i < 2000; i++) print 2 * log(1 + (i + 0.5) / 2000 * "
     "(exp(0.5) - 1))}' > iy.txt && "
     "$E audit --epsilon 1 --samples-x ix.txt --samples-y iy.txt ax.csv ay.csv", 0, NULL,
     "verdict: consistent with eps\n"},
    {"draws: a planted non-private sampler (X in [0, 0.1), Y in [0.9, 1)) is VIOLATED",
     "awk 'BEGIN {for (i = 0; i < 1000; i++) print 0.0001 * i}' > px.txt && "
     "awk 'BEGIN {for (i = 0; i < 1000; i++) print 0.9 + 0.0001 * i}' > py.txt && "
     "$E audit --epsilon 1 --samples-x px.txt --samples-y py.txt ax.csv ay.csv", 1, NULL,
     "verdict: VIOLATED: the draws show a loss above eps\n"},
    {"draws: ... on the interval up to X's quantile 2/16 = 0.125",
     "awk 'BEGIN {for (i = 0; i < 1000; i++) print 0.0001 * i}' > px.txt && "
     "awk 'BEGIN {for (i = 0; i < 1000; i++) print 0.9 + 0.0001 * i}' > py.txt && "
     "$E audit --epsilon 1 --samples-x px.txt --samples-y py.txt ax.csv ay.csv", 1, NULL,
     "  X->Y: 4.53122 on (-inf, 0.125] (4 cells)\n"},
    {"draws: --samples-are does not apply to continuous draws (an error, not ignored)",
     "$E audit --epsilon 1 --samples-are labels --samples-x d.txt --samples-y d.txt ax.csv ay.csv",
     2, "--samples-are does not apply to continuous scenarios", ""},
    {"draws: a NaN draw is named by file and line",
     "$E audit --epsilon 1 --samples-x nan.txt --samples-y nan.txt ax.csv ay.csv", 2,
     "nan.txt:2: nan: a draw of a continuous law is a number", ""},
    /* ---- compare judges every column it is given: JSON's log_probability as the CSV's */
    {"columns: CSV, a log-probability of +5 fails (as before)",
     "$E compare --epsilon 1 --probs plus5.csv ab.csv", 1, NULL,
     "FAIL a: given 5, exact -0.47407698418010668"},
    {"columns: JSON, a log-probability of +5 fails",
     "$E compare --epsilon 1 --probs plus5.json ab.csv", 1, NULL,
     "FAIL a: given 5, exact -0.47407698418010668"},
    {"columns: JSON, ... and only that candidate",
     "$E compare --epsilon 1 --probs plus5.json ab.csv", 1, NULL, "verdict: FAIL: 1 of 2"},
    {"columns: JSON numbers, a log-probability of 5 fails",
     "$E compare --epsilon 1 --probs num.json ab.csv", 1, NULL, "FAIL a: given 5"},
    {"columns: JSON with right log-probabilities passes",
     "$E compare --epsilon 1 --probs ok.json ab.csv", 0, NULL, "verdict: PASS"},
    {"columns: JSON, a log_probability neither string nor number",
     "$E compare --epsilon 1 --probs bool.json ab.csv", 2,
     "bool.json: candidates[0]: bad \"log_probability\" (a string or a number)", ""},
    {"columns: probs --format json judged by compare passes",
     "$E probs --epsilon 1 --format json ab.csv > p.json && "
     "$E compare --epsilon 1 --probs p.json ab.csv", 0, NULL, "verdict: PASS"},
    /* E[u] of PF here is 8763055 - 10^-634285 (a hair below the 6-digit tie 8.763055e6):
       no law of 8192 bits decides it; the message names the report's own limit */
    {"limits: the pf utility report says its own precision limit",
     "printf 'a,1\\nb,8763055\\n' | $E utility --epsilon 0.3333333333333333 --variant pf "
     "--digits 6", 3, "--variant pf: the utility report could not be decided within 8192 bits",
     ""},
};

START_TEST(table)
{
    fixtures();
    em_cli_table_check(&rows[_i]);
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
