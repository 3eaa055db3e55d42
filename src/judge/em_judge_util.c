/* em_judge_util.c: helpers shared by check, compare and audit (em_judge_priv.h). */
#include "judge/em_judge_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/em_scenario.h"
#include "oracle/em_pf.h"

int ej_law(em_mech *m, int digits, em_cont **law, em_error *err)
{
    em_scenario *sc = &m->scn->sc;
    if (m->variant == EM_PF)
        return em_err(err, EM_ERR_VARIANT, "variant pf is not available for %s scenarios",
                      sc->continuous ? "continuous" : "weighted (measure)");
    char msg[EM_SCENARIO_ERRLEN] = "";
    int st;
    if (sc->continuous) {
        st = em_cont_new_pieces(&sc->pieces, m->eps, m->delta, m->variant, digits, law, msg,
                                sizeof msg);
    } else {
        st = ej_finite(m, 0, err);
        if (st != EM_OK)
            return st;
        st = em_cont_new_atoms(sc->n, sc->u, sc->excluded, sc->has_measure ? sc->measure : NULL,
                               m->eps, m->delta, m->variant, digits, law, msg, sizeof msg);
    }
    if (st == EM_OK)
        return EM_OK;
    if (msg[0])
        return em_err(err, st, "%s", msg);
    return em_err(err, st, "%s: %s", sc->name, em_cont_strerror(st));
}

int ej_fail(em_error *err, int st, const char *what)
{
    if (what)
        return em_err(err, st, "%s: %s", what, em_cont_strerror(st));
    return em_err(err, st, "%s", em_cont_strerror(st));
}

int ej_read(const char *path, size_t max, const char **name, char **buf, size_t *len,
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

long ej_find(const void *ctx, const char *label, size_t len)
{
    return em_scenario_find((const em_scenario *)ctx, label, len);
}

int ej_finite(em_mech *m, int doubles, em_error *err)
{
    int st = em_scn_expand(m->scn, err);
    if (st == EM_OK && doubles)
        st = em_scn_doubles(m->scn, err);
    return st;
}

int ej_pf_limit(const em_mech *m, em_error *err)
{
    const em_scenario *sc = &m->scn->sc;
    if (m->variant == EM_PF && sc->n > EM_PF_PROBS_MAX_N)
        return em_err(err, EM_ERR_DOMAIN,
                      "variant pf: %s has %zu candidates; the exact permute-and-flip pmf is "
                      "limited to %zu", sc->name, sc->n, (size_t)EM_PF_PROBS_MAX_N);
    return EM_OK;
}
