/* cmd_compare.c: `expmech compare`: another implementation's probabilities vs the exact ones. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mpfr.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "io/em_label.h"
#include "io/em_probsfile.h"
#include "judge/em_cdfcmp.h"
#include "oracle/em_cont.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "oracle/em_rational.h"

static const char help[] =
    "usage: expmech compare --epsilon E [--sensitivity D] [--variant V] --probs PROBS\n"
    "                       [--rtol R] [--atol A] [FILE]\n"
    "       expmech compare --epsilon E [--sensitivity D] [--variant V] --cdf TABLE\n"
    "                       [--rtol R] [--atol A] [FILE]\n"
    "\n"
    "Compares another implementation's probability vector with the exact one of the\n"
    "scenario FILE.  PROBS ('-' for standard input) has one number per line in the\n"
    "scenario's order, or 'label,probability' lines in any order, or `expmech probs`' own\n"
    "output: its CSV 'label,probability,log_probability' or its JSON (--format json; an\n"
    "object with a \"candidates\" array of {\"label\", \"probability\"}); numbers are read\n"
    "exactly (decimal, 0x hex float), and nan, inf, -inf are accepted as values to judge.\n"
    "Reports the largest absolute and relative errors, the largest error in ulps of\n"
    "double (ulp at the exact value, subnormals included), zeros given where the exact\n"
    "probability is positive (underflow; those a double could have represented are\n"
    "counted apart), NaNs, infinities, negative values and values above 1, and the sum.\n"
    "\n"
    "  --epsilon E, --sensitivity D, --variant V   as for `expmech probs`; --variant pf\n"
    "                     judges against permute-and-flip's exact pmf (at most 4096\n"
    "                     candidates)\n"
    "  --probs PROBS      the probabilities to judge (required)\n"
    "  --rtol R           a value fails when |given - exact| > max(R * exact, A)\n"
    "                     (default 1e-9)\n"
    "  --atol A           the absolute floor of that tolerance (default 2^-1074, the\n"
    "                     smallest subnormal double)\n"
    "\n"
    "A scenario with a measure column is judged against P(r) ~ m_r exp(c u_r) (the\n"
    "weighted oracle, 40 digits).  A continuous scenario takes --cdf TABLE instead of\n"
    "--probs: lines 'x,cdf' (x exact: decimal, hex float or a/b; cdf a number, or nan /\n"
    "inf as values to judge), each value compared with the exact F(x) = P(X <= x) (MPFR,\n"
    "256 bits): the largest absolute error and where, the largest relative error, the\n"
    "largest error relative to the upper tail 1 - F, values outside [0, 1], NaN and\n"
    "infinities, and the points where the given values decrease while x increases.  A\n"
    "value fails when |given - F(x)| > max(R * F(x), A), or is NaN, infinite or outside\n"
    "[0, 1].\n"
    "\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 every value within tolerance, 1 otherwise (any NaN, infinity,\n"
    "negative value or value above 1 fails), 2 bad input, 3 internal failure.\n";

static long find_label(const void *ctx, const char *label, size_t len)
{
    return em_scenario_find((const em_scenario *)ctx, label, len);
}

/* the probabilities to judge: the shared reader (io/em_probsfile.h), which also takes
 * `expmech probs`' own CSV and JSON */
static int read_given(const char *cmd, const char *name, const char *buf, size_t len,
                      const em_scenario *sc, em_pvalue *gv)
{
    char err[EM_SCENARIO_ERRLEN];
    int st = em_probs_file_parse(buf, len, name, sc->n, find_label, sc, gv, err, sizeof err);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", cmd, st == EM_ERR_NOMEM ? "out of memory" : err);
        return st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
    }
    return -1;
}

/* `compare --cdf` on a continuous scenario */
static int compare_cdf(em_cli *c, em_scenario *sc, const mpq_t delta, int variant)
{
    em_cont *C = NULL;
    em_cdf_table T;
    em_cdf_table_init(&T);
    char *buf = NULL;
    int rc = em_cli_law(c, sc, delta, variant, &C);
    if (rc >= 0)
        goto done;
    const char *name;
    size_t len;
    rc = em_cli_read_input(c, c->cdf, (size_t)4 << 30, &name, &buf, &len);
    if (rc >= 0)
        goto done;
    char err[EM_SCENARIO_ERRLEN];
    int st = em_cdf_table_parse(&T, buf, len, name, err, sizeof err);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c->cmd, err);
        rc = st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
        goto done;
    }
    if (T.n == 0) {
        fprintf(stderr, "%s: %s: no points\n", c->cmd, name);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    em_cdfcmp_result r;
    st = em_cdf_compare(C, &T, c->rtol, c->atol, &r);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c->cmd, em_cont_strerror(st));
        rc = st == EM_ERR_UNDECIDED || st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
        goto done;
    }
    for (size_t k = 0; k < r.nshow; k++) {
        size_t i = r.show[k];
        char *xs = em_q_to_string(T.x[i], 17);
        printf("FAIL line %lu: x = %s: given ", T.line[i], xs ? xs : "?");
        if (T.kind[i] == EM_CDFV_NAN)
            printf("nan");
        else if (T.kind[i] != EM_CDFV_NUM)
            printf("%sinf", T.kind[i] == EM_CDFV_NINF ? "-" : "");
        else
            printf("%.17g", em_q_get_d(T.g[i], NULL));
        printf(", exact %.17g\n", r.F_show[k]);
        free(xs);
    }
    char *xa = em_q_to_string(T.x[r.i_abs], 17), *xr = em_q_to_string(T.x[r.i_rel], 17),
         *xt = em_q_to_string(T.x[r.i_tail], 17);
    printf("points: %zu\n", r.n);
    printf("max absolute error: %.6g at x = %s (line %lu)\n", r.max_abs, xa ? xa : "?",
           T.line[r.i_abs]);
    printf("max relative error: %.6g at x = %s (line %lu)\n", r.max_rel, xr ? xr : "?",
           T.line[r.i_rel]);
    printf("max error relative to the upper tail 1 - F: %.6g at x = %s (line %lu)\n", r.max_tail,
           xt ? xt : "?", T.line[r.i_tail]);
    free(xa);
    free(xr);
    free(xt);
    printf("NaN: %zu, infinite: %zu, negative: %zu, above 1: %zu\n", r.nnan, r.ninf, r.nneg,
           r.nbig);
    printf("decreasing (x up, given value down): %zu pair(s)\n", r.ndecrease);
    char floor_s[32] = "2^-1074";
    if (c->atol != 0x1p-1074)
        snprintf(floor_s, sizeof floor_s, "%g", c->atol);
    if (r.reject) {
        printf("verdict: FAIL: %zu of %zu values outside tolerance (rtol %g, floor %s) or invalid\n",
               r.nfail, r.n, c->rtol, floor_s);
        rc = EM_EXIT_REJECT;
    } else {
        printf("verdict: PASS: every value within max(%g * F(x), %s)\n", c->rtol, floor_s);
        rc = EM_EXIT_OK;
    }
    fflush(stdout);
done:
    em_cdf_table_free(&T);
    em_cont_free(C);
    free(buf);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech compare");
    em_scenario sc;
    em_scenario_init(&sc);
    mpq_t delta;
    mpq_init(delta);
    em_pvalue *gv = NULL;
    char *buf = NULL;
    em_oracle *o = NULL;
    char **pfdec = NULL;
    unsigned *mflags = NULL;
    int variant;
    int rc = em_cli_parse(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_PROBS |
                              EM_OPT_CDF | EM_OPT_RTOL | EM_OPT_ATOL | EM_OPT_FILE,
                          help);
    if (rc < 0)
        rc = em_cli_require(&c, EM_OPT_EPSILON);
    if (rc < 0 && !(c.seen & EM_OPT_PROBS) == !(c.seen & EM_OPT_CDF)) {
        fprintf(stderr, "%s: give exactly one of --probs PROBS and --cdf TABLE (see --help)\n",
                c.cmd);
        rc = EM_EXIT_USAGE;
    }
    if (rc < 0) {
        const char *in2 = c.probs ? c.probs : c.cdf;
        if (!strcmp(in2, "-") && (!c.file || !strcmp(c.file, "-"))) {
            fprintf(stderr, "%s: the scenario and the %s cannot both come from standard input\n",
                    c.cmd, c.probs ? "probabilities" : "CDF table");
            rc = EM_EXIT_USAGE;
        }
    }
    if (rc < 0)
        rc = em_cli_scenario(&c, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    if (sc.continuous != !!c.cdf) {
        fprintf(stderr, "%s: %s\n", c.cmd,
                sc.continuous ? "a continuous scenario is compared with --cdf TABLE, not --probs"
                              : "--cdf needs a continuous scenario ('# output: continuous')");
        rc = EM_EXIT_USAGE;
        goto done;
    }
    if (sc.continuous) {
        rc = compare_cdf(&c, &sc, delta, variant);
        goto done;
    }
    gv = calloc(sc.n, sizeof *gv);
    if (!gv) {
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    for (size_t i = 0; i < sc.n; i++)
        mpq_init(gv[i].q);
    {
        const char *pname;
        size_t len;
        rc = em_cli_read_input(&c, c.probs, (size_t)4 << 30, &pname, &buf, &len);
        if (rc >= 0)
            goto done;
        rc = read_given(c.cmd, pname, buf, len, &sc, gv);
        if (rc >= 0)
            goto done;
    }
    /* the exact values to 40 digits: the oracle, or permute-and-flip's pmf (em_pf_pmf) */
    const int pf = variant == EM_CLI_VARIANT_PF;
    size_t m = 0;
    for (size_t i = 0; i < sc.n; i++)
        m += !sc.excluded[i];
    if (pf && sc.n > EM_PF_PMF_MAX_N) {
        fprintf(stderr, "%s: --variant pf: %s has %zu candidates; the exact permute-and-flip pmf "
                        "is limited to %d\n",
                c.cmd, sc.name, sc.n, EM_PF_PMF_MAX_N);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    int st;
    if (sc.has_measure) { /* the weighted oracle's 40-digit decimals */
        em_cont *law = NULL;
        c.digits = 40;
        rc = em_cli_law(&c, &sc, delta, variant, &law);
        if (rc >= 0)
            goto done;
        pfdec = calloc(sc.n, sizeof *pfdec);
        mflags = calloc(sc.n, sizeof *mflags);
        st = pfdec && mflags ? EM_OK : EM_ERR_NOMEM;
        for (size_t i = 0; i < sc.n && st == EM_OK; i++) {
            em_cval v, lv;
            em_cval_init(&v);
            em_cval_init(&lv);
            st = em_cont_prob(law, i, &v, &lv);
            if (st == EM_OK) {
                pfdec[i] = v.str;
                v.str = NULL;
                mflags[i] = v.flags;
            }
            em_cval_clear(&v);
            em_cval_clear(&lv);
        }
        em_cont_free(law);
        if (st != EM_OK) {
            fprintf(stderr, "%s: %s\n", c.cmd, em_cont_strerror(st));
            rc = st == EM_ERR_UNDECIDED || st == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
            goto done;
        }
    } else if (pf) {
        pfdec = calloc(sc.n, sizeof *pfdec);
        st = pfdec ? em_pf_pmf(sc.n, sc.u, sc.excluded, c.eps, delta, EM_STANDARD, NULL, 40, pfdec)
                   : EM_ERR_NOMEM;
    } else {
        st = em_oracle_new(sc.n, sc.u, sc.excluded, c.eps, delta, variant, 40, &o);
    }
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s%s\n", c.cmd, pf ? "--variant pf: " : "", em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }

    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_t P, Q, err, rel, ulp, tol, maxabs, maxrel, maxulp, sum, tiny;
    mpfr_inits2(256, P, Q, err, rel, ulp, tol, maxabs, maxrel, maxulp, sum, tiny, (mpfr_ptr)0);
    mpfr_set_ui(maxabs, 0, MPFR_RNDN);
    mpfr_set_ui(maxrel, 0, MPFR_RNDN);
    mpfr_set_ui(maxulp, 0, MPFR_RNDN);
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(tiny, 1, -1074, MPFR_RNDN);
    size_t iabs = 0, irel = 0, iulp = 0, nnan = 0, ninf = 0, nneg = 0, nbig = 0;
    size_t nzero = 0, nzero_repr = 0, nfail = 0, shown = 0;
    int relinf = 0;
    for (size_t i = 0; i < sc.n; i++) {
        em_oracle_cand r;
        if (mflags) {
            /* em_cont_prob: "0" / "1" only when exact; a value below 1 that rounds to 1 */
            memset(&r, 0, sizeof r);
            r.prob = pfdec[i];
            int exact = (mflags[i] & EM_CV_EXACT) != 0;
            if (exact && !strcmp(pfdec[i], "0"))
                r.flags = EM_OF_ZERO;
            else if (exact && !strcmp(pfdec[i], "1"))
                r.flags = EM_OF_ONE;
            else if (pfdec[i][0] == '1' && strspn(pfdec[i] + 1, ".0") == strlen(pfdec[i] + 1))
                r.flags = EM_OF_NEAR_ONE;
            st = EM_OK;
        } else if (pf) {
            /* em_pf_pmf: "0" only when excluded; a value below 1 may round to 1 at 40 digits */
            memset(&r, 0, sizeof r);
            r.prob = pfdec[i];
            if (sc.excluded[i])
                r.flags = EM_OF_ZERO;
            else if (m == 1)
                r.flags = EM_OF_ONE;
            else if (pfdec[i][0] == '1' && strspn(pfdec[i] + 1, ".0") == strlen(pfdec[i] + 1))
                r.flags = EM_OF_NEAR_ONE;
            st = EM_OK;
        } else {
            st = em_oracle_get(o, i, &r);
        }
        if (st != EM_OK) {
            fprintf(stderr, "%s: %s\n", c.cmd, em_strerror(st));
            rc = em_cli_status_exit(st);
            break;
        }
        int below_range = (r.flags & EM_OF_FROM_LOG) != 0;
        if (below_range)
            mpfr_set_ui(P, 0, MPFR_RNDN); /* positive, but below 2^(-2^62): treated as 0+ */
        else if (r.flags & EM_OF_NEAR_ONE)
            mpfr_set_ui(P, 1, MPFR_RNDN), mpfr_nextbelow(P); /* 1 - (far below 2^-256) */
        else
            mpfr_strtofr(P, r.prob, NULL, 10, MPFR_RNDN);
        const int pos = !(r.flags & EM_OF_ZERO);
        int fail = 0;
        const char *why = NULL;
        if (gv[i].kind == EM_PV_NAN) {
            nnan++; fail = 1; why = "NaN";
        } else if (gv[i].kind != EM_PV_NUM) {
            ninf++; fail = 1; why = "infinite";
        } else {
            mpfr_set_q(Q, gv[i].q, MPFR_RNDN);
            mpfr_add(sum, sum, Q, MPFR_RNDN);
            if (mpfr_sgn(Q) < 0) { nneg++; fail = 1; why = "negative"; }
            if (mpfr_cmp_ui(Q, 1) > 0) { nbig++; fail = 1; why = "above 1"; }
            if (mpfr_zero_p(Q) && pos) {
                nzero++;
                /* could a double hold it?  RN-double(P) > 0 iff P > 2^-1075 */
                if (!below_range && mpfr_cmp_ui_2exp(P, 1, -1075) > 0)
                    nzero_repr++;
            }
            mpfr_sub(err, Q, P, MPFR_RNDN);
            mpfr_abs(err, err, MPFR_RNDN);
            if (mpfr_cmp(err, maxabs) > 0) { mpfr_set(maxabs, err, MPFR_RNDN); iabs = i; }
            if (mpfr_zero_p(P)) {
                if (!mpfr_zero_p(err) && !relinf) { relinf = 1; irel = i; }
                if (!pos && !mpfr_zero_p(err)) { fail = 1; why = "positive where the exact probability is 0"; }
            } else {
                mpfr_div(rel, err, P, MPFR_RNDN);
                if (!relinf && mpfr_cmp(rel, maxrel) > 0) { mpfr_set(maxrel, rel, MPFR_RNDN); irel = i; }
            }
            /* ulp of double at P: 2^(max(exp(P) - 53, -1074)) */
            long e = mpfr_zero_p(P) ? -2000 : (long)mpfr_get_exp(P);
            long ue = e - 53 < -1074 ? -1074 : e - 53;
            mpfr_set_ui_2exp(ulp, 1, ue, MPFR_RNDN);
            mpfr_div(rel, err, ulp, MPFR_RNDN);
            if (mpfr_cmp(rel, maxulp) > 0) { mpfr_set(maxulp, rel, MPFR_RNDN); iulp = i; }
            /* tolerance */
            mpfr_mul_d(tol, P, c.rtol, MPFR_RNDN);
            mpfr_set_d(tiny, c.atol, MPFR_RNDN); /* the floor: --atol, default 2^-1074 */
            if (mpfr_cmp(tol, tiny) < 0)
                mpfr_set(tol, tiny, MPFR_RNDN);
            if (!fail && mpfr_cmp(err, tol) > 0) { fail = 1; why = "error above tolerance"; }
        }
        if (fail) {
            nfail++;
            if (shown < 10) {
                char *gs = gv[i].kind == EM_PV_NAN ? strdup("nan") : gv[i].kind == EM_PV_PINF ? strdup("inf")
                           : gv[i].kind == EM_PV_NINF ? strdup("-inf") : em_q_to_string(gv[i].q, 25);
                if (gs && strlen(gs) > 40)
                    mpfr_sprintf(gs, "%.17Rg", Q); /* long exact decimals: show 17 digits */
                printf("FAIL ");
                em_label_human(stdout, sc.labels[i]);
                printf(": given %s, exact %s (%s)\n", gs ? gs : "?", r.prob, why);
                free(gs);
                shown++;
            }
        }
    }
    if (rc < 0 || rc == EM_EXIT_OK) {
        printf("candidates: %zu\n", sc.n);
        mpfr_printf("max absolute error: %.6Rg at ", maxabs);
        em_label_human(stdout, sc.labels[iabs]);
        if (relinf) {
            printf("\nmax relative error: infinite at ");
        } else {
            mpfr_printf("\nmax relative error: %.6Rg at ", maxrel);
        }
        em_label_human(stdout, sc.labels[irel]);
        mpfr_printf("\nmax error in ulps of double: %.6Rg at ", maxulp);
        em_label_human(stdout, sc.labels[iulp]);
        printf("\nzeros where the exact probability is positive (underflow): %zu", nzero);
        if (nzero)
            printf(" (%zu of them representable as a double, %zu below 2^-1075)", nzero_repr, nzero - nzero_repr);
        printf("\nNaN: %zu, infinite: %zu, negative: %zu, above 1: %zu\n", nnan, ninf, nneg, nbig);
        mpfr_sub_ui(sum, sum, 1, MPFR_RNDN);
        mpfr_printf("sum of the finite values - 1: %.6Rg\n", sum);
        char floor_s[32] = "2^-1074";
        if (c.atol != 0x1p-1074)
            snprintf(floor_s, sizeof floor_s, "%g", c.atol);
        if (nfail) {
            printf("verdict: FAIL: %zu of %zu values outside tolerance (rtol %g, floor %s) or invalid\n",
                   nfail, sc.n, c.rtol, floor_s);
            rc = EM_EXIT_REJECT;
        } else {
            printf("verdict: PASS: every value within max(%g * exact, %s)\n", c.rtol, floor_s);
            rc = EM_EXIT_OK;
        }
    }
    mpfr_clears(P, Q, err, rel, ulp, tol, maxabs, maxrel, maxulp, sum, tiny, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    fflush(stdout);
done:
    em_oracle_free(o);
    if (pfdec) {
        for (size_t i = 0; i < sc.n; i++)
            free(pfdec[i]);
        free(pfdec);
    }
    free(mflags);
    if (gv) {
        for (size_t i = 0; i < sc.n; i++)
            mpq_clear(gv[i].q);
        free(gv);
    }
    free(buf);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}
