/* em_points.c: the points of a law's em_write read from text (em_points_parse): a list
 * "X[,X...]" or a grid "LO:HI:N", each number checked before any law is computed; one
 * block, freed by em_free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_law.h"
#include "em_num.h"
#include "base/em_error.h"
#include "api/em_obj.h"

/* The points and their texts in one block (em_free frees it): the em_points, the array of
 * at, then the bytes of the texts. */
static em_points *block(size_t n, size_t bytes)
{
    em_points *p = em_obj_new(sizeof *p + n * sizeof(char *) + bytes, NULL);
    return p;
}

/* x compared with ref into *sign, or the error prefixed with the field's name */
static int cmp(const char *field, const char *x, const char *ref, int *sign, em_error *err)
{
    int st = em_num_cmp(x, ref, sign, err);
    if (st != EM_OK && err) {
        char msg[EM_ERRLEN];
        snprintf(msg, sizeof msg, "%s", err->msg);
        em_err(err, st, "%s: %s", field, msg);
    }
    return st;
}

static int nomem(em_error *err)
{
    return em_err(err, EM_ERR_NOMEM, "out of memory");
}

/* An interval "A:B" (t is ours: the colon is put back): two numbers, A <= B.  Checked here,
 * before any law is computed, so that a bad interval late in the list does not come after
 * rows already written (em_write checks them again, for points made by hand). */
static int interval(char *t, em_error *err)
{
    char *colon = strchr(t, ':');
    if (!colon)
        return em_err(err, EM_ERR_PARSE, "between: expected A:B, found '%s'", t);
    int sign;
    *colon = 0;
    int st = cmp("between", t, colon + 1, &sign, err);
    *colon = ':';
    if (st == EM_OK && sign > 0)
        st = em_err(err, EM_ERR_DOMAIN, "between: A > B in '%s'", t);
    return st;
}

/* the list: each item as given, a number (EM_LAW_INTERVAL: an interval A:B) */
static int parse_at(em_points **out, int what, const char *s, em_error *err)
{
    size_t cnt = 1, len = strlen(s);
    for (const char *p = s; *p; p++)
        cnt += *p == ',';
    if (cnt > EM_POINTS_MAX)
        return em_err(err, EM_ERR_DOMAIN, "at: more than %lu points", EM_POINTS_MAX);
    em_points *p = *out = block(cnt, len + 1);
    if (!p)
        return nomem(err);
    const char **at = (const char **)(p + 1);
    char *text = (char *)(at + cnt);
    memcpy(text, s, len + 1);
    p->at = at;
    for (char *start = text;; start++) {
        size_t k = strcspn(start, ",");
        const int last = !start[k];
        int sign, st;
        if (k == 0 && what != EM_LAW_INTERVAL)
            return em_err(err, EM_ERR_PARSE, "at: empty value in '%s'", s);
        start[k] = 0;
        at[p->n++] = start;
        if ((st = what == EM_LAW_INTERVAL ? interval(start, err)
                                          : cmp("at", start, "0", &sign, err)) != EM_OK)
            return st;
        start += k;
        if (last)
            return EM_OK;
    }
}

static int parse_grid(em_points **out, const char *s, em_error *err)
{
    const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ':'))
        return em_err(err, EM_ERR_PARSE, "grid: expected LO:HI:N, found '%s'", s);
    em_points *p = *out = block(0, strlen(s) + 1);
    if (!p)
        return nomem(err);
    char *lo = (char *)(p + 1), *hi = lo + (c1 - s) + 1;
    memcpy(lo, s, (size_t)(c1 - s));
    memcpy(hi, c1 + 1, (size_t)(c2 - c1 - 1));
    p->lo = lo;
    p->hi = hi;
    int sign, st = cmp("grid", lo, hi, &sign, err);
    if (st != EM_OK)
        return st;
    /* N decimal or 0x hex, digits only */
    const char *n = c2 + 1;
    const int hex = n[0] == '0' && (n[1] == 'x' || n[1] == 'X');
    const char *d = n + 2 * hex;
    char *end = NULL;
    unsigned long long N = *d && strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789") ==
                                     strlen(d) ? strtoull(d, &end, hex ? 16 : 10) : 0;
    if (N < 1 || N > EM_POINTS_MAX)
        return em_err(err, EM_ERR_PARSE, "grid: N must be an integer in [1, %lu], found '%s'",
                      EM_POINTS_MAX, n);
    if (sign > 0)
        return em_err(err, EM_ERR_DOMAIN, "grid: LO > HI");
    if (N == 1 && sign != 0)
        return em_err(err, EM_ERR_DOMAIN, "grid: N = 1 needs LO = HI (N points include both "
                      "ends)");
    p->n = (size_t)N;
    return EM_OK;
}

/* quantile: every p in [0, 1], the first outside named (a grid is looked at point by point
   only when one of its ends is outside) */
static int unit(const em_points *p, em_error *err)
{
    int s0, s1;
    if (!p->at && cmp("grid", p->lo, "0", &s0, err) == EM_OK &&
        cmp("grid", p->hi, "1", &s1, err) == EM_OK && s0 >= 0 && s1 <= 0)
        return EM_OK;
    const char *field = p->at ? "at" : "grid";
    for (size_t i = 0; i < p->n; i++) {
        char *x = p->at ? (char *)p->at[i] : NULL;
        int st = x ? EM_OK : em_num_grid_point_plain(NULL, p->lo, p->hi, p->n, i, &x, NULL, err);
        if (st == EM_OK && (st = cmp(field, x, "0", &s0, err)) == EM_OK)
            st = cmp(field, x, "1", &s1, err);
        if (st == EM_OK && (s0 < 0 || s1 > 0))
            st = em_err(err, EM_ERR_DOMAIN, "%s: p must lie in [0, 1] (point %zu: %.60s)",
                        field, i + 1, x);
        if (!p->at)
            free(x);
        if (st != EM_OK)
            return st;
    }
    return EM_OK;
}

int em_points_parse(int what, const char *at, const char *grid, em_points **out,
                    em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_points_parse: out is NULL");
    *out = NULL;
    if (what < EM_LAW_CDF || what > EM_LAW_INTERVAL)
        return em_err(err, EM_ERR_DOMAIN, "em_points_parse: what (%d) is not one of EM_LAW_*",
                      what);
    if (!at == !grid || (what == EM_LAW_INTERVAL && !at))
        return em_err(err, EM_ERR_NULL, "em_points_parse: give exactly one of at and grid "
                      "(intervals: at)");
    em_points *p = NULL;
    int st = at ? parse_at(&p, what, at, err) : parse_grid(&p, grid, err);
    if (st == EM_OK && what == EM_LAW_QUANTILE)
        st = unit(p, err);
    return EM_HAND_OUT(st, p, em_free, out, err);
}
