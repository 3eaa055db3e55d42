/* em_conform_report.c: a suite's result as a table and as JSON (em_conform.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "em_conform.h"
#include "base/em_error.h"
#include "api/em_obj.h"
#include "api/em_mistake_priv.h"

static void num(FILE *f, double v, const char *format, int width)
{
    if (isnan(v))
        fprintf(f, "%*s", width, "-");
    else
        fprintf(f, format, width, v);
}

/* the words of a failure: the diagnosis when there is one, else what happened */
static const char *failure_words(const em_conform_case *r)
{
    if (r->diagnosis && r->diagnosis->sentence)
        return r->diagnosis->sentence;
    return r->message;
}

static int conform_table_plain(const em_conform_result *r, char **text, em_error *err)
{
    if (!r || !text) {
        return em_err(err, EM_ERR_NULL, "em_write: result or text NULL");
    }
    *text = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    size_t w = 4;
    for (size_t i = 0; i < r->ncases; i++)
        w = strlen(r->cases[i].id) > w ? strlen(r->cases[i].id) : w;
    if (w > 40)
        w = 40;
    fprintf(f, "%-*s  %-10s  %-22s  %9s  %9s  %s\n", (int)w, "case", "kind", "verdict", "N", "p",
            "diagnosis");
    for (size_t i = 0; i < r->ncases; i++) {
        const em_conform_case *c = &r->cases[i];
        const char *kind = c->kind >= 0 ? em_kind_name(c->kind) : "?";
        fprintf(f, "%-*.*s  %-10s  %-22s  ", (int)w, (int)w, c->id, kind,
                em_conform_verdict_name(c->verdict));
        if (c->n)
            fprintf(f, "%9llu  ", (unsigned long long)c->n);
        else
            fprintf(f, "%9s  ", "-");
        if (c->p_value == 0) /* below the doubles: the chi-square tail underflowed */
            fprintf(f, "%9s", "<1e-308");
        else
            num(f, c->p_value, "%*.2g", 9);
        const char *words = c->verdict == EM_CONFORM_PASS && !c->expect_error ? "" :
                            c->verdict == EM_CONFORM_REJECT || c->verdict == EM_CONFORM_IMPOSSIBLE
                                ? failure_words(c) : c->message;
        fprintf(f, "  %s\n", words);
        int failed = c->verdict != EM_CONFORM_PASS && c->verdict != EM_CONFORM_SKIPPED;
        if (failed && words != c->message && c->message[0])
            fprintf(f, "%*s  %s\n", (int)w, "", c->message);
        if (failed && c->stderr_tail[0]) {
            const char *p = c->stderr_tail;
            while (*p) {
                const char *nl = strchr(p, '\n');
                int k = nl ? (int)(nl - p) : (int)strlen(p);
                fprintf(f, "%*s  stderr: %.*s\n", (int)w, "", k, p);
                p += k + (nl ? 1 : 0);
            }
        }
    }
    int any = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const em_conform_case *c = &r->cases[i];
        if (c->verdict != EM_CONFORM_REJECT && c->verdict != EM_CONFORM_IMPOSSIBLE)
            continue;
        if (!any++)
            fputc('\n', f);
        fprintf(f, "%s %s: %s\n", c->id, c->verdict == EM_CONFORM_REJECT ? "rejected"
                : "drew the impossible", failure_words(c));
    }
    if (r->diagnosis[0])
        fprintf(f, "\ndiagnosis: %s\n", r->diagnosis);
    fprintf(f, "\n%s\n", r->summary);
    if (fclose(f) != 0 || !buf) {
        free(buf);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    *text = buf;
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------------ JSON */

static json_t *jnum(double v)
{
    return isnan(v) ? json_null() : isinf(v) ? json_string(v > 0 ? "inf" : "-inf") : json_real(v);
}

/* a text that may hold bytes that are not UTF-8 (none should: they were made safe) */
static json_t *jstr(const char *s)
{
    json_t *j = json_string(s ? s : "");
    return j ? j : json_string("(not UTF-8)");
}

static json_t *mistakes_of(unsigned long bits)
{
    json_t *a = json_array();
    for (int m = 0; a && m < EM_MISTAKE_COUNT; m++)
        if (bits >> m & 1)
            json_array_append_new(a, json_string(em_mistake_name(m)));
    return a;
}

static json_t *diagnosis_json(const em_diagnosis *d)
{
    if (!d)
        return json_null();
    json_t *o = json_object(), *rows = json_array();
    json_object_set_new(o, "sentence", jstr(d->sentence));
    json_object_set_new(o, "best", d->best >= 0 ? json_string(em_mistake_name(d->best))
                                                : json_null());
    json_object_set_new(o, "best_p", jnum(d->best_p));
    json_object_set_new(o, "same_law", mistakes_of(d->same));
    for (size_t i = 0; i < d->nrows; i++) {
        const em_diagnosis_row *w = &d->rows[i];
        json_t *x = json_object();
        json_object_set_new(x, "mistake", json_string(em_mistake_name(w->mistake)));
        json_object_set_new(x, "p_value", jnum(w->p_value));
        json_object_set_new(x, "statistic", jnum(w->statistic));
        json_object_set_new(x, "df", json_integer((json_int_t)w->df));
        json_object_set_new(x, "loglik", jnum(w->loglik));
        json_object_set_new(x, "fits", json_boolean(w->fits));
        json_object_set_new(x, "same_law_as", w->same_law_as >= 0
                                                  ? json_string(em_mistake_name(w->same_law_as))
                                                  : json_null());
        json_array_append_new(rows, x);
    }
    json_object_set_new(o, "laws", rows);
    return o;
}

static json_t *check_json(const em_check_result *r)
{
    if (!r)
        return json_null();
    json_t *o = json_object(), *cells = json_array();
    json_object_set_new(o, "statistic", jnum(r->statistic));
    json_object_set_new(o, "df", json_integer((json_int_t)r->df));
    json_object_set_new(o, "p_value", jnum(r->p_value));
    json_object_set_new(o, "tail_p", jnum(r->tail_p));
    json_object_set_new(o, "cell_p", jnum(r->cand_p));
    json_object_set_new(o, "ks_p", r->ks_method ? jnum(r->ks_p) : json_null());
    json_object_set_new(o, "outside", json_integer((json_int_t)r->support_count));
    for (size_t k = 0; k < r->nrows; k++) {
        const em_check_row *w = &r->rows[k];
        json_t *x = json_object();
        if (isnan(w->lo)) {
            json_object_set_new(x, "first", json_integer((json_int_t)w->first));
            json_object_set_new(x, "last", json_integer((json_int_t)w->last));
            json_object_set_new(x, "candidates", json_integer((json_int_t)w->count));
        } else {
            json_object_set_new(x, "lo", jnum(w->lo));
            json_object_set_new(x, "hi", jnum(w->hi));
        }
        json_object_set_new(x, "probability", jnum(w->probability));
        json_object_set_new(x, "expected", jnum(w->expected));
        json_object_set_new(x, "observed", json_integer((json_int_t)w->observed));
        json_array_append_new(cells, x);
    }
    json_object_set_new(o, "cells", cells);
    return o;
}

static int conform_report(const em_conform_result *r, FILE *f, em_error *err)
{
    json_t *root = json_object(), *cases = json_array(), *counts = json_object();
    if (!root || !cases || !counts) {
        json_decref(root), json_decref(cases), json_decref(counts);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    json_object_set_new(root, "schema", json_string("expmech-conformance-report-1"));
    json_object_set_new(root, "summary", jstr(r->summary));
    json_object_set_new(root, "diagnosis", jstr(r->diagnosis));
    json_object_set_new(root, "suspects", mistakes_of(r->suspects));
    json_object_set_new(root, "exit_status", json_integer(r->exit_status));
    json_object_set_new(root, "alpha", jnum(r->alpha));
    json_object_set_new(root, "alpha_case", jnum(r->alpha_case));
    json_object_set_new(root, "max_runs", json_integer(r->max_runs));
    json_object_set_new(root, "quick", json_boolean(r->quick));
    json_object_set_new(root, "max_draws", json_integer((json_int_t)r->max_draws));
    json_object_set_new(root, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(root, "seconds", jnum(r->seconds));
    json_object_set_new(root, "sampler_seconds", jnum(r->sampler_seconds));
    for (int v = 0; v < EM_CONFORM_NVERDICTS; v++)
        json_object_set_new(counts, em_conform_verdict_name(v),
                            json_integer((json_int_t)r->count[v]));
    json_object_set_new(root, "counts", counts);
    for (size_t i = 0; i < r->ncases; i++) {
        const em_conform_case *c = &r->cases[i];
        json_t *o = json_object();
        json_object_set_new(o, "id", jstr(c->id));
        json_object_set_new(o, "title", jstr(c->title));
        json_object_set_new(o, "file", jstr(c->file));
        json_object_set_new(o, "kind", c->kind >= 0 ? json_string(em_kind_name(c->kind))
                                                    : json_null());
        json_object_set_new(o, "expect", json_string(c->expect_error ? "error" : "law"));
        json_object_set_new(o, "verdict", json_string(em_conform_verdict_name(c->verdict)));
        json_object_set_new(o, "draws", json_integer((json_int_t)c->n));
        json_object_set_new(o, "runs", json_integer(c->runs));
        json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
        json_object_set_new(o, "p_value", jnum(c->p_value));
        json_object_set_new(o, "alpha", jnum(c->alpha));
        json_object_set_new(o, "power", jnum(c->power));
        json_object_set_new(o, "weakest", c->weakest >= 0 ? json_string(em_mistake_name(c->weakest))
                                                          : json_null());
        json_object_set_new(o, "ruled_out", mistakes_of(c->ruled_out));
        json_object_set_new(o, "message", jstr(c->message));
        json_object_set_new(o, "stderr", jstr(c->stderr_tail));
        json_object_set_new(o, "diagnosis", diagnosis_json(c->diagnosis));
        json_object_set_new(o, "check", check_json(c->check));
        json_object_set_new(o, "sampler_seconds", jnum(c->sampler_seconds));
        json_object_set_new(o, "harness_seconds", jnum(c->harness_seconds));
        json_object_set_new(o, "harness_cpu_seconds", jnum(c->harness_cpu_seconds));
        json_array_append_new(cases, o);
    }
    json_object_set_new(root, "cases", cases);
    int st = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    st = st == 0 && fputc('\n', f) != EOF ? EM_OK : EM_ERR_DOMAIN;
    json_decref(root);
    if (st != EM_OK)
        return em_err(err, st, "em_write: write error");
    em_err_ok(err);
    return st;
}

int em_conform_result_write(FILE *f, const void *obj, const void *const *ctx,
                            const em_write_opts *o, em_error *err)
{
    (void)ctx;
    int format = o ? o->format : EM_WRITE_TEXT;
    if (format == EM_WRITE_JSON)
        return conform_report(obj, f, err);
    if (format != EM_WRITE_TEXT)
        return em_err(err, EM_ERR_DOMAIN, "em_write: a conformance result is written as text "
                                          "or JSON only");
    char *table = NULL;
    int st = conform_table_plain(obj, &table, err);
    if (st != EM_OK)
        return st;
    st = fputs(table, f) == EOF ? EM_ERR_DOMAIN : EM_OK;
    free(table);
    if (st != EM_OK)
        return em_err(err, st, "em_write: write error");
    em_err_ok(err);
    return EM_OK;
}
