/* em_scn_write.c: the scenario file format written from an em_scn (em_write, em_scn.h),
 * the inverse of the parser (io/em_scn_text.h). */
#include <stdlib.h>
#include <string.h>

#include "em_scn.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
#include "num/em_rational.h"

/* q exact: the short decimal when there is one, else num/den (em_q_to_string reads both
   back); 0 on success, -1 when out of memory. */
static int put_q(FILE *f, const mpq_t q)
{
    char *s = em_q_to_string(q, 40);
    if (!s)
        return -1;
    fputs(s, f);
    free(s);
    return 0;
}

static int put_end(FILE *f, const mpq_t q, int inf, const char *inf_text)
{
    if (!inf)
        return put_q(f, q);
    fputs(inf_text, f);
    return 0;
}

static int pieces(FILE *f, const em_pieces *p)
{
    int bad = 0;
    for (size_t j = 0; j < p->n && !bad; j++) {
        bad |= put_end(f, p->lo[j], j == 0 && p->lo_inf, "-inf");
        fputc(',', f);
        bad |= put_end(f, p->hi[j], j == p->n - 1 && p->hi_inf, "inf");
        fputc(',', f);
        bad |= put_q(f, p->a[j]);
        fputc(',', f);
        bad |= put_q(f, p->b[j]);
        fputc('\n', f);
    }
    return bad;
}

static int candidates(FILE *f, const em_scn *sc)
{
    mpq_t u;
    mpq_init(u);
    int bad = 0;
    for (size_t i = 0; i < sc->n && !bad; i++) {
        em_csv_label(f, sc->labels[i]);
        fputc(',', f);
        if (sc->excluded[i]) {
            fputs("-inf", f);
        } else {
            em_scn_get_u(sc, i, u);
            bad |= put_q(f, u);
        }
        if (sc->has_measure) {
            fputc(',', f);
            bad |= put_q(f, sc->measure[i]);
        }
        fputc('\n', f);
    }
    mpq_clear(u);
    return bad;
}

int em_scn_text_write(FILE *f, const em_scn *s, const char *const *comments,
                      size_t n_comments, em_error *err)
{
    if (!f || !s || (n_comments && !comments))
        return em_err(err, EM_ERR_NULL, "em_write: f, s or comments is NULL");
    for (size_t i = 0; i < n_comments; i++)
        if (!comments[i] || strpbrk(comments[i], "\r\n"))
            return em_err(err, comments[i] ? EM_ERR_PARSE : EM_ERR_NULL,
                          "em_write: comments[%zu] is NULL or holds a line break", i);
    const em_scn *sc = s;
    for (size_t i = 0; i < n_comments; i++)
        fprintf(f, "# %s\n", comments[i]);
    if (sc->continuous)
        fputs("# output: continuous\n", f);
    int bad = 0;
    if (sc->has_sensitivity) {
        fputs("# sensitivity: ", f);
        bad |= put_q(f, sc->sensitivity);
        fputc('\n', f);
    }
    if (sc->has_monotone)
        fprintf(f, "# monotone: %s\n", sc->monotone ? "yes" : "no");
    if (sc->has_measure)
        fputs("# measure: yes\n", f);
    bad |= sc->continuous ? pieces(f, &sc->pieces) : candidates(f, sc);
    if (bad)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    if (fflush(f) != 0 || ferror(f))
        return em_err(err, EM_ERR_DOMAIN, "write error");
    em_err_ok(err);
    return EM_OK;
}

int em_scn_obj_write(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                     em_error *err)
{
    (void)ctx;
    return em_scn_text_write(f, obj, o ? o->comments : NULL, o ? o->n_comments : 0, err);
}
