/* em_score_numeric.c: scores of numbers at finite candidates: median and quantile by
 * rank (core/em_score_rank.h), revenue, Laplace, randomized response. */
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

/* ------------------------------------------------------------ numeric scores */

int em_scoring_cmp_q(const void *x, const void *y)
{
    return mpq_cmp(*(const mpq_t *)x, *(const mpq_t *)y);
}

/* Ranks: the sorted distinct values of all and, for each value, its index there.  Only
   the order matters to the rank scores, so they are computed on these ranks exactly. */
int em_scoring_rank_of(mpq_t *sorted, size_t ns, const mpq_t v, int64_t *out)
{
    size_t lo = 0, hi = ns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int s = mpq_cmp(sorted[mid], v);
        if (s == 0) {
            *out = (int64_t)mid;
            return 0;
        }
        if (s < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return EM_OK;
}

int em_scoring_read_rows(const em_score_opts *o, em_rows *d, const char *rows, em_error *err)
{
    int rc = em_data_read(d, o->data, o->column, o->aggregated, err);
    if (rc == EM_OK && d->n == 0)
        rc = em_data_fail(err, "--data %s: no %s", d->name, rows);
    return rc;
}

int em_scoring_read_numbers(const em_rows *d, mpq_t **out, em_error *err)
{
    mpq_t *q = em_q_array_new(d->n);
    if (!q)
        return em_data_nomem(err);
    *out = q;
    for (size_t i = 0; i < d->n; i++) {
        const char *msg = NULL;
        int kind;
        if (em_q_parse_str(d->v[i], 0, q[i], &kind, &msg) != EM_OK)
            return em_data_fail(err, "%s:%lu: '%s' is not an exact number (%s)", d->name, d->line[i], d->v[i],
                        msg ? msg : "malformed");
    }
    return EM_OK;
}

/* v * scale as int64 (scale a common denominator, so the product is an integer). */
int em_scoring_to_int64(const mpq_t v, const mpz_t scale, int64_t *out)
{
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, mpq_numref(v), scale);
    mpz_divexact(t, t, mpq_denref(v));
    int ok = mpz_fits_slong_p(t);
    if (ok)
        *out = (int64_t)mpz_get_si(t);
    mpz_clear(t);
    return ok ? 0 : -1;
}

void em_scoring_put_scaled(FILE *out, int64_t v, const mpz_t scale)
{
    mpq_t q;
    mpq_init(q);
    mpz_set_si(mpq_numref(q), (long)v);
    mpz_set(mpq_denref(q), scale);
    mpq_canonicalize(q);
    em_scoring_put_q(out, q);
    mpq_clear(q);
}

static void print_scores(FILE *out, const em_cands *c, const int64_t *u, const mpz_t scale)
{
    for (size_t j = 0; j < c->n; j++) {
        em_csv_label(out, c->label[j]);
        fputc(',', out);
        em_scoring_put_scaled(out, u[j], scale);
        fputc('\n', out);
    }
}

/* The rows an aggregate may stand for where the core needs them one by one: 32 GiB of
   int64 at most, and the core's O(n m) rank scores would take hours beyond. */
#define EM_EXPAND_MAX ((size_t)1 << 32)

/* The core's rows from one integer per line: with an aggregate, each repeated as often as
   its count (the proven functions read rows; 8 bytes a row, no text). */
int em_scoring_expand_rows(const em_rows *d, int64_t **xi, em_error *err)
{
    if (!d->count)
        return EM_OK;
    if (d->rows > EM_EXPAND_MAX)
        return em_data_fail(err, "--data %s: %zu rows: the rank, revenue and quantile scores read "
                                 "at most 2^32 rows (count, frequency and maxnorm any number)",
                            d->name, d->rows);
    int64_t *r = malloc((d->rows ? d->rows : 1) * sizeof *r);
    if (!r)
        return em_data_nomem(err);
    size_t k = 0;
    for (size_t i = 0; i < d->n; i++)
        for (uint64_t t = 0; t < d->count[i]; t++)
            r[k++] = (*xi)[i];
    free(*xi);
    *xi = r;
    return EM_OK;
}

/* The quantile score's proven sensitivity under the relation, and its lemma. */
const char *em_scoring_quantile_delta(const mpq_t alpha, int neigh, mpq_t delta)
{
    mpq_set_ui(delta, 1, 1);
    if (neigh != NB_ADD_REMOVE)
        return "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Subst";
    mpq_sub(delta, delta, alpha);
    if (mpq_cmp(alpha, delta) > 0)
        mpq_set(delta, alpha);
    return "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Insert";
}

const char *em_scoring_median_lemma(int neigh)
{
    return neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRank_lemmas.h: Median_Insert"
                                  : "proofs/lemmas/ScoreRank_lemmas.h: Median_Subst";
}

/* --alpha of the quantile score: required, exact, 0 < alpha < 1, a denominator that fits
   the core's integers.  EM_OK or an error. */
int em_scoring_quantile_alpha(const em_score_opts *o, mpq_t alpha, em_error *err)
{
    int rc;
    if (!o->alpha)
        return em_data_fail(err, "quantile: --alpha is required (0 < alpha < 1)");
    if ((rc = em_scoring_parse_q(err, o->alpha, alpha, "--alpha")) != EM_OK)
        return rc;
    if (mpq_sgn(alpha) <= 0 || mpq_cmp_ui(alpha, 1, 1) >= 0)
        return em_data_fail(err, "--alpha %s: alpha must lie strictly between 0 and 1", o->alpha);
    if (!mpz_fits_slong_p(mpq_denref(alpha)))
        return em_data_fail(err, "--alpha %s: denominator too large", o->alpha);
    return EM_OK;
}

int em_scoring_run_rank(int fn, const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_rows d;
    em_cands c = {0};
    mpq_t *x = NULL, *all = NULL, alpha;
    int64_t *xi = NULL, *ci = NULL, *u = NULL;
    size_t nall = 0;
    mpq_init(alpha);
    int rc = EM_OK;
    if (fn == F_QUANTILE) {
        if ((rc = em_scoring_quantile_alpha(o, alpha, err)) != EM_OK)
            goto out;
    }
    if ((rc = em_scoring_read_rows(o, &d, "data rows", err)) != EM_OK)
        goto out_d;
    if (!o->candidates) {
        rc = em_data_fail(err, "%s: --candidates is required (a:b[:step] or a file)", fname);
        goto out_d;
    }
    if ((rc = em_scoring_read_numbers(&d, &x, err)) != EM_OK)
        goto done;
    if ((rc = em_cands_load(&c, o->candidates, 1, err)) != EM_OK)
        goto done;
    nall = d.n + c.n;
    all = malloc(nall * sizeof *all);
    xi = malloc(d.n * sizeof *xi);
    ci = malloc(c.n * sizeof *ci);
    u = malloc(c.n * sizeof *u);
    if (!all || !xi || !ci || !u) {
        rc = em_data_nomem(err);
        goto done;
    }
    memcpy(all, x, d.n * sizeof *all);           /* shallow copies: sorted views only */
    memcpy(all + d.n, c.q, c.n * sizeof *all);
    qsort(all, nall, sizeof *all, em_scoring_cmp_q);
    size_t ns = 0;
    for (size_t i = 0; i < nall; i++)
        if (ns == 0 || mpq_cmp(all[ns - 1], all[i]) != 0)
            memcpy(&all[ns++], &all[i], sizeof *all);
    for (size_t i = 0; i < d.n; i++)
        em_scoring_rank_of(all, ns, x[i], &xi[i]);
    for (size_t j = 0; j < c.n; j++)
        em_scoring_rank_of(all, ns, c.q[j], &ci[j]);
    if ((rc = em_scoring_expand_rows(&d, &xi, err)) != EM_OK)
        goto done;
    int st;
    mpq_t delta;
    mpq_init(delta);
    const char *def, *lemma;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    if (fn == F_MEDIAN) {
        st = em_score_median(d.rows, xi, c.n, ci, u);
        def = em_scoring_median_def;
        lemma = em_scoring_median_lemma(neigh);
        mpq_set_ui(delta, 2, 1);
    } else {
        int64_t qb = (int64_t)mpz_get_si(mpq_denref(alpha));
        if (!mpz_fits_slong_p(mpq_numref(alpha))) {
            st = EM_ERR_DOMAIN;
        } else {
            int64_t qa = (int64_t)mpz_get_si(mpq_numref(alpha));
            st = em_score_quantile(d.rows, xi, c.n, ci, qa, qb, u);
        }
        mpz_set(scale, mpq_denref(alpha));
        def = "u(x, c) = -|(1 - alpha) #{x < c} - alpha #{x > c}| (spec/Rank.acsl)";
        lemma = em_scoring_quantile_delta(alpha, neigh, delta);
    }
    if (st != EM_OK) {
        rc = em_data_fail(err, "%s: %s", fname, em_strerror(st));
    } else {
        char defbuf[256];
        if (fn == F_QUANTILE) {
            char *as = em_q_to_string(alpha, 40);
            snprintf(defbuf, sizeof defbuf, "%s, alpha = %s", def, as ? as : "?");
            free(as);
            def = defbuf;
        }
        em_scoring_header(out, fname, def, d.rows, c.n, neigh, lemma);
        em_scoring_put_sensitivity(out, delta, 0);
        print_scores(out, &c, u, scale);
    }
    mpz_clear(scale);
    mpq_clear(delta);
done:
    free(all);
    free(xi);
    free(ci);
    free(u);
    em_q_array_free(x, d.n);
    em_cands_free(&c);
out_d:
    em_rows_free(&d);
out:
    mpq_clear(alpha);
    return rc;
}

const char *em_scoring_revenue_lemma(int neigh)
{
    return neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRevenue_lemmas.h: Revenue_Insert"
                                  : "proofs/lemmas/ScoreRevenue_lemmas.h: Revenue_Subst";
}

/* lcm of the denominators of v[0..n) into scale */
static void lcm_den(mpz_t scale, mpq_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mpz_lcm(scale, scale, mpq_denref(v[i]));
}

int em_scoring_run_revenue(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_rows d;
    em_cands c = {0};
    mpq_t *x = NULL, pmax;
    int64_t *xi = NULL, *pi = NULL, *u = NULL;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    mpq_init(pmax);
    int rc = em_scoring_read_rows(o, &d, "bids", err);
    if (rc != EM_OK)
        goto out;
    if (!o->candidates) {
        rc = em_data_fail(err, "revenue: --candidates is required (prices a:b[:step], e.g. 0:3.499:0.001)");
        goto out;
    }
    if ((rc = em_scoring_read_numbers(&d, &x, err)) != EM_OK)
        goto done;
    if ((rc = em_cands_load(&c, o->candidates, 1, err)) != EM_OK)
        goto done;
    if (o->p_max) {
        if ((rc = em_scoring_parse_q(err, o->p_max, pmax, "--p-max")) != EM_OK)
            goto done;
    } else {
        mpq_set(pmax, c.q[0]);
        for (size_t j = 1; j < c.n; j++)
            if (mpq_cmp(c.q[j], pmax) > 0)
                mpq_set(pmax, c.q[j]);
    }
    if (mpq_sgn(pmax) <= 0) {
        rc = em_data_fail(err, "revenue: p_max must be > 0 (got %s)", o->p_max ? o->p_max : "the largest candidate, <= 0");
        goto done;
    }
    for (size_t j = 0; j < c.n; j++)
        if (mpq_sgn(c.q[j]) < 0 || mpq_cmp(c.q[j], pmax) > 0) {
            rc = em_data_fail(err, "revenue: price '%s' outside [0, p_max]", c.label[j]);
            goto done;
        }
    lcm_den(scale, x, d.n);
    lcm_den(scale, c.q, c.n);
    mpz_lcm(scale, scale, mpq_denref(pmax));
    xi = malloc(d.n * sizeof *xi);
    pi = malloc(c.n * sizeof *pi);
    u = malloc(c.n * sizeof *u);
    if (!xi || !pi || !u) {
        rc = em_data_nomem(err);
        goto done;
    }
    int64_t pm;
    int big = em_scoring_to_int64(pmax, scale, &pm) != 0;
    for (size_t j = 0; j < c.n && !big; j++)
        big = em_scoring_to_int64(c.q[j], scale, &pi[j]) != 0;
    for (size_t i = 0; i < d.n && !big; i++)
        if (em_scoring_to_int64(x[i], scale, &xi[i]) != 0) {
            /* a bid beyond int64 in price units: only its side of every price matters */
            xi[i] = mpq_sgn(x[i]) > 0 ? INT64_MAX : INT64_MIN;
        }
    if (big) {
        rc = em_data_fail(err, "revenue: prices too large or too fine for exact 64-bit arithmetic");
        goto done;
    }
    if ((rc = em_scoring_expand_rows(&d, &xi, err)) != EM_OK)
        goto done;
    int st = em_score_revenue(d.rows, xi, c.n, pi, pm, u);
    if (st == EM_ERR_OVERFLOW) {
        rc = em_data_fail(err, "revenue: n * p_max does not fit in 64 bits in units of the price grid");
        goto done;
    }
    if (st != EM_OK) {
        rc = em_data_fail(err, "%s: %s", fname, em_strerror(st));
        goto done;
    }
    char def[160];
    char *ps = em_q_to_string(pmax, 40);
    snprintf(def, sizeof def, "u(x, p) = p * #{bids >= p}, prices in [0, %s] (spec/Revenue.acsl)",
             ps ? ps : "?");
    free(ps);
    em_scoring_header(out, fname, def, d.rows, c.n, neigh, em_scoring_revenue_lemma(neigh));
    em_scoring_put_sensitivity(out, pmax, neigh == NB_ADD_REMOVE);
    print_scores(out, &c, u, scale);
done:
    free(xi);
    free(pi);
    free(u);
    em_q_array_free(x, d.n);
    em_cands_free(&c);
out:
    em_rows_free(&d);
    mpq_clear(pmax);
    mpz_clear(scale);
    return rc;
}

/* The em_scoring_header's definition line of the Laplace score, with the query value f. */
void em_scoring_laplace_definition(char *def, size_t len, const mpq_t f, const em_score_opts *o)
{
    char *fs = em_q_to_string(f, 40);
    snprintf(def, len, "u(x, r) = -|f(x) - r| with f(x) = %s%s (spec/ScoreLaplace.acsl)",
             fs ? fs : "?", o->f ? "" : " (the number of rows)");
    free(fs);
}

/* A failed status of the exact Laplace arithmetic (grid and range forms) as its message. */
int em_scoring_laplace_fail(int st, const char *fname, em_error *err)
{
    if (st == EM_ERR_OVERFLOW)
        return em_data_fail(err, "laplace: values too large for exact 64-bit arithmetic");
    return em_data_fail(err, "%s: %s", fname, em_strerror(st));
}

/* The Laplace score's query value f (--f, or the number of rows of --data) and its
   sensitivity Δf (--delta-f, default 1), shared by the grid and the range forms.
   EM_OK or an error. */
int em_scoring_laplace_query(const em_score_opts *o, em_rows *d, mpq_t f, mpq_t df, size_t *rows,
                             em_error *err)
{
    int rc;
    if (o->f) {
        if ((rc = em_scoring_parse_q(err, o->f, f, "--f")) != EM_OK)
            return rc;
    } else if (o->data) {
        if ((rc = em_data_read(d, o->data, o->column, o->aggregated, err)) != EM_OK)
            return rc;
        *rows = d->rows;
        mpq_set_ui(f, (unsigned long)d->rows, 1); /* f(x) = the number of rows */
    } else {
        return em_data_fail(err, "laplace: give --f F (the query value) or --data FILE (f = number of rows)");
    }
    mpq_set_ui(df, 1, 1);
    if (o->delta_f && (rc = em_scoring_parse_q(err, o->delta_f, df, "--delta-f")) != EM_OK)
        return rc;
    if (mpq_sgn(df) <= 0)
        return em_data_fail(err, "--delta-f %s: the sensitivity of f must be > 0", o->delta_f);
    return EM_OK;
}

int em_scoring_run_laplace(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_rows d = {0};
    em_cands c = {0};
    mpq_t f, df;
    mpq_inits(f, df, NULL);
    int64_t *gi = NULL, *u = NULL;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int rc = EM_OK;
    size_t rows = 0;
    if ((rc = em_scoring_laplace_query(o, &d, f, df, &rows, err)) != EM_OK)
        goto done;
    if (!o->candidates) {
        rc = em_data_fail(err, "laplace: --candidates is required (the output grid, a:b[:step])");
        goto done;
    }
    if ((rc = em_cands_load(&c, o->candidates, 1, err)) != EM_OK)
        goto done;
    lcm_den(scale, c.q, c.n);
    mpz_lcm(scale, scale, mpq_denref(f));
    gi = malloc(c.n * sizeof *gi);
    u = malloc(c.n * sizeof *u);
    if (!gi || !u) {
        rc = em_data_nomem(err);
        goto done;
    }
    int64_t fi = 0;
    int big = em_scoring_to_int64(f, scale, &fi) != 0;
    for (size_t j = 0; j < c.n && !big; j++)
        big = em_scoring_to_int64(c.q[j], scale, &gi[j]) != 0;
    int st = big ? EM_ERR_OVERFLOW : em_score_laplace(fi, c.n, gi, u);
    if (st != EM_OK) {
        rc = em_scoring_laplace_fail(st, fname, err);
        goto done;
    }
    char def[200];
    em_scoring_laplace_definition(def, sizeof def, f, o);
    em_scoring_header(out, fname, def, rows, c.n, neigh, "proofs/lemmas/ScoreMisc_lemmas.h: Laplace_Sensitivity");
    em_scoring_puts(out, em_scoring_laplace_factor);
    em_scoring_put_sensitivity(out, df, 0);
    print_scores(out, &c, u, scale);
done:
    free(gi);
    free(u);
    em_cands_free(&c);
    em_rows_free(&d);
    mpq_clears(f, df, NULL);
    mpz_clear(scale);
    return rc;
}

int em_scoring_run_rr(const char *fname, const em_score_opts *o, FILE *out, em_error *err)
{
    mpq_t beta, gamma, delta;
    mpq_inits(beta, gamma, delta, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    em_rows d = {0};
    int rc = EM_OK;
    mpq_set_si(beta, -1, 4);
    mpq_set_si(gamma, 1, 4);
    if (o->beta && (rc = em_scoring_parse_q(err, o->beta, beta, "--beta")) != EM_OK)
        goto done;
    if (o->gamma && (rc = em_scoring_parse_q(err, o->gamma, gamma, "--gamma")) != EM_OK)
        goto done;
    const char *bit;
    if (o->x) {
        bit = o->x;
    } else if (o->data) {
        if ((rc = em_data_read(&d, o->data, o->column, o->aggregated, err)) != EM_OK)
            goto done;
        if (d.n != 1) {
            rc = em_data_fail(err, "rr: the dataset is one private bit: --data must hold exactly one row "
                      "(found %zu)", d.n);
            goto done;
        }
        bit = d.v[0];
    } else {
        rc = em_data_fail(err, "rr: give the private bit with --x 0|1 or --data FILE");
        goto done;
    }
    int x;
    if (!strcmp(bit, "0"))
        x = 0;
    else if (!strcmp(bit, "1"))
        x = 1;
    else {
        rc = em_data_fail(err, "rr: the private bit must be 0 or 1 (got '%s')", bit);
        goto done;
    }
    mpq_sub(delta, beta, gamma);
    mpq_abs(delta, delta);
    if (mpq_sgn(delta) == 0) {
        rc = em_data_fail(err, "rr: beta = gamma: the score does not depend on the data (sensitivity 0)");
        goto done;
    }
    mpz_lcm(scale, mpq_denref(beta), mpq_denref(gamma));
    int64_t b, g, u[2];
    if (em_scoring_to_int64(beta, scale, &b) != 0 || em_scoring_to_int64(gamma, scale, &g) != 0) {
        rc = em_data_fail(err, "rr: beta and gamma too large for exact 64-bit arithmetic");
        goto done;
    }
    int st = em_score_rr(x, b, g, u);
    if (st != EM_OK) {
        rc = em_data_fail(err, "%s: %s", fname, em_strerror(st));
        goto done;
    }
    fprintf(out, "# expmech score %s: randomized response, u(x, 0) = 0, u(0, 1) = ", fname);
    em_scoring_put_q(out, beta);
    fprintf(out, ", u(1, 1) = ");
    em_scoring_put_q(out, gamma);
    fprintf(out, " (spec/ScoreRR.acsl); the private bit is %d\n", x);
    em_scoring_puts(out, "# neighbours: substitute the bit; sensitivity proven in "
         "proofs/lemmas/ScoreMisc_lemmas.h: RR_Sensitivity, RR_Monotone");
    em_scoring_put_sensitivity(out, delta, 1);
    em_cands c = {0};
    char l0[] = "0", l1[] = "1";
    char *labels[2] = {l0, l1};
    c.n = 2;
    c.label = labels;
    print_scores(out, &c, u, scale);
done:
    em_rows_free(&d);
    mpq_clears(beta, gamma, delta, NULL);
    mpz_clear(scale);
    return rc;
}
