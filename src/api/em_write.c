/* em_write.c: the checks and the pieces every result writer shares (em_write_priv.h). */
#include <stdlib.h>
#include <string.h>

#include "em_mech.h"
#include "api/em_write_priv.h"
#include "base/em_error.h"
#include "io/em_scn_text.h"

int em_write_begin(const char *fn, FILE *f, const void *r, const void *m,
                   const em_write_opts *o, unsigned formats, em_write_opts *w, em_error *err)
{
    static const em_write_opts init = EM_WRITE_OPTS_INIT;
    if (!f || !r || !m)
        return em_err(err, EM_ERR_NULL, "%s: f, the result or the mechanism is NULL", fn);
    *w = o ? *o : init;
    if (w->format < 0 || w->format > EM_WRITE_JSON ||
        !(formats & EM_WRITE_ACCEPTS(w->format)))
        return em_err(err, EM_ERR_DOMAIN, "%s: format %d is not one this result is written in",
                      fn, w->format);
    if (w->sweep_n && w->sweep_i >= w->sweep_n)
        return em_err(err, EM_ERR_DOMAIN, "%s: sweep_i (%zu) must be below sweep_n (%zu)", fn,
                      w->sweep_i, w->sweep_n);
    return EM_OK;
}

void em_write_sweep_row(FILE *f, const em_write_opts *w, const char *epsilon,
                        const char *columns, size_t row)
{
    if (!w->sweep_n)
        return;
    if (w->sweep_i == 0 && row == 0)
        fprintf(f, "epsilon,%s\n", columns);
    fprintf(f, "%s,", w->epsilon ? w->epsilon : epsilon);
}

const char *em_write_variant(int variant)
{
    return variant == EM_PF ? "pf" : variant == EM_MONOTONE ? "monotone" : "standard";
}

/* the largest form of a label (one line of at most 4096 bytes, 6 bytes each at most) */
#define HUMAN_CAP (4096 * 6 + 16)

void em_write_human(FILE *f, const char *label)
{
    char buf[HUMAN_CAP];
    fputs(em_scn_human_label(buf, sizeof buf, label, 0), f);
}

void em_write_csv_label(FILE *f, const char *label, const em_write_opts *w)
{
    char buf[HUMAN_CAP];
    /* a terminal is a person, not a parser: no raw escape sequence reaches it */
    if (w->terminal && strcmp(em_scn_human_label(buf, sizeof buf, label, 0), label)) {
        em_csv_quoted(f, buf);
        return;
    }
    em_csv_label(f, label);
}

void em_write_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

int em_write_end(const char *fn, FILE *f, em_error *err)
{
    if (ferror(f))
        return em_err(err, EM_ERR_DOMAIN, "%s: writing the result failed", fn);
    em_err_ok(err);
    return EM_OK;
}

int em_write_text(em_text_writer *write, const void *arg, char **text, size_t *len,
                  em_error *err)
{
    char *buf = NULL;
    size_t size = 0;
    *text = NULL;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    int st = write(f, arg, err);
    int bad = ferror(f);
    if ((fclose(f) != 0 || bad) && st == EM_OK)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st != EM_OK) {
        free(buf);
        return st;
    }
    *text = buf;
    if (len)
        *len = size;
    return EM_OK;
}
