/* em_pieces.h: a piecewise-linear utility u(r) = a_j + b_j r on intervals [lo_j, hi_j] with
 * exact rational ends and coefficients: what a continuous scenario is, as the parser
 * reads it and the continuous law takes it. */
#ifndef EM_NUM_PIECES_H
#define EM_NUM_PIECES_H

#include <stddef.h>
#include <gmp.h>

/* The most pieces one law takes (2^26). */
#define EM_PIECES_MAX ((size_t)1 << 26)

/* A continuous scenario (pieces), as parsed from
 *   # output: continuous
 *   # sensitivity: D          (optional)
 *   # monotone: yes|no        (optional)
 *   lo,hi,a[,b]               one piece per line (io/em_scn_text.h). */
typedef struct em_pieces {
    size_t n;
    mpq_t *lo, *hi, *a, *b;    /* exact; lo[0] ignored if lo_inf, hi[n-1] ignored if hi_inf */
    int lo_inf, hi_inf;        /* lo[0] = -inf, hi[n-1] = +inf */
    unsigned long *line;       /* source line of each piece (for messages), may be NULL */
    int has_sensitivity;
    mpq_t sensitivity;
    int has_monotone, monotone;
    char *name;                /* file name for messages */
} em_pieces;

void em_pieces_init(em_pieces *ps);
void em_pieces_free(em_pieces *ps);
/* Append one piece (grows the arrays); EM_OK or EM_ERR_NOMEM / EM_ERR_TOO_MANY. */
int em_pieces_push(em_pieces *ps, const mpq_t lo, const mpq_t hi, const mpq_t a, const mpq_t b,
                   unsigned long line);

#endif
