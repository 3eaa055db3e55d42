/* em_mistake.c: the laws of known mistakes and their cells (the diagnosis of a reject that
 * uses them: em_diagnose.c).
 *
 * A mistake's law is computed for the mechanism at hand, through the public API where it is
 * a mechanism itself (the EM at 2 eps, at Delta = 1, without its measure, with negated or
 * ignored utilities, permute-and-flip for the EM and back: in doubles where every number is
 * one, from one 48-bit enclosure for permute-and-flip, else the oracle's doubles), and in closed form over the pieces where it is not one (a continuous law whose
 * pieces are weighted as atoms, uniform inside its pieces, or the argmax).  It is evaluated
 * on the cells of a check: the candidates, or the check's bins and one cell for draws
 * outside R.  Doubles are enough: these laws name a mistake (p >= 1e-3 under it) and size
 * the power of a test; no verdict against the exact law depends on them. */

#include "api/em_mistake_priv.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_law.h"
#include "api/em_conform_priv.h"
#include "api/em_law_priv.h"
#include "oracle/em_pf.h"
#include "base/em_error.h"
#include "judge/em_gof_alt.h"
#include "num/em_bounds.h"
#include "num/em_rational.h"
#include "api/em_obj.h"
#include "api/em_scn_priv.h"

/* ------------------------------------------------------------------ names */

static const struct {
    const char *name, *law, *words;
} mistakes[EM_MISTAKE_COUNT] = {
    {"eps_not_halved", "exp(ε·u/Δ)", "the factor 1/2 is missing"},
    {"eps_doubled", "the mechanism at 2ε", "ε is doubled"},
    {"delta_ignored", "the mechanism at Δ = 1", "the sensitivity Δ is ignored (taken as 1)"},
    {"measure_ignored", "the law without its base measure", "the base measure is ignored"},
    {"pf_for_em", "permute-and-flip", "permute-and-flip was drawn where the exponential "
                                      "mechanism was asked"},
    {"em_for_pf", "the exponential mechanism", "the exponential mechanism was drawn where "
                                               "permute-and-flip was asked"},
    {"negated", "exp(−ε·u/(2Δ))", "the utilities are negated (argmin)"},
    {"uniform", "the uniform law", "the utilities are ignored"},
    {"argmax", "the argmax", "there is no noise (the best output every time)"},
    {"laplace_scale", "Laplace with scale Δf/ε", "the Laplace scale is off by a factor 2 (the "
                                                 "EM at ε has scale 2Δf/ε)"},
    {"uniform_in_pieces", "uniform inside each piece", "the density inside each piece is "
                                                        "ignored"},
};

const char *em_mistake_name(int m)
{
    return m >= 0 && m < EM_MISTAKE_COUNT ? mistakes[m].name : NULL;
}

const char *em_mistake_law(int m)
{
    return m >= 0 && m < EM_MISTAKE_COUNT ? mistakes[m].law : NULL;
}

const char *em_mistake_words(int m)
{
    return m >= 0 && m < EM_MISTAKE_COUNT ? mistakes[m].words : NULL;
}

int em_mistake_from_name(const char *name)
{
    for (int m = 0; name && m < EM_MISTAKE_COUNT; m++)
        if (!strcmp(name, mistakes[m].name))
            return m;
    return -1;
}

/* ------------------------------------------------------------------ the law */

enum { SH_EXP = 0, SH_UNIFORM = 1, SH_ATOM = 2 };

/* a continuous law as weighted pieces, each a shape on [lo_j, hi_j] */
typedef struct comp_law {
    int done, applies;
    double *w;       /* weight of each piece (sum 1) */
    int *shape;
    double *s;       /* SH_EXP: the density is ~ exp(s x) on the piece */
    double *x;       /* SH_ATOM: where */
    double *q;       /* finite: the law of each candidate */
} comp_law;

struct em_mistake_laws {
    em_mech *m;
    int kind, continuous, variant, has_measure, monotone;
    char *eps, *delta;
    /* finite */
    size_t n;
    char **u, **meas;
    double *p;
    double *ud, *md; /* the utilities and measures as doubles (fast_em_law), once */
    int dstate;      /* 0 not parsed, 1 parsed, -1 some number is not an ordinary double */
    /* continuous */
    size_t k;
    char **lo, **hi, **a, **b;
    double *dlo, *dhi, *da, *db, *mass, c;
    comp_law alt[EM_MISTAKE_COUNT];
    /* laws of mechanisms already computed (several mistakes may share one: the EM at 2 eps
     * is also "not halved"; at Delta = 1 it is the exact law when Delta is 1) */
    struct law_key {
        char *eps, *delta;       /* eps: the coefficient c as exact text */
        int variant, u, meas, st; /* variant: 1 for permute-and-flip */
        double *v;
    } cache[EM_MISTAKE_COUNT];
    size_t ncache;
};

static void free_texts(char **v, size_t n)
{
    if (v)
        for (size_t i = 0; i < n; i++)
            free(v[i]);
    free(v);
}

static void comp_free(comp_law *c)
{
    free(c->w), free(c->shape), free(c->s), free(c->x), free(c->q);
    memset(c, 0, sizeof *c);
}

int em_mistake_laws_continuous(const em_mistake_laws *L)
{
    return L->continuous;
}

void em_mistake_laws_free(em_mistake_laws *L)
{
    if (!L)
        return;
    free(L->eps), free(L->delta);
    free_texts(L->u, L->n), free_texts(L->meas, L->n);
    free(L->p), free(L->ud), free(L->md);
    free_texts(L->lo, L->k), free_texts(L->hi, L->k), free_texts(L->a, L->k);
    free_texts(L->b, L->k);
    free(L->dlo), free(L->dhi), free(L->da), free(L->db), free(L->mass);
    for (int i = 0; i < EM_MISTAKE_COUNT; i++)
        comp_free(&L->alt[i]);
    for (size_t i = 0; i < L->ncache; i++)
        free(L->cache[i].eps), free(L->cache[i].delta), free(L->cache[i].v);
    free(L);
}

/* the coefficient c = eps / (2 delta) or eps / delta of texts, as a double */
static double coef(const char *eps, const char *delta, int variant)
{
    return em_conform_q_double(eps) / (variant == EM_MONOTONE ? 1.0 : 2.0) /
           em_conform_q_double(delta);
}

/* a Laplace law: the rays (-inf, f] with b = 1 and [f, inf) with b = -1, a = -f and f */
static int laplace_shaped(const em_mistake_laws *L)
{
    return L->k == 2 && isinf(L->dlo[0]) && isinf(L->dhi[1]) && L->db[0] == 1 &&
           L->db[1] == -1 && !strcmp(L->hi[0], L->lo[1]);
}

int em_mistake_laws_new(em_mech *m, int kind, em_mistake_laws **out, em_error *err)
{
    *out = NULL;
    em_mistake_laws *L = calloc(1, sizeof *L);
    if (!L)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    L->m = m;
    const em_mech_info mi = em_mech_get(m);
    em_scn *s = mi.scn;
    const em_scn_info si = em_scn_get(s);
    L->continuous = si.continuous;
    L->variant = mi.variant;
    L->has_measure = si.has_measure;
    L->monotone = em_conform_scn_monotone(s);
    L->eps = strdup(mi.epsilon);
    L->delta = strdup(mi.sensitivity);
    if (!L->eps || !L->delta)
        goto nomem;
    int st;
    em_prob pr;
    if (!L->continuous) {
        L->n = si.size;
        L->u = calloc(L->n, sizeof *L->u);
        L->p = malloc(L->n * sizeof *L->p);
        if (!L->u || !L->p)
            goto nomem;
        if (L->has_measure && !(L->meas = calloc(L->n, sizeof *L->meas)))
            goto nomem;
        for (size_t i = 0; i < L->n; i++) {
            if ((st = em_scn_utility_plain(s, i, &L->u[i], err)) != EM_OK)
                goto fail;
            if (L->has_measure && !(L->meas[i] = em_conform_scn_measure(s, i)))
                goto nomem;
            if ((st = em_probs_get(m, i, &pr, err)) != EM_OK)
                goto fail;
            L->p[i] = pr.prob_d;
        }
        L->kind = kind >= 0 ? kind
                  : L->variant == EM_PF ? EM_KIND_PF
                  : L->has_measure ? EM_KIND_WEIGHTED : EM_KIND_FINITE;
    } else {
        L->k = si.pieces;
        L->lo = calloc(L->k, sizeof *L->lo), L->hi = calloc(L->k, sizeof *L->hi);
        L->a = calloc(L->k, sizeof *L->a), L->b = calloc(L->k, sizeof *L->b);
        L->dlo = malloc(L->k * sizeof *L->dlo), L->dhi = malloc(L->k * sizeof *L->dhi);
        L->da = malloc(L->k * sizeof *L->da), L->db = malloc(L->k * sizeof *L->db);
        L->mass = malloc(L->k * sizeof *L->mass);
        if (!L->lo || !L->hi || !L->a || !L->b || !L->dlo || !L->dhi || !L->da || !L->db ||
            !L->mass)
            goto nomem;
        for (size_t j = 0; j < L->k; j++) {
            if (em_conform_scn_piece(s, j, &L->lo[j], &L->hi[j], &L->a[j], &L->b[j]) != EM_OK)
                goto nomem;
            L->dlo[j] = em_conform_q_double(L->lo[j]), L->dhi[j] = em_conform_q_double(L->hi[j]);
            L->da[j] = em_conform_q_double(L->a[j]), L->db[j] = em_conform_q_double(L->b[j]);
            if ((st = em_probs_get(m, j, &pr, err)) != EM_OK)
                goto fail;
            L->mass[j] = pr.prob_d;
        }
        L->c = coef(L->eps, L->delta, L->variant);
        L->kind = kind >= 0 ? kind : laplace_shaped(L) ? EM_KIND_LAPLACE : EM_KIND_CONTINUOUS;
    }
    *out = L;
    return EM_OK;
nomem:
    st = em_err(err, EM_ERR_NOMEM, "out of memory");
fail:
    em_mistake_laws_free(L);
    return st;
}

/* ------------------------------------------------------------ cells */

int em_mistake_cells(em_mistake_laws *L, const em_check_result *r, const uint64_t *counts,
                     size_t *n, double **p, uint64_t **obs, em_error *err)
{
    *p = NULL;
    *obs = NULL;
    *n = L->continuous ? r->nrows + 1 : L->n;
    *p = malloc(*n * sizeof **p);
    *obs = calloc(*n, sizeof **obs);
    if (!*p || !*obs) {
        free(*p), free(*obs);
        *p = NULL, *obs = NULL;
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (!L->continuous) {
        memcpy(*p, L->p, L->n * sizeof *L->p);
        if (counts)
            memcpy(*obs, counts, L->n * sizeof *counts);
        return EM_OK;
    }
    for (size_t k = 0; k < r->nrows; k++) {
        (*p)[k] = r->rows[k].probability;
        (*obs)[k] = r->rows[k].observed;
    }
    (*p)[r->nrows] = 0;
    (*obs)[r->nrows] = r->support_count;
    return EM_OK;
}

/* ------------------------------------------------------------ finite laws */

/* utilities of a law: the scenario's, negated, or all 0 */
enum { U_SAME = 0, U_NEG = 1, U_ZERO = 2 };

/* the law of the mechanism (utilities ukind, with the measure or not, eps, delta, variant)
 * computed by mk(), or taken from the exact law or a law computed before: *out points into
 * L (do not free).  A status other than EM_OK means the law cannot be made. */
static int cached(em_mistake_laws *L, int ukind, int meas, const char *eps, const char *delta,
                  int variant, size_t len, int (*mk)(em_mistake_laws *, int, int, const char *,
                                                     const char *, int, double *),
                  const double **out)
{
    /* the key: the coefficient c exactly (the EM at 2 eps is the monotone one at eps), the
     * family (EM or permute-and-flip), the utilities and the measure */
    char *c = em_conform_q_coef(eps, delta, variant == EM_MONOTONE);
    char *c0 = em_conform_q_coef(L->eps, L->delta, L->variant == EM_MONOTONE);
    int pf = variant == EM_PF;
    int same = c && c0 && !strcmp(c, c0);
    free(c0);
    if (!c)
        return EM_ERR_NOMEM;
    if (ukind == U_SAME && meas == L->has_measure && pf == (L->variant == EM_PF) && same &&
        !L->continuous) {
        free(c);
        *out = L->p;
        return EM_OK;
    }
    for (size_t i = 0; i < L->ncache; i++) {
        struct law_key *k = &L->cache[i];
        if (k->u == ukind && k->meas == meas && k->variant == pf && !strcmp(k->eps, c)) {
            free(c);
            *out = k->v;
            return k->st;
        }
    }
    if (L->ncache == EM_MISTAKE_COUNT) {
        free(c);
        return EM_ERR_DOMAIN;
    }
    struct law_key *k = &L->cache[L->ncache];
    k->eps = c;
    k->delta = NULL;
    k->v = calloc(len ? len : 1, sizeof *k->v);
    if (!k->v) {
        free(k->eps);
        return EM_ERR_NOMEM;
    }
    k->u = ukind, k->meas = meas, k->variant = pf;
    L->ncache++;
    k->st = mk(L, ukind, meas, eps, delta, variant, k->v);
    *out = k->v;
    return k->st;
}

/* Permute-and-flip's law for a mistake: the midpoints of one enclosure of every P(r).  A
 * mistake's law only weighs power and the diagnosis, where a relative error of 2^-48 is
 * nothing, and each bit costs quadrature: correctly rounded doubles made a case over 300
 * candidates spend most of its second in three such laws. */

#define MID_BITS 48 /* bits of the enclosure: P(r) to about 2^-48, relatively */
static int pf_mid_doubles(const em_problem *P, double *v)
{
    const size_t n = P->n;
    mpfr_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    if (!lo || !hi) {
        free(lo), free(hi);
        return EM_ERR_NOMEM;
    }
    em_range r = em_range_enter();
    for (size_t i = 0; i < n; i++)
        mpfr_inits2(MID_BITS, lo[i], hi[i], (mpfr_ptr)0);
    int st = em_pf_pmf_bounds(P, MID_BITS, lo, hi);
    for (size_t i = 0; i < n; i++) {
        if (st == EM_OK) {
            mpfr_add(lo[i], lo[i], hi[i], MPFR_RNDN);
            v[i] = mpfr_get_d(lo[i], MPFR_RNDN) / 2;
        }
        mpfr_clears(lo[i], hi[i], (mpfr_ptr)0);
    }
    em_range_leave(r);
    free(lo), free(hi);
    return st;
}

/* the law of the mechanism of s at eps, delta and variant, forced (a mistake's law may be
 * one the library refuses): n probabilities (finite) or piece masses (continuous) */
static int law_doubles(em_scn *s, const char *eps, const char *delta, int variant, size_t n,
                       double *v)
{
    em_mech *m = NULL;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps;
    o.sensitivity = delta;
    o.variant = variant;
    o.force = 1;
    int st = em_mech_new(s, &o, &m, NULL);
    if (st == EM_OK && em_mech_get(m).variant == EM_PF) {
        st = em_law_pf_limit(m, NULL);
        if (st == EM_OK)
            st = pf_mid_doubles(&m->prob, v);
        em_free(m);
        return st;
    }
    if (st == EM_OK)
        st = em_probs_prepare(m, NULL);
    for (size_t i = 0; st == EM_OK && i < n; i++) {
        em_prob pr;
        st = em_probs_get(m, i, &pr, NULL);
        v[i] = pr.prob_d;
    }
    em_free(m);
    return st;
}

/* -x as a text, by its sign alone (a scenario's utility texts are exact numbers in a syntax
 * em_q_parse reads, which takes one sign before any of them): no parse, no printing */
static char *neg_text(const char *x)
{
    if (x[0] == '-')
        return strdup(x + 1);
    size_t n = strlen(x);
    char *s = malloc(n + 2);
    if (s) {
        s[0] = '-';
        memcpy(s + 1, x + (x[0] == '+'), n + 1 - (x[0] == '+'));
    }
    return s;
}

/* a number text as a double: strtod (correctly rounded) when it reads the whole text, else
 * the exact parse; NaN when the value lies outside the doubles (overflow, or a nonzero
 * value that underflows: a measure of 1e-400 is no measure 0) */
static double text_double(const char *x)
{
    char *end;
    errno = 0;
    double d = strtod(x, &end);
    if (*end || end == x)
        d = em_conform_q_double(x);
    else if (errno == ERANGE)
        return NAN;
    return d;
}

static int parse_doubles(em_mistake_laws *L)
{
    if (L->dstate)
        return L->dstate;
    L->dstate = -1;
    if (!(L->ud = malloc(L->n * sizeof *L->ud)) ||
        (L->meas && !(L->md = malloc(L->n * sizeof *L->md))))
        return -2;
    for (size_t i = 0; i < L->n; i++) {
        double u = !strcmp(L->u[i], "-inf") ? -INFINITY : text_double(L->u[i]);
        if (isnan(u) || u == INFINITY)
            return -1;
        L->ud[i] = u;
        if (L->meas) {
            /* a positive measure must stay a positive normal double; 0 excludes */
            double w = text_double(L->meas[i]);
            if (!(w == 0 || (w >= DBL_MIN && w < INFINITY))) /* NaN included */
                return -1;
            L->md[i] = w;
        }
    }
    return L->dstate = 1;
}

/* The EM's law (standard or monotone) in doubles, for a mistake: p_i ~ w_i exp(c u_i) by a
 * shifted sum of exponentials, when every number is an ordinary double and every |c u_i| is
 * at most 2^20, so that the exponents' absolute error stays below 2^-30 and each
 * probability's relative error below 10^-8: nothing for the power and the diagnosis it
 * serves, where the exact oracle's correctly rounded doubles cost a second on 10^5
 * candidates.  Returns 1 when done, 0 when the oracle must answer, -1 out of memory. */
static int fast_em_law(em_mistake_laws *L, int ukind, int meas, double c, double *q)
{
    int ps = parse_doubles(L);
    if (ps != 1)
        return ps == -2 ? -1 : 0;
    if (!(c > 0) || !isfinite(c))
        return 0;
    double xmax = -INFINITY;
    for (size_t i = 0; i < L->n; i++) {
        /* an excluded candidate stays excluded when the utilities are negated (neg_text) */
        if ((ukind != U_ZERO && L->ud[i] == -INFINITY) || (meas && L->md[i] == 0)) {
            q[i] = -INFINITY;
            continue;
        }
        double u = ukind == U_ZERO ? 0 : ukind == U_NEG ? -L->ud[i] : L->ud[i];
        double x = c * u;
        if (!(fabs(x) <= 0x1p20))
            return 0;
        q[i] = x + (meas ? log(L->md[i]) : 0);
        if (q[i] > xmax)
            xmax = q[i];
    }
    if (xmax == -INFINITY)
        return 0; /* every candidate excluded: the oracle's error */
    long double sum = 0;
    for (size_t i = 0; i < L->n; i++)
        sum += q[i] = exp(q[i] - xmax);
    for (size_t i = 0; i < L->n; i++)
        q[i] = (double)(q[i] / sum);
    return 1;
}

/* the finite law: a copy of the scenario with utilities ukind and the measure or none */
static int finite_mk(em_mistake_laws *L, int ukind, int meas, const char *eps, const char *delta,
                     int variant, double *q)
{
    if (variant != EM_PF) {
        int f = fast_em_law(L, ukind, meas, coef(eps, delta, variant), q);
        if (f)
            return f > 0 ? EM_OK : EM_ERR_NOMEM;
    }
    em_scn *s = NULL;
    char **u = NULL;
    int own = ukind != U_SAME || meas != L->has_measure;
    int st = EM_OK;
    if (ukind != U_SAME) {
        if (!(u = calloc(L->n, sizeof *u)))
            return EM_ERR_NOMEM;
        for (size_t i = 0; st == EM_OK && i < L->n; i++) {
            u[i] = ukind == U_ZERO ? strdup("0")
                   : !strcmp(L->u[i], "-inf") ? strdup("-inf") : neg_text(L->u[i]);
            if (!u[i])
                st = EM_ERR_NOMEM;
        }
    }
    if (st == EM_OK && own)
        st = em_scn_from_text(L->n, (const char *const *)(u ? u : L->u), NULL,
                              (const char *const *)(meas ? L->meas : NULL), &s, NULL);
    else if (st == EM_OK)
        s = em_mech_get(L->m).scn;
    if (st == EM_OK)
        st = law_doubles(s, eps, delta, variant, L->n, q);
    if (own)
        em_free(s);
    free_texts(u, L->n);
    return st;
}

static int finite_law(em_mistake_laws *L, int ukind, int meas, const char *eps, const char *delta,
                      int variant, double *q)
{
    const double *v;
    int st = cached(L, ukind, meas, eps, delta, variant, L->n, finite_mk, &v);
    if (st == EM_OK)
        memcpy(q, v, L->n * sizeof *q);
    return st;
}

/* em_conform_q_cmp on parsed numbers (kind: EM_Q_FINITE or EM_Q_NEG_INF) */
static int q_cmp_parsed(int ka, const mpq_t a, int kb, const mpq_t b)
{
    if (ka == EM_Q_NEG_INF || kb == EM_Q_NEG_INF)
        return (kb == EM_Q_NEG_INF) - (ka == EM_Q_NEG_INF);
    int r = mpq_cmp(a, b);
    return (r > 0) - (r < 0);
}

/* The argmax law (uniform on the best utilities, "-inf" skipped) with every utility parsed
 * once, as the loop over em_conform_q_cmp below decides it (which parses two texts a
 * comparison: 4n parses for n candidates).  1: done; 0: a text did not parse, q untouched
 * (the loop below decides); -1: out of memory. */
static int argmax_parsed(const em_mistake_laws *L, double *q, int *applies)
{
    mpq_t *v = malloc((L->n ? L->n : 1) * sizeof *v);
    int *kind = malloc((L->n ? L->n : 1) * sizeof *kind);
    if (!v || !kind) {
        free(v), free(kind);
        return -1;
    }
    size_t ni = 0;
    int ok = 1;
    for (; ni < L->n && ok; ni++) {
        mpq_init(v[ni]);
        ok = em_q_parse_str(L->u[ni], 1, v[ni], &kind[ni], NULL) == EM_OK;
    }
    size_t best = SIZE_MAX, nbest = 0;
    for (size_t i = 0; ok && i < L->n; i++) {
        if (!strcmp(L->u[i], "-inf"))
            continue;
        int cmp = best != SIZE_MAX ? q_cmp_parsed(kind[i], v[i], kind[best], v[best]) : 1;
        if (cmp > 0)
            best = i, nbest = 0;
        if (cmp >= 0)
            nbest++;
    }
    for (size_t i = 0; ok && best != SIZE_MAX && i < L->n; i++)
        q[i] = strcmp(L->u[i], "-inf") && !q_cmp_parsed(kind[i], v[i], kind[best], v[best])
                   ? 1.0 / (double)nbest
                   : 0.0;
    if (ok)
        *applies = best != SIZE_MAX;
    for (size_t i = 0; i < ni; i++)
        mpq_clear(v[i]);
    free(v), free(kind);
    return ok;
}

static int finite_alt(em_mistake_laws *L, int mk, comp_law *c)
{
    c->q = calloc(L->n, sizeof *c->q);
    if (!c->q)
        return EM_ERR_NOMEM;
    char *e2 = NULL;
    int st = EM_OK, applies = 1;
    switch (mk) {
    case EM_MISTAKE_EPS_NOT_HALVED:
        if (L->variant == EM_STANDARD)
            st = finite_law(L, U_SAME, L->has_measure, L->eps, L->delta, EM_MONOTONE, c->q);
        else if (L->variant == EM_PF && (e2 = em_conform_q_scale(L->eps, 2, 1)))
            st = finite_law(L, U_SAME, L->has_measure, e2, L->delta, EM_PF, c->q);
        else
            applies = 0;
        break;
    case EM_MISTAKE_EPS_DOUBLED:
        if ((e2 = em_conform_q_scale(L->eps, 2, 1)))
            st = finite_law(L, U_SAME, L->has_measure, e2, L->delta, L->variant, c->q);
        else
            st = EM_ERR_NOMEM;
        break;
    case EM_MISTAKE_DELTA_IGNORED:
        st = finite_law(L, U_SAME, L->has_measure, L->eps, "1", L->variant, c->q);
        break;
    case EM_MISTAKE_MEASURE_IGNORED:
        if (L->has_measure)
            st = finite_law(L, U_SAME, 0, L->eps, L->delta, L->variant, c->q);
        else
            applies = 0;
        break;
    case EM_MISTAKE_PF_FOR_EM:
        /* permute-and-flip with the coefficient the EM was asked for: eps / Delta for the
         * monotone variant, which is permute-and-flip at 2 eps */
        if (L->variant == EM_PF || L->has_measure || L->n > EM_DIAG_PF_MAX)
            applies = 0;
        else if (L->variant == EM_STANDARD)
            st = finite_law(L, U_SAME, 0, L->eps, L->delta, EM_PF, c->q);
        else if ((e2 = em_conform_q_scale(L->eps, 2, 1)))
            st = finite_law(L, U_SAME, 0, e2, L->delta, EM_PF, c->q);
        else
            st = EM_ERR_NOMEM;
        break;
    case EM_MISTAKE_EM_FOR_PF:
        if (L->variant == EM_PF)
            st = finite_law(L, U_SAME, L->has_measure, L->eps, L->delta, EM_STANDARD, c->q);
        else
            applies = 0;
        break;
    case EM_MISTAKE_NEGATED:
        st = finite_law(L, U_NEG, L->has_measure, L->eps, L->delta, L->variant, c->q);
        break;
    case EM_MISTAKE_UNIFORM: { /* every candidate, excluded ones too, by its measure */
        double sum = 0;
        for (size_t i = 0; i < L->n; i++)
            sum += c->q[i] = L->meas ? em_conform_q_double(L->meas[i]) : 1.0;
        for (size_t i = 0; i < L->n; i++)
            c->q[i] = sum > 0 && isfinite(sum) ? c->q[i] / sum : 0.0;
        applies = sum > 0 && isfinite(sum);
        break;
    }
    case EM_MISTAKE_ARGMAX: {
        int done = argmax_parsed(L, c->q, &applies);
        if (done < 0) {
            st = EM_ERR_NOMEM;
            break;
        }
        if (done)
            break;
        const char *best = NULL;
        size_t nbest = 0;
        for (size_t i = 0; i < L->n; i++) {
            if (!strcmp(L->u[i], "-inf"))
                continue;
            int cmp = best ? em_conform_q_cmp(L->u[i], best) : 1;
            if (cmp > 0)
                best = L->u[i], nbest = 0;
            if (cmp >= 0)
                nbest++;
        }
        for (size_t i = 0; best && i < L->n; i++)
            c->q[i] = strcmp(L->u[i], "-inf") && !em_conform_q_cmp(L->u[i], best)
                          ? 1.0 / (double)nbest
                          : 0.0;
        applies = best != NULL;
        break;
    }
    default:
        applies = 0;
    }
    free(e2);
    if (st == EM_ERR_NOMEM)
        return st;
    c->applies = applies && st == EM_OK;
    return EM_OK;
}

/* ------------------------------------------------------------ continuous laws */

/* P(X <= x) for the shape of piece j (weight 1), x clamped to the piece */
static double piece_cdf(const em_mistake_laws *L, const comp_law *c, size_t j, double x)
{
    double lo = L->dlo[j], hi = L->dhi[j];
    if (c->shape[j] == SH_ATOM)
        return x >= c->x[j] ? 1.0 : 0.0;
    if (x <= lo)
        return 0.0;
    if (x >= hi)
        return 1.0;
    double s = c->shape[j] == SH_EXP ? c->s[j] : 0.0;
    if (s == 0)
        return (x - lo) / (hi - lo);
    if (s > 0) { /* (e^t - e^L) / (1 - e^L), t = s(x - hi), L = s(lo - hi) */
        double t = s * (x - hi), Lo = isinf(lo) ? -INFINITY : s * (lo - hi);
        if (isinf(Lo))
            return exp(t);
        return exp(Lo) * expm1(t - Lo) / -expm1(Lo);
    }
    /* s < 0: 1 - P(X > x), P(X > x) = (e^t - e^H) / (1 - e^H), t = s(x - lo), H = s(hi - lo) */
    double t = s * (x - lo), H = isinf(hi) ? -INFINITY : s * (hi - lo);
    if (isinf(H))
        return -expm1(t);
    return 1.0 - exp(H) * expm1(t - H) / -expm1(H);
}

static int comp_alloc(comp_law *c, size_t k)
{
    c->w = calloc(k, sizeof *c->w);
    c->shape = calloc(k, sizeof *c->shape);
    c->s = calloc(k, sizeof *c->s);
    c->x = calloc(k, sizeof *c->x);
    return c->w && c->shape && c->s && c->x ? EM_OK : EM_ERR_NOMEM;
}

/* every piece's shape: the exact law's conditional at coefficient cc (zero width: an atom) */
static void exp_shapes(const em_mistake_laws *L, comp_law *c, double cc)
{
    for (size_t j = 0; j < L->k; j++) {
        c->s[j] = cc * L->db[j];
        c->shape[j] = L->dlo[j] == L->dhi[j] ? SH_ATOM : SH_EXP;
        c->x[j] = L->dlo[j];
    }
}

/* the piece masses of the EM over the pieces (a, b negated with U_NEG) */
static int cont_mk(em_mistake_laws *L, int ukind, int meas, const char *eps, const char *delta,
                   int variant, double *w)
{
    (void)meas;
    em_scn *s = NULL;
    int st = EM_OK, neg = ukind == U_NEG;
    char **na = NULL, **nb = NULL;
    if (neg) {
        na = calloc(L->k, sizeof *na), nb = calloc(L->k, sizeof *nb);
        st = na && nb ? EM_OK : EM_ERR_NOMEM;
        for (size_t j = 0; st == EM_OK && j < L->k; j++)
            if (!(na[j] = em_conform_q_neg(L->a[j])) || !(nb[j] = em_conform_q_neg(L->b[j])))
                st = EM_ERR_NOMEM;
        if (st == EM_OK)
            st = em_scn_from_pieces(L->k, (const char *const *)L->lo, (const char *const *)L->hi,
                                    (const char *const *)na, (const char *const *)nb, &s, NULL);
    } else {
        s = em_mech_get(L->m).scn;
    }
    if (st == EM_OK)
        st = law_doubles(s, eps, delta, variant, L->k, w);
    if (neg)
        em_free(s);
    free_texts(na, L->k), free_texts(nb, L->k);
    return st;
}

/* the EM over the pieces (a, b negated when neg) at eps, delta, variant */
static int cont_em(em_mistake_laws *L, const char *eps, const char *delta, int variant, int neg,
                   comp_law *c)
{
    const double *w;
    int st = cached(L, neg ? U_NEG : U_SAME, 0, eps, delta, variant, L->k, cont_mk, &w);
    if (st != EM_OK)
        return st;
    memcpy(c->w, w, L->k * sizeof *w);
    exp_shapes(L, c, (neg ? -1 : 1) * coef(eps, delta, variant));
    return EM_OK;
}

/* normalise log-weights lw[] into c->w */
static void from_logs(const em_mistake_laws *L, comp_law *c, const double *lw)
{
    double mx = -INFINITY, sum = 0;
    for (size_t j = 0; j < L->k; j++)
        mx = lw[j] > mx ? lw[j] : mx;
    for (size_t j = 0; j < L->k; j++)
        sum += c->w[j] = isinf(mx) ? 0.0 : exp(lw[j] - mx);
    for (size_t j = 0; j < L->k; j++)
        c->w[j] = sum > 0 ? c->w[j] / sum : 0.0;
}

static int cont_alt(em_mistake_laws *L, int mk, comp_law *c)
{
    if (comp_alloc(c, L->k) != EM_OK)
        return EM_ERR_NOMEM;
    char *e2 = NULL;
    int st = EM_OK, applies = 1;
    double *lw = NULL;
    switch (mk) {
    case EM_MISTAKE_EPS_NOT_HALVED:
        if (L->variant == EM_STANDARD)
            st = cont_em(L, L->eps, L->delta, EM_MONOTONE, 0, c);
        else
            applies = 0;
        break;
    case EM_MISTAKE_LAPLACE_SCALE:
        if (L->kind != EM_KIND_LAPLACE) {
            applies = 0;
            break;
        }
        /* scale Delta_f / eps is the mechanism at 2 eps */
        __attribute__((fallthrough));
    case EM_MISTAKE_EPS_DOUBLED:
        if ((e2 = em_conform_q_scale(L->eps, 2, 1)))
            st = cont_em(L, e2, L->delta, L->variant, 0, c);
        else
            st = EM_ERR_NOMEM;
        break;
    case EM_MISTAKE_DELTA_IGNORED:
        st = cont_em(L, L->eps, "1", L->variant, 0, c);
        break;
    case EM_MISTAKE_NEGATED:
        st = cont_em(L, L->eps, L->delta, L->variant, 1, c);
        break;
    case EM_MISTAKE_MEASURE_IGNORED:
    case EM_MISTAKE_UNIFORM:
        if (!(lw = malloc(L->k * sizeof *lw))) {
            st = EM_ERR_NOMEM;
            break;
        }
        exp_shapes(L, c, L->c);
        for (size_t j = 0; j < L->k; j++) {
            double lo = L->dlo[j], hi = L->dhi[j];
            if (mk == EM_MISTAKE_UNIFORM) { /* the uniform law over R */
                applies &= !isinf(lo) && !isinf(hi);
                lw[j] = hi > lo ? log(hi - lo) : -INFINITY;
                c->shape[j] = SH_UNIFORM;
            } else { /* each piece weighted as a point: exp(c u) at its middle (a ray: its end) */
                double x = isinf(lo) ? hi : isinf(hi) ? lo : lo + (hi - lo) / 2;
                lw[j] = L->c * (L->da[j] + L->db[j] * x);
            }
        }
        if (applies)
            from_logs(L, c, lw);
        break;
    case EM_MISTAKE_UNIFORM_IN_PIECES:
        exp_shapes(L, c, L->c);
        for (size_t j = 0; j < L->k; j++) {
            c->w[j] = L->mass[j];
            if (!isinf(L->dlo[j]) && !isinf(L->dhi[j]) && c->shape[j] == SH_EXP)
                c->shape[j] = SH_UNIFORM;
        }
        break;
    case EM_MISTAKE_ARGMAX: {
        /* the largest u over R (at a piece's finite ends; a ray's density decays outwards) */
        double best = -INFINITY;
        for (size_t j = 0; j < L->k; j++)
            for (int e = 0; e < 2; e++) {
                double x = e ? L->dhi[j] : L->dlo[j];
                if (!isinf(x)) {
                    double u = L->da[j] + L->db[j] * x;
                    best = u > best ? u : best;
                }
            }
        double tol = 1e-12 * (fabs(best) > 1 ? fabs(best) : 1), len = 0;
        if (!(lw = malloc(L->k * sizeof *lw))) {
            st = EM_ERR_NOMEM;
            break;
        }
        /* a constant piece at the top carries the whole law (by its length); else points */
        for (size_t j = 0; j < L->k; j++)
            if (L->db[j] == 0 && fabs(L->da[j] - best) <= tol && L->dhi[j] > L->dlo[j] &&
                !isinf(L->dhi[j] - L->dlo[j]))
                len += L->dhi[j] - L->dlo[j];
        for (size_t j = 0; j < L->k; j++) {
            lw[j] = -INFINITY;
            c->shape[j] = SH_ATOM;
            if (len > 0) {
                if (L->db[j] == 0 && fabs(L->da[j] - best) <= tol && L->dhi[j] > L->dlo[j]) {
                    lw[j] = log((L->dhi[j] - L->dlo[j]) / len);
                    c->shape[j] = SH_UNIFORM;
                }
                continue;
            }
            for (int e = 0; e < 2; e++) {
                double x = e ? L->dhi[j] : L->dlo[j];
                if (!isinf(x) && fabs(L->da[j] + L->db[j] * x - best) <= tol) {
                    lw[j] = 0;
                    c->x[j] = x;
                    break;
                }
            }
        }
        from_logs(L, c, lw);
        break;
    }
    default:
        applies = 0;
    }
    free(e2);
    free(lw);
    if (st == EM_ERR_NOMEM)
        return st;
    c->applies = applies && st == EM_OK;
    return EM_OK;
}

/* is x inside R (a piece of positive length, its ends widened by an ulp)? */
static int in_support(const em_mistake_laws *L, double x)
{
    for (size_t j = 0; j < L->k; j++)
        if (L->dhi[j] > L->dlo[j] && x >= nextafter(L->dlo[j], -INFINITY) &&
            x <= nextafter(L->dhi[j], INFINITY))
            return 1;
    return 0;
}

static void cont_cells(const em_mistake_laws *L, const comp_law *c, const em_check_result *r,
                       double *q)
{
    size_t nb = r->nrows;
    memset(q, 0, (nb + 1) * sizeof *q);
    for (size_t j = 0; j < L->k; j++) {
        if (!(c->w[j] > 0))
            continue;
        if (c->shape[j] == SH_ATOM) {
            double x = c->x[j];
            size_t cell = nb;
            if (in_support(L, x))
                for (size_t b = 0; b < nb; b++)
                    if ((x >= r->rows[b].lo && x < r->rows[b].hi) ||
                        (b + 1 == nb && x >= r->rows[b].lo)) {
                        cell = b;
                        break;
                    }
            q[cell] += c->w[j];
            continue;
        }
        double prev = 0;
        for (size_t b = 0; b < nb; b++) {
            double f = b + 1 == nb ? 1.0 : piece_cdf(L, c, j, r->rows[b].hi);
            q[b] += c->w[j] * (f - prev);
            prev = f;
        }
    }
    double sum = 0;
    for (size_t b = 0; b <= nb; b++)
        sum += q[b] = q[b] > 0 ? q[b] : 0.0;
    for (size_t b = 0; b <= nb && sum > 0; b++)
        q[b] /= sum;
}

int em_mistake_alt(em_mistake_laws *L, int mk, const em_check_result *r, size_t n, const double *p,
                   double *q, int *applies, em_error *err)
{
    *applies = 0;
    if (mk < 0 || mk >= EM_MISTAKE_COUNT)
        return EM_OK;
    comp_law *c = &L->alt[mk];
    if (!c->done) {
        int st = L->continuous ? cont_alt(L, mk, c) : finite_alt(L, mk, c);
        if (st != EM_OK) {
            comp_free(c);
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        }
        c->done = 1;
    }
    if (!c->applies)
        return EM_OK;
    if (L->continuous)
        cont_cells(L, c, r, q);
    else
        memcpy(q, c->q, n * sizeof *q);
    /* a law equal to the exact one here is no mistake to name */
    double sum = 0, diff = 0;
    for (size_t i = 0; i < n; i++) {
        sum += q[i];
        diff = fmax(diff, fabs(q[i] - p[i]));
    }
    *applies = sum > 0.5 && diff > (L->continuous ? 1e-9 : 0.0);
    return EM_OK;
}
