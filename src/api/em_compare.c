/* em_compare.c: em_compare and friends (em_judge.h): another implementation's probabilities
 * (or CDF table) against the exact ones, every error computed exactly at 256 bits. */
#include "em_judge.h"
#include "api/em_judge_priv.h"
#include "base/em_error.h"
#include "core/em_params.h"
#include "io/em_cdf_file.h"
#include "io/em_probsfile.h"
#include "judge/em_cdf_compare.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "base/em_mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>
#include "api/em_obj.h"


#define PROBS_MAX ((size_t)4 << 30)
#define DIGITS 40   /* the exact values compared: beyond any double's 17 */
#define PREC 256

static void compare_result_destroy(void *obj)
{
    em_compare_result *r = obj;
    for (size_t k = 0; k < r->nshow; k++)
        EM_FREE_ALL(r->show[k].x, r->show[k].given, r->show[k].exact);
    EM_FREE_ALL(r->max_abs_text, r->max_rel_text, r->max_ulp_text, r->sum_minus_one_text,
                r->x_abs, r->x_rel, r->x_tail);
    em_obj_release(r);
}

static int begin(em_mech *m, const void *data, int continuous, const em_compare_opts **o,
                 em_compare_result **out, em_compare_result **r, em_error *err)
{
    static const em_compare_opts defaults = EM_COMPARE_OPTS_INIT;
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_compare: out is NULL");
    *out = NULL;
    if (!m || !data)
        return em_err(err, EM_ERR_NULL, "em_compare: mechanism or values NULL");
    if (!*o)
        *o = &defaults;
    if (!((*o)->rtol >= 0) || !((*o)->atol >= 0))
        return em_err(err, EM_ERR_DOMAIN, "rtol %g, atol %g: expected numbers >= 0",
                      (*o)->rtol, (*o)->atol);
    if (m->scn->continuous != continuous)
        return em_err(err, EM_ERR_DOMAIN, "%s",
                      continuous ? "a CDF table needs a continuous scenario ('# output: continuous')"
                                 : "a continuous scenario is compared with a CDF table, not "
                                   "probabilities");
    *r = em_obj_new(sizeof **r, compare_result_destroy);
    if (!*r)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    (*r)->rtol = (*o)->rtol;
    (*r)->atol = (*o)->atol;
    return EM_OK;
}

/* ------------------------------------------------------- the exact values */

/* Candidate i's exact probability: its decimal and flags (EM_OF_*), from whichever oracle
 * the mechanism needs. */
typedef struct exact {
    em_oracle *o;
    char **dec;            /* pf and weighted: the decimals */
    unsigned *mflags;      /* weighted: em_cval flags */
    size_t positive;       /* candidates not excluded */
} exact;

static void exact_free(exact *E, size_t n)
{
    em_oracle_free(E->o);
    if (E->dec)
        for (size_t i = 0; i < n; i++)
            free(E->dec[i]);
    free(E->dec);
    free(E->mflags);
}

static int weighted_decimals(em_mech *m, exact *E, em_error *err)
{
    size_t n = m->scn->n;
    em_cont *law = NULL;
    int st = em_judge_law(m, DIGITS, &law, err);
    if (st != EM_OK)
        return st;
    E->dec = calloc(n, sizeof *E->dec);
    E->mflags = calloc(n, sizeof *E->mflags);
    st = E->dec && E->mflags ? EM_OK : EM_ERR_NOMEM;
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        em_cval v, lv;
        em_cval_init(&v);
        em_cval_init(&lv);
        st = em_cont_prob(law, i, &v, &lv);
        if (st == EM_OK) {
            E->dec[i] = v.str;
            v.str = NULL;
            E->mflags[i] = v.flags;
        }
        em_cval_clear(&v);
        em_cval_clear(&lv);
    }
    em_cont_free(law);
    return st == EM_OK ? EM_OK : em_judge_fail(err, st, NULL);
}

static int exact_new(em_mech *m, exact *E, em_error *err)
{
    em_scn *sc = m->scn;
    memset(E, 0, sizeof *E);
    int st = em_judge_pf_limit(m, err);
    if (st != EM_OK)
        return st;
    if (sc->has_measure)
        return weighted_decimals(m, E, err);
    for (size_t i = 0; i < sc->n; i++)
        E->positive += !sc->excluded[i];
    if (m->variant == EM_PF) {
        E->dec = calloc(sc->n, sizeof *E->dec);
        st = E->dec ? em_pf_pmf(&m->prob, NULL, DIGITS, E->dec) : EM_ERR_NOMEM;
    } else {
        st = em_oracle_new(&m->prob, DIGITS, &E->o, NULL);
    }
    if (st != EM_OK)
        return em_judge_fail(err, st, m->variant == EM_PF ? "variant pf" : NULL);
    return EM_OK;
}

static int exact_get(const em_mech *m, exact *E, size_t i, em_oracle_cand *c, em_error *err)
{
    if (E->o) {
        int st = em_oracle_get(E->o, i, c);
        return st == EM_OK ? EM_OK : em_err(err, st, "%s", em_strerror(st));
    }
    memset(c, 0, sizeof *c);
    c->prob = E->dec[i];
    if (E->mflags) {
        /* em_cont_prob: "0" / "1" only when exact; a value below 1 may round to 1 */
        int ex = (E->mflags[i] & EM_CV_EXACT) != 0;
        c->flags = ex && !strcmp(E->dec[i], "0")   ? EM_OF_ZERO
                   : ex && !strcmp(E->dec[i], "1") ? EM_OF_ONE
                   : em_format_is_one(E->dec[i])           ? EM_OF_NEAR_ONE
                                                   : 0;
    } else {
        /* em_pf_pmf: "0" only when excluded */
        c->flags = m->scn->excluded[i] ? EM_OF_ZERO
                   : E->positive == 1     ? EM_OF_ONE
                   : em_format_is_one(E->dec[i])  ? EM_OF_NEAR_ONE
                                          : 0;
    }
    return EM_OK;
}

/* ------------------------------------------------------------ the judging */

static char *given_text(const em_pvalue *g, mpfr_t Q)
{
    if (g->kind != EM_PV_NUM)
        return strdup(g->kind == EM_PV_NAN ? "nan" : g->kind == EM_PV_PINF ? "inf" : "-inf");
    char *s = em_q_to_string(g->q, 25);
    if (s && strlen(s) > 40) /* long exact decimals: 17 digits */
        mpfr_sprintf(s, "%.17Rg", Q);
    return s;
}

static char *fmt6(mpfr_t x)
{
    char *s = NULL;
    return mpfr_asprintf(&s, "%.6Rg", x) < 0 ? NULL : s;
}

typedef struct acc {
    mpfr_t P, Q, e, rel, ulp, tol, maxabs, maxrel, maxulp, sum, floor;
} acc;

/* Judge candidate i: its counters, and *why when it fails. */
/* A log-probability column beside the probabilities is judged too: the given double
 * against the exact log P (the oracle's correctly rounded decimal), within
 * max(rtol |log P|, 2^-52) (a log P of 0 has no relative error to measure); NaN, or a
 * finite value where P = 0 (or -inf where P > 0), fails. */
static const char *judge_log(em_compare_result *r, const em_pvalue *g, const em_oracle_cand *c,
                             char *exact_text, size_t cap)
{
    double gl = g->logv;
    if (isnan(gl))
        return "log-probability NaN";
    int zero = (c->flags & EM_OF_ZERO) != 0;
    if (zero || isinf(gl))
        return zero && gl == -INFINITY ? NULL : "log-probability: -inf exactly where P = 0";
    mpfr_t L, e;
    mpfr_inits2(PREC, L, e, (mpfr_ptr)0);
    if (c->logprob) {
        mpfr_strtofr(L, c->logprob, NULL, 10, MPFR_RNDN);
        snprintf(exact_text, cap, "%s", c->logprob);
    } else {
        /* weighted and pf laws give P only (40 digits): its log, far within tolerance */
        mpfr_strtofr(L, c->prob, NULL, 10, MPFR_RNDN);
        mpfr_log(L, L, MPFR_RNDN);
        mpfr_snprintf(exact_text, cap, "%.40Rg", L);
    }
    mpfr_sub_d(e, L, gl, MPFR_RNDN);
    mpfr_abs(e, e, MPFR_RNDN);
    mpfr_abs(L, L, MPFR_RNDN);
    mpfr_mul_d(L, L, r->rtol, MPFR_RNDN);
    if (mpfr_cmp_d(L, 0x1p-52) < 0)
        mpfr_set_d(L, 0x1p-52, MPFR_RNDN);
    int bad = mpfr_cmp(e, L) > 0;
    mpfr_clears(L, e, (mpfr_ptr)0);
    return bad ? "log-probability error above tolerance" : NULL;
}

static void judge_one(em_compare_result *r, acc *a, const em_pvalue *g, const em_oracle_cand *c,
                      size_t i, const char **why)
{
    int below_range = (c->flags & EM_OF_FROM_LOG) != 0;
    if (below_range)
        mpfr_set_ui(a->P, 0, MPFR_RNDN); /* positive, but below 2^(-2^62): treated as 0+ */
    else if (c->flags & EM_OF_NEAR_ONE)
        mpfr_set_ui(a->P, 1, MPFR_RNDN), mpfr_nextbelow(a->P); /* 1 - (far below 2^-256) */
    else
        mpfr_strtofr(a->P, c->prob, NULL, 10, MPFR_RNDN);
    const int pos = !(c->flags & EM_OF_ZERO);
    *why = NULL;
    if (g->kind == EM_PV_NAN) {
        r->nnan++;
        *why = "NaN";
        return;
    }
    if (g->kind != EM_PV_NUM) {
        r->ninf++;
        *why = "infinite";
        return;
    }
    mpfr_set_q(a->Q, g->q, MPFR_RNDN);
    mpfr_add(a->sum, a->sum, a->Q, MPFR_RNDN);
    if (mpfr_sgn(a->Q) < 0)
        r->nneg++, *why = "negative";
    if (mpfr_cmp_ui(a->Q, 1) > 0)
        r->nbig++, *why = "above 1";
    if (mpfr_zero_p(a->Q) && pos) {
        r->nzero++;
        /* could a double hold it?  RN-double(P) > 0 iff P > 2^-1075 */
        if (!below_range && mpfr_cmp_ui_2exp(a->P, 1, -1075) > 0)
            r->nzero_repr++;
    }
    mpfr_sub(a->e, a->Q, a->P, MPFR_RNDN);
    mpfr_abs(a->e, a->e, MPFR_RNDN);
    if (mpfr_cmp(a->e, a->maxabs) > 0)
        mpfr_set(a->maxabs, a->e, MPFR_RNDN), r->worst = i;
    if (mpfr_zero_p(a->P)) {
        if (!mpfr_zero_p(a->e) && !r->rel_infinite)
            r->rel_infinite = 1, r->worst_rel = i;
        if (!pos && !mpfr_zero_p(a->e))
            *why = "positive where the exact probability is 0";
    } else {
        mpfr_div(a->rel, a->e, a->P, MPFR_RNDN);
        if (!r->rel_infinite && mpfr_cmp(a->rel, a->maxrel) > 0)
            mpfr_set(a->maxrel, a->rel, MPFR_RNDN), r->worst_rel = i;
    }
    /* ulp of double at P: 2^(max(exp(P) - 53, -1074)) */
    long ex = mpfr_zero_p(a->P) ? -2000 : (long)mpfr_get_exp(a->P);
    mpfr_set_ui_2exp(a->ulp, 1, ex - 53 < -1074 ? -1074 : ex - 53, MPFR_RNDN);
    mpfr_div(a->rel, a->e, a->ulp, MPFR_RNDN);
    if (mpfr_cmp(a->rel, a->maxulp) > 0)
        mpfr_set(a->maxulp, a->rel, MPFR_RNDN), r->worst_ulp = i;
    mpfr_mul_d(a->tol, a->P, r->rtol, MPFR_RNDN);
    if (mpfr_cmp(a->tol, a->floor) < 0)
        mpfr_set(a->tol, a->floor, MPFR_RNDN);
    if (!*why && mpfr_cmp(a->e, a->tol) > 0)
        *why = "error above tolerance";
}

static int judge(em_mech *m, const em_pvalue *gv, em_compare_result *r, em_error *err)
{
    size_t n = m->scn->n;
    exact E;
    int st = exact_new(m, &E, err);
    if (st != EM_OK) {
        exact_free(&E, n);
        return st;
    }
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    acc a;
    mpfr_inits2(PREC, a.P, a.Q, a.e, a.rel, a.ulp, a.tol, a.maxabs, a.maxrel, a.maxulp, a.sum,
                a.floor, (mpfr_ptr)0);
    mpfr_set_ui(a.maxabs, 0, MPFR_RNDN);
    mpfr_set_ui(a.maxrel, 0, MPFR_RNDN);
    mpfr_set_ui(a.maxulp, 0, MPFR_RNDN);
    mpfr_set_ui(a.sum, 0, MPFR_RNDN);
    mpfr_set_d(a.floor, r->atol, MPFR_RNDN);
    r->n = n;
    for (size_t i = 0; i < n && st == EM_OK; i++) {
        em_oracle_cand c;
        const char *why;
        st = exact_get(m, &E, i, &c, err);
        if (st != EM_OK)
            break;
        judge_one(r, &a, &gv[i], &c, i, &why);
        char logtxt[32] = "", logexact[64] = "";
        if (!why && gv[i].has_log &&
            (why = judge_log(r, &gv[i], &c, logexact, sizeof logexact)) != NULL)
            snprintf(logtxt, sizeof logtxt, "%.17g", gv[i].logv);
        if (!why)
            continue;
        r->nfail++;
        if (r->nshow < EM_COMPARE_SHOW) {
            em_compare_row *w = &r->show[r->nshow++];
            w->index = i;
            w->why = why;
            w->given = logtxt[0] ? strdup(logtxt) : given_text(&gv[i], a.Q);
            w->exact = strdup(logtxt[0] ? logexact : c.prob);
            if (!w->given || !w->exact)
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
        }
    }
    if (st == EM_OK) {
        mpfr_sub_ui(a.sum, a.sum, 1, MPFR_RNDN);
        r->max_abs_error = mpfr_get_d(a.maxabs, MPFR_RNDN);
        r->max_rel_error = r->rel_infinite ? INFINITY : mpfr_get_d(a.maxrel, MPFR_RNDN);
        r->max_ulp_error = mpfr_get_d(a.maxulp, MPFR_RNDN);
        r->max_abs_text = fmt6(a.maxabs);
        r->max_rel_text = r->rel_infinite ? strdup("inf") : fmt6(a.maxrel);
        r->max_ulp_text = fmt6(a.maxulp);
        r->sum_minus_one_text = fmt6(a.sum);
        r->passed = r->nfail == 0;
        if (!r->max_abs_text || !r->max_rel_text || !r->max_ulp_text || !r->sum_minus_one_text)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    mpfr_clears(a.P, a.Q, a.e, a.rel, a.ulp, a.tol, a.maxabs, a.maxrel, a.maxulp, a.sum, a.floor,
                (mpfr_ptr)0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    exact_free(&E, n);
    return st;
}

static em_pvalue *pvalues_new(size_t n)
{
    em_pvalue *gv = calloc(n ? n : 1, sizeof *gv);
    for (size_t i = 0; gv && i < n; i++)
        mpq_init(gv[i].q);
    return gv;
}

static void pvalues_free(em_pvalue *gv, size_t n)
{
    for (size_t i = 0; gv && i < n; i++)
        mpq_clear(gv[i].q);
    free(gv);
}

/* Judge gv and hand the result out. */
static int finish(em_mech *m, em_pvalue *gv, em_compare_result *r, em_compare_result **out,
                  em_error *err)
{
    int st = judge(m, gv, r, err);
    pvalues_free(gv, m->scn->n);
    return EM_HAND_OUT(st, r, em_free, out, err);
}

static int compare_values(em_mech *m, const double *given, size_t n, const em_compare_opts *o,
                          em_compare_result **out, em_error *err)
{
    em_compare_result *r = NULL;
    int st = begin(m, given, 0, &o, out, &r, err);
    if (st != EM_OK)
        return st;
    if (n != m->scn->n) {
        em_obj_release(r);
        return em_err(err, n ? EM_ERR_DOMAIN : EM_ERR_EMPTY, "%zu values for %zu candidates",
                      n, m->scn->n);
    }
    em_pvalue *gv = pvalues_new(n);
    if (!gv) {
        em_obj_release(r);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        double g = given[i];
        gv[i].kind = isnan(g) ? EM_PV_NAN : isinf(g) ? (g > 0 ? EM_PV_PINF : EM_PV_NINF)
                                                     : EM_PV_NUM;
        if (gv[i].kind == EM_PV_NUM)
            mpq_set_d(gv[i].q, g); /* exact: a double is a dyadic rational */
        gv[i].set = 1;
    }
    return finish(m, gv, r, out, err);
}

/* r judged against a file of probabilities (path) */
static int probs_file(em_mech *m, const char *path, em_compare_result *r, em_error *err)
{
    int st = EM_OK;
    const em_scn *sc = m->scn;
    const char *name;
    char *buf = NULL;
    size_t len;
    em_pvalue *gv = pvalues_new(sc->n);
    if (!gv)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    if (st == EM_OK)
        st = em_judge_read(path, PROBS_MAX, &name, &buf, &len, err);
    if (st == EM_OK) {
        em_error e = {EM_OK, ""};
        st = em_probs_file_parse(buf, len, name, sc->n, em_judge_find_label, sc, gv, &e);
        if (st != EM_OK)
            em_err(err, st, "%s", st == EM_ERR_NOMEM ? "out of memory" : e.msg);
    }
    free(buf);
    if (st == EM_OK)
        st = judge(m, gv, r, err);
    pvalues_free(gv, sc->n);
    return st;
}

/* ------------------------------------------------------------ CDF tables */

static int cdf_fill(em_compare_result *r, em_cont *C, const em_cdf_table *T,
                    const em_cdf_compare_result *c)
{
    /* the worst point of each error (absolute, relative, tail): the error, its point's
     * index, line and x */
    const struct {
        double max;
        size_t i;
        double *error;
        size_t *worst;
        unsigned long *line;
        char **x;
    } worst[] = {{c->max_abs, c->i_abs, &r->max_abs_error, &r->worst, &r->line_abs, &r->x_abs},
                 {c->max_rel, c->i_rel, &r->max_rel_error, &r->worst_rel, &r->line_rel,
                  &r->x_rel},
                 {c->max_tail, c->i_tail, &r->max_tail_error, &r->worst_tail, &r->line_tail,
                  &r->x_tail}};
    int ok = 1;
    for (size_t k = 0; k < sizeof worst / sizeof worst[0]; k++) {
        *worst[k].error = worst[k].max;
        *worst[k].worst = worst[k].i;
        *worst[k].line = T->line[worst[k].i];
        ok &= (*worst[k].x = em_q_to_string(T->x[worst[k].i], 17)) != NULL;
    }
    r->n = c->n;
    r->rel_infinite = isinf(c->max_rel);
    r->nfail = c->nfail;
    r->nnan = c->nnan;
    r->ninf = c->ninf;
    r->nneg = c->nneg;
    r->nbig = c->nbig;
    r->ndecrease = c->ndecrease;
    r->passed = !c->reject;
    for (size_t k = 0; k < c->nshow; k++) {
        size_t i = c->show[k];
        em_compare_row *w = &r->show[r->nshow++];
        w->index = i;
        w->line = T->line[i];
        w->x = em_q_to_string(T->x[i], 17);
        if (T->kind[i] == EM_CDFV_NUM)
            ok &= asprintf(&w->given, "%.17g", em_q_get_d(T->g[i], NULL)) >= 0;
        else
            w->given = strdup(T->kind[i] == EM_CDFV_NAN ? "nan" : T->kind[i] == EM_CDFV_PINF
                                                                   ? "inf" : "-inf");
        /* the exact F correctly rounded to the digits asked, not the double nearest it */
        em_cval cv = {NULL, 0, 0};
        if (em_cont_cdf(C, T->x[i], &cv) == EM_OK && cv.str)
            ok &= (w->exact = strdup(cv.str)) != NULL;
        else
            ok &= asprintf(&w->exact, "%.17g", c->F_show[k]) >= 0;
        em_cval_clear(&cv);
        ok &= w->x && w->given;
    }
    return ok ? EM_OK : EM_ERR_NOMEM;
}

/* r judged against a CDF table (path) */
static int cdf_file(em_mech *m, const char *path, em_compare_result *r, em_error *err)
{
    em_cont *C = NULL;
    em_cdf_table T;
    em_cdf_table_init(&T);
    char *buf = NULL;
    const char *name;
    size_t len;
    int st = em_judge_law(m, m->digits, &C, err);
    if (st == EM_OK)
        st = em_judge_read(path, PROBS_MAX, &name, &buf, &len, err);
    if (st == EM_OK) {
        em_error e = {EM_OK, ""};
        st = em_cdf_table_parse(&T, buf, len, name, &e);
        if (st != EM_OK)
            em_err(err, st, "%s", e.msg);
        else if (T.n == 0)
            st = em_err(err, EM_ERR_EMPTY, "%s: no points", name);
    }
    em_cdf_compare_result c;
    if (st == EM_OK) {
        st = em_cdf_compare(C, &T, r->rtol, r->atol, &c);
        if (st != EM_OK)
            em_judge_fail(err, st, NULL);
    }
    if (st == EM_OK && cdf_fill(r, C, &T, &c) != EM_OK)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    em_cdf_table_free(&T);
    em_cont_free(C);
    free(buf);
    return st;
}

/* A file of values: probabilities for a finite m, a CDF table for a continuous one. */
static int compare_path(em_mech *m, const char *path, const em_compare_opts *o,
                        em_compare_result **out, em_error *err)
{
    em_compare_result *r = NULL;
    const int cdf = m && m->scn->continuous;
    int st = begin(m, "", cdf, &o, out, &r, err);
    if (st != EM_OK)
        return st;
    st = cdf ? cdf_file(m, path, r, err) : probs_file(m, path, r, err);
    return EM_HAND_OUT(st, r, em_free, out, err);
}

static int compare_any(em_mech *m, const double *given, size_t n, const char *path,
                       const em_compare_opts *o, em_compare_result **out, em_error *err)
{
    if (given && path) {
        if (out)
            *out = NULL;
        return em_err(err, EM_ERR_DOMAIN, "em_compare: give either given or path, not both");
    }
    return path ? compare_path(m, path, o, out, err) : compare_values(m, given, n, o, out, err);
}

/* em_write of a comparison (em_obj.h) */
static int write_compare(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                         em_error *err)
{
    return em_compare_result_write(f, obj, ctx[0], o, err);
}

int em_compare(em_mech *m, const double *given, size_t n, const char *path,
               const em_compare_opts *o, em_compare_result **out, em_error *err)
{
    int st = compare_any(m, given, n, path, o, out, err);
    if (st == EM_OK)
        em_obj_writer(*out, write_compare, m, NULL);
    return st;
}
