/* em_draws_check.c: em_draws_check (em_judge.h): draws of another implementation against
 * the exact law of a mechanism, finite or continuous, the statistics of judge/em_gof.h and judge/em_gof_cont.h
 * returned as data. */
#include "em_judge.h"
#include "em_conform.h"
#include "api/em_judge_priv.h"
#include "api/em_law_priv.h"
#include "base/em_error.h"
#include "core/em_params.h"
#include "io/em_draws.h"
#include "io/em_samples.h"
#include "judge/em_gof_cont.h"
#include "judge/em_gof.h"
#include "judge/em_ks.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "api/em_obj.h"
#include "api/em_mistake_priv.h"

static void check_result_destroy(void *obj)
{
    em_check_result *r = obj;
    free(r->rows);
    free(r->cell_of);
    em_free(r->diagnosis);
    em_obj_release(r);
}

static int opts_ok(const em_check_opts *o, em_error *err)
{
    if (!(o->alpha > 0 && o->alpha < 1))
        return em_err(err, EM_ERR_DOMAIN, "alpha %g: expected a number in (0, 1)", o->alpha);
    if (!(o->min_expected >= 1) || isinf(o->min_expected))
        return em_err(err, EM_ERR_DOMAIN, "min_expected %g: expected a finite number >= 1",
                      o->min_expected);
    return EM_OK;
}

/* The common entry checks; *r allocated. */
static int begin(em_mech *m, const void *data, size_t n, const em_check_opts **o,
                 em_check_result **out, em_check_result **r, em_error *err)
{
    static const em_check_opts defaults = EM_CHECK_OPTS_INIT;
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_draws_check: out is NULL");
    *out = NULL;
    if (!m || (!data && n))
        return em_err(err, EM_ERR_NULL, "em_draws_check: mechanism or samples NULL");
    if (!*o)
        *o = &defaults;
    int st = opts_ok(*o, err);
    if (st != EM_OK)
        return st;
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "no draws to test");
    *r = em_obj_new(sizeof **r, check_result_destroy);
    if (!*r)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    (*r)->alpha = (*o)->alpha;
    (*r)->min_expected = (*o)->min_expected;
    (*r)->cand_index = EM_JUDGE_NONE;
    (*r)->support_index = EM_JUDGE_NONE;
    (*r)->first_outside = EM_JUDGE_NONE;
    return EM_OK;
}

/* The fields both kinds take from em_gof_test. */
static void from_gof(em_check_result *r, const em_gof_result *g, int cont_verdict)
{
    r->statistic = g->g;
    r->df = (size_t)g->df;
    r->p_value = g->p_value;
    r->min_detectable = g->min_rel_err;
    r->ncells = g->ncells;
    r->pearson_x2 = g->x2;
    r->max_std_resid = g->max_std_resid;
    r->tail_p = g->tail_p;
    r->cand_p = g->cand_p;
    r->cand_index = g->cand_index == EM_GOF_NO_CELL ? EM_JUDGE_NONE : g->cand_index;
    r->cand_alpha = g->cand_alpha;
    r->reasons = (g->p_value < r->alpha ? EM_CHECK_R_FIT : 0) |
                 (g->tail_p < r->alpha ? EM_CHECK_R_TAIL : 0) |
                 (g->cand_p < g->cand_alpha ? EM_CHECK_R_CELL : 0) |
                 (g->support_violation ? EM_CHECK_R_SUPPORT : 0);
    r->verdict = cont_verdict;
}

/* The exact probabilities of a finite m as correctly rounded doubles. */
static int finite_probs(em_mech *m, double *p, em_error *err)
{
    em_scn *sc = m->scn;
    int st = em_judge_pf_limit(m, err);
    if (st != EM_OK)
        return st;
    if (sc->has_measure) {
        em_cont *law = NULL;
        st = em_judge_law(m, m->digits, &law, err);
        if (st != EM_OK)
            return st;
        st = em_cont_doubles(law, p);
        em_cont_free(law);
        return st == EM_OK ? EM_OK : em_judge_fail(err, st, NULL);
    }
    const struct em_law_cache *c = m->law;
    if (m->variant == EM_PF && c && c->pf && c->pf->n == sc->n) {
        /* the law m already holds: the same correctly rounded doubles em_pf_pmf gives (one
         * exact law, one rounding), without computing the law a second time */
        memcpy(p, c->pf->pd, sc->n * sizeof *p);
        return EM_OK;
    }
    if (m->variant != EM_PF && c && c->oracle && c->od && c->od_n == sc->n) {
        /* every probability of m's oracle already asked (em_probs_get): the same
         * correctly rounded doubles em_oracle_doubles would compute again */
        memcpy(p, c->od, sc->n * sizeof *p);
        return EM_OK;
    }
    if (m->variant == EM_PF)
        st = em_pf_pmf(&m->prob, p, 0, NULL);
    else
        st = em_oracle_doubles(&m->prob, p, NULL, NULL);
    if (st != EM_OK)
        return em_judge_fail(err, st, m->variant == EM_PF ? "variant pf" : NULL);
    return EM_OK;
}

/* One row per pooled cell: expected and observed summed over its members. */
static int finite_rows(em_check_result *r, const double *p, const uint64_t *counts, size_t n)
{
    r->rows = calloc(r->ncells ? r->ncells : 1, sizeof *r->rows);
    if (!r->rows)
        return EM_ERR_NOMEM;
    r->nrows = r->ncells;
    for (size_t k = 0; k < r->nrows; k++) {
        r->rows[k].first = EM_JUDGE_NONE;
        r->rows[k].pool = k;
        r->rows[k].lo = r->rows[k].hi = NAN;
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = r->cell_of[i];
        if (k == EM_GOF_NO_CELL) {
            r->cell_of[i] = EM_JUDGE_NONE;
            r->nzero++;
            continue;
        }
        em_check_row *w = &r->rows[k];
        w->expected += (double)r->n * p[i];
        w->probability += p[i];
        w->observed += counts[i];
        if (w->first == EM_JUDGE_NONE)
            w->first = i;
        w->last = i;
        w->count++;
    }
    for (size_t k = 0; k < r->nrows; k++) {
        em_check_row *w = &r->rows[k];
        w->std_resid = ((double)w->observed - w->expected) / sqrt(w->expected);
    }
    return EM_OK;
}

static int check_counts(em_mech *m, const uint64_t *counts, size_t n, const em_check_opts *o,
                        em_check_result **out, em_error *err)
{
    em_check_result *r = NULL;
    int st = begin(m, counts, n, &o, out, &r, err);
    if (st != EM_OK)
        return st;
    const em_scn *sc = m->scn;
    if (n != sc->n) {
        em_obj_release(r);
        return em_err(err, EM_ERR_DOMAIN, "%zu counts for %zu candidates", n, sc->n);
    }
    double *p = malloc(n * sizeof *p);
    r->cell_of = malloc(n * sizeof *r->cell_of);
    if (!p || !r->cell_of)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK)
        st = finite_probs(m, p, err);
    em_gof_result g;
    if (st == EM_OK) {
        st = em_gof_test(n, p, counts, o->alpha, o->min_expected, &g, r->cell_of);
        if (st != EM_OK)
            em_err(err, st, "%s", st == EM_ERR_DOMAIN ? "no draws to test" : em_strerror(st));
    }
    if (st == EM_OK) {
        r->n = g.n_draws;
        r->ncand = n;
        from_gof(r, &g, (int)g.verdict);
        if (g.support_violation) {
            r->support_index = g.support_index;
            r->support_count = counts[g.support_index];
        }
        if (finite_rows(r, p, counts, n) != EM_OK)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (st == EM_OK && r->verdict == EM_VERDICT_REJECT && !o->skip_diagnosis) /* the mistake */
        (void)em_diagnose(m, r, counts, &r->diagnosis, NULL);
    free(p);
    return EM_HAND_OUT(st, r, em_free, out, err);
}

static int check_cont(em_mech *m, const double *x, const unsigned long *line, size_t n,
                      const em_check_opts *o, em_check_result **out, em_error *err)
{
    em_check_result *r = NULL;
    int st = begin(m, x, n, &o, out, &r, err);
    if (st != EM_OK)
        return st;
    em_cont *C = NULL;
    em_gof_cont_result c;
    memset(&c, 0, sizeof c);
    st = em_judge_law(m, m->digits, &C, err);
    if (st == EM_OK) {
        st = em_gof_cont(C, x, n, o->alpha, o->min_expected, EM_GOF_CONT_BINS, &c);
        if (st != EM_OK)
            em_judge_fail(err, st, NULL);
    }
    if (st == EM_OK) {
        r->rows = calloc(c.ncells, sizeof *r->rows);
        if (!r->rows)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (st == EM_OK) {
        r->n = c.n;
        from_gof(r, &c.gof, (int)c.verdict);
        r->reasons = (r->reasons & ~EM_CHECK_R_SUPPORT) |
                     (c.reject_support ? EM_CHECK_R_SUPPORT : 0) |
                     (c.reject_ks ? EM_CHECK_R_KS : 0);
        r->nrows = c.ncells;
        r->quantile_bins = EM_GOF_CONT_BINS;
        for (size_t k = 0; k < c.ncells; k++) {
            const em_gof_cont_cell *b = &c.cells[k];
            em_check_row *w = &r->rows[k];
            w->first = w->last = k;
            w->count = 1;
            w->observed = b->obs;
            w->probability = b->p;
            w->expected = (double)c.n * b->p;
            w->std_resid = w->expected > 0 ? ((double)b->obs - w->expected) / sqrt(w->expected)
                                           : 0.0;
            w->pool = b->pool;
            w->lo = b->lo;
            w->hi = b->hi;
            w->from_breakpoint = b->lo_kind == EM_CC_EDGE_BREAK;
            r->nbreak += (size_t)w->from_breakpoint;
        }
        r->nquantile = c.ncells - 1 - r->nbreak;
        r->support_count = c.outside;
        if (c.outside) {
            r->first_outside = c.first_outside;
            r->outside_value = x[c.first_outside];
            r->outside_line = line ? line[c.first_outside] : 0;
        }
        r->ks_d = c.ks_d;
        r->ks_x = c.ks_x;
        r->ks_side = c.ks_side;
        r->ks_n = c.ks_n;
        r->ks_p = c.ks_p;
        r->ks_p_upper = c.ks_p_upper;
        r->ks_approximate = c.ks_method == EM_KS_ASYMPTOTIC;
        r->ks_method = em_ks_method_name(c.ks_method);
    }
    if (st == EM_OK && r->verdict == EM_VERDICT_REJECT && !o->skip_diagnosis)
        (void)em_diagnose(m, r, NULL, &r->diagnosis, NULL);
    em_gof_cont_free(&c);
    em_cont_free(C);
    return EM_HAND_OUT(st, r, em_free, out, err);
}

static int check_file_cont(em_mech *m, const char *path, const em_check_opts *o,
                           em_check_result **out, em_error *err)
{
    const char *name;
    char *buf = NULL;
    size_t len, n = 0;
    double *x = NULL;
    unsigned long *line = NULL;
    int st = em_judge_read(path, EM_JUDGE_SAMPLES_MAX, &name, &buf, &len, err);
    if (st != EM_OK)
        return st;
    em_error e = {EM_OK, ""};
    st = em_read_draws(buf, len, name, &x, &line, &n, &e);
    if (st != EM_OK)
        em_err(err, st, "%s", e.msg);
    else if (n == 0)
        st = em_err(err, EM_ERR_PARSE, "%s: no draws", name);
    else
        st = check_cont(m, x, line, n, o, out, err);
    free(x);
    free(line);
    free(buf);
    return st;
}

int em_judge_check_values(em_mech *m, const double *x, size_t n, const em_check_opts *o,
                          em_check_result **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_draws_check: out is NULL");
    *out = NULL;
    if (!m)
        return em_err(err, EM_ERR_NULL, "em_draws_check: mechanism NULL");
    if (!m->scn->continuous)
        return em_err(err, EM_ERR_DOMAIN, "%s: values of a finite scenario", m->scn->name);
    return check_cont(m, x, NULL, n, o, out, err);
}

static int draws_check_any(em_mech *m, const em_draws *d, const em_check_opts *o,
                           em_check_result **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_draws_check: out is NULL");
    *out = NULL;
    if (!m)
        return em_err(err, EM_ERR_NULL, "em_draws_check: mechanism NULL");
    int st = em_judge_draws_form(d, "em_draws_check", err);
    if (st != EM_OK)
        return st;
    if (m->scn->continuous) {
        if (d->counts)
            return em_err(err, EM_ERR_DOMAIN, "%s: a continuous scenario has no candidates to "
                          "count", m->scn->name);
        if (d->path)
            return check_file_cont(m, d->path, o, out, err);
        double *x = malloc(d->n * sizeof *x);
        if (!x)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        for (size_t k = 0; k < d->n; k++)
            x[k] = d->draw[k].value;
        st = check_cont(m, x, NULL, d->n, o, out, err);
        free(x);
        return st;
    }
    uint64_t *counts = NULL, total;
    st = em_judge_counts(m->scn, d, &counts, &total, err);
    if (st == EM_OK)
        st = check_counts(m, counts, m->scn->n, o, out, err);
    free(counts);
    return st;
}

/* em_write of a check (em_obj.h) */
static int write_check(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                       em_error *err)
{
    return em_check_result_write(f, obj, ctx[0], o, err);
}

int em_draws_check(em_mech *m, const em_draws *d, const em_check_opts *o,
                   em_check_result **out, em_error *err)
{
    int st = draws_check_any(m, d, o, out, err);
    if (st == EM_OK)
        em_obj_writer(*out, write_check, m, NULL);
    return st;
}
