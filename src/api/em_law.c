/* em_law.c: the law of a mechanism (src/include/em_law.h) over the oracles: the finite
 * oracle (em_oracle), permute-and-flip (em_pf), the weighted and continuous law (em_cont).
 * What they build is cached in the mechanism (struct em_law_cache), so a caller asking
 * candidate by candidate or point by point pays for the normaliser and the law once. */
#include "api/em_law_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
#include "base/em_mem.h"
#include "core/em_fixed.h"
#include "core/em_logweights.h"
#include "core/em_params.h"
#include "core/em_select.h"
#include "core/em_uniform.h"
#include "io/em_label.h"
#include "num/em_bounds.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_accuracy.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "oracle/em_pf_law.h"
#include "em_law.h"
#include "api/em_obj.h"


static void pf_table_free(pf_table *t)
{
    if (!t)
        return;
    em_free_strings(t->dec, t->n);
    em_free_strings(t->log, t->n);
    EM_FREE_ALL(t->pd, t->ld, t->fl, t->nines, t);
}

static void law_cache_free(struct em_law_cache *c)
{
    if (!c)
        return;
    em_oracle_free(c->oracle);
    em_cont_free(c->law);
    pf_table_free(c->pf);
    em_pf_utility_free(c->pf_utility);
    em_cval_clear(&c->p);
    em_cval_clear(&c->lp);
    em_exact_free(c->exact);
    em_pf_free(c->pfs);
    EM_FREE_ALL(c->W, c->C, c->od, c);
}

int em_law_fail(em_error *err, int st, const char *what)
{
    return em_err(err, st, "%s%s%s", what ? what : "", what ? ": " : "", em_cont_strerror(st));
}

struct em_law_cache *em_law_cache_of(em_mech *m, em_error *err)
{
    if (!m->law) {
        m->law = calloc(1, sizeof *m->law);
        if (!m->law) {
            em_err(err, EM_ERR_NOMEM, "out of memory");
            return NULL;
        }
        m->law_free = law_cache_free;
        em_cval_init(&m->law->p);
        em_cval_init(&m->law->lp);
    }
    return m->law;
}

/* The weighted or continuous law (em_cont) of m, built once. */
int em_law_cont(em_mech *m, em_cont **out, em_error *err)
{
    struct em_law_cache *c = em_law_cache_of(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    if (!c->law) {
        if (m->variant == EM_PF)
            return em_err(err, EM_ERR_VARIANT,
                          "variant pf is not available for this computation (standard and "
                          "monotone only)");
        int st = em_cont_new(&m->prob, m->digits, &c->law, err);
        if (st != EM_OK)
            return st;
    }
    *out = c->law;
    return EM_OK;
}

int em_law_continuous(em_mech *m, const char *fn, em_cont **out, em_error *err)
{
    if (!m)
        return em_err(err, EM_ERR_NULL, "%s: m is NULL", fn);
    if (!m->scn->continuous)
        return em_err(err, EM_ERR_DOMAIN, "%s: %s is a finite scenario; a continuous one is "
                      "needed", fn, m->scn->name);
    return em_law_cont(m, out, err);
}

int em_law_parse_num(const char *text, mpq_t q, em_error *err)
{
    int kind;
    const char *msg = NULL;
    if (!text)
        return em_err(err, EM_ERR_NULL, "a number is NULL");
    if (em_q_parse_str(text, 0, q, &kind, &msg) != EM_OK) {
        /* the text as a person may see it: an --at of a terminal's escape sequence, or a
           newline, would otherwise reach stderr raw */
        char shown[8 * 60 + 8];
        return em_err(err, EM_ERR_PARSE, "bad number '%s': %s",
                      em_label_human_str(shown, sizeof shown, text, 60), msg ? msg : "malformed");
    }
    return EM_OK;
}

/* ---------------------------------------------------------- permute-and-flip */

/* em_pf's pmf is limited to EM_PF_PROBS_MAX_N candidates. */
int em_law_pf_limit(em_mech *m, em_error *err)
{
    const em_scn *sc = m->scn;
    if (sc->n > EM_PF_PROBS_MAX_N)
        return em_err(err, EM_ERR_TOO_MANY,
                      "variant pf: %s has %zu candidates; the exact permute-and-flip pmf is "
                      "limited to %zu", sc->name, sc->n, (size_t)EM_PF_PROBS_MAX_N);
    return EM_OK;
}

/* A failure of a computation over PF's pmf (values beyond MPFR's range are decided from
 * their logarithms: what is left is the precision limit). */
int em_law_pf_fail(em_error *err, int st)
{
    return em_err(err, st, "variant pf: %s", em_cont_strerror(st));
}

static int pf_prepare(em_mech *m, struct em_law_cache *c, em_error *err)
{
    em_scn *sc = m->scn;
    const size_t n = sc->n;
    int st = em_law_pf_limit(m, err);
    if (st != EM_OK)
        return st;
    pf_table *t = calloc(1, sizeof *t);
    if (t) {
        t->n = n;
        t->dec = calloc(n, sizeof *t->dec);
        t->log = calloc(n, sizeof *t->log);
        t->pd = malloc(n * sizeof *t->pd);
        t->ld = malloc(n * sizeof *t->ld);
        t->fl = calloc(n, sizeof *t->fl);
        t->nines = em_format_nines(m->digits);
    }
    if (!t || !t->dec || !t->log || !t->pd || !t->ld || !t->fl || !t->nines) {
        pf_table_free(t);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        t->left += !sc->excluded[i];
    em_pfl *L;
    st = em_pfl_new(&m->prob, &L, NULL);
    if (st == EM_OK) {
        em_pfl_out o = {t->dec, t->log, t->pd, t->ld, t->fl};
        st = em_pfl_round(L, m->digits, &o);
        em_pfl_free(L);
    }
    if (st != EM_OK) {
        pf_table_free(t);
        return em_law_pf_fail(err, st);
    }
    c->pf = t;
    return EM_OK;
}

/* ------------------------------------------------------------- probabilities */

int em_probs_prepare(em_mech *m, em_error *err)
{
    if (!m)
        return em_err(err, EM_ERR_NULL, "em_probs_prepare: m is NULL");
    struct em_law_cache *c = em_law_cache_of(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_scn *sc = m->scn;
    int st = EM_OK;
    em_cont *L;
    if (sc->continuous || sc->has_measure)
        st = em_law_cont(m, &L, err);
    else if (m->variant == EM_PF && !c->pf)
        st = pf_prepare(m, c, err);
    else if (m->variant != EM_PF && !c->oracle)
        st = em_oracle_new(&m->prob, m->digits, &c->oracle, err);
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}

static unsigned cval_flags(const em_cval *p)
{
    unsigned f = (p->flags & EM_CV_NEAR_ONE) ? EM_PROB_NEAR_ONE : 0;
    f |= (p->flags & EM_CV_FROM_LOG) ? EM_PROB_FROM_LOG : 0;
    if ((p->flags & EM_CV_EXACT) && !strcmp(p->str, "0"))
        f |= EM_PROB_ZERO;
    if ((p->flags & EM_CV_EXACT) && !strcmp(p->str, "1"))
        f |= EM_PROB_ONE;
    return f;
}

int em_probs_get(em_mech *m, size_t i, em_prob *out, em_error *err)
{
    if (!m || !out)
        return em_err(err, EM_ERR_NULL, "em_probs_get: m or out is NULL");
    int st = em_probs_prepare(m, err);
    if (st != EM_OK)
        return st;
    struct em_law_cache *c = m->law;
    const em_scn *sc = m->scn;
    if (c->law) {
        if (i >= em_cont_size(c->law))
            return em_err(err, EM_ERR_DOMAIN, "%zu: no such %s (%zu)", i,
                          sc->continuous ? "piece" : "candidate", em_cont_size(c->law));
        if ((st = em_cont_prob(c->law, i, &c->p, &c->lp)) != EM_OK)
            return em_law_fail(err, st, NULL);
        *out = (em_prob){c->p.str, c->lp.str, c->p.d, c->lp.d,
                         cval_flags(&c->p) |
                             ((c->lp.flags & EM_CV_LOG_FROM_LOG) ? EM_PROB_LOG_FROM_LOG : 0)};
    } else if (i >= sc->n) {
        return em_err(err, EM_ERR_DOMAIN, "%zu: no such candidate (%zu)", i, sc->n);
    } else if (c->pf) {
        const pf_table *t = c->pf;
        /* exactly 1 only for the only candidate; below 1 but rounding to 1: K nines */
        int n1 = t->left > 1 && em_format_is_one(t->dec[i]);
        unsigned f = sc->excluded[i] ? EM_PROB_ZERO : t->left == 1 ? EM_PROB_ONE : 0;
        f |= (n1 ? EM_PROB_NEAR_ONE : 0) | t->fl[i]; /* EM_PROB_*FROM_LOG = EM_OF_* */
        f |= !t->log[i] ? EM_PROB_UNDECIDED : 0;
        *out = (em_prob){n1 ? t->nines : t->dec[i], t->log[i] ? t->log[i] : "nan", t->pd[i],
                         t->ld[i], f};
    } else {
        em_oracle_cand r;
        if ((st = em_oracle_get(c->oracle, i, &r)) != EM_OK)
            return em_law_fail(err, st, NULL);
        /* EM_PROB_* are the oracle's EM_OF_* bits */
        *out = (em_prob){r.prob, r.logprob, r.prob_d, r.logprob_d, r.flags};
        if (!c->od && (c->od = malloc(sc->n * sizeof *c->od)))
            for (size_t k = 0; k < sc->n; k++)
                c->od[k] = NAN;
        if (c->od && isnan(c->od[i]) && !isnan(r.prob_d)) {
            c->od[i] = r.prob_d;
            c->od_n++;
        }
    }
    em_err_ok(err);
    return EM_OK;
}

static int end_text(const mpq_t q, int inf, const char *inf_text, char **out)
{
    *out = inf ? strdup(inf_text) : em_q_to_string(q, 40);
    return *out ? EM_OK : EM_ERR_NOMEM;
}

static int piece_ends_plain(em_mech *m, size_t j, char **lo, char **hi, em_error *err)
{
    if (!lo || !hi)
        return em_err(err, EM_ERR_NULL, "em_piece_ends: lo or hi is NULL");
    *lo = *hi = NULL;
    em_cont *L;
    int st = em_law_continuous(m, "em_piece_ends", &L, err);
    if (st != EM_OK)
        return st;
    if (j >= em_cont_size(L))
        return em_err(err, EM_ERR_DOMAIN, "piece %zu: no such piece (%zu)", j, em_cont_size(L));
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    int li, hinf;
    em_cont_piece(L, j, a, b, &li, &hinf, NULL, NULL);
    st = end_text(a, li, "-inf", lo);
    if (st == EM_OK)
        st = end_text(b, hinf, "inf", hi);
    mpq_clears(a, b, (mpq_ptr)0);
    if (st != EM_OK) {
        free(*lo);
        *lo = NULL;
        return em_err(err, st, "out of memory");
    }
    em_err_ok(err);
    return EM_OK;
}

int em_piece_ends(em_mech *m, size_t j, char **lo, char **hi, em_error *err)
{
    return EM_OBJ_STRINGS(piece_ends_plain(m, j, lo, hi, err), err, lo, hi);
}

/* ----------------------------------------------------------- continuous laws */

/* The strings of v1 and v2 handed to *o1 and *o2 (a NULL o1 or o2: not wanted). */
void em_law_take(em_cval *v1, char **o1, em_cval *v2, char **o2)
{
    if (o1) {
        *o1 = v1->str;
        v1->str = NULL;
    }
    if (o2) {
        *o2 = v2->str;
        v2->str = NULL;
    }
}

int em_law_pointwise(em_mech *m, int f, const char *fn, const char *x, const char *y,
                     char **out, char **out2, em_error *err)
{
    if (!out || (f == F_DENSITY && !out2))
        return em_err(err, EM_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (out2)
        *out2 = NULL;
    em_cont *L;
    int st = f == F_TAIL ? (m ? em_law_cont(m, &L, err) : em_err(err, EM_ERR_NULL, "%s: m is NULL", fn))
                         : em_law_continuous(m, fn, &L, err);
    if (st != EM_OK)
        return st;
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    em_cval v1, v2;
    em_cval_init(&v1);
    em_cval_init(&v2);
    st = em_law_parse_num(x, a, err);
    if (st == EM_OK && f == F_INTERVAL)
        st = em_law_parse_num(y, b, err);
    if (st == EM_OK && f == F_INTERVAL && mpq_cmp(a, b) > 0)
        st = em_err(err, EM_ERR_DOMAIN, "%s: a > b", fn);
    else if (st == EM_OK && f == F_TAIL && mpq_sgn(a) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "%s: a loss threshold must be >= 0", fn);
    else if (st == EM_OK && f == F_QUANTILE && (mpq_sgn(a) < 0 || mpq_cmp_ui(a, 1, 1) > 0))
        st = em_err(err, EM_ERR_DOMAIN, "%s: p = %s: p must be in [0, 1]", fn, x);
    else if (st == EM_OK) {
        st = f == F_CDF        ? em_cont_cdf(L, a, &v1)
             : f == F_DENSITY  ? em_cont_density(L, a, &v1, &v2)
             : f == F_QUANTILE ? em_cont_quantile(L, a, &v1)
             : f == F_INTERVAL ? em_cont_interval_prob(L, a, b, &v1)
                               : em_cont_loss_tail(L, a, &v1);
        if (st != EM_OK)
            em_law_fail(err, st, NULL);
    }
    mpq_clears(a, b, (mpq_ptr)0);
    if (st == EM_OK) {
        em_law_take(&v1, out, &v2, out2);
        em_err_ok(err);
    }
    em_cval_clear(&v1);
    em_cval_clear(&v2);
    return st;
}

int em_cdf_plain(em_mech *m, const char *x, char **out, em_error *err)
{
    return em_law_pointwise(m, F_CDF, "em_law_at", x, NULL, out, NULL, err);
}

int em_quantile_plain(em_mech *m, const char *p, char **out, em_error *err)
{
    return em_law_pointwise(m, F_QUANTILE, "em_law_at", p, NULL, out, NULL, err);
}

static int law_at_plain(em_mech *m, int what, const char *x, const char *y, char **out,
                        char **log, em_error *err)
{
    static const int f[] = {[EM_LAW_CDF] = F_CDF, [EM_LAW_DENSITY] = F_DENSITY,
                            [EM_LAW_QUANTILE] = F_QUANTILE, [EM_LAW_INTERVAL] = F_INTERVAL};
    if (out)
        *out = NULL;
    if (log)
        *log = NULL;
    if (what < EM_LAW_CDF || what > EM_LAW_INTERVAL)
        return em_err(err, EM_ERR_DOMAIN, "em_law_at: what = %d is not one of EM_LAW_*", what);
    if ((y != NULL) != (what == EM_LAW_INTERVAL) || (log && what != EM_LAW_DENSITY))
        return em_err(err, EM_ERR_DOMAIN, "em_law_at: y is EM_LAW_INTERVAL's b, log "
                      "EM_LAW_DENSITY's (NULL otherwise)");
    /* the log density is computed with the density: not wanted, it is dropped */
    char *logd = NULL;
    int st = em_law_pointwise(m, f[what], "em_law_at", x, y, out,
                              what != EM_LAW_DENSITY ? NULL : log ? log : &logd, err);
    free(logd);
    return st;
}

int em_law_at(em_mech *m, int what, const char *x, const char *y, char **out, char **log,
              em_error *err)
{
    return EM_OBJ_STRINGS(law_at_plain(m, what, x, y, out, log, err), err, out, log);
}
