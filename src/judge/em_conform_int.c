/* em_conform_int.c: the conformance suite's uses of the library's insides (header). */
#include "judge/em_conform_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "em_base.h"
#include "io/em_scn_priv.h"
#include "oracle/em_gof.h" /* em_ncx2_Q */
#include "oracle/em_rational.h"

/* Exact texts are written with at most this many digits before falling back to num/den. */
#define TEXT_DIGITS 40

static int parse(const char *x, int allow_neg_inf, mpq_t q, int *kind)
{
    return x ? em_q_parse_str(x, allow_neg_inf, q, kind, NULL) : EM_ERR_NULL;
}

char *eci_scale(const char *x, long num, unsigned long den)
{
    mpq_t q, f;
    mpq_inits(q, f, (mpq_ptr)0);
    int kind;
    char *out = NULL;
    if (parse(x, 0, q, &kind) == EM_OK && den) {
        mpq_set_si(f, num, den);
        mpq_canonicalize(f);
        mpq_mul(q, q, f);
        out = em_q_to_string(q, TEXT_DIGITS);
    }
    mpq_clears(q, f, (mpq_ptr)0);
    return out;
}

char *eci_coef(const char *eps, const char *delta, int monotone)
{
    mpq_t e, d;
    mpq_inits(e, d, (mpq_ptr)0);
    int k1, k2;
    char *out = NULL;
    if (parse(eps, 0, e, &k1) == EM_OK && parse(delta, 0, d, &k2) == EM_OK && mpq_sgn(d) != 0) {
        mpq_div(e, e, d);
        if (!monotone)
            mpq_div_2exp(e, e, 1);
        out = em_q_to_string(e, TEXT_DIGITS);
    }
    mpq_clears(e, d, (mpq_ptr)0);
    return out;
}

char *eci_neg(const char *x)
{
    if (x && (!strcmp(x, "-inf") || !strcmp(x, "inf")))
        return strdup(x[0] == '-' ? "inf" : "-inf");
    return eci_scale(x, -1, 1);
}

double eci_double(const char *x)
{
    if (!x)
        return NAN;
    if (!strcmp(x, "inf") || !strcmp(x, "+inf"))
        return INFINITY;
    mpq_t q;
    mpq_init(q);
    int kind;
    double d = NAN;
    if (parse(x, 1, q, &kind) == EM_OK)
        d = kind == EM_Q_NEG_INF ? -INFINITY : em_q_get_d(q, NULL);
    mpq_clear(q);
    return d;
}

int eci_is_number(const char *x, int allow_neg_inf)
{
    mpq_t q;
    mpq_init(q);
    int kind, ok = parse(x, allow_neg_inf, q, &kind) == EM_OK;
    mpq_clear(q);
    return ok;
}

int eci_cmp(const char *a, const char *b)
{
    mpq_t p, q;
    mpq_inits(p, q, (mpq_ptr)0);
    int ka, kb, r = 2;
    if (parse(a, 1, p, &ka) == EM_OK && parse(b, 1, q, &kb) == EM_OK) {
        if (ka == EM_Q_NEG_INF || kb == EM_Q_NEG_INF)
            r = (kb == EM_Q_NEG_INF) - (ka == EM_Q_NEG_INF);
        else
            r = mpq_cmp(p, q) > 0 ? 1 : mpq_cmp(p, q) < 0 ? -1 : 0;
    }
    mpq_clears(p, q, (mpq_ptr)0);
    return r;
}

/* ------------------------------------------------------------------ quantile */

static int cmp_q(const void *x, const void *y)
{
    return mpq_cmp(*(const mpq_t *)x, *(const mpq_t *)y);
}

static void free_texts(char **v, size_t n)
{
    if (v)
        for (size_t i = 0; i < n; i++)
            free(v[i]);
    free(v);
}

int eci_quantile_pieces(size_t nd, const char *const *data, const char *alpha, const char *lo,
                        const char *hi, size_t *k, char ***plo, char ***phi, char ***pa,
                        char ***pb, em_error *err)
{
    *k = 0;
    *plo = *phi = *pa = *pb = NULL;
    if (nd == 0)
        return em_err(err, EM_ERR_PARSE, "data: no values");
    mpq_t al, ql, qh, t;
    mpq_inits(al, ql, qh, t, (mpq_ptr)0);
    mpq_t *v = malloc((nd + 2) * sizeof *v);
    int kind, st = EM_OK;
    if (!v) {
        mpq_clears(al, ql, qh, t, (mpq_ptr)0);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    size_t nv = 0;
    if (parse(alpha, 0, al, &kind) != EM_OK || mpq_sgn(al) <= 0 || mpq_cmp_si(al, 1, 1) >= 0)
        st = em_err(err, EM_ERR_PARSE, "alpha '%.40s': expected an exact number in (0, 1)",
                    alpha ? alpha : "(none)");
    else if (parse(lo, 0, ql, &kind) != EM_OK || parse(hi, 0, qh, &kind) != EM_OK)
        st = em_err(err, EM_ERR_PARSE, "bounds: expected two exact numbers");
    else if (mpq_cmp(ql, qh) >= 0)
        st = em_err(err, EM_ERR_PARSE, "bounds: the lower bound must be below the upper");
    for (size_t i = 0; st == EM_OK && i < nd; i++) {
        mpq_init(v[i + 1]);
        nv = i + 1;
        if (parse(data[i], 0, v[i + 1], &kind) != EM_OK) {
            st = em_err(err, EM_ERR_PARSE, "data[%zu]: '%.40s' is not an exact number", i,
                        data[i] ? data[i] : "(null)");
            break;
        }
        /* diffprivlib clips the data to the bounds */
        if (mpq_cmp(v[i + 1], ql) < 0)
            mpq_set(v[i + 1], ql);
        if (mpq_cmp(v[i + 1], qh) > 0)
            mpq_set(v[i + 1], qh);
    }
    if (st == EM_OK) {
        qsort(v + 1, nd, sizeof *v, cmp_q);
        mpq_init(v[0]);
        mpq_set(v[0], ql);
        mpq_init(v[nd + 1]);
        mpq_set(v[nd + 1], qh);
        size_t np = nd + 1;
        *plo = calloc(np, sizeof **plo);
        *phi = calloc(np, sizeof **phi);
        *pa = calloc(np, sizeof **pa);
        *pb = calloc(np, sizeof **pb);
        st = *plo && *phi && *pa && *pb ? EM_OK : EM_ERR_NOMEM;
        for (size_t i = 0; st == EM_OK && i < np; i++) {
            /* u = -|i - alpha n| */
            mpq_set_ui(t, (unsigned long)nd, 1);
            mpq_mul(t, t, al);
            mpq_set_ui(ql, (unsigned long)i, 1);
            mpq_sub(t, ql, t);
            mpq_abs(t, t);
            mpq_neg(t, t);
            (*plo)[i] = em_q_to_string(v[i], TEXT_DIGITS);
            (*phi)[i] = em_q_to_string(v[i + 1], TEXT_DIGITS);
            (*pa)[i] = em_q_to_string(t, TEXT_DIGITS);
            (*pb)[i] = strdup("0");
            if (!(*plo)[i] || !(*phi)[i] || !(*pa)[i] || !(*pb)[i])
                st = EM_ERR_NOMEM;
        }
        for (size_t i = 0; i < nd + 2; i++)
            mpq_clear(v[i]);
        nv = 0;
        if (st == EM_OK)
            *k = np;
        else {
            free_texts(*plo, np), free_texts(*phi, np), free_texts(*pa, np), free_texts(*pb, np);
            *plo = *phi = *pa = *pb = NULL;
            em_err(err, st, "out of memory");
        }
    }
    for (size_t i = 1; i <= nv; i++)
        mpq_clear(v[i]);
    free(v);
    mpq_clears(al, ql, qh, t, (mpq_ptr)0);
    return st;
}

/* ------------------------------------------------------------------ scenarios */

char *eci_scn_measure(const em_scn *s, size_t i)
{
    if (!s || !s->sc.has_measure || !s->sc.measure || i >= s->sc.n)
        return NULL;
    return em_q_to_string(s->sc.measure[i], TEXT_DIGITS);
}

int eci_scn_piece(const em_scn *s, size_t j, char **lo, char **hi, char **a, char **b)
{
    *lo = *hi = *a = *b = NULL;
    const em_pieces *ps = &s->sc.pieces;
    if (!s->sc.continuous || j >= ps->n)
        return EM_ERR_DOMAIN;
    *lo = j == 0 && ps->lo_inf ? strdup("-inf") : em_q_to_string(ps->lo[j], TEXT_DIGITS);
    *hi = j + 1 == ps->n && ps->hi_inf ? strdup("inf") : em_q_to_string(ps->hi[j], TEXT_DIGITS);
    *a = em_q_to_string(ps->a[j], TEXT_DIGITS);
    *b = em_q_to_string(ps->b[j], TEXT_DIGITS);
    if (*lo && *hi && *a && *b)
        return EM_OK;
    free(*lo), free(*hi), free(*a), free(*b);
    *lo = *hi = *a = *b = NULL;
    return EM_ERR_NOMEM;
}

int eci_scn_monotone(const em_scn *s)
{
    if (s->sc.continuous)
        return s->sc.pieces.has_monotone && s->sc.pieces.monotone;
    return s->sc.has_monotone && s->sc.monotone;
}

/* ------------------------------------------------------------------ statistics */

typedef struct item {
    double p;
    size_t i;
} item;

static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->p < y->p)
        return -1;
    if (x->p > y->p)
        return 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* em_check's pooling (oracle/em_gof.c): the positive cells by probability, smallest first,
 * added to an open pool that closes once it expects min_expected; an unfinished last pool
 * joins the one before.  cell_of[i]: the pool (numbered in closing order), SIZE_MAX for
 * p = 0.  Returns the number of pools (0 on lack of memory, or no positive cell). */
size_t eci_pool(size_t n, const double *p, uint64_t N, double min_expected, size_t *cell_of)
{
    size_t npos = 0;
    long double s = 0;
    for (size_t i = 0; i < n; i++) {
        cell_of[i] = SIZE_MAX;
        if (p[i] > 0)
            npos++, s += p[i];
    }
    item *it = malloc((npos ? npos : 1) * sizeof *it);
    if (!it || !npos) {
        free(it);
        return 0;
    }
    for (size_t i = 0, k = 0; i < n; i++)
        if (p[i] > 0)
            it[k].p = p[i], it[k].i = i, k++;
    qsort(it, npos, sizeof *it, item_cmp);
    size_t np = 0, last_first = 0;
    int open = 0;
    long double prob = 0;
    for (size_t k = 0; k < npos; k++) {
        if (!open) {
            np++;
            open = 1;
            prob = 0;
            last_first = k;
        }
        prob += (long double)it[k].p / s;
        cell_of[it[k].i] = np - 1;
        if ((long double)N * prob >= (long double)min_expected)
            open = 0;
    }
    if (open && np >= 2) {
        for (size_t k = last_first; k < npos; k++)
            cell_of[it[k].i] = np - 2;
        np--;
    }
    free(it);
    return np;
}

int eci_gof(size_t n, const double *p, const uint64_t *counts, double min_expected, double *g,
            size_t *df, double *pv, int *impossible, size_t *cell_of)
{
    uint64_t N = 0;
    long double s = 0;
    *impossible = 0;
    for (size_t i = 0; i < n; i++) {
        N += counts[i];
        s += p[i] > 0 ? p[i] : 0;
        if (!(p[i] > 0) && counts[i])
            *impossible = 1;
    }
    if (N == 0 || fabsl(s - 1.0L) > 1e-9L)
        return EM_ERR_DOMAIN;
    size_t *cell = cell_of ? cell_of : malloc(n * sizeof *cell);
    if (!cell)
        return EM_ERR_NOMEM;
    size_t np = eci_pool(n, p, N, min_expected, cell);
    long double *e = calloc(np ? np : 1, sizeof *e), *o = calloc(np ? np : 1, sizeof *o);
    if (!e || !o || !np) {
        free(e), free(o);
        if (!cell_of)
            free(cell);
        return np ? EM_ERR_NOMEM : EM_ERR_DOMAIN;
    }
    for (size_t i = 0; i < n; i++)
        if (cell[i] != SIZE_MAX) {
            e[cell[i]] += (long double)N * p[i] / s;
            o[cell[i]] += (long double)counts[i];
        }
    long double G = 0;
    for (size_t k = 0; k < np; k++)
        if (o[k] > 0)
            G += o[k] * logl(o[k] / e[k]);
    G = 2 * G;
    *g = G > 0 ? (double)G : 0.0;
    *df = np - 1;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    *pv = *impossible ? 0.0 : np > 1 ? gsl_cdf_chisq_Q(*g, (double)*df) : 1.0;
    gsl_set_error_handler(old);
    free(e), free(o);
    if (!cell_of)
        free(cell);
    return EM_OK;
}

/* gsl_cdf_chisq_Qinv is unreliable at large df (oracle/em_gof.c): bisection instead */
static double chisq_crit(double df, double alpha)
{
    double lo = 0, hi = df + 10 * sqrt(2 * df) + 50;
    while (gsl_cdf_chisq_Q(hi, df) > alpha && hi < 1e300)
        hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        double mid = lo + (hi - lo) / 2;
        if (gsl_cdf_chisq_Q(mid, df) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double eci_power(double df, double lambda, double alpha)
{
    if (!(df > 0) || !(lambda >= 0))
        return 0.0;
    if (isinf(lambda))
        return 1.0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double crit = chisq_crit(df, alpha);
    /* far beyond (or below) the critical value the answer is 1 (0) to double precision,
     * and the Poisson mixture would sum some sqrt(lambda) terms to say so */
    double mean = df + lambda, sd = sqrt(2 * (df + 2 * lambda));
    if (mean - 12 * sd > crit || mean + 12 * sd < crit) {
        gsl_set_error_handler(old);
        return mean > crit ? 1.0 : 0.0;
    }
    double q = em_ncx2_Q(crit, df, lambda);
    gsl_set_error_handler(old);
    return isnan(q) ? 0.0 : q;
}
