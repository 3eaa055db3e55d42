/* em_law_utility.c: the utility report of a mechanism (em_law.h): expected utility and
 * loss, loss tails, the accuracy theorem's bounds, and Monte Carlo over the sampler. */
#include "api/em_law_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
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
#include "em_law.h"
#include "base/em_mem.h"
#include "api/em_obj.h"


/* Permute-and-flip's utility report (em_accuracy.h), built once; the law's refusal of pf
 * for a measure or pieces. */
/* A failure of the permute-and-flip utility report: undecided is its own precision limit. */
static int pf_report_fail(em_error *err, int st)
{
    if (st == EM_ERR_UNDECIDED)
        return em_err(err, st, "variant pf: the utility report could not be decided within %d "
                      "bits of the permute-and-flip law (an internal limit: its memory grows "
                      "with the square of the bits)", EM_PF_REPORT_MAX_PREC);
    return em_law_pf_fail(err, st);
}

static int pf_report(em_mech *m, em_pf_utility **out, em_error *err)
{
    struct em_law_cache *c = em_law_cache_of(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_scn *sc = m->scn;
    em_cont *L;
    if (sc->continuous || sc->has_measure)
        return em_law_cont(m, &L, err);
    int st = c->pf_utility ? EM_OK : em_law_pf_limit(m, err);
    if (st == EM_OK && !c->pf_utility)
        st = em_pf_utility_new(&m->prob, m->digits, &c->pf_utility, err);
    *out = c->pf_utility;
    return st;
}

static int loss_tail_plain(em_mech *m, const char *t, char **out, em_error *err)
{
    if (m->variant != EM_PF)
        return em_law_pointwise(m, F_TAIL, "em_utility", t, NULL, out, NULL, err);
    *out = NULL;
    em_pf_utility *P;
    int st = pf_report(m, &P, err);
    if (st != EM_OK)
        return st;
    mpq_t q;
    mpq_init(q);
    em_cval v;
    em_cval_init(&v);
    st = em_law_parse_num(t, q, err);
    if (st == EM_OK && mpq_sgn(q) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "em_utility: a loss threshold must be >= 0");
    else if (st == EM_OK && (st = em_pf_utility_loss_tail(P, q, &v)) != EM_OK)
        pf_report_fail(err, st);
    mpq_clear(q);
    if (st == EM_OK) {
        em_law_take(&v, out, NULL, NULL);
        em_err_ok(err);
    }
    em_cval_clear(&v);
    return st;
}

/* ------------------------------------------------------------ utility report */

static void utility_result_destroy(void *obj)
{
    em_utility_result *r = obj;
    EM_FREE_ALL(r->opt, r->expected_utility, r->expected_loss, r->sd_loss, r->p_best,
                r->expected_loss_bound);
    for (size_t i = 0; i < r->nt; i++)
        EM_FREE_ALL(r->t ? r->t[i] : NULL, r->p_loss_gt ? r->p_loss_gt[i] : NULL,
                    r->p_bound ? r->p_bound[i] : NULL);
    EM_FREE_ALL(r->t, r->p_loss_gt, r->p_bound);
    em_obj_release(r);
}

/* em_utility's moments: a result of the five, the rest of it empty */
static int utility_moments(em_mech *m, em_utility_result **out, em_error *err)
{
    em_cont *L = NULL;
    em_pf_utility *P = NULL;
    int st = m->variant == EM_PF ? pf_report(m, &P, err) : em_law_cont(m, &L, err);
    if (st != EM_OK)
        return st;
    em_cval v[5]; /* opt, E[u], loss, sd, P(best) */
    for (int k = 0; k < 5; k++)
        em_cval_init(&v[k]);
    if (P) {
        if ((st = em_pf_utility_moments(P, &v[0], &v[1], &v[2], &v[3], &v[4])) != EM_OK)
            pf_report_fail(err, st);
    } else {
        st = em_cont_utility(L, &v[1], &v[2], &v[0]);
        if (st == EM_OK)
            st = em_cont_sd(L, &v[3]);
        if (st == EM_OK)
            st = em_cont_p_best(L, &v[4]);
    }
    em_utility_result *r = st == EM_OK ? em_obj_new(sizeof *r, utility_result_destroy) : NULL;
    if (st != EM_OK) {
        if (!P) /* pf: em_law_pf_fail has said why */
            em_law_fail(err, st, NULL);
    } else if (!r)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    else {
        char **s[5] = {&r->opt, &r->expected_utility, &r->expected_loss, &r->sd_loss, &r->p_best};
        double *d[5] = {&r->opt_d, &r->expected_utility_d, &r->expected_loss_d, &r->sd_loss_d,
                        &r->p_best_d};
        for (int k = 0; k < 5; k++) {
            *s[k] = v[k].str;
            v[k].str = NULL;
            *d[k] = v[k].d;
        }
        /* P(best) < 1 exactly when the loss is positive (the loss is 0 only when all mass
         * sits at opt, and a positive loss never rounds to "0"): a rounding to 1 is then
         * printed as K nines, as the probabilities are (EM_PROB_NEAR_ONE), never as a
         * "1.000" that reads as certainty */
        if (r->p_best && r->p_best[0] == '1' && strspn(r->p_best + 1, ".0") == strlen(r->p_best + 1) &&
            r->expected_loss && strcmp(r->expected_loss, "0") != 0) {
            char *nines = em_format_nines(m->digits);
            if (!nines) {
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
            } else {
                free(r->p_best);
                r->p_best = nines;
            }
        }
        if (st == EM_OK) {
            *out = r;
            em_err_ok(err);
        } else {
            em_free(r);
        }
    }
    for (int k = 0; k < 5; k++)
        em_cval_clear(&v[k]);
    return st;
}

/* ------------------------------------------------------- the accuracy theorem */

static int loss_bounds_plain(em_mech *m, const char *t, char **expected_loss_bound, char **p_bound,
                             em_error *err)
{
    if (expected_loss_bound)
        *expected_loss_bound = NULL;
    if (p_bound)
        *p_bound = NULL;
    const em_scn *sc = m->scn;
    mpq_t tq, u, opt, tot, best, c, one;
    mpq_inits(tq, u, opt, tot, best, c, one, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    int st = t ? em_law_parse_num(t, tq, err) : EM_OK;
    if (st == EM_OK && mpq_sgn(tq) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "em_utility: a loss threshold must be >= 0");
    /* |R| and |R_OPT| over the outputs of positive probability, weighted by the measure */
    int have = 0;
    for (size_t i = 0; i < sc->n && st == EM_OK; i++) {
        mpq_srcptr w = sc->has_measure ? sc->measure[i] : NULL;
        if (sc->excluded[i] || (w && mpq_sgn(w) == 0))
            continue;
        em_scn_get_u(sc, i, u);
        int cmp = have ? mpq_cmp(u, opt) : 1;
        if (cmp > 0) {
            mpq_set(opt, u);
            mpq_set_ui(best, 0, 1);
        }
        if (cmp >= 0)
            mpq_add(best, best, w ? w : one);
        mpq_add(tot, tot, w ? w : one);
        have = 1;
    }
    if (st == EM_OK && !have)
        st = em_err(err, EM_ERR_ALL_EXCLUDED, "%s: no output has positive probability",
                    sc->name);
    em_cval eb, pb;
    em_cval_init(&eb);
    em_cval_init(&pb);
    if (st == EM_OK) {
        mpq_div(tot, tot, best);
        mpq_set(c, m->prob.c); /* pf meets the standard mechanism's bounds */
        st = em_theorem_bounds(tot, c, t ? tq : NULL, m->digits,
                               expected_loss_bound ? &eb : NULL, &pb);
        if (st == EM_ERR_UNDECIDED)
            em_err(err, st, "the bound ratio exp(-c t) at t = %.60s lies below MPFR's exponent "
                   "range (about 10^-1.4e18): not computed", t);
        else if (st != EM_OK)
            em_law_fail(err, st, NULL);
    }
    if (st == EM_OK) {
        em_law_take(&eb, expected_loss_bound, &pb, t ? p_bound : NULL);
        em_err_ok(err);
    }
    em_cval_clear(&eb);
    em_cval_clear(&pb);
    mpq_clears(tq, u, opt, tot, best, c, one, (mpq_ptr)0);
    return st;
}

/* ------------------------------------------------------------ Monte Carlo */

static int loss_mc(em_mech *m, const em_sample_opts *o, uint64_t n, double *mean, double *se,
                   em_error *err)
{
    if (n < 2)
        return em_err(err, EM_ERR_DOMAIN, "em_utility: %llu draws: a standard error needs 2 "
                      "at least", (unsigned long long)n);
    em_sampler *s;
    int st = em_sampler_new(m, o, &s, err);
    if (st != EM_OK)
        return st;
    const em_scn *sc = m->scn;
    const em_cont *L = m->law->law; /* built by the sampler for a measure or pieces */
    mpq_t opt, q, a, b;
    mpq_inits(opt, q, a, b, (mpq_ptr)0);
    if (sc->continuous || sc->has_measure)
        em_cont_opt(L, opt);
    for (size_t i = 0, have = 0; !sc->continuous && !sc->has_measure && i < sc->n; i++)
        if (!sc->excluded[i]) {
            em_scn_get_u(sc, i, q);
            if (!have++ || mpq_cmp(q, opt) > 0)
                mpq_set(opt, q);
        }
    /* Welford's running mean and sum of squares: one pass, no cancellation */
    long double mu = 0, m2 = 0;
    for (uint64_t k = 0; k < n && st == EM_OK; k++) {
        size_t i;
        double x = 0;
        if ((st = em_law_draw1(s, &i, &x)) != EM_OK) {
            em_law_fail(err, st, NULL);
            break;
        }
        if (sc->continuous) { /* u = a + b x at the double drawn, exactly */
            em_cont_piece(L, i, NULL, NULL, NULL, NULL, a, b);
            if (isinf(x) && mpq_sgn(b) != 0) {
                /* an exact draw beyond the largest double, rounded to +-inf: its utility
                 * has no value to average */
                st = em_err(err, EM_ERR_DOMAIN, "em_utility: draw %llu lies beyond the "
                            "largest double (rounded to %s) on a piece of nonzero slope: its "
                            "loss has no finite value; use the exact expected loss",
                            (unsigned long long)k + 1, x > 0 ? "inf" : "-inf");
                break;
            }
            mpq_set_d(q, isinf(x) ? 0 : x);
            mpq_mul(q, q, b);
            mpq_add(q, q, a);
        } else {
            em_scn_get_u(sc, i, q);
        }
        mpq_sub(q, opt, q);
        long double l = em_q_get_d(q, NULL), d = l - mu;
        mu += d / (long double)(k + 1);
        m2 += d * (l - mu);
    }
    em_free(s);
    mpq_clears(opt, q, a, b, (mpq_ptr)0);
    if (st != EM_OK)
        return st;
    *mean = (double)mu;
    *se = (double)sqrtl(m2 / (long double)(n - 1) / (long double)n);
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------ the whole report */

/* err's message prefixed with "what: " */
static int prefixed(em_error *err, int st, const char *what)
{
    char msg[EM_ERRLEN];
    snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
    return em_err(err, st, "%s: %s", what, msg);
}

/* em_write of a result: the report of expmech utility over the mechanism it was computed
 * for (ctx[0]) */
static int utility_write(FILE *f, const void *obj, const void *const *ctx,
                         const em_write_opts *o, em_error *err)
{
    const em_utility_result *r = obj;
    const em_utility_report u = {r, r->expected_loss_bound, r->nt, (const char *const *)r->t,
                                 (const char *const *)r->p_loss_gt,
                                 (const char *const *)r->p_bound, r->mc_n, r->mc_mean,
                                 r->mc_se};
    return em_utility_report_write(f, &u, ctx[0], o, err);
}

/* the thresholds' parts of r: each t copied, its tail and (finite) its bound */
static int utility_tails(em_mech *m, const em_utility_opts *o, em_utility_result *r,
                         em_error *err)
{
    if (!o->nt)
        return EM_OK;
    if (!o->t)
        return em_err(err, EM_ERR_NULL, "em_utility: o->t is NULL");
    r->t = calloc(o->nt, sizeof *r->t);
    r->p_loss_gt = calloc(o->nt, sizeof *r->p_loss_gt);
    r->p_bound = calloc(o->nt, sizeof *r->p_bound);
    if (!r->t || !r->p_loss_gt || !r->p_bound)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    r->nt = o->nt;
    int st = EM_OK;
    for (size_t i = 0; st == EM_OK && i < o->nt; i++) {
        if (!o->t[i])
            st = em_err(err, EM_ERR_NULL, "t[%zu] is NULL", i);
        else if (!(r->t[i] = strdup(o->t[i])))
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        else if ((st = loss_tail_plain(m, o->t[i], &r->p_loss_gt[i], err)) == EM_OK &&
                 !m->scn->continuous)
            st = loss_bounds_plain(m, o->t[i], NULL, &r->p_bound[i], err);
        if (st != EM_OK && st != EM_ERR_NOMEM)
            st = prefixed(err, st, "loss_at");
    }
    return st;
}

int em_utility(em_mech *m, const em_utility_opts *o, em_utility_result **out, em_error *err)
{
    static const em_utility_opts none = {0, NULL, 0, NULL};
    static const em_sample_opts fresh = EM_SAMPLE_OPTS_INIT;
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_utility: out is NULL");
    *out = NULL;
    if (!m)
        return em_err(err, EM_ERR_NULL, "em_utility: m is NULL");
    if (!o)
        o = &none;
    em_utility_result *r = NULL;
    int st = utility_moments(m, &r, err);
    if (st != EM_OK)
        return st;
    em_obj_writer(r, utility_write, m, NULL);
    if (!m->scn->continuous)
        st = loss_bounds_plain(m, NULL, &r->expected_loss_bound, NULL, err);
    if (st == EM_OK)
        st = utility_tails(m, o, r, err);
    if (st == EM_OK && o->mc_n &&
        (st = loss_mc(m, o->mc ? o->mc : &fresh, o->mc_n, &r->mc_mean, &r->mc_se, err)) != EM_OK)
        st = prefixed(err, st, "mc");
    if (st != EM_OK) {
        em_free(r);
        return st;
    }
    r->mc_n = o->mc_n;
    *out = r;
    em_err_ok(err);
    return EM_OK;
}
