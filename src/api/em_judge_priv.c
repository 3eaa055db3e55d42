/* em_judge_priv.c: helpers shared by check, compare and audit (em_judge_priv.h). */
#include "api/em_judge_priv.h"
#include "base/em_error.h"
#include "io/em_samples.h"
#include "io/em_scn_text.h"
#include "io/em_text.h"
#include "em_law.h"

#include <errno.h>
#include <stdlib.h>
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

int em_judge_draws_form(const em_draws *d, const char *fn, em_error *err)
{
    if (!d)
        return em_err(err, EM_ERR_NULL, "%s: draws NULL", fn);
    if ((d->draw != NULL) + (d->counts != NULL) + (d->path != NULL) != 1)
        return em_err(err, EM_ERR_DOMAIN, "%s: give exactly one of draw, counts and path",
                      fn);
    if (d->draw && d->n == 0)
        return em_err(err, EM_ERR_EMPTY, "no draws to test");
    return EM_OK;
}

int em_judge_counts(const em_scn *s, const em_draws *d, uint64_t **counts, uint64_t *total,
                    em_error *err)
{
    *counts = NULL;
    if (s->continuous)
        return em_err(err, EM_ERR_DOMAIN, "%s: a continuous scenario has no candidates to count",
                      s->name);
    if (d->path && (d->samples_are < EM_SAMPLES_ARE_AUTO || d->samples_are > EM_SAMPLES_ARE_INDICES))
        return em_err(err, EM_ERR_DOMAIN, "samples_are %d: expected 0, 1 or 2", d->samples_are);
    if (d->counts && d->n != s->n)
        return em_err(err, EM_ERR_DOMAIN, "%zu counts for %zu candidates", d->n, s->n);
    uint64_t *c = calloc(s->n ? s->n : 1, sizeof *c);
    if (!c)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    int st = EM_OK;
    *total = 0;
    if (d->counts) {
        for (size_t i = 0; i < s->n; i++)
            *total += c[i] = d->counts[i];
    } else if (d->draw) {
        for (size_t k = 0; k < d->n && st == EM_OK; k++) {
            if (d->draw[k].index >= s->n)
                st = em_err(err, EM_ERR_DOMAIN, "draw[%zu].index = %zu: no such candidate (%zu)",
                            k, d->draw[k].index, s->n);
            else
                c[d->draw[k].index]++;
        }
        *total = d->n;
    } else {
        const char *name;
        char *buf = NULL;
        size_t len;
        st = em_judge_read(d->path, EM_JUDGE_SAMPLES_MAX, &name, &buf, &len, err);
        if (st == EM_OK) {
            em_error e = {EM_OK, ""};
            st = em_samples_count(buf, len, name, s->n, em_judge_find_label, s, d->samples_are,
                                  c, total, &e);
            if (st != EM_OK)
                em_err(err, st, "%s", st == EM_ERR_NOMEM ? "out of memory" : e.msg);
        }
        free(buf);
    }
    if (st != EM_OK) {
        free(c);
        return st;
    }
    *counts = c;
    return EM_OK;
}
