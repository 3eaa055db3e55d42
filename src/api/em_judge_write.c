/* em_judge_write.c: the reports of the judges (em_judge.h) as text for a person: those of
 * expmech audit, check and compare (expmech(1)). */
#include <math.h>
#include <string.h>

#include "em_conform.h"
#include "em_judge.h"
#include "api/em_write_priv.h"
#include "api/em_obj.h"

#define TEXT_ONLY EM_WRITE_ACCEPTS(EM_WRITE_TEXT)
/* the writer every message of this file's writers names: the results reach them through
 * em_write */
static const char fn[] = "em_write";

/* a candidate of s, or "-" for none */
static void put_label(FILE *f, const em_scn *s, size_t i)
{
    if (i == EM_JUDGE_NONE)
        fputs("-", f);
    else
        em_write_human(f, em_scn_label(s, i));
}

/* ------------------------------------------------------------------- audit */

static void audit_block(FILE *f, const char *what, const em_scn *sx, const em_audit_block *b)
{
    if (b->equal) {
        fprintf(f, "%s:\n  privacy loss: 0 (exactly: the two laws are equal, decided on the "
                   "exact inputs)\n  delta(eps) X->Y: 0\n  delta(eps) Y->X: 0\n  verdict: "
                   "eps-DP holds on this pair\n", what);
        return;
    }
    fprintf(f, "%s:\n", what);
    if (b->infinite)
        fprintf(f, "  privacy loss: inf (p = 0 on one side only) at '");
    else
        fprintf(f, "  privacy loss: %s  (in [%s, %s]) at '", b->loss, b->loss_lo, b->loss_hi);
    put_label(f, sx, b->where);
    fprintf(f, "'\n  delta(eps) X->Y: %s  (in [%s, %s])\n", b->delta_xy, b->delta_xy_lo,
            b->delta_xy_hi);
    fprintf(f, "  delta(eps) Y->X: %s  (in [%s, %s])\n", b->delta_yx, b->delta_yx_lo,
            b->delta_yx_hi);
    fprintf(f, "  verdict: %s\n", b->verdict == EM_VERDICT_PASS ? "eps-DP holds on this pair"
                                  : b->verdict == EM_VERDICT_REJECT
                                      ? "VIOLATED: the privacy loss exceeds eps"
                                      : "undecided at this precision");
}

static void put_q(FILE *f, const char *text, const char *approx)
{
    if (approx)
        fprintf(f, "%s (%s)", text, approx);
    else
        fputs(text, f);
}

static void put_interval(FILE *f, const em_audit_dir *d)
{
    fputc('(', f);
    if (d->lo_inf)
        fputs("-inf", f);
    else
        put_q(f, d->lo, d->lo_approx);
    fputs(", ", f);
    if (d->hi_inf)
        fputs("inf", f);
    else
        put_q(f, d->hi, d->hi_approx);
    fputc(')', f);
}

/* one direction of the exact loss (k = 0: X over Y); sx NULL when continuous */
static void audit_dir(FILE *f, const em_audit_dir *d, int k, const em_scn *sx)
{
    const char *A = k == 0 ? "X" : "Y", *B = k == 0 ? "Y" : "X";
    fprintf(f, "  sup ln(%s) = ", k == 0 ? (sx ? "P_X/P_Y" : "f_X/f_Y")
                                         : (sx ? "P_Y/P_X" : "f_Y/f_X"));
    if (d->infinite && sx) {
        fputs("inf: '", f);
        put_label(f, sx, d->atom);
        fprintf(f, "' has positive probability under %s only\n", A);
    } else if (d->infinite && d->reason == EM_AUDIT_SUPPORT) {
        fprintf(f, "inf: %s has positive density on ", A);
        put_interval(f, d);
        fprintf(f, " where %s has none\n", B);
    } else if (d->infinite) {
        fprintf(f, "inf: the log-ratio grows without bound as r -> %sinf on ",
                d->at_inf < 0 ? "-" : "+");
        put_interval(f, d);
        fputs(" (the slopes of c u differ on an unbounded piece)\n", f);
    } else if (sx) {
        fprintf(f, "%s at '", d->value);
        put_label(f, sx, d->atom);
        fputs("'\n", f);
    } else if (d->everywhere) {
        fprintf(f, "%s everywhere (the log-ratio is constant on the common support)\n",
                d->value);
    } else {
        fprintf(f, "%s at r = ", d->value);
        put_q(f, d->at, d->at_approx);
        fprintf(f, " (%s)\n", d->side < 0   ? "limit from the left"
                              : d->side > 0 ? "limit from the right"
                                            : "both sides");
    }
}

static void audit_exact(FILE *f, const char *what, const em_audit_result *r, const em_scn *sx)
{
    fprintf(f, "%s:\n", what);
    audit_dir(f, &r->d[0], 0, sx);
    audit_dir(f, &r->d[1], 1, sx);
    if (r->d[r->worst].infinite)
        fputs("  exact privacy loss: inf\n", f);
    else
        fprintf(f, "  exact privacy loss: %s (correctly rounded to 17 digits; = sup ln(%s))\n",
                r->loss, r->worst == 0 ? "X/Y" : "Y/X");
    fprintf(f, "  verdict: %s\n",
            r->within ? "eps-DP holds on this pair (loss <= eps, decided exactly)"
                      : "VIOLATED: the privacy loss exceeds eps (decided exactly)");
}

/* an event (lo, hi] of the continuous search */
static void audit_event(FILE *f, double lo, double hi)
{
    if (isinf(lo))
        fputs("(-inf, ", f);
    else
        fprintf(f, "(%.17g, ", lo);
    if (isinf(hi))
        fputs("inf)", f);
    else
        fprintf(f, "%.17g]", hi);
}

static void audit_draws_cont(FILE *f, const em_audit_result *r)
{
    fprintf(f, "draws: %llu from X, %llu from Y; Clopper-Pearson lower bound on epsilon at "
               "confidence %g over the intervals of %zu cells fixed in advance: %.6g\n",
            (unsigned long long)r->nx, (unsigned long long)r->ny, r->confidence, r->ev_cells,
            r->eps_lower);
    for (int k = 0; k < 2; k++) {
        size_t cells = k ? r->event_yx : r->event_xy;
        fprintf(f, "  %s: %.6g", k ? "Y->X" : "X->Y", k ? r->eps_lower_yx : r->eps_lower_xy);
        if (cells) {
            fputs(" on ", f);
            audit_event(f, k ? r->ev_yx_lo : r->ev_xy_lo, k ? r->ev_yx_hi : r->ev_xy_hi);
            fprintf(f, " (%zu cell%s)", cells, cells == 1 ? "" : "s");
        }
        fputc('\n', f);
    }
    fprintf(f, "  verdict: %s\n", r->empirical_violation
                                      ? "VIOLATED: the draws show a loss above eps"
                                      : "consistent with eps");
}

/* the pair's bounded-range width and, for the EM, the zCDP parameter it implies */
static void audit_width(FILE *f, const em_audit_result *r, int pf)
{
    fprintf(f, "bounded range (for composition under zCDP):\n  width: %s%s = sup ln(X/Y) + "
               "sup ln(Y/X), the span of the log-ratio over the outputs\n", r->width,
            !strcmp(r->width, "inf") ? ""
            : r->width_exact         ? " (correctly rounded to 17 digits)"
                                     : " (upper end of the enclosure)");
    if (pf)
        fputs("  zCDP: none from the width: permute-and-flip is not bounded-range "
              "(pf_not_bounded_range); its pure eps-DP gives rho = eps^2/2\n", f);
    else if (r->rho)
        fprintf(f, "  zCDP: rho = width^2/8 = %s on this pair (the EM's width is at most eps "
                   "on neighbours, proven: em_bounded_range; eps-bounded-range => eps^2/8-zCDP "
                   "is Cesar and Rogers 2021, not proven here)\n", r->rho);
    else
        fputs("  zCDP: none (the width is infinite)\n", f);
}

int em_audit_result_write(FILE *f, const em_audit_result *r, const em_mech *x, const em_mech *y,
                          const em_write_opts *o, em_error *err)
{
    em_write_opts w;
    int st = em_write_begin(fn, f, r, y ? x : NULL, o, TEXT_ONLY, &w, err);
    if (st != EM_OK)
        return st;
    const em_mech_info mx = em_mech_get(x);
    const em_scn *sx = mx.scn, *sy = em_mech_get(y).scn;
    const int pf = mx.variant == EM_PF;
    const int measure = em_scn_get(sx).has_measure || em_scn_get(sy).has_measure;
    fprintf(f, "audit: X = %s, Y = %s, ", em_scn_get(sx).name, em_scn_get(sy).name);
    if (r->continuous)
        fprintf(f, "continuous (%zu and %zu pieces)", em_scn_get(sx).pieces,
                em_scn_get(sy).pieces);
    else
        fprintf(f, "%zu candidates", em_scn_get(sx).size);
    fprintf(f, ", epsilon = %s, sensitivity = %s, variant %s\n", mx.epsilon, mx.sensitivity,
            pf ? "pf (permute-and-flip)" : em_write_variant(mx.variant));
    if (r->continuous) {
        audit_exact(f, "ideal mechanism (densities; merged breakpoints, exact)", r, NULL);
        audit_width(f, r, pf);
        if (r->empirical)
            audit_draws_cont(f, r);
        return em_write_end(fn, f, err);
    }
    audit_block(f, pf ? "ideal permute-and-flip (= its exact sampler)"
                      : "ideal mechanism (= the exact sampler)", sx, &r->ideal);
    if (measure)
        audit_exact(f, "ideal mechanism with the base measure, exact", r, sx);
    audit_width(f, r, pf);
    if (measure)
        fputs("float sampler: none for scenarios with a measure column\n", f);
    if (r->fp.computed)
        audit_block(f, "float sampler as implemented (W[i]/total of em_weights_fixed)", sx,
                    &r->fp);
    else if (r->fp.beyond_range)
        fputs("float sampler: cannot run on these inputs (beyond double's range)\n", f);
    if (r->empirical) {
        fprintf(f, "draws: %llu from X, %llu from Y; Clopper-Pearson lower bound on epsilon at "
                   "confidence %g: %.6g (X->Y, event of %zu outcomes: %.6g; Y->X, %zu: %.6g)\n",
                (unsigned long long)r->nx, (unsigned long long)r->ny, r->confidence,
                r->eps_lower, r->event_xy, r->eps_lower_xy, r->event_yx, r->eps_lower_yx);
        fprintf(f, "  verdict: %s\n", r->empirical_violation
                                          ? "VIOLATED: the draws show a loss above eps"
                                          : "consistent with eps");
    }
    return em_write_end(fn, f, err);
}

/* ------------------------------------------------------------------- check */

static void check_edge(FILE *f, double e)
{
    if (isinf(e))
        fprintf(f, "%24s", e < 0 ? "-inf" : "inf");
    else
        fprintf(f, "%24.17g", e);
}

static void check_table(FILE *f, const em_scn *s, const em_check_result *r)
{
    if (em_scn_get(s).continuous) {
        fprintf(f, "%-5s %24s %24s %12s %14s %10s %10s %5s\n", "bin", "from", "to",
                "probability", "expected", "observed", "std.resid", "pool");
        for (size_t k = 0; k < r->nrows; k++) {
            const em_check_row *b = &r->rows[k];
            fprintf(f, "%-5zu ", k);
            check_edge(f, b->lo);
            fputc(' ', f);
            check_edge(f, b->hi);
            fprintf(f, " %12.6g %14.2f %10llu %10.3f %5zu%s\n", b->probability, b->expected,
                    (unsigned long long)b->observed, b->std_resid, b->pool,
                    b->from_breakpoint ? "  (from a piece breakpoint)" : "");
        }
        fprintf(f, "\ndraws: %llu; %zu bins (%zu edges at exact quantiles k/%d rounded to "
                   "doubles, %zu at piece breakpoints), %zu pooled cells (each expecting >= "
                   "%g)\n",
                (unsigned long long)r->n, r->nrows, r->nquantile, r->quantile_bins, r->nbreak,
                r->ncells, r->min_expected);
        return;
    }
    fprintf(f, "%-6s %14s %12s %10s  %s\n", "cell", "expected", "observed", "std.resid",
            "candidates");
    for (size_t k = 0; k < r->nrows; k++) {
        const em_check_row *w = &r->rows[k];
        fprintf(f, "%-6zu %14.2f %12llu %10.3f  ", k, w->expected,
                (unsigned long long)w->observed, w->std_resid);
        em_write_human(f, em_scn_label(s, w->first));
        if (w->count > 1)
            fprintf(f, " (+%zu pooled)", w->count - 1);
        fputc('\n', f);
    }
    fprintf(f, "\ndraws: %llu over %zu candidates (%zu of probability 0 in double), %zu pooled "
               "cells (each expecting >= %g)\n",
            (unsigned long long)r->n, r->ncand, r->nzero, r->ncells, r->min_expected);
}

static void check_stats(FILE *f, const em_scn *s, const em_check_result *r)
{
    const int cont = em_scn_get(s).continuous;
    fprintf(f, "G = %.6g, df = %zu, p-value = %.6g\n", r->statistic, r->df, r->p_value);
    fprintf(f, "Pearson X^2 = %.6g, largest |standardised residual| = %.4g\n", r->pearson_x2,
            r->max_std_resid);
    fprintf(f, "pooled-tail binomial test: p = %.6g%s\n", r->tail_p,
            r->tail_p == 1.0 ? " (no draws in a pooled tail, or no tail)" : "");
    if (cont) {
        fprintf(f, "Kolmogorov-Smirnov: D = %.6g (sqrt(N) D = %.4g) at x = %.17g (%s), "
                   "p-value %s %.6g [%s]",
                r->ks_d, sqrt((double)r->ks_n) * r->ks_d, r->ks_x,
                r->ks_side > 0 ? "F_N(x) - F(x)" : "F(x) - F_N(x-)",
                r->ks_approximate ? "~" : "=", r->ks_p, r->ks_method);
        if (r->ks_approximate)
            fprintf(f, ", rigorously <= %.6g", r->ks_p_upper);
        fputc('\n', f);
        if (r->support_count)
            fprintf(f, "support: VIOLATION: %llu draw(s) outside R, the first %.17g (line "
                       "%lu)\n",
                    (unsigned long long)r->support_count, r->outside_value, r->outside_line);
        else
            fputs("support: ok (every draw in R, up to the rounding of its ends to doubles)\n",
                  f);
    } else if (r->support_index != EM_JUDGE_NONE) {
        fputs("support: VIOLATION: '", f);
        em_write_human(f, em_scn_label(s, r->support_index));
        fprintf(f, "' (probability 0) was drawn %llu time(s)\n",
                (unsigned long long)r->support_count);
    } else {
        fputs("support: ok (no draw of a probability-0 candidate)\n", f);
    }
    if (isinf(r->min_detectable))
        fputs("power: one cell only, nothing to detect\n", f);
    else
        fprintf(f, "power: the smallest relative error on %s most probable cell detectable "
                   "with probability 0.99 at alpha = %g is %.3g%%\n",
                cont ? "the probability of the" : "the", r->alpha, 100 * r->min_detectable);
    if (cont) {
        fprintf(f, "exact binomial tail of each bin: smallest p = %.6g (Bonferroni level "
                   "%.3g)\n", r->cand_p, r->cand_alpha);
    } else if (r->cand_index != EM_JUDGE_NONE) {
        fprintf(f, "exact binomial tail of each candidate: smallest p = %.6g at ", r->cand_p);
        em_write_human(f, em_scn_label(s, r->cand_index));
        fprintf(f, " (Bonferroni level %.3g)\n", r->cand_alpha);
    }
}

static void check_verdict(FILE *f, const em_scn *s, const em_check_result *r)
{
    if (r->verdict == EM_VERDICT_REJECT) {
        fprintf(f, "verdict: REJECT at alpha = %g:", r->alpha);
        if (r->reasons & EM_CHECK_R_FIT)
            fprintf(f, " goodness of fit (p = %.3g)", r->p_value);
        if (r->reasons & EM_CHECK_R_TAIL)
            fprintf(f, " pooled tail over-represented (p = %.3g)", r->tail_p);
        if ((r->reasons & EM_CHECK_R_CELL) && em_scn_get(s).continuous) {
            fprintf(f, " bin %zu over-represented (exact binomial tail p = %.3g)",
                    r->cand_index, r->cand_p);
        } else if (r->reasons & EM_CHECK_R_CELL) {
            fputc(' ', f);
            em_write_human(f, em_scn_label(s, r->cand_index));
            fprintf(f, " over-represented (exact binomial tail p = %.3g)", r->cand_p);
        }
        if (r->reasons & EM_CHECK_R_KS)
            fprintf(f, " Kolmogorov-Smirnov (p = %.3g)", r->ks_p);
        if (r->reasons & EM_CHECK_R_SUPPORT)
            fputs(" support violation", f);
        fputc('\n', f);
        if (r->diagnosis) /* the laws of known mistakes (em_conform.h) */
            fprintf(f, "diagnosis: %s\n", r->diagnosis->sentence);
    } else if (r->verdict == EM_VERDICT_INSUFFICIENT) {
        fprintf(f, "verdict: INSUFFICIENT DATA at alpha = %g: the %llu draws leave %zu pooled "
                   "cell (each must expect >= %g draws), so no goodness-of-fit test can run, "
                   "and no count is impossible at alpha; take more draws\n",
                r->alpha, (unsigned long long)r->n, r->ncells, r->min_expected);
    } else {
        fprintf(f, "verdict: PASS at alpha = %g\n", r->alpha);
    }
}

/* The table as CSV: a cell's index, or its interval [lo, hi) to 6 digits (a label for a
 * figure's axis, not a value to compute with); the draws outside the support last. */
static void check_csv(FILE *f, const em_check_result *r)
{
    fputs("cell,expected,observed\n", f);
    for (size_t k = 0; k < r->nrows; k++) {
        const em_check_row *w = &r->rows[k];
        if (isnan(w->lo))
            fprintf(f, "%zu,%.17g,%llu\n", k, w->expected, (unsigned long long)w->observed);
        else
            fprintf(f, "\"[%.6g, %.6g)\",%.17g,%llu\n", w->lo, w->hi, w->expected,
                    (unsigned long long)w->observed);
    }
    if (r->support_count)
        fprintf(f, "outside,0,%llu\n", (unsigned long long)r->support_count);
}

int em_check_result_write(FILE *f, const em_check_result *r, const em_mech *m,
                          const em_write_opts *o, em_error *err)
{
    em_write_opts w;
    const int csv = o && o->format == EM_WRITE_CSV; /* the table alone: m not needed */
    int st = em_write_begin(fn, f, r, csv ? (const void *)r : m, o,
                            TEXT_ONLY | EM_WRITE_ACCEPTS(EM_WRITE_CSV), &w, err);
    if (st != EM_OK)
        return st;
    if (csv) {
        check_csv(f, r);
        return em_write_end(fn, f, err);
    }
    const em_scn *s = em_mech_get(m).scn;
    check_table(f, s, r);
    check_stats(f, s, r);
    check_verdict(f, s, r);
    return em_write_end(fn, f, err);
}

/* ----------------------------------------------------------------- compare */

static void compare_cdf(FILE *f, const em_compare_result *r)
{
    for (size_t k = 0; k < r->nshow; k++) {
        const em_compare_row *w = &r->show[k];
        fprintf(f, "FAIL line %lu: x = %s: given %s, exact %s\n", w->line, w->x, w->given,
                w->exact);
    }
    fprintf(f, "points: %zu\n", r->n);
    fprintf(f, "max absolute error: %.6g at x = %s (line %lu)\n", r->max_abs_error, r->x_abs,
            r->line_abs);
    fprintf(f, "max relative error: %.6g at x = %s (line %lu)\n", r->max_rel_error, r->x_rel,
            r->line_rel);
    fprintf(f, "max error relative to the upper tail 1 - F: %.6g at x = %s (line %lu)\n",
            r->max_tail_error, r->x_tail, r->line_tail);
    fprintf(f, "NaN: %zu, infinite: %zu, negative: %zu, above 1: %zu\n", r->nnan, r->ninf,
            r->nneg, r->nbig);
    fprintf(f, "decreasing (x up, given value down): %zu pair(s)\n", r->ndecrease);
}

static void compare_probs(FILE *f, const em_scn *s, const em_compare_result *r)
{
    for (size_t k = 0; k < r->nshow; k++) {
        const em_compare_row *w = &r->show[k];
        fputs("FAIL ", f);
        em_write_human(f, em_scn_label(s, w->index));
        fprintf(f, ": given %s, exact %s (%s)\n", w->given, w->exact, w->why);
    }
    fprintf(f, "candidates: %zu\n", r->n);
    if (r->nnan || r->ninf) {
        /* the error at a NaN or an infinity is no number: never a reassuring 0 */
        const char *what = r->nnan ? "NaN" : "infinite";
        fprintf(f, "max absolute error: %s (%zu NaN, %zu infinite values given; the finite "
                   "ones: %s)\n", what, r->nnan, r->ninf, r->max_abs_text);
        fprintf(f, "max relative error: %s\n", what);
        fprintf(f, "max error in ulps of double: %s\n", what);
    } else {
        fprintf(f, "max absolute error: %s at ", r->max_abs_text);
        em_write_human(f, em_scn_label(s, r->worst));
        fprintf(f, "\nmax relative error: %s at ",
                r->rel_infinite ? "infinite" : r->max_rel_text);
        em_write_human(f, em_scn_label(s, r->worst_rel));
        fprintf(f, "\nmax error in ulps of double: %s at ", r->max_ulp_text);
        em_write_human(f, em_scn_label(s, r->worst_ulp));
        fputc('\n', f);
    }
    fprintf(f, "zeros where the exact probability is positive (underflow): %zu", r->nzero);
    if (r->nzero)
        fprintf(f, " (%zu of them representable as a double, %zu below 2^-1075)",
                r->nzero_repr, r->nzero - r->nzero_repr);
    fprintf(f, "\nNaN: %zu, infinite: %zu, negative: %zu, above 1: %zu\n", r->nnan, r->ninf,
            r->nneg, r->nbig);
    fprintf(f, "sum of the finite values - 1: %s\n", r->sum_minus_one_text);
}

int em_compare_result_write(FILE *f, const em_compare_result *r, const em_mech *m,
                            const em_write_opts *o, em_error *err)
{
    em_write_opts w;
    int st = em_write_begin(fn, f, r, m, o, TEXT_ONLY, &w, err);
    if (st != EM_OK)
        return st;
    const int cdf = em_scn_get(em_mech_get(m).scn).continuous;
    char floor_s[32]; /* the default floor by its name */
    if (r->atol == 0x1p-1074)
        snprintf(floor_s, sizeof floor_s, "2^-1074");
    else
        snprintf(floor_s, sizeof floor_s, "%g", r->atol);
    if (cdf)
        compare_cdf(f, r);
    else
        compare_probs(f, em_mech_get(m).scn, r);
    if (!r->passed)
        fprintf(f, "verdict: FAIL: %zu of %zu values outside tolerance (rtol %g, floor %s) or "
                   "invalid\n", r->nfail, r->n, r->rtol, floor_s);
    else
        fprintf(f, "verdict: PASS: every value within max(%g * %s, %s)\n", r->rtol,
                cdf ? "F(x)" : "exact", floor_s);
    return em_write_end(fn, f, err);
}
