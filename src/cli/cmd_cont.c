/* cmd_cont.c: the commands over weighted and continuous laws (oracle/em_cont.h):
 * `expmech cdf`, `density`, `quantile`, and the continuous / measure branches of `probs`
 * and `sample`.  Parsing and formatting only; every number comes from the oracle. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/cmd_cont.h"
#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "oracle/em_cont.h"
#include "oracle/em_rational.h"

#define GRID_MAX 10000000UL

static int fail_st(const em_cli *c, const char *what, int st)
{
    fprintf(stderr, "%s: %s%s%s\n", c->cmd, what ? what : "", what ? ": " : "", em_cont_strerror(st));
    return st == EM_ERR_UNDECIDED || st == EM_ERR_NOMEM || st == EM_ERR_RNG ? EM_EXIT_INTERNAL
                                                                            : EM_EXIT_USAGE;
}

/* ------------------------------------------------------------------ points */

typedef struct points {
    size_t n;
    mpq_t *q;
    char **text;   /* as given (--at), or NULL: print the correctly rounded point */
} points;

static void points_free(points *P)
{
    for (size_t i = 0; i < P->n; i++) {
        mpq_clear(P->q[i]);
        if (P->text)
            free(P->text[i]);
    }
    free(P->q);
    free(P->text);
    memset(P, 0, sizeof *P);
}

static int parse_q(const em_cli *c, const char *opt, const char *s, size_t len, mpq_t q)
{
    int kind;
    const char *msg = NULL;
    if (em_q_parse(s, len, 0, q, &kind, &msg) != EM_OK) {
        fprintf(stderr, "%s: %s: bad number '%.*s': %s\n", c->cmd, opt, (int)(len > 60 ? 60 : len), s,
                msg ? msg : "malformed");
        return 0;
    }
    return 1;
}

/* --at X[,X...] or --grid LO:HI:N into P; returns -1 or an exit status */
static int get_points(const em_cli *c, points *P)
{
    memset(P, 0, sizeof *P);
    if (!!(c->seen & EM_OPT_AT) == !!(c->seen & EM_OPT_GRID)) {
        fprintf(stderr, "%s: give exactly one of --at X[,X...] and --grid LO:HI:N\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    if (c->seen & EM_OPT_AT) {
        const char *s = c->at;
        size_t cnt = 1;
        for (const char *p = s; *p; p++)
            cnt += *p == ',';
        if (cnt > GRID_MAX) {
            fprintf(stderr, "%s: --at: more than %lu points\n", c->cmd, GRID_MAX);
            return EM_EXIT_USAGE;
        }
        P->q = malloc(cnt * sizeof *P->q);
        P->text = calloc(cnt, sizeof *P->text);
        if (!P->q || !P->text) {
            fprintf(stderr, "%s: out of memory\n", c->cmd);
            return EM_EXIT_INTERNAL;
        }
        const char *start = s;
        for (const char *p = s;; p++) {
            if (*p == ',' || !*p) {
                size_t len = (size_t)(p - start);
                mpq_init(P->q[P->n]);
                P->n++;
                if (len == 0) {
                    fprintf(stderr, "%s: --at: empty value in '%s'\n", c->cmd, s);
                    return EM_EXIT_USAGE;
                }
                if (!parse_q(c, "--at", start, len, P->q[P->n - 1]))
                    return EM_EXIT_USAGE;
                P->text[P->n - 1] = strndup(start, len);
                if (!P->text[P->n - 1]) {
                    fprintf(stderr, "%s: out of memory\n", c->cmd);
                    return EM_EXIT_INTERNAL;
                }
                if (!*p)
                    break;
                start = p + 1;
            }
        }
        return -1;
    }
    /* --grid LO:HI:N */
    const char *s = c->grid, *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ':')) {
        fprintf(stderr, "%s: --grid: expected LO:HI:N, found '%s'\n", c->cmd, s);
        return EM_EXIT_USAGE;
    }
    mpq_t lo, hi, step;
    mpq_inits(lo, hi, step, (mpq_ptr)0);
    uint64_t N;
    const char *msg = NULL;
    int rc = -1;
    if (!parse_q(c, "--grid", s, (size_t)(c1 - s), lo) ||
        !parse_q(c, "--grid", c1 + 1, (size_t)(c2 - c1 - 1), hi)) {
        rc = EM_EXIT_USAGE;
    } else if (em_cli_parse_u64(c2 + 1, &N, &msg) != EM_OK || N < 1 || N > GRID_MAX) {
        fprintf(stderr, "%s: --grid: N must be an integer in [1, %lu], found '%s'\n", c->cmd,
                GRID_MAX, c2 + 1);
        rc = EM_EXIT_USAGE;
    } else if (mpq_cmp(lo, hi) > 0 || (N == 1 && !mpq_equal(lo, hi) && 0)) {
        fprintf(stderr, "%s: --grid: LO > HI\n", c->cmd);
        rc = EM_EXIT_USAGE;
    } else if (N == 1 && !mpq_equal(lo, hi)) {
        fprintf(stderr, "%s: --grid: N = 1 needs LO = HI (N points include both ends)\n", c->cmd);
        rc = EM_EXIT_USAGE;
    } else {
        P->q = malloc(N * sizeof *P->q);
        if (!P->q) {
            fprintf(stderr, "%s: out of memory\n", c->cmd);
            rc = EM_EXIT_INTERNAL;
        } else {
            if (N > 1) {
                mpq_sub(step, hi, lo);
                mpz_mul_ui(mpq_denref(step), mpq_denref(step), (unsigned long)(N - 1));
                mpq_canonicalize(step);
            }
            for (uint64_t i = 0; i < N; i++) {
                mpq_init(P->q[i]);
                P->n++;
                mpq_set_ui(P->q[i], (unsigned long)i, 1);
                mpq_mul(P->q[i], P->q[i], step);
                mpq_add(P->q[i], P->q[i], lo);
            }
        }
    }
    mpq_clears(lo, hi, step, (mpq_ptr)0);
    return rc;
}

/* the point as printed: the text given, else its correct rounding (exact when short) */
static int print_point(em_cont *L, const points *P, size_t i)
{
    if (P->text) {
        fputs(P->text[i], stdout);
        return EM_OK;
    }
    char *ex = em_q_to_string(P->q[i], 20);
    if (ex && !strchr(ex, '/')) {
        fputs(ex, stdout);
        free(ex);
        return EM_OK;
    }
    free(ex);
    em_cval v;
    em_cval_init(&v);
    int st = em_cont_round_q(L, P->q[i], &v);
    if (st == EM_OK)
        fputs(v.str, stdout);
    em_cval_clear(&v);
    return st;
}

static int flush_out(const em_cli *c)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error on standard output\n", c->cmd);
        return EM_EXIT_INTERNAL;
    }
    return EM_EXIT_OK;
}

/* ------------------------------------------------------------ cdf/density/quantile */

enum { K_CDF, K_DENSITY, K_QUANTILE };

static const char help_cdf[] =
    "usage: expmech cdf --epsilon E [--sensitivity D] [--variant V] [--digits K]\n"
    "                   (--at X[,X...] | --grid LO:HI:N | --between A:B[,A:B...]) [FILE]\n"
    "\n"
    "The exact cumulative distribution function F(x) = P(X <= x) of the exponential\n"
    "mechanism over a continuous scenario (header '# output: continuous', pieces\n"
    "'lo,hi,a[,b]': utility a + b r on [lo, hi]; density proportional to exp(c u(r)),\n"
    "c = E/(2D) standard or E/D monotone).  Prints 'x,cdf' lines, F correctly rounded to K\n"
    "significant digits (default 17): exact rational inputs, MPFR interval bounds, and an\n"
    "exact comparison (exponential polynomials) when the bounds cannot decide; an exact tie\n"
    "is rounded half to even.  '0' and '1' only when exact (x left / right of R).\n"
    "x is echoed as given (--at), or the grid point LO + i (HI - LO)/(N - 1) printed\n"
    "exactly when it has at most 20 digits, else correctly rounded to K digits (the value\n"
    "is always computed at the exact grid point).\n"
    "--between A:B prints 'a,b,probability': P(A < X <= B) = F(B) - F(A), computed and\n"
    "rounded as one exact number (not as a difference of two rounded ones).\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static const char help_density[] =
    "usage: expmech density --epsilon E [--sensitivity D] [--variant V] [--digits K]\n"
    "                       (--at X[,X...] | --grid LO:HI:N) [FILE]\n"
    "\n"
    "The exact density f(x) = exp(c u(x)) / integral over R of exp(c u) of a continuous\n"
    "scenario (see expmech cdf --help), printed as 'x,density,log_density', correctly\n"
    "rounded to K digits.  Right-continuous: at a breakpoint, the value of the piece that\n"
    "starts there; 0 (log -inf) outside R, in a gap between pieces, and at the right end\n"
    "of R.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

static const char help_quantile[] =
    "usage: expmech quantile --epsilon E [--sensitivity D] [--variant V] [--digits K]\n"
    "                        (--at P[,P...] | --grid LO:HI:N) [FILE]\n"
    "\n"
    "The exact quantile function Q(p) = inf { x in R : F(x) >= p } of a continuous\n"
    "scenario (see expmech cdf --help), printed as 'p,x', x correctly rounded to K digits:\n"
    "the decimal is certified by exact comparisons of F at the rounding boundaries with p.\n"
    "Q(0) is the left end of R (-inf possible), Q(1) the right end (inf possible).\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input (p outside [0, 1]), 3 internal failure.\n";

/* cdf --between A:B[,A:B...] */
static int run_between(em_cli *c, em_scenario *sc, const mpq_t delta, int variant)
{
    if (c->seen & (EM_OPT_AT | EM_OPT_GRID)) {
        fprintf(stderr, "%s: --between goes without --at and --grid\n", c->cmd);
        return EM_EXIT_USAGE;
    }
    if (!sc->continuous) {
        fprintf(stderr, "%s: %s is a finite scenario; cdf needs a continuous one\n", c->cmd, sc->name);
        return EM_EXIT_USAGE;
    }
    em_cont *L = NULL;
    int rc = em_cli_law(c, sc, delta, variant, &L);
    if (rc >= 0)
        return rc;
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    em_cval v;
    em_cval_init(&v);
    const char *s = c->between;
    size_t idx = 0;
    while (rc < 0) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *colon = memchr(s, ':', len);
        idx++;
        if (!colon) {
            fprintf(stderr, "%s: --between: expected A:B, found '%.*s'\n", c->cmd, (int)len, s);
            rc = EM_EXIT_USAGE;
            break;
        }
        if (!parse_q(c, "--between", s, (size_t)(colon - s), a) ||
            !parse_q(c, "--between", colon + 1, len - (size_t)(colon - s) - 1, b)) {
            rc = EM_EXIT_USAGE;
            break;
        }
        if (mpq_cmp(a, b) > 0) {
            fprintf(stderr, "%s: --between: A > B in '%.*s'\n", c->cmd, (int)len, s);
            rc = EM_EXIT_USAGE;
            break;
        }
        int st = em_cont_interval_prob(L, a, b, &v);
        if (st != EM_OK) {
            char what[64];
            snprintf(what, sizeof what, "interval %zu", idx);
            rc = fail_st(c, what, st);
            break;
        }
        printf("%.*s,%.*s,%s\n", (int)(colon - s), s, (int)(len - (size_t)(colon - s) - 1), colon + 1,
               v.str);
        if (!end)
            break;
        s = end + 1;
    }
    em_cval_clear(&v);
    mpq_clears(a, b, (mpq_ptr)0);
    em_cont_free(L);
    if (rc < 0)
        rc = flush_out(c);
    return rc;
}

static int run_pointwise(int argc, char **argv, int kind)
{
    em_cli c;
    const char *name = kind == K_CDF ? "expmech cdf" : kind == K_DENSITY ? "expmech density"
                                                                          : "expmech quantile";
    em_cli_init(&c, name);
    em_scenario sc;
    em_scenario_init(&sc);
    mpq_t delta;
    mpq_init(delta);
    em_cont *L = NULL;
    points P;
    memset(&P, 0, sizeof P);
    int variant;
    const char *help = kind == K_CDF ? help_cdf : kind == K_DENSITY ? help_density : help_quantile;
    int rc = em_cli_start(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                              EM_OPT_AT | EM_OPT_GRID | EM_OPT_FILE |
                              (kind == K_CDF ? EM_OPT_BETWEEN : 0),
                          EM_OPT_EPSILON, help, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    if (c.seen & EM_OPT_BETWEEN) {
        rc = run_between(&c, &sc, delta, variant);
        goto done;
    }
    if (!sc.continuous) {
        fprintf(stderr, "%s: %s is a finite scenario; %s needs a continuous one (header "
                        "'# output: continuous')\n", c.cmd, sc.name, name + 8);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    if ((rc = get_points(&c, &P)) >= 0)
        goto done;
    if (kind == K_QUANTILE)
        for (size_t i = 0; i < P.n; i++)
            if (mpq_sgn(P.q[i]) < 0 || mpq_cmp_ui(P.q[i], 1, 1) > 0) {
                fprintf(stderr, "%s: p must lie in [0, 1] (point %zu)\n", c.cmd, i + 1);
                rc = EM_EXIT_USAGE;
                goto done;
            }
    if ((rc = em_cli_law(&c, &sc, delta, variant, &L)) >= 0)
        goto done;
    em_cval v1, v2;
    em_cval_init(&v1);
    em_cval_init(&v2);
    for (size_t i = 0; i < P.n; i++) {
        int st = kind == K_CDF       ? em_cont_cdf(L, P.q[i], &v1)
                 : kind == K_DENSITY ? em_cont_density(L, P.q[i], &v1, &v2)
                                     : em_cont_quantile(L, P.q[i], &v1);
        if (st == EM_OK)
            st = print_point(L, &P, i);
        if (st != EM_OK) {
            char what[64];
            snprintf(what, sizeof what, "point %zu", i + 1);
            rc = fail_st(&c, what, st);
            break;
        }
        if (kind == K_DENSITY)
            printf(",%s,%s\n", v1.str, v2.str);
        else
            printf(",%s\n", v1.str);
        if (ferror(stdout))
            break;
    }
    em_cval_clear(&v1);
    em_cval_clear(&v2);
    if (rc < 0)
        rc = flush_out(&c);
done:
    points_free(&P);
    em_cont_free(L);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}

int cmd_cdf(int argc, char **argv) { return run_pointwise(argc, argv, K_CDF); }
int cmd_density(int argc, char **argv) { return run_pointwise(argc, argv, K_DENSITY); }
int cmd_quantile(int argc, char **argv) { return run_pointwise(argc, argv, K_QUANTILE); }

/* ------------------------------------------------------------------- probs */

static void print_end(em_cont *L, size_t j, int hi)
{
    mpq_t lo, h;
    mpq_inits(lo, h, (mpq_ptr)0);
    int li, hinf;
    em_cont_piece(L, j, lo, h, &li, &hinf, NULL, NULL);
    if (hi ? hinf : li) {
        fputs(hi ? "inf" : "-inf", stdout);
    } else {
        char *s = em_q_to_string(hi ? h : lo, 40);
        fputs(s ? s : "?", stdout);
        free(s);
    }
    mpq_clears(lo, h, (mpq_ptr)0);
}

int em_cli_cont_probs(em_cli *c, em_scenario *sc, const mpq_t delta, int variant)
{
    em_cont *L = NULL;
    int rc = em_cli_law(c, sc, delta, variant, &L);
    if (rc >= 0)
        return rc;
    const size_t n = em_cont_size(L);
    em_cval p, lp;
    em_cval_init(&p);
    em_cval_init(&lp);
    if (c->format == EM_FMT_JSON) {
        char *es = em_q_to_string(c->eps, 60), *ds = em_q_to_string(delta, 60);
        printf("{\n  \"epsilon\": ");
        em_json_string(stdout, es ? es : "");
        printf(",\n  \"sensitivity\": ");
        em_json_string(stdout, ds ? ds : "");
        printf(",\n  \"variant\": \"%s\",\n  \"digits\": %d,\n  \"output\": \"%s\",\n  \"%s\": [\n",
               em_variant_name(variant), c->digits, sc->continuous ? "continuous" : "finite",
               sc->continuous ? "pieces" : "candidates");
        free(es);
        free(ds);
    }
    for (size_t j = 0; j < n; j++) {
        int st = em_cont_prob(L, j, &p, &lp);
        if (st != EM_OK) {
            char what[64];
            snprintf(what, sizeof what, "%s %zu", sc->continuous ? "piece" : "candidate", j + 1);
            rc = fail_st(c, what, st);
            break;
        }
        if (c->format == EM_FMT_CSV) {
            if (sc->continuous) {
                print_end(L, j, 0);
                putchar(',');
                print_end(L, j, 1);
            } else {
                em_cli_csv_label(sc->labels[j]);
            }
            printf(",%s,%s\n", p.str, lp.str);
        } else {
            printf("    {");
            if (sc->continuous) {
                printf("\"lo\": \"");
                print_end(L, j, 0);
                printf("\", \"hi\": \"");
                print_end(L, j, 1);
                printf("\"");
            } else {
                printf("\"label\": ");
                em_json_string(stdout, sc->labels[j]);
            }
            printf(", \"probability\": \"%s\", \"log_probability\": \"%s\"}%s\n", p.str, lp.str,
                   j + 1 < n ? "," : "");
        }
    }
    if (rc < 0 && c->format == EM_FMT_JSON)
        printf("  ]\n}\n");
    em_cval_clear(&p);
    em_cval_clear(&lp);
    em_cont_free(L);
    if (rc < 0)
        rc = flush_out(c) == EM_EXIT_OK ? -1 : EM_EXIT_INTERNAL;
    return rc;
}

/* ------------------------------------------------------------------ sample */

int em_cli_cont_sample(em_cli *c, em_scenario *sc, const mpq_t delta, int variant, int use_float)
{
    em_cont *L = NULL;
    int rc = em_cli_law(c, sc, delta, variant, &L);
    if (rc >= 0)
        return rc;
    em_rng rng;
    int st = (c->seen & EM_OPT_SEED) ? em_rng_init_chacha(&rng, c->seed) : em_rng_init_os(&rng);
    if (st != EM_OK) {
        fprintf(stderr, "%s: random source: %s\n", c->cmd, em_strerror(st));
        em_cont_free(L);
        return EM_EXIT_INTERNAL;
    }
    em_bits b;
    em_bits_init_rng(&b, &rng);
    for (uint64_t k = 0; k < c->n && rc < 0; k++) {
        size_t idx;
        double x = 0;
        st = use_float ? em_cont_sample_float(L, &rng, &idx, &x) : em_cont_sample(L, &b, &idx, &x);
        if (st != EM_OK) {
            char what[64];
            snprintf(what, sizeof what, "draw %llu", (unsigned long long)k + 1);
            rc = fail_st(c, what, st);
            break;
        }
        if (sc->continuous) {
            printf("%.17g\n", x);
        } else {
            em_cli_csv_label(sc->labels[idx]);
            putchar('\n');
        }
        if (ferror(stdout)) {
            rc = flush_out(c);
            break;
        }
    }
    em_cont_free(L);
    return rc;
}

/* ----------------------------------------------------------------- utility */

static const char help_utility[] =
    "usage: expmech utility --epsilon E [--sensitivity D] [--variant V] [--digits K]\n"
    "                       [--loss-at T[,T...]] [FILE]\n"
    "\n"
    "The exact utility report of the exponential mechanism over the scenario FILE (finite,\n"
    "finite with a measure column, or continuous): a header line and one row\n"
    "  epsilon,opt,expected_utility,expected_loss,sd_loss,p_best[,p_loss_gt_T...]\n"
    "opt = max u over the outputs of positive probability (continuous: the largest u at a\n"
    "finite end of a piece); expected_loss = opt - E[u]; sd_loss its standard deviation;\n"
    "p_best = P(u(out) = opt) (0 for a continuous law unless a constant piece sits at opt);\n"
    "p_loss_gt_T = P(opt - u(out) > T).  All exact (closed-form integrals: sums of q exp(t)\n"
    "with rational q, t) and correctly rounded to K digits like every oracle output.\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

int cmd_utility(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech utility");
    em_scenario sc;
    em_scenario_init(&sc);
    mpq_t delta;
    mpq_init(delta);
    em_cont *L = NULL;
    int variant;
    em_cval eu, loss, opt;
    em_cval_init(&eu);
    em_cval_init(&loss);
    em_cval_init(&opt);
    em_cval sd, pb, tail;
    em_cval_init(&sd);
    em_cval_init(&pb);
    em_cval_init(&tail);
    points T;
    memset(&T, 0, sizeof T);
    int rc = em_cli_start(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                              EM_OPT_AT | EM_OPT_FILE,
                          EM_OPT_EPSILON, help_utility, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    if ((c.seen & EM_OPT_AT) && (rc = get_points(&c, &T)) >= 0)
        goto done;
    for (size_t i = 0; i < T.n; i++)
        if (mpq_sgn(T.q[i]) < 0) {
            fprintf(stderr, "%s: --loss-at: a loss threshold must be >= 0 ('%s')\n", c.cmd, T.text[i]);
            rc = EM_EXIT_USAGE;
            goto done;
        }
    if ((rc = em_cli_law(&c, &sc, delta, variant, &L)) >= 0)
        goto done;
    int st = em_cont_utility(L, &eu, &loss, &opt);
    if (st == EM_OK)
        st = em_cont_sd(L, &sd);
    if (st == EM_OK)
        st = em_cont_p_best(L, &pb);
    if (st != EM_OK) {
        rc = fail_st(&c, NULL, st);
        goto done;
    }
    printf("epsilon,opt,expected_utility,expected_loss,sd_loss,p_best");
    for (size_t i = 0; i < T.n; i++)
        printf(",p_loss_gt_%s", T.text[i]);
    char *es = em_q_to_string(c.eps, 40);
    printf("\n%s,%s,%s,%s,%s,%s", es ? es : "?", opt.str, eu.str, loss.str, sd.str, pb.str);
    free(es);
    for (size_t i = 0; i < T.n && rc < 0; i++) {
        st = em_cont_loss_tail(L, T.q[i], &tail);
        if (st != EM_OK) {
            rc = fail_st(&c, "--loss-at", st);
            break;
        }
        printf(",%s", tail.str);
    }
    if (rc < 0) {
        printf("\n");
        rc = flush_out(&c);
    }
done:
    points_free(&T);
    em_cval_clear(&sd);
    em_cval_clear(&pb);
    em_cval_clear(&tail);
    em_cval_clear(&eu);
    em_cval_clear(&loss);
    em_cval_clear(&opt);
    em_cont_free(L);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}
