/* em_scn_labels.c: the candidates' storage, the arena of their labels and the hash
 * index that finds a label (em_scn_lookup), with duplicates reported in line order. */
#include "io/em_scn_text_priv.h"

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
#include "base/em_mem.h"
#include "io/em_text.h"
#include "num/em_rational.h"

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

uint64_t em_scn_hash_bytes(const char *p, size_t n)
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

long em_scn_lookup(const em_scn *s, const char *label, size_t len)
{
    if (!s->hash || s->hcap == 0 || memchr(label, 0, len))
        return -1;
    uint64_t h = em_scn_hash_bytes(label, len);
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
static int keys_sort(em_scn *s)
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
static int run_dups(const em_scn *s, const uint64_t *k, size_t r, size_t *second,
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
static long pend_dup(const em_scn *s)
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

/* the array *pp to nc elements of size bytes (unchanged when out of memory) */
#define GROW(pp) \
    do { \
        if (!em_realloc_array(&(pp), nc, sizeof *(pp))) \
            return EM_ERR_NOMEM; \
    } while (0)

static int grow_to(em_scn *s, size_t nc)
{
    GROW(s->labels);
    if (s->compact) {
        GROW(s->uv);
        GROW(s->ucode);
    } else {
        GROW(s->u);
    }
    GROW(s->keys);
    GROW(s->excluded);
    if (!s->compact) { /* compact: doubles on demand, line numbers as runs */
        GROW(s->ud);
        GROW(s->line);
    }
    if (s->has_measure)
        GROW(s->measure);
    s->cap = nc;
    return EM_OK;
}
#undef GROW

int em_scn_grow(em_scn *s)
{
    return grow_to(s, s->cap ? s->cap * 2 : 64);
}

/* The arrays sized once for the expected number of candidates (s->hint, from the file's
 * size), not grown by doubling and copying.  An estimate too large costs address space
 * only (pages never touched are never resident); too small, the usual growth. */
int em_scn_reserve(em_scn *s, size_t lim)
{
    size_t want = s->hint < lim ? s->hint : lim;
    if (want > 64 && s->cap == 0)
        (void)grow_to(s, want); /* refused (no overcommit): grown as usual instead; arrays
                                   already enlarged are merely larger than cap */
    return EM_OK;
}

/* Labels are packed into blocks: a malloc per label costs 24 to 32 bytes of overhead
 * each, 300 MB at 10^7 candidates.  The first block is small and each next one twice the
 * last, up to 1 MiB, so a scenario of a few labels does not take (and, under a checking
 * allocator, clear) a megabyte.  Blocks never move, so labels[] can point in. */
#define ARENA_FIRST ((size_t)1 << 12)
#define ARENA_BLOCK ((size_t)1 << 20)

char *em_scn_arena_alloc(em_scn *s, size_t len)
{
    if (s->narena == 0 || len > s->arena_cap - s->arena_used) {
        size_t cap = s->narena == 0 ? ARENA_FIRST
                     : s->arena_cap < ARENA_BLOCK ? 2 * s->arena_cap : ARENA_BLOCK;
        if (cap < len)
            cap = len;
        char **a = realloc(s->arena, (s->narena + 1) * sizeof *a);
        if (!a)
            return NULL;
        s->arena = a;
        a[s->narena] = malloc(cap);
        if (!a[s->narena])
            return NULL;
        s->narena++;
        s->arena_used = 0;
        s->arena_cap = cap;
    }
    char *p = s->arena[s->narena - 1] + s->arena_used;
    s->arena_used += len;
    return p;
}

/* keys[] of the candidates of an earlier parse into the same scenario (em_scn_index_build
 * dropped them). */
int em_scn_keys_again(em_scn *s)
{
    s->keys = malloc(s->cap * sizeof *s->keys);
    if (!s->keys)
        return EM_ERR_NOMEM;
    for (size_t i = 0; i < s->n; i++)
        s->keys[i] = (em_scn_hash_bytes(s->labels[i], strlen(s->labels[i])) & ~KEY_IDX_MASK) | i;
    return EM_OK;
}

/* Out of memory at the end: an earlier error stands, else this one. */
static int nomem(const em_scn *s, int st, em_error *err)
{
    if (st != EM_OK)
        return st;
    return em_err_at(err, EM_ERR_NOMEM, s->name, 0, "out of memory");
}

/* The end of a parse that stopped with status st (its message in err): with sorted keys,
 * the first duplicate label, which the line-by-line order reports before st; on success
 * the index.  Returns the status. */
int em_scn_index_build(em_scn *s, int st, em_error *err)
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
        unsigned long ln = pf >= 0 ? s->pend_line : em_scn_line(s, second);
        em_text_show(q, sizeof q, l, strlen(l));
        return em_err_at(err, EM_ERR_PARSE, s->name, ln, "duplicate label '%s' (first on line %lu)", q,
                    em_scn_line(s, pf >= 0 ? (size_t)pf : first));
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
