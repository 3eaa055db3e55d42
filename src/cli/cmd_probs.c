/* cmd_probs.c: `expmech probs`: exact, correctly rounded probabilities. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "cli/cli_util.h"
#include "cli/cmd_cont.h"
#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "oracle/em_rational.h"

static const char help[] =
    "usage: expmech probs --epsilon E [--sensitivity D] [--variant V] [--digits K]\n"
    "                     [--format csv|json] [FILE]\n"
    "\n"
    "Exact probabilities of the exponential mechanism over the scenario FILE (lines\n"
    "'label,utility'; '-' or no FILE: standard input): P(r) = exp(c u(r)) / sum exp(c u),\n"
    "c = E/(2D) (standard) or E/D (monotone).  Inputs are read as exact rationals\n"
    "(decimals, 0x hex floats, a/b fractions, -inf to exclude a candidate); every output is\n"
    "correctly rounded (round-to-nearest) to K significant digits (default 17), computed\n"
    "with MPFR interval bounds at rising precision until both bounds round alike.\n"
    "\n"
    "  --epsilon E        privacy parameter, exact, > 0 (required)\n"
    "  --sensitivity D    sensitivity of the utility, > 0 (default: the file's\n"
    "                     '# sensitivity:' header, else 1)\n"
    "  --variant V        standard (default, also under '# monotone: yes'),\n"
    "                     monotone (needs that header), or pf: permute-and-flip (McKenna & Sheldon 2020;\n"
    "                     acceptance exp(E (u - u*) / (2 D)); its exact pmf\n"
    "                     P(r) = p_r integral_0^1 prod_{j!=r} (1 - p_j x) dx, in MPFR\n"
    "                     interval arithmetic, at most 4096 candidates;\n"
    "                     spec/PermuteAndFlip.md)\n"
    "  --digits K         significant digits, 1..1000 (default 17)\n"
    "  --format F         csv (default): 'label,probability,log_probability' per line;\n"
    "                     json: parameters and one object per candidate (numbers as strings)\n"
    "\n"
    "Conventions: 0 and 1 (log: -inf and 0) only when exact: an excluded candidate, or\n"
    "the only candidate left.  A probability below 1 whose rounding would be 1 prints as\n"
    "K nines (0.999...9); its log-probability gives the exact distance (e.g. -6.1e-933).\n"
    "Probabilities far below double's range print exactly (e.g. 9.9e-3248); those below\n"
    "MPFR's exponent range are computed from their logarithms (a note says so).\n"
    "With --variant pf, both columns are correctly rounded from the pmf's interval bounds\n"
    "(the log of both ends, rounded outwards); a log-probability that cannot be decided\n"
    "within 2^20 bits prints as nan, with a note (never an unproven number).\n"
    "Scale: at most 33554432 (2^25) candidates; past that the command stops while\n"
    "reading, exit status 2, with a message naming the limit.  EXPMECH_MAX_CANDIDATES=N\n"
    "(environment, 1 to 2^30) sets another.  Memory: about 55 bytes per candidate, 85\n"
    "with decimals of more than 18 digits (10^7 candidates: 0.55 to 0.87 GB).\n"
    EM_CLI_HELP_PARAMS
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

/* ---------------------------------------------------------- permute-and-flip */

/* "1", "1.", "1.000..." (and no exponent): the K-digit rounding is exactly 1 */
static int dec_is_one(const char *s)
{
    if (s[0] != '1')
        return 0;
    const char *p = s + 1;
    if (*p == '.')
        p++;
    while (*p == '0')
        p++;
    return *p == 0;
}

#define PF_MAX_PREC (1L << 20) /* em_pf_pmf's limit */

/* The log-probabilities of permute-and-flip, correctly rounded to K digits: Ziv's loop on
 * em_pf_pmf_bounds; log of both ends with outward rounding, decided when both round to
 * the same K-digit decimal (then so does the exact value between them).  lstr[i] stays
 * NULL where undecided at PF_MAX_PREC (or below MPFR's range); the caller prints nan.
 * m1: the only candidate not excluded (log 0).  Returns EM_OK or an em_status. */
static int pf_logs(const em_scenario *sc, const mpq_t eps, const mpq_t delta, int K, int m1,
                   char **lstr)
{
    const size_t n = sc->n;
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        lstr[i] = NULL;
        if (sc->excluded[i])
            lstr[i] = strdup("-inf");
        else if (m1)
            lstr[i] = strdup("0");
        else {
            left++;
            continue;
        }
        if (!lstr[i])
            return EM_ERR_NOMEM;
    }
    if (left == 0)
        return EM_OK;
    mpfr_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    if (!lo || !hi) {
        free(lo);
        free(hi);
        return EM_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        mpfr_inits2(64, lo[i], hi[i], (mpfr_ptr)0);
    mpfr_t llo, lhi;
    mpfr_inits2(64, llo, lhi, (mpfr_ptr)0);
    mpz_t ez;
    mpz_init(ez);
    int st = EM_OK;
    for (mpfr_prec_t prec = 128 + (mpfr_prec_t)(K * 3.33) + 64; left > 0 && prec <= PF_MAX_PREC;
         prec *= 2) {
        for (size_t i = 0; i < n; i++) {
            mpfr_set_prec(lo[i], prec);
            mpfr_set_prec(hi[i], prec);
        }
        mpfr_set_prec(llo, prec);
        mpfr_set_prec(lhi, prec);
        st = em_pf_pmf_bounds(sc->n, sc->u, sc->excluded, eps, delta, EM_STANDARD, prec, lo, hi);
        if (st != EM_OK)
            break;
        for (size_t i = 0; i < n && st == EM_OK; i++) {
            if (lstr[i] || mpfr_sgn(lo[i]) <= 0)
                continue;
            if (mpfr_cmp_d(lo[i], 0.5) > 0) {
                /* P > 1/2: log P = log1p(-(sum of the others)), the pmf summing to 1
                 * exactly; the others' bounds are tight relatively, so log P = -1e-9e7
                 * is decided where log of P's own interval never could be */
                mpfr_set_zero(llo, 1);
                mpfr_set_zero(lhi, 1);
                for (size_t j = 0; j < n; j++)
                    if (j != i && !sc->excluded[j]) {
                        mpfr_add(llo, llo, lo[j], MPFR_RNDD);
                        mpfr_add(lhi, lhi, hi[j], MPFR_RNDU);
                    }
                if (mpfr_cmp_ui(lhi, 1) >= 0)
                    continue;
                mpfr_neg(lhi, lhi, MPFR_RNDD);
                mpfr_log1p(lhi, lhi, MPFR_RNDD); /* lower bound of log P */
                mpfr_neg(llo, llo, MPFR_RNDU);
                mpfr_log1p(llo, llo, MPFR_RNDU); /* upper bound */
                mpfr_swap(llo, lhi);
            } else {
                mpfr_log(llo, lo[i], MPFR_RNDD);
                mpfr_log(lhi, hi[i], MPFR_RNDU);
            }
            if (mpfr_sgn(lhi) >= 0) /* P < 1 here: hi must come below 1 first */
                continue;
            mpfr_exp_t e1, e2;
            char *d1 = mpfr_get_str(NULL, &e1, 10, (size_t)K, llo, MPFR_RNDN);
            char *d2 = mpfr_get_str(NULL, &e2, 10, (size_t)K, lhi, MPFR_RNDN);
            if (!d1 || !d2) {
                st = EM_ERR_NOMEM;
            } else if (e1 == e2 && !strcmp(d1, d2)) {
                /* both negative: d1 = "-ddd" */
                mpz_set_si(ez, (long)e1);
                lstr[i] = em_format_decimal(1, d1 + 1, ez);
                if (!lstr[i])
                    st = EM_ERR_NOMEM;
                left--;
            }
            if (d1)
                mpfr_free_str(d1);
            if (d2)
                mpfr_free_str(d2);
        }
    }
    mpz_clear(ez);
    mpfr_clears(llo, lhi, (mpfr_ptr)0);
    for (size_t i = 0; i < n; i++)
        mpfr_clears(lo[i], hi[i], (mpfr_ptr)0);
    free(lo);
    free(hi);
    return st;
}

/* probs --variant pf: em_pf_pmf (correctly rounded K-digit decimals) and pf_logs */
static int probs_pf(em_cli *c, em_scenario *sc, mpq_t delta)
{
    const size_t n = sc->n;
    if (n > EM_PF_PMF_MAX_N) {
        fprintf(stderr, "%s: --variant pf: %s has %zu candidates; the exact permute-and-flip pmf "
                        "is limited to %d (O(n^2) interval operations)\n",
                c->cmd, sc->name, n, EM_PF_PMF_MAX_N);
        return EM_EXIT_USAGE;
    }
    if (em_scenario_expand(sc) != EM_OK) { /* em_pf takes rationals; n <= 4096 here */
        fprintf(stderr, "%s: out of memory\n", c->cmd);
        return EM_EXIT_INTERNAL;
    }
    int rc = EM_EXIT_INTERNAL;
    char **dec = calloc(n, sizeof *dec), **lstr = calloc(n, sizeof *lstr);
    char *nines = malloc((size_t)c->digits + 3);
    if (!dec || !lstr || !nines) {
        fprintf(stderr, "%s: out of memory\n", c->cmd);
        goto out;
    }
    nines[0] = '0';
    nines[1] = '.';
    memset(nines + 2, '9', (size_t)c->digits);
    nines[c->digits + 2] = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!sc->excluded[i])
            m++;
    int st = em_pf_pmf(n, sc->u, sc->excluded, c->eps, delta, EM_STANDARD, NULL, c->digits, dec);
    if (st == EM_OK)
        st = pf_logs(sc, c->eps, delta, c->digits, m == 1, lstr);
    if (st != EM_OK) {
        if (st == EM_ERR_UNDECIDED)
            fprintf(stderr, "%s: --variant pf: not computed: a probability lies below MPFR's "
                            "exponent range (about 10^-1.4e18) or needs more than 2^20 bits, and "
                            "the permute-and-flip pmf has no logarithmic fallback\n", c->cmd);
        else
            fprintf(stderr, "%s: --variant pf: %s\n", c->cmd, em_strerror(st));
        rc = em_cli_status_exit(st);
        goto out;
    }
    size_t near_one = 0, nolog = 0;
    if (c->format == EM_FMT_JSON) {
        char *es = em_q_to_string(c->eps, 60), *ds = em_q_to_string(delta, 60);
        printf("{\n  \"epsilon\": ");
        em_json_string(stdout, es ? es : "");
        printf(",\n  \"sensitivity\": ");
        em_json_string(stdout, ds ? ds : "");
        printf(",\n  \"variant\": \"pf\",\n  \"digits\": %d,\n  \"candidates\": [\n", c->digits);
        free(es);
        free(ds);
    }
    for (size_t i = 0; i < n; i++) {
        /* exactly 1 only for the only candidate; below 1 but rounding to 1: K nines */
        int n1 = m > 1 && dec_is_one(dec[i]);
        const char *ps = n1 ? nines : dec[i];
        const char *ls = lstr[i] ? lstr[i] : "nan";
        near_one += n1;
        nolog += !lstr[i];
        if (c->format == EM_FMT_CSV) {
            em_cli_csv_label(sc->labels[i]);
            printf(",%s,%s\n", ps, ls);
        } else {
            char *us = sc->excluded[i] ? NULL : em_q_to_string(sc->u[i], 60);
            printf("    {\"label\": ");
            em_json_string(stdout, sc->labels[i]);
            printf(", \"utility\": ");
            em_json_string(stdout, us ? us : "-inf");
            printf(", \"probability\": \"%s\", \"log_probability\": \"%s\"", ps, ls);
            if (n1)
                printf(", \"note\": \"below 1 but rounds to 1: printed as the largest %d-digit decimal below 1\"", c->digits);
            if (!lstr[i])
                printf(", \"note\": \"log-probability not decided within 2^20 bits: not computed\"");
            printf("}%s\n", i + 1 < n ? "," : "");
            free(us);
        }
    }
    if (c->format == EM_FMT_JSON)
        printf("  ]\n}\n");
    if (near_one)
        fprintf(stderr, "%s: note: %zu probability below 1 rounds to 1 at %d digits; printed as "
                        "0.99...9, the largest %d-digit decimal below 1 (see its log-probability)\n",
                c->cmd, near_one, c->digits, c->digits);
    if (nolog)
        fprintf(stderr, "%s: note: %zu log-probability(ies) could not be decided within 2^20 bits "
                        "(or lie below MPFR's exponent range); printed as nan, not computed\n",
                c->cmd, nolog);
    rc = -1;
out:
    for (size_t i = 0; i < n; i++) {
        if (dec)
            free(dec[i]);
        if (lstr)
            free(lstr[i]);
    }
    free(dec);
    free(lstr);
    free(nines);
    return rc;
}

int cmd_probs(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech probs");
    em_scenario sc;
    em_scenario_init(&sc);
    sc.compact = 1; /* 10 bytes per utility, not an mpq's 100: 10^7 candidates in < 1 GB */
    mpq_t delta, uq;
    mpq_inits(delta, uq, (mpq_ptr)0);
    em_oracle *o = NULL;
    int variant;
    int rc = em_cli_start(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                              EM_OPT_FORMAT | EM_OPT_FILE,
                          EM_OPT_EPSILON, help, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    if (sc.continuous || sc.has_measure) {
        rc = em_cli_cont_probs(&c, &sc, delta, variant);
        if (rc >= 0)
            goto done;
        goto flush;
    }
    if (variant == EM_CLI_VARIANT_PF) {
        rc = probs_pf(&c, &sc, delta);
        if (rc >= 0)
            goto done;
        goto flush;
    }
    em_usrc src = {em_scenario_usrc_get, &sc};
    int st = em_oracle_new_src(sc.n, &src, sc.excluded, c.eps, delta, variant, c.digits, &o);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c.cmd, em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }
    size_t near_one = 0, from_log = 0;
    if (c.format == EM_FMT_JSON) {
        char *es = em_q_to_string(c.eps, 60), *ds = em_q_to_string(delta, 60);
        printf("{\n  \"epsilon\": ");
        em_json_string(stdout, es ? es : "");
        printf(",\n  \"sensitivity\": ");
        em_json_string(stdout, ds ? ds : "");
        printf(",\n  \"variant\": \"%s\",\n  \"digits\": %d,\n  \"candidates\": [\n",
               em_variant_name(variant), c.digits);
        free(es);
        free(ds);
    }
    for (size_t i = 0; i < sc.n; i++) {
        em_oracle_cand r;
        st = em_oracle_get(o, i, &r);
        if (st != EM_OK) {
            fprintf(stderr, "%s: candidate %zu: %s\n", c.cmd, i, em_cont_strerror(st));
            rc = em_cli_status_exit(st);
            goto done;
        }
        if (r.flags & EM_OF_NEAR_ONE)
            near_one++;
        if (r.flags & (EM_OF_FROM_LOG | EM_OF_LOG_FROM_LOG))
            from_log++;
        if (c.format == EM_FMT_CSV) {
            em_cli_csv_label(sc.labels[i]);
            printf(",%s,%s\n", r.prob, r.logprob);
        } else {
            if (!sc.excluded[i])
                em_scenario_get_u(&sc, i, uq);
            char *us = sc.excluded[i] ? NULL : em_q_to_string(uq, 60);
            printf("    {\"label\": ");
            em_json_string(stdout, sc.labels[i]);
            printf(", \"utility\": ");
            em_json_string(stdout, us ? us : "-inf");
            printf(", \"probability\": \"%s\", \"log_probability\": \"%s\"", r.prob, r.logprob);
            if (r.flags & EM_OF_NEAR_ONE)
                printf(", \"note\": \"below 1 but rounds to 1: printed as the largest %d-digit decimal below 1\"", c.digits);
            if (r.flags & EM_OF_FROM_LOG)
                printf(", \"note\": \"below MPFR's exponent range: decimal computed from the log-probability\"");
            if (r.flags & EM_OF_LOG_FROM_LOG)
                printf(", \"note\": \"|log-probability| below MPFR's exponent range: computed from its logarithm\"");
            printf("}%s\n", i + 1 < sc.n ? "," : "");
            free(us);
        }
    }
    if (c.format == EM_FMT_JSON)
        printf("  ]\n}\n");
    if (near_one)
        fprintf(stderr, "%s: note: %zu probability below 1 rounds to 1 at %d digits; printed as "
                        "0.99...9, the largest %d-digit decimal below 1 (see its log-probability)\n",
                c.cmd, near_one, c.digits, c.digits);
    if (from_log)
        fprintf(stderr, "%s: note: %zu value(s) lie below MPFR's exponent range; their decimals "
                        "were computed exactly from logarithms\n",
                c.cmd, from_log);
flush:
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    rc = EM_EXIT_OK;
done:
    em_oracle_free(o);
    mpq_clears(delta, uq, (mpq_ptr)0);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}
