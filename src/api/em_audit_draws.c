/* em_audit_draws.c: em_audit with draws of two continuous mechanisms (em_judge.h): the
 * sample-based audit of a continuous pair.  The finite search's design (em_audit.c, cp_bound) carried to the real line: the
 * events are fixed before the draws are read, from the exact laws alone, and the search
 * over them is paid for with Bonferroni.
 *
 * The events: a grid of points (every finite end of a piece of X or Y, and the quantiles
 * Q_X(i/G), Q_Y(i/G), i = 1..G-1, correctly rounded to doubles), at most EM_AUDIT_CELLS - 1
 * of them (evenly thinned), cuts the line into cells (-inf, g_1], (g_1, g_2], ...,
 * (g_m, +inf); an event is a run of consecutive cells, an interval (g_i, g_j], and every
 * such run but the whole line is tried, K = c (c + 1) / 2 - 1 events for c cells.  In each
 * direction the largest of log CP_lower(k_X / N_X) - log CP_upper(k_Y / N_Y) over the K
 * events, each Clopper-Pearson statement at level a / K, holds at level 2a; the two
 * directions at half the level each, so the larger of the two holds at the confidence
 * asked, as em_audit_counts' does. */
#include "em_base.h"
#include "em_judge.h"
#include "api/em_judge_priv.h"
#include "base/em_error.h"
#include "io/em_draws.h"
#include "num/em_rational.h"
#include "oracle/em_cont.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "api/em_obj.h"

/* quantiles per law, and the most cells */
#define EM_AUDIT_QUANTILES 16
#define EM_AUDIT_CELLS 128
#define DRAWS_MAX ((size_t)16 << 30) /* as em_check_file's */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the grid points of law C into g (n so far), the finite piece ends and G - 1 quantiles */
static int grid_of(em_cont *C, double *g, size_t *n)
{
    mpq_t lo, hi, p;
    mpq_inits(lo, hi, p, (mpq_ptr)0);
    int st = EM_OK;
    for (size_t j = 0; j < em_cont_size(C); j++) {
        int li, hinf;
        em_cont_piece(C, j, lo, hi, &li, &hinf, NULL, NULL);
        if (!li)
            g[(*n)++] = mpq_get_d(lo);
        if (!hinf)
            g[(*n)++] = mpq_get_d(hi);
    }
    for (int i = 1; i < EM_AUDIT_QUANTILES && st == EM_OK; i++) {
        em_cval q;
        em_cval_init(&q);
        mpq_set_ui(p, (unsigned long)i, EM_AUDIT_QUANTILES);
        st = em_cont_quantile(C, p, &q);
        if (st == EM_OK && isfinite(q.d))
            g[(*n)++] = q.d;
        em_cval_clear(&q);
    }
    mpq_clears(lo, hi, p, (mpq_ptr)0);
    return st;
}

/* sorted distinct finite points, thinned evenly to at most EM_AUDIT_CELLS - 1 */
static size_t grid_finish(double *g, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(g[i]))
            g[m++] = g[i] == 0 ? 0.0 : g[i]; /* -0 and 0 one point */
    qsort(g, m, sizeof *g, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (k == 0 || g[i] != g[k - 1])
            g[k++] = g[i];
    if (k > EM_AUDIT_CELLS - 1) {
        size_t t = 0;
        for (size_t i = 0; i < EM_AUDIT_CELLS - 1; i++)
            g[t++] = g[i * k / (EM_AUDIT_CELLS - 1)];
        k = t;
    }
    return k;
}

/* the cell of x: the number of grid points below it (cells (g_{i-1}, g_i]) */
static size_t cell_of(const double *g, size_t m, double x)
{
    size_t a = 0, b = m;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (g[mid] < x)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

/* one-sided Clopper-Pearson bounds at level a, from the two-sided interval at 1 - 2a */
static double cp_lo(uint64_t k, uint64_t n, double a)
{
    double lo = 0, hi = 1;
    if (k > 0)
        em_clopper_pearson(k, n, 1 - 2 * a, &lo, &hi, NULL);
    return k > 0 ? lo : 0.0;
}

static double cp_hi(uint64_t k, uint64_t n, double a)
{
    double lo = 0, hi = 1;
    if (k < n)
        em_clopper_pearson(k, n, 1 - 2 * a, &lo, &hi, NULL);
    return k < n ? hi : 1.0;
}

/* the largest bound over the runs of cells (prefix sums px, py of the counts), each at
 * a / K; *ci, *cj the best run */
static double search(const uint64_t *sx, const uint64_t *sy, size_t c, uint64_t nx,
                     uint64_t ny, double a, size_t *ci, size_t *cj)
{
    const double K = (double)c * (double)(c + 1) / 2 - 1, ak = a / (K > 0 ? K : 1);
    double best = -INFINITY;
    *ci = *cj = 0;
    for (size_t i = 0; i < c; i++)
        for (size_t j = i; j < c; j++) {
            if (i == 0 && j == c - 1)
                continue; /* the whole line says nothing */
            uint64_t kx = sx[j + 1] - sx[i], ky = sy[j + 1] - sy[i];
            if (kx == 0)
                continue;
            double v = log(cp_lo(kx, nx, ak)) - log(cp_hi(ky, ny, ak));
            if (v > best) {
                best = v;
                *ci = i;
                *cj = j;
            }
        }
    return best;
}

static int draws_ok(const double *d, size_t n, const char *who, em_error *err)
{
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "no draws of %s", who);
    for (size_t i = 0; i < n; i++)
        if (isnan(d[i]))
            return em_err(err, EM_ERR_DOMAIN, "draw %zu of %s is NaN: a draw of a "
                          "continuous law is a number (or +-inf beyond the doubles)", i + 1, who);
    return EM_OK;
}

/* the grid of both laws, the counts per cell, and the two searches into r */
static int empirical_cont(em_mech *x, em_mech *y, const double *dx, size_t nx, const double *dy,
                          size_t ny, double conf, em_audit_result *r, em_error *err)
{
    em_cont *C[2] = {NULL, NULL};
    int st = em_judge_law(x, 17, &C[0], err);
    if (st == EM_OK)
        st = em_judge_law(y, 17, &C[1], err);
    size_t cap = 2 * (em_cont_size(C[0]) + (C[1] ? em_cont_size(C[1]) : 0)) +
                 2 * EM_AUDIT_QUANTILES;
    double *g = st == EM_OK ? malloc(cap * sizeof *g) : NULL;
    uint64_t *s[2] = {NULL, NULL};
    size_t m = 0;
    if (st == EM_OK && !g)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 2 && st == EM_OK; k++)
        if ((st = grid_of(C[k], g, &m)) != EM_OK)
            em_judge_fail(err, st, "the audit's grid (quantiles)");
    if (st == EM_OK) {
        m = grid_finish(g, m);
        for (int k = 0; k < 2 && st == EM_OK; k++)
            if (!(s[k] = calloc(m + 2, sizeof *s[k])))
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (st == EM_OK) {
        const size_t c = m + 1;
        for (size_t i = 0; i < nx; i++)
            s[0][cell_of(g, m, dx[i]) + 1]++;
        for (size_t i = 0; i < ny; i++)
            s[1][cell_of(g, m, dy[i]) + 1]++;
        for (size_t i = 1; i <= c; i++) {
            s[0][i] += s[0][i - 1];
            s[1][i] += s[1][i - 1];
        }
        const double a = (1 - conf) / 2;
        size_t i0, j0, i1, j1;
        r->empirical = 1;
        r->confidence = conf;
        r->nx = nx;
        r->ny = ny;
        r->eps_lower_xy = search(s[0], s[1], c, nx, ny, a / 2, &i0, &j0);
        r->eps_lower_yx = search(s[1], s[0], c, ny, nx, a / 2, &i1, &j1);
        r->event_xy = isfinite(r->eps_lower_xy) ? j0 - i0 + 1 : 0;
        r->event_yx = isfinite(r->eps_lower_yx) ? j1 - i1 + 1 : 0;
        r->ev_cells = c;
        r->ev_xy_lo = i0 == 0 ? -INFINITY : g[i0 - 1];
        r->ev_xy_hi = j0 == m ? INFINITY : g[j0];
        r->ev_yx_lo = i1 == 0 ? -INFINITY : g[i1 - 1];
        r->ev_yx_hi = j1 == m ? INFINITY : g[j1];
        r->eps_lower = r->eps_lower_xy > r->eps_lower_yx ? r->eps_lower_xy : r->eps_lower_yx;
        r->empirical_violation = r->eps_lower > em_q_get_d(x->eps, NULL);
        if (r->empirical_violation)
            r->verdict = EM_VERDICT_REJECT;
    }
    free(g);
    free(s[0]);
    free(s[1]);
    em_cont_free(C[0]);
    em_cont_free(C[1]);
    return st;
}

int em_audit_draws(em_mech *x, em_mech *y, const double *dx, size_t nx, const double *dy,
                   size_t ny, double confidence, em_audit_result **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_audit_draws: out is NULL");
    *out = NULL;
    if (!x || !y || !dx || !dy)
        return em_err(err, EM_ERR_NULL, "em_audit_draws: a mechanism or the draws NULL");
    if (!x->scn->continuous || !y->scn->continuous)
        return em_err(err, EM_ERR_DOMAIN, "em_audit_draws: continuous scenarios only (finite: "
                      "em_audit with em_draws)");
    if (!(confidence > 0 && confidence < 1))
        return em_err(err, EM_ERR_DOMAIN, "confidence %g: expected a number in (0, 1)",
                      confidence);
    int st = draws_ok(dx, nx, "X", err);
    if (st == EM_OK)
        st = draws_ok(dy, ny, "Y", err);
    em_audit_result *r = NULL;
    if (st == EM_OK)
        st = em_audit_laws(x, y, NULL, NULL, confidence, &r, err);
    if (st == EM_OK)
        st = empirical_cont(x, y, dx, nx, dy, ny, confidence, r, err);
    if (st != EM_OK) {
        em_free(r);
        return st;
    }
    *out = r;
    em_err_ok(err);
    return EM_OK;
}

/* the draws of one file: "NAME:LINE: ..." for a NaN */
static int read_file(const char *path, double **d, size_t *n, em_error *err)
{
    const char *name;
    char *buf = NULL;
    size_t len;
    unsigned long *line = NULL;
    int st = em_judge_read(path, DRAWS_MAX, &name, &buf, &len, err);
    if (st != EM_OK)
        return st;
    em_error e = {EM_OK, ""};
    st = em_read_draws(buf, len, name, d, &line, n, &e);
    if (st != EM_OK)
        em_err(err, st, "%s", st == EM_ERR_NOMEM ? "out of memory" : e.msg);
    else if (*n == 0)
        st = em_err(err, EM_ERR_PARSE, "%s: no draws", name);
    for (size_t i = 0; st == EM_OK && i < *n; i++)
        if (isnan((*d)[i]))
            st = em_err(err, EM_ERR_PARSE, "%s:%lu: nan: a draw of a continuous law is a "
                        "number (or +-inf beyond the doubles)", name, line[i]);
    free(line);
    free(buf);
    if (st != EM_OK) {
        free(*d);
        *d = NULL;
    }
    return st;
}

/* one side's draws as numbers: its file, or the values of its em_draw array */
static int values(const em_draws *d, double **v, size_t *n, em_error *err)
{
    if (d->path)
        return read_file(d->path, v, n, err);
    if (d->counts)
        return em_err(err, EM_ERR_DOMAIN, "em_audit: counts are for a finite scenario; a "
                      "continuous one's draws are numbers");
    if (!(*v = malloc((d->n ? d->n : 1) * sizeof **v)))
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < d->n; i++)
        (*v)[i] = d->draw[i].value;
    *n = d->n;
    return EM_OK;
}

static int cont_draws(em_mech *x, em_mech *y, const em_draws *dx, const em_draws *dy,
                      double confidence, em_audit_result **out, em_error *err)
{
    int st = em_judge_draws_form(dx, "em_audit", err);
    if (st == EM_OK)
        st = em_judge_draws_form(dy, "em_audit", err);
    if (st != EM_OK)
        return st;
    if (dx->samples_are != EM_SAMPLES_ARE_AUTO || dy->samples_are != EM_SAMPLES_ARE_AUTO)
        return em_err(err, EM_ERR_DOMAIN, "dx->samples_are does not apply to continuous "
                      "scenarios: their draws are numbers");
    double *vx = NULL, *vy = NULL;
    size_t nx = 0, ny = 0;
    st = values(dx, &vx, &nx, err);
    if (st == EM_OK)
        st = values(dy, &vy, &ny, err);
    if (st == EM_OK)
        st = em_audit_draws(x, y, vx, nx, vy, ny, confidence, out, err);
    free(vx);
    free(vy);
    return st;
}

/* The one entry: draws of two continuous mechanisms here, everything else em_audit_laws. */
static int audit_any(em_mech *x, em_mech *y, const em_draws *dx, const em_draws *dy,
                     double confidence, em_audit_result **out, em_error *err)
{
    if (out && x && y && dx && dy && x->scn->continuous != y->scn->continuous)
        return em_err(err, EM_ERR_DOMAIN, "dx, dy: X and Y must both be finite or both "
                      "continuous");
    if (out && x && y && dx && dy && x->scn->continuous) {
        *out = NULL;
        return cont_draws(x, y, dx, dy, confidence, out, err);
    }
    return em_audit_laws(x, y, dx, dy, confidence, out, err);
}

/* em_write of a audit (em_obj.h) */
static int write_audit(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                       em_error *err)
{
    return em_audit_result_write(f, obj, ctx[0], ctx[1], o, err);
}

int em_audit(em_mech *x, em_mech *y, const em_draws *dx, const em_draws *dy,
             double confidence, em_audit_result **out, em_error *err)
{
    int st = audit_any(x, y, dx, dy, confidence, out, err);
    if (st == EM_OK)
        em_obj_writer(*out, write_audit, x, y);
    return st;
}
