/* cmd_sample.c: `expmech sample`: exact draws (src/oracle/em_exact_*.c, the default) or
 * draws from the verified core's float sampler (--sampler float). */
#include "cli/cli_util.h"

static int draw_all(const em_cli *c, em_scn *s, em_mech *m, const void *ctx)
{
    (void)ctx;
    const em_sample_opts o = {c->seed, (c->seen & EM_OPT(EO_SEED)) != 0,
                              c->sampler ? EM_SAMPLER_FLOAT : EM_SAMPLER_EXACT,
                              c->timing ? EM_TIMING_FIXED : EM_TIMING_VARIABLE};
    const int law = em_scn_get(s).continuous || em_scn_get(s).has_measure;
    em_error e;
    em_sampler *sp;
    if (em_sampler_new(m, &o, &sp, &e) != EM_OK)
        return em_cli_fail(c->cmd, NULL, &e);
    if (c->seen & EM_OPT(EO_SEED))
        fprintf(stderr, "%s: --seed %llu: the draws are reproducible by anyone who knows the "
                        "seed (for tests); leave --seed out for private output\n",
                c->cmd, (unsigned long long)c->seed);
    em_write_opts w = em_cli_write_opts(c);
    uint64_t done = 0;
    char what[64] = "";
    w.draws = c->n;
    w.done = &done;
    int rc = em_write(sp, stdout, &w, &e) == EM_OK ? -1 : 0;
    if (!rc && ferror(stdout)) { /* the first failed write: drawing on would be wasted */
        if (!law)
            snprintf(what, sizeof what, " after %llu draw(s); stopped", (unsigned long long)done);
        fprintf(stderr, "%s: write error on standard output%s\n", c->cmd, what);
        rc = EM_EXIT_INTERNAL;
    } else if (!rc) {
        snprintf(what, sizeof what, "draw %llu", (unsigned long long)done + law);
        rc = em_cli_fail(c->cmd, what, &e);
    }
    em_free(sp);
    return rc < 0 ? em_cli_flush(c->cmd, 0) : rc;
}

static int warn_float(em_cli *c)
{
    if (c->sampler)
        fprintf(stderr, "expmech sample: --sampler float: the float path can break pure "
                        "epsilon-DP (weights that round to 0 on one neighbour only: infinite "
                        "privacy loss, see `expmech audit`); the exact sampler (the default) "
                        "does not\n");
    return -1;
}

const em_cli_cmd cmd_sample = {EM_OPT_MECH | EM_OPT(EO_N) | EM_OPT(EO_SEED) | EM_OPT(EO_FILE) |
                                   EM_OPT(EO_SAMPLER) | EM_OPT(EO_TIMING),
                               .check = warn_float, .run = draw_all};
