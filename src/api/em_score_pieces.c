/* em_score_pieces.c: scores over a range of outputs: continuous scenarios (pieces
 * with linear utilities) from core/em_score_range.h. */
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
        em_scoring_put_q(out, v);
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
    em_scoring_puts(out, "# output: continuous");
    em_scoring_put_sensitivity(out, delta, monotone);
}

int em_scoring_range_laplace(const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_rows d = {0};
    mpq_t f, df, lo, hi;
    mpq_inits(f, df, lo, hi, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int rc = EM_OK, lo_inf, hi_inf;
    size_t rows = 0;
    if ((rc = em_scoring_laplace_query(o, &d, f, df, &rows, err)) != EM_OK)
        goto done;
    if ((rc = parse_range(o->range, lo, hi, &lo_inf, &hi_inf, 1, err)) != EM_OK)
        goto done;
    mpz_lcm(scale, scale, mpq_denref(f));
    if (!lo_inf)
        mpz_lcm(scale, scale, mpq_denref(lo));
    if (!hi_inf)
        mpz_lcm(scale, scale, mpq_denref(hi));
    int64_t fi = 0, li = 0, hv = 0;
    int big = em_scoring_to_int64(f, scale, &fi) != 0 || (!lo_inf && em_scoring_to_int64(lo, scale, &li) != 0) ||
              (!hi_inf && em_scoring_to_int64(hi, scale, &hv) != 0);
    em_piece pc[2];
    size_t k = 0;
    int st = big ? EM_ERR_OVERFLOW : em_range_laplace(fi, lo_inf, li, hi_inf, hv, pc, &k);
    if (st != EM_OK) {
        rc = em_scoring_laplace_fail(st, fname, err);
        goto done;
    }
    char def[200];
    em_scoring_laplace_definition(def, sizeof def, f, o);
    range_header(out, fname, def, o->range, rows, k, neigh,
                 "proofs/lemmas/ScoreMisc_lemmas.h: Laplace_Sensitivity", df, 0);
    em_scoring_puts(out, em_scoring_laplace_factor);
    for (size_t j = 0; j < k; j++) {
        /* only the outer ends can be infinite: pieces meet at the finite f */
        if (j == 0)
            put_end(out, lo, lo_inf, "-inf");
        else
            em_scoring_put_scaled(out, pc[j].lo, scale);
        fputc(',', out);
        if (j == k - 1)
            put_end(out, hi, hi_inf, "inf");
        else
            em_scoring_put_scaled(out, pc[j].hi, scale);
        fputc(',', out);
        em_scoring_put_scaled(out, pc[j].a, scale); /* a is in units; b (+-1) is a pure slope */
        fprintf(out, ",%lld\n", (long long)pc[j].b);
    }
done:
    em_rows_free(&d);
    mpq_clears(f, df, lo, hi, NULL);
    mpz_clear(scale);
    return rc;
}

/* revenue, median and quantile over [LO, HI]: the data converted to the core's integers,
   sorted here (the core checks the order), the pieces from the core, printed. */
int em_scoring_range_data(int fn, const char *fname, const em_score_opts *o, int neigh, FILE *out, em_error *err)
{
    em_rows d = {0};
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
        if ((rc = em_scoring_quantile_alpha(o, alpha, err)) != EM_OK)
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
    if ((rc = em_scoring_read_rows(o, &d, "data rows", err)) != EM_OK)
        goto out;
    if ((rc = em_scoring_read_numbers(&d, &x, err)) != EM_OK)
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
        if (em_scoring_to_int64(lo, scale, &li) != 0 || em_scoring_to_int64(hi, scale, &hv) != 0) {
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
                em_scoring_to_int64(x[i], scale, &xi[i]); /* fits: between LO and HI */
        }
    } else {
        /* The rank scores depend only on the order: the distinct values of the data and the
           two ends, sorted, value number t at 2t (even), so that every gap holds an odd
           integer for the contract's open pieces.  Pieces end at ends or rows: even. */
        memcpy(vals, x, d.n * sizeof *vals); /* shallow copies: sorted views only */
        memcpy(&vals[d.n], lo, sizeof *vals);
        memcpy(&vals[d.n + 1], hi, sizeof *vals);
        qsort(vals, d.n + 2, sizeof *vals, em_scoring_cmp_q);
        for (size_t i = 0; i < d.n + 2; i++)
            if (nv == 0 || mpq_cmp(vals[nv - 1], vals[i]) != 0)
                memcpy(&vals[nv++], &vals[i], sizeof *vals);
        int64_t t = 0;
        for (size_t i = 0; i < d.n; i++) {
            em_scoring_rank_of(vals, nv, x[i], &t);
            xi[i] = 2 * t;
        }
        em_scoring_rank_of(vals, nv, lo, &t);
        li = 2 * t;
        em_scoring_rank_of(vals, nv, hi, &t);
        hv = 2 * t;
    }
    if ((rc = em_scoring_expand_rows(&d, &xi, err)) != EM_OK)
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
        lemma = em_scoring_revenue_lemma(neigh);
        mpq_set(delta, hi);
        monotone = neigh == NB_ADD_REMOVE;
    } else if (fn == F_MEDIAN && !dpl) {
        st = em_range_median(d.rows, xi, li, hv, pc, &k);
        def = em_scoring_median_def;
        lemma = em_scoring_median_lemma(neigh);
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
            lemma = em_scoring_quantile_delta(alpha, neigh, delta);
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
            em_scoring_put_scaled(out, pc[j].lo, scale);
            fputc(',', out);
            em_scoring_put_scaled(out, pc[j].hi, scale);
            /* u(p) = p * count in real prices too: a = 0, b = the count (no unit) */
            fprintf(out, ",0,%lld\n", (long long)pc[j].b);
        } else {
            em_scoring_put_q(out, vals[pc[j].lo / 2]);
            fputc(',', out);
            em_scoring_put_q(out, vals[pc[j].hi / 2]);
            fputc(',', out);
            em_scoring_put_scaled(out, pc[j].a, uscale); /* the quantile core works in units of 1/qb */
            em_scoring_puts(out, ",0");
        }
    }
    mpz_clear(uscale);
done:
    free(xi);
    free(pc);
    free(vals);
    em_q_array_free(x, d.n);
out:
    em_rows_free(&d);
    mpq_clears(lo, hi, alpha, delta, NULL);
    mpz_clear(scale);
    return rc;
}
