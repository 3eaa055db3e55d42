/* em_mem.h: the few memory chores every floor repeats. */
#ifndef EM_BASE_MEM_H
#define EM_BASE_MEM_H

#include <stddef.h>

/* *pp (a pointer to an array pointer) reallocated to n elements of size bytes: 1, or 0
 * when out of memory (*pp then unchanged). */
int em_realloc_array(void *pp, size_t n, size_t size);

/* The n strings of v and v itself freed (v NULL is harmless). */
void em_free_strings(char **v, size_t n);

#endif
