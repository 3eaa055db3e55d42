/* em_score_categorical.c: count, frequency and maxnorm over categories: the candidates
 * (given or the distinct values), the core's histogram scores (core/em_count.h,
 * core/em_score_count.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmp.h>

#include "em_base.h"
#include "em_score.h"
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
#include "num/em_rational.h"

/* ------------------------------------------------------------ categorical scores */

/* The distinct data values, in order of first appearance, as the candidates. */
static int cands_from_data(em_cands *c, const em_rows *d, char **warning, em_error *err)
{
    /* distinct by value: 2, 2.0 and 02 are one candidate (the first spelling names it) */
    char **keys = malloc(d->n * sizeof *keys);
    size_t *first = malloc(d->n * sizeof *first);
    em_strmap seen = {0};
    int rc = keys && first ? em_strmap_alloc(&seen, keys, d->n, err) : em_data_nomem(err);
    size_t k = 0;
    for (size_t i = 0; i < d->n && rc == EM_OK; i++) {
        char *key = em_scoring_canon_number(d->v[i]);
        if (!key && !(key = strdup(d->v[i]))) {
            rc = em_data_nomem(err);
            break;
        }
        if (em_strmap_find(&seen, key) >= 0) {
            free(key);
            continue;
        }
        keys[k] = key;
        first[k] = i;
        em_strmap_add(&seen, k++);
    }
    em_strmap_free(&seen);
    if (rc == EM_OK)
        rc = em_cands_alloc(c, k, 0, err);
    for (size_t i = 0; i < k && rc == EM_OK; i++)
        if (!(c->label[i] = strdup(d->v[first[i]])))
            rc = em_data_nomem(err);
    for (size_t i = 0; i < k; i++)
        free(keys[i]);
    free(keys);
    free(first);
    if (rc == EM_OK &&
        asprintf(warning, "--candidates-from-data: the %zu candidates are the distinct data "
                          "values, which reveals which values occur: the output is not "
                          "differentially private (pass --candidates with a set fixed in "
                          "advance)", k) < 0) {
        *warning = NULL;
        rc = em_data_nomem(err);
    }
    return rc;
}

/* The core's (num, den).  An aggregate is the histogram em_histogram computes from its rows
   (Count(x, r), spec/Count.acsl): its counts are used as they are, with the denominators
   the core's contracts state (n for frequency, the largest count for maxnorm). */
static int count_scores(int fn, const em_rows *d, const int *codes, size_t m, uint64_t *num,
                        uint64_t *den)
{
    if (!d->count)
        return fn == F_COUNT       ? em_histogram(d->n, codes, m, num)
               : fn == F_FREQUENCY ? em_score_frequency(d->n, codes, m, num, den)
                                   : em_score_maxnorm(d->n, codes, m, num, den);
    memset(num, 0, m * sizeof *num);
    for (size_t i = 0; i < d->n; i++)
        num[codes[i]] += d->count[i]; /* at most rows: no overflow */
    if (fn == F_FREQUENCY)
        *den = d->rows;
    for (size_t r = 0; r < m && fn == F_MAXNORM; r++)
        if (num[r] > *den)
            *den = num[r];
    return EM_OK;
}

/* The candidates of o: --candidates, or the distinct values of d. */
int em_scoring_load_cands(const em_score_opts *o, const em_rows *d, em_cands *c, char **warning,
                          em_error *err)
{
    if (d->n == 0)
        return em_data_fail(err, "--data %s: no data rows", d->name);
    int rc = o->candidates ? em_cands_load(c, o->candidates, 0, err)
                           : cands_from_data(c, d, warning, err);
    if (rc == EM_OK && c->n > (size_t)INT32_MAX)
        rc = em_data_fail(err, "too many candidates for category codes");
    return rc;
}

/* The scenario text of count, frequency or maxnorm over the rows d and candidates c;
   note: a first comment line (without "# "), or NULL. */
int em_scoring_write_categorical(int fn, const char *fname, int neigh, const em_rows *d,
                                 const em_cands *c, const char *note, FILE *out, em_error *err)
{
    em_strmap map = {0};
    int *codes = NULL;
    uint64_t *num = NULL;
    size_t dup = 0;
    /* numeric candidates compare as numbers: '2' and '2.0' are one (a duplicate), and the
     * data's 2, 2.0 and 02 count for it alike; the keys are the exact values */
    char **ckey = calloc(c->n ? c->n : 1, sizeof *ckey);
    int rc = ckey ? EM_OK : em_data_nomem(err);
    for (size_t r = 0; rc == EM_OK && r < c->n; r++) {
        ckey[r] = em_scoring_canon_number(c->label[r]);
        if (!ckey[r] && !(ckey[r] = strdup(c->label[r])))
            rc = em_data_nomem(err);
    }
    if (rc == EM_OK)
        rc = em_strmap_init(&map, ckey, c->n, &dup, err);
    if (rc != EM_OK) {
        if (rc == EM_ERR_PARSE) {
            size_t first = 0;
            while (first < dup && strcmp(ckey[first], ckey[dup]))
                first++;
            if (strcmp(c->label[first], c->label[dup]))
                em_data_fail(err, "--candidates: '%s' and '%s' are the same number: numeric "
                                  "candidates compare as numbers (a duplicate)",
                             c->label[first], c->label[dup]);
            else
                em_data_fail(err, "--candidates: duplicate candidate '%s'", c->label[dup]);
        }
        goto done;
    }
    codes = malloc((d->n ? d->n : 1) * sizeof *codes);
    num = malloc(c->n * sizeof *num);
    if (!codes || !num) {
        rc = em_data_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < d->n; i++) {
        long k = em_strmap_find(&map, d->v[i]);
        if (k < 0) {
            char *cn = em_scoring_canon_number(d->v[i]);
            if (cn)
                k = em_strmap_find(&map, cn);
            free(cn);
        }
        if (k < 0) {
            rc = em_data_fail(err, "%s:%lu: value '%s' is not one of the candidates", d->name,
                              d->line[i], d->v[i]);
            goto done;
        }
        codes[i] = (int)k;
    }
    if (note)
        fprintf(out, "# %s\n", note);
    uint64_t den = 1;
    int st = count_scores(fn, d, codes, c->n, num, &den);
    const char *def, *lemma;
    mpq_t delta, u;
    mpq_inits(delta, u, NULL);
    mpq_set_ui(delta, 1, 1);
    int monotone = fn != F_FREQUENCY && neigh == NB_ADD_REMOVE;
    if (fn == F_COUNT) {
        def = "u(x, r) = #{rows equal to r} (spec/Count.acsl)";
        lemma = neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreCount_lemmas.h: Count_Insert"
                                       : "proofs/lemmas/ScoreCount_lemmas.h: Count_Subst";
    } else if (fn == F_FREQUENCY) {
        def = "u(x, r) = #{rows equal to r} / n (spec/Frequency.acsl)";
        if (neigh == NB_SUBSTITUTION) {
            lemma = "proofs/lemmas/ScoreCount_lemmas.h: Frequency_Subst (n public)";
            mpq_set_ui(delta, 1, (unsigned long)d->rows);
        } else {
            lemma = "proofs/lemmas/ScoreCount_lemmas.h: Frequency_Insert (n private; "
                    "1/(n+1) for n >= 1, 1 with the empty dataset)";
        }
    } else {
        def = "u(x, r) = #{rows equal to r} / max count (spec/Frequency.acsl)";
        lemma = neigh == NB_ADD_REMOVE
                    ? "proofs/lemmas/ScoreCount_lemmas.h: MaxNorm_Sensitivity, MaxNorm_Insert"
                    : "proofs/lemmas/ScoreCount_lemmas.h: MaxNorm_Sensitivity";
    }
    if (st != EM_OK) {
        rc = em_data_fail(err, "%s: %s", fname, em_strerror(st));
    } else {
        em_scoring_header(out, fname, def, d->rows, c->n, neigh, lemma);
        em_scoring_put_sensitivity(out, delta, monotone);
        for (size_t r = 0; r < c->n; r++) {
            em_csv_label(out, c->label[r]);
            fputc(',', out);
            mpz_set_ui(mpq_numref(u), (unsigned long)num[r]);
            mpz_set_ui(mpq_denref(u), (unsigned long)den);
            mpq_canonicalize(u);
            em_scoring_put_q(out, u);
            fputc('\n', out);
        }
    }
    mpq_clears(delta, u, NULL);
done:
    em_strmap_free(&map);
    for (size_t r = 0; ckey && r < c->n; r++)
        free(ckey[r]);
    free(ckey);
    free(codes);
    free(num);
    return rc;
}

int em_scoring_run_categorical(int fn, const char *fname, const em_score_opts *o, int neigh,
                           FILE *out, char **warning, em_error *err)
{
    em_rows d;
    em_cands c = {0};
    int rc = em_data_read(&d, o->data, o->column, o->aggregated, err);
    if (rc == EM_OK)
        rc = em_scoring_load_cands(o, &d, &c, warning, err);
    if (rc == EM_OK)
        rc = em_scoring_write_categorical(fn, fname, neigh, &d, &c, NULL, out, err);
    em_cands_free(&c);
    em_rows_free(&d);
    return rc;
}
