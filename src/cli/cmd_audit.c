/* cmd_audit.c: `expmech audit`: the exact privacy loss between two neighbouring scenarios,
 * for the ideal mechanism (= the exact samplers) and for the float sampler as implemented,
 * and optionally a Clopper-Pearson lower bound on epsilon from draws. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>
#define MPFR_USE_INTMAX_T 1
#include <mpfr.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "io/em_params_src.h"
#include "io/em_samples.h"
#include "judge/em_closs.h"
#include "oracle/em_cont.h"
#include "oracle/em_pf.h"
#include "oracle/em_rational.h"

#define PREC 320

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
    "                     per line): a Clopper-Pearson lower bound on epsilon, on an event\n"
    "                     chosen in advance from the exact probabilities and the numbers of\n"
    "                     draws (never from the draws)\n"
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
    "(No float sampler, --samples-x/-y or --variant pf there.)\n"
    "\n"
    "Identical laws (X = Y, or utilities differing by one constant) give exactly 0.\n"
    "Standard error names the variant and sensitivity used and where each came from.\n"
    "Exit status: 0 the claim holds (ideal and float), 1 violated (by the ideal mechanism,\n"
    "the float sampler, or the draws' lower bound), 2 bad input, 3 internal failure or an\n"
    "undecided comparison or a write error on standard output.\n";

typedef struct dist {
    size_t n;
    mpfr_t *lo, *hi;
} dist;

static int dist_init(dist *d, size_t n)
{
    d->n = n;
    d->lo = malloc(n * sizeof *d->lo);
    d->hi = malloc(n * sizeof *d->hi);
    if (!d->lo || !d->hi)
        return EM_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        mpfr_inits2(PREC, d->lo[i], d->hi[i], (mpfr_ptr)0);
    return EM_OK;
}

static void dist_free(dist *d)
{
    if (d->lo && d->hi)
        for (size_t i = 0; i < d->n; i++)
            mpfr_clears(d->lo[i], d->hi[i], (mpfr_ptr)0);
    free(d->lo);
    free(d->hi);
}

/* Ideal exponential mechanism: p_i = exp(t_i) / sum_j exp(t_j), t = c (u - u*), in
 * interval arithmetic. */
static int ideal_em(dist *d, mpq_t *u, const unsigned char *ex, mpq_t *m, const mpq_t eps,
                    const mpq_t delta, int variant)
{
    size_t n = d->n, imax = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (!ex[i] && (imax == SIZE_MAX || mpq_cmp(u[i], u[imax]) > 0))
            imax = i;
    if (imax == SIZE_MAX)
        return EM_ERR_ALL_EXCLUDED;
    mpq_t c, t;
    mpq_inits(c, t, NULL);
    mpq_div(c, eps, delta);
    if (variant == EM_STANDARD) {
        mpz_mul_2exp(mpq_denref(c), mpq_denref(c), 1);
        mpq_canonicalize(c);
    }
    mpfr_t x, Slo, Shi;
    mpfr_inits2(PREC, x, Slo, Shi, (mpfr_ptr)0);
    mpfr_set_ui(Slo, 0, MPFR_RNDN);
    mpfr_set_ui(Shi, 0, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        if (ex[i]) {
            mpfr_set_ui(d->lo[i], 0, MPFR_RNDN);
            mpfr_set_ui(d->hi[i], 0, MPFR_RNDN);
            continue;
        }
        mpq_sub(t, u[i], u[imax]);
        mpq_mul(t, t, c);
        mpfr_set_q(x, t, MPFR_RNDD);
        mpfr_exp(d->lo[i], x, MPFR_RNDD);
        mpfr_set_q(x, t, MPFR_RNDU);
        mpfr_exp(d->hi[i], x, MPFR_RNDU);
        if (m) { /* base measure m_i >= 0 (exact) */
            mpfr_mul_q(d->lo[i], d->lo[i], m[i], MPFR_RNDD);
            mpfr_mul_q(d->hi[i], d->hi[i], m[i], MPFR_RNDU);
        }
        mpfr_add(Slo, Slo, d->lo[i], MPFR_RNDD);
        mpfr_add(Shi, Shi, d->hi[i], MPFR_RNDU);
    }
    for (size_t i = 0; i < n; i++) {
        mpfr_div(d->lo[i], d->lo[i], Shi, MPFR_RNDD);
        mpfr_div(d->hi[i], d->hi[i], Slo, MPFR_RNDU);
    }
    mpfr_clears(x, Slo, Shi, (mpfr_ptr)0);
    mpq_clears(c, t, NULL);
    return EM_OK;
}

/* The float sampler as implemented: W / total exactly (rounded to PREC in the right
 * directions). */
static int float_em(dist *d, const double *ud, double eps, double del, int variant,
                    uint64_t *W, uint64_t *totalp)
{
    size_t n = d->n, argmax;
    double *lw = malloc(n * sizeof *lw);
    uint64_t total, scale;
    int st = lw && W ? EM_OK : EM_ERR_NOMEM;
    if (st == EM_OK)
        st = em_logweights(n, ud, eps, del, variant, lw, &argmax);
    if (st == EM_OK)
        st = em_weights_fixed(n, lw, W, &total, &scale);
    if (st == EM_OK) {
        mpfr_t T;
        mpfr_init2(T, 64);
        mpfr_set_uj(T, total, MPFR_RNDN); /* exact: 64 bits */
        for (size_t i = 0; i < n; i++) {
            mpfr_set_uj(d->lo[i], W[i], MPFR_RNDN);
            mpfr_set(d->hi[i], d->lo[i], MPFR_RNDN);
            mpfr_div(d->lo[i], d->lo[i], T, MPFR_RNDD);
            mpfr_div(d->hi[i], d->hi[i], T, MPFR_RNDU);
        }
        mpfr_clear(T);
        *totalp = total;
    }
    free(lw);
    return st;
}

/* The float sampler's two laws are equal exactly when W_X[i] T_Y = W_Y[i] T_X for all i
 * (128-bit products, exact). */
static int float_equal(size_t n, const uint64_t *WX, uint64_t TX, const uint64_t *WY, uint64_t TY)
{
    __extension__ typedef unsigned __int128 u128;
    for (size_t i = 0; i < n; i++)
        if ((u128)WX[i] * TY != (u128)WY[i] * TX)
            return 0;
    return 1;
}

/* The ideal laws (standard, monotone and permute-and-flip alike: each depends on the
 * utilities only through c (u - max u), and on the base measure up to a factor) are equal
 * exactly when the supports agree, u_X - u_Y is one constant on it, and m_X / m_Y is one
 * constant: decided on the exact rationals, so that `audit X X` says 0, not 1e-95. */
static int ideal_equal(size_t n, mpq_t *ux, const unsigned char *exx, mpq_t *mx, mpq_t *uy,
                       const unsigned char *exy, mpq_t *my)
{
    mpq_t d0, d, a, b;
    mpq_inits(d0, d, a, b, NULL);
    long f = -1;
    int eq = 1;
    for (size_t i = 0; i < n && eq; i++) {
        if (exx[i] != exy[i]) {
            eq = 0;
            break;
        }
        if (exx[i])
            continue;
        if (mx && my && (mpq_sgn(mx[i]) == 0) != (mpq_sgn(my[i]) == 0)) {
            eq = 0;
            break;
        }
        mpq_sub(d, ux[i], uy[i]);
        if (f < 0) {
            f = (long)i;
            mpq_set(d0, d);
            continue;
        }
        if (!mpq_equal(d, d0))
            eq = 0;
        if (eq && mx && my) {
            mpq_mul(a, mx[i], my[f]);
            mpq_mul(b, my[i], mx[f]);
            eq = mpq_equal(a, b);
        }
    }
    mpq_clears(d0, d, a, b, NULL);
    return eq;
}

static int pf_dist(dist *d, mpq_t *u, const unsigned char *ex, const mpq_t eps,
                   const mpq_t delta)
{
    return em_pf_pmf_bounds(d->n, u, ex, eps, delta, EM_STANDARD, PREC, d->lo, d->hi);
}

/* Privacy loss and delta(eps) between X and Y; prints one block.  Returns 0 holds,
 * 1 violated, 3 undecided. */
static int report(const char *what, const em_scenario *sx, const dist *X, const dist *Y,
                  const mpq_t epsq, int equal)
{
    if (equal) {
        printf("%s:\n  privacy loss: 0 (exactly: the two laws are equal, decided on the exact "
               "inputs)\n  delta(eps) X->Y: 0\n  delta(eps) Y->X: 0\n  verdict: eps-DP holds "
               "on this pair\n", what);
        return 0;
    }
    size_t n = X->n, where = SIZE_MAX;
    int inf = 0;
    mpfr_t a, b, Llo, Lhi, best_lo, best_hi, elo, ehi, dxy[2], dxy_hi[2], tmp;
    mpfr_inits2(PREC, a, b, Llo, Lhi, best_lo, best_hi, elo, ehi, dxy[0], dxy[1], dxy_hi[0],
                dxy_hi[1], tmp, (mpfr_ptr)0);
    mpfr_set_ui(best_lo, 0, MPFR_RNDN);
    mpfr_set_ui(best_hi, 0, MPFR_RNDN);
    for (size_t i = 0; i < n; i++) {
        int zx = mpfr_zero_p(X->hi[i]), zy = mpfr_zero_p(Y->hi[i]);
        if (zx && zy)
            continue;
        if (zx || zy || mpfr_zero_p(X->lo[i]) || mpfr_zero_p(Y->lo[i])) {
            if (zx != zy) { /* one is exactly 0, the other positive: infinite loss */
                if (!inf)
                    where = i;
                inf = 1;
            }
            continue;
        }
        /* ln pX - ln pY in [ln lo_X - ln hi_Y, ln hi_X - ln lo_Y]; |.| */
        mpfr_log(a, X->lo[i], MPFR_RNDD);
        mpfr_log(b, Y->hi[i], MPFR_RNDU);
        mpfr_sub(Llo, a, b, MPFR_RNDD);
        mpfr_log(a, X->hi[i], MPFR_RNDU);
        mpfr_log(b, Y->lo[i], MPFR_RNDD);
        mpfr_sub(Lhi, a, b, MPFR_RNDU);
        /* |L| in [max(0, Llo, -Lhi), max(|Llo|, |Lhi|)] */
        mpfr_abs(a, Llo, MPFR_RNDU);
        mpfr_abs(b, Lhi, MPFR_RNDU);
        mpfr_max(b, a, b, MPFR_RNDU);
        mpfr_neg(a, Lhi, MPFR_RNDD);
        mpfr_max(a, a, Llo, MPFR_RNDD);
        if (mpfr_sgn(a) < 0)
            mpfr_set_ui(a, 0, MPFR_RNDN);
        if (where == SIZE_MAX || mpfr_cmp(b, best_hi) > 0) {
            if (!inf)
                where = i;
            mpfr_set(best_hi, b, MPFR_RNDU);
        }
        if (mpfr_cmp(a, best_lo) > 0)
            mpfr_set(best_lo, a, MPFR_RNDD);
    }
    /* delta(eps) both ways */
    mpfr_set_q(tmp, epsq, MPFR_RNDD);
    mpfr_exp(elo, tmp, MPFR_RNDD);
    mpfr_set_q(tmp, epsq, MPFR_RNDU);
    mpfr_exp(ehi, tmp, MPFR_RNDU);
    for (int dir = 0; dir < 2; dir++) {
        const dist *P = dir ? Y : X, *Q = dir ? X : Y;
        mpfr_set_ui(dxy[dir], 0, MPFR_RNDN);
        mpfr_set_ui(dxy_hi[dir], 0, MPFR_RNDN);
        for (size_t i = 0; i < n; i++) {
            mpfr_mul(a, ehi, Q->hi[i], MPFR_RNDU);
            mpfr_sub(a, P->lo[i], a, MPFR_RNDD);
            if (mpfr_sgn(a) > 0)
                mpfr_add(dxy[dir], dxy[dir], a, MPFR_RNDD);
            mpfr_mul(b, elo, Q->lo[i], MPFR_RNDD);
            mpfr_sub(b, P->hi[i], b, MPFR_RNDU);
            if (mpfr_sgn(b) > 0)
                mpfr_add(dxy_hi[dir], dxy_hi[dir], b, MPFR_RNDU);
        }
    }
    mpfr_set_q(elo, epsq, MPFR_RNDD);
    mpfr_set_q(ehi, epsq, MPFR_RNDU);
    int verdict;
    printf("%s:\n", what);
    if (inf) {
        printf("  privacy loss: inf (p = 0 on one side only) at '%s'\n", em_cli_human(sx->labels[where]));
        verdict = 1;
    } else {
        mpfr_printf("  privacy loss: %.17Rg  (in [%.6Re, %.6Re]) at '%s'\n", best_hi, best_lo,
                    best_hi, where == SIZE_MAX ? "-" : em_cli_human(sx->labels[where]));
        verdict = mpfr_cmp(best_lo, ehi) > 0 ? 1 : mpfr_cmp(best_hi, elo) <= 0 ? 0 : 3;
    }
    mpfr_printf("  delta(eps) X->Y: %.6Rg  (in [%.3Re, %.3Re])\n", dxy_hi[0], dxy[0], dxy_hi[0]);
    mpfr_printf("  delta(eps) Y->X: %.6Rg  (in [%.3Re, %.3Re])\n", dxy_hi[1], dxy[1], dxy_hi[1]);
    printf("  verdict: %s\n", verdict == 0 ? "eps-DP holds on this pair"
                          : verdict == 1 ? "VIOLATED: the privacy loss exceeds eps"
                                         : "undecided at this precision");
    mpfr_clears(a, b, Llo, Lhi, best_lo, best_hi, elo, ehi, dxy[0], dxy[1], dxy_hi[0], dxy_hi[1],
                tmp, (mpfr_ptr)0);
    return verdict;
}

static long find_label(const void *ctx, const char *label, size_t len)
{
    return em_scenario_find((const em_scenario *)ctx, label, len);
}

/* Draw counts per candidate from a samples file: the reader every command shares
 * (io/em_samples.h). */
static int load_counts(const char *cmd, const char *path, const em_scenario *sc, int are,
                       uint64_t *cnt, uint64_t *N)
{
    char *buf = NULL, err[EM_SCENARIO_ERRLEN];
    size_t len;
    int use_stdin = !strcmp(path, "-");
    const char *name = use_stdin ? "<stdin>" : path;
    em_cli_stdin_hint(cmd, path, "the draws");
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot open: %s\n", cmd, name, strerror(errno));
        return EM_EXIT_USAGE;
    }
    int st = em_read_all(f, (size_t)16 << 30, &buf, &len);
    if (!use_stdin)
        fclose(f);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s: cannot read\n", cmd, name);
        return st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
    }
    st = em_samples_count(buf, len, name, sc->n, find_label, sc, are, cnt, N, err, sizeof err);
    free(buf);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", cmd, st == EM_ERR_NOMEM ? "out of memory" : err);
        return st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
    }
    return -1;
}

/* x with P(Beta(a, b) <= x) = q, by bisection on the regularised incomplete beta
 * (GSL's own inverse fails to converge for large parameters). */
static double beta_inv(double q, double a, double b)
{
    double lo = 0, hi = 1;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (gsl_cdf_beta_P(mid, a, b) < q)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Clopper-Pearson one-sided bounds at level a on each side */
static double cp_lower(uint64_t k, uint64_t n, double a)
{
    return k == 0 ? 0.0 : beta_inv(a, (double)k, (double)(n - k + 1));
}

static double cp_upper(uint64_t k, uint64_t n, double a)
{
    return k == n ? 1.0 : beta_inv(1 - a, (double)(k + 1), (double)(n - k));
}

/* Clopper-Pearson lower bound on eps; the event (a set of outcomes) is chosen from the
 * exact probabilities and Nx, Ny only: outcomes sorted by p_X/p_Y, the proper prefix whose
 * expected-count bound ln(CPlo(Nx pX(E))/CPhi(Ny pY(E))) is largest. */
static double cp_bound(size_t n, const double *px, const double *py, const uint64_t *cx,
                       const uint64_t *cy, uint64_t Nx, uint64_t Ny, double a, size_t *evsize)
{
    size_t *ord = malloc(n * sizeof *ord);
    if (!ord)
        return NAN;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (px[i] > 0)
            ord[m++] = i;
    for (size_t i = 1; i < m; i++) /* insertion sort by ratio, descending */
        for (size_t j = i; j > 0; j--) {
            double r1 = py[ord[j]] > 0 ? px[ord[j]] / py[ord[j]] : INFINITY;
            double r0 = py[ord[j - 1]] > 0 ? px[ord[j - 1]] / py[ord[j - 1]] : INFINITY;
            if (r1 <= r0)
                break;
            size_t t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    double best = -INFINITY, PX = 0, PY = 0;
    size_t bk = 0;
    for (size_t k = 0; k + 1 < m; k++) { /* the whole support says nothing */
        PX += px[ord[k]];
        PY += py[ord[k]];
        uint64_t ex = (uint64_t)llround(PX * (double)Nx), ey = (uint64_t)llround(PY * (double)Ny);
        if (ex > Nx)
            ex = Nx;
        if (ey > Ny)
            ey = Ny;
        double v = log(cp_lower(ex, Nx, a)) - log(cp_upper(ey, Ny, a));
        if (v > best) {
            best = v;
            bk = k + 1;
        }
    }
    uint64_t kx = 0, ky = 0;
    for (size_t k = 0; k < bk; k++) {
        kx += cx[ord[k]];
        ky += cy[ord[k]];
    }
    free(ord);
    *evsize = bk;
    double lo = cp_lower(kx, Nx, a), hi = cp_upper(ky, Ny, a);
    return lo > 0 ? log(lo / hi) : -INFINITY;
}

/* ------------------------------------------------ weighted and continuous laws */

static void print_q(const mpq_t q)
{
    char *t = em_q_to_string(q, 17);
    if (t && strchr(t, '/')) { /* no short decimal: the fraction and 17 digits */
        mpfr_t x;
        mpfr_init2(x, 128);
        mpfr_set_q(x, q, MPFR_RNDN);
        mpfr_printf("%s (%.17Rg)", t, x);
        mpfr_clear(x);
    } else {
        printf("%s", t ? t : "?");
    }
    free(t);
}

static void print_interval(const em_closs_dir *d)
{
    if (d->lo_inf)
        printf("(-inf, ");
    else {
        printf("(");
        print_q(d->lo);
        printf(", ");
    }
    if (d->hi_inf)
        printf("inf)");
    else {
        print_q(d->hi);
        printf(")");
    }
}

/* one direction of an exact loss (k = 0: X over Y) */
static void print_dir(const em_closs_dir *d, int k, const em_scenario *sx)
{
    const char *A = k == 0 ? "X" : "Y", *B = k == 0 ? "Y" : "X";
    printf("  sup ln(%s) = ", k == 0 ? (sx ? "P_X/P_Y" : "f_X/f_Y") : (sx ? "P_Y/P_X" : "f_Y/f_X"));
    if (d->infinite) {
        if (d->reason == EM_CLOSS_SUPPORT && sx) {
            printf("inf: '%s' has positive probability under %s only\n", em_cli_human(sx->labels[d->atom]), A);
        } else if (d->reason == EM_CLOSS_SUPPORT) {
            printf("inf: %s has positive density on ", A);
            print_interval(d);
            printf(" where %s has none\n", B);
        } else {
            printf("inf: the log-ratio grows without bound as r -> %sinf on ", d->at_inf < 0 ? "-" : "+");
            print_interval(d);
            printf(" (the slopes of c u differ on an unbounded piece)\n");
        }
        return;
    }
    printf("%s", d->value.str);
    if (sx) {
        printf(" at '%s'\n", em_cli_human(sx->labels[d->atom]));
    } else if (d->everywhere) {
        printf(" everywhere (the log-ratio is constant on the common support)\n");
    } else {
        printf(" at r = ");
        print_q(d->at);
        printf(" (%s)\n", d->side < 0 ? "limit from the left" : d->side > 0 ? "limit from the right"
                                                              : "both sides");
    }
}

/* the exact block; returns 0 holds, 1 violated */
static int print_closs(const char *what, const em_closs *L, const em_scenario *sx)
{
    printf("%s:\n", what);
    print_dir(&L->d[0], 0, sx);
    print_dir(&L->d[1], 1, sx);
    const em_closs_dir *w = &L->d[L->worst];
    if (w->infinite)
        printf("  exact privacy loss: inf\n");
    else
        printf("  exact privacy loss: %s (correctly rounded to 17 digits; = sup ln(%s))\n",
               w->value.str, L->worst == 0 ? "X/Y" : "Y/X");
    printf("  verdict: %s\n", L->cmp_eps <= 0 ? "eps-DP holds on this pair (loss <= eps, decided exactly)"
                                              : "VIOLATED: the privacy loss exceeds eps (decided exactly)");
    return L->cmp_eps > 0;
}

static int cont_fail(const char *cmd, const char *name, const char *err, int st)
{
    if (err && err[0])
        fprintf(stderr, "%s: %s\n", cmd, err);
    else
        fprintf(stderr, "%s: %s: %s\n", cmd, name, em_cont_strerror(st));
    return st == EM_ERR_NOMEM || st == EM_ERR_UNDECIDED ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
}

/* two continuous scenarios */
static int audit_cont(const char *cmd, em_scenario *sc, const mpq_t eps, const mpq_t delta,
                      int variant, int pf, int samples)
{
    if (!sc[0].continuous || !sc[1].continuous) {
        fprintf(stderr, "%s: %s is continuous and %s is not: neighbours need the same kind of "
                        "output\n",
                cmd, sc[sc[0].continuous ? 0 : 1].name, sc[sc[0].continuous ? 1 : 0].name);
        return EM_EXIT_USAGE;
    }
    if (pf || samples) {
        fprintf(stderr, "%s: %s is not available for continuous scenarios\n", cmd,
                pf ? "--variant pf" : "--samples-x/--samples-y");
        return EM_EXIT_USAGE;
    }
    em_cont *C[2] = {NULL, NULL};
    int rc = -1;
    for (int k = 0; k < 2 && rc < 0; k++) {
        char err[EM_SCENARIO_ERRLEN] = "";
        int st = em_cont_new_pieces(&sc[k].pieces, eps, delta, variant, 17, &C[k], err, sizeof err);
        if (st != EM_OK)
            rc = cont_fail(cmd, sc[k].name, err, st);
    }
    if (rc < 0) {
        em_closs L;
        em_closs_init(&L);
        int st = em_closs_pieces(C[0], C[1], eps, 17, &L);
        if (st != EM_OK) {
            rc = cont_fail(cmd, "exact privacy loss", NULL, st);
        } else {
            char *es = em_q_to_string(eps, 17), *ds = em_q_to_string(delta, 17);
            printf("audit: X = %s, Y = %s, continuous (%zu and %zu pieces), epsilon = %s, "
                   "sensitivity = %s, variant %s\n",
                   sc[0].name, sc[1].name, sc[0].pieces.n, sc[1].pieces.n, es ? es : "?",
                   ds ? ds : "?", em_variant_name(variant));
            free(es);
            free(ds);
            int v = print_closs("ideal mechanism (densities; merged breakpoints, exact)", &L, NULL);
            rc = v ? EM_EXIT_REJECT : EM_EXIT_OK;
        }
        em_closs_clear(&L);
    }
    em_cont_free(C[0]);
    em_cont_free(C[1]);
    fflush(stdout);
    return rc;
}

int cmd_audit(int argc, char **argv)
{
    const char *cmd = "expmech audit";
    gsl_set_error_handler_off();
    const char *files[2] = {NULL, NULL}, *sxp = NULL, *syp = NULL;
    const char *eps_s = NULL, *del_s = NULL, *var_s = NULL;
    double conf = 0.95;
    int nf = 0, force = 0, samples_are = EM_SAMPLES_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = NULL;
        static const char *const opts[] = {"--epsilon", "--sensitivity", "--variant",
                                           "--samples-x", "--samples-y", "--confidence"};
        int which = -1;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(help, stdout);
            return EM_EXIT_OK;
        }
        if (!strcmp(o, "--force")) {
            force = 1;
            continue;
        }
        if (!strncmp(o, "--samples-are", 13) && (o[13] == 0 || o[13] == '=')) {
            const char *w = o[13] == '=' ? o + 14 : i + 1 < argc ? argv[++i] : NULL;
            if (!w || em_samples_are_parse(w, &samples_are) != 0) {
                fprintf(stderr, "%s: --samples-are takes 'labels' or 'indices'\n", cmd);
                return EM_EXIT_USAGE;
            }
            continue;
        }
        for (int k = 0; k < 6; k++) {
            size_t l = strlen(opts[k]);
            if (!strncmp(o, opts[k], l) && (o[l] == 0 || o[l] == '=')) {
                which = k;
                if (o[l] == '=')
                    v = o + l + 1;
                else if (i + 1 < argc)
                    v = argv[++i];
                else {
                    fprintf(stderr, "%s: %s needs a value\n", cmd, opts[k]);
                    return EM_EXIT_USAGE;
                }
            }
        }
        if (which < 0) {
            if (o[0] == '-' && o[1] != 0) {
                fprintf(stderr, "%s: unknown option '%s'\n", cmd, o);
                return EM_EXIT_USAGE;
            }
            if (nf >= 2) {
                fprintf(stderr, "%s: exactly two scenario files, X and Y\n", cmd);
                return EM_EXIT_USAGE;
            }
            files[nf++] = o;
            continue;
        }
        const char **dst[] = {&eps_s, &del_s, &var_s, &sxp, &syp, NULL};
        if (which == 5) {
            const char *m = NULL;
            if (em_cli_parse_double(v, &conf, &m) != EM_OK || !(conf > 0 && conf < 1)) {
                fprintf(stderr, "%s: --confidence takes a number in (0, 1)\n", cmd);
                return EM_EXIT_USAGE;
            }
        } else {
            *dst[which] = v;
        }
    }
    if (!eps_s || nf != 2) {
        fprintf(stderr, "%s: --epsilon and two scenario files are required (--help)\n", cmd);
        return EM_EXIT_USAGE;
    }
    if (!sxp != !syp) {
        fprintf(stderr, "%s: --samples-x and --samples-y go together\n", cmd);
        return EM_EXIT_USAGE;
    }
    int variant = EM_STANDARD, pf = 0;
    if (var_s) {
        if (!strcmp(var_s, "standard"))
            variant = EM_STANDARD;
        else if (!strcmp(var_s, "monotone"))
            variant = EM_MONOTONE;
        else if (!strcmp(var_s, "pf"))
            pf = 1;
        else {
            fprintf(stderr, "%s: --variant takes standard, monotone or pf\n", cmd);
            return EM_EXIT_USAGE;
        }
    }
    int rc = EM_EXIT_INTERNAL;
    em_scenario sc[2];
    em_scenario_init(&sc[0]);
    em_scenario_init(&sc[1]);
    mpq_t eps, delta;
    mpq_inits(eps, delta, NULL);
    mpq_t *uy = NULL, *my = NULL, *mx1 = NULL;
    size_t nq = 0;
    em_cont *law[2] = {NULL, NULL};
    unsigned char *exy = NULL;
    double *udy = NULL;
    dist D[4] = {{0, NULL, NULL}, {0, NULL, NULL}, {0, NULL, NULL}, {0, NULL, NULL}};
    uint64_t *cx = NULL, *cy = NULL;
    double *px = NULL, *py = NULL;
    const char *msg = NULL;
    int kind;
    if (em_q_parse_str(eps_s, 0, eps, &kind, &msg) != EM_OK || mpq_sgn(eps) <= 0) {
        fprintf(stderr, "%s: --epsilon '%s': %s\n", cmd, eps_s, msg ? msg : "must be > 0");
        rc = EM_EXIT_USAGE;
        goto done;
    }
    for (int k = 0; k < 2; k++) {
        char err[EM_SCENARIO_ERRLEN];
        int st = em_scenario_load(&sc[k], files[k], err, sizeof err);
        if (st != EM_OK) {
            fprintf(stderr, "%s: %s\n", cmd, err);
            rc = st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
            goto done;
        }
    }
    if (del_s) {
        if (em_q_parse_str(del_s, 0, delta, &kind, &msg) != EM_OK || mpq_sgn(delta) <= 0) {
            fprintf(stderr, "%s: --sensitivity '%s': %s\n", cmd, del_s, msg ? msg : "must be > 0");
            rc = EM_EXIT_USAGE;
            goto done;
        }
    }
    {
        /* X's headers decide, as for every command (io/em_params_src.h) */
        mpq_t optd;
        mpq_init(optd);
        mpq_set(optd, delta);
        int v2;
        int r = em_cli_params(cmd, &sc[0], del_s ? optd : NULL, var_s != NULL,
                              pf ? EM_CLI_VARIANT_PF : variant, force, delta, &v2);
        mpq_clear(optd);
        if (r >= 0) {
            rc = r;
            goto done;
        }
        if (!pf)
            variant = v2;
    }
    if (sc[0].continuous || sc[1].continuous) {
        rc = audit_cont(cmd, sc, eps, delta, variant, pf, sxp != NULL);
        goto done;
    }
    const int measure = sc[0].has_measure || sc[1].has_measure;
    if (measure && pf) {
        fprintf(stderr, "%s: --variant pf is not available for scenarios with a measure column\n",
                cmd);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    size_t n = sc[0].n;
    if (sc[1].n != n) {
        fprintf(stderr, "%s: X has %zu candidates, Y %zu: neighbours need the same labels\n", cmd,
                n, sc[1].n);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    /* Y's utilities in X's label order */
    uy = malloc(n * sizeof *uy);
    my = malloc(n * sizeof *my);
    exy = malloc(n);
    udy = malloc(n * sizeof *udy);
    if (!uy || !my || !exy || !udy)
        goto done;
    for (size_t i = 0; i < n; i++) {
        mpq_init(uy[i]);
        mpq_init(my[i]);
    }
    nq = n;
    for (size_t i = 0; i < n; i++) {
        long j = em_scenario_find(&sc[1], sc[0].labels[i], strlen(sc[0].labels[i]));
        if (j < 0) {
            fprintf(stderr, "%s: label '%s' of X is not in Y\n", cmd, em_cli_human(sc[0].labels[i]));
            rc = EM_EXIT_USAGE;
            goto done;
        }
        mpq_set(uy[i], sc[1].u[j]);
        if (sc[1].has_measure)
            mpq_set(my[i], sc[1].measure[j]);
        else
            mpq_set_ui(my[i], 1, 1);
        exy[i] = sc[1].excluded[j];
        udy[i] = sc[1].ud[j];
    }
    if (measure) { /* the weighted laws (X's measure: all 1 without its column) */
        mx1 = malloc(n * sizeof *mx1);
        if (!mx1)
            goto done;
        for (size_t i = 0; i < n; i++) {
            mpq_init(mx1[i]);
            if (sc[0].has_measure)
                mpq_set(mx1[i], sc[0].measure[i]);
            else
                mpq_set_ui(mx1[i], 1, 1);
        }
        for (int k = 0; k < 2; k++) {
            char err[EM_SCENARIO_ERRLEN] = "";
            int st = em_cont_new_atoms(n, k ? uy : sc[0].u, k ? exy : sc[0].excluded,
                                       k ? my : mx1, eps, delta, variant, 17, &law[k], err,
                                       sizeof err);
            if (st != EM_OK) {
                rc = cont_fail(cmd, sc[k].name, err, st);
                goto done;
            }
        }
    }
    for (int k = 0; k < 4; k++)
        if (dist_init(&D[k], n) != EM_OK)
            goto done;
    int st = pf ? pf_dist(&D[0], sc[0].u, sc[0].excluded, eps, delta)
                : ideal_em(&D[0], sc[0].u, sc[0].excluded, measure ? mx1 : NULL, eps, delta,
                           variant);
    if (st == EM_OK)
        st = pf ? pf_dist(&D[1], uy, exy, eps, delta)
                : ideal_em(&D[1], uy, exy, measure ? my : NULL, eps, delta, variant);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", cmd, em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }
    /* the draws are read before anything is written: bad input leaves standard output empty */
    uint64_t Nx = 0, Ny = 0;
    if (sxp) {
        cx = malloc(n * sizeof *cx);
        cy = malloc(n * sizeof *cy);
        px = malloc(n * sizeof *px);
        py = malloc(n * sizeof *py);
        if (!cx || !cy || !px || !py)
            goto done;
        int r = load_counts(cmd, sxp, &sc[0], samples_are, cx, &Nx);
        if (r < 0) {
            /* samples of Y are labels of Y: map to X's order */
            uint64_t *tmp = malloc(n * sizeof *tmp);
            if (!tmp)
                goto done;
            r = load_counts(cmd, syp, &sc[1], samples_are, tmp, &Ny);
            for (size_t i = 0; r < 0 && i < n; i++)
                cy[i] = tmp[em_scenario_find(&sc[1], sc[0].labels[i], strlen(sc[0].labels[i]))];
            free(tmp);
        }
        if (r >= 0) {
            rc = r;
            goto done;
        }
    }
    char *es = em_q_to_string(eps, 17), *ds = em_q_to_string(delta, 17);
    printf("audit: X = %s, Y = %s, %zu candidates, epsilon = %s, sensitivity = %s, variant %s\n",
           sc[0].name, sc[1].name, n, es ? es : "?", ds ? ds : "?",
           pf ? "pf (permute-and-flip)" : em_variant_name(variant));
    free(es);
    free(ds);
    int v_ideal = report(pf ? "ideal permute-and-flip (= its exact sampler)"
                            : "ideal mechanism (= the exact sampler)",
                         &sc[0], &D[0], &D[1], eps,
                         ideal_equal(n, sc[0].u, sc[0].excluded, measure ? mx1 : NULL, uy, exy,
                                     measure ? my : NULL));
    if (measure) {
        em_closs L;
        em_closs_init(&L);
        st = em_closs_atoms(law[0], law[1], n, sc[0].u, sc[0].excluded, mx1, uy, exy, my, eps,
                            17, &L);
        if (st != EM_OK) {
            em_closs_clear(&L);
            rc = cont_fail(cmd, "exact privacy loss", NULL, st);
            goto done;
        }
        v_ideal = print_closs("ideal mechanism with the base measure, exact", &L, &sc[0]);
        em_closs_clear(&L);
        printf("float sampler: none for scenarios with a measure column\n");
    }
    int v_float = 0;
    if (!pf && !measure) {
        double e = em_q_get_d(eps, NULL), d = em_q_get_d(delta, NULL);
        int ok = em_check_params(e, d, variant) == EM_OK;
        for (size_t i = 0; i < n && ok; i++)
            if ((!sc[0].excluded[i] && isinf(sc[0].ud[i])) || (!exy[i] && isinf(udy[i])))
                ok = 0;
        uint64_t *WX = malloc(n * sizeof *WX), *WY = malloc(n * sizeof *WY), TX = 0, TY = 0;
        if (!WX || !WY) {
            free(WX);
            free(WY);
            goto done;
        }
        if (ok && float_em(&D[2], sc[0].ud, e, d, variant, WX, &TX) == EM_OK &&
            float_em(&D[3], udy, e, d, variant, WY, &TY) == EM_OK) {
            v_float = report("float sampler as implemented (W[i]/total of em_weights_fixed)",
                             &sc[0], &D[2], &D[3], eps, float_equal(n, WX, TX, WY, TY));
        } else {
            printf("float sampler: cannot run on these inputs (beyond double's range)\n");
        }
        free(WX);
        free(WY);
    }
    int v_samples = 0;
    if (sxp) {
        for (size_t i = 0; i < n; i++) {
            px[i] = mpfr_get_d(D[0].hi[i], MPFR_RNDN);
            py[i] = mpfr_get_d(D[1].hi[i], MPFR_RNDN);
        }
        double a = (1 - conf) / 2;
        size_t e1, e2;
        double b1 = cp_bound(n, px, py, cx, cy, Nx, Ny, a, &e1);
        double b2 = cp_bound(n, py, px, cy, cx, Ny, Nx, a, &e2);
        double b = b1 > b2 ? b1 : b2;
        printf("draws: %llu from X, %llu from Y; Clopper-Pearson lower bound on epsilon at "
               "confidence %g: %.6g (X->Y, event of %zu outcomes: %.6g; Y->X, %zu: %.6g)\n",
               (unsigned long long)Nx, (unsigned long long)Ny, conf, b, e1, b1, e2, b2);
        v_samples = b > em_q_get_d(eps, NULL) ? 1 : 0;
        printf("  verdict: %s\n", v_samples ? "VIOLATED: the draws show a loss above eps"
                                           : "consistent with eps");
    }
    if (v_ideal == 1 || v_float == 1 || v_samples == 1)
        rc = EM_EXIT_REJECT;
    else if (v_ideal == 3 || v_float == 3)
        rc = EM_EXIT_INTERNAL;
    else
        rc = EM_EXIT_OK;
done:
    for (size_t i = 0; i < nq; i++) {
        mpq_clear(uy[i]);
        mpq_clear(my[i]);
        if (mx1)
            mpq_clear(mx1[i]);
    }
    free(uy);
    free(my);
    free(mx1);
    em_cont_free(law[0]);
    em_cont_free(law[1]);
    free(exy);
    free(udy);
    for (int k = 0; k < 4; k++)
        dist_free(&D[k]);
    free(cx);
    free(cy);
    free(px);
    free(py);
    mpq_clears(eps, delta, NULL);
    em_scenario_free(&sc[0]);
    em_scenario_free(&sc[1]);
    return rc;
}
