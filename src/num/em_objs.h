/* em_objs.h: arrays of objects that must be set up and cleared one by one (GMP rationals,
 * MPFR numbers): one allocation, every element through the caller's init and clear. */
#ifndef EM_NUM_OBJS_H
#define EM_NUM_OBJS_H

#include <stddef.h>

/* n elements of size bytes each, each given to init(element, arg); NULL when out of
 * memory (or n * size overflows), with nothing initialised. */
void *em_objs_new(size_t n, size_t size, void (*init)(void *, long), long arg);

/* clear(element) of each of the n elements, then the array freed; NULL is harmless. */
void em_objs_free(void *a, size_t n, size_t size, void (*clear)(void *));

#endif
