/* em_mem.h: the few memory chores every floor repeats. */
#ifndef EM_BASE_MEM_H
#define EM_BASE_MEM_H

#include <stddef.h>

/* *pp (a pointer to an array pointer) reallocated to n elements of size bytes: 1, or 0
 * when out of memory (*pp then unchanged). */
int em_realloc_array(void *pp, size_t n, size_t size);

/* The n strings of v and v itself freed (v NULL is harmless). */
void em_free_strings(char **v, size_t n);

/* The indices 0 .. n-1 in the order of cmp (a qsort comparator of two size_t), malloc'd;
 * NULL when out of memory. */
size_t *em_sorted_indices(size_t n, int (*cmp)(const void *, const void *));

/* The n pointers of v freed (any of them NULL is harmless): the one call behind
 * EM_FREE_ALL, which keeps a structure's long list of frees from being written out. */
void em_free_each(void *const *v, size_t n);

/* EM_FREE_ALL(a, b, c): free(a); free(b); free(c); (pointers to object types only) */
#define EM_FREE_ALL(...) \
    em_free_each((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* The n pointers that v's entries point to (each the address of an object pointer, as
 * em_realloc_array's pp) freed and set to NULL: storage a structure may allocate again. */
void em_free_null_each(void *const *v, size_t n);

/* EM_FREE_NULL_ALL(&a, &b): free(a); a = NULL; free(b); b = NULL; */
#define EM_FREE_NULL_ALL(...)                       \
    em_free_null_each((void *const[]){__VA_ARGS__}, \
                      sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

#endif
