/* em_conform_report.c: a suite's result as a table and as JSON (em_conform.h). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
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

/* The members of the report's objects (schema expmech-conformance-report-1), object by
 * object in the order they are written: each its key, how its value is read (J_*), and
 * where it lies in its object.  A cell of a finite check has O_CELL's members, a bin of a
 * continuous one O_BIN's, then both O_ROW's. */
enum { O_REPORT, O_CASE, O_CHECK, O_CELL, O_BIN, O_ROW, O_DIAGNOSIS, O_LAW };
enum {
    J_REAL, J_SIZE, J_U64, J_INT, J_BOOL, J_TEXT,
    J_MISTAKE,   /* int: a mistake's name, null for -1 */
    J_MISTAKES,  /* unsigned long: the names of its bits' mistakes */
    J_KIND,      /* int: a kind's name, null for -1 */
    J_EXPECT,    /* int: "error" or "law" */
    J_VERDICT,   /* int: the verdict's name */
    J_KS_P,      /* double of a check: null when no Kolmogorov-Smirnov test ran */
    J_DIAGNOSIS, /* em_diagnosis *: an object, or null */
    J_CHECK,     /* em_check_result *: an object, or null */
};
#define MEMBER(obj, T, key, type, field) {obj, key, type, offsetof(T, field)}
static const struct member {
    int obj;
    const char *key;
    int type;
    size_t off;
} members[] = {
    MEMBER(O_REPORT, em_conform_result, "summary", J_TEXT, summary),
    MEMBER(O_REPORT, em_conform_result, "diagnosis", J_TEXT, diagnosis),
    MEMBER(O_REPORT, em_conform_result, "suspects", J_MISTAKES, suspects),
    MEMBER(O_REPORT, em_conform_result, "exit_status", J_INT, exit_status),
    MEMBER(O_REPORT, em_conform_result, "alpha", J_REAL, alpha),
    MEMBER(O_REPORT, em_conform_result, "alpha_case", J_REAL, alpha_case),
    MEMBER(O_REPORT, em_conform_result, "max_runs", J_INT, max_runs),
    MEMBER(O_REPORT, em_conform_result, "quick", J_BOOL, quick),
    MEMBER(O_REPORT, em_conform_result, "max_draws", J_U64, max_draws),
    MEMBER(O_REPORT, em_conform_result, "seed", J_U64, seed),
    MEMBER(O_REPORT, em_conform_result, "seconds", J_REAL, seconds),
    MEMBER(O_REPORT, em_conform_result, "sampler_seconds", J_REAL, sampler_seconds),
    MEMBER(O_CASE, em_conform_case, "id", J_TEXT, id),
    MEMBER(O_CASE, em_conform_case, "title", J_TEXT, title),
    MEMBER(O_CASE, em_conform_case, "file", J_TEXT, file),
    MEMBER(O_CASE, em_conform_case, "kind", J_KIND, kind),
    MEMBER(O_CASE, em_conform_case, "expect", J_EXPECT, expect_error),
    MEMBER(O_CASE, em_conform_case, "verdict", J_VERDICT, verdict),
    MEMBER(O_CASE, em_conform_case, "draws", J_U64, n),
    MEMBER(O_CASE, em_conform_case, "runs", J_INT, runs),
    MEMBER(O_CASE, em_conform_case, "seed", J_U64, seed),
    MEMBER(O_CASE, em_conform_case, "p_value", J_REAL, p_value),
    MEMBER(O_CASE, em_conform_case, "alpha", J_REAL, alpha),
    MEMBER(O_CASE, em_conform_case, "power", J_REAL, power),
    MEMBER(O_CASE, em_conform_case, "weakest", J_MISTAKE, weakest),
    MEMBER(O_CASE, em_conform_case, "ruled_out", J_MISTAKES, ruled_out),
    MEMBER(O_CASE, em_conform_case, "message", J_TEXT, message),
    MEMBER(O_CASE, em_conform_case, "stderr", J_TEXT, stderr_tail),
    MEMBER(O_CASE, em_conform_case, "diagnosis", J_DIAGNOSIS, diagnosis),
    MEMBER(O_CASE, em_conform_case, "check", J_CHECK, check),
    MEMBER(O_CASE, em_conform_case, "sampler_seconds", J_REAL, sampler_seconds),
    MEMBER(O_CASE, em_conform_case, "harness_seconds", J_REAL, harness_seconds),
    MEMBER(O_CASE, em_conform_case, "harness_cpu_seconds", J_REAL, harness_cpu_seconds),
    MEMBER(O_CHECK, em_check_result, "statistic", J_REAL, statistic),
    MEMBER(O_CHECK, em_check_result, "df", J_SIZE, df),
    MEMBER(O_CHECK, em_check_result, "p_value", J_REAL, p_value),
    MEMBER(O_CHECK, em_check_result, "tail_p", J_REAL, tail_p),
    MEMBER(O_CHECK, em_check_result, "cell_p", J_REAL, cand_p),
    MEMBER(O_CHECK, em_check_result, "ks_p", J_KS_P, ks_p),
    MEMBER(O_CHECK, em_check_result, "outside", J_U64, support_count),
    MEMBER(O_CELL, em_check_row, "first", J_SIZE, first),
    MEMBER(O_CELL, em_check_row, "last", J_SIZE, last),
    MEMBER(O_CELL, em_check_row, "candidates", J_SIZE, count),
    MEMBER(O_BIN, em_check_row, "lo", J_REAL, lo),
    MEMBER(O_BIN, em_check_row, "hi", J_REAL, hi),
    MEMBER(O_ROW, em_check_row, "probability", J_REAL, probability),
    MEMBER(O_ROW, em_check_row, "expected", J_REAL, expected),
    MEMBER(O_ROW, em_check_row, "observed", J_U64, observed),
    MEMBER(O_DIAGNOSIS, em_diagnosis, "sentence", J_TEXT, sentence),
    MEMBER(O_DIAGNOSIS, em_diagnosis, "best", J_MISTAKE, best),
    MEMBER(O_DIAGNOSIS, em_diagnosis, "best_p", J_REAL, best_p),
    MEMBER(O_DIAGNOSIS, em_diagnosis, "same_law", J_MISTAKES, same),
    MEMBER(O_LAW, em_diagnosis_row, "mistake", J_MISTAKE, mistake),
    MEMBER(O_LAW, em_diagnosis_row, "p_value", J_REAL, p_value),
    MEMBER(O_LAW, em_diagnosis_row, "statistic", J_REAL, statistic),
    MEMBER(O_LAW, em_diagnosis_row, "df", J_SIZE, df),
    MEMBER(O_LAW, em_diagnosis_row, "loglik", J_REAL, loglik),
    MEMBER(O_LAW, em_diagnosis_row, "fits", J_BOOL, fits),
    MEMBER(O_LAW, em_diagnosis_row, "same_law_as", J_MISTAKE, same_law_as),
};

static json_t *member_json(const struct member *mb, const void *obj);

/* o with the members of object obj (O_*) set, read from `from` */
static json_t *put_members(json_t *o, int obj, const void *from)
{
    for (size_t i = 0; o && i < sizeof members / sizeof members[0]; i++)
        if (members[i].obj == obj)
            json_object_set_new(o, members[i].key, member_json(&members[i], from));
    return o;
}

static json_t *diagnosis_json(const em_diagnosis *d)
{
    if (!d)
        return json_null();
    json_t *o = put_members(json_object(), O_DIAGNOSIS, d), *laws = json_array();
    for (size_t i = 0; i < d->nrows; i++)
        json_array_append_new(laws, put_members(json_object(), O_LAW, &d->rows[i]));
    json_object_set_new(o, "laws", laws);
    return o;
}

static json_t *check_json(const em_check_result *r)
{
    if (!r)
        return json_null();
    json_t *o = put_members(json_object(), O_CHECK, r), *cells = json_array();
    for (size_t k = 0; k < r->nrows; k++) {
        const em_check_row *w = &r->rows[k];
        json_t *x = put_members(json_object(), isnan(w->lo) ? O_CELL : O_BIN, w);
        json_array_append_new(cells, put_members(x, O_ROW, w));
    }
    json_object_set_new(o, "cells", cells);
    return o;
}

static json_t *member_json(const struct member *mb, const void *obj)
{
    const void *p = (const char *)obj + mb->off;
    switch (mb->type) {
    case J_REAL: return jnum(*(const double *)p);
    case J_SIZE: return json_integer((json_int_t)*(const size_t *)p);
    case J_U64: return json_integer((json_int_t)*(const uint64_t *)p);
    case J_INT: return json_integer(*(const int *)p);
    case J_BOOL: return json_boolean(*(const int *)p);
    case J_TEXT: return jstr(*(const char *const *)p);
    case J_MISTAKE:
        return *(const int *)p >= 0 ? json_string(em_mistake_name(*(const int *)p)) : json_null();
    case J_MISTAKES: return mistakes_of(*(const unsigned long *)p);
    case J_KIND:
        return *(const int *)p >= 0 ? json_string(em_kind_name(*(const int *)p)) : json_null();
    case J_EXPECT: return json_string(*(const int *)p ? "error" : "law");
    case J_VERDICT: return json_string(em_conform_verdict_name(*(const int *)p));
    case J_KS_P:
        return ((const em_check_result *)obj)->ks_method ? jnum(*(const double *)p) : json_null();
    case J_DIAGNOSIS: return diagnosis_json(*(const em_diagnosis *const *)p);
    case J_CHECK: return check_json(*(const em_check_result *const *)p);
    default: return json_null();
    }
}

static int conform_report(const em_conform_result *r, FILE *f, em_error *err)
{
    json_t *root = json_object(), *cases = json_array(), *counts = json_object();
    if (!root || !cases || !counts) {
        json_decref(root), json_decref(cases), json_decref(counts);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    json_object_set_new(root, "schema", json_string("expmech-conformance-report-1"));
    put_members(root, O_REPORT, r);
    for (int v = 0; v < EM_CONFORM_NVERDICTS; v++)
        json_object_set_new(counts, em_conform_verdict_name(v),
                            json_integer((json_int_t)r->count[v]));
    json_object_set_new(root, "counts", counts);
    for (size_t i = 0; i < r->ncases; i++)
        json_array_append_new(cases, put_members(json_object(), O_CASE, &r->cases[i]));
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
