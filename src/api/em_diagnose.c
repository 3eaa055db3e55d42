/* em_diagnose.c: the diagnosis of a reject (em_judge.h: em_diagnose, em_check_result.diagnosis):
 * the draws tested against the law of each known mistake (em_mistake.c), the one that fits
 * named in a sentence. */

#include "api/em_mistake_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/em_error.h"
#include "judge/em_gof_alt.h"
#include "api/em_obj.h"
/* ------------------------------------------------------------ diagnosis */

static void diagnosis_destroy(void *obj)
{
    em_diagnosis *d = obj;
    free(d->rows);
    free(d->sentence);
    em_obj_release(d);
}

static char *sentence(const em_diagnosis *d)
{
    char buf[1024];
    size_t len = 0;
    if (d->best >= 0) {
        len += (size_t)snprintf(buf, sizeof buf, "the draws fit %s: %s (p = %.2g under that law)",
                                em_mistake_law(d->best), em_mistake_words(d->best), d->best_p);
        int first = 1;
        for (int m = 0; m < EM_MISTAKE_COUNT && len < sizeof buf; m++)
            if (m != d->best && (d->same >> m & 1)) {
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", first ?
                                        "; the same law here: " : "; ", em_mistake_words(m));
                first = 0;
            }
    } else if (d->closest >= 0) {
        double p = 0;
        for (size_t i = 0; i < d->nrows; i++)
            if (d->rows[i].mistake == d->closest)
                p = d->rows[i].p_value;
        snprintf(buf, sizeof buf, "the draws fit none of the known mistakes (the closest: %s, "
                 "%s, p = %.2g)", em_mistake_law(d->closest), em_mistake_words(d->closest), p);
    } else {
        snprintf(buf, sizeof buf, "no known mistake has another law here");
    }
    return strdup(buf);
}

static int diagnose(em_mistake_laws *L, const em_check_result *r, const uint64_t *counts,
                    em_diagnosis **out, em_error *err)
{
    size_t n;
    double *p = NULL;
    uint64_t *obs = NULL;
    int st = em_mistake_cells(L, r, counts, &n, &p, &obs, err);
    if (st != EM_OK)
        return st;
    em_diagnosis *d = em_obj_new(sizeof *d, diagnosis_destroy);
    double *q = malloc(EM_MISTAKE_COUNT * n * sizeof *q);
    if (d)
        d->rows = calloc(EM_MISTAKE_COUNT, sizeof *d->rows);
    if (!d || !q || !d->rows) {
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
        goto out;
    }
    d->best = d->closest = -1;
    d->best_p = NAN;
    double best_ll = -INFINITY, close_ll = -INFINITY;
    for (int mk = 0; mk < EM_MISTAKE_COUNT; mk++) {
        int applies;
        double *qm = q + (size_t)mk * n;
        if ((st = em_mistake_alt(L, mk, r, n, p, qm, &applies, err)) != EM_OK)
            goto out;
        if (!applies)
            continue;
        em_diagnosis_row *row = &d->rows[d->nrows++];
        row->mistake = mk;
        row->same_law_as = -1;
        for (size_t i = 0; i + 1 < d->nrows && row->same_law_as < 0; i++) {
            const double *qo = q + (size_t)d->rows[i].mistake * n;
            double diff = 0;
            for (size_t c = 0; c < n; c++)
                diff = fmax(diff, fabs(qo[c] - qm[c]));
            if (diff <= (em_mistake_laws_continuous(L) ? 1e-9 : 0.0))
                row->same_law_as = d->rows[i].same_law_as >= 0 ? d->rows[i].same_law_as
                                                               : d->rows[i].mistake;
        }
        double ll = 0;
        for (size_t c = 0; c < n; c++)
            if (obs[c])
                ll += qm[c] > 0 ? (double)obs[c] * log(qm[c]) : -INFINITY;
        row->loglik = ll;
        int imp = 0;
        if (em_gof_alt_test(n, qm, obs, 5.0, &row->statistic, &row->df, &row->p_value, &imp,
                            NULL) != EM_OK)
            row->p_value = 0, row->statistic = INFINITY;
        row->fits = row->p_value >= EM_DIAGNOSIS_FIT;
        if (row->fits && ll > best_ll) {
            best_ll = ll;
            d->best = mk;
            d->best_p = row->p_value;
        }
        if (ll > close_ll || (d->closest < 0)) {
            close_ll = ll;
            d->closest = mk;
        }
    }
    if (d->best >= 0) {
        int root = d->best;
        for (size_t i = 0; i < d->nrows; i++)
            if (d->rows[i].mistake == d->best && d->rows[i].same_law_as >= 0)
                root = d->rows[i].same_law_as;
        for (size_t i = 0; i < d->nrows; i++) {
            const em_diagnosis_row *w = &d->rows[i];
            if (w->mistake == root || w->same_law_as == root)
                d->same |= 1ul << w->mistake;
        }
        /* the first of a group of identical laws is the one named */
        d->best = root;
        d->closest = -1;
    }
    if (!(d->sentence = sentence(d)))
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
out:
    free(p), free(obs), free(q);
    if (st != EM_OK) {
        em_free(d);
        return st;
    }
    *out = d;
    return EM_OK;
}

int em_mistake_diagnose(em_mistake_laws *L, const em_check_result *r, const uint64_t *counts,
                        em_diagnosis **out, em_error *err)
{
    *out = NULL;
    return diagnose(L, r, counts, out, err);
}

int em_diagnose(em_mech *m, const em_check_result *r, const uint64_t *counts,
                em_diagnosis **out, em_error *err)
{
    if (!out) {
        return em_err(err, EM_ERR_NULL, "em_diagnose: out is NULL");
    }
    *out = NULL;
    if (!m || !r) {
        return em_err(err, EM_ERR_NULL, "em_diagnose: mechanism or result NULL");
    }
    int cont = em_scn_get(em_mech_get(m).scn).continuous;
    if (cont == (counts != NULL)) {
        return em_err(err, EM_ERR_DOMAIN, "em_diagnose: counts %s for a %s mechanism",
                      cont ? "given" : "missing", cont ? "continuous" : "finite");
    }
    em_mistake_laws *L = NULL;
    int st = em_mistake_laws_new(m, -1, &L, err);
    if (st == EM_OK)
        st = diagnose(L, r, counts, out, err);
    em_mistake_laws_free(L);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}
