/* em_example.c: the seed documents' scenarios (em_example.h), each written exactly: the
 * data of the seeds (api/em_seeds.h) scored as each seed document scores it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/em_seeds.h"
#include "base/em_error.h"
#include "em_example.h"
#include "api/em_obj.h"

/* Each example's rows (its header is example_plain's, from the table below). */

static void marital(FILE *f)
{
    for (int i = 0; i < 7; i++)
        fprintf(f, "%s,%ld.%03ld\n",
                em_marital_labels[i], em_marital_counts[i] / 1000, em_marital_counts[i] % 1000);
}

static void marital_raw(FILE *f)
{
    for (int i = 0; i < 7; i++)
        fprintf(f, "%s,%ld\n", em_marital_labels[i], em_marital_counts[i]);
}

static void occupation(FILE *f)
{
    for (int i = 0; i < 15; i++)
        fprintf(f, "%s,%ld/4140\n", em_occupation_labels[i], em_occupation_counts[i]);
}

static void socks(FILE *f)
{
    fputs("Violent,0.1\nNonViolent,0.9\n", f);
}

static void socks_red(FILE *f)
{
    fputs("Violent,9/70\nNonViolent,61/70\n", f);
}

static void socks_blue(FILE *f)
{
    fputs("Violent,1/30\nNonViolent,29/30\n", f);
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

static void median(FILE *f)
{
    static const long A[7] = {1, 100, 102, 104, 105, 200, 365};
    for (long x = 0; x <= 400; x++)
        fprintf(f, "%ld,%ld\n", x, median_score(A, 7, x));
}

static void median_worst(FILE *f)
{
    static const long A[7] = {0, 0, 0, 0, 1000000, 1000000, 1000000};
    for (long x = 0; x <= 1000000; x++)
        fprintf(f, "%ld,%ld\n", x, median_score(A, 7, x));
}

static void pricing(FILE *f)
{
    /* bids {1, 1, 1, 3.01}; u(r) = r * #{bids >= r}; r = 0, 0.001, ..., 3.5; Delta = r_max */
    static const long bids[4] = {1000, 1000, 1000, 3010}; /* thousandths */
    for (long k = 0; k <= 3500; k++) {
        long cnt = 0;
        for (int i = 0; i < 4; i++)
            if (bids[i] >= k) cnt++;
        long u = k * cnt; /* thousandths */
        fprintf(f, "%ld.%03ld,%ld.%03ld\n", k / 1000, k % 1000, u / 1000, u % 1000);
    }
}

static void laplace(FILE *f)
{
    /* u = -|x - r|, x = 3.5, r in [-20, 20) step 0.001 */
    for (long k = -20000; k < 20000; k++) {
        long d = 3500 - k;
        if (d < 0) d = -d;
        long ak = k < 0 ? -k : k;
        fprintf(f, "%s%ld.%03ld,%s%ld.%03ld\n", k < 0 ? "-" : "", ak / 1000, ak % 1000,
               d ? "-" : "", d / 1000, d % 1000);
    }
}

/* Every example is its header, "# example: NAME: ABOUT", "# MORE" and "# sensitivity: S",
 * then its rows. */
static const struct {
    const char *name;
    void (*print)(FILE *f);
    const char *what;  /* its line in em_example's list */
    const char *about, *more, *sensitivity;
} examples[] = {
    {"marital", marital, "marital status, score count/1000 (seed 000): 7 candidates",
     "marital status of the Adult data (seed 000), score = count/1000",
     "(the seed's utilities 10.683 etc. exactly); use epsilon 1 as in the seed", "1"},
    {"marital-raw", marital_raw, "marital status, raw counts: probabilities down to 1e-3247",
     "the same with raw counts as the score (sensitivity 1)",
     "with epsilon 1 the mode has probability 1 - 6.1e-933, Married-AF-spouse 9.9e-3248", "1"},
    {"occupation", occupation, "occupations, score count/max count (seed 004): 15 candidates",
     "occupations of the Adult data (seed 004), score = count/max count",
     "(exact fractions count/4140); use epsilon 1 as in the seed", "1"},
    {"socks", socks, "Violent/NonViolent frequency 0.1/0.9 (seed 001)",
     "100 rows, 10 Violent (seed 001), score = frequency count/100;",
     "the seed uses epsilon 5.5, 1 and 10 (and the monotone variant: --variant monotone)", "1"},
    {"socks-red", socks_red, "the Red group: 9/70, 61/70 (seed 001)",
     "the Red group of seed 001 (70 rows, 9 Violent), score count/70;",
     "the seed uses epsilon 0.7 * 10 = 7", "1"},
    {"socks-blue", socks_blue, "the Blue group: 1/30, 29/30 (seed 001)",
     "the Blue group of seed 001 (30 rows, 1 Violent), score count/30;",
     "the seed uses epsilon 0.3 * 10 = 3", "1"},
    /* the medians' 2: the proven bound of the rank-distance score (median_private,
     * Scores.mlw: Delta = 2); a header of 1 made the scenario 2 epsilon-DP */
    {"median", median, "median by rank distance, dataset A, candidates 0..400 (seed 002)",
     "the 'nice' dataset A = {1, 100, 102, 104, 105, 200, 365} of seed 002,",
     "candidates 0..400 scored by rank distance (0 at 104, -2 at 102, 103, 105, -4 at 100, 101)",
     "2"},
    {"median-worst", median_worst, "the worst-case median dataset, 10^6 + 1 candidates (seed 002)",
     "seed 002's worst case {0, 0, 0, 0, 10^6, 10^6, 10^6},",
     "candidates 0..10^6 (score 0 at 0, -2 for every i in 1 .. 10^6)", "2"},
    {"pricing", pricing, "revenue of a posted price, 3501 prices (seed 003)",
     "seed 003's bids x = {1, 1, 1, 3.01}, revenue u(r) = r * #{x_i >= r},",
     "prices r = 0, 0.001, ..., 3.5; sensitivity r_max = 3.5", "3.5"},
    {"laplace", laplace, "Laplace as an exponential mechanism, 40000 candidates (seed 003)",
     "seed 003's Laplace mechanism as an exponential mechanism:",
     "u(r) = -|3.5 - r| for r = -20, -19.999, ..., 19.999; sensitivity 1", "1"},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

static int example_plain(const char *name, char **text, em_error *err)
{
    if (!text)
        return em_err(err, EM_ERR_NULL, "em_example: text is NULL");
    *text = NULL;
    size_t i = 0;
    while (name && examples[i].name && strcmp(examples[i].name, name))
        i++;
    if (name && !examples[i].name) { /* the names known, for a caller who mistyped one */
        char known[256] = "";
        for (size_t k = 0, at = 0; examples[k].name && at < sizeof known; k++)
            at += (size_t)snprintf(known + at, sizeof known - at, " %s", examples[k].name);
        return em_err(err, EM_ERR_DOMAIN, "unknown example '%.60s'; known:%s", name, known);
    }
    size_t len;
    FILE *f = open_memstream(text, &len);
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    if (name) {
        fprintf(f, "# example: %s: %s\n# %s\n# sensitivity: %s\n", examples[i].name,
                examples[i].about, examples[i].more, examples[i].sensitivity);
        examples[i].print(f);
    }
    for (size_t k = 0; !name && examples[k].name; k++)
        fprintf(f, "%s\t%s\n", examples[k].name, examples[k].what);
    if (ferror(f) | (fclose(f) != 0)) {
        free(*text);
        *text = NULL;
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    return EM_OK;
}

int em_example(const char *name, char **text, em_error *err)
{
    return EM_OBJ_STRINGS(example_plain(name, text, err), err, text);
}
