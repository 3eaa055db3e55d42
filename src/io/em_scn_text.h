/* em_scn_text.h: the scenario file format (every command and the library read it).
 *
 * One candidate per line, `label,utility`:
 *   - the utility follows the LAST comma (so a label may contain commas); a label may also
 *     be a CSV-quoted field ("a ""quoted"" label");
 *   - utilities are exact: decimals (-12.5e3, 0.1 = 1/10), C99 hex floats (0x1.8p3),
 *     fractions (4100/4140), or -inf (an excluded candidate); see num/em_rational.h;
 *   - spaces and tabs around fields are ignored; blank lines are skipped;
 *   - `#` starts a comment line; these comment lines are headers:
 *       # sensitivity: D        (D exact, > 0; as written by `expmech score`)
 *       # monotone: yes|no      (the monotone variant, weight exp(eps u / D))
 *       # measure: yes|no       (yes: lines are `label,utility,measure`, a base measure
 *                                m >= 0 exact; P(r) proportional to m_r exp(c u_r))
 *       # output: continuous    (before any data line: the file is a continuous scenario,
 *                                one piece per line `lo,hi,a[,b]`, u = a + b r on
 *                                [lo, hi]; lo may be -inf on the first piece, hi +inf
 *                                on the last; see oracle/em_cont.h)
 *   - a UTF-8 byte-order mark at the start and CRLF line ends are accepted;
 *   - rejected, with a message "FILE:LINE: ...": a line longer than EM_SCN_MAX_LINE
 *     bytes, a NUL byte, a stray carriage return, invalid UTF-8, a line without a comma,
 *     an empty label, a malformed utility, a duplicate label, a repeated or malformed
 *     header, no candidates at all, more candidates than the limit (below).
 *
 * Scale.  The limit on candidates is EM_SCN_MAX_N (2^25 = 33554432) unless s->max_n
 * or, for em_scn_read_file, the environment variable EXPMECH_MAX_CANDIDATES (1 to EM_N_MAX)
 * sets another: past it the parse stops with EM_ERR_TOO_MANY and "more than N candidates"
 * before memory runs out.  A file is read in 1 MiB chunks (never whole), labels live in an
 * arena (no allocation per label), and with s->compact set before parsing the utilities are
 * kept as an int64 mantissa and a decimal or binary exponent (u == NULL; a value that
 * does not fit is kept as its limbs: em_scn_get_u reads them back exactly), about
 * 10 bytes per candidate instead of a GMP rational's 100, and line numbers as runs.
 *
 * Speed (measured by stats/bench_parse.c).  A compact parse reads a plain
 * decimal of at most 38 significant digits without GMP, into the same encoding the exact
 * path gives it; em_scn_doubles rounds such a value with one IEEE or 128-bit integer
 * operation; everything else takes the exact path.  The label index is built once, at the
 * end of the parse (sorted hashes, no probe per line); a duplicate label is still reported
 * at its own line, before the errors of that line and of any later one.
 */
#ifndef EM_IO_SCN_TEXT_H
#define EM_IO_SCN_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <gmp.h>

#include "em_base.h"
#include "num/em_pieces.h"

#define EM_SCN_MAX_LINE 4096
#define EM_SCN_ERRLEN 512
#define EM_SCN_MAX_N ((size_t)1 << 25)

typedef struct em_scn {
    size_t n;
    char **labels;             /* NUL-terminated, unquoted (pointers into the arena) */
    mpq_t *u;                  /* exact utilities (0 where excluded); NULL when compact */
    unsigned char *excluded;   /* 1 where the utility is -inf */
    double *ud;                /* nearest doubles; -inf where excluded, +-inf beyond double
                                  (compact: NULL until em_scn_doubles) */
    unsigned long *line;       /* line number of each candidate (compact: NULL, see
                                  em_scn_line) */
    int has_sensitivity;
    mpq_t sensitivity;
    int has_monotone, monotone;
    int has_measure;           /* '# measure: yes': measure[] is set */
    mpq_t *measure;            /* base measure of each candidate (NULL without the header) */
    int continuous;            /* '# output: continuous': n == 0 and pieces holds the law */
    em_pieces pieces;          /* the pieces (with its own sensitivity/monotone copies) */
    char *name;                /* file name used in messages ("<stdin>" for standard input) */
    int compact;               /* set before parsing: utilities stored compactly, u == NULL
                                  (ignored with '# measure: yes') */
    size_t max_n;              /* limit on candidates; 0: the default (see Scale above) */
    /* private: label index, label arena, compact utilities */
    uint32_t *hash;
    size_t hcap, cap;
    char **arena;
    size_t narena, arena_used, arena_cap;
    int64_t *uv;               /* mantissa, or offset into ql */
    uint16_t *ucode;           /* kind (2 bits) and exponent (14 bits) */
    mp_limb_t *ql;             /* the rationals that fit no mantissa, as limbs */
    size_t qlen, qcap;
    size_t *lrun;              /* line runs (first index, its line) */
    size_t nlrun, lruncap;
    mpq_t scratch;
    size_t hint;               /* expected candidates (from the file size), or 0 */
    uint64_t *keys;            /* while parsing: hash bits and index of each candidate */
    const char *pend_label;    /* the label of the line being parsed, its line and hash */
    unsigned long pend_line;
    uint64_t pend_hash;
} em_scn;

void em_scn_init(em_scn *s);
/* Frees everything and zeroes s: freeing twice is harmless; reuse needs em_scn_init. */
void em_scn_clear(em_scn *s);

/* Parse a whole buffer.  Returns EM_OK or EM_ERR_PARSE / EM_ERR_TOO_MANY / EM_ERR_NOMEM
 * with the message "NAME:LINE: ..." in err. */
int em_scn_read(em_scn *s, const char *buf, size_t len, const char *name,
                      em_error *err);

/* Read a file (NULL or "-": standard input) and parse it. */
int em_scn_read_file(em_scn *s, const char *path, em_error *err);

/* The exact utility of candidate i (0 where excluded), compact or not. */
void em_scn_get_u(const em_scn *s, size_t i, mpq_t q);

/* The line number of candidate i, compact or not. */
unsigned long em_scn_line(const em_scn *s, size_t i);

/* em_scn_get_u with the signature of a utility reader (oracle/em_problem.h): ctx is
 * the scenario. */
void em_scn_reader_get(const void *ctx, size_t i, mpq_t q);

/* ud[] of a compact scenario, filled when first needed (the float sampler): EM_OK or
 * EM_ERR_NOMEM. */
int em_scn_doubles(em_scn *s, em_error *err);

/* A compact scenario made ordinary: u[] filled (for the paths that need every utility as
 * an mpq at once: permute-and-flip, weighted laws).  EM_OK or EM_ERR_NOMEM. */
int em_scn_expand(em_scn *s, em_error *err);

/* Index of a label (exact bytes), or -1. */
long em_scn_lookup(const em_scn *s, const char *label, size_t len);

/* Write a label as a CSV field (quoted when it contains a comma, a quote or leading /
 * trailing white space, or starts with '#'). */
void em_csv_label(FILE *f, const char *label);
/* s as a quoted CSV field, every '"' doubled: what em_csv_label writes when quoting is
 * needed, and a field that is always quoted. */
void em_csv_quoted(FILE *f, const char *s);

#endif
