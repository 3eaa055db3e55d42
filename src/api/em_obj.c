/* em_obj.c: the blocks handed to a caller and the one em_free (em_obj.h).  The header ahead
 * of a block holds the function that frees it, so that em_free calls no unit by name and no
 * unit depends on this one but through em_obj_new. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/em_obj.h"
#include "base/em_error.h"

/* A pointer em_free is given that is not one of ours stops the program, as free(3) does on
 * a pointer it never returned, rather than free a guess. */
#define EM_OBJ_MAGIC UINT64_C(0x656d6f626a656374) /* "emobject" */

typedef union em_obj_hdr {
    struct {
        uint64_t magic;
        void (*destroy)(void *); /* NULL: the block alone */
        size_t n;                /* em_obj_strv: the strings */
        em_obj_write_fn *write;  /* NULL: em_write refuses it */
        const void *ctx[2];
    } h;
    max_align_t align;           /* the payload aligned as malloc's */
} em_obj_hdr;

static em_obj_hdr *hdr(void *p) { return (em_obj_hdr *)p - 1; }

static void *obj_new(size_t size, void (*destroy)(void *), size_t n)
{
    if (size > SIZE_MAX - sizeof(em_obj_hdr))
        return NULL;
    em_obj_hdr *h = calloc(1, sizeof *h + size);
    if (!h)
        return NULL;
    h->h.magic = EM_OBJ_MAGIC;
    h->h.destroy = destroy;
    h->h.n = n;
    return h + 1;
}

void *em_obj_new(size_t size, void (*destroy)(void *)) { return obj_new(size, destroy, 0); }

static void strv_free(void *p)
{
    char **v = p;
    for (size_t i = 0; i < hdr(p)->h.n; i++)
        free(v[i]);
    em_obj_release(p);
}

char **em_obj_strv(size_t n)
{
    return n > SIZE_MAX / sizeof(char *) ? NULL : obj_new(n * sizeof(char *), strv_free, n);
}

void em_obj_writer(void *p, em_obj_write_fn *write, const void *ctx0, const void *ctx1)
{
    em_obj_hdr *h = hdr(p);
    h->h.write = write;
    h->h.ctx[0] = ctx0;
    h->h.ctx[1] = ctx1;
}

void em_obj_release(void *p)
{
    if (p) {
        hdr(p)->h.magic = 0; /* a second em_free of it stops at the check */
        free(hdr(p));
    }
}

int em_obj_string(char **s)
{
    if (!*s)
        return 1;
    size_t len = strlen(*s) + 1;
    char *t = em_obj_new(len, NULL);
    if (t)
        memcpy(t, *s, len);
    free(*s);
    *s = t;
    return t != NULL;
}

int em_obj_strings(int st, em_error *err, size_t k, char **const *v)
{
    int ok = 1;
    for (size_t i = 0; i < k; i++)
        if (v[i] && st == EM_OK)
            ok &= em_obj_string(v[i]);
    if (ok)
        return st;
    for (size_t i = 0; i < k; i++)
        if (v[i]) {
            em_free(*v[i]);
            *v[i] = NULL;
        }
    return em_err(err, EM_ERR_NOMEM, "out of memory");
}

int em_write(const void *obj, FILE *f, const em_write_opts *o, em_error *err)
{
    if (!obj || !f)
        return em_err(err, EM_ERR_NULL, "em_write: obj or f is NULL");
    const em_obj_hdr *h = hdr((void *)obj);
    if (h->h.magic != EM_OBJ_MAGIC)
        abort();
    if (!h->h.write)
        return em_err(err, EM_ERR_DOMAIN, "em_write: the object is not one em_write writes (a "
                      "result of em_audit, em_draws_check, em_compare, em_utility or "
                      "em_groups_analyse, a score, a case, a scenario, a mechanism, a "
                      "sampler, groups)");
    return h->h.write(f, obj, h->h.ctx, o, err);
}

void em_free(void *p)
{
    if (!p)
        return;
    em_obj_hdr *h = hdr(p);
    if (h->h.magic != EM_OBJ_MAGIC)
        abort();
    if (h->h.destroy)
        h->h.destroy(p);
    else
        em_obj_release(p);
}
