/* em_scenario.c: the scenario file parser (format: em_scenario.h). */
#include "io/em_scenario.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "em_base.h"
#include "base/em_error.h"
#include "io/em_text.h"
#include "num/em_rational.h"

void em_scenario_init(em_scenario *s)
{
    memset(s, 0, sizeof *s);
    mpq_init(s->sensitivity);
    mpq_init(s->scratch);
    em_pieces_init(&s->pieces);
}

void em_scenario_free(em_scenario *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        if (s->u)
            mpq_clear(s->u[i]);
        if (s->measure)
            mpq_clear(s->measure[i]);
    }
    for (size_t k = 0; k < s->narena; k++)
        free(s->arena[k]);
    free(s->arena);
    free(s->ql);
    free(s->lrun);
    free(s->uv);
    free(s->ucode);
    free(s->measure);
    em_pieces_free(&s->pieces);
    free(s->labels);
    free(s->u);
    free(s->excluded);
    free(s->ud);
    free(s->line);
    free(s->hash);
    free(s->keys);
    free(s->name);
    mpq_clear(s->sensitivity);
    mpq_clear(s->scratch);
    /* zeroed, not re-initialised (that leaked): a second free is harmless (GMP frees
     * nothing of a zero-allocation mpq), a reuse needs em_scenario_init */
    memset(s, 0, sizeof *s);
}

/* A label's hash, read a word at a time with overlapping loads (no byte loop: labels are
 * short), mixed with its length, with a full-avalanche finish so that the top bits (the
 * slot, the tag, the sort key below) are usable. */
static uint64_t rd64(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint64_t rd32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xff51afd7ed558ccdULL);
    if (n >= 8) {
        for (; n > 8; p += 8, n -= 8)
            h = mix(h, rd64(p));
        h = mix(h, rd64(p + n - 8)); /* the last 8 bytes, overlapping the previous word */
    } else if (n >= 4) {
        h = mix(h, rd32(p) | rd32(p + n - 4) << 32);
    } else if (n > 0) {
        h = mix(h, (uint64_t)(unsigned char)p[0] << 16 | (uint64_t)(unsigned char)p[n / 2] << 8 |
                       (unsigned char)p[n - 1]);
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* The label index: open addressing with linear probing in hcap = 2^b 4-byte slots, a
 * label's home slot the top b bits of its hash.  A slot holds index + 1 in its low b bits
 * (n <= 3/4 hcap, so it fits) and, above them, the next 32 - b hash bits as a tag: a
 * probe reads a label (two cache misses, into labels[] and the arena) only when the tags
 * agree, one time in 2^(32-b) for a different label.
 *
 * The parser does not probe (a cache miss per line, 40% of a 10^6-line parse): each
 * candidate gets a key, its hash's top 34 bits above its index (n <= 2^30), in keys[];
 * at the end (index_build) the keys are radix-sorted, equal labels found side by side,
 * and the table filled in the sorted order, in which homes only increase: a streaming
 * write.  A duplicate is reported as the line-by-line parser did, at the first line
 * whose label came before, and before any error on a later line (index_dups). */
#define KEY_IDX_BITS 30
#define KEY_IDX_MASK (((uint64_t)1 << KEY_IDX_BITS) - 1)

static unsigned slot_bits(size_t cap) /* cap: a power of 2, 2^7 to 2^31 */
{
    return (unsigned)__builtin_ctzll((unsigned long long)cap);
}

static size_t slot_home(uint64_t h, unsigned b)
{
    return (size_t)(h >> (64 - b));
}

static uint32_t slot_tag(uint64_t h, unsigned b)
{
    return (uint32_t)(h >> 32) << b;
}

long em_scenario_find(const em_scenario *s, const char *label, size_t len)
{
    if (!s->hash || s->hcap == 0 || memchr(label, 0, len))
        return -1;
    uint64_t h = hash_bytes(label, len);
    size_t mask = s->hcap - 1;
    unsigned b = slot_bits(s->hcap);
    uint32_t tag = slot_tag(h, b), lo = ((uint32_t)1 << b) - 1;
    for (size_t k = slot_home(h, b);; k = (k + 1) & mask) {
        uint32_t v = s->hash[k];
        if (v == 0)
            return -1;
        if ((v & ~lo) == tag) {
            const char *l = s->labels[(v & lo) - 1];
            if (strncmp(l, label, len) == 0 && l[len] == 0)
                return (long)((v & lo) - 1);
        }
    }
}

/* keys[0..n) sorted by their hash bits (stable: equal hashes stay in index order), LSD
 * radix in three passes of 12 + 11 + 11 bits; the sorted array replaces s->keys. */
static int keys_sort(em_scenario *s)
{
    static const unsigned sh[3] = {KEY_IDX_BITS, KEY_IDX_BITS + 12, KEY_IDX_BITS + 23};
    static const unsigned wd[3] = {12, 11, 11};
    size_t n = s->n;
    uint64_t *t = malloc(n * sizeof *t);
    size_t *cnt = calloc(3 << 12, sizeof *cnt);
    if (!t || !cnt) {
        free(t);
        free(cnt);
        return EM_ERR_NOMEM;
    }
    uint64_t *src = s->keys, *dst = t;
    for (size_t i = 0; i < n; i++)
        for (int p = 0; p < 3; p++)
            cnt[(p << 12) + ((src[i] >> sh[p]) & ((1u << wd[p]) - 1))]++;
    for (int p = 0; p < 3; p++) {
        size_t *c = cnt + (p << 12), sum = 0;
        for (size_t d = 0; d < ((size_t)1 << wd[p]); d++) {
            size_t x = c[d];
            c[d] = sum;
            sum += x;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> sh[p]) & ((1u << wd[p]) - 1)]++] = src[i];
        uint64_t *x = src;
        src = dst;
        dst = x;
    }
    free(cnt);
    free(dst); /* three passes: the sorted keys are in t */
    s->keys = src;
    return EM_OK;
}

static int cmp_label_r(const void *a, const void *b, void *ctx)
{
    char *const *labels = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(labels[i], labels[j]);
    return c ? c : (i > j) - (i < j);
}

/* Among r >= 2 keys with equal hash bits (rare but for duplicates: about n^2 / 2^35 pairs
 * of different labels), sorted by label then index, each label's first two occurrences:
 * the smallest second one into *second, its first into *first. */
static int run_dups(const em_scenario *s, const uint64_t *k, size_t r, size_t *second,
                    size_t *first)
{
    size_t *x = malloc(r * sizeof *x);
    if (!x)
        return EM_ERR_NOMEM;
    for (size_t i = 0; i < r; i++)
        x[i] = (size_t)(k[i] & KEY_IDX_MASK);
    qsort_r(x, r, sizeof *x, cmp_label_r, s->labels);
    for (size_t i = 0; i + 1 < r; i++)
        if (x[i + 1] < *second && strcmp(s->labels[x[i]], s->labels[x[i + 1]]) == 0 &&
            (i == 0 || strcmp(s->labels[x[i - 1]], s->labels[x[i]]) != 0)) {
            *second = x[i + 1];
            *first = x[i];
        }
    free(x);
    return EM_OK;
}

/* The label of the line that failed (s->pend_label, after every candidate): the candidate
 * it duplicates, or -1. */
static long pend_dup(const em_scenario *s)
{
    uint64_t h = s->pend_hash >> KEY_IDX_BITS;
    for (size_t i = 0; i < s->n; i++)
        if (s->keys[i] >> KEY_IDX_BITS == h) {
            size_t j = (size_t)(s->keys[i] & KEY_IDX_MASK);
            if (strcmp(s->labels[j], s->pend_label) == 0)
                return (long)j;
        }
    return -1;
}

static int grow_to(em_scenario *s, size_t nc)
{
    char **l = realloc(s->labels, nc * sizeof *l);
    if (!l) return EM_ERR_NOMEM;
    s->labels = l;
    if (s->compact) {
        int64_t *v = realloc(s->uv, nc * sizeof *v);
        if (!v) return EM_ERR_NOMEM;
        s->uv = v;
        uint16_t *k = realloc(s->ucode, nc * sizeof *k);
        if (!k) return EM_ERR_NOMEM;
        s->ucode = k;
    } else {
        mpq_t *u = realloc(s->u, nc * sizeof *u);
        if (!u) return EM_ERR_NOMEM;
        s->u = u;
    }
    uint64_t *ky = realloc(s->keys, nc * sizeof *ky);
    if (!ky) return EM_ERR_NOMEM;
    s->keys = ky;
    unsigned char *x = realloc(s->excluded, nc);
    if (!x) return EM_ERR_NOMEM;
    s->excluded = x;
    if (!s->compact) { /* compact: doubles on demand, line numbers as runs */
        double *d = realloc(s->ud, nc * sizeof *d);
        if (!d) return EM_ERR_NOMEM;
        s->ud = d;
        unsigned long *ln = realloc(s->line, nc * sizeof *ln);
        if (!ln) return EM_ERR_NOMEM;
        s->line = ln;
    }
    if (s->has_measure) {
        mpq_t *m = realloc(s->measure, nc * sizeof *m);
        if (!m) return EM_ERR_NOMEM;
        s->measure = m;
    }
    s->cap = nc;
    return EM_OK;
}

static int grow(em_scenario *s)
{
    return grow_to(s, s->cap ? s->cap * 2 : 64);
}

/* The arrays sized once for the expected number of candidates (s->hint, from the file's
 * size), not grown by doubling and copying.  An estimate too large costs address space
 * only (pages never touched are never resident); too small, the usual growth. */
static int reserve(em_scenario *s, size_t lim)
{
    size_t want = s->hint < lim ? s->hint : lim;
    if (want > 64 && s->cap == 0)
        (void)grow_to(s, want); /* refused (no overcommit): grown as usual instead; arrays
                                   already enlarged are merely larger than cap */
    return EM_OK;
}

/* An estimate of the candidates in a text of total bytes whose first n bytes are p: its
 * line density, 10% more. */
static size_t estimate_lines(const char *p, size_t n, size_t total)
{
    size_t lines = 0;
    for (const char *q = p, *end = p + n; (q = memchr(q, '\n', (size_t)(end - q))); q++)
        lines++;
    if (n == 0 || lines == 0)
        return 0;
    double est = (double)total / (double)n * (double)lines * 1.1 + 1;
    return est < (double)EM_N_MAX ? (size_t)est : EM_N_MAX;
}

/* Labels are packed into 1 MiB blocks: a malloc per label costs 24 to 32 bytes of
 * overhead each, 300 MB at 10^7 candidates.  Blocks never move, so labels[] can point in. */
#define ARENA_BLOCK ((size_t)1 << 20)
#define LOAD_CHUNK ((size_t)1 << 20) /* em_scenario_load's reads */

static char *arena_alloc(em_scenario *s, size_t len)
{
    if (s->narena == 0 || s->arena_used + len > ARENA_BLOCK) {
        char **a = realloc(s->arena, (s->narena + 1) * sizeof *a);
        if (!a)
            return NULL;
        s->arena = a;
        a[s->narena] = malloc(ARENA_BLOCK);
        if (!a[s->narena])
            return NULL;
        s->narena++;
        s->arena_used = 0;
    }
    char *p = s->arena[s->narena - 1] + s->arena_used;
    s->arena_used += len;
    return p;
}

/* ---------------------------------------------------- compact utilities
 * ucode = kind << 14 | (exponent - UEXP_MIN): EXCL (-inf), DEC (uv * 10^e), BIN (uv * 2^e,
 * e < 0: hex floats with long fractions), Q (any other rational: its limbs at ql + uv,
 * see q_put).  Mantissas have at most 62 bits, so int64 and mpz_set_si hold them. */
enum { UK_EXCL = 0, UK_DEC = 1, UK_BIN = 2, UK_Q = 3 };
_Static_assert(sizeof(long) == 8 && GMP_NUMB_BITS == 64,
               "mantissas go through mpz_set_si / mpz_get_si; q_put packs two sizes in a limb");
#define UEXP_MIN (-8192L)
#define UEXP_MAX 8191L

static uint16_t ucode_make(int kind, long e)
{
    return (uint16_t)(((unsigned)kind << 14) | (unsigned)(e - UEXP_MIN));
}

/* An exotic rational as limbs in one growing array, *off its offset: a header limb (the
 * numerator's signed size in the low 32 bits, the denominator's size in the high 32;
 * sizes stay below 2^10 limbs, EM_Q_MAX_DIGITS), then the limbs: 32 bytes for a
 * 21-digit decimal, where an mpq_t and its two allocations take about 100. */
static int q_room(em_scenario *s, size_t need)
{
    if (s->qlen + need > s->qcap) {
        size_t nc = s->qcap ? s->qcap : 256;
        while (nc < s->qlen + need)
            nc *= 2;
        mp_limb_t *nq = realloc(s->ql, nc * sizeof *nq);
        if (!nq)
            return EM_ERR_NOMEM;
        s->ql = nq;
        s->qcap = nc;
    }
    return EM_OK;
}

static int q_put(em_scenario *s, const mpq_t q, int64_t *off)
{
    size_t na = mpz_size(mpq_numref(q)), nb = mpz_size(mpq_denref(q));
    size_t need = 1 + na + nb;
    if (q_room(s, need) != EM_OK)
        return EM_ERR_NOMEM;
    mp_limb_t *h = s->ql + s->qlen;
    h[0] = ((mp_limb_t)nb << 32) | (uint32_t)(int32_t)mpq_numref(q)->_mp_size;
    memcpy(h + 1, mpz_limbs_read(mpq_numref(q)), na * sizeof *h);
    memcpy(h + 1 + na, mpz_limbs_read(mpq_denref(q)), nb * sizeof *h);
    *off = (int64_t)s->qlen;
    s->qlen += need;
    return EM_OK;
}

/* Line numbers of a compact scenario as runs of consecutive lines (index, line): one
 * run for a file of data lines after its headers, not 8 bytes per candidate. */
static int line_put(em_scenario *s, size_t i, unsigned long ln)
{
    if (s->nlrun > 0) {
        const size_t *r = s->lrun + 2 * (s->nlrun - 1);
        if ((unsigned long)r[1] + (i - r[0]) == ln)
            return EM_OK;
    }
    if (s->nlrun == s->lruncap) {
        size_t nc = s->lruncap ? s->lruncap * 2 : 8;
        size_t *nr = realloc(s->lrun, 2 * nc * sizeof *nr);
        if (!nr)
            return EM_ERR_NOMEM;
        s->lrun = nr;
        s->lruncap = nc;
    }
    s->lrun[2 * s->nlrun] = i;
    s->lrun[2 * s->nlrun + 1] = ln;
    s->nlrun++;
    return EM_OK;
}

unsigned long em_scenario_line(const em_scenario *s, size_t i)
{
    if (s->line)
        return s->line[i];
    size_t lo = 0, hi = s->nlrun; /* the last run starting at or before i */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->lrun[2 * mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return s->nlrun ? (unsigned long)(s->lrun[2 * lo + 1] + (i - s->lrun[2 * lo])) : 0;
}

/* q (canonical, finite) as m * 10^e or m * 2^e: 1 on success. */
static int classify(const mpq_t q, int64_t *m, int *kind, long *e)
{
    mpz_srcptr a = mpq_numref(q), b = mpq_denref(q);
    int ok = 0;
    mpz_t t;
    mpz_init(t);
    if (mpz_cmp_ui(b, 1) == 0) {
        long k = 0;
        if (mpz_sizeinbase(a, 2) > 62 && mpz_sgn(a) != 0) {
            mpz_t ten;
            mpz_init_set_ui(ten, 10);
            k = (long)mpz_remove(t, a, ten);
            mpz_clear(ten);
        } else {
            mpz_set(t, a);
        }
        if (mpz_sizeinbase(t, 2) <= 62 && k <= UEXP_MAX) {
            *m = mpz_get_si(t);
            *kind = UK_DEC;
            *e = k;
            ok = 1;
        }
    } else if (mpz_sizeinbase(a, 2) <= 62) {
        unsigned long x = mpz_scan1(b, 0), y = 0;
        mpz_tdiv_q_2exp(t, b, x);
        if (mpz_cmp_ui(t, 1) != 0) {
            mpz_t five;
            mpz_init_set_ui(five, 5);
            y = mpz_remove(t, t, five);
            mpz_clear(five);
        }
        if (mpz_cmp_ui(t, 1) == 0) {
            unsigned long k = x > y ? x : y;
            if (y == 0 && x <= (unsigned long)-UEXP_MIN) {
                /* a / 2^x is already canonical: read back without a gcd */
                *m = mpz_get_si(a);
                *kind = UK_BIN;
                *e = -(long)x;
                ok = 1;
            } else if (k - y <= 27 && k - x <= 62 && k <= (unsigned long)-UEXP_MIN) {
                /* (5^27 < 2^63) a / (2^x 5^y) = a 2^(k-x) 5^(k-y) / 10^k */
                mpz_ui_pow_ui(t, 5, k - y);
                mpz_mul(t, t, a);
                mpz_mul_2exp(t, t, k - x);
                if (mpz_sizeinbase(t, 2) <= 62) {
                    *m = mpz_get_si(t);
                    *kind = UK_DEC;
                    *e = -(long)k;
                    ok = 1;
                }
            }
        }
    }
    mpz_clear(t);
    return ok;
}

/* The fast path of a utility: a plain decimal [+-] digits [. digits] [(e|E) [+-] digits]
 * with at most 38 significant digits, read without GMP into the encoding classify (and
 * q_put) give its exact value (em_q_parse then classify: 80% of a 10^6-line parse, with
 * five allocations per line).  Returns 0 for anything else (hex floats, fractions, -inf,
 * more digits, a large exponent, malformed text), which takes the exact path and its
 * messages.  The value is M 10^E with M < 10^38 < 2^127; with M's trailing zeros moved
 * into E it is canonical, and classify's encoding follows from it:
 *   E >= 0: an integer a = M 10^E: (a, 0) when |a| < 2^62, else (M, E);
 *   E < 0, k = -E: if 5^k divides M, the value is (M / 5^k) / 2^k in lowest terms: BIN
 *     (M / 5^k, -k); else its denominator has a factor 5 and max(x, y) = k for 2^x 5^y,
 *     so classify's decimal numerator is M itself: DEC (M, -k);
 * each with classify's bounds (62-bit mantissa, exponent in [UEXP_MIN, UEXP_MAX]); what
 * fits none is the rational a / b in lowest terms, kept as limbs (UK_Q, fast_wide). */
__extension__ typedef unsigned __int128 em_u128;

typedef struct fast_val {
    int kind, neg;
    int64_t m;      /* DEC, BIN */
    long e;
    em_u128 a, b;   /* UK_Q: |value| = a / b in lowest terms */
} fast_val;

/* M 10^E (M > 0, not a multiple of 10) when no 62-bit form of classify holds it (or M >=
 * 2^64): 1 with v set, 0 beyond 128 bits. */
static int fast_wide(em_u128 M, long E, fast_val *v)
{
    const em_u128 lim = (em_u128)1 << 62;
    if (E >= 0) { /* M >= 2^62 (E <= 4096 + 38): classify's stripped tens do not help */
        em_u128 a = M;
        for (long k = 0; k < E; k++) {
            if (a > ~(em_u128)0 / 10)
                return 0;
            a *= 10;
        }
        v->kind = UK_Q;
        v->a = a;
        v->b = 1;
        return 1;
    }
    long k = -E;
    if (k > 38)
        return 0;
    em_u128 p5 = 1;
    for (long j = 0; j < k; j++)
        p5 *= 5;
    if (M % p5 == 0) { /* (M / 5^k) / 2^k */
        em_u128 a = M / p5;
        if (a < lim) {
            v->kind = UK_BIN;
            v->m = (int64_t)a;
            v->e = E;
            return 1;
        }
        v->kind = UK_Q;
        v->a = a;
        v->b = (em_u128)1 << k;
        return 1;
    }
    /* M is not a multiple of 10: the common factor with 10^k is 2^t or 5^t; classify's
     * decimal numerator would be M >= 2^62 (or its bounds fail): limbs */
    em_u128 a = M, b = 1;
    for (long j = 0; j < k; j++)
        b *= 10;
    for (long j = 0; j < k && a % 2 == 0; j++)
        a /= 2, b /= 2;
    for (long j = 0; j < k && a % 5 == 0; j++)
        a /= 5, b /= 5;
    v->kind = UK_Q;
    v->a = a;
    v->b = b;
    return 1;
}

/* q_put of (-1)^neg a / b (lowest terms, a > 0), the limbs GMP would hold. */
static int q_put_u128(em_scenario *s, int neg, em_u128 a, em_u128 b, int64_t *off)
{
    mp_limb_t l[4] = {(mp_limb_t)a, (mp_limb_t)(a >> 64), (mp_limb_t)b, (mp_limb_t)(b >> 64)};
    int na = l[1] ? 2 : 1, nb = l[3] ? 2 : 1;
    if (q_room(s, 1 + (size_t)na + (size_t)nb) != EM_OK)
        return EM_ERR_NOMEM;
    mp_limb_t *h = s->ql + s->qlen;
    h[0] = ((mp_limb_t)nb << 32) | (uint32_t)(neg ? -na : na);
    memcpy(h + 1, l, (size_t)na * sizeof *h);
    memcpy(h + 1 + na, l + 2, (size_t)nb * sizeof *h);
    *off = (int64_t)s->qlen;
    s->qlen += 1 + (size_t)na + (size_t)nb;
    return EM_OK;
}

/* One more decimal digit d of the mantissa: leading zeros skipped, 19 significant digits
 * in M, up to 38 in W; 0 when there are more (the exact path takes those). */
static inline int fast_digit(unsigned d, int *sig, uint64_t *M, em_u128 *W)
{
    if (*sig == 0 && d == 0)
        return 1;
    if (++*sig <= 19)
        *M = *M * 10 + d;
    else if (*sig <= 38)
        *W = (*sig == 20 ? (em_u128)*M : *W) * 10 + d;
    else
        return 0;
    return 1;
}

static int fast_utility(const char *p, size_t n, fast_val *v)
{
    size_t i = 0;
    int neg = 0;
    if (p[0] == '+' || p[0] == '-') {
        neg = p[0] == '-';
        i = 1;
    }
    uint64_t M = 0;
    em_u128 W = 0; /* the mantissa past 19 digits */
    int sig = 0;
    long E = 0;
    size_t i0 = i;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++)
        if (!fast_digit((unsigned)(p[i] - '0'), &sig, &M, &W))
            return 0;
    size_t nd = i - i0;
    if (i < n && p[i] == '.') {
        size_t f0 = ++i;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
            E--;
            if (!fast_digit((unsigned)(p[i] - '0'), &sig, &M, &W))
                return 0;
        }
        nd += i - f0;
    }
    if (nd == 0 || nd > EM_Q_MAX_DIGITS)
        return 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        int eneg = 0;
        if (i < n && (p[i] == '+' || p[i] == '-')) {
            eneg = p[i] == '-';
            i++;
        }
        size_t x0 = i;
        long x = 0;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
            x = x * 10 + (p[i] - '0');
            if (x > 4096)
                return 0;
        }
        if (i == x0)
            return 0;
        E += eneg ? -x : x;
    }
    if (i != n)
        return 0;
    v->neg = neg;
    if (sig > 19) {
        while (W % 10 == 0) {
            W /= 10;
            E++;
        }
        if (W >> 64) /* else M 10^E below, as any 64-bit mantissa */
            return fast_wide(W, E, v);
        M = (uint64_t)W;
    }
    if (M == 0) {
        v->kind = UK_DEC;
        v->m = 0;
        v->e = 0;
        return 1;
    }
    while (M % 10 == 0) {
        M /= 10;
        E++;
    }
    const uint64_t lim = (uint64_t)1 << 62;
    uint64_t r = M;
    if (E >= 0) {
        uint64_t a = M;
        long k = 0;
        while (k < E && a <= (lim - 1) / 10) { /* then 10 a < lim */
            a *= 10;
            k++;
        }
        if (k == E && a < lim) /* else M 10^E >= 2^62: classify strips its tens */
            v->m = (int64_t)a, v->e = 0;
        else if (M < lim && E <= UEXP_MAX)
            v->m = (int64_t)M, v->e = E;
        else
            return fast_wide(M, E, v);
        v->kind = UK_DEC;
    } else {
        if (E < UEXP_MIN)
            return 0;
        uint64_t p5 = 1;
        long k = 0;
        while (k < -E && p5 <= M / 5) { /* 5^k, while it may still divide M */
            p5 *= 5;
            k++;
        }
        if (k == -E && M % p5 == 0) {
            r = M / p5;
            v->kind = UK_BIN;
        } else {
            v->kind = UK_DEC;
        }
        if (r >= lim)
            return fast_wide(M, E, v);
        v->m = (int64_t)r;
        v->e = E;
    }
    return 1;
}

/* Printable, truncated rendering of user text for messages. */
static void quote_for_msg(char *out, size_t outlen, const char *p, size_t n)
{
    size_t o = 0;
    const size_t lim = 40;
    for (size_t i = 0; i < n && o + 6 < outlen; i++) {
        if (i == lim) {
            o += (size_t)snprintf(out + o, outlen - o, "...");
            break;
        }
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o < outlen ? o : outlen - 1] = 0;
}

static int is_ws(int c)
{
    return c == ' ' || c == '\t';
}

static int ieq_prefix(const char *p, size_t n, const char *word)
{
    size_t wl = strlen(word);
    if (n < wl)
        return 0;
    for (size_t i = 0; i < wl; i++)
        if (tolower((unsigned char)p[i]) != word[i])
            return 0;
    return 1;
}

static int ieq(const char *p, size_t n, const char *word)
{
    return strlen(word) == n && ieq_prefix(p, n, word);
}

static int header(em_scenario *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    /* p: the comment text after '#', trimmed */
    char q[128];
    if (ieq_prefix(p, n, "sensitivity:")) {
        const char *v = p + 12;
        size_t vn = n - 12;
        em_text_trim(&v, &vn);
        if (s->has_sensitivity)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "repeated '# sensitivity:' header");
        int kind;
        const char *msg;
        if (em_q_parse(v, vn, 0, s->sensitivity, &kind, &msg) != EM_OK) {
            quote_for_msg(q, sizeof q, v, vn);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad sensitivity '%s': %s", q, msg ? msg : "malformed");
        }
        if (mpq_sgn(s->sensitivity) <= 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "the sensitivity must be > 0");
        s->has_sensitivity = 1;
        return EM_OK;
    }
    if (ieq_prefix(p, n, "monotone:")) {
        const char *v = p + 9;
        size_t vn = n - 9;
        em_text_trim(&v, &vn);
        if (s->has_monotone)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "repeated '# monotone:' header");
        if (ieq(v, vn, "yes") || ieq(v, vn, "true") || ieq(v, vn, "1"))
            s->monotone = 1;
        else if (ieq(v, vn, "no") || ieq(v, vn, "false") || ieq(v, vn, "0"))
            s->monotone = 0;
        else {
            quote_for_msg(q, sizeof q, v, vn);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad '# monotone:' value '%s' (expected yes or no)", q);
        }
        s->has_monotone = 1;
        return EM_OK;
    }
    if (ieq_prefix(p, n, "measure:") || ieq_prefix(p, n, "output:")) {
        int is_measure = ieq_prefix(p, n, "measure:");
        const char *v = p + (is_measure ? 8 : 7);
        size_t vn = n - (is_measure ? 8 : 7);
        em_text_trim(&v, &vn);
        if (s->n > 0 || s->pieces.n > 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "the '# %s' header must come before the first data line",
                        is_measure ? "measure:" : "output:");
        if (is_measure) {
            if (s->has_measure)
                return em_err_at(err, EM_ERR_PARSE, s->name, ln, "repeated '# measure:' header");
            if (ieq(v, vn, "yes") || ieq(v, vn, "true") || ieq(v, vn, "1")) {
                s->has_measure = 1;
                s->compact = 0; /* weighted laws take every utility as an mpq */
            }
            else if (!(ieq(v, vn, "no") || ieq(v, vn, "false") || ieq(v, vn, "0"))) {
                quote_for_msg(q, sizeof q, v, vn);
                return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad '# measure:' value '%s' (expected yes or no)", q);
            }
        } else {
            if (ieq(v, vn, "continuous"))
                s->continuous = 1;
            else if (!ieq(v, vn, "finite")) {
                quote_for_msg(q, sizeof q, v, vn);
                return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                            "bad '# output:' value '%s' (expected continuous or finite)", q);
            }
        }
        if (s->has_measure && s->continuous)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                        "'# measure:' is for finite scenarios (a continuous one is weighted by length)");
        return EM_OK;
    }
    return EM_OK; /* any other comment */
}

/* 'inf', '+inf', 'infinity', '+infinity' (any case) */
static int is_pos_inf(const char *p, size_t n)
{
    if (n > 0 && p[0] == '+')
        p++, n--;
    return ieq(p, n, "inf") || ieq(p, n, "infinity");
}

/* One piece `lo,hi,a[,b]` of a continuous scenario. */
static int piece_line(em_scenario *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    static const char *const names[4] = {"lo", "hi", "a", "b"};
    const char *f[5];
    size_t fn[5];
    int nf = 0;
    const char *start = p;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || p[i] == ',') {
            if (nf == 4)
                return em_err_at(err, EM_ERR_PARSE, s->name, ln,
                            "a piece has at most 4 fields 'lo,hi,a,b' (found more)");
            f[nf] = start;
            fn[nf] = (size_t)(p + i - start);
            em_text_trim(&f[nf], &fn[nf]);
            nf++;
            start = p + i + 1;
        }
    }
    if (nf < 3)
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected a piece 'lo,hi,a[,b]' (u = a + b r on [lo, hi]), found %d field%s",
                    nf, nf == 1 ? "" : "s");
    mpq_t v[4];
    for (int k = 0; k < 4; k++)
        mpq_init(v[k]);
    int lo_inf = 0, hi_inf = 0, st = EM_OK;
    char q[128];
    for (int k = 0; k < nf && st == EM_OK; k++) {
        int kind = EM_Q_FINITE;
        const char *msg = NULL;
        if (fn[k] == 0) {
            st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "empty field '%s'", names[k]);
            break;
        }
        if (k == 1 && is_pos_inf(f[k], fn[k])) {
            hi_inf = 1;
            continue;
        }
        if (em_q_parse(f[k], fn[k], k == 0, v[k], &kind, &msg) != EM_OK) {
            quote_for_msg(q, sizeof q, f[k], fn[k]);
            if (k != 1 && is_pos_inf(f[k], fn[k]))
                msg = k == 0 ? "lo may be -inf (first piece), never +inf" : "a utility coefficient must be finite";
            st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad %s '%s': %s", names[k], q, msg ? msg : "malformed");
            break;
        }
        if (kind == EM_Q_NEG_INF)
            lo_inf = 1;
    }
    if (st == EM_OK && lo_inf && s->pieces.n > 0)
        st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "lo = -inf is allowed only on the first piece");
    if (st == EM_OK && s->pieces.hi_inf)
        st = em_err_at(err, EM_ERR_PARSE, s->name, ln, "a piece after one that reaches +inf");
    if (st == EM_OK) {
        st = em_pieces_push(&s->pieces, v[0], v[1], v[2], v[3], ln);
        if (st == EM_ERR_TOO_MANY)
            em_err_at(err, st, s->name, ln, "more than %zu pieces", (size_t)EM_PIECES_MAX);
        if (st == EM_OK) {
            if (lo_inf)
                s->pieces.lo_inf = 1;
            if (hi_inf)
                s->pieces.hi_inf = 1;
        }
    }
    for (int k = 0; k < 4; k++)
        mpq_clear(v[k]);
    return st;
}

/* keys[] of the candidates of an earlier parse into the same scenario (index_build
 * dropped them). */
static int keys_again(em_scenario *s)
{
    s->keys = malloc(s->cap * sizeof *s->keys);
    if (!s->keys)
        return EM_ERR_NOMEM;
    for (size_t i = 0; i < s->n; i++)
        s->keys[i] = (hash_bytes(s->labels[i], strlen(s->labels[i])) & ~KEY_IDX_MASK) | i;
    return EM_OK;
}

/* Out of memory at the end: an earlier error stands, else this one. */
static int nomem(const em_scenario *s, int st, em_error *err)
{
    if (st != EM_OK)
        return st;
    return em_err_at(err, EM_ERR_NOMEM, s->name, 0, "out of memory");
}

/* The end of a parse that stopped with status st (its message in err): with sorted keys,
 * the first duplicate label, which the line-by-line order reports before st; on success
 * the index.  Returns the status. */
static int index_build(em_scenario *s, int st, em_error *err)
{
    char q[128];
    if (s->continuous || s->n == 0 || !s->keys)
        return st;
    if (keys_sort(s) != EM_OK)
        return nomem(s, st, err);
    const uint64_t *k = s->keys;
    size_t n = s->n, second = (size_t)-1, first = 0;
    for (size_t a = 0, e; a < n; a = e) {
        for (e = a + 1; e < n && k[e] >> KEY_IDX_BITS == k[a] >> KEY_IDX_BITS; e++)
            ;
        if (e - a > 1 && run_dups(s, k + a, e - a, &second, &first) != EM_OK)
            return nomem(s, st, err);
    }
    long pf = second == (size_t)-1 && s->pend_label ? pend_dup(s) : -1;
    if (second != (size_t)-1 || pf >= 0) {
        const char *l = pf >= 0 ? s->pend_label : s->labels[second];
        unsigned long ln = pf >= 0 ? s->pend_line : em_scenario_line(s, second);
        quote_for_msg(q, sizeof q, l, strlen(l));
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "duplicate label '%s' (first on line %lu)", q,
                    em_scenario_line(s, pf >= 0 ? (size_t)pf : first));
    }
    if (st != EM_OK)
        return st;
    size_t hc = 128;
    while (n * 4 > hc * 3)
        hc *= 2;
    uint32_t *h = calloc(hc, sizeof *h);
    if (!h)
        return nomem(s, st, err);
    unsigned b = slot_bits(hc);
    size_t mask = hc - 1, next = 0;
    for (size_t i = 0; i < n; i++) {
        size_t home = slot_home(k[i], b);
        /* homes increase: the run before `next` is full from any earlier home on */
        size_t j = (home > next ? home : next) & mask;
        while (h[j])
            j = (j + 1) & mask;
        h[j] = slot_tag(k[i], b) | (uint32_t)((k[i] & KEY_IDX_MASK) + 1);
        next = j + 1;
    }
    free(s->hash);
    s->hash = h;
    s->hcap = hc;
    free(s->keys);
    s->keys = NULL;
    return EM_OK;
}

/* Unquote a CSV-quoted label into a new string; NULL on malformed quoting. */
static char *unquote(const char *p, size_t n, const char **why)
{
    if (n < 2 || p[n - 1] != '"') {
        *why = "unterminated quoted label";
        return NULL;
    }
    char *out = malloc(n);
    if (!out) {
        *why = "out of memory";
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (p[i] == '"') {
            if (i + 2 < n && p[i + 1] == '"') {
                out[o++] = '"';
                i++;
            } else {
                free(out);
                *why = "a quote inside a quoted label must be doubled (\"\")";
                return NULL;
            }
        } else {
            out[o++] = p[i];
        }
    }
    out[o] = 0;
    return out;
}

static int data_line(em_scenario *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    char q[128];
    if (s->continuous)
        return piece_line(s, p, n, ln, err);
    const char *mval = NULL;
    size_t mvaln = 0;
    if (s->has_measure) {
        const char *c = NULL;
        for (size_t i = n; i-- > 0;)
            if (p[i] == ',') {
                c = p + i;
                break;
            }
        if (!c) {
            quote_for_msg(q, sizeof q, p, n);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected 'label,utility,measure', found '%s'", q);
        }
        mval = c + 1;
        mvaln = n - (size_t)(c - p) - 1;
        em_text_trim(&mval, &mvaln);
        n = (size_t)(c - p);
        if (mvaln == 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "missing measure after the last comma");
    }
    const char *comma = NULL;
    for (size_t i = n; i-- > 0;)
        if (p[i] == ',') {
            comma = p + i;
            break;
        }
    if (!comma) {
        quote_for_msg(q, sizeof q, p, n);
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "expected 'label,utility', found '%s' (no comma)", q);
    }
    const char *lab = p, *val = comma + 1;
    size_t labn = (size_t)(comma - p), valn = n - labn - 1;
    em_text_trim(&lab, &labn);
    em_text_trim(&val, &valn);
    if (labn == 0)
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "empty label");
    if (valn == 0)
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "missing utility after the comma");
    /* the label goes straight into the arena; an error ends the parse, so a label
     * rejected below just leaves its bytes unused */
    char *label;
    size_t labl;
    if (lab[0] == '"') {
        const char *why = NULL;
        char *tmp = unquote(lab, labn, &why);
        if (!tmp)
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "%s", why);
        if (!tmp[0]) {
            free(tmp);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "empty label");
        }
        labl = strlen(tmp);
        label = arena_alloc(s, labl + 1);
        if (label)
            memcpy(label, tmp, labl + 1);
        free(tmp);
        if (!label)
            return EM_ERR_NOMEM;
    } else {
        if (memchr(lab, '"', labn)) {
            quote_for_msg(q, sizeof q, lab, labn);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "a label with a quote must be quoted as a CSV field: '%s'", q);
        }
        label = arena_alloc(s, labn + 1);
        if (!label)
            return EM_ERR_NOMEM;
        memcpy(label, lab, labn);
        label[labn] = 0;
        labl = labn;
    }
    size_t lim = s->max_n ? s->max_n : EM_SCENARIO_MAX_N;
    if (lim > EM_N_MAX)
        lim = EM_N_MAX;
    if (s->n == 0 && s->hint && reserve(s, lim) != EM_OK)
        return EM_ERR_NOMEM;
    if (s->n > 0 && !s->keys && keys_again(s) != EM_OK)
        return EM_ERR_NOMEM;
    uint64_t lh = hash_bytes(label, labl);
    /* a duplicate of this label is found at the end (index_build), and reported before
     * any error below, as it was found first */
    s->pend_label = label;
    s->pend_line = ln;
    s->pend_hash = lh;
    if (s->n >= lim) {
        return em_err_at(err, EM_ERR_TOO_MANY, s->name, ln,
                         "more than %zu candidates: the limit (it keeps memory below about 100 "
                         "bytes per candidate times the limit; EXPMECH_MAX_CANDIDATES sets "
                         "another, up to %zu)", lim, (size_t)EM_N_MAX);
    }
    if (s->n == s->cap && grow(s) != EM_OK)
        return EM_ERR_NOMEM;
    size_t i = s->n;
    if (s->compact && !s->has_measure) {
        fast_val fv;
        if (fast_utility(val, valn, &fv)) {
            int64_t fm = fv.neg ? -fv.m : fv.m;
            if (fv.kind == UK_Q && q_put_u128(s, fv.neg, fv.a, fv.b, &fm) != EM_OK)
                return EM_ERR_NOMEM;
            if (line_put(s, i, ln) != EM_OK)
                return EM_ERR_NOMEM;
            s->excluded[i] = 0;
            s->uv[i] = fm;
            s->ucode[i] = ucode_make(fv.kind, fv.kind == UK_Q ? 0 : fv.e);
            s->labels[i] = label;
            s->keys[i] = (lh & ~KEY_IDX_MASK) | i;
            s->n++;
            s->pend_label = NULL;
            return EM_OK;
        }
    }
    mpq_ptr uq = s->compact ? s->scratch : s->u[i];
    if (!s->compact)
        mpq_init(uq);
    int kind;
    const char *msg;
    if (em_q_parse(val, valn, 1, uq, &kind, &msg) != EM_OK) {
        if (!s->compact)
            mpq_clear(uq);
        quote_for_msg(q, sizeof q, val, valn);
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad utility '%s': %s", q, msg ? msg : "malformed");
    }
    if (s->has_measure) {
        mpq_init(s->measure[i]);
        int mk;
        if (em_q_parse(mval, mvaln, 0, s->measure[i], &mk, &msg) != EM_OK || mpq_sgn(s->measure[i]) < 0) {
            int neg = mpq_sgn(s->measure[i]) < 0;
            mpq_clear(s->measure[i]);
            if (!s->compact)
                mpq_clear(uq);
            quote_for_msg(q, sizeof q, mval, mvaln);
            return em_err_at(err, EM_ERR_PARSE, s->name, ln, "bad measure '%s': %s", q,
                        neg ? "a measure must be >= 0" : (msg ? msg : "malformed"));
        }
    }
    s->excluded[i] = kind == EM_Q_NEG_INF;
    if (s->compact) {
        int64_t m = 0;
        int uk = UK_EXCL;
        long e = 0;
        if (!s->excluded[i] && !classify(uq, &m, &uk, &e)) {
            if (q_put(s, uq, &m) != EM_OK)
                return EM_ERR_NOMEM;
            uk = UK_Q;
        }
        if (line_put(s, i, ln) != EM_OK)
            return EM_ERR_NOMEM;
        s->uv[i] = m;
        s->ucode[i] = ucode_make(uk, e);
    }
    s->labels[i] = label;
    if (!s->compact) {
        s->ud[i] = s->excluded[i] ? -HUGE_VAL : em_q_get_d(uq, NULL);
        s->line[i] = ln;
    }
    s->keys[i] = (lh & ~KEY_IDX_MASK) | i;
    s->n++;
    s->pend_label = NULL;
    return EM_OK;
}

void em_scenario_get_u(const em_scenario *s, size_t i, mpq_t q)
{
    if (s->u) {
        mpq_set(q, s->u[i]);
        return;
    }
    unsigned c = s->ucode[i];
    long e = (long)(c & 0x3fff) + UEXP_MIN;
    switch (c >> 14) {
    case UK_EXCL:
        mpq_set_ui(q, 0, 1);
        return;
    case UK_Q: {
        const mp_limb_t *h = s->ql + s->uv[i];
        int32_t na = (int32_t)(uint32_t)(h[0] & 0xffffffffu);
        mp_size_t nb = (mp_size_t)(h[0] >> 32);
        mpz_t a, b; /* read-only views of the stored limbs (canonical as stored) */
        mpz_set(mpq_numref(q), mpz_roinit_n(a, h + 1, na));
        mpz_set(mpq_denref(q), mpz_roinit_n(b, h + 1 + (na < 0 ? -na : na), nb));
        return;
    }
    case UK_BIN: /* odd numerator over 2^-e: canonical as it stands */
        mpz_set_si(mpq_numref(q), (long)s->uv[i]);
        mpz_set_ui(mpq_denref(q), 1);
        mpz_mul_2exp(mpq_denref(q), mpq_denref(q), (unsigned long)-e);
        return;
    default:
        mpz_set_si(mpq_numref(q), (long)s->uv[i]);
        if (e >= 0) {
            mpz_set_ui(mpq_denref(q), 1);
            if (e > 0) {
                mpz_ui_pow_ui(mpq_denref(q), 10, (unsigned long)e);
                mpz_mul(mpq_numref(q), mpq_numref(q), mpq_denref(q));
                mpz_set_ui(mpq_denref(q), 1);
            }
        } else {
            static const unsigned long p10[20] = {
                1UL, 10UL, 100UL, 1000UL, 10000UL, 100000UL, 1000000UL, 10000000UL,
                100000000UL, 1000000000UL, 10000000000UL, 100000000000UL, 1000000000000UL,
                10000000000000UL, 100000000000000UL, 1000000000000000UL,
                10000000000000000UL, 100000000000000000UL, 1000000000000000000UL,
                10000000000000000000UL};
            if (-e < 20) {
                /* lowest terms without a gcd: the common factor is 2^a 5^b */
                uint64_t a = s->uv[i] < 0 ? -(uint64_t)s->uv[i] : (uint64_t)s->uv[i];
                uint64_t den = p10[-e];
                long k2 = -e, k5 = -e;
                while (k2 > 0 && a != 0 && a % 2 == 0) {
                    a /= 2;
                    den /= 2;
                    k2--;
                }
                while (k5 > 0 && a != 0 && a % 5 == 0) {
                    a /= 5;
                    den /= 5;
                    k5--;
                }
                if (a == 0)
                    den = 1;
                mpz_set_ui(mpq_numref(q), a);
                if (s->uv[i] < 0)
                    mpz_neg(mpq_numref(q), mpq_numref(q));
                mpz_set_ui(mpq_denref(q), den);
            } else {
                mpz_ui_pow_ui(mpq_denref(q), 10, (unsigned long)-e);
                mpq_canonicalize(q);
            }
        }
        return;
    }
}

void em_scenario_reader_get(const void *ctx, size_t i, mpq_t q)
{
    em_scenario_get_u((const em_scenario *)ctx, i, q);
}

/* The double nearest a compact utility without GMP, when one IEEE operation on exact
 * operands gives it (a single correctly rounded operation, round to nearest even as
 * em_q_get_d):
 *   DEC m 10^e: e = 0 (int64 to double rounds once); or |m| <= 2^53 and |e| <= 22
 *     (10^22 < 2^53 * 2^22 is the largest power of ten a double holds exactly): m * 10^e
 *     or m / 10^-e; or |e| <= 19 (the 17-digit doubles of %.17g): m 10^e, or m 2^64 / 10^-e
 *     with its remainder, exactly in 128 bits, rounded once (round_u128);
 *   BIN m 2^e (e < 0): |m| <= 2^53 (m exact, ldexp rounds once, subnormals included),
 *     or e >= -1022 (m 2^e is then a normal double's range: scaling the rounded m is
 *     exact).
 * 1 when *d is set; 0: take the exact path (a reading of 10^6 utilities through mpq and
 * MPFR took 0.19 s). */
/* (q + f) 2^x rounded to the nearest double (ties to even), f in [0, 1) nonzero iff
 * sticky; the result in double's normal range.  0 (not set) when q has too few bits to
 * place f. */
static int round_u128(em_u128 q, int sticky, int x, double *d)
{
    uint64_t hi = (uint64_t)(q >> 64), lo = (uint64_t)q;
    int nb = hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
    if (nb <= 53) {
        if (sticky)
            return 0;
        *d = ldexp((double)lo, x);
        return 1;
    }
    int sh = nb - 53;
    uint64_t mant = (uint64_t)(q >> sh);
    em_u128 rem = q & ((((em_u128)1) << sh) - 1), half = ((em_u128)1) << (sh - 1);
    if (rem > half || (rem == half && (sticky || (mant & 1))))
        mant++; /* 2^53 at most: still exact */
    *d = ldexp((double)mant, x + sh);
    return 1;
}

static int fast_double(int64_t m, uint16_t code, double *d)
{
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    long e = (long)(code & 0x3fff) + UEXP_MIN;
    switch (code >> 14) {
    case UK_DEC:
        if (e == 0) {
            *d = (double)m;
            return 1;
        }
        if (m <= ((int64_t)1 << 53) && m >= -((int64_t)1 << 53) && e <= 22 && e >= -22) {
            *d = e > 0 ? (double)m * p10[e] : (double)m / p10[-e];
            return 1;
        }
        if (e <= 19 && e >= -19) { /* 10^19 < 2^64; |m| < 2^62 */
            static const uint64_t t10[20] = {
                1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
                100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
                1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
                1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
                1000000000000000000ULL, 10000000000000000000ULL};
            em_u128 a = m < 0 ? -(uint64_t)m : (uint64_t)m;
            int ok;
            if (e > 0) {
                ok = round_u128(a * t10[e], 0, 0, d);
            } else { /* |m| > 2^53: the quotient has at least 54 bits */
                em_u128 num = a << 64;
                ok = round_u128(num / t10[-e], num % t10[-e] != 0, -64, d);
            }
            if (ok && m < 0)
                *d = -*d;
            return ok;
        }
        return 0;
    case UK_BIN:
        if (e < -1022 && (m > ((int64_t)1 << 53) || m < -((int64_t)1 << 53)))
            return 0;
        *d = ldexp((double)m, (int)e);
        return 1;
    default:
        return 0;
    }
}

int em_scenario_doubles(em_scenario *s)
{
    if (s->ud || s->n == 0)
        return EM_OK;
    double *d = malloc(s->n * sizeof *d);
    if (!d)
        return EM_ERR_NOMEM;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < s->n; i++) {
        if (s->excluded[i]) {
            d[i] = -HUGE_VAL;
            continue;
        }
        if (!fast_double(s->uv[i], s->ucode[i], &d[i])) {
            em_scenario_get_u(s, i, q);
            d[i] = em_q_get_d(q, NULL);
        }
    }
    mpq_clear(q);
    s->ud = d;
    return EM_OK;
}

int em_scenario_expand(em_scenario *s)
{
    if (s->u || s->n == 0)
        return EM_OK;
    mpq_t *u = malloc(s->n * sizeof *u);
    if (!u)
        return EM_ERR_NOMEM;
    for (size_t i = 0; i < s->n; i++) {
        mpq_init(u[i]);
        em_scenario_get_u(s, i, u[i]);
    }
    s->u = u;
    s->compact = 0;
    return EM_OK;
}

/* One line (without its line end) of a file: the checks every line gets, then a header
 * or a data line. */
static int one_line(em_scenario *s, const char *p, size_t n, unsigned long ln, em_error *err)
{
    int st = em_line_check(p, n, EM_SCENARIO_MAX_LINE, EM_LINE_STRICT, s->name, ln, err);
    if (st != EM_OK)
        return st;
    em_text_trim(&p, &n);
    if (n == 0)
        return EM_OK;
    if (p[0] == '#') {
        const char *c = p + 1;
        size_t cn = n - 1;
        em_text_trim(&c, &cn);
        st = header(s, c, cn, ln, err);
    } else {
        st = data_line(s, p, n, ln, err);
    }
    if (st == EM_ERR_NOMEM)
        em_err_at(err, st, s->name, ln, "out of memory");
    return st;
}

static int parse_begin(em_scenario *s, const char *name, em_error *err)
{
    em_err_ok(err);
    s->pend_label = NULL;
    free(s->name);
    s->name = strdup(name ? name : "<input>");
    return s->name ? EM_OK : EM_ERR_NOMEM;
}

static int parse_end(em_scenario *s, em_error *err)
{
    if (s->continuous) {
        if (s->pieces.n == 0)
            return em_err_at(err, EM_ERR_PARSE, s->name, 0, "no pieces (expected lines 'lo,hi,a[,b]')");
        s->pieces.has_sensitivity = s->has_sensitivity;
        mpq_set(s->pieces.sensitivity, s->sensitivity);
        s->pieces.has_monotone = s->has_monotone;
        s->pieces.monotone = s->monotone;
        free(s->pieces.name);
        s->pieces.name = strdup(s->name);
        return s->pieces.name ? EM_OK : EM_ERR_NOMEM;
    }
    if (s->n == 0)
        return em_err_at(err, EM_ERR_PARSE, s->name, 0, "no candidates (expected lines 'label,utility')");
    return EM_OK;
}

int em_scenario_parse(em_scenario *s, const char *buf, size_t len, const char *name,
                      em_error *err)
{
    int st = parse_begin(s, name, err);
    if (st != EM_OK)
        return st;
    s->hint = estimate_lines(buf, len < LOAD_CHUNK ? len : LOAD_CHUNK, len);
    em_line_iter it;
    em_line_iter_init(&it, buf, len);
    const char *p;
    size_t n;
    while (em_line_next(&it, &p, &n)) {
        st = one_line(s, p, n, it.line, err);
        if (st != EM_OK)
            return index_build(s, st, err);
    }
    st = index_build(s, EM_OK, err);
    return st == EM_OK ? parse_end(s, err) : st;
}

#define EM_SCENARIO_MAX_BYTES ((size_t)4 << 30)

/* EXPMECH_MAX_CANDIDATES: 1 on success (or unset), 0 when malformed. */
static int env_limit(size_t *out)
{
    const char *v = getenv("EXPMECH_MAX_CANDIDATES");
    if (!v)
        return 1;
    size_t x = 0;
    if (!*v)
        return 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9' || x > EM_N_MAX)
            return 0;
        x = x * 10 + (size_t)(*p - '0');
    }
    if (x < 1 || x > EM_N_MAX)
        return 0;
    *out = x;
    return 1;
}


/* Read and parse in chunks: the whole file in memory would be the largest single
 * allocation at 10^7 candidates (190 MB for 'c123,142.857143' lines). */
int em_scenario_load(em_scenario *s, const char *path, em_error *err)
{
    int use_stdin = !path || !strcmp(path, "-");
    const char *name = use_stdin ? "<stdin>" : path;
    if (!s->max_n && !env_limit(&s->max_n))
        return em_err(err, EM_ERR_PARSE, "EXPMECH_MAX_CANDIDATES: expected an integer from 1 "
                      "to %zu", (size_t)EM_N_MAX);
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return em_err(err, EM_ERR_PARSE, "%s: cannot open: %s", name, strerror(errno));
    int st = parse_begin(s, name, err);
    em_line_iter it;
    if (st == EM_OK && em_line_iter_open(&it, f, LOAD_CHUNK, EM_SCENARIO_MAX_BYTES) != EM_OK) {
        em_line_iter_close(&it);
        st = EM_ERR_NOMEM;
    } else if (st == EM_OK) {
        struct stat sb;
        if (!use_stdin && fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
            s->hint = estimate_lines(it.buf, it.len, (size_t)sb.st_size);
        const char *p;
        size_t n;
        while (st == EM_OK && em_line_next(&it, &p, &n))
            st = p ? one_line(s, p, n, it.line, err)
                   : em_err_at(err, EM_ERR_PARSE, s->name, it.line,
                               "line too long (%zu bytes; the limit is %d)", n,
                               EM_SCENARIO_MAX_LINE);
        if (st == EM_OK && em_line_iter_failed(&it))
            st = em_err(err, EM_ERR_PARSE, "%s: read error or file too large", name);
        em_line_iter_close(&it);
    }
    if (!use_stdin)
        fclose(f);
    st = index_build(s, st, err);
    if (st == EM_OK)
        st = parse_end(s, err);
    return st;
}

void em_csv_label(FILE *f, const char *label)
{
    size_t n = strlen(label);
    int q = n == 0 || label[0] == '#' || is_ws((unsigned char)label[0]) ||
            is_ws((unsigned char)label[n - 1]) || strpbrk(label, ",\"") != NULL;
    if (!q) {
        fputs(label, f);
        return;
    }
    fputc('"', f);
    for (const char *p = label; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}
