/* em_pieces.c: piecewise-linear utilities (em_pieces.h). */
#include "num/em_pieces.h"

#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "base/em_mem.h"
#include "num/em_rational.h"

void em_pieces_init(em_pieces *ps)
{
    memset(ps, 0, sizeof *ps);
    mpq_init(ps->sensitivity);
}

void em_pieces_free(em_pieces *ps)
{
    mpq_t **arrs[] = {&ps->lo, &ps->hi, &ps->a, &ps->b};
    for (size_t k = 0; k < sizeof arrs / sizeof arrs[0]; k++)
        em_q_array_free(*arrs[k], ps->n);
    EM_FREE_ALL(ps->line, ps->name);
    mpq_clear(ps->sensitivity);
    memset(ps, 0, sizeof *ps); /* as em_scn_clear: a second free is harmless */
}

int em_pieces_push(em_pieces *ps, const mpq_t lo, const mpq_t hi, const mpq_t a, const mpq_t b,
                   unsigned long line)
{
    if (ps->n >= EM_PIECES_MAX)
        return EM_ERR_TOO_MANY;
    size_t cap = ps->n + 1;
    if ((cap & (cap - 1)) == 0 || ps->n == 0) {
        size_t nc = cap < 16 ? 16 : cap * 2;
        if (!em_realloc_array(&ps->lo, nc, sizeof *ps->lo) ||
            !em_realloc_array(&ps->hi, nc, sizeof *ps->hi) ||
            !em_realloc_array(&ps->a, nc, sizeof *ps->a) ||
            !em_realloc_array(&ps->b, nc, sizeof *ps->b) ||
            !em_realloc_array(&ps->line, nc, sizeof *ps->line))
            return EM_ERR_NOMEM;
    }
    size_t j = ps->n;
    mpq_init(ps->lo[j]);
    mpq_init(ps->hi[j]);
    mpq_init(ps->a[j]);
    mpq_init(ps->b[j]);
    mpq_set(ps->lo[j], lo);
    mpq_set(ps->hi[j], hi);
    mpq_set(ps->a[j], a);
    mpq_set(ps->b[j], b);
    ps->line[j] = line;
    ps->n++;
    return EM_OK;
}
