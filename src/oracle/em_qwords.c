/* em_qwords.c: utilities copied as words (em_qwords.h). */
#include "oracle/em_qwords.h"

#include <limits.h>
#include <stdlib.h>

#include "em_base.h"
#include "num/em_rational.h"
#include "oracle/em_exponents.h"

static void qwords_get(const void *ctx, size_t i, mpq_t q)
{
    const int64_t *w = (const int64_t *)ctx + 2 * i;
    mpz_set_si(mpq_numref(q), (long)w[0]);
    mpz_set_ui(mpq_denref(q), (unsigned long)(uint64_t)w[1]);
}

int em_qcopy_new(const em_problem *P, em_qcopy *c, em_utility_reader *src)
{
    const size_t n = P->n;
    c->w = NULL;
    c->q = NULL;
    int fits = sizeof(long) == sizeof(int64_t) && n <= SIZE_MAX / (2 * sizeof(int64_t));
    if (fits) {
        c->w = malloc((n ? 2 * n : 2) * sizeof *c->w);
        if (!c->w)
            return EM_ERR_NOMEM;
        mpq_t u;
        mpq_init(u);
        for (size_t i = 0; i < n && fits; i++) {
            int64_t num = 0, den = 1;
            if (!em_problem_excluded(P, i)) {
                em_problem_get(P, i, u);
                fits = mpz_fits_slong_p(mpq_numref(u)) && mpz_fits_ulong_p(mpq_denref(u));
                num = fits ? (int64_t)mpz_get_si(mpq_numref(u)) : 0;
                den = fits ? (int64_t)(uint64_t)mpz_get_ui(mpq_denref(u)) : 1;
            }
            c->w[2 * i] = num;
            c->w[2 * i + 1] = den;
        }
        mpq_clear(u);
        if (fits) {
            *src = (em_utility_reader){qwords_get, c->w};
            return EM_OK;
        }
        free(c->w);
        c->w = NULL;
    }
    c->q = em_q_array_copy(P);
    if (!c->q)
        return EM_ERR_NOMEM;
    *src = (em_utility_reader){em_utility_array_get, c->q};
    return EM_OK;
}

void em_qcopy_free(em_qcopy *c, size_t n)
{
    free(c->w);
    em_q_array_free(c->q, n);
    c->w = NULL;
    c->q = NULL;
}
