/* em_text.h: text in, as every reader of src/io/ takes it.
 *
 * One line iterator for every file format: a UTF-8 byte-order mark at the start skipped,
 * lines split at LF with a final CR dropped (CRLF files read as LF ones), numbered from 1
 * for messages ("NAME:LINE: ..."); over a buffer, or over a stream read in chunks (a file
 * too large to hold whole).  The checks a line gets (length, NUL, CR or a byte-order mark
 * inside it, UTF-8) are one function with one set of messages, and the UTF-8 decoder is
 * the library's one.
 */
#ifndef EM_IO_TEXT_H
#define EM_IO_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "em_base.h"

/* Read all of a stream into a malloc'd buffer (NUL-terminated); EM_OK or EM_ERR_NOMEM /
 * EM_ERR_PARSE (read error, or more than max bytes). */
int em_read_all(FILE *f, size_t max, char **buf, size_t *len);

/* ------------------------------------------------------------------ UTF-8 */

/* The length of the one UTF-8 sequence at p (at most n bytes), 0 when invalid: overlong
 * forms, surrogates and code points above U+10FFFF are invalid. */
size_t em_utf8_valid_prefix(const unsigned char *p, size_t n);

/* The offset of the first byte of s[0..n) that is not valid UTF-8, or n. */
size_t em_utf8_check(const char *s, size_t n);

/* -------------------------------------------------------------- the lines */

typedef struct em_line_iter {
    const char *buf;        /* the text (a buffer), or the chunk (a stream) */
    size_t len, pos;        /* its bytes; the next line's start */
    unsigned long line;     /* the number of the line returned last (1-based) */
    /* a stream: */
    FILE *f;
    char *chunk;
    size_t cap, total, max;
    int eof, failed;
    int data_seen;          /* em_line_next_data returned a data line */
    int comments_lead;      /* set by the caller: '#' lines are comments only before the data */
} em_line_iter;

/* Lines of buf[0..len). */
void em_line_iter_init(em_line_iter *it, const char *buf, size_t len);

/* Lines of the stream f, read in chunks of cap bytes (at most max in all).  The first
 * chunk is read here: it->buf[0..it->len) may be looked at before the first line (a size
 * estimate).  EM_OK or EM_ERR_NOMEM; a read error shows later, as em_line_iter_failed. */
int em_line_iter_open(em_line_iter *it, FILE *f, size_t cap, size_t max);
void em_line_iter_close(em_line_iter *it);

/* The next line, without its LF and a final CR: 1 with *p, *n set, 0 at the end (or on a
 * read error: em_line_iter_failed).  A stream line longer than the chunk is skipped and
 * returned as *p NULL with *n its length. */
int em_line_next(em_line_iter *it, const char **p, size_t *n);

/* The next data line: spaces and tabs trimmed, blank lines and lines starting with '#'
 * skipped; with it->comments_lead set, '#' lines are skipped before the first data line
 * only (comments open a file): after it, a line starting with '#' is data (an id '#1'),
 * for the caller to read or refuse, never dropped in silence. */
int em_line_next_data(em_line_iter *it, const char **p, size_t *n);

/* A stream that could not be read to its end: a read error, or more than max bytes. */
int em_line_iter_failed(const em_line_iter *it);

/* Why the stream f (named name; stdin when is_stdin) cannot be read as a text file, or
 * NULL when it may be: standard input closed, a directory.  After a failed read,
 * em_stream_why_failed says which of those, a device, or the error (errno) it was. */
const char *em_stream_refusal(FILE *f, int is_stdin);
const char *em_stream_why_failed(FILE *f, int is_stdin, int errnum);

/* Spaces and tabs off both ends of p[0..n). */
void em_text_trim(const char **p, size_t *n);

/* p[0..n) for a message: at most 40 bytes (then "..."), control bytes as \xHH, into
 * out[0..cap) (NUL-terminated). */
void em_text_show(char *out, size_t cap, const char *p, size_t n);

/* The checks of a line p[0..n) of the file name at line ln, in this order: more than max
 * bytes (max 0: no limit), a NUL byte, and, with EM_LINE_STRICT, a CR or a byte-order
 * mark inside the line; then invalid UTF-8.  EM_OK, or EM_ERR_PARSE with "NAME:LINE: ..."
 * in err. */
#define EM_LINE_STRICT 1u
int em_line_check(const char *p, size_t n, size_t max, unsigned flags, const char *name,
                  unsigned long ln, em_error *err);

#endif
