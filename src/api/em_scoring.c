/* em_scoring.c: scenarios from data by the proven scoring functions (em_scoring.h):
 * the options checked, the function run, its scenario text parsed into an em_scn.  The
 * numbers and the proofs behind them: spec/README.md, "Scoring functions". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmp.h>

#include "em_base.h"
#include "em_scoring.h"
#include "api/em_scn_priv.h"
#include "api/em_score_priv.h"
#include "base/em_error.h"
#include "core/em_count.h"
#include "core/em_score_count.h"
#include "core/em_score_laplace.h"
#include "core/em_score_range.h"
#include "core/em_score_rank.h"
#include "core/em_score_revenue.h"
#include "core/em_score_rr.h"
#include "io/em_data.h"
#include "io/em_text.h"
#include "num/em_rational.h"
#include "api/em_obj.h"

static const struct {
    const char *name;
    int fn;
} functions[] = {
    {"count", F_COUNT},       {"frequency", F_FREQUENCY}, {"maxnorm", F_MAXNORM},
    {"max-normalised", F_MAXNORM}, {"median", F_MEDIAN},  {"quantile", F_QUANTILE},
    {"revenue", F_REVENUE},   {"rr", F_RR},               {"randomized-response", F_RR},
    {"laplace", F_LAPLACE},   {NULL, 0}};

static int function_of(const char *name)
{
    for (int i = 0; name && functions[i].name; i++)
        if (!strcmp(name, functions[i].name))
            return functions[i].fn;
    return -1;
}

int em_scoring_known(const char *function) { return function_of(function) >= 0; }

/* ------------------------------------------------------------ options */

/* Which options each function reads, and the combinations that make sense. */
static int check_opts(const em_scoring_opts *o, int fn, int *neigh, em_error *err)
{
    const char *fname = o->function;
    struct { const char *v, *name; unsigned fns; } used[] = {
        {o->alpha, "o->alpha", 1u << F_QUANTILE},
        {o->p_max, "o->p_max", 1u << F_REVENUE},
        {o->beta, "o->beta", 1u << F_RR},
        {o->gamma, "o->gamma", 1u << F_RR},
        {o->x, "o->x", 1u << F_RR},
        {o->f, "o->f", 1u << F_LAPLACE},
        {o->delta_f, "o->delta_f", 1u << F_LAPLACE},
        {o->candidates, "o->candidates", ~(1u << F_RR)},
        {o->range, "o->range", (1u << F_REVENUE) | (1u << F_MEDIAN) | (1u << F_QUANTILE) | (1u << F_LAPLACE)},
        {o->convention, "o->convention", (1u << F_MEDIAN) | (1u << F_QUANTILE)},
        {o->candidates_from_data ? "" : NULL, "o->candidates_from_data",
         (1u << F_COUNT) | (1u << F_FREQUENCY) | (1u << F_MAXNORM)},
        {o->column, "o->column", ~0u},
        {o->aggregated ? "" : NULL, "o->aggregated", ~(1u << F_RR)},
    };
    for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
        if (used[k].v && !(used[k].fns & (1u << fn)))
            return em_data_fail(err, "option %s does not apply to '%s'", used[k].name, fname);
    if (fn == F_RR && o->x && o->data)
        return em_data_fail(err, "rr: give either o->x or o->data, not both");
    *neigh = (fn == F_FREQUENCY || fn == F_RR) ? NB_SUBSTITUTION : NB_ADD_REMOVE;
    if (o->neighbours) {
        const char *nb = o->neighbours;
        if (!strcmp(nb, "add-remove") || !strcmp(nb, "add/remove"))
            *neigh = NB_ADD_REMOVE;
        else if (!strcmp(nb, "substitution") || !strcmp(nb, "substitute"))
            *neigh = NB_SUBSTITUTION;
        else
            return em_data_fail(err, "o->neighbours %s: expected add-remove or substitution", nb);
        if (fn == F_RR && *neigh == NB_ADD_REMOVE)
            return em_data_fail(err, "rr: the dataset is one bit; only o->neighbours substitution applies");
    }
    if (fn != F_RR && fn != F_LAPLACE && !o->data)
        return em_data_fail(err, "%s: o->data FILE is required", fname);
    if (o->column && !o->data)
        return em_data_fail(err, "option o->column needs o->data FILE (a CSV file with a header line)");
    if (o->aggregated && !o->data)
        return em_data_fail(err, "option o->aggregated needs o->data FILE (lines 'value,count')");
    if (o->aggregated && o->column)
        return em_data_fail(err, "o->aggregated reads lines 'value,count' without a header line: "
                                 "no o->column");
    if (o->range && o->candidates)
        return em_data_fail(err, "give either o->candidates (finite outputs) or o->range (an interval), not both");
    if (o->range && o->p_max)
        return em_data_fail(err, "revenue o->range LO:HI: p_max is HI (no o->p_max)");
    if (o->convention && !o->range)
        return em_data_fail(err, "o->convention applies to o->range (the diffprivlib convention is a continuous one)");
    if ((fn == F_COUNT || fn == F_FREQUENCY || fn == F_MAXNORM) && !o->candidates &&
        !o->candidates_from_data)
        return em_data_fail(err, "%s: o->candidates is required (a:b[:step] or a file, fixed before "
                                 "seeing the data); o->candidates_from_data takes the distinct data "
                                 "values, which is not private", fname);
    if (o->candidates && o->candidates_from_data)
        return em_data_fail(err, "give either o->candidates or o->candidates_from_data, not both");
    return EM_OK;
}

static int run(int fn, const em_scoring_opts *o, int neigh, FILE *out, char **warning,
               em_error *err)
{
    const char *fname = o->function;
    if (o->range)
        return fn == F_LAPLACE ? em_scoring_range_laplace(fname, o, neigh, out, err)
                               : em_scoring_range_data(fn, fname, o, neigh, out, err);
    switch (fn) {
    case F_COUNT:
    case F_FREQUENCY:
    case F_MAXNORM:
        return em_scoring_run_categorical(fn, fname, o, neigh, out, warning, err);
    case F_MEDIAN:
    case F_QUANTILE:
        return em_scoring_run_rank(fn, fname, o, neigh, out, err);
    case F_REVENUE:
        return em_scoring_run_revenue(fname, o, neigh, out, err);
    case F_LAPLACE:
        return em_scoring_run_laplace(fname, o, neigh, out, err);
    default:
        return em_scoring_run_rr(fname, o, out, err);
    }
}

/* ------------------------------------------------------------ result */

struct em_scoring {
    em_scn *scn;
    char **comment;
    size_t n_comments;
    char *warning;
};

static void scoring_destroy(void *obj)
{
    em_scoring *r = obj;
    em_free(r->scn);
    for (size_t i = 0; i < r->n_comments; i++)
        free(r->comment[i]);
    free(r->comment);
    free(r->warning);
    em_obj_release(r);
}

em_scoring_info em_scoring_get(const em_scoring *r)
{
    return (em_scoring_info){r->scn, r->n_comments, (const char *const *)r->comment,
                             r->warning};
}

static int is_header(const char *line)
{
    static const char *const h[] = {"# sensitivity:", "# monotone:", "# output:", "# measure:"};
    for (size_t k = 0; k < sizeof h / sizeof h[0]; k++)
        if (!strncmp(line, h[k], strlen(h[k])))
            return 1;
    return 0;
}

/* The scenario and the comment lines of the text the scorer wrote. */
static int take_text(em_scoring *r, char *text, size_t len, em_error *err)
{
    r->scn = em_scn_obj();
    if (!r->scn)
        return em_data_nomem(err);
    r->scn->max_n = EM_N_MAX; /* the candidates o->candidates accepts */
    em_error e = {EM_OK, ""};
    int st = em_scn_read(r->scn, text, len, "expmech score", &e);
    if (st != EM_OK)
        return st == EM_ERR_NOMEM ? em_data_nomem(err) : em_data_fail(err, "%s", e.msg);
    /* the comment lines open the text */
    em_line_iter it;
    const char *p;
    size_t l, n = 0;
    em_line_iter_init(&it, text, len);
    while (em_line_next(&it, &p, &l) && l > 0 && *p == '#')
        n++;
    r->comment = calloc(n ? n : 1, sizeof *r->comment);
    if (!r->comment)
        return em_data_nomem(err);
    em_line_iter_init(&it, text, len);
    while (em_line_next(&it, &p, &l) && l > 0 && *p == '#') {
        if (is_header(p))
            continue;
        if (!(r->comment[r->n_comments] = strndup(p + 2, l - 2)))
            return em_data_nomem(err);
        r->n_comments++;
    }
    return EM_OK;
}

/* The score of o written by run (d NULL) or, over rows already read, by em_scoring_write_categorical,
   and read back. */
static int make_score(int fn, const em_scoring_opts *o, int neigh, const em_rows *d,
                      const em_cands *c, const char *note, em_scoring **out, em_error *err)
{
    em_scoring *r = em_obj_new(sizeof *r, scoring_destroy);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = r ? open_memstream(&text, &len) : NULL;
    if (!mem) {
        em_obj_release(r);
        return em_data_nomem(err);
    }
    int st = d ? em_scoring_write_categorical(fn, o->function, neigh, d, c, note, mem, err)
               : run(fn, o, neigh, mem, &r->warning, err);
    if (fclose(mem) != 0 && st == EM_OK)
        st = em_data_nomem(err);
    if (st == EM_OK)
        st = take_text(r, text, len, err);
    free(text);
    return EM_HAND_OUT(st, r, em_free, out, err);
}

static int scoring_new_any(const em_scoring_opts *o, em_scoring **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scoring_new: out is NULL");
    *out = NULL;
    if (!o)
        return em_err(err, EM_ERR_NULL, "em_scoring_new: o is NULL");
    int fn = function_of(o->function), neigh;
    if (fn < 0)
        return em_data_fail(err, "unknown scoring function '%s' (count, frequency, maxnorm, "
                                 "median, quantile, revenue, rr, laplace)",
                            o->function ? o->function : "(null)");
    int st = check_opts(o, fn, &neigh, err);
    return st != EM_OK ? st : make_score(fn, o, neigh, NULL, NULL, NULL, out, err);
}

/* em_write of a score (em_obj.h) */
static int write_scoring(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                         em_error *err)
{
    (void)ctx, (void)o;
    return em_scoring_write(f, obj, err);
}

int em_scoring_new(const em_scoring_opts *o, em_scoring **out, em_error *err)
{
    int st = scoring_new_any(o, out, err);
    if (st == EM_OK)
        em_obj_writer(*out, write_scoring, NULL, NULL);
    return st;
}

int em_score_cands(const em_scoring_opts *o, const em_rows *d, em_cands *c, char **warning,
                   em_error *err)
{
    memset(c, 0, sizeof *c);
    int fn = function_of(o->function), neigh;
    if (fn != F_COUNT && fn != F_FREQUENCY && fn != F_MAXNORM)
        return em_data_fail(err, "group_by: the function is count, frequency or maxnorm, not "
                                 "'%s'", o->function ? o->function : "(null)");
    int st = check_opts(o, fn, &neigh, err);
    return st != EM_OK ? st : em_scoring_load_cands(o, d, c, warning, err);
}

int em_score_rows(const em_scoring_opts *o, const em_rows *d, const em_cands *c,
                  const char *note, em_scoring **out, em_error *err)
{
    int fn = function_of(o->function), neigh;
    int st = check_opts(o, fn, &neigh, err);
    return st != EM_OK ? st : make_score(fn, o, neigh, d, c, note, out, err);
}

int em_scoring_write(FILE *f, const em_scoring *r, em_error *err)
{
    if (!r)
        return em_err(err, EM_ERR_NULL, "em_write: r is NULL");
    return em_scn_text_write(f, r->scn, (const char *const *)r->comment, r->n_comments, err);
}
