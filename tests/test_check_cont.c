/* test_check_cont.c: `expmech check` on continuous scenarios and on finite scenarios with a
 * measure column, run as a program (build/expmech, or $EM_EXPMECH).
 *
 * The draws come from samplers written here, independently of src/: inverse-CDF sampling
 * in long double from the closed form of the law (piece masses integrated by hand), with
 * uniforms from ChaCha20 at fixed seeds (em_rng_init, EM_RNG_CHACHA), printed with %.17g.  Each
 * acceptance test runs N = 20000 draws at alpha = 1e-6 (the command's default): a correct
 * sampler must pass, and two planted bugs must be rejected:
 *   - "not halved": c = eps/delta instead of eps/(2 delta);
 *   - "no measure": the piece (or interval, or atom) chosen proportionally to exp(c u)
 *     at its midpoint, forgetting its length (the base measure), then uniform / exact
 *     inside it.
 * Power at N = 20000 against them (planted_bug_power, from closed forms on the command's
 * own bins): noncentrality 394 to 18708 where power 0.99 at alpha = 1e-6 needs 86 to 91,
 * so the power is 1 to many digits (the weakest, pricing at eps = 1 not halved, reaches
 * 0.99 at N = 4349); each observed rejection has p < 1e-20.  A correct sampler fails with
 * probability at most 3e-6 (G, pooled tail and KS each at 1e-6); the seeds are fixed. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "expmech.h"
#include "judge/em_gof.h"

#define EM_CLI_OUT_SIZE (1 << 18)
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_check_cont_XXXXXX");
}

/* ------------------------------------------------------- the independent sampler */

typedef struct piece {
    long double lo, hi, a, b; /* u = a + b r on [lo, hi]; lo = -inf / hi = inf allowed */
} piece;

/* a uniform in (0, 1) from 64 random bits */
static long double unif(em_rng *r)
{
    uint64_t w;
    ck_assert_int_eq(em_rng_u64(r, &w), EM_OK);
    return ((long double)(w >> 11) + 0.5L) * 0x1p-53L;
}

/* mass of exp(c (a + b r)) over a piece, times exp(-shift) */
static long double piece_mass(const piece *p, long double c, long double shift)
{
    long double k = c * p->b;
    if (k == 0)
        return expl(c * p->a - shift) * (p->hi - p->lo);
    /* (exp(k hi) - exp(k lo)) / k, either end possibly infinite (then its term is 0) */
    long double th = isinf(p->hi) ? 0 : expl(c * p->a + k * p->hi - shift);
    long double tl = isinf(p->lo) ? 0 : expl(c * p->a + k * p->lo - shift);
    return (th - tl) / k;
}

/* one draw inside piece p of the density proportional to exp(c b r) (inverse CDF) */
static long double draw_in(const piece *p, long double c, em_rng *r)
{
    long double u = unif(r), k = c * p->b;
    if (k == 0)
        return p->lo + u * (p->hi - p->lo);
    if (isinf(p->lo)) /* k > 0: r = hi + log(u) / k */
        return p->hi + logl(u) / k;
    if (isinf(p->hi)) /* k < 0: r = lo + log(u) / k  (log(u) < 0) */
        return p->lo + logl(u) / k;
    /* F(r) = expm1(k (r - lo)) / expm1(k (hi - lo)) */
    return p->lo + log1pl(u * expm1l(k * (p->hi - p->lo))) / k;
}

enum { GOOD = 0, NOT_HALVED = 1, NO_MEASURE = 2 };

/* N draws of the law (pieces, eps, delta, standard variant) into tmpdir/name */
static void sample_pieces(const char *name, const piece *ps, size_t np, double eps,
                          double delta, int bug, uint64_t seed, unsigned N)
{
    long double c = (long double)eps / (bug == NOT_HALVED ? 1 : 2) / delta;
    long double w[64], shift = -INFINITY;
    ck_assert(np <= 64);
    for (size_t j = 0; j < np; j++) { /* shift by the largest exponent at a finite point */
        long double e1 = isinf(ps[j].lo) ? -INFINITY : c * (ps[j].a + ps[j].b * ps[j].lo);
        long double e2 = isinf(ps[j].hi) ? -INFINITY : c * (ps[j].a + ps[j].b * ps[j].hi);
        if (e1 > shift) shift = e1;
        if (e2 > shift) shift = e2;
    }
    long double tot = 0;
    for (size_t j = 0; j < np; j++) {
        if (bug == NO_MEASURE) {
            long double mid = (ps[j].lo + ps[j].hi) / 2;
            w[j] = expl(c * (ps[j].a + ps[j].b * mid) - shift);
        } else {
            w[j] = piece_mass(&ps[j], c, shift);
        }
        tot += w[j];
    }
    em_rng r;
    ck_assert_int_eq(em_rng_init(&r, EM_RNG_CHACHA, &(uint64_t){seed}, 1), EM_OK);
    char path[160];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (unsigned i = 0; i < N; i++) {
        long double t = unif(&r) * tot, acc = 0;
        size_t j = 0;
        for (; j + 1 < np; j++) {
            acc += w[j];
            if (t < acc)
                break;
        }
        fprintf(f, "%.17g\n", (double)draw_in(&ps[j], c, &r));
    }
    fclose(f);
}

/* N atom draws (0-based indices) of P(j) ~ m_j exp(c u_j) (or a bug) into tmpdir/name */
static void sample_atoms(const char *name, const double *u, const double *m, size_t n,
                         double eps, double delta, int bug, uint64_t seed, unsigned N)
{
    long double c = (long double)eps / (bug == NOT_HALVED ? 1 : 2) / delta, w[64], tot = 0;
    ck_assert(n <= 64);
    for (size_t j = 0; j < n; j++) {
        w[j] = (bug == NO_MEASURE ? 1 : m[j]) * expl(c * u[j]);
        tot += w[j];
    }
    em_rng r;
    ck_assert_int_eq(em_rng_init(&r, EM_RNG_CHACHA, &(uint64_t){seed}, 1), EM_OK);
    char path[160];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    for (unsigned i = 0; i < N; i++) {
        long double t = unif(&r) * tot, acc = 0;
        size_t j = 0;
        for (; j + 1 < n; j++) {
            acc += w[j];
            if (t < acc)
                break;
        }
        fprintf(f, "%zu\n", j);
    }
    fclose(f);
}

/* a number printed after `key` in out (NaN if absent) */
static double after(const char *key)
{
    const char *p = strstr(out, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

static void show(const char *what)
{
    if (!strstr(out, "Kolmogorov-Smirnov")) {
        fprintf(stderr, "[%s] G = %.6g, df %d, p = %.4g -> %s\n", what, after("G = "),
                (int)after("df = "), after("p-value = "),
                strstr(out, "verdict: PASS") ? "PASS" : "REJECT");
        return;
    }
    fprintf(stderr, "[%s] G = %.6g, df %d, p = %.4g; KS D = %.5g, sqrt(N) D = %.4g, p %s %.4g -> %s\n",
            what, after("G = "), (int)after("df = "), after("p-value = "),
            after("Kolmogorov-Smirnov: D = "), after("(sqrt(N) D = "),
            strstr(out, "p-value ~") ? "~" : "=",
            strstr(out, "p-value ~") ? after("p-value ~ ") : after("), p-value = "),
            strstr(out, "verdict: PASS") ? "PASS" : "REJECT");
}

/* --------------------------------------------------------------- scenarios */

/* seed 003's pricing: revenue r #{buyers with value >= r}, pieces 0..1 (4 r), 1..3.01
 * (r), 3.01..3.5 (0); sensitivity 3.5 */
static const piece pricing[3] = {{0, 1, 0, 4}, {1, 3.01L, 0, 1}, {3.01L, 3.5L, 0, 0}};
static const char pricing_csv[] = "# output: continuous\n# sensitivity: 3.5\n"
                                  "0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n";

/* diffprivlib's quantile (median of 10 values in [0, 25]): intervals between the sorted
 * data, u = -|i - 5| constant on interval i, probability ~ length exp(c u) */
static const double qdata[12] = {0, 1.5, 2, 3.25, 7, 8, 8.5, 9, 12, 15.75, 20, 25};
static piece quantile_ps[11];
static char quantile_csv[1024], quantile_measure_csv[1024];
static double qu[11], qm[11];

static void make_quantile(void)
{
    char *p = quantile_csv, *q = quantile_measure_csv;
    p += sprintf(p, "# output: continuous\n# sensitivity: 1\n");
    q += sprintf(q, "# measure: yes\n# sensitivity: 1\n");
    for (int i = 0; i < 11; i++) {
        qu[i] = -fabs(i - 5.0);
        qm[i] = qdata[i + 1] - qdata[i];
        quantile_ps[i] = (piece){qdata[i], qdata[i + 1], qu[i], 0};
        p += sprintf(p, "%.17g,%.17g,%g\n", qdata[i], qdata[i + 1], qu[i]);
        q += sprintf(q, "I%d,%g,%.17g\n", i, qu[i], qm[i]);
    }
}


/* ------------------------------------------------ power against the planted bugs */

/* closed-form CDF at x of the law drawn by sample_pieces(..., bug) */
static long double law_cdf(const piece *ps, size_t np, long double c, int bug, long double x)
{
    long double W[64], tot = 0, acc = 0;
    for (size_t j = 0; j < np; j++) {
        long double mid = (ps[j].lo + ps[j].hi) / 2;
        W[j] = bug == NO_MEASURE ? expl(c * (ps[j].a + ps[j].b * mid)) : piece_mass(&ps[j], c, 0);
        tot += W[j];
    }
    for (size_t j = 0; j < np; j++) {
        if (x >= ps[j].hi) {
            acc += W[j];
            continue;
        }
        if (x <= ps[j].lo)
            break;
        piece part = ps[j];
        part.hi = x;
        acc += W[j] * piece_mass(&part, c, 0) / piece_mass(&ps[j], c, 0);
        break;
    }
    return acc / tot;
}

/* the bin edges printed by the last `check` (the "to" column but the last row) */
static size_t edges_from_out(double *e, size_t cap)
{
    size_t n = 0;
    for (const char *p = strstr(out, "\n0 "); p && *p;) {
        p++;
        if (*p < '0' || *p > '9')
            break;
        char *q;
        strtoul(p, &q, 10);
        strtod(q, &q);               /* from */
        double to = strtod(q, &q);   /* to */
        if (n < cap)
            e[n++] = to;
        p = strchr(p, '\n');
    }
    return n ? n - 1 : 0; /* the last "to" is the right end of R */
}

/* noncentrality N sum (q - p)^2 / p over the bins, p the law, q the bug's law */
static double noncentrality(const piece *ps, size_t np, double eps, double delta, int bug,
                            unsigned N, const double *e, size_t ne)
{
    long double cp = (long double)eps / 2 / delta;
    long double cq = (long double)eps / (bug == NOT_HALVED ? 1 : 2) / delta;
    long double Fp0 = 0, Fq0 = 0, lam = 0;
    for (size_t k = 0; k <= ne; k++) {
        long double Fp = k < ne ? law_cdf(ps, np, cp, GOOD, e[k]) : 1;
        long double Fq = k < ne ? law_cdf(ps, np, cq, bug, e[k]) : 1;
        long double p = Fp - Fp0, q = Fq - Fq0;
        lam += N * (q - p) * (q - p) / p;
        Fp0 = Fp;
        Fq0 = Fq;
    }
    return (double)lam;
}

START_TEST(planted_bug_power)
{
    /* the power of the G-test at N = 20000, alpha = 1e-6, against each planted bug, on the
     * bins the command uses: lambda = N sum (q - p)^2 / p from closed forms, power =
     * P(noncentral chi-square(df, lambda) > critical value) */
    struct {
        const piece *ps;
        size_t np;
        double eps, delta;
        const char *csv;
    } sc[3] = {{pricing, 3, 1, 3.5, pricing_csv}, {pricing, 3, 5, 3.5, pricing_csv},
               {quantile_ps, 11, 1, 1, NULL}};
    make_quantile();
    sc[2].csv = quantile_csv;
    put("one.txt", "0.5\n");
    for (int i = 0; i < 3; i++) {
        put("s.csv", sc[i].csv);
        /* one draw: the bins are printed, but too little data to test is no pass (exit 4) */
        ck_assert_int_eq(run("$E check --epsilon %g --samples one.txt s.csv", sc[i].eps), 4);
        ck_assert_ptr_nonnull(strstr(out, "verdict: INSUFFICIENT DATA"));
        double e[200];
        size_t ne = edges_from_out(e, 200);
        ck_assert(ne >= 19);
        for (int bug = NOT_HALVED; bug <= NO_MEASURE; bug++) {
            double lam = noncentrality(sc[i].ps, sc[i].np, sc[i].eps, sc[i].delta, bug, 20000, e, ne);
            double need = em_ncx2_lambda_for_power((double)ne, 1e-6, 0.99);
            fprintf(stderr, "[power: %s eps=%g, %s] bins %zu, lambda at N = 20000: %.0f "
                            "(0.99 needs %.1f: N = %.0f)\n",
                    i == 2 ? "quantile" : "pricing", sc[i].eps,
                    bug == NOT_HALVED ? "eps not halved" : "measure forgotten", ne + 1, lam, need,
                    need / lam * 20000);
            ck_assert(lam > need);
        }
    }
}
END_TEST

/* ------------------------------------------------------------------- tests */

static void three_samplers(const char *scen, const piece *ps, size_t np, double eps,
                           double delta, uint64_t seed, const char *tag)
{
    char lab[96];
    sample_pieces("good.txt", ps, np, eps, delta, GOOD, seed, 20000);
    sample_pieces("nohalf.txt", ps, np, eps, delta, NOT_HALVED, seed + 1, 20000);
    sample_pieces("nomeasure.txt", ps, np, eps, delta, NO_MEASURE, seed + 2, 20000);
    ck_assert_msg(run("$E check --epsilon %g --samples good.txt %s", eps, scen) == 0, "%s", out);
    snprintf(lab, sizeof lab, "%s correct", tag);
    show(lab);
    ck_assert_ptr_nonnull(strstr(out, "verdict: PASS at alpha = 1e-06"));
    ck_assert_ptr_nonnull(strstr(out, "support: ok"));
    ck_assert_ptr_nonnull(strstr(out, "draws: 20000; "));
    ck_assert_int_eq(run("$E check --epsilon %g --samples nohalf.txt %s", eps, scen), 1);
    snprintf(lab, sizeof lab, "%s eps not halved", tag);
    show(lab);
    ck_assert_ptr_nonnull(strstr(out, "verdict: REJECT"));
    ck_assert(after("p-value = ") < 1e-20);
    ck_assert_int_eq(run("$E check --epsilon %g --samples nomeasure.txt %s", eps, scen), 1);
    snprintf(lab, sizeof lab, "%s measure forgotten", tag);
    show(lab);
    ck_assert_ptr_nonnull(strstr(out, "verdict: REJECT"));
    ck_assert(after("p-value = ") < 1e-20);
}

START_TEST(pricing_eps1)
{
    put("pricing.csv", pricing_csv);
    three_samplers("pricing.csv", pricing, 3, 1, 3.5, 1001, "pricing eps=1");
    /* the breakpoints 1 and 3.01 are bin edges */
    ck_assert_ptr_nonnull(strstr(out, " 1 "));
    ck_assert_ptr_nonnull(strstr(out, "3.0099999999999998"));
}
END_TEST

START_TEST(pricing_eps5)
{
    put("pricing.csv", pricing_csv);
    three_samplers("pricing.csv", pricing, 3, 5, 3.5, 2001, "pricing eps=5");
}
END_TEST

START_TEST(quantile_continuous)
{
    make_quantile();
    put("q.csv", quantile_csv);
    three_samplers("q.csv", quantile_ps, 11, 1, 1, 3001, "quantile eps=1");
}
END_TEST

START_TEST(quantile_finite_measure)
{
    make_quantile();
    put("qm.csv", quantile_measure_csv);
    sample_atoms("good.txt", qu, qm, 11, 1, 1, GOOD, 4001, 20000);
    sample_atoms("nohalf.txt", qu, qm, 11, 1, 1, NOT_HALVED, 4002, 20000);
    sample_atoms("nomeasure.txt", qu, qm, 11, 1, 1, NO_MEASURE, 4003, 20000);
    ck_assert_msg(run("$E check --epsilon 1 --samples good.txt qm.csv") == 0, "%s", out);
    show("quantile (finite, measure column) correct");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples nohalf.txt qm.csv"), 1);
    show("quantile (finite, measure column) eps not halved");
    ck_assert(after("p-value = ") < 1e-20);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples nomeasure.txt qm.csv"), 1);
    show("quantile (finite, measure column) measure forgotten");
    ck_assert(after("p-value = ") < 1e-20);
}
END_TEST

START_TEST(measure_known_answer)
{
    /* equal utilities, measures 1 and 3: P = 1/4, 3/4; 1000 draws expect 250 and 750 */
    put("m.csv", "# measure: yes\na,2,1\nb,2,3\n");
    char s[8000] = "";
    for (int i = 0; i < 1000; i++)
        strcat(s, i < 250 ? "a\n" : "b\n");
    put("d.txt", s);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt m.csv"), 0);
    ck_assert_ptr_nonnull(strstr(out, "250.00          250"));
    ck_assert_ptr_nonnull(strstr(out, "750.00          750"));
    ck_assert_ptr_nonnull(strstr(out, "G = 0,"));
    /* a measure 0 atom drawn: support violation */
    put("m0.csv", "# measure: yes\na,2,1\nb,2,0\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt m0.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "support: VIOLATION: 'b'"));
    /* permute-and-flip has no measure */
    ck_assert_int_eq(run("$E check --epsilon 1 --variant pf --samples d.txt m.csv"), 2);
}
END_TEST

START_TEST(uniform_known_answers)
{
    /* uniform law on [0, 1]: the bin edges are k/20 (the doubles nearest), every bin 0.05 */
    put("u.csv", "# output: continuous\n0,1,7\n");
    char s[64 * 2000] = "", *p = s;
    for (int i = 0; i < 2000; i++) /* a perfectly even grid: passes */
        p += sprintf(p, "%.17g\n", (i + 0.5) / 2000);
    put("d.txt", s);
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 0);
    for (int k = 1; k < 20; k++) {
        char e[40];
        snprintf(e, sizeof e, " %24.17g ", k / 20.0);
        ck_assert_msg(strstr(out, e) != NULL, "edge %s", e);
    }
    ck_assert_ptr_nonnull(strstr(out, "0.05         100.00        100"));
    ck_assert(after("G = ") < 1e-9); /* observed = expected = 100 in every bin */
    /* KS by hand: F_N - F is largest just after each grid point: D = 1/(2 N) = 0.00025 */
    ck_assert_double_eq_tol(after("Kolmogorov-Smirnov: D = "), 0.00025, 1e-9);
    /* three draws: D = max(1/3 - .1, 2/3 - .5, 1 - .6) = 0.4 at 0.6 */
    put("d3.txt", "0.1\n0.5\n# a comment\n\n  0.6  \n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d3.txt u.csv"), 4); /* 3 draws: insufficient */
    ck_assert_double_eq_tol(after("Kolmogorov-Smirnov: D = "), 0.4, 1e-12);
    ck_assert_ptr_nonnull(strstr(out, "at x = 0.59999999999999998 (F_N(x) - F(x))"));
    /* P(D_3 >= 0.4) lies between P(D+_3 >= 0.4) and twice it (union bound); the one-sided
     * tail by the Birnbaum-Tingey sum, terms j = 0 and 1, written out by hand */
    double pks = after("), p-value = ");
    double bt = 0.6 * 0.6 * 0.6 + 0.4 * 3 * (0.6 - 1.0 / 3) * (0.6 - 1.0 / 3) * 1; /* j=0,1 */
    ck_assert(pks >= bt && pks <= 2 * bt + 1e-12);
}
END_TEST

START_TEST(laplace_known_answers)
{
    /* u = -|r| on the real line, eps = 2, delta = 1: c = 1, the Laplace law of scale 1.
     * Edges: Q(p) = ln(2p) (p < 1/2), -ln(2 - 2p) (p > 1/2), correctly rounded (MPFR). */
    put("l.csv", "# output: continuous\n-inf,0,0,1\n0,inf,0,-1\n");
    piece lap[2] = {{-INFINITY, 0, 0, 1}, {0, INFINITY, 0, -1}};
    sample_pieces("good.txt", lap, 2, 2, 1, GOOD, 5001, 20000);
    ck_assert_msg(run("$E check --epsilon 2 --samples good.txt l.csv") == 0, "%s", out);
    show("laplace correct");
    mpfr_t x;
    mpfr_init2(x, 200);
    for (int k = 1; k < 20; k++) {
        if (k < 10) {
            mpfr_set_ui(x, (unsigned long)k, MPFR_RNDN);
            mpfr_div_ui(x, x, 10, MPFR_RNDN); /* 2p = k/10 (200 bits, then log, then double) */
            mpfr_log(x, x, MPFR_RNDN);
        } else {
            mpfr_set_ui(x, (unsigned long)(20 - k), MPFR_RNDN);
            mpfr_div_ui(x, x, 10, MPFR_RNDN);
            mpfr_log(x, x, MPFR_RNDN);
            mpfr_neg(x, x, MPFR_RNDN);
        }
        char e[40];
        snprintf(e, sizeof e, " %24.17g ", mpfr_get_d(x, MPFR_RNDN) + 0.0); /* -0 -> 0 */
        ck_assert_msg(strstr(out, e) != NULL, "edge %d: %s", k, e);
    }
    mpfr_clear(x);
    ck_assert_ptr_nonnull(strstr(out, "      -inf "));
    ck_assert_ptr_nonnull(strstr(out, "       inf "));
    /* scale x2 (eps 1 draws against eps 2): rejected (about 150 draws suffice) */
    sample_pieces("wide.txt", lap, 2, 1, 1, GOOD, 5002, 20000);
    ck_assert_int_eq(run("$E check --epsilon 2 --samples wide.txt l.csv"), 1);
    show("laplace scale x2");
    /* a location shift of 0.1: KS sees it */
    sample_pieces("good2.txt", lap, 2, 2, 1, GOOD, 5003, 20000);
    char path[160], line[64];
    snprintf(path, sizeof path, "%s/good2.txt", tmpdir);
    FILE *f = fopen(path, "r");
    char *shifted = malloc(20000 * 32), *q = shifted;
    while (fgets(line, sizeof line, f))
        q += sprintf(q, "%.17g\n", strtod(line, NULL) + 0.1);
    fclose(f);
    put("shift.txt", shifted);
    free(shifted);
    ck_assert_int_eq(run("$E check --epsilon 2 --samples shift.txt l.csv"), 1);
    show("laplace shifted by 0.1");
    ck_assert(after("), p-value = ") < 1e-6);
}
END_TEST

START_TEST(support_violations)
{
    /* beyond the ends */
    put("u.csv", "# output: continuous\n0,1,0\n");
    put("d.txt", "0\n1\n0.5\n1.5\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "support: VIOLATION: 1 draw(s) outside R, the first 1.5 (line 4)"));
    put("d.txt", "0\n1\n0.5\n-1e-300\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 1);
    /* in a gap between pieces */
    put("g.csv", "# output: continuous\n0,1,0\n2,3,0\n");
    put("d.txt", "0.5\n2.5\n1.5\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt g.csv"), 1);
    ck_assert_ptr_nonnull(strstr(out, "the first 1.5 (line 3)"));
    put("d.txt", "0.5\n2.5\n1\n2\n3\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt g.csv"), 4); /* in R; 5 draws: insufficient */
    ck_assert_ptr_nonnull(strstr(out, "support: ok"));
    /* NaN and infinities are draws to judge, outside R here */
    put("d.txt", "0.5\nnan\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 1);
    put("d.txt", "0.5\n-inf\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 1);
    /* a rational end: 3.01 is not a double; its rounding up 3.0100000000000002 is allowed
     * (a correct sampler may round to it), the next double is not */
    put("p.csv", pricing_csv);
    put("d.txt", "3.0100000000000002\n3.5\n0\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt p.csv"), 4); /* in R; 3 draws: insufficient */
    ck_assert_ptr_nonnull(strstr(out, "support: ok"));
    put("d.txt", "3.5000000000000004\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt p.csv"), 1);
    /* the right end of 1,3.01,0,1 / 3.01,... is no gap */
    put("d.txt", "3.0099999999999998\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt p.csv"), 4); /* in R; 1 draw: insufficient */
    ck_assert_ptr_nonnull(strstr(out, "support: ok"));
}
END_TEST

START_TEST(bad_input)
{
    put("u.csv", "# output: continuous\n0,1,0\n");
    put("d.txt", "0.5\n0.25\nabc\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "d.txt:3: bad draw 'abc'"));
    static const char *const bad[] = {"1.5e", "0x1p", "1,2", "--1", "1.2.3", "0.5 0.6", ".", "e5",
                                      "nanx", "0x", "1e+"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char s[64];
        snprintf(s, sizeof s, "0.5\n%s\n", bad[i]);
        put("d.txt", s);
        ck_assert_msg(run("$E check --epsilon 1 --samples d.txt u.csv") == 2, "'%s'", bad[i]);
        ck_assert_msg(strstr(errtxt, "d.txt:2: bad draw") != NULL, "'%s': %s", bad[i], errtxt);
    }
    /* accepted forms */
    put("d.txt", "\xEF\xBB\xBF" "0.5\r\n.25\r\n5e-1\n0x1p-2\n+0.75\n1.\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 4); /* read; 6 draws: insufficient */
    ck_assert_ptr_nonnull(strstr(out, "draws: 6;"));
    put("d.txt", "# nothing\n\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt u.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "no draws"));
    ck_assert_int_eq(run("$E check --epsilon 1 --samples missing.txt u.csv"), 2);
    /* a bad scenario: pieces overlapping */
    put("o.csv", "# output: continuous\n0,2,0\n1,3,0\n");
    put("d.txt", "0.5\n");
    ck_assert_int_eq(run("$E check --epsilon 1 --samples d.txt o.csv"), 2);
    ck_assert_ptr_nonnull(strstr(errtxt, "o.csv:"));
    /* permute-and-flip is not defined on continuous scenarios */
    ck_assert_int_eq(run("$E check --epsilon 1 --variant pf --samples d.txt u.csv"), 2);
}
END_TEST

static Suite *check_cont_suite(void)
{
    Suite *s = suite_create("check_cont");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, pricing_eps1);
    tcase_add_test(tc, pricing_eps5);
    tcase_add_test(tc, quantile_continuous);
    tcase_add_test(tc, quantile_finite_measure);
    tcase_add_test(tc, planted_bug_power);
    tcase_add_test(tc, measure_known_answer);
    tcase_add_test(tc, uniform_known_answers);
    tcase_add_test(tc, laplace_known_answers);
    tcase_add_test(tc, support_violations);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(check_cont_suite)
