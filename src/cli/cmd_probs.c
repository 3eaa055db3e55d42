/* cmd_probs.c: `expmech probs`: exact, correctly rounded probabilities. */
#include "cli/cli_util.h"

static int print_probs(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    const int law = em_scn_get(s).continuous || em_scn_get(s).has_measure;
    em_write_opts o = em_cli_write_opts(c);
    em_probs_notes k;
    o.notes = &k;
    em_error e;
    int rc = em_cli_written(c->cmd, em_write(m, stdout, &o, &e), &e);
    if (rc >= 0)
        return rc;
    if (k.near_one)
        fprintf(stderr, "%s: note: %zu probability below 1 rounds to 1 at %d digits; printed as "
                        "0.99...9, the largest %d-digit decimal below 1 (see its log-probability)\n",
                c->cmd, k.near_one, (int)c->digits, (int)c->digits);
    if (k.from_log)
        fprintf(stderr, "%s: note: %zu value(s) lie below MPFR's exponent range; their decimals "
                        "were computed exactly from logarithms\n", c->cmd, k.from_log);
    if (k.undecided)
        fprintf(stderr, "%s: note: %zu log-probability(ies) could not be decided within 2^20 bits "
                        "(or lie below MPFR's exponent range); printed as nan, not computed\n",
                c->cmd, k.undecided);
    return em_cli_flush(c->cmd, law);
}

const em_cli_cmd cmd_probs = {
    EM_OPT_MECH | EM_OPT(EO_DIGITS) | EM_OPT(EO_FORMAT) | EM_OPT(EO_FILE), .run = print_probs};
