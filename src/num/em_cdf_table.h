/* em_cdf_table.h: a table of points x (exact) and values given for a CDF there (exact, or
 * NaN / +-inf as values to judge), with the source line of each: what another
 * implementation's CDF file says, as the judge takes it. */
#ifndef EM_NUM_CDF_TABLE_H
#define EM_NUM_CDF_TABLE_H

#include <stddef.h>
#include <gmp.h>

enum { EM_CDFV_NUM = 0, EM_CDFV_NAN = 1, EM_CDFV_PINF = 2, EM_CDFV_NINF = 3 };

typedef struct em_cdf_table {
    size_t n, cap;
    mpq_t *x, *g;          /* the point and the given value (when kind == EM_CDFV_NUM) */
    int *kind;             /* EM_CDFV_* */
    unsigned long *line;   /* source line */
} em_cdf_table;

void em_cdf_table_init(em_cdf_table *T);
void em_cdf_table_free(em_cdf_table *T);

/* Room for one more point (T->n < T->cap after EM_OK); EM_OK or EM_ERR_NOMEM. */
int em_cdf_table_grow(em_cdf_table *T);

#endif
