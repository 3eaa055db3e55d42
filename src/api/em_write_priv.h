/* em_write_priv.h: what the result writers (em_*_write.c) share.  Never installed. */
#ifndef EM_WRITE_PRIV_H
#define EM_WRITE_PRIV_H

#include <stdio.h>

#include "em_scn.h"

/* The formats a writer accepts, as a set of bits (1u << EM_WRITE_*). */
#define EM_WRITE_ACCEPTS(k) (1u << (k))

/* The arguments of writer fn checked: f, r and m not NULL, o's format one of `formats`
 * and its sweep coherent; *w the options (EM_WRITE_OPTS_INIT for NULL).  EM_OK, or
 * EM_ERR_NULL / EM_ERR_DOMAIN with a message naming fn and the argument. */
int em_write_begin(const char *fn, FILE *f, const void *r, const void *m,
                   const em_write_opts *o, unsigned formats, em_write_opts *w, em_error *err);

/* label in the form for a person (em_scn_human_label, no truncation). */
void em_write_human(FILE *f, const char *label);

/* A CSV field: label's exact bytes (em_csv_label), or, with w->terminal and control
 * characters in it, its form for a person, quoted. */
void em_write_csv_label(FILE *f, const char *label, const em_write_opts *w);

/* A CSV row of a sweep (nothing without one): the header line "epsilon,COLUMNS" before the
 * sweep's first row, then the row's epsilon (w->epsilon, else epsilon) and ','. */
void em_write_sweep_row(FILE *f, const em_write_opts *w, const char *epsilon,
                        const char *columns, size_t row);

/* "standard", "monotone" or "pf" */
const char *em_write_variant(int variant);

/* JSON string (with quotes) of UTF-8 text. */
void em_write_json_string(FILE *f, const char *s);

/* What write(f, arg, err) writes, as one malloc'd text: EM_OK with *text (and *len when len
 * is not NULL) set, or write's error, or EM_ERR_NOMEM when the memory stream fails; *text
 * is NULL on an error. */
typedef int em_text_writer(FILE *f, const void *arg, em_error *err);
int em_write_text(em_text_writer *write, const void *arg, char **text, size_t *len,
                  em_error *err);

/* The end of writer fn: EM_OK, or EM_ERR_DOMAIN when f is in error (ferror).  f is not
 * flushed: its buffering stays the caller's, as for any stdio output. */
int em_write_end(const char *fn, FILE *f, em_error *err);

#endif
