/* em_cdf_table.c: tables of points and given CDF values (em_cdf_table.h). */
#include "num/em_cdf_table.h"

#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_mem.h"
#include "num/em_rational.h"

void em_cdf_table_init(em_cdf_table *T)
{
    memset(T, 0, sizeof *T);
}

void em_cdf_table_free(em_cdf_table *T)
{
    em_q_array_free(T->x, T->n);
    em_q_array_free(T->g, T->n);
    EM_FREE_ALL(T->kind, T->line);
    memset(T, 0, sizeof *T);
}

int em_cdf_table_grow(em_cdf_table *T)
{
    if (T->n < T->cap)
        return EM_OK;
    size_t nc = T->cap ? 2 * T->cap : 64;
    if (!em_realloc_array(&T->x, nc, sizeof *T->x) || !em_realloc_array(&T->g, nc, sizeof *T->g) ||
        !em_realloc_array(&T->kind, nc, sizeof *T->kind) ||
        !em_realloc_array(&T->line, nc, sizeof *T->line))
        return EM_ERR_NOMEM;
    T->cap = nc;
    return EM_OK;
}
