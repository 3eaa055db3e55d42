/* em_scores.c: scenarios from data by the proven scoring functions (em_score.h): the data
 * and candidates (io/em_data.h) turned into the core's integers, the utilities from
 * src/core/em_score_*.h and em_score_range.h, written as scenario text with the proven
 * sensitivity and parsed into an em_scn.  The numbers and the proofs behind them:
 * spec/README.md, "Scoring functions". */
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

enum { F_COUNT, F_FREQUENCY, F_MAXNORM, F_MEDIAN, F_QUANTILE, F_REVENUE, F_RR, F_LAPLACE };
enum { NB_ADD_REMOVE, NB_SUBSTITUTION };

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

int em_score_known(const char *function) { return function_of(function) >= 0; }

static int parse_q(em_error *err, const char *s, mpq_t q, const char *what)
{
    const char *msg = NULL;
    int kind;
    if (em_q_parse_str(s, 0, q, &kind, &msg) != EM_OK)
        return em_data_fail(err, "%s: '%s' is not an exact number (%s)", what, s,
                            msg ? msg : "malformed");
    return EM_OK;
}

/* q as a short exact decimal or a/b ("?" when out of memory: the parse of the text then
   fails, and the caller reports it). */
static void put_q(FILE *out, const mpq_t q)
{
    char *s = em_q_to_string(q, 40);
    fputs(s ? s : "?", out);
    free(s);
}

/* The canonical text of a number ("3.0" -> "3"), or NULL when s is not a number. */
static char *canon_number(const char *s)
{
    mpq_t q;
    mpq_init(q);
    int kind;
    char *r = NULL;
    if (em_q_parse_str(s, 0, q, &kind, NULL) == EM_OK)
        r = em_q_to_string(q, 60);
    mpq_clear(q);
    return r;
}

/* ------------------------------------------------------------ output */

static void em_puts(FILE *out, const char *s)
{
    fputs(s, out);
    fputc('\n', out);
}

static void header(FILE *out, const char *fn, const char *def, size_t rows, size_t m, int neigh,
                   const char *lemma)
{
    if (rows == 0) /* laplace with --f: no data file */
        fprintf(out, "# expmech score %s: %s; %zu candidates\n", fn, def, m);
    else
        fprintf(out, "# expmech score %s: %s; %zu rows, %zu candidates\n", fn, def, rows, m);
    fprintf(out, "# neighbours: %s; sensitivity proven in %s\n",
            neigh == NB_ADD_REMOVE ? "add/remove one row" : "substitute one row", lemma);
}

static void put_sensitivity(FILE *out, const mpq_t delta, int monotone)
{
    fputs("# sensitivity: ", out);
    put_q(out, delta);
    fputc('\n', out);
    if (monotone)
        em_puts(out, "# monotone: yes");
}

/* ------------------------------------------------------------ categorical scores */

/* The distinct data values, in order of first appearance, as the candidates. */
static int cands_from_data(em_cands *c, const em_lines *d, char **warning, em_error *err)
{
    char **keys = malloc(d->n * sizeof *keys);
    em_strmap seen = {0};
    int rc = keys ? em_strmap_alloc(&seen, keys, d->n, err) : em_data_nomem(err);
    size_t k = 0;
    for (size_t i = 0; i < d->n && rc == EM_OK; i++) {
        if (em_strmap_find(&seen, d->v[i]) >= 0)
            continue;
        keys[k] = d->v[i];
        em_strmap_add(&seen, k++);
    }
    em_strmap_free(&seen);
    if (rc == EM_OK)
        rc = em_cands_alloc(c, k, 0, err);
    for (size_t i = 0; i < k && rc == EM_OK; i++)
        if (!(c->label[i] = strdup(keys[i])))
            rc = em_data_nomem(err);
    free(keys);
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
static int count_scores(int fn, const em_lines *d, const int *codes, size_t m, uint64_t *num,
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
static int load_cands(const em_score_opts *o, const em_lines *d, em_cands *c, char **warning,
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
static int write_categorical(int fn, const char *fname, int neigh, const em_lines *d,
                             const em_cands *c, const char *note, FILE *out, em_error *err)
{
    em_strmap map = {0};
    int *codes = NULL;
    uint64_t *num = NULL;
    size_t dup = 0;
    int rc = em_strmap_init(&map, c->label, c->n, &dup, err);
    if (rc != EM_OK) {
        if (rc == EM_ERR_PARSE)
            em_data_fail(err, "--candidates: duplicate candidate '%s'", c->label[dup]);
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
            char *cn = canon_number(d->v[i]);
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
        header(out, fname, def, d->rows, c->n, neigh, lemma);
        put_sensitivity(out, delta, monotone);
        for (size_t r = 0; r < c->n; r++) {
            em_csv_label(out, c->label[r]);
            fputc(',', out);
            mpz_set_ui(mpq_numref(u), (unsigned long)num[r]);
            mpz_set_ui(mpq_denref(u), (unsigned long)den);
            mpq_canonicalize(u);
            put_q(out, u);
            fputc('\n', out);
        }
    }
    mpq_clears(delta, u, NULL);
done:
    em_strmap_free(&map);
    free(codes);
    free(num);
    return rc;
}

static int run_categorical(int fn, const char *fname, const em_score_opts *o, int neigh,
                           FILE *out, char **warning, em_error *err)
{
    em_lines d;
    em_cands c = {0};
    int rc = em_data_read(&d, o->data, o->column, o->aggregated, err);
    if (rc == EM_OK)
        rc = load_cands(o, &d, &c, warning, err);
    if (rc == EM_OK)
        rc = write_categorical(fn, fname, neigh, &d, &c, NULL, out, err);
    em_cands_free(&c);
    em_lines_free(&d);
    return rc;
}

/* ------------------------------------------------------------ numeric scores */

static int cmp_q(const void *x, const void *y)
{
    return mpq_cmp(*(const mpq_t *)x, *(const mpq_t *)y);
}

/* Ranks: the sorted distinct values of all and, for each value, its index there.  Only
   the order matters to the rank scores, so they are computed on these ranks exactly. */
static int rank_of(mpq_t *sorted, size_t ns, const mpq_t v, int64_t *out)
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

static int read_numbers(const em_lines *d, mpq_t **out, em_error *err)
{
    mpq_t *q = malloc((d->n ? d->n : 1) * sizeof *q);
    if (!q)
        return em_data_nomem(err);
    for (size_t i = 0; i < d->n; i++)
        mpq_init(q[i]);
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

static void free_numbers(mpq_t *q, size_t n)
{
    if (!q)
        return;
    for (size_t i = 0; i < n; i++)
        mpq_clear(q[i]);
    free(q);
}

/* v * scale as int64 (scale a common denominator, so the product is an integer). */
static int to_int64(const mpq_t v, const mpz_t scale, int64_t *out)
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

static void put_scaled(FILE *out, int64_t v, const mpz_t scale)
{
    mpq_t q;
    mpq_init(q);
    mpz_set_si(mpq_numref(q), (long)v);
    mpz_set(mpq_denref(q), scale);
    mpq_canonicalize(q);
    put_q(out, q);
    mpq_clear(q);
}

static void print_scores(FILE *out, const em_cands *c, const int64_t *u, const mpz_t scale)
{
    for (size_t j = 0; j < c->n; j++) {
        em_csv_label(out, c->label[j]);
        fputc(',', out);
        put_scaled(out, u[j], scale);
        fputc('\n', out);
    }
}

/* The rows an aggregate may stand for where the core needs them one by one: 32 GiB of
   int64 at most, and the core's O(n m) rank scores would take hours beyond. */
#define EM_EXPAND_MAX ((size_t)1 << 32)

/* The core's rows from one integer per line: with an aggregate, each repeated as often as
   its count (the proven functions read rows; 8 bytes a row, no text). */
static int expand_rows(const em_lines *d, int64_t **xi, em_error *err)
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
static const char *quantile_delta(const mpq_t alpha, int neigh, mpq_t delta)
{
    mpq_set_ui(delta, 1, 1);
    if (neigh != NB_ADD_REMOVE)
        return "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Subst";
    mpq_sub(delta, delta, alpha);
    if (mpq_cmp(alpha, delta) > 0)
        mpq_set(delta, alpha);
    return "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Insert";
}

static const char median_def[] =
    "u(A, c) = -min |A (+) B| over B of the same size with lower median c (spec/Rank.acsl)";

static const char *median_lemma(int neigh)
{
    return neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRank_lemmas.h: Median_Insert"
                                  : "proofs/lemmas/ScoreRank_lemmas.h: Median_Subst";
}

/* --alpha of the quantile score: required, exact, 0 < alpha < 1, a denominator that fits
   the core's integers.  EM_OK or an error. */
static int quantile_alpha(const em_score_opts *o, mpq_t alpha, em_error *err)
{
    int rc;
    if (!o->alpha)
        return em_data_fail(err, "quantile: --alpha is required (0 < alpha < 1)");
    if ((rc = parse_q(err, o->alpha, alpha, "--alpha")) != EM_OK)
        return rc;
    if (mpq_sgn(alpha) <= 0 || mpq_cmp_ui(alpha, 1, 1) >= 0)
        return em_data_fail(err, "--alpha %s: alpha must lie strictly between 0 and 1", o->alpha);
    if (!mpz_fits_slong_p(mpq_denref(alpha)))
        return em_data_fail(err, "--alpha %s: denominator too large", o->alpha);
    return EM_OK;
}

static int run_rank(int fn, const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_lines d;
    em_cands c = {0};
    mpq_t *x = NULL, *all = NULL, alpha;
    int64_t *xi = NULL, *ci = NULL, *u = NULL;
    size_t nall = 0;
    mpq_init(alpha);
    int rc = EM_OK;
    if (fn == F_QUANTILE) {
        if ((rc = quantile_alpha(o, alpha, err)) != EM_OK)
            goto out;
    }
    if ((rc = em_data_read(&d, o->data, o->column, o->aggregated, err)) != EM_OK)
        goto out_d;
    if (d.n == 0) {
        rc = em_data_fail(err, "--data %s: no data rows", d.name);
        goto out_d;
    }
    if (!o->candidates) {
        rc = em_data_fail(err, "%s: --candidates is required (a:b[:step] or a file)", fname);
        goto out_d;
    }
    if ((rc = read_numbers(&d, &x, err)) != EM_OK)
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
    qsort(all, nall, sizeof *all, cmp_q);
    size_t ns = 0;
    for (size_t i = 0; i < nall; i++)
        if (ns == 0 || mpq_cmp(all[ns - 1], all[i]) != 0)
            memcpy(&all[ns++], &all[i], sizeof *all);
    for (size_t i = 0; i < d.n; i++)
        rank_of(all, ns, x[i], &xi[i]);
    for (size_t j = 0; j < c.n; j++)
        rank_of(all, ns, c.q[j], &ci[j]);
    if ((rc = expand_rows(&d, &xi, err)) != EM_OK)
        goto done;
    int st;
    mpq_t delta;
    mpq_init(delta);
    const char *def, *lemma;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    if (fn == F_MEDIAN) {
        st = em_score_median(d.rows, xi, c.n, ci, u);
        def = median_def;
        lemma = median_lemma(neigh);
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
        lemma = quantile_delta(alpha, neigh, delta);
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
        header(out, fname, def, d.rows, c.n, neigh, lemma);
        put_sensitivity(out, delta, 0);
        print_scores(out, &c, u, scale);
    }
    mpz_clear(scale);
    mpq_clear(delta);
done:
    free(all);
    free(xi);
    free(ci);
    free(u);
    free_numbers(x, d.n);
    em_cands_free(&c);
out_d:
    em_lines_free(&d);
out:
    mpq_clear(alpha);
    return rc;
}

static const char *revenue_lemma(int neigh)
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

static int run_revenue(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_lines d;
    em_cands c = {0};
    mpq_t *x = NULL, pmax;
    int64_t *xi = NULL, *pi = NULL, *u = NULL;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    mpq_init(pmax);
    int rc = em_data_read(&d, o->data, o->column, o->aggregated, err);
    if (rc != EM_OK)
        goto out;
    if (d.n == 0) {
        rc = em_data_fail(err, "--data %s: no bids", d.name);
        goto out;
    }
    if (!o->candidates) {
        rc = em_data_fail(err, "revenue: --candidates is required (prices a:b[:step], e.g. 0:3.499:0.001)");
        goto out;
    }
    if ((rc = read_numbers(&d, &x, err)) != EM_OK)
        goto done;
    if ((rc = em_cands_load(&c, o->candidates, 1, err)) != EM_OK)
        goto done;
    if (o->p_max) {
        if ((rc = parse_q(err, o->p_max, pmax, "--p-max")) != EM_OK)
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
    int big = to_int64(pmax, scale, &pm) != 0;
    for (size_t j = 0; j < c.n && !big; j++)
        big = to_int64(c.q[j], scale, &pi[j]) != 0;
    for (size_t i = 0; i < d.n && !big; i++)
        if (to_int64(x[i], scale, &xi[i]) != 0) {
            /* a bid beyond int64 in price units: only its side of every price matters */
            xi[i] = mpq_sgn(x[i]) > 0 ? INT64_MAX : INT64_MIN;
        }
    if (big) {
        rc = em_data_fail(err, "revenue: prices too large or too fine for exact 64-bit arithmetic");
        goto done;
    }
    if ((rc = expand_rows(&d, &xi, err)) != EM_OK)
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
    header(out, fname, def, d.rows, c.n, neigh, revenue_lemma(neigh));
    put_sensitivity(out, pmax, neigh == NB_ADD_REMOVE);
    print_scores(out, &c, u, scale);
done:
    free(xi);
    free(pi);
    free(u);
    free_numbers(x, d.n);
    em_cands_free(&c);
out:
    em_lines_free(&d);
    mpq_clear(pmax);
    mpz_clear(scale);
    return rc;
}

static const char laplace_factor[] = "# the factor of 2 of seed 002: spec/Theorems.md section 6";

/* The header's definition line of the Laplace score, with the query value f. */
static void laplace_definition(char *def, size_t len, const mpq_t f, const em_score_opts *o)
{
    char *fs = em_q_to_string(f, 40);
    snprintf(def, len, "u(x, r) = -|f(x) - r| with f(x) = %s%s (spec/ScoreLaplace.acsl)",
             fs ? fs : "?", o->f ? "" : " (the number of rows)");
    free(fs);
}

/* A failed status of the exact Laplace arithmetic (grid and range forms) as its message. */
static int laplace_fail(int st, const char *fname, em_error *err)
{
    if (st == EM_ERR_OVERFLOW)
        return em_data_fail(err, "laplace: values too large for exact 64-bit arithmetic");
    return em_data_fail(err, "%s: %s", fname, em_strerror(st));
}

/* The Laplace score's query value f (--f, or the number of rows of --data) and its
   sensitivity Δf (--delta-f, default 1), shared by the grid and the range forms.
   EM_OK or an error. */
static int laplace_query(const em_score_opts *o, em_lines *d, mpq_t f, mpq_t df, size_t *rows,
                         em_error *err)
{
    int rc;
    if (o->f) {
        if ((rc = parse_q(err, o->f, f, "--f")) != EM_OK)
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
    if (o->delta_f && (rc = parse_q(err, o->delta_f, df, "--delta-f")) != EM_OK)
        return rc;
    if (mpq_sgn(df) <= 0)
        return em_data_fail(err, "--delta-f %s: the sensitivity of f must be > 0", o->delta_f);
    return EM_OK;
}

static int run_laplace(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_lines d = {0};
    em_cands c = {0};
    mpq_t f, df;
    mpq_inits(f, df, NULL);
    int64_t *gi = NULL, *u = NULL;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int rc = EM_OK;
    size_t rows = 0;
    if ((rc = laplace_query(o, &d, f, df, &rows, err)) != EM_OK)
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
    int big = to_int64(f, scale, &fi) != 0;
    for (size_t j = 0; j < c.n && !big; j++)
        big = to_int64(c.q[j], scale, &gi[j]) != 0;
    int st = big ? EM_ERR_OVERFLOW : em_score_laplace(fi, c.n, gi, u);
    if (st != EM_OK) {
        rc = laplace_fail(st, fname, err);
        goto done;
    }
    char def[200];
    laplace_definition(def, sizeof def, f, o);
    header(out, fname, def, rows, c.n, neigh, "proofs/lemmas/ScoreMisc_lemmas.h: Laplace_Sensitivity");
    em_puts(out, laplace_factor);
    put_sensitivity(out, df, 0);
    print_scores(out, &c, u, scale);
done:
    free(gi);
    free(u);
    em_cands_free(&c);
    em_lines_free(&d);
    mpq_clears(f, df, NULL);
    mpz_clear(scale);
    return rc;
}

static int run_rr(const char *fname, const em_score_opts *o, FILE *out, em_error *err)
{
    mpq_t beta, gamma, delta;
    mpq_inits(beta, gamma, delta, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    em_lines d = {0};
    int rc = EM_OK;
    mpq_set_si(beta, -1, 4);
    mpq_set_si(gamma, 1, 4);
    if (o->beta && (rc = parse_q(err, o->beta, beta, "--beta")) != EM_OK)
        goto done;
    if (o->gamma && (rc = parse_q(err, o->gamma, gamma, "--gamma")) != EM_OK)
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
    if (to_int64(beta, scale, &b) != 0 || to_int64(gamma, scale, &g) != 0) {
        rc = em_data_fail(err, "rr: beta and gamma too large for exact 64-bit arithmetic");
        goto done;
    }
    int st = em_score_rr(x, b, g, u);
    if (st != EM_OK) {
        rc = em_data_fail(err, "%s: %s", fname, em_strerror(st));
        goto done;
    }
    fprintf(out, "# expmech score %s: randomized response, u(x, 0) = 0, u(0, 1) = ", fname);
    put_q(out, beta);
    fprintf(out, ", u(1, 1) = ");
    put_q(out, gamma);
    fprintf(out, " (spec/ScoreRR.acsl); the private bit is %d\n", x);
    em_puts(out, "# neighbours: substitute the bit; sensitivity proven in "
         "proofs/lemmas/ScoreMisc_lemmas.h: RR_Sensitivity, RR_Monotone");
    put_sensitivity(out, delta, 1);
    em_cands c = {0};
    char l0[] = "0", l1[] = "1";
    char *labels[2] = {l0, l1};
    c.n = 2;
    c.label = labels;
    print_scores(out, &c, u, scale);
done:
    em_lines_free(&d);
    mpq_clears(beta, gamma, delta, NULL);
    mpz_clear(scale);
    return rc;
}

/* ------------------------------------------------------------ scores over a range */

/* "LO:HI": exact numbers; with allow_inf, LO may be -inf and HI inf (or +inf, infinity). */
static int parse_range(const char *spec, mpq_t lo, mpq_t hi, int *lo_inf, int *hi_inf, int allow_inf,
                       em_error *err)
{
    *lo_inf = *hi_inf = 0;
    const char *c = strchr(spec, ':');
    if (!c || strchr(c + 1, ':'))
        return em_data_fail(err, "--range %s: expected LO:HI", spec);
    const char *hs = c + 1;
    size_t ln = (size_t)(c - spec);
    const char *msg = NULL;
    int kind;
    if (em_q_parse(spec, ln, 1, lo, &kind, &msg) != EM_OK)
        return em_data_fail(err, "--range %s: LO is not an exact number%s (%s)", spec,
                    allow_inf ? " or -inf" : "", msg ? msg : "malformed");
    if (kind == EM_Q_NEG_INF) {
        if (!allow_inf)
            return em_data_fail(err, "--range %s: LO must be finite (only laplace accepts -inf)", spec);
        *lo_inf = 1;
    }
    if (!strcasecmp(hs, "inf") || !strcasecmp(hs, "+inf") || !strcasecmp(hs, "infinity") ||
        !strcasecmp(hs, "+infinity")) {
        if (!allow_inf)
            return em_data_fail(err, "--range %s: HI must be finite (only laplace accepts inf)", spec);
        *hi_inf = 1;
    } else if (em_q_parse_str(hs, 0, hi, &kind, &msg) != EM_OK) {
        return em_data_fail(err, "--range %s: HI is not an exact number%s (%s)", spec, allow_inf ? " or inf" : "",
                    msg ? msg : "malformed");
    }
    if (!*lo_inf && !*hi_inf && mpq_cmp(lo, hi) >= 0)
        return em_data_fail(err, "--range %s: the range is empty (LO must be < HI)", spec);
    return EM_OK;
}

static void put_end(FILE *out, const mpq_t v, int inf, const char *inf_text)
{
    if (inf)
        fputs(inf_text, out);
    else
        put_q(out, v);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static void range_header(FILE *out, const char *fn, const char *def, const char *range, size_t rows, size_t k,
                         int neigh, const char *lemma, const mpq_t delta, int monotone)
{
    fprintf(out, "# expmech score %s --range %s: %s; pieces: spec/ScoreRange.acsl, proven in "
           "src/core/em_score_range.h\n", fn, range, def);
    if (rows)
        fprintf(out, "# %zu rows, %zu pieces 'lo,hi,a,b': u(r) = a + b r inside each piece\n", rows, k);
    else
        fprintf(out, "# %zu pieces 'lo,hi,a,b': u(r) = a + b r inside each piece\n", k);
    fprintf(out, "# neighbours: %s; sensitivity proven in %s\n",
           neigh == NB_ADD_REMOVE ? "add/remove one row" : "substitute one row", lemma);
    em_puts(out, "# output: continuous");
    put_sensitivity(out, delta, monotone);
}

static int range_laplace(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_lines d = {0};
    mpq_t f, df, lo, hi;
    mpq_inits(f, df, lo, hi, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int rc = EM_OK, lo_inf, hi_inf;
    size_t rows = 0;
    if ((rc = laplace_query(o, &d, f, df, &rows, err)) != EM_OK)
        goto done;
    if ((rc = parse_range(o->range, lo, hi, &lo_inf, &hi_inf, 1, err)) != EM_OK)
        goto done;
    mpz_lcm(scale, scale, mpq_denref(f));
    if (!lo_inf)
        mpz_lcm(scale, scale, mpq_denref(lo));
    if (!hi_inf)
        mpz_lcm(scale, scale, mpq_denref(hi));
    int64_t fi = 0, li = 0, hv = 0;
    int big = to_int64(f, scale, &fi) != 0 || (!lo_inf && to_int64(lo, scale, &li) != 0) ||
              (!hi_inf && to_int64(hi, scale, &hv) != 0);
    em_piece pc[2];
    size_t k = 0;
    int st = big ? EM_ERR_OVERFLOW : em_range_laplace(fi, lo_inf, li, hi_inf, hv, pc, &k);
    if (st != EM_OK) {
        rc = laplace_fail(st, fname, err);
        goto done;
    }
    char def[200];
    laplace_definition(def, sizeof def, f, o);
    range_header(out, fname, def, o->range, rows, k, neigh,
                 "proofs/lemmas/ScoreMisc_lemmas.h: Laplace_Sensitivity", df, 0);
    em_puts(out, laplace_factor);
    for (size_t j = 0; j < k; j++) {
        /* only the outer ends can be infinite: pieces meet at the finite f */
        if (j == 0)
            put_end(out, lo, lo_inf, "-inf");
        else
            put_scaled(out, pc[j].lo, scale);
        fputc(',', out);
        if (j == k - 1)
            put_end(out, hi, hi_inf, "inf");
        else
            put_scaled(out, pc[j].hi, scale);
        fputc(',', out);
        put_scaled(out, pc[j].a, scale); /* a is in units; b (+-1) is a pure slope */
        fprintf(out, ",%lld\n", (long long)pc[j].b);
    }
done:
    em_lines_free(&d);
    mpq_clears(f, df, lo, hi, NULL);
    mpz_clear(scale);
    return rc;
}

/* revenue, median and quantile over [LO, HI]: the data converted to the core's integers,
   sorted here (the core checks the order), the pieces from the core, printed. */
static int range_data(int fn, const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_lines d = {0};
    mpq_t *x = NULL, *vals = NULL, lo, hi, alpha, delta;
    mpq_inits(lo, hi, alpha, delta, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int64_t *xi = NULL;
    em_piece *pc = NULL;
    int rc = EM_OK, lo_inf, hi_inf;
    int dpl = 0; /* --convention diffprivlib */
    if (o->convention) {
        if (fn == F_REVENUE) {
            rc = em_data_fail(err, "option --convention does not apply to 'revenue'");
            goto out;
        }
        if (!strcmp(o->convention, "diffprivlib"))
            dpl = 1;
        else if (strcmp(o->convention, "rank-distance")) {
            rc = em_data_fail(err, "--convention %s: expected rank-distance or diffprivlib", o->convention);
            goto out;
        }
    }
    if (fn == F_QUANTILE) {
        if ((rc = quantile_alpha(o, alpha, err)) != EM_OK)
            goto out;
    } else if (fn == F_MEDIAN && dpl) {
        mpq_set_ui(alpha, 1, 2); /* diffprivlib's median is its 50th percentile */
    }
    if ((rc = parse_range(o->range, lo, hi, &lo_inf, &hi_inf, 0, err)) != EM_OK)
        goto out;
    if (fn == F_REVENUE && mpq_sgn(lo) < 0) {
        rc = em_data_fail(err, "--range %s: prices are >= 0 (revenue needs 0 <= LO)", o->range);
        goto out;
    }
    if ((rc = em_data_read(&d, o->data, o->column, o->aggregated, err)) != EM_OK)
        goto out;
    if (d.n == 0) {
        rc = em_data_fail(err, "--data %s: no data rows", d.name);
        goto out;
    }
    if ((rc = read_numbers(&d, &x, err)) != EM_OK)
        goto done;
    xi = malloc(d.n * sizeof *xi);
    vals = malloc((d.n + 2) * sizeof *vals);
    if (!xi || !vals) {
        rc = em_data_nomem(err);
        goto done;
    }
    int64_t li = 0, hv = 0;
    size_t nv = 0;
    if (fn == F_REVENUE) {
        /* Price units: the revenue is linear in the price, so the core works on the prices
           themselves, scaled by a common denominator, doubled so that every open piece
           holds an integer (the contract speaks of the integers inside a piece).  A bid
           outside [LO, HI] lies below or above every price: only its side is kept. */
        mpz_lcm(scale, mpq_denref(lo), mpq_denref(hi));
        for (size_t i = 0; i < d.n; i++)
            if (mpq_cmp(x[i], lo) >= 0 && mpq_cmp(x[i], hi) <= 0)
                mpz_lcm(scale, scale, mpq_denref(x[i]));
        mpz_mul_ui(scale, scale, 2);
        if (to_int64(lo, scale, &li) != 0 || to_int64(hi, scale, &hv) != 0) {
            rc = em_data_fail(err, "revenue: --range %s too large or the bids too fine for exact 64-bit arithmetic",
                      o->range);
            goto done;
        }
        for (size_t i = 0; i < d.n; i++) {
            if (mpq_cmp(x[i], lo) < 0)
                xi[i] = INT64_MIN;
            else if (mpq_cmp(x[i], hi) > 0)
                xi[i] = INT64_MAX;
            else
                to_int64(x[i], scale, &xi[i]); /* fits: between LO and HI */
        }
    } else {
        /* The rank scores depend only on the order: the distinct values of the data and the
           two ends, sorted, value number t at 2t (even), so that every gap holds an odd
           integer for the contract's open pieces.  Pieces end at ends or rows: even. */
        memcpy(vals, x, d.n * sizeof *vals); /* shallow copies: sorted views only */
        memcpy(&vals[d.n], lo, sizeof *vals);
        memcpy(&vals[d.n + 1], hi, sizeof *vals);
        qsort(vals, d.n + 2, sizeof *vals, cmp_q);
        for (size_t i = 0; i < d.n + 2; i++)
            if (nv == 0 || mpq_cmp(vals[nv - 1], vals[i]) != 0)
                memcpy(&vals[nv++], &vals[i], sizeof *vals);
        int64_t t = 0;
        for (size_t i = 0; i < d.n; i++) {
            rank_of(vals, nv, x[i], &t);
            xi[i] = 2 * t;
        }
        rank_of(vals, nv, lo, &t);
        li = 2 * t;
        rank_of(vals, nv, hi, &t);
        hv = 2 * t;
    }
    if ((rc = expand_rows(&d, &xi, err)) != EM_OK)
        goto done;
    qsort(xi, d.rows, sizeof *xi, cmp_i64);
    if (!(pc = malloc((d.rows + 1) * sizeof *pc))) {
        rc = em_data_nomem(err);
        goto done;
    }
    size_t k = 0;
    int st;
    int64_t qb = 1;
    const char *def, *lemma;
    char defbuf[320];
    int monotone = 0;
    if (fn == F_REVENUE) {
        st = em_range_revenue(d.rows, xi, li, hv, pc, &k);
        def = "u(x, p) = p * #{bids >= p} (spec/Revenue.acsl), p_max = HI";
        lemma = revenue_lemma(neigh);
        mpq_set(delta, hi);
        monotone = neigh == NB_ADD_REMOVE;
    } else if (fn == F_MEDIAN && !dpl) {
        st = em_range_median(d.rows, xi, li, hv, pc, &k);
        def = median_def;
        lemma = median_lemma(neigh);
        mpq_set_ui(delta, 2, 1);
    } else {
        qb = (int64_t)mpz_get_si(mpq_denref(alpha));
        if (!mpz_fits_slong_p(mpq_numref(alpha)))
            st = EM_ERR_DOMAIN;
        else
            st = em_range_quantile(d.rows, xi, li, hv, (int64_t)mpz_get_si(mpq_numref(alpha)), qb, pc, &k);
        char *as = em_q_to_string(alpha, 40);
        if (dpl) {
            /* The same pieces (QuantileOf_Diffprivlib); diffprivlib declares Delta 1, a valid
               bound under both relations (>= max(alpha, 1 - alpha) and >= 1). */
            snprintf(defbuf, sizeof defbuf,
                     "diffprivlib's convention u = -|i - alpha n| on the gap above the i smallest "
                     "rows, alpha = %s, with its Delta 1 (= our quantile score between rows, "
                     "spec/README.md)", as ? as : "?");
            lemma = neigh == NB_ADD_REMOVE
                        ? "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Insert (1 >= max(alpha, 1 - alpha))"
                        : "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Subst";
            mpq_set_ui(delta, 1, 1);
        } else {
            snprintf(defbuf, sizeof defbuf,
                     "u(x, c) = -|(1 - alpha) #{x < c} - alpha #{x > c}| (spec/Rank.acsl), alpha = %s",
                     as ? as : "?");
            lemma = quantile_delta(alpha, neigh, delta);
        }
        free(as);
        def = defbuf;
    }
    if (st == EM_ERR_OVERFLOW) {
        rc = em_data_fail(err, "%s: too many rows for exact 64-bit scores", fname);
        goto done;
    }
    if (st != EM_OK) {
        rc = em_data_fail(err, "%s: %s", fname, em_strerror(st));
        goto done;
    }
    range_header(out, fname, def, o->range, d.rows, k, neigh, lemma, delta, monotone);
    mpz_t uscale;
    mpz_init_set_si(uscale, (long)qb);
    for (size_t j = 0; j < k; j++) {
        if (fn == F_REVENUE) {
            put_scaled(out, pc[j].lo, scale);
            fputc(',', out);
            put_scaled(out, pc[j].hi, scale);
            /* u(p) = p * count in real prices too: a = 0, b = the count (no unit) */
            fprintf(out, ",0,%lld\n", (long long)pc[j].b);
        } else {
            put_q(out, vals[pc[j].lo / 2]);
            fputc(',', out);
            put_q(out, vals[pc[j].hi / 2]);
            fputc(',', out);
            put_scaled(out, pc[j].a, uscale); /* the quantile core works in units of 1/qb */
            em_puts(out, ",0");
        }
    }
    mpz_clear(uscale);
done:
    free(xi);
    free(pc);
    free(vals);
    free_numbers(x, d.n);
out:
    em_lines_free(&d);
    mpq_clears(lo, hi, alpha, delta, NULL);
    mpz_clear(scale);
    return rc;
}
/* ------------------------------------------------------------ options */

/* Which options each function reads, and the combinations that make sense. */
static int check_opts(const em_score_opts *o, int fn, int *neigh, em_error *err)
{
    const char *fname = o->function;
    struct { const char *v, *name; unsigned fns; } used[] = {
        {o->alpha, "--alpha", 1u << F_QUANTILE},
        {o->p_max, "--p-max", 1u << F_REVENUE},
        {o->beta, "--beta", 1u << F_RR},
        {o->gamma, "--gamma", 1u << F_RR},
        {o->x, "--x", 1u << F_RR},
        {o->f, "--f", 1u << F_LAPLACE},
        {o->delta_f, "--delta-f", 1u << F_LAPLACE},
        {o->candidates, "--candidates", ~(1u << F_RR)},
        {o->range, "--range", (1u << F_REVENUE) | (1u << F_MEDIAN) | (1u << F_QUANTILE) | (1u << F_LAPLACE)},
        {o->convention, "--convention", (1u << F_MEDIAN) | (1u << F_QUANTILE)},
        {o->candidates_from_data ? "" : NULL, "--candidates-from-data",
         (1u << F_COUNT) | (1u << F_FREQUENCY) | (1u << F_MAXNORM)},
        {o->column, "--column", ~0u},
        {o->aggregated ? "" : NULL, "--aggregated", ~(1u << F_RR)},
    };
    for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
        if (used[k].v && !(used[k].fns & (1u << fn)))
            return em_data_fail(err, "option %s does not apply to '%s'", used[k].name, fname);
    if (fn == F_RR && o->x && o->data)
        return em_data_fail(err, "rr: give either --x or --data, not both");
    *neigh = (fn == F_FREQUENCY || fn == F_RR) ? NB_SUBSTITUTION : NB_ADD_REMOVE;
    if (o->neighbours) {
        const char *nb = o->neighbours;
        if (!strcmp(nb, "add-remove") || !strcmp(nb, "add/remove"))
            *neigh = NB_ADD_REMOVE;
        else if (!strcmp(nb, "substitution") || !strcmp(nb, "substitute"))
            *neigh = NB_SUBSTITUTION;
        else
            return em_data_fail(err, "--neighbours %s: expected add-remove or substitution", nb);
        if (fn == F_RR && *neigh == NB_ADD_REMOVE)
            return em_data_fail(err, "rr: the dataset is one bit; only --neighbours substitution applies");
    }
    if (fn != F_RR && fn != F_LAPLACE && !o->data)
        return em_data_fail(err, "%s: --data FILE is required", fname);
    if (o->column && !o->data)
        return em_data_fail(err, "option --column needs --data FILE (a CSV file with a header line)");
    if (o->aggregated && !o->data)
        return em_data_fail(err, "option --aggregated needs --data FILE (lines 'value,count')");
    if (o->aggregated && o->column)
        return em_data_fail(err, "--aggregated reads lines 'value,count' without a header line: "
                                 "no --column");
    if (o->range && o->candidates)
        return em_data_fail(err, "give either --candidates (finite outputs) or --range (an interval), not both");
    if (o->range && o->p_max)
        return em_data_fail(err, "revenue --range LO:HI: p_max is HI (no --p-max)");
    if (o->convention && !o->range)
        return em_data_fail(err, "--convention applies to --range (the diffprivlib convention is a continuous one)");
    if ((fn == F_COUNT || fn == F_FREQUENCY || fn == F_MAXNORM) && !o->candidates &&
        !o->candidates_from_data)
        return em_data_fail(err, "%s: --candidates is required (a:b[:step] or a file, fixed before "
                                 "seeing the data); --candidates-from-data takes the distinct data "
                                 "values, which is not private", fname);
    if (o->candidates && o->candidates_from_data)
        return em_data_fail(err, "give either --candidates or --candidates-from-data, not both");
    return EM_OK;
}

static int run(int fn, const em_score_opts *o, int neigh, FILE *out, char **warning,
               em_error *err)
{
    const char *fname = o->function;
    if (o->range)
        return fn == F_LAPLACE ? range_laplace(fname, o, neigh, out, err)
                               : range_data(fn, fname, o, neigh, out, err);
    switch (fn) {
    case F_COUNT:
    case F_FREQUENCY:
    case F_MAXNORM:
        return run_categorical(fn, fname, o, neigh, out, warning, err);
    case F_MEDIAN:
    case F_QUANTILE:
        return run_rank(fn, fname, o, neigh, out, err);
    case F_REVENUE:
        return run_revenue(fname, o, neigh, out, err);
    case F_LAPLACE:
        return run_laplace(fname, o, neigh, out, err);
    default:
        return run_rr(fname, o, out, err);
    }
}

/* ------------------------------------------------------------ result */

struct em_score {
    em_scn *scn;
    char **comment;
    size_t n_comments;
    char *warning;
};

void em_score_free(em_score *r)
{
    if (!r)
        return;
    em_scn_free(r->scn);
    for (size_t i = 0; i < r->n_comments; i++)
        free(r->comment[i]);
    free(r->comment);
    free(r->warning);
    free(r);
}

em_scn *em_score_scn(const em_score *r) { return r->scn; }
size_t em_score_comments(const em_score *r) { return r->n_comments; }
const char *em_score_comment(const em_score *r, size_t i)
{
    return i < r->n_comments ? r->comment[i] : NULL;
}
const char *em_score_warning(const em_score *r) { return r->warning; }

static int is_header(const char *line)
{
    static const char *const h[] = {"# sensitivity:", "# monotone:", "# output:", "# measure:"};
    for (size_t k = 0; k < sizeof h / sizeof h[0]; k++)
        if (!strncmp(line, h[k], strlen(h[k])))
            return 1;
    return 0;
}

/* The scenario and the comment lines of the text the scorer wrote. */
static int take_text(em_score *r, char *text, size_t len, em_error *err)
{
    r->scn = calloc(1, sizeof *r->scn);
    if (!r->scn)
        return em_data_nomem(err);
    em_scenario_init(&r->scn->sc);
    r->scn->sc.compact = 1;
    r->scn->sc.max_n = EM_N_MAX; /* the candidates --candidates accepts */
    em_error e = {EM_OK, ""};
    int st = em_scenario_parse(&r->scn->sc, text, len, "expmech score", &e);
    if (st != EM_OK)
        return st == EM_ERR_NOMEM ? em_data_nomem(err) : em_data_fail(err, "%s", e.msg);
    size_t n = 0;
    for (char *p = text; *p == '#'; p = strchr(p, '\n') + 1)
        n++;
    r->comment = calloc(n ? n : 1, sizeof *r->comment);
    if (!r->comment)
        return em_data_nomem(err);
    for (char *p = text; *p == '#'; p = strchr(p, '\n') + 1) {
        if (is_header(p))
            continue;
        size_t l = (size_t)(strchr(p, '\n') - p);
        if (!(r->comment[r->n_comments] = strndup(p + 2, l - 2)))
            return em_data_nomem(err);
        r->n_comments++;
    }
    return EM_OK;
}

/* The score of o written by run (d NULL) or, over rows already read, by write_categorical,
   and read back. */
static int make_score(int fn, const em_score_opts *o, int neigh, const em_lines *d,
                      const em_cands *c, const char *note, em_score **out, em_error *err)
{
    em_score *r = calloc(1, sizeof *r);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = r ? open_memstream(&text, &len) : NULL;
    if (!mem) {
        free(r);
        return em_data_nomem(err);
    }
    int st = d ? write_categorical(fn, o->function, neigh, d, c, note, mem, err)
               : run(fn, o, neigh, mem, &r->warning, err);
    if (fclose(mem) != 0 && st == EM_OK)
        st = em_data_nomem(err);
    if (st == EM_OK)
        st = take_text(r, text, len, err);
    free(text);
    return EM_HAND_OUT(st, r, em_score_free, out, err);
}

int em_score_new(const em_score_opts *o, em_score **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_score_new: out is NULL");
    *out = NULL;
    if (!o)
        return em_err(err, EM_ERR_NULL, "em_score_new: o is NULL");
    int fn = function_of(o->function), neigh;
    if (fn < 0)
        return em_data_fail(err, "unknown scoring function '%s' (count, frequency, maxnorm, "
                                 "median, quantile, revenue, rr, laplace)",
                            o->function ? o->function : "(null)");
    int st = check_opts(o, fn, &neigh, err);
    return st != EM_OK ? st : make_score(fn, o, neigh, NULL, NULL, NULL, out, err);
}

int em_score_cands(const em_score_opts *o, const em_lines *d, em_cands *c, char **warning,
                   em_error *err)
{
    memset(c, 0, sizeof *c);
    int fn = function_of(o->function), neigh;
    if (fn != F_COUNT && fn != F_FREQUENCY && fn != F_MAXNORM)
        return em_data_fail(err, "--group-by: the function is count, frequency or maxnorm, not "
                                 "'%s'", o->function ? o->function : "(null)");
    int st = check_opts(o, fn, &neigh, err);
    return st != EM_OK ? st : load_cands(o, d, c, warning, err);
}

int em_score_rows(const em_score_opts *o, const em_lines *d, const em_cands *c,
                  const char *note, em_score **out, em_error *err)
{
    int fn = function_of(o->function), neigh;
    int st = check_opts(o, fn, &neigh, err);
    return st != EM_OK ? st : make_score(fn, o, neigh, d, c, note, out, err);
}

int em_score_write(FILE *f, const em_score *r, em_error *err)
{
    if (!r)
        return em_err(err, EM_ERR_NULL, "em_score_write: r is NULL");
    return em_scn_write(f, r->scn, (const char *const *)r->comment, r->n_comments, err);
}
