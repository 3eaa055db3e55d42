/* fuzz_api: the high-level public API (src/include/em_scn.h, em_law.h, em_judge.h) as a
 * binding calls it: a scenario from text or from arrays (the lines of the input as
 * utilities), a mechanism with options chosen by the first byte, then probabilities,
 * draws, a check of those draws, the utility report, an audit, and the continuous
 * functions, each result written by its writer (to /dev/null); and the input read as a
 * table for a figure (em_plot_write, its options chosen by the first byte).  Every failure
 * must come with a message; nothing may crash or leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "expmech.h"
#include "io/em_scn_text.h"
#include "api/em_obj.h"

#define MUST_SAY(st, e) \
    do { if ((st) != EM_OK && (!(e).msg[0] || (e).status != (st))) abort(); } while (0)

/* where the writers write: nothing is read back, every path of theirs runs */
static FILE *devnull(void)
{
    static FILE *f;
    if (!f && !(f = fopen("/dev/null", "w")))
        abort();
    return f;
}

static em_scn *from_lines(const char *text, size_t len, em_error *e)
{
    const char *u[16];
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, text, len);
    copy[len] = 0;
    size_t n = 0;
    for (char *p = copy, *q; n < 16 && p; p = q) {
        q = strchr(p, '\n');
        if (q)
            *q++ = 0;
        u[n++] = !strcmp(p, "x") ? NULL : p; /* "x": an excluded candidate */
    }
    em_scn *s = NULL;
    int st = em_scn_new(&(em_scn_spec){.n = n, .utilities = u}, &s, e);
    MUST_SAY(st, *e);
    free(copy);
    return s;
}

/* A label's two forms: the human one fits its buffer (NUL-terminated), and the CSV field
 * reads back as the same label whenever the line parses as a scenario. */
static void label_round_trip(const char *lab)
{
    char hb[48];
    if (em_scn_human_label(hb, sizeof hb, lab, 16) != hb || memchr(hb, 0, sizeof hb) == NULL)
        abort();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    em_csv_label(f, lab);
    fputs(",0\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return;
    }
    em_scn *b = NULL;
    em_error e;
    if (em_scn_new(&(em_scn_spec){.text = buf, .len = len, .name = "label"}, &b, &e) == EM_OK && strcmp(em_scn_label(b, 0), lab) != 0)
        abort();
    em_free(b);
    free(buf);
}

/* text as the CSV table of a figure: the columns of expmech's tables, a style, a series and
 * an overlay of the same table chosen by sel */
static void plot_table(const char *text, size_t len, unsigned sel)
{
    static const char *const styles[] = {NULL, "points", "steps", "bars,lines"};
    int fd = memfd_create("table", 0);
    if (fd < 0)
        return;
    char path[64], spec[96];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    snprintf(spec, sizeof spec, "%s:x:cdf:T", path);
    const char *ov[] = {spec};
    em_plot_opts o = EM_PLOT_OPTS_INIT;
    o.table = path;
    o.x = sel & 1 ? "label" : "x";
    o.y = sel & 2 ? "probability,log_probability" : "cdf";
    o.series = sel & 4 ? "epsilon" : NULL;
    o.style = styles[(sel >> 3) & 3];
    o.logy = (sel >> 5) & 1;
    o.noverlay = (sel >> 6) & 1;
    o.overlay = ov;
    em_error e;
    if (write(fd, text, len) == (ssize_t)len) {
        int st = em_plot_write(devnull(), &o, &e);
        MUST_SAY(st, e);
    }
    close(fd);
}

/* text as the points of a law: a list or a grid of what sel says */
static void points_text(const char *text, size_t len, unsigned sel)
{
    char *buf = malloc(len + 1);
    if (!buf)
        return;
    memcpy(buf, text, len);
    buf[len] = 0;
    em_points *p = NULL;
    em_error e;
    int st = em_points_parse((int)(sel % 4), sel & 4 ? NULL : buf, sel & 4 ? buf : NULL, &p, &e);
    MUST_SAY(st, e);
    em_free(p);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1024)
        return 0;
    static const char *eps[] = {"1", "0.5", "1/3", "0x1p-10", "40", "0", "-1", "nan"};
    unsigned sel = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    em_error e;
    em_scn *s = NULL;
    int st;
    plot_table(text, len, sel);
    points_text(text, len, sel);
    if (sel & 0x80)
        s = from_lines(text, len, &e);
    else {
        st = em_scn_new(&(em_scn_spec){.text = text, .len = len, .name = "fuzz"}, &s, &e);
        MUST_SAY(st, e);
    }
    if (!s)
        return 0;
    em_opts o = EM_OPTS_INIT;
    o.epsilon = eps[sel & 7];
    o.variant = (int)((sel >> 3) & 3) - 1; /* AUTO, STANDARD, MONOTONE, PF */
    o.force = (sel >> 5) & 1;
    o.digits = 6;
    em_mech *m = NULL;
    st = em_mech_new(s, &o, &m, &e);
    MUST_SAY(st, e);
    if (st == EM_OK) {
        if (em_scn_get(s).continuous) {
            static const char *pts[] = {"0", "1/3", "-2.5", "7"};
            for (int k = 0; k < 4; k++) {
                char *r = NULL;
                st = em_law_at(m, EM_LAW_CDF, pts[k], NULL, &r, NULL, &e);
                MUST_SAY(st, e);
                em_free(r);
                r = NULL;
                st = em_law_at(m, EM_LAW_DENSITY, pts[k], NULL, &r, NULL, &e);
                MUST_SAY(st, e);
                em_free(r);
            }
            char *q = NULL;
            st = em_law_at(m, EM_LAW_QUANTILE, "1/3", NULL, &q, NULL, &e);
            MUST_SAY(st, e);
            em_free(q);
            static const char *const at[] = {"0", "1/3", "-2.5"};
            const em_points where = {3, at, NULL, NULL};
            em_write_opts wo = EM_WRITE_OPTS_INIT;
            wo.format = EM_WRITE_CSV;
            wo.points = &where;
            wo.law = (int)(sel % 3);
            st = em_write(m, devnull(), &wo, &e);
            MUST_SAY(st, e);
            em_points *iv = NULL;
            st = em_points_parse(EM_LAW_INTERVAL, "0:1/3,-2.5:7,7:7", NULL, &iv, &e);
            MUST_SAY(st, e);
            if (st == EM_OK) {
                wo.points = iv;
                wo.law = EM_LAW_INTERVAL;
                st = em_write(m, devnull(), &wo, &e);
                MUST_SAY(st, e);
            }
            em_free(iv);
            /* a bad interval the parser would refuse: the writer's own check */
            static const char *const ivs[] = {"0:1/3", "-2.5:7", "x:1"};
            const em_points hand = {3, ivs, NULL, NULL};
            wo.points = &hand;
            wo.law = EM_LAW_INTERVAL;
            st = em_write(m, devnull(), &wo, &e);
            MUST_SAY(st, e);
            /* the sample-based audit of continuous draws (its grid from the exact laws) */
            static const em_draw dv[] = {{0, 0.0}, {0, 1.0 / 3}, {0, -2.5}, {0, 7.0},
                                         {0, 1e300}, {0, -1e-300}};
            em_draws dx = EM_DRAWS_INIT, dy = EM_DRAWS_INIT;
            dx.draw = dv;
            dx.n = 6;
            dy.draw = dv + 2;
            dy.n = 4;
            em_audit_result *ad = NULL;
            st = em_audit(m, m, &dx, &dy, 0.95, &ad, &e);
            MUST_SAY(st, e);
            em_free(ad);
        } else {
            em_prob p;
            for (size_t i = 0; i < em_scn_get(s).size && i < 4; i++) {
                st = em_probs_get(m, i, &p, &e);
                MUST_SAY(st, e);
                label_round_trip(em_scn_label(s, i));
            }
        }
        em_sample_opts so = EM_SAMPLE_OPTS_INIT;
        so.seeded = 1;
        so.seed = sel;
        em_draw dr[8];
        em_check_opts co = EM_CHECK_OPTS_INIT;
        em_check_result *cr = NULL;
        em_sampler *sp = NULL;
        st = em_sampler_new(m, &so, &sp, &e);
        if (st == EM_OK)
            st = em_sampler_draw(sp, 8, dr, &e);
        em_free(sp);
        MUST_SAY(st, e);
        if (st == EM_OK) {
            em_draws d = EM_DRAWS_INIT;
            d.draw = dr;
            d.n = 8;
            st = em_draws_check(m, &d, &co, &cr, &e);
            MUST_SAY(st, e);
            if (st == EM_OK && em_write(cr, devnull(), NULL, &e) != EM_OK)
                abort();
        }
        em_free(cr);
        /* the draws written as expmech sample writes them (labels of any bytes) */
        sp = NULL;
        st = em_sampler_new(m, &so, &sp, &e);
        MUST_SAY(st, e);
        if (st == EM_OK) {
            em_write_opts wc = EM_WRITE_OPTS_INIT;
            wc.format = EM_WRITE_CSV;
            wc.terminal = sel & 1;
            wc.draws = 4;
            st = em_write(sp, devnull(), &wc, &e);
            MUST_SAY(st, e);
        }
        em_free(sp);
        em_write_opts wj = EM_WRITE_OPTS_INIT;
        wj.format = sel & 1 ? EM_WRITE_JSON : EM_WRITE_CSV;
        st = em_write(m, devnull(), &wj, &e);
        MUST_SAY(st, e);
        em_utility_result *ur = NULL;
        st = em_utility(m, NULL, &ur, &e);
        MUST_SAY(st, e);
        if (ur) {
            const char *t[] = {"1"}, *tail[] = {"0"}, *bound[] = {ur->expected_loss_bound};
            const em_utility_report u = {ur, ur->expected_loss_bound, 1, t, tail, bound, sel,
                                         0.5, 0.25};
            if (em_utility_report_write(devnull(), &u, m, &wj, &e) != EM_OK)
                abort();
        }
        em_free(ur);
        /* the whole report computed (a bad threshold refused) and written */
        const char *ts[] = {"1/3", sel & 2 ? "x" : "0"};
        ur = NULL;
        st = em_utility(m, &(em_utility_opts){2, ts, (sel >> 2) & 3, &so}, &ur, &e);
        MUST_SAY(st, e);
        if (ur && em_write(ur, devnull(), &wj, &e) != EM_OK)
            abort();
        em_free(ur);
        em_audit_result *ar = NULL;
        st = em_audit(m, m, NULL, NULL, 0, &ar, &e);
        MUST_SAY(st, e);
        if (ar && em_write(ar, devnull(), NULL, &e) != EM_OK)
            abort();
        em_free(ar);
    }
    em_free(m);
    em_free(s);
    return 0;
}
