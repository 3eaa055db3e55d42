/* em_binary.c: the binary way in and out of the high-level API (em_scn.h, em_law.h):
 * utilities as doubles, every probability in one buffer.  For bindings, where one call
 * per candidate and a decimal text per double cost more than the computation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_law.h"
#include "em_scn.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
#include "io/em_scn_binary.h"
#include "io/em_scn_text.h"
#include "api/em_obj.h"
#include "api/em_write_priv.h"

/* the messages em_scn_new gives the same values as text */
static int bad_double(const char *what, size_t i, double d, int nonneg, em_error *err)
{
    if (isnan(d))
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: bad number 'nan': NaN is not a number", what, i);
    if (isinf(d) && d > 0)
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: bad number 'inf': +inf is not allowed (only "
                      "-inf, which excludes a candidate)", what, i);
    if (nonneg && (isinf(d) || d < 0))
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: bad number '%g': must be >= 0", what, i, d);
    return EM_OK;
}

/* With a measure: the text constructor over the doubles' exact hex forms. */
static int new_d_text(size_t n, const double *u, const double *measure, em_scn **out,
                      em_error *err)
{
    char **t = calloc(2 * n, sizeof *t);
    int st = t ? EM_OK : em_err(err, EM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        if ((!isinf(u[i]) && asprintf(&t[i], "%a", u[i]) < 0) ||
            asprintf(&t[n + i], "%a", measure[i]) < 0) {
            t[i] = t[n + i] = NULL;
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        }
    }
    if (st == EM_OK)
        st = em_scn_from_text(n, (const char *const *)t, NULL, (const char *const *)(t + n), out, err);
    for (size_t i = 0; t && i < 2 * n; i++)
        free(t[i]);
    free(t);
    return st;
}

int em_scn_from_doubles(size_t n, const double *utilities, const double *measure,
                        em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_new: out is NULL");
    *out = NULL;
    if (!utilities)
        return em_err(err, EM_ERR_NULL, "em_scn_new: utilities_d is NULL");
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "no candidates (n = 0)");
    if (n > EM_SCN_MAX_N)
        return em_err(err, EM_ERR_TOO_MANY, "%zu candidates: more than the limit %zu", n,
                      (size_t)EM_SCN_MAX_N);
    for (size_t i = 0; i < n; i++) {
        int st = bad_double("utilities", i, utilities[i], 0, err);
        if (st == EM_OK && measure)
            st = bad_double("measure", i, measure[i], 1, err);
        if (st != EM_OK)
            return st;
    }
    if (measure)
        return new_d_text(n, utilities, measure, out, err);
    em_scn *s = em_scn_obj();
    if (!s)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    int st = em_scn_read_doubles(s, n, utilities, "utilities", err);
    if (st != EM_OK) {
        em_free(s);
        return st;
    }
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

struct probs_lines {
    em_mech *m;
    int log;
};

/* one probability a line: the candidates', or the pieces' of a continuous law (em_probs_get's
 * indices) */
static int probs_lines(FILE *f, const void *arg, em_error *err)
{
    const struct probs_lines *a = arg;
    int st = em_probs_prepare(a->m, err);
    const em_scn_info si = em_scn_get(a->m->scn);
    const size_t n = st == EM_OK ? si.size + si.pieces : 0;
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        em_prob p;
        st = em_probs_get(a->m, i, &p, err);
        if (st == EM_OK) {
            fputs(a->log ? p.logprob : p.prob, f);
            fputc('\n', f);
        }
    }
    return st;
}

static int probs_text_plain(em_mech *m, int log, char **out, size_t *len, em_error *err)
{
    if (!m || !out)
        return em_err(err, EM_ERR_NULL, "em_probs_text: m or out is NULL");
    const struct probs_lines a = {m, log};
    int st = em_write_text(probs_lines, &a, out, len, err);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}

int em_probs_text(em_mech *m, int log, char **out, size_t *len, em_error *err)
{
    return EM_OBJ_STRINGS(probs_text_plain(m, log, out, len, err), err, out);
}
