/* em_scn_text_priv.h: what the files of the scenario reader share (em_scn_text.h):
 * em_scn_parse.c (the parser and loader), em_scn_labels.c (storage, the arena and the
 * hash index of labels), em_scn_number.c (the compact number codec of utilities). */
#ifndef EM_IO_SCN_TEXT_PRIV_H
#define EM_IO_SCN_TEXT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "em_base.h"
#include "io/em_scn_text.h"

#define LOAD_CHUNK ((size_t)1 << 20) /* em_scn_read_file's reads */

/* Compact utilities: ucode = kind << 14 | (exponent - UEXP_MIN): EXCL (-inf), DEC (uv *
 * 10^e), BIN (uv * 2^e, e < 0: hex floats with long fractions), Q (any other rational: its
 * limbs at ql + uv, see em_scn_q_put).  Mantissas have at most 62 bits, so int64 and
 * mpz_set_si hold them. */
enum { UK_EXCL = 0, UK_DEC = 1, UK_BIN = 2, UK_Q = 3 };
#define UEXP_MIN (-8192L)
#define UEXP_MAX 8191L

/* The fast path of a utility: a plain decimal [+-] digits [. digits] [(e|E) [+-] digits]
 * with at most 38 significant digits, read without GMP into the encoding em_scn_classify
 * (and em_scn_q_put) give its exact value (em_q_parse then em_scn_classify would be most of
 * a large parse, with five allocations per line).  Returns 0 for anything else (hex floats, fractions, -inf,
 * more digits, a large exponent, malformed text), which takes the exact path and its
 * messages.  The value is M 10^E with M < 10^38 < 2^127; with M's trailing zeros moved
 * into E it is canonical, and em_scn_classify's encoding follows from it:
 *   E >= 0: an integer a = M 10^E: (a, 0) when |a| < 2^62, else (M, E);
 *   E < 0, k = -E: if 5^k divides M, the value is (M / 5^k) / 2^k in lowest terms: BIN
 *     (M / 5^k, -k); else its denominator has a factor 5 and max(x, y) = k for 2^x 5^y,
 *     so em_scn_classify's decimal numerator is M itself: DEC (M, -k);
 * each with em_scn_classify's bounds (62-bit mantissa, exponent in [UEXP_MIN, UEXP_MAX]); what
 * fits none is the rational a / b in lowest terms, kept as limbs (UK_Q, fast_wide). */
__extension__ typedef unsigned __int128 em_u128;

typedef struct fast_val {
    int kind, neg;
    int64_t m;      /* DEC, BIN */
    long e;
    em_u128 a, b;   /* UK_Q: |value| = a / b in lowest terms */
} fast_val;

/* The label index: open addressing with linear probing in hcap = 2^b 4-byte slots, a
 * label's home slot the top b bits of its hash.  A slot holds index + 1 in its low b bits
 * (n <= 3/4 hcap, so it fits) and, above them, the next 32 - b hash bits as a tag: a
 * probe reads a label (two cache misses, into labels[] and the arena) only when the tags
 * agree, one time in 2^(32-b) for a different label.
 *
 * The parser does not probe (a cache miss per line, a large share of a parse): each
 * candidate gets a key, its hash's top 34 bits above its index (n <= 2^30), in keys[];
 * at the end (em_scn_index_build) the keys are radix-sorted, equal labels found side
 * by side, and the table filled in the sorted order, in which homes only increase: a streaming
 * write.  A duplicate is reported as the line-by-line parser did, at the first line
 * whose label came before, and before any error on a later line (index_dups). */
#define KEY_IDX_BITS 30
#define KEY_IDX_MASK (((uint64_t)1 << KEY_IDX_BITS) - 1)

/* ------------------------------------------------ shared by the parts */

uint64_t em_scn_hash_bytes(const char *p, size_t n);

int em_scn_grow(em_scn *s);

/* The arrays sized once for the expected number of candidates (s->hint, from the file's
 * size), not grown by doubling and copying.  An estimate too large costs address space
 * only (pages never touched are never resident); too small, the usual growth. */
int em_scn_reserve(em_scn *s, size_t lim);

char *em_scn_arena_alloc(em_scn *s, size_t len);

uint16_t em_scn_ucode_make(int kind, long e);

int em_scn_q_put(em_scn *s, const mpq_t q, int64_t *off);

/* Line numbers of a compact scenario as runs of consecutive lines (index, line): one
 * run for a file of data lines after its headers, not 8 bytes per candidate. */
int em_scn_line_put(em_scn *s, size_t i, unsigned long ln);

/* q (canonical, finite) as m * 10^e or m * 2^e: 1 on success. */
int em_scn_classify(const mpq_t q, int64_t *m, int *kind, long *e);

/* em_scn_q_put of (-1)^neg a / b (lowest terms, a > 0), the limbs GMP would hold. */
int em_scn_q_put_u128(em_scn *s, int neg, em_u128 a, em_u128 b, int64_t *off);

int em_scn_fast_utility(const char *p, size_t n, fast_val *v);

/* keys[] of the candidates of an earlier parse into the same scenario (em_scn_index_build
 * dropped them). */
int em_scn_keys_again(em_scn *s);

/* The end of a parse that stopped with status st (its message in err): with sorted keys,
 * the first duplicate label, which the line-by-line order reports before st; on success
 * the index.  Returns the status. */
int em_scn_index_build(em_scn *s, int st, em_error *err);

#endif
