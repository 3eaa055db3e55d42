/* em_cdf_table.c: tables of points and given CDF values (em_cdf_table.h). */
#include "num/em_cdf_table.h"

#include <stdlib.h>
#include <string.h>

#include "em_base.h"

void em_cdf_table_init(em_cdf_table *T)
{
    memset(T, 0, sizeof *T);
}

void em_cdf_table_free(em_cdf_table *T)
{
    for (size_t i = 0; i < T->n; i++) {
        mpq_clear(T->x[i]);
        mpq_clear(T->g[i]);
    }
    free(T->x);
    free(T->g);
    free(T->kind);
    free(T->line);
    memset(T, 0, sizeof *T);
}

int em_cdf_table_grow(em_cdf_table *T)
{
    if (T->n < T->cap)
        return EM_OK;
    size_t nc = T->cap ? 2 * T->cap : 64;
    mpq_t *x = realloc(T->x, nc * sizeof *x);
    if (x)
        T->x = x;
    mpq_t *g = realloc(T->g, nc * sizeof *g);
    if (g)
        T->g = g;
    int *k = realloc(T->kind, nc * sizeof *k);
    if (k)
        T->kind = k;
    unsigned long *l = realloc(T->line, nc * sizeof *l);
    if (l)
        T->line = l;
    if (!x || !g || !k || !l)
        return EM_ERR_NOMEM;
    T->cap = nc;
    return EM_OK;
}
