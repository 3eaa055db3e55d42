/* em_judge_priv.c: helpers shared by check, compare and audit (em_judge_priv.h). */
#include "api/em_judge_priv.h"
#include "base/em_error.h"
#include "io/em_scn_text.h"
#include "io/em_text.h"
#include "em_law.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>


int em_judge_law(em_mech *m, int digits, em_cont **law, em_error *err)
{
    em_scn *sc = m->scn;
    if (m->variant == EM_PF)
        return em_err(err, EM_ERR_VARIANT, "variant pf is not available for %s scenarios",
                      sc->continuous ? "continuous" : "weighted (measure)");
    return em_cont_new(&m->prob, digits, law, err);
}

int em_judge_fail(em_error *err, int st, const char *what)
{
    if (what)
        return em_err(err, st, "%s: %s", what, em_cont_strerror(st));
    return em_err(err, st, "%s", em_cont_strerror(st));
}

int em_judge_read(const char *path, size_t max, const char **name, char **buf, size_t *len,
                  em_error *err)
{
    int use_stdin = !path || !strcmp(path, "-");
    *name = use_stdin ? "<stdin>" : path;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return em_err(err, EM_ERR_PARSE, "%s: cannot open: %s", *name, strerror(errno));
    int st = em_read_all(f, max, buf, len);
    if (!use_stdin)
        fclose(f);
    if (st != EM_OK)
        return em_err(err, EM_ERR_PARSE, "%s: cannot read", *name);
    return EM_OK;
}

long em_judge_find_label(const void *ctx, const char *label, size_t len)
{
    return em_scn_lookup((const em_scn *)ctx, label, len);
}

int em_judge_finite(em_mech *m, int doubles, em_error *err)
{
    int st = em_scn_expand(m->scn, err);
    if (st == EM_OK && doubles)
        st = em_scn_doubles(m->scn, err);
    return st;
}

int em_judge_pf_limit(const em_mech *m, em_error *err)
{
    const em_scn *sc = m->scn;
    if (m->variant == EM_PF && sc->n > EM_PF_PROBS_MAX_N)
        return em_err(err, EM_ERR_DOMAIN,
                      "variant pf: %s has %zu candidates; the exact permute-and-flip pmf is "
                      "limited to %zu", sc->name, sc->n, (size_t)EM_PF_PROBS_MAX_N);
    return EM_OK;
}
