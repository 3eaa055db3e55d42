/* cmd_check.c: `expmech check`: goodness of fit of another implementation's draws. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "io/em_label.h"
#include "io/em_samples.h"
#include "judge/em_ccheck.h"
#include "judge/em_ks.h"
#include "oracle/em_cont.h"
#include "oracle/em_gof.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"

static const char help[] =
    "usage: expmech check --epsilon E [--sensitivity D] [--variant V] --samples SAMPLES\n"
    "                     [--alpha A] [--min-expected M] [FILE]\n"
    "\n"
    "Tests draws of another implementation (SAMPLES: one label or 0-based index per line;\n"
    "'-' for standard input; blank lines and '#' comments skipped) against the exact\n"
    "distribution of the scenario FILE:\n"
    "  - G-test (likelihood ratio) with a chi-square p-value; cells pooled, smallest\n"
    "    expected first, until each expects >= M draws (default 20: the G-test keeps its\n"
    "    nominal level at alpha = 1e-6 there);\n"
    "  - support check: any draw of a probability-0 candidate (excluded, or below 2^-1075)\n"
    "    fails;\n"
    "  - one-sided exact binomial test of the pooled tail (cells expecting < M draws)\n"
    "    against over-representation;\n"
    "  - the power: the smallest relative error on the most probable cell that this number\n"
    "    of draws detects with probability 0.99 at level A (noncentral chi-square).\n"
    "Prints the per-cell table, the statistics and the verdict.\n"
    "\n"
    "A scenario with a measure column ('# measure: yes') is tested the same way against\n"
    "P(r) proportional to m_r exp(c u_r) (the weighted oracle's correctly rounded doubles).\n"
    "\n"
    "A continuous scenario ('# output: continuous'): SAMPLES has one number per line\n"
    "(decimal or hex float, e.g. %.17g; each read as the nearest double; nan and inf are\n"
    "draws to judge), tested against the exact law:\n"
    "  - 20 bins of equal exact probability, edges at the exact quantiles k/20 rounded to\n"
    "    doubles, plus the piece breakpoints (when the law has at most 20 pieces) where\n"
    "    both parts keep probability >= 1/80; each bin's exact probability recomputed at\n"
    "    the rounded edges; G-test over the bins as above;\n"
    "  - Kolmogorov-Smirnov D against the exact CDF, its p-value exact (Marsaglia-Tsang-\n"
    "    Wang), or below 1e-3 twice the exact one-sided tail (never below the exact\n"
    "    p-value), or for large N at moderate p Kolmogorov's limit with Stephens'\n"
    "    correction (printed '~', with the rigorous bound); the output names the method;\n"
    "  - support: a draw outside R (beyond its ends or in a gap between pieces, allowing\n"
    "    the rounding of the ends to doubles), or NaN, rejects.\n"
    "  The verdict rejects when any of G, the pooled tail or KS has p < A, or on support.\n"
    "\n"
    "  --epsilon E, --sensitivity D, --variant V   as for `expmech probs`; --variant pf\n"
    "                     tests against permute-and-flip's exact pmf (at most 4096\n"
    "                     candidates), e.g. draws of `expmech sample --variant pf`\n"
    "  --samples SAMPLES  the draws (required)\n"
    "  --samples-are labels|indices\n"
    "                     what a finite scenario's draws are; without it a draw is a label,\n"
    "                     or a 0-based index when it is digits and no label, and a draw that\n"
    "                     is the label of one candidate and the index of another is refused\n"
    "                     as ambiguous\n"
    "  --force            run a --sensitivity below the file's header, or --variant monotone\n"
    "                     without '# monotone: yes' (refused otherwise: not epsilon-DP)\n"
    "  --alpha A          significance level of each test (default 1e-6)\n"
    "  --min-expected M   minimum expected draws per pooled cell (default 20)\n"
    "\n"
    "Too little data: when every draw falls in one pooled cell (no cell but one expects M\n"
    "draws), nothing can pass: the exact binomial tail of each candidate (each bin)\n"
    "P(Bin(N, p) >= k), at level A / (candidates), still rejects counts impossible at A\n"
    "(10 draws all of a candidate of probability 5e-4: p = 9.8e-34); otherwise the verdict\n"
    "is INSUFFICIENT DATA, exit 4.\n"
    "\n"
    "Exit status: 0 pass, 1 reject, 2 bad input, 3 internal failure (a write error\n"
    "included), 4 insufficient data (never a pass).\n";

static long find_label(const void *ctx, const char *label, size_t len)
{
    return em_scenario_find((const em_scenario *)ctx, label, len);
}

/* Counts the draws in buf (io/em_samples.h); EM_EXIT_USAGE after a message naming file and
 * line, or -1. */
static int read_draws(const em_cli *c, const char *name, const char *buf, size_t len,
                      const em_scenario *sc, uint64_t *counts)
{
    char err[EM_SCENARIO_ERRLEN];
    uint64_t total;
    int st = em_samples_count(buf, len, name, sc->n, find_label, sc, c->samples_are, counts,
                              &total, err, sizeof err);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c->cmd, st == EM_ERR_NOMEM ? "out of memory" : err);
        return st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
    }
    return -1;
}

/* neither pass nor reject: said on both streams, exit 4 */
static void print_insufficient(const em_cli *c, uint64_t n, size_t ncells)
{
    printf("verdict: INSUFFICIENT DATA at alpha = %g: the %llu draws leave %zu pooled cell "
           "(each must expect >= %g draws), so no goodness-of-fit test can run, and no count "
           "is impossible at alpha; take more draws\n",
           c->alpha, (unsigned long long)n, ncells, c->min_expected);
    fprintf(stderr, "%s: insufficient data: not a pass (exit %d)\n", c->cmd,
            EM_EXIT_INSUFFICIENT);
}

static void print_edge(double e)
{
    if (isinf(e))
        printf("%24s", e < 0 ? "-inf" : "inf");
    else
        printf("%24.17g", e);
}

/* `check` on a continuous scenario: em_ccheck does the work; this prints it. */
static int check_cont(em_cli *c, em_scenario *sc, const mpq_t delta, int variant)
{
    em_cont *C = NULL;
    double *x = NULL;
    unsigned long *line = NULL;
    char *buf = NULL;
    size_t n = 0;
    em_ccheck_result r;
    memset(&r, 0, sizeof r);
    int rc = em_cli_law(c, sc, delta, variant, &C);
    if (rc >= 0)
        goto done;
    {
        const char *sname;
        size_t len;
        char err[EM_SCENARIO_ERRLEN];
        rc = em_cli_read_input(c, c->samples, (size_t)16 << 30, &sname, &buf, &len);
        if (rc >= 0)
            goto done;
        int st = em_read_draws(buf, len, sname, &x, &line, &n, err, sizeof err);
        if (st != EM_OK) {
            fprintf(stderr, "%s: %s\n", c->cmd, err);
            rc = st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
            goto done;
        }
        if (n == 0) {
            fprintf(stderr, "%s: %s: no draws\n", c->cmd, sname);
            rc = EM_EXIT_USAGE;
            goto done;
        }
    }
    int st = em_ccheck(C, x, n, c->alpha, c->min_expected, EM_CCHECK_BINS, &r);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c->cmd, em_cont_strerror(st));
        rc = st == EM_ERR_UNDECIDED || st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
        goto done;
    }
    printf("%-5s %24s %24s %12s %14s %10s %10s %5s\n", "bin", "from", "to", "probability",
           "expected", "observed", "std.resid", "pool");
    for (size_t k = 0; k < r.ncells; k++) {
        const em_ccheck_cell *b = &r.cells[k];
        double E = (double)r.n * b->p;
        printf("%-5zu ", k);
        print_edge(b->lo);
        putchar(' ');
        print_edge(b->hi);
        printf(" %12.6g %14.2f %10llu %10.3f %5zu%s\n", b->p, E, (unsigned long long)b->obs,
               E > 0 ? ((double)b->obs - E) / sqrt(E) : 0.0, b->pool,
               b->lo_kind == EM_CC_EDGE_BREAK ? "  (from a piece breakpoint)" : "");
    }
    size_t nb = 0;
    for (size_t k = 0; k < r.ncells; k++)
        nb += r.cells[k].lo_kind == EM_CC_EDGE_BREAK;
    printf("\ndraws: %llu; %zu bins (%zu edges at exact quantiles k/%d rounded to doubles, %zu "
           "at piece breakpoints), %zu pooled cells (each expecting >= %g)\n",
           (unsigned long long)r.n, r.ncells, r.ncells - 1 - nb, EM_CCHECK_BINS, nb,
           r.gof.ncells, c->min_expected);
    printf("G = %.6g, df = %d, p-value = %.6g\n", r.gof.g, r.gof.df, r.gof.p_value);
    printf("Pearson X^2 = %.6g, largest |standardised residual| = %.4g\n", r.gof.x2,
           r.gof.max_std_resid);
    printf("pooled-tail binomial test: p = %.6g%s\n", r.gof.tail_p,
           r.gof.tail_p == 1.0 ? " (no draws in a pooled tail, or no tail)" : "");
    printf("Kolmogorov-Smirnov: D = %.6g (sqrt(N) D = %.4g) at x = %.17g (%s), p-value %s %.6g "
           "[%s]",
           r.ks_d, sqrt((double)r.ks_n) * r.ks_d, r.ks_x,
           r.ks_side > 0 ? "F_N(x) - F(x)" : "F(x) - F_N(x-)",
           r.ks_method == EM_KS_ASYMPTOTIC ? "~" : "=", r.ks_p, em_ks_method_name(r.ks_method));
    if (r.ks_method == EM_KS_ASYMPTOTIC)
        printf(", rigorously <= %.6g", r.ks_p_upper);
    printf("\n");
    if (r.outside)
        printf("support: VIOLATION: %llu draw(s) outside R, the first %.17g (line %lu)\n",
               (unsigned long long)r.outside, x[r.first_outside], line[r.first_outside]);
    else
        printf("support: ok (every draw in R, up to the rounding of its ends to doubles)\n");
    if (isinf(r.gof.min_rel_err))
        printf("power: one cell only, nothing to detect\n");
    else
        printf("power: the smallest relative error on the probability of the most probable "
               "cell detectable with probability 0.99 at alpha = %g is %.3g%%\n",
               c->alpha, 100 * r.gof.min_rel_err);
    printf("exact binomial tail of each bin: smallest p = %.6g (Bonferroni level %.3g)\n",
           r.gof.cand_p, r.gof.cand_alpha);
    if (r.reject) {
        printf("verdict: REJECT at alpha = %g:", c->alpha);
        if (r.gof.p_value < c->alpha)
            printf(" goodness of fit (p = %.3g)", r.gof.p_value);
        if (r.gof.tail_p < c->alpha)
            printf(" pooled tail over-represented (p = %.3g)", r.gof.tail_p);
        if (r.gof.cand_p < r.gof.cand_alpha)
            printf(" bin %zu over-represented (exact binomial tail p = %.3g)", r.gof.cand_index,
                   r.gof.cand_p);
        if (r.reject_ks)
            printf(" Kolmogorov-Smirnov (p = %.3g)", r.ks_p);
        if (r.reject_support)
            printf(" support violation");
        printf("\n");
        rc = EM_EXIT_REJECT;
    } else if (r.verdict == EM_GOF_INSUFFICIENT) {
        print_insufficient(c, r.n, r.gof.ncells);
        rc = EM_EXIT_INSUFFICIENT;
    } else {
        printf("verdict: PASS at alpha = %g\n", c->alpha);
        rc = EM_EXIT_OK;
    }
    fflush(stdout);
done:
    em_ccheck_free(&r);
    em_cont_free(C);
    free(x);
    free(line);
    free(buf);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech check");
    em_scenario sc;
    em_scenario_init(&sc);
    mpq_t delta;
    mpq_init(delta);
    double *p = NULL;
    uint64_t *counts = NULL;
    size_t *cell_of = NULL;
    char *buf = NULL;
    int variant;
    int rc = em_cli_start(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_SAMPLES |
                              EM_OPT_ALPHA | EM_OPT_MIN_EXPECTED | EM_OPT_FILE,
                          EM_OPT_EPSILON | EM_OPT_SAMPLES, help, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    if (sc.continuous) {
        rc = check_cont(&c, &sc, delta, variant);
        goto done;
    }

    /* the draws */
    {
        const char *sname;
        size_t len;
        rc = em_cli_read_input(&c, c.samples, (size_t)16 << 30, &sname, &buf, &len);
        if (rc >= 0)
            goto done;
        counts = calloc(sc.n, sizeof *counts);
        if (!counts) {
            rc = EM_EXIT_INTERNAL;
            goto done;
        }
        rc = read_draws(&c, sname, buf, len, &sc, counts);
        if (rc >= 0)
            goto done;
    }

    p = malloc(sc.n * sizeof *p);
    cell_of = malloc(sc.n * sizeof *cell_of);
    if (!p || !cell_of) {
        fprintf(stderr, "%s: out of memory\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    const int pf = variant == EM_CLI_VARIANT_PF;
    if (pf && sc.n > EM_PF_PMF_MAX_N) {
        fprintf(stderr, "%s: --variant pf: %s has %zu candidates; the exact permute-and-flip pmf "
                        "is limited to %d\n",
                c.cmd, sc.name, sc.n, EM_PF_PMF_MAX_N);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    /* the exact probabilities, correctly rounded to doubles; with a measure column, from the
     * weighted oracle */
    int st;
    if (sc.has_measure) {
        em_cont *law = NULL;
        rc = em_cli_law(&c, &sc, delta, variant, &law);
        if (rc >= 0)
            goto done;
        st = em_cont_doubles(law, p);
        em_cont_free(law);
        if (st != EM_OK) {
            fprintf(stderr, "%s: %s\n", c.cmd, em_cont_strerror(st));
            rc = st == EM_ERR_UNDECIDED || st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
            goto done;
        }
    } else {
        st = pf ? em_pf_pmf(sc.n, sc.u, sc.excluded, c.eps, delta, EM_STANDARD, p, 0, NULL)
                : em_oracle_doubles(sc.n, sc.u, sc.excluded, c.eps, delta, variant, p, NULL);
    }
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s%s\n", c.cmd, pf ? "--variant pf: " : "", em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }
    em_gof_result r;
    st = em_gof_test(sc.n, p, counts, c.alpha, c.min_expected, &r, cell_of);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c.cmd,
                st == EM_ERR_DOMAIN ? "no draws to test" : em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }

    /* per-cell table */
    {
        double *E = calloc(r.ncells, sizeof *E);
        uint64_t *O = calloc(r.ncells, sizeof *O);
        size_t *first = malloc(r.ncells * sizeof *first), *members = calloc(r.ncells, sizeof *members);
        if (!E || !O || !first || !members) {
            free(E); free(O); free(first); free(members);
            rc = EM_EXIT_INTERNAL;
            goto done;
        }
        for (size_t i = sc.n; i-- > 0;) {
            size_t k = cell_of[i];
            if (k == EM_GOF_NO_CELL)
                continue;
            E[k] += (double)r.n_draws * p[i];
            O[k] += counts[i];
            first[k] = i;
            members[k]++;
        }
        printf("%-6s %14s %12s %10s  %s\n", "cell", "expected", "observed", "std.resid", "candidates");
        for (size_t k = 0; k < r.ncells; k++) {
            double z = ((double)O[k] - E[k]) / sqrt(E[k]);
            printf("%-6zu %14.2f %12llu %10.3f  ", k, E[k], (unsigned long long)O[k], z);
            em_label_human(stdout, sc.labels[first[k]]);
            if (members[k] > 1)
                printf(" (+%zu pooled)", members[k] - 1);
            putchar('\n');
        }
        free(E); free(O); free(first); free(members);
    }
    size_t zero_cells = 0;
    for (size_t i = 0; i < sc.n; i++)
        if (cell_of[i] == EM_GOF_NO_CELL)
            zero_cells++;
    printf("\ndraws: %llu over %zu candidates (%zu of probability 0 in double), %zu pooled cells "
           "(each expecting >= %g)\n",
           (unsigned long long)r.n_draws, sc.n, zero_cells, r.ncells, c.min_expected);
    printf("G = %.6g, df = %d, p-value = %.6g\n", r.g, r.df, r.p_value);
    printf("Pearson X^2 = %.6g, largest |standardised residual| = %.4g\n", r.x2, r.max_std_resid);
    printf("pooled-tail binomial test: p = %.6g%s\n", r.tail_p,
           r.tail_p == 1.0 ? " (no draws in a pooled tail, or no tail)" : "");
    if (r.support_violation)
        printf("support: VIOLATION: '%s' (probability 0) was drawn %llu time(s)\n",
               em_cli_human(sc.labels[r.support_index]), (unsigned long long)counts[r.support_index]);
    else
        printf("support: ok (no draw of a probability-0 candidate)\n");
    if (isinf(r.min_rel_err))
        printf("power: one cell only, nothing to detect\n");
    else
        printf("power: the smallest relative error on the most probable cell detectable with "
               "probability 0.99 at alpha = %g is %.3g%%\n",
               c.alpha, 100 * r.min_rel_err);
    if (r.cand_index != EM_GOF_NO_CELL) {
        printf("exact binomial tail of each candidate: smallest p = %.6g at ", r.cand_p);
        em_label_human(stdout, sc.labels[r.cand_index]);
        printf(" (Bonferroni level %.3g)\n", r.cand_alpha);
    }
    if (r.reject) {
        printf("verdict: REJECT at alpha = %g:", c.alpha);
        if (r.p_value < c.alpha)
            printf(" goodness of fit (p = %.3g)", r.p_value);
        if (r.tail_p < c.alpha)
            printf(" pooled tail over-represented (p = %.3g)", r.tail_p);
        if (r.cand_p < r.cand_alpha) {
            printf(" ");
            em_label_human(stdout, sc.labels[r.cand_index]);
            printf(" over-represented (exact binomial tail p = %.3g)", r.cand_p);
        }
        if (r.support_violation)
            printf(" support violation");
        printf("\n");
        rc = EM_EXIT_REJECT;
    } else if (r.verdict == EM_GOF_INSUFFICIENT) {
        print_insufficient(&c, r.n_draws, r.ncells);
        rc = EM_EXIT_INSUFFICIENT;
    } else {
        printf("verdict: PASS at alpha = %g\n", c.alpha);
        rc = EM_EXIT_OK;
    }
    fflush(stdout);
done:
    free(p);
    free(counts);
    free(cell_of);
    free(buf);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}
