/* cmd_check.c: `expmech check`: goodness of fit of another implementation's draws. */
#include <math.h>
#include <stdio.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech check --epsilon E [--sensitivity D] [--variant V] --samples SAMPLES\n"
    "                     [--alpha A] [--min-expected M] [FILE]\n"
    "\n"
    "Tests draws of another implementation (SAMPLES: one label or 0-based index per line;\n"
    "'-' for standard input; blank lines and '#' comments before the first draw skipped)\n"
    "against the exact distribution of the scenario FILE:\n"
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
    "                     tests against permute-and-flip's exact pmf, e.g. draws of\n"
    "                     `expmech sample --variant pf`\n"
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

static void print_edge(double e)
{
    if (isinf(e))
        printf("%24s", e < 0 ? "-inf" : "inf");
    else
        printf("%24.17g", e);
}

static void print_table(const em_scn *s, const em_check_result *r)
{
    if (em_scn_is_continuous(s)) {
        printf("%-5s %24s %24s %12s %14s %10s %10s %5s\n", "bin", "from", "to", "probability",
               "expected", "observed", "std.resid", "pool");
        for (size_t k = 0; k < r->nrows; k++) {
            const em_check_row *b = &r->rows[k];
            printf("%-5zu ", k);
            print_edge(b->lo);
            putchar(' ');
            print_edge(b->hi);
            printf(" %12.6g %14.2f %10llu %10.3f %5zu%s\n", b->probability, b->expected,
                   (unsigned long long)b->observed, b->std_resid, b->pool,
                   b->from_breakpoint ? "  (from a piece breakpoint)" : "");
        }
        printf("\ndraws: %llu; %zu bins (%zu edges at exact quantiles k/%d rounded to doubles, "
               "%zu at piece breakpoints), %zu pooled cells (each expecting >= %g)\n",
               (unsigned long long)r->n, r->nrows, r->nquantile, r->quantile_bins, r->nbreak,
               r->ncells, r->min_expected);
        return;
    }
    printf("%-6s %14s %12s %10s  %s\n", "cell", "expected", "observed", "std.resid", "candidates");
    for (size_t k = 0; k < r->nrows; k++) {
        const em_check_row *w = &r->rows[k];
        printf("%-6zu %14.2f %12llu %10.3f  %s", k, w->expected, (unsigned long long)w->observed,
               w->std_resid, em_cli_human(em_scn_label(s, w->first)));
        if (w->count > 1)
            printf(" (+%zu pooled)", w->count - 1);
        putchar('\n');
    }
    printf("\ndraws: %llu over %zu candidates (%zu of probability 0 in double), %zu pooled cells "
           "(each expecting >= %g)\n",
           (unsigned long long)r->n, r->ncand, r->nzero, r->ncells, r->min_expected);
}

static void print_stats(const em_scn *s, const em_check_result *r)
{
    int cont = em_scn_is_continuous(s);
    printf("G = %.6g, df = %zu, p-value = %.6g\n", r->statistic, r->df, r->p_value);
    printf("Pearson X^2 = %.6g, largest |standardised residual| = %.4g\n", r->pearson_x2,
           r->max_std_resid);
    printf("pooled-tail binomial test: p = %.6g%s\n", r->tail_p,
           r->tail_p == 1.0 ? " (no draws in a pooled tail, or no tail)" : "");
    if (cont) {
        printf("Kolmogorov-Smirnov: D = %.6g (sqrt(N) D = %.4g) at x = %.17g (%s), p-value %s "
               "%.6g [%s]",
               r->ks_d, sqrt((double)r->ks_n) * r->ks_d, r->ks_x,
               r->ks_side > 0 ? "F_N(x) - F(x)" : "F(x) - F_N(x-)", r->ks_approximate ? "~" : "=",
               r->ks_p, r->ks_method);
        if (r->ks_approximate)
            printf(", rigorously <= %.6g", r->ks_p_upper);
        printf("\n");
        if (r->support_count)
            printf("support: VIOLATION: %llu draw(s) outside R, the first %.17g (line %lu)\n",
                   (unsigned long long)r->support_count, r->outside_value, r->outside_line);
        else
            printf("support: ok (every draw in R, up to the rounding of its ends to doubles)\n");
    } else if (r->support_index != EM_JUDGE_NONE) {
        printf("support: VIOLATION: '%s' (probability 0) was drawn %llu time(s)\n",
               em_cli_human(em_scn_label(s, r->support_index)),
               (unsigned long long)r->support_count);
    } else {
        printf("support: ok (no draw of a probability-0 candidate)\n");
    }
    if (isinf(r->min_detectable))
        printf("power: one cell only, nothing to detect\n");
    else
        printf("power: the smallest relative error on %s most probable cell detectable with "
               "probability 0.99 at alpha = %g is %.3g%%\n",
               cont ? "the probability of the" : "the", r->alpha, 100 * r->min_detectable);
    if (cont)
        printf("exact binomial tail of each bin: smallest p = %.6g (Bonferroni level %.3g)\n",
               r->cand_p, r->cand_alpha);
    else if (r->cand_index != EM_JUDGE_NONE)
        printf("exact binomial tail of each candidate: smallest p = %.6g at %s (Bonferroni "
               "level %.3g)\n",
               r->cand_p, em_cli_human(em_scn_label(s, r->cand_index)), r->cand_alpha);
}

static int print_verdict(const char *cmd, const em_scn *s, const em_check_result *r)
{
    if (r->verdict == EM_VERDICT_REJECT) {
        printf("verdict: REJECT at alpha = %g:", r->alpha);
        if (r->reasons & EM_CHECK_R_FIT)
            printf(" goodness of fit (p = %.3g)", r->p_value);
        if (r->reasons & EM_CHECK_R_TAIL)
            printf(" pooled tail over-represented (p = %.3g)", r->tail_p);
        if ((r->reasons & EM_CHECK_R_CELL) && em_scn_is_continuous(s))
            printf(" bin %zu over-represented (exact binomial tail p = %.3g)", r->cand_index,
                   r->cand_p);
        else if (r->reasons & EM_CHECK_R_CELL)
            printf(" %s over-represented (exact binomial tail p = %.3g)",
                   em_cli_human(em_scn_label(s, r->cand_index)), r->cand_p);
        if (r->reasons & EM_CHECK_R_KS)
            printf(" Kolmogorov-Smirnov (p = %.3g)", r->ks_p);
        if (r->reasons & EM_CHECK_R_SUPPORT)
            printf(" support violation");
        printf("\n");
        if (r->diagnosis) /* the laws of known mistakes (em_conform.h) */
            printf("diagnosis: %s\n", r->diagnosis->sentence);
        return EM_EXIT_REJECT;
    }
    if (r->verdict == EM_VERDICT_INSUFFICIENT) {
        printf("verdict: INSUFFICIENT DATA at alpha = %g: the %llu draws leave %zu pooled cell "
               "(each must expect >= %g draws), so no goodness-of-fit test can run, and no "
               "count is impossible at alpha; take more draws\n",
               r->alpha, (unsigned long long)r->n, r->ncells, r->min_expected);
        fprintf(stderr, "%s: insufficient data: not a pass (exit %d)\n", cmd,
                EM_EXIT_INSUFFICIENT);
        return EM_EXIT_INSUFFICIENT;
    }
    printf("verdict: PASS at alpha = %g\n", r->alpha);
    return EM_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech check");
    em_scn *s = NULL;
    em_mech *m = NULL;
    em_check_result *r = NULL;
    int rc = em_cli_mech_start(&c, argc, argv,
                               EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT |
                                   EM_OPT_SAMPLES | EM_OPT_ALPHA | EM_OPT_MIN_EXPECTED |
                                   EM_OPT_FILE,
                               EM_OPT_EPSILON | EM_OPT_SAMPLES, help, &s, &m);
    if (rc < 0 && (c.seen & EM_OPT_SAMPLES_ARE) && em_scn_is_continuous(s)) {
        /* an option that does not apply is an error, not ignored */
        fprintf(stderr, "%s: --samples-are: a continuous scenario's draws are numbers, neither "
                        "labels nor indices; leave the option out\n", c.cmd);
        rc = EM_EXIT_USAGE;
    }
    if (rc < 0) {
        em_check_opts o = {c.alpha, c.min_expected, 0};
        em_error e;
        em_cli_stdin_hint(c.cmd, c.samples, "the input");
        if (em_check_file(m, c.samples, c.samples_are, &o, &r, &e) != EM_OK)
            rc = em_cli_fail(c.cmd, NULL, &e);
    }
    if (rc < 0) {
        print_table(s, r);
        print_stats(s, r);
        rc = print_verdict(c.cmd, s, r);
        fflush(stdout);
    }
    em_check_result_free(r);
    em_mech_free(m);
    em_scn_free(s);
    em_cli_free(&c);
    return rc;
}
