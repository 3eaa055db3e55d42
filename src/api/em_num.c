/* em_num.c: exact numbers of the API's text (src/include/em_num.h): comparing two, and
 * the points of an exact grid. */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "em_base.h"
#include "api/em_law_priv.h"
#include "base/em_error.h"
#include "num/em_rational.h"
#include "oracle/em_cont.h"
#include "em_num.h"
#include "api/em_obj.h"

int em_num_cmp(const char *a, const char *b, int *sign, em_error *err)
{
    if (!a || !b || !sign)
        return em_err(err, EM_ERR_NULL, "em_num_cmp: a, b or sign is NULL");
    mpq_t qa, qb;
    mpq_inits(qa, qb, (mpq_ptr)0);
    int st = em_law_parse_num(a, qa, err);
    if (st == EM_OK)
        st = em_law_parse_num(b, qb, err);
    if (st == EM_OK) {
        int c = mpq_cmp(qa, qb);
        *sign = (c > 0) - (c < 0);
        em_err_ok(err);
    }
    mpq_clears(qa, qb, (mpq_ptr)0);
    return st;
}

static int grid_q(const char *lo, const char *hi, uint64_t n, uint64_t i, mpq_t q,
                  em_error *err)
{
    mpq_t a, step;
    mpq_inits(a, step, (mpq_ptr)0);
    int st = em_law_parse_num(lo, a, err);
    if (st == EM_OK)
        st = em_law_parse_num(hi, step, err);
    if (st == EM_OK && (n == 0 || i >= n))
        st = em_err(err, EM_ERR_DOMAIN, "grid point %llu of %llu: no such point",
                    (unsigned long long)i, (unsigned long long)n);
    else if (st == EM_OK && mpq_cmp(a, step) > 0)
        st = em_err(err, EM_ERR_DOMAIN, "grid: lo > hi");
    else if (st == EM_OK && n == 1 && !mpq_equal(a, step))
        st = em_err(err, EM_ERR_DOMAIN, "grid: n = 1 needs lo = hi");
    else if (st == EM_OK) {
        mpq_set(q, a);
        if (n > 1) {
            mpq_sub(step, step, a);
            mpz_mul_ui(mpq_denref(step), mpq_denref(step), (unsigned long)(n - 1));
            mpq_canonicalize(step);
            mpz_mul_ui(mpq_numref(step), mpq_numref(step), (unsigned long)i);
            mpq_canonicalize(step);
            mpq_add(q, q, step);
        }
    }
    mpq_clears(a, step, (mpq_ptr)0);
    return st;
}

/* q as a grid shows it: its exact form when that is short, else correctly rounded by the
 * law L (*shown NULL on an error). */
static int shown_text(em_cont *L, const mpq_t q, char **shown, em_error *err)
{
    int st = EM_OK;
    char *sh = em_q_to_string(q, 20);
    if (sh && strchr(sh, '/')) {
        free(sh);
        sh = NULL;
        em_cval v;
        em_cval_init(&v);
        if ((st = em_cont_round_q(L, q, &v)) != EM_OK)
            em_law_fail(err, st, NULL);
        else
            sh = strdup(v.str);
        em_cval_clear(&v);
    }
    *shown = sh;
    return st == EM_OK && !sh ? em_err(err, EM_ERR_NOMEM, "out of memory") : st;
}

int em_num_grid_point_plain(em_mech *m, const char *lo, const char *hi, uint64_t n, uint64_t i,
                                char **exact, char **shown, em_error *err)
{
    if (!exact)
        return em_err(err, EM_ERR_NULL, "em_num_grid_point: exact is NULL");
    *exact = NULL;
    if (shown)
        *shown = NULL;
    em_cont *L = NULL;
    int st = shown ? em_law_continuous(m, "em_num_grid_point", &L, err) : EM_OK;
    if (st != EM_OK)
        return st;
    mpq_t q;
    mpq_init(q);
    if ((st = grid_q(lo, hi, n, i, q, err)) == EM_OK) {
        *exact = em_q_to_string(q, 60);
        if (shown)
            st = shown_text(L, q, shown, err);
        if (st == EM_OK && !*exact)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    mpq_clear(q);
    if (st != EM_OK) {
        free(*exact);
        *exact = NULL;
        if (shown) {
            free(*shown);
            *shown = NULL;
        }
        return st;
    }
    em_err_ok(err);
    return EM_OK;
}

int em_num_grid_point(em_mech *m, const char *lo, const char *hi, uint64_t n, uint64_t i,
                      char **exact, char **shown, em_error *err)
{
    return EM_OBJ_STRINGS(em_num_grid_point_plain(m, lo, hi, n, i, exact, shown, err), err,
                          exact, shown);
}
