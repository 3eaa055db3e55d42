/* em_gof_cont.c: goodness of fit of draws against an exact continuous law (see em_gof_cont.h). */
#include "judge/em_gof_cont.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "judge/em_ks.h"
#include "judge/em_ks_cdf.h"
#include "num/em_rational.h"

#define EDGE_PREC 160
#define KS_PREC 64

void em_gof_cont_free(em_gof_cont_result *r)
{
    if (!r)
        return;
    free(r->cells);
    r->cells = NULL;
    r->ncells = 0;
}

/* ------------------------------------------------------------------ edges */

typedef struct edge {
    double e;
    int kind;
    mpfr_t F; /* F(e), midpoint of an interval of width < 2^-150 */
} edge;

static int cdf_at(em_cont *C, double x, mpfr_prec_t prec, mpfr_t out)
{
    if (isinf(x)) {
        mpfr_set_ui(out, x > 0 ? 1 : 0, MPFR_RNDN);
        return EM_OK;
    }
    mpq_t q;
    mpfr_t lo, hi;
    mpq_init(q);
    mpfr_inits2(prec, lo, hi, (mpfr_ptr)0);
    mpq_set_d(q, x);
    int st = em_cont_cdf_bounds(C, q, prec, lo, hi);
    if (st == EM_OK) {
        mpfr_prec_t p = mpfr_get_prec(lo) > mpfr_get_prec(hi) ? mpfr_get_prec(lo) : mpfr_get_prec(hi);
        mpfr_t s;
        mpfr_init2(s, p + 2);
        mpfr_add(s, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(s, s, 1, MPFR_RNDN);
        mpfr_set(out, s, MPFR_RNDN);
        mpfr_clear(s);
        if (mpfr_sgn(out) < 0)
            mpfr_set_ui(out, 0, MPFR_RNDN);
        if (mpfr_cmp_ui(out, 1) > 0)
            mpfr_set_ui(out, 1, MPFR_RNDN);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpq_clear(q);
    return st;
}

/* insert at position i of a sorted array of ne edges (capacity checked by the caller) */
static void edge_insert(edge *E, size_t *ne, size_t i, double e, int kind, const mpfr_t F)
{
    mpfr_t keep;
    /* the slot past the end holds an initialised mpfr_t; rotate it into place */
    mpfr_init2(keep, EDGE_PREC);
    mpfr_swap(keep, E[*ne].F);
    for (size_t k = *ne; k > i; k--) {
        E[k].e = E[k - 1].e;
        E[k].kind = E[k - 1].kind;
        mpfr_swap(E[k].F, E[k - 1].F);
    }
    mpfr_swap(E[i].F, keep);
    mpfr_clear(keep);
    E[i].e = e;
    E[i].kind = kind;
    mpfr_set(E[i].F, F, MPFR_RNDN);
    (*ne)++;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* number of edges <= x */
static size_t upper(const edge *E, size_t ne, double x)
{
    size_t lo = 0, hi = ne;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (E[mid].e <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* F at a draw (and F(x-) at +-inf) the exact way: an interval at KS_PREC bits, its
 * midpoint.  +-inf is where an exact draw beyond the largest double rounds: an atom holding
 * the mass beyond the overflow boundary, F jumps there. */
static int ks_exact(em_cont *C, double x, mpfr_t Fx, mpq_t q, double *F, double *Fleft)
{
    int st = cdf_at(C, x, KS_PREC, Fx);
    *F = *Fleft = mpfr_get_d(Fx, MPFR_RNDN);
    if (st == EM_OK && isinf(x)) {
        em_d_boundary(q, x > 0 ? DBL_MAX : -DBL_MAX, x > 0 ? 1 : -1);
        mpfr_t lo2, hi2;
        mpfr_inits2(KS_PREC, lo2, hi2, (mpfr_ptr)0);
        st = em_cont_cdf_bounds(C, q, KS_PREC, lo2, hi2);
        double fb = mpfr_get_d(hi2, MPFR_RNDN);
        mpfr_clears(lo2, hi2, (mpfr_ptr)0);
        if (x > 0)
            *Fleft = fb;
        else
            *F = fb;
    }
    return st;
}

/* the largest deviation of the empirical CDF at point i (em_ks_statistic_atoms' two sides) */
static long double ks_dev(double Fl, double Fr, long double below, long double at)
{
    long double f = Fr < 0 ? 0 : Fr > 1 ? 1 : Fr;
    long double fl = Fl < 0 ? 0 : Fl > 1 ? 1 : Fl;
    return fl - below > at - f ? fl - below : at - f;
}

/* F and F(x-) at the d sorted distinct draws xs (multiplicities mult, m in all), with
 * exactly the values the exact path (ks_exact) gives wherever they can decide the statistic,
 * so the statistic, where it is attained and its p-value are those of the exact path.
 *
 * Each draw first gets a fast value (em_ks_cdf: per-piece constants, double arithmetic)
 * with an error bound e_i <= 2^-30 (or the exact value where em_ks_cdf declines).  The
 * exact path's value is itself within 2^-51 of F (a 64-bit interval's midpoint, rounded
 * once), so a fast deviation a_i and the exact path's o_i differ by at most
 * E = max e_i + 2^-48 (which also covers the long double rounding of the deviations).  With
 * A = max_i a_i, attained at i*: o_i* >= A - E, and every point with a_i < A - 2E has
 * o_i < A - E <= o_i*, and a_i < o_i*: it attains neither maximum.  So the points with
 * a_i >= A - 2E (a handful) are recomputed the exact way, and em_ks_statistic_atoms, which
 * keeps the first strict maximum, returns the exact path's statistic, point and side: the
 * same bits, a verdict no different from the exact path's.  A recomputed value farther
 * from its fast one than its bound (never seen: it would mean a wrong bound) makes every
 * point exact. */
static int ks_values(em_cont *C, const double *xs, size_t d, const uint64_t *mult, size_t m,
                     double *F, double *Fleft, mpq_t q)
{
    em_ks_cdf *K = NULL;
    unsigned char *fast = calloc(d ? d : 1, 1);
    double *err = malloc((d ? d : 1) * sizeof *err);
    if (!fast || !err) {
        free(fast), free(err);
        return EM_ERR_NOMEM;
    }
    int st = em_ks_cdf_new(C, &K);
    if (st == EM_ERR_NOMEM) {
        free(fast), free(err);
        return st;
    }
    if (st != EM_OK)
        K = NULL; /* every point the exact way */
    st = EM_OK;
    mpfr_t Fx;
    mpfr_init2(Fx, KS_PREC);
    double emax = 0;
    size_t nfast = 0;
    for (size_t i = 0; i < d && st == EM_OK; i++) {
        if (K && em_ks_cdf_eval(K, xs[i], &F[i], &err[i])) {
            Fleft[i] = F[i];
            fast[i] = 1;
            nfast++;
            emax = err[i] > emax ? err[i] : emax;
        } else {
            st = ks_exact(C, xs[i], Fx, q, &F[i], &Fleft[i]);
        }
    }
    if (st == EM_OK && nfast > 0) {
        const long double E = (long double)emax + 0x1p-48L, Nl = (long double)m;
        long double A = 0, cum = 0;
        for (size_t i = 0; i < d; i++) {
            long double below = cum / Nl;
            cum += (long double)mult[i];
            long double a = ks_dev(Fleft[i], F[i], below, cum / Nl);
            A = a > A ? a : A;
        }
        int all = 0;
        cum = 0;
        for (size_t i = 0; i < d && st == EM_OK; i++) {
            long double below = cum / Nl;
            cum += (long double)mult[i];
            if (!fast[i] || (!all && ks_dev(Fleft[i], F[i], below, cum / Nl) < A - 2 * E))
                continue;
            const double f = F[i];
            st = ks_exact(C, xs[i], Fx, q, &F[i], &Fleft[i]);
            if (st == EM_OK && !all && !(fabs(F[i] - f) <= err[i] + 0x1p-51)) {
                all = 1; /* a bound did not hold: every fast point again, the exact way */
                i = (size_t)-1;
                cum = 0;
            }
        }
    }
    mpfr_clear(Fx);
    em_ks_cdf_free(K);
    free(fast), free(err);
    return st;
}

int em_gof_cont(em_cont *C, const double *x, size_t n, double alpha, double min_expected,
                int K, em_gof_cont_result *r)
{
    if (!C || !x || !r)
        return EM_ERR_NULL;
    if (n == 0)
        return EM_ERR_EMPTY;
    if (K == 0)
        K = EM_GOF_CONT_BINS;
    if (em_cont_kind(C) != EM_CONT_PIECES || K < 2 || K > 10000 || !(alpha > 0 && alpha < 1))
        return EM_ERR_DOMAIN;
    memset(r, 0, sizeof *r);
    r->first_outside = SIZE_MAX;
    r->n = n;

    const size_t np = em_cont_size(C);
    int st = EM_OK;
    mpq_t lo, hi, a, b, q;
    mpq_inits(lo, hi, a, b, q, NULL);
    mpfr_t Fb, Fl, Fr, t;
    mpfr_inits2(EDGE_PREC, Fb, Fl, Fr, t, (mpfr_ptr)0);
    double *slo = malloc((np + 1) * sizeof *slo), *shi = malloc((np + 1) * sizeof *shi);
    double *brk = malloc((2 * (size_t)K + 1) * sizeof *brk);
    const int use_breaks = np <= (size_t)K; /* breakpoints as edges only for few pieces */
    const size_t cap = (size_t)K + (use_breaks ? 2 * np : 0) + 2;
    edge *E = malloc(cap * sizeof *E);
    double *p = NULL, *xs = NULL, *F = NULL, *Fleft = NULL;
    uint64_t *cnt = NULL, *mult = NULL;
    size_t *cell_of = NULL;
    size_t ns = 0, nb = 0, ne = 0, ninit = 0;
    if (!slo || !shi || !brk || !E) {
        st = EM_ERR_NOMEM;
        goto out;
    }
    for (; ninit < cap; ninit++)
        mpfr_init2(E[ninit].F, EDGE_PREC);

    /* support intervals (merged) and internal breakpoints */
    for (size_t j = 0; j < np; j++) {
        int li = 0, hinf = 0;
        em_cont_piece(C, j, lo, hi, &li, &hinf, a, b);
        if (!li && !hinf && mpq_cmp(lo, hi) >= 0)
            continue; /* length 0: no mass */
        double l = li ? -INFINITY : em_q_to_d_dir(lo, -1);
        double h = hinf ? INFINITY : em_q_to_d_dir(hi, 1);
        if (ns > 0 && l <= shi[ns - 1]) {
            if (h > shi[ns - 1])
                shi[ns - 1] = h;
        } else {
            slo[ns] = l;
            shi[ns] = h;
            ns++;
        }
        if (!li && use_breaks)
            brk[nb++] = em_q_to_d_dir(lo, 0);
        if (!hinf && use_breaks)
            brk[nb++] = em_q_to_d_dir(hi, 0);
    }
    if (ns == 0) {
        st = EM_ERR_DOMAIN;
        goto out;
    }

    /* the quantile edges */
    {
        em_cval v;
        for (int k = 1; k < K && st == EM_OK; k++) {
            em_cval_init(&v);
            mpq_set_ui(q, (unsigned long)k, (unsigned long)K);
            mpq_canonicalize(q);
            st = em_cont_quantile(C, q, &v);
            double e = v.d;
            em_cval_clear(&v);
            if (st != EM_OK)
                break;
            if (!isfinite(e) || (ne > 0 && e <= E[ne - 1].e))
                continue;
            st = cdf_at(C, e, EDGE_PREC, Fb);
            if (st == EM_OK)
                edge_insert(E, &ne, ne, e, EM_CC_EDGE_QUANTILE, Fb);
        }
        if (st != EM_OK)
            goto out;
    }
    /* breakpoints, when the law has few pieces: the internal ones (not the ends of R) */
    if (use_breaks) {
        qsort(brk, nb, sizeof *brk, dcmp);
        const double minp = 1.0 / (4.0 * K);
        for (size_t i = 0; i < nb; i++) {
            double e = brk[i];
            if (!isfinite(e) || e <= slo[0] || e >= shi[ns - 1])
                continue;
            size_t at = upper(E, ne, e);
            if (at > 0 && E[at - 1].e == e)
                continue;
            st = cdf_at(C, e, EDGE_PREC, Fb);
            if (st != EM_OK)
                goto out;
            if (at > 0)
                mpfr_set(Fl, E[at - 1].F, MPFR_RNDN);
            else
                mpfr_set_ui(Fl, 0, MPFR_RNDN);
            if (at < ne)
                mpfr_set(Fr, E[at].F, MPFR_RNDN);
            else
                mpfr_set_ui(Fr, 1, MPFR_RNDN);
            mpfr_sub(t, Fb, Fl, MPFR_RNDN);
            const int left_ok = mpfr_get_d(t, MPFR_RNDN) >= minp;
            mpfr_sub(t, Fr, Fb, MPFR_RNDN);
            const int right_ok = mpfr_get_d(t, MPFR_RNDN) >= minp;
            if (left_ok && right_ok) {
                edge_insert(E, &ne, at, e, EM_CC_EDGE_BREAK, Fb);
            } else if (!left_ok && right_ok && at > 0 && E[at - 1].kind == EM_CC_EDGE_QUANTILE) {
                /* snap the near quantile edge onto the breakpoint (the small part joins the
                 * neighbouring cell, whose probability stays below 1/K + 1/(4K)) */
                E[at - 1].e = e;
                E[at - 1].kind = EM_CC_EDGE_BREAK;
                mpfr_set(E[at - 1].F, Fb, MPFR_RNDN);
            } else if (left_ok && !right_ok && at < ne && E[at].kind == EM_CC_EDGE_QUANTILE) {
                E[at].e = e;
                E[at].kind = EM_CC_EDGE_BREAK;
                mpfr_set(E[at].F, Fb, MPFR_RNDN);
            }
        }
    }

    /* the cells */
    r->ncells = ne + 1;
    r->cells = calloc(r->ncells, sizeof *r->cells);
    p = malloc((r->ncells + 1) * sizeof *p);
    cnt = calloc(r->ncells + 1, sizeof *cnt);
    cell_of = malloc((r->ncells + 1) * sizeof *cell_of);
    if (!r->cells || !p || !cnt || !cell_of) {
        st = EM_ERR_NOMEM;
        goto out;
    }
    for (size_t k = 0; k < r->ncells; k++) {
        em_gof_cont_cell *c = &r->cells[k];
        c->lo = k == 0 ? slo[0] : E[k - 1].e;         /* the ends of R (rounded outwards) */
        c->hi = k == ne ? shi[ns - 1] : E[k].e;
        c->lo_kind = k == 0 ? EM_CC_EDGE_END : E[k - 1].kind;
        if (k < ne)
            mpfr_set(Fr, E[k].F, MPFR_RNDN);
        else
            mpfr_set_ui(Fr, 1, MPFR_RNDN);
        if (k > 0)
            mpfr_set(Fl, E[k - 1].F, MPFR_RNDN);
        else
            mpfr_set_ui(Fl, 0, MPFR_RNDN);
        mpfr_sub(t, Fr, Fl, MPFR_RNDN);
        c->p = mpfr_sgn(t) > 0 ? mpfr_get_d(t, MPFR_RNDN) : 0.0;
        p[k] = c->p;
    }
    p[r->ncells] = 0; /* outside R */

    /* binning and support */
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        int in = 0;
        if (!isnan(v)) {
            size_t lo_i = 0, hi_i = ns; /* last interval with slo <= v */
            while (lo_i < hi_i) {
                size_t mid = lo_i + (hi_i - lo_i) / 2;
                if (slo[mid] <= v)
                    lo_i = mid + 1;
                else
                    hi_i = mid;
            }
            in = lo_i > 0 && v <= shi[lo_i - 1];
        }
        if (!in) {
            r->outside++;
            if (r->first_outside == SIZE_MAX)
                r->first_outside = i;
            cnt[r->ncells]++;
            continue;
        }
        size_t k = upper(E, ne, v);
        cnt[k]++;
        r->cells[k].obs++;
    }
    st = em_gof_test(r->ncells + 1, p, cnt, alpha, min_expected, &r->gof, cell_of);
    if (st != EM_OK)
        goto out;
    for (size_t k = 0; k < r->ncells; k++)
        r->cells[k].pool = cell_of[k];

    /* Kolmogorov-Smirnov */
    xs = malloc(n * sizeof *xs);
    if (!xs) {
        st = EM_ERR_NOMEM;
        goto out;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            xs[m++] = x[i];
    r->ks_n = m;
    r->ks_p = r->ks_p_upper = 1;
    r->ks_method = EM_KS_EXACT;
    if (m > 0) {
        qsort(xs, m, sizeof *xs, dcmp);
        size_t d = 0;
        mult = malloc(m * sizeof *mult);
        F = malloc(m * sizeof *F);
        if (!mult || !F) {
            st = EM_ERR_NOMEM;
            goto out;
        }
        for (size_t i = 0; i < m; i++) {
            if (d > 0 && xs[d - 1] == xs[i]) {
                mult[d - 1]++;
                continue;
            }
            xs[d] = xs[i];
            mult[d] = 1;
            d++;
        }
        Fleft = malloc(m * sizeof *Fleft);
        if (!Fleft) {
            st = EM_ERR_NOMEM;
            goto out;
        }
        st = ks_values(C, xs, d, mult, m, F, Fleft, q);
        if (st != EM_OK)
            goto out;
        size_t where;
        r->ks_d = em_ks_statistic_atoms(d, Fleft, F, mult, m, &where, &r->ks_side);
        r->ks_x = xs[where];
        r->ks_p = em_ks_pvalue(m, r->ks_d, &r->ks_method, &r->ks_p_upper);
    }
    r->reject_support = r->outside > 0;
    r->reject_gof = r->gof.p_value < alpha || r->gof.tail_p < alpha ||
                    r->gof.cand_p < r->gof.cand_alpha;
    r->reject_ks = r->ks_p < alpha;
    r->reject = r->reject_support || r->reject_gof || r->reject_ks;
    r->verdict = r->reject ? EM_GOF_REJECT
                 : r->gof.verdict == EM_GOF_INSUFFICIENT ? EM_GOF_INSUFFICIENT : EM_GOF_PASS;
out:
    if (st != EM_OK)
        em_gof_cont_free(r);
    for (size_t k = 0; k < ninit; k++)
        mpfr_clear(E[k].F);
    free(E);
    free(slo);
    free(shi);
    free(brk);
    free(p);
    free(cnt);
    free(cell_of);
    free(xs);
    free(mult);
    free(F);
    free(Fleft);
    mpfr_clears(Fb, Fl, Fr, t, (mpfr_ptr)0);
    mpq_clears(lo, hi, a, b, q, NULL);
    return st;
}
