/* em_conform_priv.c: the conformance suite's uses of the library's insides (header). */
#include "api/em_conform_priv.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/em_error.h"
#include "io/em_scn_text.h"
#include "num/em_rational.h"

/* Exact texts are written with at most this many digits before falling back to num/den. */
#define TEXT_DIGITS 40

static int parse(const char *x, int allow_neg_inf, mpq_t q, int *kind)
{
    return x ? em_q_parse_str(x, allow_neg_inf, q, kind, NULL) : EM_ERR_NULL;
}

char *em_conform_q_scale(const char *x, long num, unsigned long den)
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

char *em_conform_q_coef(const char *eps, const char *delta, int monotone)
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

char *em_conform_q_neg(const char *x)
{
    if (x && (!strcmp(x, "-inf") || !strcmp(x, "inf")))
        return strdup(x[0] == '-' ? "inf" : "-inf");
    return em_conform_q_scale(x, -1, 1);
}

double em_conform_q_double(const char *x)
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

int em_conform_q_is_number(const char *x, int allow_neg_inf)
{
    mpq_t q;
    mpq_init(q);
    int kind, ok = parse(x, allow_neg_inf, q, &kind) == EM_OK;
    mpq_clear(q);
    return ok;
}

int em_conform_q_cmp(const char *a, const char *b)
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

int em_conform_quantile_pieces(size_t nd, const char *const *data, const char *alpha,
                               const char *lo, const char *hi, size_t *k, char ***plo,
                               char ***phi, char ***pa, char ***pb, em_error *err)
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

char *em_conform_scn_measure(const em_scn *s, size_t i)
{
    if (!s || !s->has_measure || !s->measure || i >= s->n)
        return NULL;
    return em_q_to_string(s->measure[i], TEXT_DIGITS);
}

int em_conform_scn_piece(const em_scn *s, size_t j, char **lo, char **hi, char **a, char **b)
{
    *lo = *hi = *a = *b = NULL;
    const em_pieces *ps = &s->pieces;
    if (!s->continuous || j >= ps->n)
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

int em_conform_scn_monotone(const em_scn *s)
{
    if (s->continuous)
        return s->pieces.has_monotone && s->pieces.monotone;
    return s->has_monotone && s->monotone;
}
