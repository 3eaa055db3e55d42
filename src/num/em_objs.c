/* em_objs.c: arrays of objects set up and cleared one by one (em_objs.h). */
#include "num/em_objs.h"

#include <stdint.h>
#include <stdlib.h>

void *em_objs_new(size_t n, size_t size, void (*init)(void *, long), long arg)
{
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    unsigned char *a = malloc(n ? n * size : 1);
    if (a)
        for (size_t i = 0; i < n; i++)
            init(a + i * size, arg);
    return a;
}

void em_objs_free(void *a, size_t n, size_t size, void (*clear)(void *))
{
    if (!a)
        return;
    for (size_t i = 0; i < n; i++)
        clear((unsigned char *)a + i * size);
    free(a);
}
