/* em_scn_binary.c: a finite scenario from doubles, without text (em_scn_binary.h). */
#include "io/em_scn_binary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/em_error.h"
#include "io/em_scn_text_priv.h"

/* |d| = a 2^e with a odd (or d = 0: a = 0, e = 0) */
static void split(double d, uint64_t *a, int *e)
{
    if (d == 0) {
        *a = 0;
        *e = 0;
        return;
    }
    int x;
    double f = frexp(fabs(d), &x); /* |d| = f 2^x, f in [1/2, 1): f 2^53 an integer */
    uint64_t m = (uint64_t)ldexp(f, 53);
    int k = __builtin_ctzll(m);
    *a = m >> k;
    *e = x - 53 + k;
}

/* The compact code of a finite double: what em_scn_classify gives its exact rational (a
 * dyadic, or an integer), computed from the bits; integers beyond 62 bits through GMP. */
static int put_value(em_scn *s, size_t i, double d)
{
    uint64_t a;
    int e;
    split(d, &a, &e);
    int64_t sa = d < 0 ? -(int64_t)a : (int64_t)a;
    if (e < 0) { /* a / 2^-e in lowest terms, a < 2^53, -e <= 1074 */
        s->uv[i] = sa;
        s->ucode[i] = em_scn_ucode_make(UK_BIN, e);
        return EM_OK;
    }
    if (e + (64 - __builtin_clzll(a | 1)) <= 62) { /* an integer of at most 62 bits */
        s->uv[i] = (int64_t)((uint64_t)sa << e);
        s->ucode[i] = em_scn_ucode_make(UK_DEC, 0);
        return EM_OK;
    }
    mpq_set_d(s->scratch, d);
    int64_t m = 0;
    int kind;
    long x = 0;
    if (!em_scn_classify(s->scratch, &m, &kind, &x)) {
        if (em_scn_q_put(s, s->scratch, &m) != EM_OK)
            return EM_ERR_NOMEM;
        kind = UK_Q;
        x = 0;
    }
    s->uv[i] = m;
    s->ucode[i] = em_scn_ucode_make(kind, x);
    return EM_OK;
}

int em_scn_read_doubles(em_scn *s, size_t n, const double *u, const char *name, em_error *err)
{
    em_err_ok(err);
    if (!s->compact || s->n != 0 || s->has_measure || s->continuous)
        return em_err(err, EM_ERR_DOMAIN, "em_scn_read_doubles: expects an empty compact scenario");
    for (size_t i = 0; i < n; i++)
        if (isnan(u[i]) || (isinf(u[i]) && u[i] > 0))
            return em_err(err, EM_ERR_PARSE, "%s[%zu]: not a finite number or -inf", name, i);
    free(s->name);
    s->name = strdup(name);
    if (!s->name)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    s->hint = n;
    if (em_scn_reserve(s, n) != EM_OK)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (s->n == s->cap && em_scn_grow(s) != EM_OK)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        char buf[24], *p = buf + sizeof buf;
        size_t v = i;
        do {
            *--p = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        size_t len = (size_t)(buf + sizeof buf - p);
        char *label = em_scn_arena_alloc(s, len + 1);
        if (!label || em_scn_line_put(s, i, (unsigned long)i + 1) != EM_OK)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        memcpy(label, p, len);
        label[len] = 0;
        s->labels[i] = label;
        s->keys[i] = (em_scn_hash_bytes(label, len) & ~KEY_IDX_MASK) | i;
        s->excluded[i] = isinf(u[i]) != 0;
        if (s->excluded[i]) {
            s->uv[i] = 0;
            s->ucode[i] = em_scn_ucode_make(UK_EXCL, 0);
        } else if (put_value(s, i, u[i]) != EM_OK) {
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        }
        s->n++;
    }
    return em_scn_index_build(s, EM_OK, err);
}
