/* em_case.c: the cases of the conformance battery (em_conform.h): reading and writing their
 * JSON (Jansson), their mechanisms, and making a case from its inputs (its exact law at 40
 * digits and the mistakes it catches).  Schema: conformance/README.md. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "em_conform.h"
#include "em_law.h"
#include "api/em_conform_priv.h"
#include "api/em_judge_priv.h"
#include "api/em_mistake_priv.h"
#include "base/em_error.h"
#include "io/em_text.h"
#include "judge/em_gof_alt.h"
#include "api/em_obj.h"
#include "api/em_scn_priv.h"

#define SCHEMA "expmech-conformance-1"
#define LAW_DIGITS 40
#define NBINS 20         /* the equal-mass bins of the continuous check (em_draws_check) */
#define CDF_POINTS 32
#define CASE_MAX_BYTES ((size_t)256 << 20)

/* ------------------------------------------------------------------ kinds */

static const char *const kind_names[EM_KIND_COUNT] = {"finite", "weighted", "pf",
                                                      "continuous", "quantile", "laplace"};

const char *em_kind_name(int kind)
{
    return kind >= 0 && kind < EM_KIND_COUNT ? kind_names[kind] : NULL;
}

/* em_write of a case (em_obj.h) */
static int write_case(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                      em_error *err)
{
    (void)ctx, (void)o;
    return em_case_write(obj, f, err);
}

int em_kind_from_name(const char *name)
{
    for (int k = 0; name && k < EM_KIND_COUNT; k++)
        if (!strcmp(name, kind_names[k]))
            return k;
    return -1;
}

static int is_finite_kind(int kind)
{
    return kind == EM_KIND_FINITE || kind == EM_KIND_WEIGHTED || kind == EM_KIND_PF;
}

/* ------------------------------------------------------------------ storage */

static void freev(const char *const *v, size_t n)
{
    if (v)
        for (size_t i = 0; i < n; i++)
            free((char *)v[i]);
    free((void *)v);
}

static void free_pieces(em_case *c)
{
    freev(c->lo, c->npieces), freev(c->hi, c->npieces);
    freev(c->a, c->npieces), freev(c->b, c->npieces);
    freev(c->mass, c->npieces);
    c->lo = c->hi = c->a = c->b = c->mass = NULL;
    c->npieces = 0;
}

static void case_destroy(void *obj)
{
    em_case *c = obj;
    free((char *)c->file), free((char *)c->id), free((char *)c->title);
    free((char *)c->error), free((char *)c->epsilon), free((char *)c->sensitivity);
    freev(c->labels, c->n), freev(c->utilities, c->n), freev(c->measure, c->n);
    freev(c->probability, c->n);
    free_pieces(c);
    freev(c->data, c->ndata);
    free((char *)c->alpha), free((char *)c->bound_lo), free((char *)c->bound_hi);
    free((char *)c->f);
    free((void *)c->catches), free((void *)c->catches_draws);
    freev(c->cdf_x, c->ncdf), freev(c->cdf, c->ncdf);
    freev(c->edges, c->nedges);
    em_obj_release(c);
}

static char *dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* a copy of n texts (NULL stays NULL); *bad set on lack of memory or a NULL element */
static const char *const *dupv(const char *const *v, size_t n, int *bad)
{
    if (!v)
        return NULL;
    char **o = calloc(n ? n : 1, sizeof *o);
    if (!o) {
        *bad = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (!v[i] || !(o[i] = strdup(v[i])))
            *bad = 1;
    return (const char *const *)o;
}

/* ------------------------------------------------------------- pieces of kinds */

/* the law's pieces of a quantile or laplace case, from its inputs */
static int derive_pieces(em_case *c, em_error *err)
{
    if (c->kind != EM_KIND_QUANTILE && c->kind != EM_KIND_LAPLACE)
        return EM_OK;
    free_pieces(c);
    if (c->kind == EM_KIND_QUANTILE) {
        char **lo, **hi, **a, **b;
        size_t k;
        int st = em_conform_quantile_pieces(c->ndata, c->data, c->alpha, c->bound_lo, c->bound_hi,
                                            &k, &lo, &hi, &a, &b, err);
        if (st != EM_OK)
            return st;
        c->npieces = k;
        c->lo = (const char *const *)lo, c->hi = (const char *const *)hi;
        c->a = (const char *const *)a, c->b = (const char *const *)b;
        return EM_OK;
    }
    if (c->kind != EM_KIND_LAPLACE)
        return EM_OK;
    if (!c->f || !em_conform_q_is_number(c->f, 0))
        return em_err(err, EM_ERR_PARSE, "f '%.40s': expected an exact number",
                      c->f ? c->f : "(none)");
    char **v[4];
    int bad = 0;
    for (int i = 0; i < 4; i++)
        if (!(v[i] = calloc(2, sizeof *v[i])))
            bad = 1;
    if (!bad) {
        /* u = -|f - r|: r - f on (-inf, f], f - r on [f, inf) */
        v[0][0] = strdup("-inf"), v[0][1] = strdup(c->f);
        v[1][0] = strdup(c->f), v[1][1] = strdup("inf");
        v[2][0] = em_conform_q_neg(c->f), v[2][1] = strdup(c->f);
        v[3][0] = strdup("1"), v[3][1] = strdup("-1");
        for (int i = 0; i < 4; i++)
            bad |= !v[i][0] || !v[i][1];
    }
    c->npieces = 2;
    c->lo = (const char *const *)v[0], c->hi = (const char *const *)v[1];
    c->a = (const char *const *)v[2], c->b = (const char *const *)v[3];
    if (bad)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    return EM_OK;
}

int em_case_mech(const em_case *c, em_scn **s, em_mech **m, em_error *err)
{
    if (!s || !m)
        return em_err(err, EM_ERR_NULL, "em_case_mech: s or m is NULL");
    *s = NULL;
    *m = NULL;
    if (!c)
        return em_err(err, EM_ERR_NULL, "em_case_mech: case NULL");
    int st;
    if (is_finite_kind(c->kind)) {
        if (c->n == 0)
            return em_err(err, EM_ERR_EMPTY, "no candidates");
        st = em_scn_from_text(c->n, c->utilities, c->labels, c->measure, s, err);
    } else if (c->npieces == 0) {
        return em_err(err, EM_ERR_EMPTY, "no pieces");
    } else {
        st = em_scn_from_pieces(c->npieces, c->lo, c->hi, c->a, c->b, s, err);
    }
    if (st == EM_OK && c->variant == EM_MONOTONE)
        st = em_scn_declare(*s, NULL, 1, err);
    em_opts o = EM_OPTS_INIT;
    o.epsilon = c->epsilon;
    o.sensitivity = c->sensitivity;
    o.variant = c->variant;
    if (st == EM_OK)
        st = em_mech_new(*s, &o, m, err);
    if (st == EM_OK)
        st = em_probs_prepare(*m, err);
    if (st != EM_OK) {
        em_free(*m);
        em_free(*s);
        *m = NULL;
        *s = NULL;
        return st;
    }
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------- the law */

static int law_finite(em_case *c, em_mech *m, em_error *err)
{
    char **p = calloc(c->n, sizeof *p);
    if (!p)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    c->probability = (const char *const *)p;
    for (size_t i = 0; i < c->n; i++) {
        em_prob pr;
        int st = em_probs_get(m, i, &pr, err);
        if (st != EM_OK)
            return st;
        if (!(p[i] = strdup(pr.prob)))
            return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    return EM_OK;
}

static int take(char **dst, char *src, em_error *err)
{
    *dst = src;
    return src ? EM_OK : em_err(err, EM_ERR_NOMEM, "out of memory");
}

/* the CDF points: x = Q(k/33) to 17 digits, k = 1..32, and the finite piece ends when there
 * are few pieces; sorted, without repeats */
static int cdf_points(em_case *c, em_mech *m40, em_mech *m17, em_error *err)
{
    size_t cap = CDF_POINTS + (c->npieces <= CDF_POINTS ? 2 * c->npieces : 0);
    char **x = calloc(cap, sizeof *x);
    size_t n = 0;
    int st = x ? EM_OK : em_err(err, EM_ERR_NOMEM, "out of memory");
    for (int k = 1; st == EM_OK && k <= CDF_POINTS; k++) {
        char q[32];
        snprintf(q, sizeof q, "%d/%d", k, CDF_POINTS + 1);
        st = em_quantile_plain(m17, q, &x[n], err);
        if (st == EM_OK && (!strcmp(x[n], "-inf") || !strcmp(x[n], "inf")))
            free(x[n]), x[n] = NULL;
        else if (st == EM_OK)
            n++;
    }
    for (size_t j = 0; st == EM_OK && c->npieces <= CDF_POINTS && j < c->npieces; j++)
        for (int e = 0; e < 2 && st == EM_OK; e++) {
            const char *v = e ? c->hi[j] : c->lo[j];
            if (strcmp(v, "-inf") && strcmp(v, "inf"))
                st = take(&x[n++], strdup(v), err);
        }
    /* insertion sort by exact value, dropping repeats */
    size_t w = 0;
    for (size_t i = 0; st == EM_OK && i < n; i++) {
        char *v = x[i];
        size_t j = w;
        int dupe = 0;
        while (j > 0) {
            int s = em_conform_q_cmp(x[j - 1], v);
            if (s == 0)
                dupe = 1;
            if (s <= 0)
                break;
            j--;
        }
        if (dupe) {
            free(v);
            continue;
        }
        memmove(x + j + 1, x + j, (w - j) * sizeof *x);
        x[j] = v;
        w++;
    }
    if (st != EM_OK) {
        for (size_t i = 0; i < n; i++)
            free(x[i]);
        free(x);
        return st;
    }
    char **f = calloc(w ? w : 1, sizeof *f);
    c->cdf_x = (const char *const *)x;
    c->cdf = (const char *const *)f;
    c->ncdf = w;
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < w && st == EM_OK; i++)
        st = em_cdf_plain(m40, x[i], &f[i], err);
    return st;
}

static int law_continuous(em_case *c, em_mech *m, em_scn *s, em_error *err)
{
    char **mass = calloc(c->npieces, sizeof *mass);
    char **edges = calloc(NBINS - 1, sizeof *edges);
    c->mass = (const char *const *)mass;
    c->edges = (const char *const *)edges;
    if (!mass || !edges)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    c->nedges = NBINS - 1;
    int st = EM_OK;
    for (size_t j = 0; j < c->npieces && st == EM_OK; j++) {
        em_prob pr;
        if ((st = em_probs_get(m, j, &pr, err)) == EM_OK)
            st = take(&mass[j], strdup(pr.prob), err);
    }
    for (int k = 1; k < NBINS && st == EM_OK; k++) {
        char q[32];
        snprintf(q, sizeof q, "%d/%d", k, NBINS);
        st = em_quantile_plain(m, q, &edges[k - 1], err);
    }
    em_mech *m17 = NULL;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = c->epsilon;
    o.sensitivity = c->sensitivity;
    o.variant = c->variant;
    if (st == EM_OK)
        st = em_mech_new(s, &o, &m17, err);
    if (st == EM_OK)
        st = cdf_points(c, m, m17, err);
    em_free(m17);
    return st;
}

/* ------------------------------------------------------------- catches */

/* the smallest N on a grid of 20 a decade from 10 to max_draws with power >= 0.99 against
 * q (binary search: the power grows with N), or 0 when max_draws is not enough */
static uint64_t draws_needed(size_t n, const double *p, const double *q, double alpha,
                             uint64_t max_draws)
{
    const double need = 0.99;
    if (em_gof_alt_power(n, p, q, max_draws, alpha, EM_DIAG_MIN_EXPECTED) < need)
        return 0;
    int lo = 20, hi = (int)ceil(20 * log10((double)max_draws)); /* 10^(i/20) */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        uint64_t N = (uint64_t)ceil(pow(10, mid / 20.0));
        if (em_gof_alt_power(n, p, q, N, alpha, EM_DIAG_MIN_EXPECTED) >= need)
            hi = mid;
        else
            lo = mid + 1;
    }
    uint64_t N = (uint64_t)ceil(pow(10, lo / 20.0));
    return N < max_draws ? N : max_draws;
}

static int find_catches(em_case *c, em_mech *m, double alpha, uint64_t max_draws, em_error *err)
{
    em_mistake_laws *L = NULL;
    em_check_result *r = NULL;
    double *p = NULL, *q = NULL;
    uint64_t *obs = NULL;
    size_t n = 0;
    int st = em_mistake_laws_new(m, c->kind == EM_KIND_LAPLACE ? EM_KIND_LAPLACE : -1, &L, err);
    if (st == EM_OK && !is_finite_kind(c->kind)) {
        /* the bins of the check, from a check of one draw at the median */
        char *med = NULL;
        st = em_quantile_plain(m, "1/2", &med, err);
        double x = st == EM_OK ? em_conform_q_double(med) : 0;
        free(med);
        if (st == EM_OK)
            st = em_judge_check_values(m, &x, 1, NULL, &r, err);
    }
    if (st == EM_OK)
        st = em_mistake_cells(L, r, NULL, &n, &p, &obs, err);
    int *cat = calloc(EM_MISTAKE_COUNT, sizeof *cat);
    uint64_t *dr = calloc(EM_MISTAKE_COUNT, sizeof *dr);
    c->catches = cat;
    c->catches_draws = dr;
    if (st == EM_OK && (!cat || !dr || !(q = malloc(n * sizeof *q))))
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    for (int mk = 0; st == EM_OK && mk < EM_MISTAKE_COUNT; mk++) {
        int applies;
        st = em_mistake_alt(L, mk, r, n, p, q, &applies, err);
        if (st != EM_OK || !applies)
            continue;
        uint64_t N = draws_needed(n, p, q, alpha, max_draws);
        if (N) {
            cat[c->ncatches] = mk;
            dr[c->ncatches++] = N;
        }
    }
    free(p), free(q), free(obs);
    em_free(r);
    em_mistake_laws_free(L);
    return st;
}

/* ------------------------------------------------------- a case from its inputs */

static int case_make(const em_case *def, double alpha, uint64_t max_draws, em_case **out,
                     em_error *err)
{
    if (!def->id || !def->title || !em_kind_name(def->kind))
        return em_err(err, EM_ERR_DOMAIN, "em_case_new: id, title and a kind are required");
    if (!(alpha > 0 && alpha < 1) || max_draws < 1)
        return em_err(err, EM_ERR_DOMAIN, "em_case_new: alpha in (0, 1) and max_draws >= 1");
    em_case *c = em_obj_new(sizeof *c, case_destroy);
    if (c)
        em_obj_writer(c, write_case, NULL, NULL);
    if (!c)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    int bad = 0;
    c->id = dup(def->id), c->title = dup(def->title);
    c->kind = def->kind;
    c->expect_error = def->expect_error;
    c->quick = def->quick;
    c->epsilon = dup(def->epsilon), c->sensitivity = dup(def->sensitivity);
    c->variant = def->variant;
    c->digits = LAW_DIGITS;
    if (is_finite_kind(c->kind)) {
        c->n = def->n;
        c->utilities = dupv(def->utilities, def->n, &bad);
        c->measure = dupv(def->measure, def->n, &bad);
        if (def->labels) {
            c->labels = dupv(def->labels, def->n, &bad);
        } else {
            char **l = calloc(def->n ? def->n : 1, sizeof *l);
            bad |= !l;
            for (size_t i = 0; l && i < def->n; i++) {
                char t[32];
                snprintf(t, sizeof t, "%zu", i);
                bad |= !(l[i] = strdup(t));
            }
            c->labels = (const char *const *)l;
        }
    } else if (c->kind == EM_KIND_CONTINUOUS) {
        c->npieces = def->npieces;
        c->lo = dupv(def->lo, def->npieces, &bad), c->hi = dupv(def->hi, def->npieces, &bad);
        c->a = dupv(def->a, def->npieces, &bad), c->b = dupv(def->b, def->npieces, &bad);
    } else if (c->kind == EM_KIND_QUANTILE) {
        c->ndata = def->ndata;
        c->data = dupv(def->data, def->ndata, &bad);
        c->alpha = dup(def->alpha), c->bound_lo = dup(def->bound_lo);
        c->bound_hi = dup(def->bound_hi);
    } else {
        c->f = dup(def->f);
    }
    if (bad || !c->id || !c->title || !c->epsilon || !c->sensitivity) {
        em_free(c);
        return em_err(err, bad ? EM_ERR_DOMAIN : EM_ERR_NOMEM,
                      "%s: %s", def->id, bad ? "an input text is missing (NULL)" : "out of memory");
    }
    em_error e;
    int st = derive_pieces(c, &e);
    if (st == EM_ERR_NOMEM) {
        em_free(c);
        return em_err(err, st, "out of memory");
    }
    em_scn *s = NULL;
    em_mech *m = NULL;
    if (st == EM_OK)
        st = em_case_mech(c, &s, &m, &e);
    if (c->expect_error) {
        em_free(m);
        em_free(s);
        if (st == EM_OK) {
            em_free(c);
            return em_err(err, EM_ERR_DOMAIN, "%s: expected the library to refuse the case, but it "
                          "accepts it", def->id);
        }
        if (!(c->error = strdup(e.msg))) {
            em_free(c);
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        }
        *out = c;
        em_err_ok(err);
        return EM_OK;
    }
    if (st != EM_OK) {
        em_free(c);
        return em_err(err, st, "%s: %s", def->id, e.msg);
    }
    em_mech *m40 = NULL;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = c->epsilon;
    o.sensitivity = c->sensitivity;
    o.variant = c->variant;
    o.digits = LAW_DIGITS;
    st = em_mech_new(s, &o, &m40, &e);
    if (st == EM_OK)
        st = is_finite_kind(c->kind) ? law_finite(c, m40, &e) : law_continuous(c, m40, s, &e);
    if (st == EM_OK)
        st = find_catches(c, m, alpha, max_draws, &e);
    em_free(m40);
    em_free(m);
    em_free(s);
    if (st != EM_OK) {
        em_free(c);
        return em_err(err, st, "%s: %s", def->id, e.msg);
    }
    *out = c;
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------- writing */

static json_t *strv(const char *const *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_string(v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static int index_labels(const em_case *c)
{
    for (size_t i = 0; i < c->n; i++) {
        char t[32];
        snprintf(t, sizeof t, "%zu", i);
        if (strcmp(c->labels[i], t))
            return 0;
    }
    return 1;
}

static const char *variant_name(int v)
{
    return v == EM_PF ? "pf" : v == EM_MONOTONE ? "monotone" : "standard";
}

/* pieces as objects {lo, hi, a, b[, mass]} */
static json_t *pieces_json(const em_case *c, int with_mass)
{
    json_t *arr = json_array();
    for (size_t j = 0; arr && j < c->npieces; j++) {
        json_t *o = json_object();
        int bad = !o || json_object_set_new(o, "lo", json_string(c->lo[j])) ||
                  json_object_set_new(o, "hi", json_string(c->hi[j])) ||
                  json_object_set_new(o, "a", json_string(c->a[j])) ||
                  json_object_set_new(o, "b", json_string(c->b[j])) ||
                  (with_mass && json_object_set_new(o, "mass", json_string(c->mass[j])));
        if (bad || json_array_append_new(arr, o)) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

int em_case_write(const em_case *c, FILE *f, em_error *err)
{
    if (!c || !f)
        return em_err(err, EM_ERR_NULL, "em_write: case or file NULL");
    json_t *root = json_object(), *sc = json_object(), *law = NULL, *cat = json_array();
    int bad = !root || !sc || !cat;
    bad |= json_object_set_new(root, "schema", json_string(SCHEMA)) != 0;
    bad |= json_object_set_new(root, "id", json_string(c->id)) != 0;
    bad |= json_object_set_new(root, "title", json_string(c->title)) != 0;
    bad |= json_object_set_new(root, "kind", json_string(em_kind_name(c->kind))) != 0;
    bad |= json_object_set_new(root, "expect", json_string(c->expect_error ? "error" : "law"));
    bad |= json_object_set_new(root, "quick", json_boolean(c->quick)) != 0;
    if (c->expect_error)
        bad |= json_object_set_new(root, "error", json_string(c->error ? c->error : "")) != 0;
    bad |= json_object_set_new(root, "epsilon", json_string(c->epsilon)) != 0;
    bad |= json_object_set_new(root, "sensitivity", json_string(c->sensitivity)) != 0;
    bad |= json_object_set_new(root, "variant", json_string(variant_name(c->variant))) != 0;
    if (is_finite_kind(c->kind)) {
        if (!index_labels(c))
            bad |= json_object_set_new(sc, "labels", strv(c->labels, c->n)) != 0;
        bad |= json_object_set_new(sc, "utilities", strv(c->utilities, c->n)) != 0;
        if (c->measure)
            bad |= json_object_set_new(sc, "measure", strv(c->measure, c->n)) != 0;
    } else if (c->kind == EM_KIND_CONTINUOUS) {
        bad |= json_object_set_new(sc, "pieces", pieces_json(c, 0)) != 0;
    } else if (c->kind == EM_KIND_QUANTILE) {
        bad |= json_object_set_new(sc, "data", strv(c->data, c->ndata)) != 0;
        bad |= json_object_set_new(sc, "alpha", json_string(c->alpha)) != 0;
        const char *b[2] = {c->bound_lo, c->bound_hi};
        bad |= json_object_set_new(sc, "bounds", strv(b, 2)) != 0;
    } else {
        bad |= json_object_set_new(sc, "f", json_string(c->f)) != 0;
    }
    bad |= json_object_set_new(root, "scenario", sc) != 0;
    /* the law, when the case has one (a case read from a file may come without) */
    int has_law = is_finite_kind(c->kind) ? c->probability != NULL : c->mass != NULL;
    if (!c->expect_error && has_law) {
        law = json_object();
        bad |= !law || json_object_set_new(law, "digits", json_integer(c->digits)) != 0;
        if (is_finite_kind(c->kind)) {
            bad |= json_object_set_new(law, "probabilities", strv(c->probability, c->n)) != 0;
        } else {
            bad |= json_object_set_new(law, "pieces", pieces_json(c, 1)) != 0;
            json_t *cdf = json_array();
            for (size_t i = 0; cdf && i < c->ncdf; i++) {
                json_t *o = json_object();
                bad |= !o || json_object_set_new(o, "x", json_string(c->cdf_x[i])) ||
                       json_object_set_new(o, "cdf", json_string(c->cdf[i])) ||
                       json_array_append_new(cdf, o);
            }
            bad |= json_object_set_new(law, "cdf", cdf) != 0;
            bad |= json_object_set_new(law, "bin_edges", strv(c->edges, c->nedges)) != 0;
        }
        bad |= json_object_set_new(root, "law", law) != 0;
    }
    if (!c->expect_error) {
        for (size_t k = 0; cat && k < c->ncatches; k++) {
            json_t *o = json_object();
            bad |= !o ||
                   json_object_set_new(o, "mistake", json_string(em_mistake_name(c->catches[k]))) ||
                   json_object_set_new(o, "draws", json_integer((json_int_t)c->catches_draws[k])) ||
                   json_array_append_new(cat, o);
        }
        bad |= json_object_set_new(root, "catches", cat) != 0;
        cat = NULL;
    } else {
        json_decref(cat);
        cat = NULL;
    }
    int st = EM_OK;
    if (bad)
        st = em_err(err, EM_ERR_NOMEM, "%s: cannot build the JSON (out of memory, or a text "
                    "that is not UTF-8)", c->id ? c->id : "case");
    else if (json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 ||
             fputc('\n', f) == EOF)
        st = em_err(err, EM_ERR_DOMAIN, "%s: write error", c->id);
    json_decref(root);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}

/* ------------------------------------------------------------- reading */

typedef struct rd {
    const char *name;
    em_error *err;
} rd;

#define EM_ID_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
static int bad_member(rd *r, const char *what, const char *why)
{
    return em_err(r->err, EM_ERR_PARSE, "%s: %s: %s", r->name, what, why);
}

/* a string member (required or not), a copy in *out */
static int get_str(rd *r, json_t *o, const char *key, int required, const char **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v)
        return required ? bad_member(r, key, "missing") : EM_OK;
    if (!json_is_string(v))
        return bad_member(r, key, "expected a string");
    if (strlen(json_string_value(v)) != json_string_length(v))
        return bad_member(r, key, "a NUL character in the string");
    if (!(*out = strdup(json_string_value(v))))
        return em_err(r->err, EM_ERR_NOMEM, "out of memory");
    return EM_OK;
}

/* an array of strings; label != 0: each a non-empty line (no CR, LF) */
static int get_strv(rd *r, json_t *o, const char *key, int required, int label, size_t *n,
                    const char *const **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v) {
        if (required)
            return bad_member(r, key, "missing");
        return EM_OK;
    }
    if (!json_is_array(v))
        return bad_member(r, key, "expected an array of strings");
    size_t k = json_array_size(v);
    if (*n != (size_t)-1 && k != *n) {
        char why[96];
        snprintf(why, sizeof why, "%zu entries where %zu are expected", k, *n);
        return bad_member(r, key, why);
    }
    char **a = calloc(k ? k : 1, sizeof *a);
    if (!a)
        return em_err(r->err, EM_ERR_NOMEM, "out of memory");
    int st = EM_OK;
    for (size_t i = 0; i < k && st == EM_OK; i++) {
        json_t *e = json_array_get(v, i);
        char what[96];
        snprintf(what, sizeof what, "%s[%zu]", key, i);
        const char *t = json_is_string(e) ? json_string_value(e) : NULL;
        if (!t)
            st = bad_member(r, what, "expected a string");
        else if (strlen(t) != json_string_length(e))
            st = bad_member(r, what, "a NUL character in the string");
        else if (label && (!*t || strpbrk(t, "\r\n")))
            st = bad_member(r, what, "a label must be a non-empty line");
        else if (!(a[i] = strdup(t)))
            st = em_err(r->err, EM_ERR_NOMEM, "out of memory");
    }
    if (st != EM_OK) { /* nothing half-read is handed out */
        freev((const char *const *)a, k);
        return st;
    }
    *out = (const char *const *)a;
    *n = k;
    return EM_OK;
}

static int read_pieces(rd *r, json_t *arr, em_case *c)
{
    if (!json_is_array(arr))
        return bad_member(r, "scenario.pieces", "expected an array of {lo, hi, a, b}");
    size_t k = json_array_size(arr);
    char **v[4];
    for (int i = 0; i < 4; i++)
        v[i] = calloc(k ? k : 1, sizeof *v[i]);
    c->npieces = k;
    c->lo = (const char *const *)v[0], c->hi = (const char *const *)v[1];
    c->a = (const char *const *)v[2], c->b = (const char *const *)v[3];
    if (!v[0] || !v[1] || !v[2] || !v[3])
        return em_err(r->err, EM_ERR_NOMEM, "out of memory");
    static const char *const keys[4] = {"lo", "hi", "a", "b"};
    for (size_t j = 0; j < k; j++) {
        json_t *o = json_array_get(arr, j);
        char what[64];
        snprintf(what, sizeof what, "scenario.pieces[%zu]", j);
        if (!json_is_object(o))
            return bad_member(r, what, "expected an object {lo, hi, a, b}");
        for (int i = 0; i < 4; i++) {
            const char *t;
            int st = get_str(r, o, keys[i], i < 3, &t);
            if (st != EM_OK)
                return st;
            v[i][j] = (char *)(t ? t : strdup("0"));
            if (!v[i][j])
                return em_err(r->err, EM_ERR_NOMEM, "out of memory");
        }
    }
    return EM_OK;
}

/* the law as written (kept for callers; the runner recomputes it from the scenario) */
static int read_law(rd *r, json_t *law, em_case *c)
{
    json_t *d = json_object_get(law, "digits");
    c->digits = json_is_integer(d) ? (int)json_integer_value(d) : 0;
    if (is_finite_kind(c->kind)) {
        size_t n = c->n;
        return get_strv(r, law, "probabilities", 0, 0, &n, &c->probability);
    }
    json_t *ps = json_object_get(law, "pieces");
    if (json_is_array(ps) && json_array_size(ps) == c->npieces) {
        char **m = calloc(c->npieces ? c->npieces : 1, sizeof *m);
        c->mass = (const char *const *)m;
        if (!m)
            return em_err(r->err, EM_ERR_NOMEM, "out of memory");
        for (size_t j = 0; j < c->npieces; j++) {
            json_t *o = json_array_get(ps, j);
            const char *t = NULL;
            int st = json_is_object(o) ? get_str(r, o, "mass", 0, &t) : EM_OK;
            if (st != EM_OK)
                return st;
            m[j] = (char *)(t ? t : strdup(""));
            if (!m[j])
                return em_err(r->err, EM_ERR_NOMEM, "out of memory");
        }
    }
    json_t *cdf = json_object_get(law, "cdf");
    if (json_is_array(cdf)) {
        size_t k = json_array_size(cdf);
        char **x = calloc(k ? k : 1, sizeof *x), **f = calloc(k ? k : 1, sizeof *f);
        c->cdf_x = (const char *const *)x, c->cdf = (const char *const *)f;
        if (!x || !f)
            return em_err(r->err, EM_ERR_NOMEM, "out of memory");
        c->ncdf = k;
        for (size_t i = 0; i < k; i++) {
            json_t *o = json_array_get(cdf, i);
            if (!json_is_object(o))
                return bad_member(r, "law.cdf", "expected objects {x, cdf}");
            int st = get_str(r, o, "x", 1, (const char **)&x[i]);
            if (st == EM_OK)
                st = get_str(r, o, "cdf", 1, (const char **)&f[i]);
            if (st != EM_OK)
                return st;
        }
    }
    size_t ne = (size_t)-1;
    int st = get_strv(r, law, "bin_edges", 0, 0, &ne, &c->edges);
    c->nedges = c->edges ? ne : 0;
    return st;
}

static int read_catches(rd *r, json_t *cat, em_case *c)
{
    size_t k = json_array_size(cat);
    int *m = calloc(k ? k : 1, sizeof *m);
    uint64_t *d = calloc(k ? k : 1, sizeof *d);
    c->catches = m;
    c->catches_draws = d;
    if (!m || !d)
        return em_err(r->err, EM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < k; i++) {
        json_t *o = json_array_get(cat, i);
        json_t *name = json_is_object(o) ? json_object_get(o, "mistake") : NULL;
        json_t *n = json_is_object(o) ? json_object_get(o, "draws") : NULL;
        int mk = json_is_string(name) ? em_mistake_from_name(json_string_value(name)) : -1;
        char what[48];
        snprintf(what, sizeof what, "catches[%zu]", i);
        if (mk < 0)
            return bad_member(r, what, "expected {\"mistake\": a known mistake, \"draws\": N}");
        m[i] = mk;
        d[i] = json_is_integer(n) && json_integer_value(n) > 0 ? (uint64_t)json_integer_value(n)
                                                               : 0;
        c->ncatches = i + 1;
    }
    return EM_OK;
}

/* Member key of o, optional: *st EM_OK and NULL when absent, the member when of type t;
 * another type is a parse error (*st, with why). */
static json_t *optional(rd *r, json_t *o, const char *key, json_type t, const char *why,
                        int *st)
{
    json_t *v = json_object_get(o, key);
    *st = v && json_typeof(v) != t ? bad_member(r, key, why) : EM_OK;
    return *st == EM_OK ? v : NULL;
}

static int parse_root(rd *r, json_t *root, em_case *c)
{
    if (!json_is_object(root))
        return em_err(r->err, EM_ERR_PARSE, "%s: expected a JSON object", r->name);
    json_t *schema = json_object_get(root, "schema");
    if (!json_is_string(schema) || strcmp(json_string_value(schema), SCHEMA))
        return bad_member(r, "schema", "expected \"" SCHEMA "\"");
    int st;
    const char *kind = NULL, *expect = NULL, *variant = NULL;
    if ((st = get_str(r, root, "id", 1, &c->id)) != EM_OK ||
        (st = get_str(r, root, "title", 1, &c->title)) != EM_OK ||
        (st = get_str(r, root, "kind", 1, &kind)) != EM_OK)
        return st;
    c->kind = em_kind_from_name(kind);
    free((char *)kind);
    if (!c->id[0] || c->id[0] == '.' || c->id[strspn(c->id, EM_ID_CHARS)]) /* DIR/ID.svg */
        return bad_member(r, "id", "expected letters, digits, '_', '-' and '.', not first");
    if (c->kind < 0)
        return bad_member(r, "kind", "expected finite, weighted, pf, continuous, quantile or "
                                     "laplace");
    if ((st = get_str(r, root, "expect", 1, &expect)) != EM_OK)
        return st;
    c->expect_error = !strcmp(expect, "error");
    int known = c->expect_error || !strcmp(expect, "law");
    free((char *)expect);
    if (!known)
        return bad_member(r, "expect", "expected \"law\" or \"error\"");
    json_t *quick = json_object_get(root, "quick");
    if (quick && !json_is_boolean(quick))
        return bad_member(r, "quick", "expected true or false");
    c->quick = json_is_true(quick);
    if ((st = get_str(r, root, "error", 0, &c->error)) != EM_OK ||
        (st = get_str(r, root, "epsilon", 1, &c->epsilon)) != EM_OK ||
        (st = get_str(r, root, "sensitivity", 1, &c->sensitivity)) != EM_OK ||
        (st = get_str(r, root, "variant", 1, &variant)) != EM_OK)
        return st;
    c->variant = !strcmp(variant, "pf") ? EM_PF : !strcmp(variant, "monotone") ? EM_MONOTONE
                 : !strcmp(variant, "standard") ? EM_STANDARD : -1;
    free((char *)variant);
    if (c->variant < 0)
        return bad_member(r, "variant", "expected standard, monotone or pf");
    if ((c->variant == EM_PF) != (c->kind == EM_KIND_PF))
        return bad_member(r, "variant", "pf goes with the kind pf, and only with it");
    json_t *sc = json_object_get(root, "scenario");
    if (!json_is_object(sc))
        return bad_member(r, "scenario", "expected an object");
    if (is_finite_kind(c->kind)) {
        size_t n = (size_t)-1;
        if ((st = get_strv(r, sc, "utilities", 1, 0, &n, &c->utilities)) != EM_OK)
            return st;
        c->n = n;
        if ((st = get_strv(r, sc, "labels", 0, 1, &n, &c->labels)) != EM_OK)
            return st;
        if (!c->labels) {
            char **l = calloc(n ? n : 1, sizeof *l);
            c->labels = (const char *const *)l;
            if (!l)
                return em_err(r->err, EM_ERR_NOMEM, "out of memory");
            for (size_t i = 0; i < n; i++) {
                char t[32];
                snprintf(t, sizeof t, "%zu", i);
                if (!(l[i] = strdup(t)))
                    return em_err(r->err, EM_ERR_NOMEM, "out of memory");
            }
        }
        if ((st = get_strv(r, sc, "measure", c->kind == EM_KIND_WEIGHTED, 0, &n,
                           &c->measure)) != EM_OK)
            return st;
        if (c->measure && c->kind != EM_KIND_WEIGHTED)
            return bad_member(r, "scenario.measure", "only the kind weighted has a measure");
    } else if (c->kind == EM_KIND_CONTINUOUS) {
        json_t *ps = json_object_get(sc, "pieces");
        if (!ps)
            return bad_member(r, "scenario.pieces", "missing");
        if ((st = read_pieces(r, ps, c)) != EM_OK)
            return st;
    } else if (c->kind == EM_KIND_QUANTILE) {
        size_t n = (size_t)-1, two = 2;
        const char *const *b = NULL;
        if ((st = get_strv(r, sc, "data", 1, 0, &n, &c->data)) != EM_OK)
            return st;
        c->ndata = n;
        if ((st = get_str(r, sc, "alpha", 1, &c->alpha)) != EM_OK ||
            (st = get_strv(r, sc, "bounds", 1, 0, &two, &b)) != EM_OK) {
            freev(b, 2);
            return st;
        }
        c->bound_lo = b[0], c->bound_hi = b[1];
        free((void *)b);
    } else if ((st = get_str(r, sc, "f", 1, &c->f)) != EM_OK) {
        return st;
    }
    json_t *cat = optional(r, root, "catches", JSON_ARRAY,
                           "expected an array of {mistake, draws}", &st);
    if (st != EM_OK || (cat && (st = read_catches(r, cat, c)) != EM_OK))
        return st;
    em_error e;
    st = derive_pieces(c, &e);
    if (st == EM_ERR_NOMEM)
        return em_err(r->err, st, "out of memory");
    if (st != EM_OK && !c->expect_error)
        return em_err(r->err, EM_ERR_PARSE, "%s: scenario: %s", r->name, e.msg);
    json_t *law = optional(r, root, "law", JSON_OBJECT, "expected an object", &st);
    return st != EM_OK || !law ? st : read_law(r, law, c);
}

static int case_parse(const char *text, size_t len, const char *name, em_case **out,
                      em_error *err)
{
    if (!text && len)
        return em_err(err, EM_ERR_NULL, "em_case_new: text is NULL");
    if (!name)
        name = "<case>";
    json_error_t je;
    json_t *root = json_loadb(text ? text : "", len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return em_err(err, EM_ERR_PARSE, "%s:%d:%d: %s", name, je.line, je.column, je.text);
    em_case *c = em_obj_new(sizeof *c, case_destroy);
    if (c)
        em_obj_writer(c, write_case, NULL, NULL);
    if (!c) {
        json_decref(root);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    rd r = {name, err};
    int st = parse_root(&r, root, c);
    json_decref(root);
    if (st != EM_OK) {
        em_free(c);
        return st;
    }
    *out = c;
    em_err_ok(err);
    return EM_OK;
}

static int case_load(const char *path, em_case **out, em_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return em_err(err, EM_ERR_PARSE, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0;
    int st = em_read_all(f, CASE_MAX_BYTES, &buf, &len);
    fclose(f);
    if (st != EM_OK)
        return st == EM_ERR_NOMEM ? em_err(err, st, "out of memory")
                                  : em_err(err, st, "%s: cannot read (or larger than %zu MiB)",
                                           path, CASE_MAX_BYTES >> 20);
    st = case_parse(buf, len, path, out, err);
    free(buf);
    if (st == EM_OK && !((*out)->file = strdup(path))) {
        em_free(*out);
        *out = NULL;
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    return st;
}

/* ------------------------------------------------------------- em_case_new */

int em_case_new(const em_case_spec *spec, em_case **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_case_new: out is NULL");
    *out = NULL;
    if (!spec)
        return em_err(err, EM_ERR_NULL, "em_case_new: spec is NULL");
    int source = spec->text || spec->len || spec->name;
    if ((spec->def != NULL) + (spec->path != NULL) + source != 1)
        return em_err(err, EM_ERR_DOMAIN, "em_case_new: give one of def, path or text (and "
                                          "the fields of that form only)");
    if (spec->def)
        return case_make(spec->def, spec->alpha, spec->max_draws, out, err);
    if (spec->path)
        return case_load(spec->path, out, err);
    return case_parse(spec->text, spec->len, spec->name, out, err);
}
