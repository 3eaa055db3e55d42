/* cmd_probs.c: `expmech probs`: exact, correctly rounded probabilities. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/scenario.h"
#include "expmech.h"
#include "oracle/em_oracle.h"
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
    "  --variant V        standard (default; or the file's '# monotone: yes' header)\n"
    "                     or monotone\n"
    "  --digits K         significant digits, 1..1000 (default 17)\n"
    "  --format F         csv (default): 'label,probability,log_probability' per line;\n"
    "                     json: parameters and one object per candidate (numbers as strings)\n"
    "\n"
    "Conventions: 0 and 1 (log: -inf and 0) only when exact: an excluded candidate, or\n"
    "the only candidate left.  A probability below 1 whose rounding would be 1 prints as\n"
    "K nines (0.999...9); its log-probability gives the exact distance (e.g. -6.1e-933).\n"
    "Probabilities far below double's range print exactly (e.g. 9.9e-3248); those below\n"
    "MPFR's exponent range are computed from their logarithms (a note says so).\n"
    "Exit status: 0 success, 2 bad input, 3 internal failure.\n";

int cmd_probs(int argc, char **argv)
{
    em_cli c;
    em_cli_init(&c, "expmech probs");
    em_scenario sc;
    em_scenario_init(&sc);
    mpq_t delta;
    mpq_init(delta);
    em_oracle *o = NULL;
    int variant;
    int rc = em_cli_start(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_DIGITS |
                              EM_OPT_FORMAT | EM_OPT_FILE,
                          EM_OPT_EPSILON, help, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    int st = em_oracle_new(sc.n, sc.u, sc.excluded, c.eps, delta, variant, c.digits, &o);
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
            fprintf(stderr, "%s: candidate %zu: %s\n", c.cmd, i, em_strerror(st));
            rc = em_cli_status_exit(st);
            goto done;
        }
        if (r.flags & EM_OF_NEAR_ONE)
            near_one++;
        if (r.flags & (EM_OF_FROM_LOG | EM_OF_LOG_FROM_LOG))
            from_log++;
        if (c.format == EM_FMT_CSV) {
            em_csv_label(stdout, sc.labels[i]);
            printf(",%s,%s\n", r.prob, r.logprob);
        } else {
            char *us = sc.excluded[i] ? NULL : em_q_to_string(sc.u[i], 60);
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
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    rc = EM_EXIT_OK;
done:
    em_oracle_free(o);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    return rc;
}
