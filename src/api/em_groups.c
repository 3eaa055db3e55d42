/* em_groups.c: the group analysis of em_groups.h: the data read once (io/em_data.c), each
 * group's rows scored over one candidate set (em_score_*.c), the mechanism run per group
 * through the public API, and the gap between groups decided by Ziv's strategy on top of
 * correctly rounded probabilities. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gmp.h>

#include "em_base.h"
#include "em_law.h"
#include "api/em_scn_priv.h"
#include "api/em_score_priv.h"
#include "base/em_error.h"
#include "base/em_mem.h"
#include "io/em_data.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_oracle.h"
#include "em_groups.h"
#include "api/em_obj.h"

struct em_groups {
    size_t k, total;
    char **name;
    size_t *rows;
    em_scoring **score;
    char *warning;
};

static void groups_destroy(void *obj)
{
    em_groups *g = obj;
    for (size_t i = 0; i < g->k; i++) { /* a failed build may leave arrays NULL */
        if (g->name)
            free(g->name[i]);
        if (g->score)
            em_free(g->score[i]);
    }
    free(g->name);
    free(g->rows);
    free(g->score);
    free(g->warning);
    em_obj_release(g);
}

em_groups_info em_groups_get(const em_groups *g)
{
    return (em_groups_info){g->k, g->total, (const char *const *)g->name, g->rows, g->score,
                            g->warning};
}

/* The distinct values of group[0..n) in order of first appearance: *k of them, their
   texts in keys[0..*k), and the index of each row's group in of[]. */
static int distinct(char **group, size_t n, char **keys, size_t *of, size_t *k, em_error *err)
{
    em_strmap m = {0};
    int st = em_strmap_alloc(&m, keys, n, err);
    *k = 0;
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        long j = em_strmap_find(&m, group[i]);
        if (j < 0) {
            keys[*k] = group[i];
            em_strmap_add(&m, *k);
            j = (long)(*k)++;
        }
        of[i] = (size_t)j;
    }
    em_strmap_free(&m);
    return st;
}

/* Group j's rows of d as lines of their own (pointers into d), scored over c. */
static int score_group(em_groups *g, size_t j, const em_scoring_opts *o, const char *group_by,
                       const em_rows *d, const size_t *of, const em_cands *c, em_error *err)
{
    em_rows s = {0};
    s.name = d->name;
    s.v = malloc(g->rows[j] * sizeof *s.v);
    s.line = malloc(g->rows[j] * sizeof *s.line);
    char *note = NULL;
    int st = s.v && s.line && asprintf(&note, "group: %s = %s (%zu of %zu rows)", group_by,
                                       g->name[j], g->rows[j], g->total) >= 0
                 ? EM_OK
                 : em_data_nomem(err);
    if (st != EM_OK)
        note = NULL;
    for (size_t i = 0; i < d->n && st == EM_OK; i++)
        if (of[i] == j) {
            s.v[s.n] = d->v[i];
            s.line[s.n++] = d->line[i];
        }
    s.rows = s.n;
    if (st == EM_OK)
        st = em_score_rows(o, &s, c, note, &g->score[j], err);
    if (st == EM_OK) { /* messages and provenance name the group, not "expmech score" */
        em_scn *sc = em_scoring_get(g->score[j]).scn;
        free(sc->name);
        if (asprintf(&sc->name, "group %s", g->name[j]) < 0) {
            sc->name = NULL;
            st = em_data_nomem(err);
        }
    }
    free(note);
    free(s.v);
    free(s.line);
    return st;
}

static int groups_build(em_groups *g, const em_scoring_opts *o, const char *group_by,
                        em_error *err)
{
    em_rows d;
    em_cands c = {0};
    char **group = NULL, **keys = NULL;
    size_t *of = NULL;
    int st = em_data_read_grouped(&d, o->data, o->column, group_by, &group, err);
    if (st == EM_OK)
        st = em_score_cands(o, &d, &c, &g->warning, err);
    if (st == EM_OK) {
        keys = malloc(d.n * sizeof *keys);
        of = malloc(d.n * sizeof *of);
        st = keys && of ? distinct(group, d.n, keys, of, &g->k, err) : em_data_nomem(err);
    }
    if (st == EM_OK && g->k < 2)
        st = em_data_fail(err, "group_by %s: one group ('%s'): nothing to compare", group_by,
                          keys[0]);
    if (st == EM_OK) {
        g->total = d.n;
        g->name = calloc(g->k, sizeof *g->name);
        g->rows = calloc(g->k, sizeof *g->rows);
        g->score = calloc(g->k, sizeof *g->score);
        if (!g->name || !g->rows || !g->score)
            st = em_data_nomem(err);
    }
    for (size_t i = 0; i < d.n && st == EM_OK; i++)
        g->rows[of[i]]++;
    for (size_t j = 0; j < g->k && st == EM_OK; j++)
        if (!(g->name[j] = strdup(keys[j])))
            st = em_data_nomem(err);
    for (size_t j = 0; j < g->k && st == EM_OK; j++)
        st = score_group(g, j, o, group_by, &d, of, &c, err);
    free(keys);
    free(of);
    free(group);
    em_cands_free(&c);
    em_rows_free(&d);
    return st;
}

static em_obj_write_fn write_groups; /* em_write of the groups: below */

int em_groups_new(const em_scoring_opts *o, const char *group_by, em_groups **out,
                  em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_groups_new: out is NULL");
    *out = NULL;
    if (!o || !group_by)
        return em_err(err, EM_ERR_NULL, "em_groups_new: %s is NULL", o ? "group_by" : "o");
    if (o->aggregated)
        return em_data_fail(err, "group_by %s: an aggregate ('value,count' lines) has no "
                                 "groups: no o->aggregated", group_by);
    if (!o->data || !o->column)
        return em_data_fail(err, "group_by %s needs o->data FILE and o->column NAME (a CSV file "
                                 "with a header line)", group_by);
    em_groups *g = em_obj_new(sizeof *g, groups_destroy);
    if (g)
        em_obj_writer(g, write_groups, NULL, NULL);
    int st = g ? groups_build(g, o, group_by, err) : em_data_nomem(err);
    return EM_HAND_OUT(st, g, em_free, out, err);
}

int em_groups_report_write(FILE *f, const em_groups *g, const em_groups_report *r,
                           const char *split, const em_write_opts *o, em_error *err)
{
    em_groups_info gi;
    if (g)
        gi = em_groups_get(g);
    return em_groups_report_write_info(f, g ? &gi : NULL, r, split, o, err);
}

/* ------------------------------------------------------------------ files */

static int file_name(const em_groups *g, size_t i, char **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "file_name: out is NULL");
    *out = NULL;
    if (!g)
        return em_err(err, EM_ERR_NULL, "file_name: g is NULL");
    if (i >= g->k)
        return em_err(err, EM_ERR_DOMAIN, "file_name: no group %zu (%zu groups)", i,
                      g->k);
    const unsigned char *p = (const unsigned char *)g->name[i];
    char *s = malloc(3 * strlen(g->name[i]) + 5), *w = s;
    if (!s)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    for (size_t k = 0; p[k]; k++) {
        int keep = (p[k] >= 'A' && p[k] <= 'Z') || (p[k] >= 'a' && p[k] <= 'z') ||
                   (p[k] >= '0' && p[k] <= '9') || p[k] == '_' || p[k] == '-' ||
                   (p[k] == '.' && k > 0);
        w += keep ? sprintf(w, "%c", p[k]) : sprintf(w, "%%%02X", p[k]);
    }
    strcpy(w, ".txt");
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

/* DIR/NAME of group i, malloc'd. */
static int group_path(const em_groups *g, size_t i, const char *dir, char **path, em_error *err)
{
    char *name;
    int st = file_name(g, i, &name, err);
    if (st == EM_OK && asprintf(path, "%s/%s", dir, name) < 0) {
        *path = NULL;
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    free(name);
    return st;
}

/* em_write of the groups: their scenarios to files in o->dir, the paths to names */
static int write_groups(FILE *names, const void *obj, const void *const *ctx,
                        const em_write_opts *o, em_error *err)
{
    const em_groups *g = obj;
    const char *dir = o ? o->dir : NULL;
    (void)ctx;
    if (!dir)
        return em_err(err, EM_ERR_NULL, "em_write: o->dir is NULL");
    FILE **f = calloc(g->k, sizeof *f);
    char **path = calloc(g->k, sizeof *path);
    int st = f && path ? EM_OK : em_err(err, EM_ERR_NOMEM, "out of memory");
    /* every file created before any is written: an existing one leaves the directory as it
       was */
    for (size_t i = 0; i < g->k && st == EM_OK; i++) {
        if ((st = group_path(g, i, dir, &path[i], err)) != EM_OK)
            break;
        int fd = open(path[i], O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 || !(f[i] = fdopen(fd, "w"))) {
            st = em_err(err, EM_ERR_DOMAIN, "dir: cannot create %s: %s%s", path[i],
                        strerror(errno), errno == EEXIST ? " (remove it first: files are never "
                                                           "overwritten)" : "");
            if (fd >= 0)
                close(fd);
            free(path[i]); /* not created by this call (or closed): never removed */
            path[i] = NULL;
        }
    }
    for (size_t i = 0; i < g->k && st == EM_OK; i++)
        st = em_scoring_write(f[i], g->score[i], err);
    for (size_t i = 0; f && path && i < g->k; i++)
        if (f[i] && fclose(f[i]) != 0 && st == EM_OK)
            st = em_err(err, EM_ERR_DOMAIN, "dir: cannot write %s: %s", path[i],
                        strerror(errno));
    for (size_t i = 0; f && path && i < g->k; i++) {
        if (st != EM_OK && path[i])
            unlink(path[i]);
        else if (st == EM_OK && names)
            fprintf(names, "%s\n", path[i]);
        free(path[i]);
    }
    free(f);
    free(path);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}

/* ------------------------------------------------------------------ analysis */

static void groups_report_destroy(void *obj)
{
    em_groups_report *r = obj;
    for (size_t j = 0; r->group && j < r->n; j++) {
        em_group_report *e = &r->group[j];
        em_free_strings(e->modes, e->n_modes);
        EM_FREE_ALL(e->epsilon, e->share, e->p_true_mode, e->expected_loss, e->provenance);
    }
    EM_FREE_ALL(r->group, r->gap);
    em_obj_release(r);
}

/* Each group's share of epsilon, w[0..k), from the split rule. */
static int split_weights(const em_groups *g, const char *split, mpq_t *w, em_error *err)
{
    if (!split)
        return em_err(err, EM_ERR_NULL, "em_groups_analyse: split is NULL");
    int prop = !strcmp(split, "proportional"), eq = !strcmp(split, "equal"),
        full = !strcmp(split, "full");
    for (size_t j = 0; j < g->k && (prop || eq || full); j++)
        mpq_set_ui(w[j], prop ? g->rows[j] : 1, prop ? g->total : eq ? g->k : 1);
    for (size_t j = 0; j < g->k && (prop || eq); j++)
        mpq_canonicalize(w[j]);
    if (prop || eq || full)
        return EM_OK;
    size_t j = 0;
    const char *p = split;
    mpq_t sum;
    mpq_init(sum);
    int st = EM_OK;
    for (; st == EM_OK; j++) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *msg = NULL;
        int kind;
        if (j >= g->k)
            st = em_err(err, EM_ERR_DOMAIN, "o->split %s: more than %zu weights (one per group)",
                        split, g->k);
        else if (em_q_parse(p, len, 0, w[j], &kind, &msg) != EM_OK)
            st = em_err(err, EM_ERR_PARSE, "o->split %s: weight '%.*s' is not an exact number "
                        "(%s); expected proportional, equal, full or weights w1,w2,...", split,
                        (int)len, p, msg ? msg : "malformed");
        else if (mpq_sgn(w[j]) <= 0)
            st = em_err(err, EM_ERR_EPSILON, "o->split %s: weight '%.*s' must be > 0", split,
                        (int)len, p);
        else
            mpq_add(sum, sum, w[j]);
        if (!e)
            break;
        p = e + 1;
    }
    if (st == EM_OK && j + 1 != g->k)
        st = em_err(err, EM_ERR_DOMAIN, "o->split %s: %zu weight%s for %zu groups", split, j + 1,
                    j ? "s" : "", g->k);
    if (st == EM_OK && mpq_cmp_ui(sum, 1, 1) > 0)
        st = em_err(err, EM_ERR_DOMAIN, "o->split %s: the weights add up to more than 1: the "
                    "groups would spend more than epsilon", split);
    mpq_clear(sum);
    return st;
}

static int cmp_q(const void *x, const void *y)
{
    return mpq_cmp(*(const mpq_t *)x, *(const mpq_t *)y);
}

/* A candidate of largest utility (the scenario expanded). */
static size_t top_of(const em_scn *sc, size_t n)
{
    size_t top = 0;
    for (size_t i = 1; i < n; i++)
        if (!sc->excluded[i] && (sc->excluded[top] || mpq_cmp(sc->u[i], sc->u[top]) > 0))
            top = i;
    return top;
}

/* The exponents c (u_i - max u) of m's law over its candidates not excluded, sorted, into
   t[0..*nt), and the labels of the modes (t = 0) into e. */
static int exponents(em_mech *m, mpq_t *t, size_t *nt, em_group_report *e, em_error *err)
{
    em_scn *s = em_mech_get(m).scn;
    size_t n = em_scn_get(s).size;
    int st = em_scn_expand(s, err);
    if (st != EM_OK)
        return st;
    const em_scn *sc = s;
    size_t top = top_of(sc, n);
    mpq_srcptr c = m->prob.c; /* standard and pf: eps / (2 delta) */
    e->modes = calloc(n, sizeof *e->modes);
    if (!e->modes)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    *nt = 0;
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        if (sc->excluded[i])
            continue;
        mpq_ptr ti = t[(*nt)++]; /* mpq_sgn is a macro: no side effects in its argument */
        mpq_sub(ti, sc->u[i], sc->u[top]);
        mpq_mul(ti, ti, c);
        if (mpq_sgn(ti) == 0 && !(e->modes[e->n_modes++] = strdup(em_scn_label(s, i))))
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (st == EM_OK)
        qsort(t, *nt, sizeof *t, cmp_q);
    return st;
}

/* Group j's mechanism at epsilon eps and its utility report at `digits` digits. */
static int run_group(em_groups *g, size_t j, const em_groups_opts *o, const char *eps,
                     int digits, em_mech **m, em_utility_result **u, em_error *err)
{
    em_opts mo = {eps, o->sensitivity, o->variant, o->force, digits};
    *u = NULL;
    int st = em_mech_new(em_scoring_get(g->score[j]).scn, &mo, m, err);
    return st != EM_OK ? st : em_utility(*m, NULL, u, err);
}

/* A probability as the library writes it ("0.25", "1.5e-78000") into q: 0 when q is its
   value, 1 when it is below 10^-EXP_MAX (q is then that bound), -1 when unreadable.  The
   exact parser stops at exponents of 10^4; these decimals have up to 1000 digits and an
   exponent of any length. */
#define EXP_MAX 1000000L
static int parse_prob(const char *text, mpq_t q)
{
    const char *e = strchr(text, 'e');
    int kind;
    if (em_q_parse(text, e ? (size_t)(e - text) : strlen(text), 0, q, &kind, NULL) != EM_OK)
        return -1;
    if (!e)
        return 0;
    char *end;
    errno = 0;
    long x = strtol(e + 1, &end, 10);
    if (*end || end == e + 1 || (errno && x != LONG_MIN) || x > 0)
        return -1;
    mpz_t p10;
    mpz_init(p10);
    int below = errno || x < -EXP_MAX;
    mpz_ui_pow_ui(p10, 10, below ? (unsigned long)EXP_MAX : (unsigned long)-x);
    if (below)
        mpq_set_ui(q, 1, 1);
    mpz_mul(mpq_denref(q), mpq_denref(q), p10);
    mpq_canonicalize(q);
    mpz_clear(p10);
    return below;
}

/* The interval [lo, hi] holding group j's P(no true mode) = 1 - P(true mode), the sum of
   the other candidates' probabilities, each correctly rounded to D digits: within
   eps = 10^(1-D) of itself relatively, so the sum is too, however small (a gap between
   probabilities near 1 is a difference of these).  A probability below 10^-EXP_MAX
   counts as [0, 10^-EXP_MAX]. */
static int q_interval(em_groups *g, size_t j, const em_groups_opts *o, const char *eps, int D,
                      mpq_t lo, mpq_t hi, em_error *err)
{
    em_mech *m = NULL;
    em_opts mo = {eps, o->sensitivity, o->variant, o->force, D};
    em_scn *s = em_scoring_get(g->score[j]).scn;
    const em_scn *sc = s;
    int st = em_mech_new(s, &mo, &m, err);
    size_t n = em_scn_get(s).size, top = top_of(sc, n); /* expanded by exponents() */
    mpq_t x, rel;
    mpq_inits(x, rel, (mpq_ptr)0);
    mpq_set_ui(lo, 0, 1);
    mpq_set_ui(hi, 0, 1);
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        if (sc->excluded[i] || mpq_equal(sc->u[i], sc->u[top]))
            continue;
        em_prob pr;
        if ((st = em_probs_get(m, i, &pr, err)) != EM_OK)
            break;
        int r = parse_prob(pr.prob, x);
        if (r < 0) {
            st = em_err(err, EM_ERR_UNDECIDED, "group %s: probability '%s' unreadable",
                        g->name[j], pr.prob);
            break;
        }
        mpq_add(r ? hi : lo, r ? hi : lo, x);
    }
    if (st == EM_OK) {
        mpz_set_ui(mpq_numref(rel), 1);
        mpz_ui_pow_ui(mpq_denref(rel), 10, (unsigned long)(D - 1));
        mpq_mul(x, lo, rel);
        mpq_add(hi, hi, lo);
        mpq_add(hi, hi, x);
        mpq_sub(lo, lo, x);
    }
    mpq_clears(x, rel, (mpq_ptr)0);
    em_free(m);
    return st;
}

/* The gap max_j P_j - min_j P_j = max_j Q_j - min_j Q_j (Q = 1 - P), known by its bounds:
 * every Q_j from probabilities to D digits, the difference's interval [max lo - min hi,
 * max hi - min lo], with D = prec / 4 (K + 8 digits first, doubled by em_round) up to the
 * oracle's 1000 digits. */
struct gap {
    em_groups *g;
    const em_groups_opts *o;
    char **eps;
    int lastD;              /* the digits of the last bounds, 0 before */
    em_error *err;
};

static int gap_bounds(void *ctx, mpfr_prec_t prec, mpfr_t glo, mpfr_t ghi)
{
    struct gap *G = ctx;
    long D = prec / 4;
    if (D > EM_ROUND_MAX_DIGITS) {
        if (G->lastD == EM_ROUND_MAX_DIGITS)
            return EM_ERR_UNDECIDED;
        D = EM_ROUND_MAX_DIGITS;
    }
    G->lastD = (int)D;
    mpq_t lo, hi, a[4]; /* max lo, max hi, min lo, min hi */
    mpq_inits(lo, hi, a[0], a[1], a[2], a[3], (mpq_ptr)0);
    int st = EM_OK;
    for (size_t j = 0; j < G->g->k && st == EM_OK; j++) {
        st = q_interval(G->g, j, G->o, G->eps[j], (int)D, lo, hi, G->err);
        if (st == EM_OK && (j == 0 || mpq_cmp(lo, a[0]) > 0))
            mpq_set(a[0], lo);
        if (st == EM_OK && (j == 0 || mpq_cmp(hi, a[1]) > 0))
            mpq_set(a[1], hi);
        if (st == EM_OK && (j == 0 || mpq_cmp(lo, a[2]) < 0))
            mpq_set(a[2], lo);
        if (st == EM_OK && (j == 0 || mpq_cmp(hi, a[3]) < 0))
            mpq_set(a[3], hi);
    }
    if (st == EM_OK) {
        mpq_sub(lo, a[0], a[3]);
        mpq_sub(hi, a[1], a[2]);
        mpfr_set_q(glo, lo, MPFR_RNDD);
        mpfr_set_q(ghi, hi, MPFR_RNDU);
    }
    mpq_clears(lo, hi, a[0], a[1], a[2], a[3], (mpq_ptr)0);
    return st;
}

/* The gap correctly rounded to K digits and to double by em_round (a gap below 1 that
 * rounds to 1 is K nines, as em_law.h writes probabilities). */
static int gap_decide(em_groups *g, const em_groups_opts *o, char **eps, int K,
                      em_groups_report *r, em_error *err)
{
    struct gap G = {g, o, eps, 0, err};
    em_rval v = {gap_bounds, NULL, &G};
    em_cval c;
    em_cval_init(&c);
    int D0 = K + 8 < EM_ROUND_MAX_DIGITS ? K + 8 : EM_ROUND_MAX_DIGITS;
    int st = em_round(&v, K, (mpfr_prec_t)4 * D0, &c);
    if (st == EM_OK)
        st = em_cval_below_one(&c, K);
    if (st == EM_OK) {
        r->gap = c.str;
        c.str = NULL;
        r->gap_d = c.d;
    } else if (st == EM_ERR_UNDECIDED) {
        em_err(err, st, "the gap between the groups is not decided at %d digits",
               EM_ROUND_MAX_DIGITS);
    } else if (st == EM_ERR_NOMEM) {
        em_err(err, st, "out of memory");
    }
    em_cval_clear(&c);
    return st;
}

/* Group j at its epsilon: the report's entry (K digits) and its exponents. */
static int group_entry(em_groups *g, size_t j, const em_groups_opts *o, const mpq_t eps_g,
                       int K, em_group_report *e, mpq_t *t, size_t *nt, em_error *err)
{
    mpq_t share;
    mpq_init(share);
    mpq_set_ui(share, g->rows[j], g->total);
    mpq_canonicalize(share);
    e->share = em_q_to_string(share, 60);
    e->epsilon = em_q_to_string(eps_g, 60);
    mpq_clear(share);
    if (!e->share || !e->epsilon)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_mech *m = NULL;
    em_utility_result *u = NULL;
    int st = run_group(g, j, o, e->epsilon, K, &m, &u, err);
    if (st == EM_OK) {
        e->p_true_mode = u->p_best;
        e->expected_loss = u->expected_loss;
        u->p_best = u->expected_loss = NULL;
        e->p_true_mode_d = u->p_best_d;
        e->expected_loss_d = u->expected_loss_d;
        if (!(e->provenance = strdup(em_mech_get(m).provenance)))
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    if (st == EM_OK)
        st = exponents(m, t, nt, e, err);
    em_free(u);
    em_free(m);
    return st;
}

static int same_law(mpq_t *const *t, const size_t *nt, size_t k)
{
    for (size_t j = 1; j < k; j++) {
        if (nt[j] != nt[0])
            return 0;
        for (size_t i = 0; i < nt[0]; i++)
            if (!mpq_equal(t[j][i], t[0][i]))
                return 0;
    }
    return 1;
}

static int analyse(em_groups *g, const em_groups_opts *o, int K, mpq_t *w, mpq_t **t,
                   size_t *nt, char **eps, em_groups_report *r, em_error *err)
{
    mpq_t total;
    mpq_init(total);
    const char *msg = NULL;
    int kind, st = EM_OK;
    if (em_q_parse_str(o->epsilon, 0, total, &kind, &msg) != EM_OK)
        st = em_err(err, EM_ERR_PARSE, "epsilon %.40s: bad number: %s", o->epsilon,
                    msg ? msg : "malformed");
    else if (mpq_sgn(total) <= 0)
        st = em_err(err, EM_ERR_EPSILON, "epsilon %.40s: must be > 0", o->epsilon);
    if (st == EM_OK)
        st = split_weights(g, o->split, w, err);
    for (size_t j = 0; j < g->k && st == EM_OK; j++) {
        mpq_mul(w[j], w[j], total);
        st = group_entry(g, j, o, w[j], K, &r->group[j], t[j], &nt[j], err);
        eps[j] = r->group[j].epsilon;
    }
    mpq_clear(total);
    if (st == EM_OK && same_law(t, nt, g->k)) {
        r->gap_d = 0;
        if (!(r->gap = strdup("0")))
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    } else if (st == EM_OK) {
        st = gap_decide(g, o, eps, K, r, err);
    }
    return st;
}

static int groups_analyse_any(em_groups *g, const em_groups_opts *o, em_groups_report **out,
                              em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_groups_analyse: out is NULL");
    *out = NULL;
    if (!g || !o || !o->epsilon || !o->split)
        return em_err(err, EM_ERR_NULL, "em_groups_analyse: %s is NULL",
                      !g ? "g" : !o ? "o" : !o->epsilon ? "epsilon" : "split");
    int K = o->digits ? o->digits : 17;
    if (K < 1 || K > EM_ROUND_MAX_DIGITS)
        return em_err(err, EM_ERR_DOMAIN, "digits %d: expected 1 to %d", o->digits,
                      EM_ROUND_MAX_DIGITS);
    size_t k = g->k, n = em_scn_get(em_scoring_get(g->score[0]).scn).size;
    /* the split as given, behind the report, for em_write */
    size_t split_len = strlen(o->split) + 1;
    em_groups_report *r = em_obj_new(sizeof *r + split_len, groups_report_destroy);
    if (r)
        memcpy(r + 1, o->split, split_len);
    mpq_t *w = malloc(k * sizeof *w);
    mpq_t **t = calloc(k, sizeof *t);
    size_t *nt = calloc(k, sizeof *nt);
    char **eps = calloc(k, sizeof *eps);
    int st = r && w && t && nt && eps && (r->group = calloc(k, sizeof *r->group))
                 ? EM_OK
                 : em_err(err, EM_ERR_NOMEM, "out of memory");
    if (r)
        r->n = st == EM_OK ? k : 0;
    for (size_t j = 0; j < k && st == EM_OK; j++) {
        if (!(t[j] = malloc(n * sizeof *t[j]))) {
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
            break;
        }
        for (size_t i = 0; i < n; i++)
            mpq_init(t[j][i]);
    }
    for (size_t j = 0; w && j < k; j++)
        mpq_init(w[j]);
    if (st == EM_OK)
        st = analyse(g, o, K, w, t, nt, eps, r, err);
    for (size_t j = 0; j < k; j++) {
        for (size_t i = 0; t && t[j] && i < n; i++)
            mpq_clear(t[j][i]);
        if (t)
            free(t[j]);
        if (w)
            mpq_clear(w[j]);
    }
    free(w);
    free(t);
    free(nt);
    free(eps);
    return EM_HAND_OUT(st, r, em_free, out, err);
}

/* em_write of a groups report (em_obj.h) */
static int write_groups_report(FILE *f, const void *obj, const void *const *ctx,
                               const em_write_opts *o,
                               em_error *err)
{
    return em_groups_report_write(f, ctx[0], obj, ctx[1], o, err);
}

int em_groups_analyse(em_groups *g, const em_groups_opts *o, em_groups_report **out,
                      em_error *err)
{
    int st = groups_analyse_any(g, o, out, err);
    if (st == EM_OK)
        em_obj_writer(*out, write_groups_report, g, *out + 1);
    return st;
}
