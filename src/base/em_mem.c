/* em_mem.c: memory chores (em_mem.h). */
#include "base/em_mem.h"

#include <stdlib.h>
#include <string.h>

int em_realloc_array(void *pp, size_t n, size_t size)
{
    void *old;
    memcpy(&old, pp, sizeof old);
    void *p = realloc(old, n * size);
    if (!p)
        return 0;
    memcpy(pp, &p, sizeof p);
    return 1;
}

void em_free_strings(char **v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void em_free_each(void *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
}

void em_free_null_each(void *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *p;
        memcpy(&p, v[i], sizeof p);
        free(p);
        p = NULL;
        memcpy(v[i], &p, sizeof p);
    }
}

size_t *em_sorted_indices(size_t n, int (*cmp)(const void *, const void *))
{
    size_t *ix = malloc((n ? n : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    qsort(ix, n, sizeof *ix, cmp);
    return ix;
}
