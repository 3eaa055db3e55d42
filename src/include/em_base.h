/* em_base.h: the types every part of libexpmech shares: status codes, variants,
 * limits, and the random-source interface with its (trusted) contract.  Core files
 * include this and their own header only, so that a new contract elsewhere does not
 * change their proof obligations (and WP's cache of them). */
#ifndef EM_BASE_H
#define EM_BASE_H

#include <stddef.h>
#include <stdint.h>


/* ------------------------------------------------------------------ status */

typedef enum em_status {
    EM_OK = 0,
    EM_ERR_NULL = 1,          /* a required pointer is NULL */
    EM_ERR_EMPTY = 2,         /* n == 0 */
    EM_ERR_TOO_MANY = 3,      /* n > EM_N_MAX */
    EM_ERR_NAN = 4,           /* a utility is NaN */
    EM_ERR_POS_INF = 5,       /* a utility is +inf (only -inf, "excluded", is allowed) */
    EM_ERR_ALL_EXCLUDED = 6,  /* every utility is -inf */
    EM_ERR_EPSILON = 7,       /* epsilon is NaN, infinite, or <= 0 */
    EM_ERR_SENSITIVITY = 8,   /* delta is NaN, infinite, or <= 0 */
    EM_ERR_VARIANT = 9,       /* not a member of em_variant */
    EM_ERR_RNG = 10,          /* the random source failed */
    EM_ERR_NOMEM = 11,        /* allocation failed (outside the core) */
    EM_ERR_DOMAIN = 12,       /* an argument outside its documented range */
    EM_ERR_PARSE = 13,        /* malformed input text (outside the core) */
    EM_ERR_OVERFLOW = 14      /* an exact integer result would not fit its type */
} em_status;

/* A value no computation decided within its precision limit (2^20 bits for most, 2^24
 * for the finite oracle; no known input does this: an internal limit, reported rather than
 * guessed).  Beyond the statuses above, which the proven core owns (its em_strerror, in
 * core/em_params.h, gives every one of them a message). */
#define EM_ERR_UNDECIDED 64
/* A program the library runs for a caller failed (gnuplot drawing a figure: em_plot_write);
 * the message says how. */
#define EM_ERR_PROGRAM 65

/* The one error convention outside the core: a status and one line of English naming the
 * argument, file and line at fault.  A function taking em_error *err (which may be NULL)
 * returns the status it stores there; on success err->status is EM_OK, err->msg empty. */
#define EM_ERRLEN 512

#ifndef __FRAMAC__ /* the core never uses it: its proofs see the types they were proved with */
typedef struct em_error {
    int status;            /* an em_status */
    char msg[EM_ERRLEN];   /* NUL-terminated; empty on success */
} em_error;
#endif

typedef enum em_variant {
    EM_STANDARD = 0, /* weight exp(eps*u/(2*delta)): eps-DP for any score of sensitivity delta */
    EM_MONOTONE = 1  /* weight exp(eps*u/delta): eps-DP when all scores move the same way */
} em_variant;

/* The largest n the core accepts: keeps every fixed-point weight sum below 2^63. */
#define EM_N_MAX ((size_t)1 << 30)

/* ------------------------------------------------------------ random source */

typedef enum em_rng_kind {
    EM_RNG_OS = 0,      /* getrandom(2): the operating system's CSPRNG */
    EM_RNG_CHACHA = 1,  /* ChaCha20 (RFC 8439) keystream keyed by an explicit seed */
    EM_RNG_SCRIPT = 2   /* a caller-supplied word sequence, for exhaustive tests */
} em_rng_kind;

#define EM_RNG_BUFSZ 512

typedef struct em_rng {
    int kind;
    unsigned char key[32];
    uint32_t block;                      /* next ChaCha20 block counter */
    uint64_t nonce;                      /* ChaCha20 nonce: stream number under one key */
    unsigned char buf[EM_RNG_BUFSZ];
    size_t pos;                          /* bytes of buf already handed out */
    const uint64_t *script;              /* EM_RNG_SCRIPT: the words, in order */
    size_t script_len, script_pos;
    uint64_t words_drawn;                /* 64-bit words handed out so far */
} em_rng;

/* Trusted (proofs/TRUSTED.md, entry "random source"): on EM_OK, *out is a word
 * whose 64 bits are independent and uniform.  Fails with EM_ERR_RNG when the OS
 * source fails or a script is exhausted. */
/*@ requires valid_rng: \valid(rng);
    requires valid_out: \valid(out);
    requires separated: \separated(rng, out);
    assigns  *rng, *out;
    ensures  status: \result == EM_OK || \result == EM_ERR_RNG;
 */
int em_rng_u64(em_rng *rng, uint64_t *out);

/* Trusted (proofs/TRUSTED.md, entry "random source"): on EM_OK, out[0 .. k-1] are
 * the words k calls of em_rng_u64 would give, in order, at one call's overhead (a
 * batch of draws needs no per-word call).  On an error the state has advanced by
 * an unspecified number of words. */
/*@ requires count: k >= 1;
    requires valid_rng: \valid(rng);
    requires valid_out: \valid(out + (0 .. k - 1));
    requires separated: \separated(rng, out + (0 .. k - 1));
    assigns  *rng, out[0 .. k - 1];
    ensures  status: \result == EM_OK || \result == EM_ERR_RNG;
 */
int em_rng_fill(em_rng *rng, size_t k, uint64_t *out);

/* The initialiser (not part of the core), one for every kind: EM_RNG_OS takes no
 * words (NULL, 0); EM_RNG_CHACHA one, the seed (the same seed gives the same stream
 * on every machine; use it only when a seed is explicitly wanted); EM_RNG_SCRIPT the
 * words it hands out, in order (kept, not copied).  Another count: EM_ERR_DOMAIN. */
int em_rng_init(em_rng *rng, em_rng_kind kind, const uint64_t *words, size_t len);


#endif
