/* em_data.h: the raw data of `expmech score` (em_score.h) as text lines, one value per line,
 * one column of a CSV file with a header line, or an aggregate `value,count` per line; and
 * the candidate lists (a:b[:step] or a file).  Library-internal; never installed.
 *
 * Every function returns EM_OK or an em_status with err set (EM_ERR_PARSE for bad input,
 * EM_ERR_NOMEM); the messages are the command's ("FILE:LINE: ..."). */
#ifndef EM_IO_DATA_H
#define EM_IO_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "em_base.h"

/* Non-blank, non-comment, trimmed lines (pointers into buf, made NUL-terminated in place). */
typedef struct em_rows {
    char *buf;
    size_t n, cap;
    char **v;
    unsigned long *line;
    uint64_t *count;  /* aggregated: how many rows hold v[i]; NULL: each line is one row */
    size_t rows;      /* sum of count[], or n */
    const char *name; /* for messages; "<stdin>" for standard input */
} em_rows;

/* EM_ERR_PARSE with a formatted message; EM_ERR_NOMEM with "out of memory". */
int em_data_fail(em_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int em_data_nomem(em_error *err);

/* Read path ('-': standard input); `what` names the option in messages ("--data"). */
int em_rows_read(em_rows *l, const char *path, const char *what, em_error *err);
void em_rows_free(em_rows *l);

/* The --data of em_score_opts: every line, one CSV column, or the aggregate's values with
 * their counts (duplicate values and counts that are not integers in [0, 2^64) refused,
 * lines with count 0 dropped, rows = the total, which must fit a size_t). */
int em_data_read(em_rows *d, const char *path, const char *column, int aggregated,
                 em_error *err);

/* em_data_read of one column of a CSV file (no aggregate) with, for each row, its value in
 * the column group_by: (*group)[i] for d->v[i] (malloc'd array, free() it, even after a
 * failure; the texts point into d->buf).  Refused: group_by missing, repeated, or the
 * scored column itself; an empty value in either column. */
int em_data_read_grouped(em_rows *d, const char *path, const char *column,
                         const char *group_by, char ***group, em_error *err);

/* A candidate set: numeric ones carry their exact values. */
typedef struct em_cands {
    size_t n;
    char **label; /* owned */
    mpq_t *q;     /* numeric candidate sets only */
    int numeric;
} em_cands;

int em_cands_alloc(em_cands *c, size_t n, int numeric, em_error *err);
/* "a:b[:step]" or a file with one candidate per line (numbers when numeric). */
int em_cands_load(em_cands *c, const char *spec, int numeric, em_error *err);
void em_cands_free(em_cands *c);

/* Index of a string among keys (open addressing; the keys are borrowed). */
typedef struct em_strmap {
    size_t cap;
    size_t *slot; /* index + 1, 0 = empty */
    char **key;
} em_strmap;

/* An empty table with room for n keys (keys[0..n) added later by em_strmap_add). */
int em_strmap_alloc(em_strmap *m, char **keys, size_t n, em_error *err);
/* em_strmap_alloc and every key added: EM_OK, EM_ERR_NOMEM, or EM_ERR_PARSE when keys[*dup] repeats an earlier key (err not set:
 * the caller names the duplicate). */
int em_strmap_init(em_strmap *m, char **keys, size_t n, size_t *dup, em_error *err);
long em_strmap_find(const em_strmap *m, const char *s);
/* Adds keys[i] (not present yet). */
void em_strmap_add(em_strmap *m, size_t i);
void em_strmap_free(em_strmap *m);

#endif
