/* em_cdf_compare.c: a CDF table against the exact CDF (see em_cdf_compare.h). */
#include "judge/em_cdf_compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "em_base.h"
#include "base/em_mem.h"
#include "num/em_rational.h"

#define PREC 256

static const em_cdf_table *sort_T;
static int by_x(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = mpq_cmp(sort_T->x[i], sort_T->x[j]);
    return c ? c : (i > j) - (i < j);
}

/* The running maximum mx (at *at) of e / den over the points i (t: scratch, may be den):
 * infinite (*inf) from the first point where den is 0 and e is not */
static void max_ratio(mpfr_t t, mpfr_srcptr e, mpfr_srcptr den, mpfr_t mx, int *inf, size_t *at,
                      size_t i)
{
    if (mpfr_zero_p(den)) {
        if (!mpfr_zero_p(e) && !*inf) {
            *inf = 1;
            *at = i;
        }
    } else if (!*inf) {
        mpfr_div(t, e, den, MPFR_RNDN);
        if (mpfr_cmp(t, mx) > 0) {
            mpfr_set(mx, t, MPFR_RNDN);
            *at = i;
        }
    }
}

int em_cdf_compare(em_cont *C, const em_cdf_table *T, double rtol, double atol,
                   em_cdf_compare_result *r)
{
    if (!C || !T || !r)
        return EM_ERR_NULL;
    if (T->n == 0)
        return EM_ERR_EMPTY;
    if (em_cont_kind(C) != EM_CONT_PIECES || !(rtol >= 0) || !(atol >= 0))
        return EM_ERR_DOMAIN;
    memset(r, 0, sizeof *r);
    r->n = T->n;
    mpfr_exp_t emin = mpfr_get_emin();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_t lo, hi, F, G, e, tol, t, mabs, mrel, mtail;
    mpfr_inits2(PREC, lo, hi, F, G, e, tol, t, mabs, mrel, mtail, (mpfr_ptr)0);
    mpfr_set_zero(mabs, 1);
    mpfr_set_zero(mrel, 1);
    mpfr_set_zero(mtail, 1);
    int relinf = 0, tailinf = 0, st = EM_OK;
    for (size_t i = 0; i < T->n; i++) {
        st = em_cont_cdf_bounds(C, T->x[i], PREC, lo, hi);
        if (st != EM_OK)
            break;
        mpfr_add(F, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(F, F, 1, MPFR_RNDN);
        int fail = 0;
        if (T->kind[i] == EM_CDFV_NAN) {
            r->nnan++;
            fail = 1;
        } else if (T->kind[i] != EM_CDFV_NUM) {
            r->ninf++;
            fail = 1;
        } else {
            mpfr_set_q(G, T->g[i], MPFR_RNDN);
            if (mpfr_sgn(G) < 0) {
                r->nneg++;
                fail = 1;
            }
            if (mpfr_cmp_ui(G, 1) > 0) {
                r->nbig++;
                fail = 1;
            }
            mpfr_sub_q(e, F, T->g[i], MPFR_RNDN);
            mpfr_abs(e, e, MPFR_RNDN);
            /* within the bounds' width: the exact comparison says whether it is 0 */
            mpfr_sub(t, hi, lo, MPFR_RNDU);
            if (mpfr_cmp(e, t) <= 0) {
                int sg;
                st = em_cont_cdf_cmp(C, T->x[i], T->g[i], &sg);
                if (st != EM_OK)
                    break;
                if (sg == 0)
                    mpfr_set_zero(e, 1);
            }
            if (mpfr_cmp(e, mabs) > 0) {
                mpfr_set(mabs, e, MPFR_RNDN);
                r->i_abs = i;
            }
            max_ratio(t, e, F, mrel, &relinf, &r->i_rel, i);
            mpfr_ui_sub(t, 1, F, MPFR_RNDN);
            max_ratio(t, e, t, mtail, &tailinf, &r->i_tail, i);
            mpfr_mul_d(tol, F, rtol, MPFR_RNDN);
            mpfr_set_d(t, atol, MPFR_RNDN);
            if (mpfr_cmp(tol, t) < 0)
                mpfr_set(tol, t, MPFR_RNDN);
            if (mpfr_cmp(e, tol) > 0)
                fail = 1;
        }
        if (fail) {
            if (r->nshow < EM_CDF_COMPARE_SHOW) {
                r->show[r->nshow] = i;
                r->F_show[r->nshow] = mpfr_get_d(F, MPFR_RNDN);
                r->nshow++;
            }
            r->nfail++;
        }
    }
    r->max_abs = mpfr_get_d(mabs, MPFR_RNDN);
    r->max_rel = relinf ? INFINITY : mpfr_get_d(mrel, MPFR_RNDN);
    r->max_tail = tailinf ? INFINITY : mpfr_get_d(mtail, MPFR_RNDN);
    mpfr_clears(lo, hi, F, G, e, tol, t, mabs, mrel, mtail, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    if (st != EM_OK)
        return st;
    /* decreasing pairs, in the order of x */
    sort_T = T;
    size_t *ord = em_sorted_indices(T->n, by_x);
    if (!ord)
        return EM_ERR_NOMEM;
    size_t prev = SIZE_MAX;
    for (size_t k = 0; k < T->n; k++) {
        size_t i = ord[k];
        if (T->kind[i] != EM_CDFV_NUM)
            continue;
        if (prev != SIZE_MAX && mpq_cmp(T->x[prev], T->x[i]) < 0 &&
            mpq_cmp(T->g[prev], T->g[i]) > 0)
            r->ndecrease++;
        prev = i;
    }
    free(ord);
    r->reject = r->nfail > 0;
    return EM_OK;
}
