/* cmd_example.c: `expmech example NAME`: the seed documents' scenarios, exactly. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "api/em_seeds.h"
#include "io/em_scn_text.h"

static const char help[] =
    "usage: expmech example NAME\n"
    "       expmech example --list\n"
    "\n"
    "Prints a scenario from the seed documents (lines 'label,utility' with exact\n"
    "utilities and a '# sensitivity:' header), ready for the other commands:\n"
    "  expmech example marital | expmech probs --epsilon 1\n"
    "Run with --list for the names.\n";

static void marital(void)
{
    puts("# example: marital: marital status of the Adult data (seed 000), score = count/1000");
    puts("# (the seed's utilities 10.683 etc. exactly); use epsilon 1 as in the seed");
    puts("# sensitivity: 1");
    for (int i = 0; i < 7; i++)
        printf("%s,%ld.%03ld\n", em_marital_labels[i], em_marital_counts[i] / 1000, em_marital_counts[i] % 1000);
}

static void marital_raw(void)
{
    puts("# example: marital-raw: the same with raw counts as the score (sensitivity 1)");
    puts("# with epsilon 1 the mode has probability 1 - 6.1e-933, Married-AF-spouse 9.9e-3248");
    puts("# sensitivity: 1");
    for (int i = 0; i < 7; i++)
        printf("%s,%ld\n", em_marital_labels[i], em_marital_counts[i]);
}

static void occupation(void)
{
    puts("# example: occupation: occupations of the Adult data (seed 004), score = count/max count");
    puts("# (exact fractions count/4140); use epsilon 1 as in the seed");
    puts("# sensitivity: 1");
    for (int i = 0; i < 15; i++)
        printf("%s,%ld/4140\n", em_occupation_labels[i], em_occupation_counts[i]);
}

static void socks(void)
{
    puts("# example: socks: 100 rows, 10 Violent (seed 001), score = frequency count/100;");
    puts("# the seed uses epsilon 5.5, 1 and 10 (and the monotone variant: --variant monotone)");
    puts("# sensitivity: 1");
    puts("Violent,0.1");
    puts("NonViolent,0.9");
}

static void socks_red(void)
{
    puts("# example: socks-red: the Red group of seed 001 (70 rows, 9 Violent), score count/70;");
    puts("# the seed uses epsilon 0.7 * 10 = 7");
    puts("# sensitivity: 1");
    puts("Violent,9/70");
    puts("NonViolent,61/70");
}

static void socks_blue(void)
{
    puts("# example: socks-blue: the Blue group of seed 001 (30 rows, 1 Violent), score count/30;");
    puts("# the seed uses epsilon 0.3 * 10 = 3");
    puts("# sensitivity: 1");
    puts("Violent,1/30");
    puts("NonViolent,29/30");
}

/* score(A, x) = -2 * (fewest replacements giving median x), for sorted A of odd size k:
 * L = #{a < x}, E = #{a == x}, G = #{a > x}; replacements = max(E ? 0 : 1, L - h, G - h)
 * with h = (k - 1) / 2 (seed 002: 0 at 104, -2 at 102, 103, 105, -4 at 100, 101). */
static long median_score(const long *a, int k, long x)
{
    int L = 0, E = 0, G = 0, h = (k - 1) / 2;
    for (int i = 0; i < k; i++) {
        if (a[i] < x) L++;
        else if (a[i] == x) E++;
        else G++;
    }
    int r = E ? 0 : 1;
    if (L - h > r) r = L - h;
    if (G - h > r) r = G - h;
    return -2L * r;
}

static void median(void)
{
    static const long A[7] = {1, 100, 102, 104, 105, 200, 365};
    puts("# example: median: the 'nice' dataset A = {1, 100, 102, 104, 105, 200, 365} of seed 002,");
    puts("# candidates 0..400 scored by rank distance (0 at 104, -2 at 102, 103, 105, -4 at 100, 101)");
    /* the proven bound of the rank-distance score (median_private, Scores.mlw: Delta = 2);
     * a header of 1 made the scenario 2 epsilon-DP */
    puts("# sensitivity: 2");
    for (long x = 0; x <= 400; x++)
        printf("%ld,%ld\n", x, median_score(A, 7, x));
}

static void median_worst(void)
{
    static const long A[7] = {0, 0, 0, 0, 1000000, 1000000, 1000000};
    puts("# example: median-worst: seed 002's worst case {0, 0, 0, 0, 10^6, 10^6, 10^6},");
    puts("# candidates 0..10^6 (score 0 at 0, -2 for every i in 1 .. 10^6)");
    /* the proven bound of the rank-distance score (median_private, Scores.mlw: Delta = 2);
     * a header of 1 made the scenario 2 epsilon-DP */
    puts("# sensitivity: 2");
    for (long x = 0; x <= 1000000; x++)
        printf("%ld,%ld\n", x, median_score(A, 7, x));
}

static void pricing(void)
{
    /* bids {1, 1, 1, 3.01}; u(r) = r * #{bids >= r}; r = 0, 0.001, ..., 3.5; Delta = r_max */
    puts("# example: pricing: seed 003's bids x = {1, 1, 1, 3.01}, revenue u(r) = r * #{x_i >= r},");
    puts("# prices r = 0, 0.001, ..., 3.5; sensitivity r_max = 3.5");
    puts("# sensitivity: 3.5");
    static const long bids[4] = {1000, 1000, 1000, 3010}; /* thousandths */
    for (long k = 0; k <= 3500; k++) {
        long cnt = 0;
        for (int i = 0; i < 4; i++)
            if (bids[i] >= k) cnt++;
        long u = k * cnt; /* thousandths */
        printf("%ld.%03ld,%ld.%03ld\n", k / 1000, k % 1000, u / 1000, u % 1000);
    }
}

static void laplace(void)
{
    /* u = -|x - r|, x = 3.5, r in [-20, 20) step 0.001 */
    puts("# example: laplace: seed 003's Laplace mechanism as an exponential mechanism:");
    puts("# u(r) = -|3.5 - r| for r = -20, -19.999, ..., 19.999; sensitivity 1");
    puts("# sensitivity: 1");
    for (long k = -20000; k < 20000; k++) {
        long d = 3500 - k;
        if (d < 0) d = -d;
        long ak = k < 0 ? -k : k;
        printf("%s%ld.%03ld,%s%ld.%03ld\n", k < 0 ? "-" : "", ak / 1000, ak % 1000,
               d ? "-" : "", d / 1000, d % 1000);
    }
}

static const struct {
    const char *name;
    void (*print)(void);
    const char *what;
} examples[] = {
    {"marital", marital, "marital status, score count/1000 (seed 000): 7 candidates"},
    {"marital-raw", marital_raw, "marital status, raw counts: probabilities down to 1e-3247"},
    {"occupation", occupation, "occupations, score count/max count (seed 004): 15 candidates"},
    {"socks", socks, "Violent/NonViolent frequency 0.1/0.9 (seed 001)"},
    {"socks-red", socks_red, "the Red group: 9/70, 61/70 (seed 001)"},
    {"socks-blue", socks_blue, "the Blue group: 1/30, 29/30 (seed 001)"},
    {"median", median, "median by rank distance, dataset A, candidates 0..400 (seed 002)"},
    {"median-worst", median_worst, "the worst-case median dataset, 10^6 + 1 candidates (seed 002)"},
    {"pricing", pricing, "revenue of a posted price, 3501 prices (seed 003)"},
    {"laplace", laplace, "Laplace as an exponential mechanism, 40000 candidates (seed 003)"},
    {NULL, NULL, NULL},
};

typedef struct args {
    const char *name;
    int list, n;
} args;

static int name_arg(void *dst, const char *cmd, const char *a)
{
    (void)cmd;
    args *p = dst;
    p->name = a;
    p->n++;
    return -1;
}

static const em_cli_opt opts[] = {
    {"--list", EM_CLI_FLAG, offsetof(args, list), NULL, NULL, NULL, NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

int cmd_example(int argc, char **argv)
{
    const em_cli_spec sp = {.cmd = "expmech example", .opts = opts, .help = help,
                            .see = "see expmech example --help", .arg = name_arg};
    args p = {NULL, 0, 0};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc >= 0)
        return rc;
    if (p.list && !p.n) {
        for (int i = 0; examples[i].name; i++)
            printf("%-13s %s\n", examples[i].name, examples[i].what);
        return EM_EXIT_OK;
    }
    if (p.list || p.n != 1 || p.name[0] == '-') {
        fputs("expmech example: expected one NAME (see --list)\n", stderr);
        return EM_EXIT_USAGE;
    }
    for (int i = 0; examples[i].name; i++)
        if (!strcmp(p.name, examples[i].name)) {
            examples[i].print();
            if (fflush(stdout) != 0 || ferror(stdout))
                return EM_EXIT_INTERNAL;
            return EM_EXIT_OK;
        }
    fprintf(stderr, "expmech example: unknown example '%s'; known:", p.name);
    for (int i = 0; examples[i].name; i++)
        fprintf(stderr, " %s", examples[i].name);
    fputc('\n', stderr);
    return EM_EXIT_USAGE;
}
