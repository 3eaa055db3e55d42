/* em_conform_figures.c: a figure of each failed case of a conformance run (em_conform.h):
 * its check table drawn by em_plot_write, so that every front end gets the same figures. */
#include <stdio.h>
#include <sys/stat.h>

#include "base/em_error.h"
#include "em_conform.h"
#include "em_plot.h"

/* DIR/ID.svg: the expected and observed counts per cell of case c as bars; -1 when it
 * could not be drawn. */
static int figure(const char *dir, const em_conform_case *c)
{
    char csv[4096], svg[4096], title[512];
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, c->id);
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, c->id);
    snprintf(title, sizeof title, "%s: %s", c->id, em_conform_name(EM_NAME_VERDICT, c->verdict));
    const em_write_opts o = {.format = EM_WRITE_CSV};
    FILE *f = fopen(csv, "w");
    if (!f)
        return -1;
    int st = em_write(c->check, f, &o, NULL);
    if (fclose(f) != 0 || st != EM_OK) {
        remove(csv);
        return -1;
    }
    em_plot_opts p = EM_PLOT_OPTS_INIT;
    p.table = csv;
    p.x = p.xlabel = "cell";
    p.y = "expected,observed";
    p.style = "bars";
    p.title = title;
    p.ylabel = "draws";
    p.output = svg;
    st = em_plot_write(NULL, &p, NULL);
    remove(csv);
    return st == EM_OK ? 0 : -1;
}

int em_conform_figures(const em_conform_result *r, const char *dir, em_error *err)
{
    if (!r || !dir)
        return em_err(err, EM_ERR_NULL, "em_conform_figures: %s is NULL", r ? "dir" : "r");
    mkdir(dir, 0777); /* an existing directory is fine; any other failure is the figure's */
    const char *failed = NULL;
    for (size_t i = 0; i < r->ncases; i++) {
        const em_conform_case *c = &r->cases[i];
        if ((c->verdict == EM_CONFORM_REJECT || c->verdict == EM_CONFORM_IMPOSSIBLE) &&
            c->check && c->check->nrows && figure(dir, c) != 0 && !failed)
            failed = c->id;
    }
    if (failed)
        return em_err(err, EM_ERR_DOMAIN, "no figure for %s", failed);
    em_err_ok(err);
    return EM_OK;
}
