/* em_law_write.c: the laws and reports of em_law.h written as expmech probs and expmech
 * utility write them (expmech(1)): CSV or JSON, over a sweep of epsilon. */
#include <stdlib.h>
#include <string.h>

#include "em_law.h"
#include "em_num.h"
#include "api/em_write_priv.h"
#include "base/em_error.h"
#include "api/em_obj.h"
#include "api/em_scn_priv.h"

#define CSV_JSON (EM_WRITE_ACCEPTS(EM_WRITE_CSV) | EM_WRITE_ACCEPTS(EM_WRITE_JSON))

/* ------------------------------------------------------------------- probs */

/* One row: a finite candidate (with its utility and notes in JSON unless weighted) or a
 * piece; the notes counted. */
static int probs_row(FILE *f, em_mech *m, const em_write_opts *w, size_t i, size_t n,
                     em_probs_notes *notes, em_error *err)
{
    const em_scn *s = em_mech_view(m).scn;
    const int cont = em_scn_get(s).continuous, law = cont || em_scn_get(s).has_measure;
    em_prob p;
    char *lo = NULL, *hi = NULL, *u = NULL;
    int st = em_probs_get(m, i, &p, err);
    if (st != EM_OK) {
        char msg[EM_ERRLEN];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        return em_err(err, st, "%s %zu: %s", cont ? "piece" : "candidate", i + law, msg);
    }
    if ((cont && (st = em_piece_ends(m, i, &lo, &hi, err)) != EM_OK) ||
        (!law && w->format == EM_WRITE_JSON && (st = em_scn_utility(s, i, &u, err)) != EM_OK)) {
        em_free(lo);
        em_free(hi);
        return st;
    }
    if (w->format == EM_WRITE_CSV) {
        em_write_sweep_row(f, w, em_mech_view(m).epsilon,
                           cont ? "lo,hi,probability,log_probability"
                                : "label,probability,log_probability", i);
        if (cont)
            fprintf(f, "%s,%s", lo, hi);
        else
            em_write_csv_label(f, em_scn_label(s, i), w);
        fprintf(f, ",%s,%s\n", p.prob, p.logprob);
    } else {
        fputs("    {", f);
        if (cont) {
            fprintf(f, "\"lo\": \"%s\", \"hi\": \"%s\"", lo, hi);
        } else {
            fputs("\"label\": ", f);
            em_write_json_string(f, em_scn_label(s, i));
        }
        if (u) {
            fputs(", \"utility\": ", f);
            em_write_json_string(f, u);
        }
        fprintf(f, ", \"probability\": \"%s\", \"log_probability\": \"%s\"", p.prob, p.logprob);
        if (!law && (p.flags & EM_PROB_NEAR_ONE))
            fprintf(f, ", \"note\": \"below 1 but rounds to 1: printed as the largest %d-digit "
                       "decimal below 1\"", em_mech_view(m).digits);
        if (p.flags & EM_PROB_FROM_LOG)
            fputs(", \"note\": \"below MPFR's exponent range: decimal computed from the "
                  "log-probability\"", f);
        if (p.flags & EM_PROB_LOG_FROM_LOG)
            fputs(", \"note\": \"|log-probability| below MPFR's exponent range: computed from "
                  "its logarithm\"", f);
        if (p.flags & EM_PROB_UNDECIDED)
            fputs(", \"note\": \"log-probability not decided within 2^20 bits: not computed\"",
                  f);
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    notes->near_one += !law && (p.flags & EM_PROB_NEAR_ONE);
    notes->from_log += (p.flags & (EM_PROB_FROM_LOG | EM_PROB_LOG_FROM_LOG)) != 0;
    notes->undecided += (p.flags & EM_PROB_UNDECIDED) != 0;
    em_free(lo);
    em_free(hi);
    em_free(u);
    return EM_OK;
}

static int points_write(FILE *f, em_mech *m, int what, const em_points *p,
                        const em_write_opts *o, em_error *err);

int em_mech_write(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                  em_error *err)
{
    static const char fn[] = "em_write";
    em_mech *m = (em_mech *)obj; /* the law it caches is computed here */
    em_write_opts w;
    em_probs_notes none;
    (void)ctx;
    if (o && o->points)
        return points_write(f, m, o->law, o->points, o, err);
    int st = em_write_begin(fn, f, m, m, o, CSV_JSON, &w, err);
    if (st != EM_OK)
        return st;
    em_probs_notes *notes = w.notes ? w.notes : &none;
    notes->near_one = notes->from_log = notes->undecided = 0;
    const em_mech_info mi = em_mech_view(m);
    const int cont = em_scn_get(mi.scn).continuous;
    const int law = cont || em_scn_get(mi.scn).has_measure;
    const size_t n = cont ? em_scn_get(mi.scn).pieces : em_scn_get(mi.scn).size;
    if ((st = em_probs_prepare(m, err)) != EM_OK)
        return st;
    if (w.format == EM_WRITE_JSON) {
        fputs(w.sweep_n && w.sweep_i == 0 ? "[\n{\n" : "{\n", f);
        fputs("  \"epsilon\": ", f);
        em_write_json_string(f, mi.epsilon);
        fputs(",\n  \"sensitivity\": ", f);
        em_write_json_string(f, mi.sensitivity);
        fprintf(f, ",\n  \"variant\": \"%s\",\n  \"digits\": %d,\n", em_write_variant(mi.variant),
                mi.digits);
        if (law)
            fprintf(f, "  \"output\": \"%s\",\n", cont ? "continuous" : "finite");
        fprintf(f, "  \"%s\": [\n", cont ? "pieces" : "candidates");
    }
    for (size_t i = 0; i < n; i++)
        if ((st = probs_row(f, m, &w, i, n, notes, err)) != EM_OK)
            return st;
    if (w.format == EM_WRITE_JSON) {
        const int more = w.sweep_n && w.sweep_i + 1 < w.sweep_n;
        fprintf(f, "  ]\n}%s\n%s", more ? "," : "", w.sweep_n && !more ? "]\n" : "");
    }
    return em_write_end(fn, f, err);
}

/* ----------------------------------------------------------------- utility */

static void utility_csv(FILE *f, const em_utility_report *u, const em_mech *m,
                        const em_write_opts *w)
{
    const em_utility_result *r = u->result;
    if (w->sweep_i == 0) {
        fputs("epsilon,opt,expected_utility,expected_loss,sd_loss,p_best,expected_loss_bound",
              f);
        for (size_t i = 0; i < u->nt; i++)
            fprintf(f, ",p_loss_gt_%s,bound_p_loss_gt_%s", u->t[i], u->t[i]);
        fprintf(f, "%s\n", u->mc_n ? ",mc_n,mc_expected_loss,mc_se" : "");
    }
    fprintf(f, "%s,%s,%s,%s,%s,%s,%s", em_mech_view(m).epsilon, r->opt, r->expected_utility,
            r->expected_loss, r->sd_loss, r->p_best,
            u->expected_loss_bound ? u->expected_loss_bound : "");
    for (size_t i = 0; i < u->nt; i++)
        fprintf(f, ",%s,%s", u->p_loss_gt[i], u->p_bound && u->p_bound[i] ? u->p_bound[i] : "");
    if (u->mc_n)
        fprintf(f, ",%llu,%.17g,%.17g", (unsigned long long)u->mc_n, u->mc_mean, u->mc_se);
    fputc('\n', f);
}

/* "KEY": a decimal string, or null */
static void json_dec(FILE *f, const char *key, const char *v)
{
    fprintf(f, "\"%s\": ", key);
    if (v)
        em_write_json_string(f, v);
    else
        fputs("null", f);
}

static void utility_json(FILE *f, const em_utility_report *u, const em_mech *m,
                         const em_write_opts *w)
{
    const em_utility_result *r = u->result;
    const em_mech_info mi = em_mech_view(m);
    const char *keys[] = {"epsilon", "sensitivity", "opt", "expected_utility", "expected_loss",
                          "sd_loss", "p_best", "expected_loss_bound"};
    const char *vals[] = {mi.epsilon, mi.sensitivity, r->opt, r->expected_utility,
                          r->expected_loss, r->sd_loss, r->p_best, u->expected_loss_bound};
    if (w->sweep_n > 0)
        fputs(w->sweep_i == 0 ? "[\n" : ",\n", f);
    fputc('{', f);
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        fputs(k ? ", " : "", f);
        json_dec(f, keys[k], vals[k]);
        if (k == 1)
            fprintf(f, ", \"variant\": \"%s\", \"digits\": %d", em_write_variant(mi.variant),
                    mi.digits);
    }
    fputs(", \"loss_at\": [", f);
    for (size_t i = 0; i < u->nt; i++) {
        fputs(i ? ", {" : "{", f);
        json_dec(f, "t", u->t[i]);
        fputs(", ", f);
        json_dec(f, "p_loss_gt", u->p_loss_gt[i]);
        fputs(", ", f);
        json_dec(f, "bound", u->p_bound ? u->p_bound[i] : NULL);
        fputc('}', f);
    }
    fputc(']', f);
    if (u->mc_n)
        fprintf(f, ", \"mc_n\": %llu, \"mc_expected_loss\": %.17g, \"mc_se\": %.17g",
                (unsigned long long)u->mc_n, u->mc_mean, u->mc_se);
    fputc('}', f);
    if (w->sweep_n == 0 || w->sweep_i + 1 == w->sweep_n)
        fprintf(f, "%s\n", w->sweep_n > 0 ? "\n]" : "");
}

int em_utility_report_write(FILE *f, const em_utility_report *u, const em_mech *m,
                            const em_write_opts *o, em_error *err)
{
    static const char fn[] = "em_write";
    em_write_opts w;
    int st = em_write_begin(fn, f, u, m, o, CSV_JSON, &w, err);
    if (st != EM_OK)
        return st;
    if (!u->result || (u->nt && (!u->t || !u->p_loss_gt)))
        return em_err(err, EM_ERR_NULL, "%s: u->result, u->t or u->p_loss_gt is NULL", fn);
    for (size_t i = 0; i < u->nt; i++)
        if (!u->t[i] || !u->p_loss_gt[i])
            return em_err(err, EM_ERR_NULL, "%s: u->t[%zu] or u->p_loss_gt[%zu] is NULL", fn,
                          i, i);
    (w.format == EM_WRITE_JSON ? utility_json : utility_csv)(f, u, m, &w);
    return em_write_end(fn, f, err);
}

/* ------------------------------------------------------- cdf, density, quantile */

/* Point i of p: its exact text and the text to write, both freed with point_done. */
static int point(em_mech *m, const em_points *p, size_t i, char **x, char **shown,
                 em_error *err)
{
    if (p->at) {
        *x = *shown = (char *)p->at[i];
        return p->at[i] ? EM_OK : em_err(err, EM_ERR_NULL, "p->at[%zu] is NULL", i);
    }
    return em_num_grid_point(m, p->lo, p->hi, p->n, i, x, shown, err);
}

static void point_done(const em_points *p, char *x, char *shown)
{
    if (!p->at) {
        em_free(x);
        em_free(shown);
    }
}

/* Interval i of p ("A:B", checked here: rows before a bad one stay written) as a row
 * A,B,P(A < X <= B). */
static int interval_row(FILE *f, em_mech *m, const em_points *p, size_t i,
                        const em_write_opts *w, em_error *err)
{
    const char *t = p->at[i], *colon = t ? strchr(t, ':') : NULL;
    if (!t)
        return em_err(err, EM_ERR_NULL, "p->at[%zu] is NULL", i);
    if (!colon)
        return em_err(err, EM_ERR_PARSE, "between: expected A:B, found '%s'", t);
    char *a = strndup(t, (size_t)(colon - t)), *b = strdup(colon + 1), *v = NULL;
    int sign, st = a && b ? em_num_cmp(a, b, &sign, err) : EM_ERR_NOMEM;
    char msg[EM_ERRLEN];
    snprintf(msg, sizeof msg, "%s", err && st != EM_ERR_NOMEM ? err->msg : "out of memory");
    if (st != EM_OK)
        em_err(err, st, "%s%s", st == EM_ERR_NOMEM ? "" : "between: ", msg);
    else if (sign > 0)
        st = em_err(err, EM_ERR_DOMAIN, "between: A > B in '%s'", t);
    else if ((st = em_law_at(m, EM_LAW_INTERVAL, a, b, &v, NULL, err)) != EM_OK) {
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        em_err(err, st, "interval %zu: %s", i + 1, msg);
    } else {
        em_write_sweep_row(f, w, em_mech_view(m).epsilon, "a,b,probability", i);
        fprintf(f, "%s,%s,%s\n", a, b, v);
    }
    free(a);
    free(b);
    em_free(v);
    return st;
}

/* em_write of a continuous mechanism at o->points: its law there (o->law) */
static int points_write(FILE *f, em_mech *m, int what, const em_points *p,
                        const em_write_opts *o, em_error *err)
{
    static const char fn[] = "em_write";
    static const char *const columns[] = {"x,cdf", "x,density,log_density", "p,x"};
    em_write_opts w;
    int st = em_write_begin(fn, f, p, m, o, EM_WRITE_ACCEPTS(EM_WRITE_CSV), &w, err);
    if (st != EM_OK)
        return st;
    if (what < EM_LAW_CDF || what > EM_LAW_INTERVAL)
        return em_err(err, EM_ERR_DOMAIN, "%s: o->law (%d) is not EM_LAW_CDF, EM_LAW_DENSITY, "
                      "EM_LAW_QUANTILE or EM_LAW_INTERVAL", fn, what);
    if (!p->at && what == EM_LAW_INTERVAL)
        return em_err(err, EM_ERR_DOMAIN, "%s: intervals are p->at (\"A:B\"), not a grid", fn);
    if (!p->at && (!p->lo || !p->hi))
        return em_err(err, EM_ERR_NULL, "%s: p->at, or p->lo and p->hi, are NULL", fn);
    if ((st = em_probs_prepare(m, err)) != EM_OK)
        return st;
    for (size_t i = 0; what == EM_LAW_INTERVAL && i < p->n && !ferror(f); i++)
        if ((st = interval_row(f, m, p, i, &w, err)) != EM_OK)
            return st;
    for (size_t i = 0; what != EM_LAW_INTERVAL && i < p->n && !ferror(f); i++) {
        char *x = NULL, *shown = NULL, *v1 = NULL, *v2 = NULL;
        st = point(m, p, i, &x, &shown, err);
        if (st == EM_OK)
            st = em_law_at(m, what, x, NULL, &v1, what == EM_LAW_DENSITY ? &v2 : NULL, err);
        if (st == EM_OK) {
            em_write_sweep_row(f, &w, em_mech_view(m).epsilon, columns[what], i);
            fprintf(f, "%s,%s%s%s\n", shown, v1, v2 ? "," : "", v2 ? v2 : "");
        }
        point_done(p, x, shown);
        em_free(v1);
        em_free(v2);
        if (st != EM_OK) {
            char msg[EM_ERRLEN];
            snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
            return em_err(err, st, "point %zu: %s", i + 1, msg);
        }
    }
    return em_write_end(fn, f, err);
}
