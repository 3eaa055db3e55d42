/* em_groups_report_write.c: the report of expmech groups as a table (em_groups.h). */
#include <stdlib.h>
#include <string.h>

#include "em_groups.h"
#include "api/em_write_priv.h"
#include "base/em_error.h"

#define FN "em_write"

/* the true modes as one field: "a|b" */
static char *modes_text(const em_group_report *e)
{
    size_t len = 1;
    for (size_t i = 0; i < e->n_modes; i++)
        len += strlen(e->modes[i]) + 1;
    char *s = malloc(len), *w = s;
    if (!s)
        return NULL;
    *w = 0;
    for (size_t i = 0; i < e->n_modes; i++) {
        if (i)
            *w++ = '|';
        size_t k = strlen(e->modes[i]);
        memcpy(w, e->modes[i], k + 1);
        w += k;
    }
    return s;
}

static int write_csv(FILE *f, const em_groups_info *g, const em_groups_report *r,
                     const em_write_opts *w, em_error *err)
{
    if (w->sweep_i == 0)
        fputs("epsilon,group,rows,share,epsilon_group,true_mode,p_true_mode,expected_loss,gap\n",
              f);
    for (size_t j = 0; j < r->n; j++) {
        const em_group_report *e = &r->group[j];
        char *m = modes_text(e);
        if (!m)
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        fprintf(f, "%s,", w->epsilon);
        em_write_csv_label(f, g->name[j], w);
        fprintf(f, ",%zu,%s,%s,", g->rows[j], e->share, e->epsilon);
        em_write_csv_label(f, m, w);
        fprintf(f, ",%s,%s,%s\n", e->p_true_mode, e->expected_loss, r->gap);
        free(m);
    }
    return EM_OK;
}

static void write_json(FILE *f, const em_groups_info *g, const em_groups_report *r,
                       const char *split, const em_write_opts *w)
{
    const int list = w->sweep_n > 1;
    const char *indent = list ? "  " : "";
    if (list && w->sweep_i == 0)
        fputs("[\n", f);
    fprintf(f, "%s{\"epsilon\": ", indent);
    em_write_json_string(f, w->epsilon);
    fputs(", \"split\": ", f);
    em_write_json_string(f, split);
    fputs(", \"groups\": [\n", f);
    for (size_t j = 0; j < r->n; j++) {
        const em_group_report *e = &r->group[j];
        fprintf(f, "%s  {\"group\": ", indent);
        em_write_json_string(f, g->name[j]);
        fprintf(f, ", \"rows\": %zu, \"share\": \"%s\", \"epsilon_group\": \"%s\", \"true_mode\": [",
                g->rows[j], e->share, e->epsilon);
        for (size_t i = 0; i < e->n_modes; i++) {
            fputs(i ? ", " : "", f);
            em_write_json_string(f, e->modes[i]);
        }
        fprintf(f, "], \"p_true_mode\": \"%s\", \"expected_loss\": \"%s\"}%s\n", e->p_true_mode,
                e->expected_loss, j + 1 < r->n ? "," : "");
    }
    fprintf(f, "%s], \"gap\": \"%s\"}", indent, r->gap);
    fputs(!list ? "\n" : w->sweep_i + 1 < w->sweep_n ? ",\n" : "\n]\n", f);
}

int em_groups_report_write_info(FILE *f, const em_groups_info *g, const em_groups_report *r,
                                const char *split, const em_write_opts *o, em_error *err)
{
    em_write_opts w;
    int st = em_write_begin(FN, f, r, g, o,
                            EM_WRITE_ACCEPTS(EM_WRITE_CSV) | EM_WRITE_ACCEPTS(EM_WRITE_JSON), &w,
                            err);
    if (st != EM_OK)
        return st;
    if (!w.epsilon || (w.format == EM_WRITE_JSON && !split))
        return em_err(err, EM_ERR_NULL, FN ": %s is NULL", !w.epsilon ? "o->epsilon" : "split");
    if (r->n != g->count || !r->group || !r->gap)
        return em_err(err, EM_ERR_DOMAIN, FN ": r is not a report of g (%zu groups, g has %zu)",
                      r->n, g->count);
    if (w.format == EM_WRITE_CSV)
        st = write_csv(f, g, r, &w, err);
    else
        write_json(f, g, r, split, &w);
    return st != EM_OK ? st : em_write_end(FN, f, err);
}
