/* cmd_audit.c: `expmech audit`: the exact privacy loss between two neighbouring scenarios,
 * for the ideal mechanism (= the exact samplers) and for the float sampler as implemented,
 * and optionally a Clopper-Pearson lower bound on epsilon from draws (em_judge.h). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech audit --epsilon E [--sensitivity D] [--variant V]\n"
    "                     [--samples-x SX --samples-y SY] [--confidence C] X.csv Y.csv\n"
    "\n"
    "Audits the claim that the mechanism run with privacy parameter E is E-differentially\n"
    "private on the neighbouring scenarios X and Y (the same labels; utilities of X and Y).\n"
    "Prints, for the ideal mechanism (the distribution of the exact samplers) and for the\n"
    "float sampler as implemented (its realised distribution W[i]/total, exactly, from\n"
    "em_weights_fixed on the utilities rounded to doubles):\n"
    "  - the privacy loss max_o |ln p_X(o) - ln p_Y(o)| and the label o attaining it;\n"
    "  - delta(E) = sum_o max(0, p_X(o) - e^E p_Y(o)), and the same with X and Y swapped.\n"
    "Every number is computed in MPFR interval arithmetic (320 bits) from the exact inputs,\n"
    "and a verdict is given only when the interval decides it.\n"
    "\n"
    "  --epsilon E        privacy parameter of the mechanism and the claim, > 0 (required)\n"
    "  --sensitivity D    sensitivity (default: X's header, else 1; below the header:\n"
    "                     refused unless --force)\n"
    "  --variant V        standard (default, also under '# monotone: yes'), monotone\n"
    "                     (needs that header in X), or pf (permute-and-flip; no float\n"
    "                     sampler)\n"
    "  --samples-x SX, --samples-y SY\n"
    "                     draws of a sampler on X and on Y (labels or 0-based indices, one\n"
    "                     per line): a Clopper-Pearson lower bound on epsilon, the largest\n"
    "                     over events fixed before the draws are read (every candidate and\n"
    "                     the prefixes of the exact order by P_X/P_Y, both directions), each\n"
    "                     bound at a level divided by the number of events (Bonferroni)\n"
    "  --confidence C     of that bound (default 0.95; each side at (1 + C)/2)\n"
    "  --samples-are labels|indices   what the draws are (as for `expmech check`)\n"
    "  --force            run a --sensitivity below X's header, or --variant monotone\n"
    "                     without '# monotone: yes' (refused otherwise)\n"
    "\n"
    "Scenarios with a measure column ('# measure: yes', P(r) ~ m_r exp(c u_r)): the same,\n"
    "for the ideal mechanism only, and the exact loss max_r |ln P_X(r) - ln P_Y(r)|\n"
    "correctly rounded to 17 digits with its verdict decided exactly.\n"
    "Continuous scenarios ('# output: continuous', both): the exact privacy loss\n"
    "sup_r |ln f_X(r) - ln f_Y(r)| of the densities, in both directions, correctly rounded\n"
    "to 17 digits, where it is attained (a breakpoint of the merged partitions, with the\n"
    "side of the limit), and the verdict decided exactly; infinite when the supports differ\n"
    "by a set of positive length or the utilities' slopes differ on an unbounded piece.\n"
    "With --samples-x/-y (one number per line): the Clopper-Pearson lower bound over\n"
    "intervals, runs of the cells cut by a grid fixed in advance from the exact laws (the\n"
    "pieces' ends and 15 quantiles of each law, at most 128 cells), both directions, with\n"
    "Bonferroni over the intervals.  (No float sampler or --variant pf there.)\n"
    "\n"
    "Identical laws (X = Y, or utilities differing by one constant) give exactly 0.\n"
    "Standard error names the variant and sensitivity used and where each came from.\n"
    "Exit status: 0 the claim holds (ideal and float), 1 violated (by the ideal mechanism,\n"
    "the float sampler, or the draws' lower bound), 2 bad input, 3 internal failure or an\n"
    "undecided comparison or a write error on standard output.\n";

static const char *label(const em_scn *s, size_t i)
{
    return i == EM_JUDGE_NONE ? "-" : em_cli_human(em_scn_label(s, i));
}

static void print_block(const char *what, const em_scn *sx, const em_audit_block *b)
{
    if (b->equal) {
        printf("%s:\n  privacy loss: 0 (exactly: the two laws are equal, decided on the exact "
               "inputs)\n  delta(eps) X->Y: 0\n  delta(eps) Y->X: 0\n  verdict: eps-DP holds "
               "on this pair\n", what);
        return;
    }
    printf("%s:\n", what);
    if (b->infinite)
        printf("  privacy loss: inf (p = 0 on one side only) at '%s'\n", label(sx, b->where));
    else
        printf("  privacy loss: %s  (in [%s, %s]) at '%s'\n", b->loss, b->loss_lo, b->loss_hi,
               label(sx, b->where));
    printf("  delta(eps) X->Y: %s  (in [%s, %s])\n", b->delta_xy, b->delta_xy_lo, b->delta_xy_hi);
    printf("  delta(eps) Y->X: %s  (in [%s, %s])\n", b->delta_yx, b->delta_yx_lo, b->delta_yx_hi);
    printf("  verdict: %s\n", b->verdict == EM_VERDICT_PASS     ? "eps-DP holds on this pair"
                          : b->verdict == EM_VERDICT_REJECT ? "VIOLATED: the privacy loss exceeds eps"
                                                            : "undecided at this precision");
}

static void print_q(const char *text, const char *approx)
{
    printf(approx ? "%s (%s)" : "%s", text, approx);
}

static void print_interval(const em_audit_dir *d)
{
    printf("(");
    if (d->lo_inf)
        printf("-inf");
    else
        print_q(d->lo, d->lo_approx);
    printf(", ");
    if (d->hi_inf)
        printf("inf");
    else
        print_q(d->hi, d->hi_approx);
    printf(")");
}

/* one direction of the exact loss (k = 0: X over Y); sx NULL when continuous */
static void print_dir(const em_audit_dir *d, int k, const em_scn *sx)
{
    const char *A = k == 0 ? "X" : "Y", *B = k == 0 ? "Y" : "X";
    printf("  sup ln(%s) = ", k == 0 ? (sx ? "P_X/P_Y" : "f_X/f_Y") : (sx ? "P_Y/P_X" : "f_Y/f_X"));
    if (d->infinite && sx) {
        printf("inf: '%s' has positive probability under %s only\n", label(sx, d->atom), A);
    } else if (d->infinite && d->reason == EM_AUDIT_SUPPORT) {
        printf("inf: %s has positive density on ", A);
        print_interval(d);
        printf(" where %s has none\n", B);
    } else if (d->infinite) {
        printf("inf: the log-ratio grows without bound as r -> %sinf on ", d->at_inf < 0 ? "-" : "+");
        print_interval(d);
        printf(" (the slopes of c u differ on an unbounded piece)\n");
    } else if (sx) {
        printf("%s at '%s'\n", d->value, label(sx, d->atom));
    } else if (d->everywhere) {
        printf("%s everywhere (the log-ratio is constant on the common support)\n", d->value);
    } else {
        printf("%s at r = ", d->value);
        print_q(d->at, d->at_approx);
        printf(" (%s)\n", d->side < 0 ? "limit from the left" : d->side > 0 ? "limit from the right"
                                                                      : "both sides");
    }
}

static void print_exact(const char *what, const em_audit_result *r, const em_scn *sx)
{
    printf("%s:\n", what);
    print_dir(&r->d[0], 0, sx);
    print_dir(&r->d[1], 1, sx);
    if (r->d[r->worst].infinite)
        printf("  exact privacy loss: inf\n");
    else
        printf("  exact privacy loss: %s (correctly rounded to 17 digits; = sup ln(%s))\n",
               r->loss, r->worst == 0 ? "X/Y" : "Y/X");
    printf("  verdict: %s\n", r->within ? "eps-DP holds on this pair (loss <= eps, decided exactly)"
                                        : "VIOLATED: the privacy loss exceeds eps (decided exactly)");
}

/* an event (lo, hi] of the continuous search */
static void print_event(double lo, double hi)
{
    if (isinf(lo))
        printf("(-inf, ");
    else
        printf("(%.17g, ", lo);
    if (isinf(hi))
        printf("inf)");
    else
        printf("%.17g]", hi);
}

static void print_draws_cont(const em_audit_result *r)
{
    printf("draws: %llu from X, %llu from Y; Clopper-Pearson lower bound on epsilon at "
           "confidence %g over the intervals of %zu cells fixed in advance: %.6g\n",
           (unsigned long long)r->nx, (unsigned long long)r->ny, r->confidence, r->ev_cells,
           r->eps_lower);
    for (int k = 0; k < 2; k++) {
        size_t cells = k ? r->event_yx : r->event_xy;
        printf("  %s: %.6g", k ? "Y->X" : "X->Y", k ? r->eps_lower_yx : r->eps_lower_xy);
        if (cells) {
            printf(" on ");
            print_event(k ? r->ev_yx_lo : r->ev_xy_lo, k ? r->ev_yx_hi : r->ev_xy_hi);
            printf(" (%zu cell%s)", cells, cells == 1 ? "" : "s");
        }
        printf("\n");
    }
    printf("  verdict: %s\n", r->empirical_violation ? "VIOLATED: the draws show a loss above eps"
                                                     : "consistent with eps");
}

/* the pair's bounded-range width and, for the EM, the zCDP parameter it implies */
static void print_width(const em_audit_result *r, int pf)
{
    printf("bounded range (for composition under zCDP):\n  width: %s%s = sup ln(X/Y) + "
           "sup ln(Y/X), the span of the log-ratio over the outputs\n", r->width,
           !strcmp(r->width, "inf") ? ""
           : r->width_exact        ? " (correctly rounded to 17 digits)"
                                   : " (upper end of the enclosure)");
    if (pf)
        printf("  zCDP: none from the width: permute-and-flip is not bounded-range "
               "(pf_not_bounded_range); its pure eps-DP gives rho = eps^2/2\n");
    else if (r->rho)
        printf("  zCDP: rho = width^2/8 = %s on this pair (the EM's width is at most eps on "
               "neighbours, proven: em_bounded_range; eps-bounded-range => eps^2/8-zCDP is "
               "Cesar and Rogers 2021, not proven here)\n", r->rho);
    else
        printf("  zCDP: none (the width is infinite)\n");
}

static void print_audit(em_scn *const *s, const em_mech *m, const em_audit_result *r)
{
    int pf = em_mech_get(m).variant == EM_PF;
    int measure = em_scn_get(s[0]).has_measure || em_scn_get(s[1]).has_measure;
    printf("audit: X = %s, Y = %s, ", em_scn_get(s[0]).name, em_scn_get(s[1]).name);
    if (r->continuous)
        printf("continuous (%zu and %zu pieces)", em_scn_get(s[0]).pieces, em_scn_get(s[1]).pieces);
    else
        printf("%zu candidates", em_scn_get(s[0]).size);
    printf(", epsilon = %s, sensitivity = %s, variant %s\n", em_mech_get(m).epsilon,
           em_mech_get(m).sensitivity, pf ? "pf (permute-and-flip)" : em_variant_name(em_mech_get(m).variant));
    if (r->continuous) {
        print_exact("ideal mechanism (densities; merged breakpoints, exact)", r, NULL);
        print_width(r, pf);
        if (r->empirical)
            print_draws_cont(r);
        return;
    }
    print_block(pf ? "ideal permute-and-flip (= its exact sampler)"
                   : "ideal mechanism (= the exact sampler)", s[0], &r->ideal);
    if (measure)
        print_exact("ideal mechanism with the base measure, exact", r, s[0]);
    print_width(r, pf);
    if (measure)
        printf("float sampler: none for scenarios with a measure column\n");
    if (r->fp.computed)
        print_block("float sampler as implemented (W[i]/total of em_weights_fixed)", s[0], &r->fp);
    else if (r->fp.beyond_range)
        printf("float sampler: cannot run on these inputs (beyond double's range)\n");
    if (r->empirical) {
        printf("draws: %llu from X, %llu from Y; Clopper-Pearson lower bound on epsilon at "
               "confidence %g: %.6g (X->Y, event of %zu outcomes: %.6g; Y->X, %zu: %.6g)\n",
               (unsigned long long)r->nx, (unsigned long long)r->ny, r->confidence, r->eps_lower,
               r->event_xy, r->eps_lower_xy, r->event_yx, r->eps_lower_yx);
        printf("  verdict: %s\n", r->empirical_violation ? "VIOLATED: the draws show a loss above eps"
                                                         : "consistent with eps");
    }
}

/* Continuous draws: numbers, judged on intervals (em_audit_draws) */
static int audit_draws_cont(const char *cmd, em_mech **m, const char *sxp, const char *syp,
                            double conf, em_audit_result **r)
{
    em_error e;
    em_cli_stdin_hint(cmd, sxp, "the draws");
    em_cli_stdin_hint(cmd, syp, "the draws");
    if (em_audit_draws_file(m[0], m[1], sxp, syp, conf, r, &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    return -1;
}

/* Both mechanisms (X's headers decide the parameters, as for every command), the draws, and
 * the audit; -1 with *r set, or an exit status after a message. */
static int run(const char *cmd, const char *const *files, const em_opts *ox, const char *sxp,
               const char *syp, int are, double conf, em_scn **s, em_mech **m,
               em_audit_result **r)
{
    em_error e;
    for (int k = 0; k < 2; k++)
        if (em_scn_load(files[k], &s[k], &e) != EM_OK)
            return em_cli_fail(cmd, NULL, &e);
    if (em_mech_new(s[0], ox, &m[0], &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    fprintf(stderr, "%s: %s\n", cmd, em_mech_get(m[0]).provenance);
    em_opts oy = {ox->epsilon, em_mech_get(m[0]).sensitivity, em_mech_get(m[0]).variant, 1, 0};
    if (em_mech_new(s[1], &oy, &m[1], &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    char *note = NULL;
    if (em_audit_neighbours(m[0], m[1], ox->sensitivity != NULL, &note, &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    if (note) /* said, not refused: the loss between non-neighbours is still the loss */
        fprintf(stderr, "%s: %s\n", cmd, note);
    em_free(note);
    if (sxp && em_scn_get(s[0]).continuous && em_scn_get(s[1]).continuous) {
        if (are != EM_SAMPLES_ARE_AUTO) { /* an option that does not apply is an error */
            fprintf(stderr, "%s: --samples-are does not apply to continuous scenarios: their "
                    "draws are numbers\n", cmd);
            return EM_EXIT_USAGE;
        }
        return audit_draws_cont(cmd, m, sxp, syp, conf, r);
    }
    if (sxp && (em_scn_get(s[0]).continuous || em_scn_get(s[1]).continuous)) {
        fprintf(stderr, "%s: --samples-x/--samples-y: X and Y must both be finite or both "
                "continuous\n", cmd);
        return EM_EXIT_USAGE;
    }
    em_draws d[2] = {EM_DRAWS_INIT, EM_DRAWS_INIT};
    for (int k = 0; sxp && k < 2; k++) {
        em_cli_stdin_hint(cmd, k ? syp : sxp, "the draws");
        d[k].path = k ? syp : sxp;
        d[k].samples_are = are;
    }
    if (em_audit(m[0], m[1], sxp ? &d[0] : NULL, sxp ? &d[1] : NULL, conf, r, &e) != EM_OK)
        return em_cli_fail(cmd, NULL, &e);
    return -1;
}

/* One epsilon for both mechanisms: a sweep (--epsilon-log, or --epsilon with a list or
 * LO:HI:N) is refused, as by every command that judges one mechanism. */
static int no_sweep(void *dst, const char *cmd, const char *name, const char *v)
{
    (void)dst, (void)name, (void)v;
    fprintf(stderr, "%s: %s\n", cmd, EM_CLI_SWEEP_REFUSED);
    return EM_EXIT_USAGE;
}

typedef struct args {
    const char *files[2], *sxp, *syp, *eps, *del;
    int variant, force, are, nf;
    double conf;
} args;

static const char *conf_ok(const void *v)
{
    return *(const double *)v > 0 && *(const double *)v < 1 ? NULL : "";
}

static int file_arg(void *dst, const char *cmd, const char *a)
{
    args *p = dst;
    if (p->nf < 2) {
        p->files[p->nf++] = a;
        return -1;
    }
    fprintf(stderr, "%s: exactly two scenario files, X and Y\n", cmd);
    return EM_EXIT_USAGE;
}

static const char *const variants[] = {"standard", "monotone", "pf", NULL};
static const char *const are_words[] = {"labels", "indices", NULL};
enum { A_VARIANT = 2, A_CONF = 5, A_ARE };
static const em_cli_opt opts[] = {
    EM_CLI_STR("--epsilon", args, eps),
    EM_CLI_STR("--sensitivity", args, del),
    {"--variant", EM_CLI_WORD, offsetof(args, variant), variants, NULL,
     "%s: %s takes standard, monotone or pf\n", NULL},
    EM_CLI_STR("--samples-x", args, sxp),
    EM_CLI_STR("--samples-y", args, syp),
    {"--confidence", EM_CLI_DOUBLE, offsetof(args, conf), NULL, conf_ok,
     "%s: %s takes a number in (0, 1)\n", NULL},
    {"--samples-are", EM_CLI_WORD, offsetof(args, are), are_words, NULL,
     "%s: %s takes 'labels' or 'indices'\n", NULL},
    EM_CLI_FLAG_AT("--force", args, force),
    {"--epsilon-log", EM_CLI_CALL, offsetof(args, nf), NULL, NULL, NULL, no_sweep},
    EM_CLI_END,
};

int cmd_audit(int argc, char **argv)
{
    const char *cmd = "expmech audit";
    const em_cli_spec sp = {.cmd = cmd, .opts = opts, .help = help, .whole = 1, .repeat = 1,
                            .arg = file_arg};
    args p = {.conf = 0.95};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc >= 0)
        return rc;
    const char *sxp = p.sxp, *syp = p.syp, **files = p.files;
    if (!sxp && !syp && (given & (EM_OPT(A_CONF) | EM_OPT(A_ARE)))) {
        /* an option that does not apply is an error, not ignored */
        fprintf(stderr, "%s: %s goes with --samples-x and --samples-y (draws to judge)\n", cmd,
                (given & EM_OPT(A_CONF)) ? "--confidence" : "--samples-are");
        return EM_EXIT_USAGE;
    }
    if (!p.eps || p.nf != 2) {
        fprintf(stderr, "%s: --epsilon and two scenario files are required (--help)\n", cmd);
        return EM_EXIT_USAGE;
    }
    if (strpbrk(p.eps, ",:"))
        return no_sweep(NULL, cmd, NULL, NULL);
    if (!sxp != !syp) {
        fprintf(stderr, "%s: --samples-x and --samples-y go together\n", cmd);
        return EM_EXIT_USAGE;
    }
    em_opts ox = {p.eps, p.del, (given & EM_OPT(A_VARIANT)) ? p.variant : EM_VARIANT_AUTO,
                  p.force, 0};
    int samples_are = !(given & EM_OPT(A_ARE)) ? EM_SAMPLES_ARE_AUTO
                      : p.are                  ? EM_SAMPLES_ARE_INDICES
                                               : EM_SAMPLES_ARE_LABELS;
    double conf = p.conf;
    /* one standard input cannot be read twice */
    const char *in[4] = {files[0], files[1], sxp, syp};
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            if (in[a] && in[b] && !strcmp(in[a], "-") && !strcmp(in[b], "-")) {
                static const char *const what[4] = {"X", "Y", "--samples-x", "--samples-y"};
                fprintf(stderr, "%s: %s and %s cannot both be standard input ('-'): one of "
                                "them must be a file\n", cmd, what[a], what[b]);
                return EM_EXIT_USAGE;
            }
    em_scn *s[2] = {NULL, NULL};
    em_mech *m[2] = {NULL, NULL};
    em_audit_result *r = NULL;
    rc = run(cmd, files, &ox, sxp, syp, samples_are, conf, s, m, &r);
    if (rc < 0) {
        print_audit(s, m[0], r);
        rc = r->verdict == EM_VERDICT_REJECT      ? EM_EXIT_REJECT
             : r->verdict == EM_VERDICT_UNDECIDED ? EM_EXIT_INTERNAL
                                                  : EM_EXIT_OK;
        fflush(stdout);
    }
    em_audit_result_free(r);
    for (int k = 0; k < 2; k++) {
        em_mech_free(m[k]);
        em_scn_free(s[k]);
    }
    return rc;
}
